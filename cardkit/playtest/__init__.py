"""Playtesting by machine: play many games of a game with bots (``runner``), add up what
happened (``summary``) and write it as a report a designer can read (``report``).
"""
