"""A designer's rules file: their game as a Python program beside the deck (``rules.py``).

Reading it runs the designer's code with the user's rights, so only ``cardkit simulate``
does, and only for a file the user named or a deck they pointed it at; building,
validating, exporting, previewing, watching and listing a deck never import this module.
The file defines one :class:`~cardkit.toolkit.CardGame` subclass; it is played with the
deck's printed cards, checked first against the fields the game says it reads.
"""

from __future__ import annotations

import hashlib
import inspect
import math
import os
import re
import sys
import traceback
import types
from functools import partial
from pathlib import Path

from ..rules.errors import RulesError
from ..toolkit import Bot, Card, CardGame, Game, RandomBot
from ..toolkit.kept_outside import KeptOutside
from ..toolkit.search import SearchBot

NEEDED = ("setup", "moves", "play", "scores")  # what a CardGame must write
TYPE_WORDS = {int: "a whole number", float: "a number", str: "a text", bool: "true or false"}

_loaded: dict = {}  # a worker process reads each rules file once: by path, and as given
SAMPLES = "samples"  # the copy of a rules file that the search's samples are made of


class RulesFileError(Exception):
    """The designer's file cannot be played: ``what`` says where and what is wrong, ``fix``
    what to do, ``detail`` the traceback of their code ('' when there is none)."""

    def __init__(self, what: str, fix: str = "", detail: str = ""):
        super().__init__(what, fix, detail)
        self.what, self.fix, self.detail = what, fix, detail


def load_rules(path: Path | str, constants: tuple = ()) -> Game:
    """The game the rules file at ``path`` defines, with each of ``constants`` ((name,
    value) pairs: a sweep's point) set in the file's module once it is read. Raises
    RulesFileError."""
    # as given first: resolving costs time (and a relative path, the working folder)
    given = (str(path), constants) if os.path.isabs(path) else \
        (os.getcwd(), str(path), constants)
    if given not in _loaded:
        path = Path(path).resolve()
        if (str(path), constants) not in _loaded:
            game = _game_class(_run(path, constants), path)
            # the search's samples play on the file imported again, as a module of its own:
            # what the rules keep outside the declared piles and values (a module global, a
            # class attribute, a closure, a default argument) is the real game's only
            game.samples_class = _game_class(_run(path, constants, SAMPLES), path)
            _loaded[str(path), constants] = _game(game, path)
        _loaded[given] = _loaded[str(path), constants]
    return _loaded[given]


def constants_of(module: types.ModuleType) -> dict:
    """The numbers a rules file names in capitals at its top level (HAND = 5): what a
    sweep may vary."""
    return {name: value for name, value in vars(module).items()
            if name.isupper() and _number(value)}


class BadOutcome(ValueError):
    """What a finished game gave for the report cannot be added up: ``fix`` says what to
    give instead."""

    def __init__(self, what: str, fix: str):
        super().__init__(what)
        self.fix = fix


def check_outcome(method: str, found, players: int) -> None:
    """Raise BadOutcome unless what a finished designer's game gave, ``found`` from its
    ``method`` (scores, returns, figures or seat_figures), is what the report adds up and
    a worker process can send back: one number a seat, a dict of numbers or words, one
    dict of numbers a seat (or None).

    >>> check_outcome("figures", {"ending": "deck empty", "rounds": 4}, 2)
    >>> try:
    ...     check_outcome("scores", ["a lot", 3], 2)
    ... except BadOutcome as error:
    ...     print(error, "|", error.fix)
    scores() gave ['a lot', 3] | return one number a seat (2 here), e.g. [12, 9]
    """
    fits, fix = _OUTCOME[method]
    if not fits(found, players):
        shown = repr(found)
        raise BadOutcome(f"{method}() gave {shown if len(shown) <= 200 else shown[:200] + '…'}",
                         fix.format(players=players))


def _number(value) -> bool:
    """A number the report can average: not a flag, finite as a float.

    >>> _number(2.5), _number(True), _number(float("nan")), _number(10 ** 400)
    (True, False, False, False)
    """
    try:
        return isinstance(value, (int, float)) and not isinstance(value, bool) \
            and math.isfinite(value)
    except OverflowError:  # an int too large for a float
        return False


def _numbers(found, players: int) -> bool:
    if not isinstance(found, (list, tuple)) or len(found) != players:
        return False
    return _all_numbers(found)


def _all_numbers(values) -> bool:
    """Whether each of ``values`` is a :func:`_number`: for plain ints and floats (every
    finished game's scores and returns) without a call a value."""
    if set(map(type, values)) <= _PLAIN:
        try:
            return all(map(math.isfinite, values))
        except OverflowError:  # an int too large for a float
            return False
    return all(map(_number, values))


_PLAIN = frozenset({int, float})  # not bool, whose type is its own


def _figures(found) -> bool:
    return isinstance(found, dict) and all(
        isinstance(key, str) and (isinstance(value, str) or _number(value))
        for key, value in found.items())


def _seat_figures(found, players: int) -> bool:
    return isinstance(found, (list, tuple)) and len(found) == players and all(
        isinstance(seat, dict) and all(isinstance(key, str) and _number(value)
                                       for key, value in seat.items()) for seat in found)


_OUTCOME = {  # a finished game's method -> (whether what it gave fits, what to give)
    "scores": (_numbers, "return one number a seat ({players} here), e.g. [12, 9]"),
    "returns": (_numbers, "return one number a seat ({players} here), each seat's share "
                "of the win from 0 to 1"),
    "figures": (lambda found, players: _figures(found), "return a dict of numbers or "
                "words, e.g. {{'captures': 3, 'ending': 'deck empty'}}"),
    "seat_figures": (lambda found, players: found is None or _seat_figures(found, players),
                     "return one dict of numbers a seat ({players} here), e.g. [{{'bought': "
                     "3, 'bluffs': 1}}, {{'bought': 2, 'bluffs': 0}}]"),
}


def designer_traceback(exc: BaseException, path: Path | str) -> str:
    """The traceback of ``exc`` as far as it runs through the designer's file (all of it
    when none of it does), and the error itself."""
    frames = traceback.extract_tb(exc.__traceback__)
    theirs = [frame for frame in frames if frame.filename == str(path)] or frames
    return ("Traceback (most recent call last):\n" + "".join(traceback.format_list(theirs))
            + "".join(traceback.format_exception_only(type(exc), exc))).rstrip()


def error_text(exc: BaseException) -> str:
    """What a message says of an error the rules raised: its type and text; a card field
    that is not in the deck is named with the card and the deck's fields (a card has no
    ``__getattr__`` to say so itself: it would slow every field read down)."""
    card = getattr(exc, "obj", None)
    if isinstance(exc, AttributeError) and isinstance(card, Card) and exc.name:
        return (f"AttributeError: card {card!r} has no field {exc.name!r} (its fields: "
                f"{', '.join(map(str, card.fields)) or 'none'})")
    return f"{type(exc).__name__}: {exc}"


def kept_outside(error: KeptOutside, path: Path | str) -> RulesFileError:
    """What to say of rules that keep a value of their own outside the declared places:
    the file and the first line that sets the attribute."""
    line = setting_line(path, error.attribute)
    return RulesFileError(f"{path}{f':{line}' if line else ''}: {error.what}", error.fix)


def setting_line(path: Path | str, attribute: str) -> int | None:
    """The first line of the file at ``path`` that sets ``self.<attribute>`` (None: none)."""
    try:
        source = Path(path).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    found = re.search(rf"\bself\.{re.escape(attribute)}\s*(:[^=\n]*)?=(?!=)", source)
    return source.count("\n", 0, found.start()) + 1 if found else None


def _run(path: Path, constants: tuple = (), copy: str = "") -> types.ModuleType:
    """Import the file as a module of its own (a name no other file, other ``constants``
    or other ``copy`` shares), then set ``constants``."""
    try:
        source = path.read_bytes()
    except OSError as error:
        raise RulesFileError(f"{path}: cannot read the rules: {error.strerror or error}",
                             "write the game's rules in this file (docs/own-game.md, 'Simulate "
                             "your own game')") from None
    try:
        code = compile(source, str(path), "exec")
    except SyntaxError as error:
        raise RulesFileError(f"{path}:{error.lineno}:{error.offset or 0}: {error.msg}",
                             "fix the Python syntax on that line") from None
    name = "cardkit_rules_" + hashlib.sha1(f"{path}{constants}{copy}".encode()).hexdigest()[:12]
    module = types.ModuleType(name)
    module.__file__ = str(path)
    sys.modules[name] = module  # dataclasses and pickling look their module up by name
    try:
        exec(code, module.__dict__)
    except (Exception, SystemExit) as exc:  # exit() in a rules file is a mistake too
        raise RulesFileError(f"{path}: the rules fail as they are read",
                             "fix the error in your file", designer_traceback(exc, path)) from None
    for constant, value in constants:
        setattr(module, constant, value)
    return module


def _game_class(module: types.ModuleType, path: Path) -> type[CardGame]:
    """The one CardGame subclass the file defines, checked."""
    found = [value for value in vars(module).values() if isinstance(value, type)
             and issubclass(value, CardGame) and value.__module__ == module.__name__]
    if len(found) != 1:
        raise RulesFileError(
            f"{path}: " + ("defines no game" if not found else "defines "
                           + f"{len(found)} games ({', '.join(c.__name__ for c in found)})"),
            "write one class that extends CardGame: "
            "'from cardkit.toolkit import CardGame' then 'class MyGame(CardGame):'"
            if not found else "keep one game a rules file")
    game = found[0]
    missing = [name for name in NEEDED if getattr(game, name) is getattr(CardGame, name)]
    if missing:
        raise RulesFileError(f"{path}: class {game.__name__} has no "
                             + ", ".join(f"{name}()" for name in missing),
                             "a game writes setup(), moves(), play(move) and scores(); see "
                             "docs/own-game.md, 'Simulate your own game'")
    counts = game.player_counts
    if not counts or not all(isinstance(n, int) and not isinstance(n, bool) and 1 <= n <= 99
                             for n in counts):
        raise RulesFileError(f"{path}: {game.__name__}.player_counts is {counts!r}",
                             "give the numbers of players the game allows, the usual one "
                             "first, e.g. 'player_counts = (2, 3, 4)'")
    for field, kind in game.fields.items():
        if not (kind in TYPE_WORDS or isinstance(kind, tuple) and kind):
            raise RulesFileError(f"{path}: {game.__name__}.fields gives '{field}' the type "
                                 f"{kind!r}", "give int, float, str or bool, or a tuple of "
                                 "the values it may take, e.g. {'kind': ('unit', 'event')}")
    names = game.score_figures
    if not (isinstance(names, str) or isinstance(names, (tuple, list))
            and all(isinstance(name, str) for name in names)):
        raise RulesFileError(f"{path}: {game.__name__}.score_figures is {names!r}",
                             "name the seat figures that are the score or a part of it, "
                             "e.g. score_figures = ('vp',)")
    rulings = game.rulings
    if not (isinstance(rulings, (tuple, list)) and all(isinstance(r, str) for r in rulings)):
        raise RulesFileError(f"{path}: {game.__name__}.rulings is {rulings!r}",
                             "give a sentence for each ruling, e.g. rulings = ('A tie "
                             "shares the win.',)")
    for name, bot in game.bots.items():
        if not (isinstance(bot, type) and issubclass(bot, Bot)) or name in ("random", "search"):
            raise RulesFileError(f"{path}: {game.__name__}.bots[{name!r}] is {bot!r}",
                                 "name each bot class that extends Bot ('random' and "
                                 "'search' are always there), e.g. bots = {'greedy': GreedyBot}")
    return game


def _game(game: type[CardGame], path: Path) -> Game:
    return Game(name=path.parent.name, title=game.title or game.__name__,
                players=tuple(game.player_counts), default_players=game.player_counts[0],
                new_state=partial(_new_state, game),
                bots={"random": RandomBot, **game.bots,
                      "search": SearchBot.on_bots({"random": RandomBot,
                                                   **game.samples_class.bots})},
                cards_from_deck=partial(cards_for, game, path.name),
                score_unit=str(game.score_unit), rulings=rulings_of(game),
                constants=constants_of(sys.modules[game.__module__]),
                score_figures=(game.score_figures,) if isinstance(game.score_figures, str)
                else tuple(game.score_figures))


def rulings_of(game: type[CardGame]) -> tuple[str, ...]:
    """The rulings a designer states: the game's ``rulings``, then each docstring
    paragraph of the class and of the methods it writes that begins "Ruling:".

    >>> class Duel(CardGame):
    ...     '''Two players.
    ...
    ...     Ruling: a tie shares the win.'''
    ...     rulings = ("The deck is shuffled once.",)
    ...     def play(self, move):
    ...         '''Ruling: a pass ends the round
    ...         at once.'''
    >>> rulings_of(Duel)
    ('The deck is shuffled once.', 'A tie shares the win.', 'A pass ends the round at once.')
    """
    found = list(game.rulings)
    documented = [game, *(member for member in vars(game).values() if callable(member))]
    for paragraph in (p for member in documented
                      for p in inspect.cleandoc(member.__doc__ or "").split("\n\n")):
        if paragraph.startswith("Ruling:"):
            said = " ".join(paragraph[len("Ruling:"):].split())
            found.append(said[:1].upper() + said[1:])
    return tuple(found)


def _new_state(game: type[CardGame], players: int, rng, cards=None,
               checking: bool = True) -> CardGame:
    """A new game of the designer's class ``game``; ``checking``: see CardGame."""
    if cards is None:
        raise RulesError(f"{game.__name__} is a designer's game: it plays its deck's cards",
                         "simulate it from its deck")
    if checking or game.__init__ is not CardGame.__init__:  # one that writes its own: as made
        made = game(players, rng, cards)
        made.checking = checking
        return made
    return game(players, rng, cards, checking=False)


def cards_for(game: type[CardGame], file_name: str, copies: list[dict]) -> tuple[Card, ...]:
    """The deck's printed copies (fields, 'back' and, if given, 'card_name': the name the
    deck gives it) as cards, each holding every field the game reads, of its type. Raises
    RulesError naming the first card that does not."""
    for index, fields in enumerate(copies):
        for field, kind in game.fields.items():
            value = fields.get(field)
            if isinstance(kind, tuple):
                fits, expected = value in kind, "one of: " + ", ".join(map(str, kind))
            else:
                fits = isinstance(value, kind) and (kind is bool or not isinstance(value, bool))
                fits = fits or (kind is float and isinstance(value, int)
                                and not isinstance(value, bool))
                expected = TYPE_WORDS[kind]
            if not fits:
                raise RulesError(f"it has no {field}" if value is None else
                                 f"its {field} is {value!r}",
                                 f"the rules in {file_name} read each card's '{field}' "
                                 f"field: give every card {expected}", card=index)
    return tuple(Card(index, {k: v for k, v in fields.items() if k not in ("back", "card_name")},
                      fields.get("back", ""), fields.get("card_name", ""))
                 for index, fields in enumerate(copies))
