"""The rules toolkit: what a game is, and what a designer's rules file builds one on.

Every game cardkit plays is a :class:`State` (its legal moves, applying one, the end and
the returns) played by :class:`Bot` s that see only a seat's observation (``state``). A
designer's game extends :class:`CardGame` (``game``), which keeps the deck's printed
:class:`Card` s (``cards``) in :class:`Pile` s whose visibility says who sees what
(``zones``), and offers each of its moves once by look (``moves``). :class:`SearchBot` plays any game that can be ``determinized``
(``search``). A rules file imports what it needs from here::

    from cardkit.toolkit import CardGame, Bot, HIDDEN, OWNER, BACKS, PUBLIC

It takes the deck's cards as plain values and gives games to play. It imports only the
rules' errors: never the card-drawing stages, reportlab, or the playtest machinery.
"""

from .cards import Card
from .game import CardGame
from .search import SearchBot
from .state import Bot, Game, IllegalMove, RandomBot, State
from .zones import BACKS, HIDDEN, OWNER, PUBLIC, Groups, Pile

__all__ = ["BACKS", "Bot", "Card", "CardGame", "Game", "Groups", "HIDDEN", "IllegalMove",
           "OWNER", "PUBLIC", "Pile", "RandomBot", "SearchBot", "State"]
