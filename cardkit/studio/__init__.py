"""The studio: ``cardkit serve``, a deck drawn live in the browser (issue 30).

Takes a deck's path; gives a local web app that shows every card as it prints, and pushes
each save to the page. It rebuilds the way ``watch`` does, through the pipeline, and draws
with the writers; it never runs code from the deck, and never imports the rules, the
games or the playtests (a report of theirs is a file it shows)."""
