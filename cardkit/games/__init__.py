"""The games cardkit can play, one module a game, each a :class:`~cardkit.games.base.State`
with its legal moves and bots (see ``base``). They use the rules in ``cardkit.rules`` and
never import reportlab.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the command line reads MODULES without importing a game's machinery
    from .base import Game

MODULES = {"blofa": "blofa", "bullet": "bullet", "ragusa": "ragusa", "rise-up": "rise_up",
           "shapes": "shapes"}  # game name on the command line -> module


def load_game(name: str) -> Game:
    """The game called ``name`` ('rise-up'), imported when first asked for."""
    return import_module(f"{__name__}.{MODULES[name]}").GAME
