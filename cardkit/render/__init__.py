"""Drawing one card: a card's side is resolved (its values filled, its text set, its images
read, all of it checked: ``card``, ``textfit``, ``draft``) and painted onto any reportlab
canvas at any place (``paint``); a rulebook's blocks as flowables that draw their cards and
text so (``rulebook``).

It takes the deck model and gives drawings and findings, never files. It never imports
imposition, writers or the commands, and never the rules or games: rendering does not know
the rules.
"""
