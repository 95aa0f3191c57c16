"""One deck through every stage, as a command asks: ``build`` (sheets for home printing),
``export`` (a file a card, and previews), ``rulebook`` (the rules as a PDF), ``box``,
``tokens`` and ``boards`` (the components beyond cards, sharing ``components``), ``watch``
(build again on every save) and ``listing`` (what ``cardkit list`` shows, kept in a cache).

It takes a deck's path and options and gives written output and a result to report. It
never imports the command line, which calls it.
"""
