"""The rules of the games cardkit ships, as small pure functions.

One module a game (ragusa, rise_up, blofa, shapes, bullet) and the standard poker ranking
they share. Nothing here draws or imports reportlab: rules and rendering never meet.
Where a game's published text leaves a question open, the docstring of the function that
decides it says "Ruling:" and how cardkit reads it.
"""
