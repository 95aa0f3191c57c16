"""What every playable game is, in OpenSpiel's shape: a state, the legal moves of the seat
to play, applying one, the end and the returns. Bots see only what a seat may see.

A game module (``cardkit/games/blofa.py`` ...) defines a :class:`State` subclass, at least
two bots (``random`` and a heuristic a real player would recognise) and a :data:`GAME`
entry. Chance (shuffles, draws) comes from the state's own ``rng``, so a game is fully
determined by its seed and the bots' seeds: the same seed gives the same game on any
machine and in any worker process.

>>> import random
>>> RandomBot().choose({}, ["a", "b"], random.Random(1)) in ("a", "b")
True
"""

from __future__ import annotations

import copy
import random
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from functools import partial
from typing import Callable

from ..rules.errors import RulesError
from .cards import Card


class IllegalMove(ValueError):
    """A move that is not among the state's legal moves."""


class State(ABC):
    """One game in progress. ``apply`` changes it in place (copying a state per move would
    halve the games a second); every other method only reads it."""

    players: int  # seats 0 .. players-1, in turn order (play passes to the left: seat + 1)
    rng: random.Random  # the game's chance: shuffles and draws
    moves_made: int = 0  # moves applied so far: the game's length

    @abstractmethod
    def current_player(self) -> int:
        """The seat to move (meaningless once the game is over)."""

    @abstractmethod
    def legal_moves(self) -> list:
        """The moves the seat to play may make, never empty before the end. A move is a
        small hashable value (a tuple or a string) whose ``str`` reads as the move."""

    @abstractmethod
    def apply(self, move) -> None:
        """Make ``move`` for the seat to play and advance to the next decision, drawing
        from ``rng`` for chance. Raises IllegalMove for a move not in ``legal_moves()``."""

    @abstractmethod
    def is_over(self) -> bool:
        """Whether the game has ended."""

    @abstractmethod
    def returns(self) -> list[float]:
        """Each seat's share of the win once the game is over: 1 for a sole winner, 1/k for
        each of k tied winners, 0 otherwise (all 0 when nobody wins). Solitaire: [1] or [0]."""

    @abstractmethod
    def scores(self) -> list[float]:
        """Each seat's points as the game counts them (VP, chips, points), for the
        report's score distribution."""

    @abstractmethod
    def observation(self, seat: int) -> dict:
        """Everything ``seat`` may know now, and nothing more: its own hand, what is face
        up, what has been announced, counts of the others' cards. Bots see only this."""

    def determinized(self, seat: int, rng: random.Random) -> State:
        """A copy of the game as ``seat`` might believe it to be: what it cannot see drawn
        again at random, consistent with everything it has seen, and chance of its own
        from ``rng``. Made from what the seat may know only; the search bot plays on it."""
        raise RulesError(f"{type(self).__name__} cannot be searched: it has no "
                         "determinized()", "play it with another bot")

    def samples(self, seat: int) -> Callable[[random.Random], State]:
        """What the runner hands a searching bot as ``worlds``: ``worlds(rng)`` is a game
        ``seat`` might be in. It deals from one sample of this game made with a fixed
        seed (so from what the seat may know), with everything in it that can change
        copied: a bot that follows its references finds that sample, never this game, and
        what it changes there changes no game but its own samples."""
        chance = random.Random(0)
        world = self.determinized(seat, chance)
        for name, value in vars(world).items():
            if type(value) not in (tuple, frozenset) and value is not chance:
                setattr(world, name, copied(value))  # a tuple of cards is shared as it is
        return partial(world.determinized, seat)

    def lies(self, seat: int) -> int:
        """How many of the other seats' claims this game holds that are lies, among those
        ``seat`` has not seen the truth of: on a sample, what a search believing the
        others rarely lie weighs it by (:class:`~cardkit.toolkit.search.SearchBot`'s
        ``trust``). 0 where the game has no claims."""
        return 0

    def turns(self) -> int | None:
        """Turns taken so far as the players count them (a seat's turn, not each move
        made in it: a claim, its answers and a penalty are one turn), for the report's
        game length; None where the game counts moves only."""
        return None

    def seat_figures(self) -> list[dict] | None:
        """Once the game is over, each seat's own figures as numbers (what it captured,
        bluffed, bought), for the report to set the winners' against the others'; None
        where the game keeps none."""
        return None

    def card_record(self) -> list[dict] | None:
        """Once the game is over, each seat's cards by name: ``drawn``, ``played`` and
        ``held`` at the end (each a set or a sorted list of distinct names), for the
        per-card figures; None where the game keeps no such record."""
        return None

    def figures(self) -> dict[str, float | int | str]:
        """The game's own figures for this finished game (captures, showdown category...),
        added up over many games by the simulator. Numbers are summed and averaged; text
        values are counted."""
        return {}


def copied(value):
    """A copy of ``value`` that shares nothing that can change with it (a game's values
    handed to a bot or a sample): lists, dicts, sets and tuples are copied all the way
    down, cards and numbers kept, anything else deep-copied."""
    kind = type(value)
    if kind in _UNCHANGING:
        return value
    if kind is dict:
        return {key: copied(item) for key, item in value.items()}
    if kind is list:
        return [copied(item) for item in value]
    if kind is tuple:
        return tuple(copied(item) for item in value)
    if kind in (set, frozenset):
        return kind(value)  # what a set holds can be hashed: it does not change
    return copy.deepcopy(value)


_UNCHANGING = frozenset({int, float, str, bool, type(None), Card})


def no_record(players: int) -> tuple[list[set], list[set]]:
    """The cards drawn and played by each seat, in a sample made for a search: none. A
    sample reports nothing, and another seat's record would tell what it holds."""
    return [set() for _ in range(players)], [set() for _ in range(players)]


class Bot(ABC):
    """A player: picks one of the legal moves from what its seat may see."""

    PARAMS: dict[str, float | str] = {}  # parameter -> default, settable from the command line
    observes = True  # whether choose() reads its observation (made only for a bot that does)
    searches = False  # whether choose() takes ``worlds``: samples of the game (search bots)
    # True: its author vouches that it plays from its observation alone (no debugging aid
    # that reads the game): the search bot may follow it by default (its guide=auto)
    fair = False
    RANGES: dict[str, tuple[float, float]] = {}  # parameter -> (least, most); else 0 to 1

    def __init__(self, **params: float | str):
        unknown = set(params) - set(self.PARAMS)
        if unknown:
            raise RulesError(f"unknown bot parameter {sorted(unknown)[0]!r}",
                             "this bot takes " + (", ".join(self.PARAMS) or "none"))
        for name, value in params.items():
            if isinstance(self.PARAMS[name], str) != isinstance(value, str):
                raise RulesError(f"bot parameter '{name}' is {value!r}", "give it a word, "
                                 f"e.g. {self.PARAMS[name]}" if isinstance(self.PARAMS[name], str)
                                 else "give it a number")
            if isinstance(value, str):
                continue  # the bot checks its words itself
            least, most = self.RANGES.get(name, (0.0, 1.0))
            if not least <= value <= most:
                raise RulesError(f"bot parameter '{name}' is {value:g}",
                                 f"give it a value from {least:g} to {most:g}")
        self.params = {**self.PARAMS, **params}

    @abstractmethod
    def choose(self, observation: dict, moves: list, rng: random.Random):
        """One of ``moves``; ``rng`` is the bot's own randomness. ``observation`` is what
        the seat may know, or None for a bot that does not look (``observes = False``)."""


def param_text(value: float | str) -> str:
    """A bot parameter as the command line writes it: 0.3, 400, heuristic."""
    return value if isinstance(value, str) else f"{value:g}"


class RandomBot(Bot):
    """Uniformly random legal moves: the baseline every other bot is compared with."""

    observes = False

    def choose(self, observation, moves, rng):
        return moves[rng.randrange(len(moves))]


@dataclass(frozen=True)
class Game:
    """A playable game: how to start one and who can play it."""

    name: str  # as on the command line: 'blofa'
    title: str
    players: tuple[int, ...]  # the player counts the rules allow
    default_players: int
    new_state: Callable[..., State]  # (players, rng, cards=None) -> State
    bots: dict[str, type[Bot]] = field(default_factory=dict)  # name -> class; 'random' first
    # a designer's deck: the printed cards' fields (one dict a copy, 'back' included) ->
    # the ``cards`` argument of new_state; raises RulesError naming what is missing
    cards_from_deck: Callable[[list[dict]], object] | None = None
    # the confirmed rulings of the game code (shared/RULINGS.md) that move a simulation's
    # figures, in a sentence each, for the report to say what its numbers rest on
    rulings: tuple[str, ...] = ()
    score_unit: str = "points"  # what scores() counts, as reports name it
    # a designer's rules file: the numbers it names in capitals (HAND = 5), which a sweep
    # may vary
    constants: dict = field(default_factory=dict)
    # seat figures that are the score or a part of it (Blófa's VP): winning is defined by
    # them, so "what winners do" leaves them out
    score_figures: tuple[str, ...] = ()
