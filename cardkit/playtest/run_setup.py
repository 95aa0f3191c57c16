"""What decides a run's games, except which of them to play (:class:`Setup`): the game, the
bot in each seat (:class:`BotSpec`, made by :func:`new_bot`; rotated from game to game by
:func:`seat_bots`), the seed. Plain data, so that a worker process can be handed it.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..games import load_game
from ..toolkit import Game
from ..toolkit.search import SearchBot
from ..toolkit.state import param_text
from .rules_file import load_rules


@dataclass(frozen=True)
class BotSpec:
    """A bot by name, with parameters that differ from its defaults."""

    name: str
    params: tuple[tuple[str, float | str], ...] = ()  # a word names a bot (playout=heuristic)

    def __str__(self) -> str:
        return self.name + (":" + ",".join(f"{k}={param_text(v)}" for k, v in self.params)
                            if self.params else "")


def new_bot(game: Game, spec: BotSpec):
    """The bot ``spec`` names, for ``game``: cardkit's search bot is told the game's bots,
    for playouts by one of them (``playout=heuristic``); any other bot, a designer's
    searching one too, is made from its parameters alone. Raises RulesError for a bad
    parameter."""
    made = game.bots[spec.name]
    params = dict(spec.params)
    return made(bots=game.bots, **params) if issubclass(made, SearchBot) else made(**params)


@dataclass(frozen=True)
class Setup:
    """Everything that decides a run's games, except which of them to play."""

    game: str
    players: int
    seed: int
    bots: tuple[BotSpec, ...]  # one a seat
    cards: object = None  # a designer's deck, from the game's cards_from_deck; None: bundled
    rules_file: str | None = None  # a designer's game: its rules file (``game`` names the deck)
    game_timeout: float | None = None  # seconds of CPU time a game may take; None: no bound
    rotate: bool = False  # the bots move round the seats from game to game (seat_bots)
    constants: tuple = ()  # (name, value) set in a designer's rules file: a sweep's point


def seat_bots(setup: Setup, index: int) -> tuple[BotSpec, ...]:
    """Each seat's bot in game ``index``: as ``setup.bots`` gives them, or rotated, seat
    ``s`` taking bot ``(s + index) % players``, which depends on the game alone (the same
    under any workers).

    >>> two = Setup("blofa", 2, 1, (BotSpec("heuristic"), BotSpec("random")), rotate=True)
    >>> [str(bot) for bot in seat_bots(two, 1)]
    ['random', 'heuristic']
    """
    if not setup.rotate:
        return setup.bots
    return tuple(setup.bots[(seat + index) % setup.players] for seat in range(setup.players))


def game_of(setup: Setup) -> Game:
    """The game a run plays: a bundled one by name, or the designer's rules file."""
    return load_rules(setup.rules_file, setup.constants) if setup.rules_file else \
        load_game(setup.game)
