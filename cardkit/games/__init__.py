"""The games cardkit ships, playable: one module a game (a package of its state, deal and
bots for the two largest, ``bullet`` and ``ragusa``), each a
:class:`~cardkit.toolkit.state.State` with its legal moves and bots. They use the rules in
``cardkit.rules`` and the toolkit; they never import reportlab nor a card-drawing stage.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the command line reads MODULES without importing a game's machinery
    from ..toolkit.state import Game

MODULES = {"blofa": "blofa", "bullet": "bullet", "ragusa": "ragusa", "rise-up": "rise_up",
           "shapes": "shapes"}  # game name on the command line -> module


def load_game(name: str) -> Game:
    """The game called ``name`` ('rise-up'), imported when first asked for."""
    return import_module(f"{__name__}.{MODULES[name]}").GAME
