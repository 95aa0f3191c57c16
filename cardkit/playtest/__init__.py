"""Playtesting by machine: play many games of a game with bots (``runner``), add up what
happened (``summary``) and write it as a report a designer can read (``report``).

It takes a game from ``games`` and gives figures and a report folder. Like the rules and
games, it never imports the card-drawing stages (deck model, rendering, imposition,
writers) nor reportlab.
"""
