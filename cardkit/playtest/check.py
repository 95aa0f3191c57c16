"""The rules checker: random games, every move checked, so that a designer's rules are
known to hold before a simulation's figures are believed.

After each move it checks that the seat to play has a legal move unless the game is over,
that what the rules say always holds does (a game's ``invariants()``),
that ``apply`` takes every move ``legal_moves`` offers, that the game ends within
:data:`CHECK_MOVES` moves and that its returns add up. For a game on the toolkit's piles
it also checks that every card is in exactly one pile, and that no seat sees what it may
not: that its observation and its moves stay the same when the cards it cannot see are
shuffled among the places it cannot see, and that no card it cannot see is named in what
is public or in its moves. The rules may keep values of a game only there: an attribute of
their own that is not a pile is refused when it is set (see
:class:`~cardkit.toolkit.game.KeptOutside`), and a value of the rules file or the game's
class that changes during a game (a dict at the top of the file, a class attribute) is
named. What it cannot find: a number worked out from hidden cards and kept in ``public``,
which looks like any other number.

Then it replays the first :data:`REPLAYED` games move by move in the separate copy of the
rules that the search's samples are made of, from each position's declared state alone
(:func:`check_declared`): rules that read a value of the game kept anywhere else (a module
global, a class attribute, a closure, a default argument, os.environ) play differently
there, and the place is named when it can be found. What it cannot find: a value reached
by walking the garbage collector or the call stack, or set on another module.

A defect stops the check at once, with the game (its number and seed) and the moves that
lead there; ``cardkit simulate ... --log N`` replays it.
"""

from __future__ import annotations

import io
import math
import os
import pickle
import random
import sys
import types
from dataclasses import dataclass, field
from pathlib import Path

from ..common.processes import TimeUp, time_limit, time_limits
from ..toolkit import Card, CardGame, IllegalMove
from ..toolkit.kept_outside import KeptOutside
from .game_text import shown
from .rules_file import designer_traceback, error_text, setting_line
from .run_setup import Setup, game_of

CHECK_MOVES = 10_000  # a game still going after this many moves does not end


@dataclass
class Defect:
    """What is wrong (``what``, then the ``fix``), in which game, after which moves."""

    game: int
    what: str
    fix: str
    moves: list[str] = field(default_factory=list)  # "seat 0: draw", in order
    detail: str = ""  # the traceback of the designer's code, when it raised


@dataclass
class Checked:
    """A finished check: how many games and moves, and the defect found (None: none)."""

    games: int = 0
    moves: list[int] = field(default_factory=list)  # each game's length
    cards_checked: bool = False  # whether piles, cards and sight were checked
    invariants: bool = False  # whether the game writes invariants() (run after every move)
    defect: Defect | None = None


class _Found(Exception):
    def __init__(self, what: str, fix: str, detail: str = ""):
        super().__init__(what)
        self.what, self.fix, self.detail = what, fix, detail


@time_limits()
def check_rules(setup: Setup, games: int, on_done=None, first: int = 0) -> Checked:
    """Play games ``first`` .. ``first``+games-1 of ``setup`` with random moves, checking
    each; stop at the first defect, a game that runs past ``setup.game_timeout`` too.
    ``on_done(1)`` is told after each game."""
    game = game_of(setup)
    checked = Checked()
    outside: dict = {}  # what the rules file keeps outside a game, once the first is dealt
    for index in range(first, first + games):
        history: list[str] = []
        try:
            with time_limit(setup.game_timeout):
                length = _check_game(game, setup, index, history, checked, outside)
        except _Found as found:
            checked.defect = Defect(index, found.what, found.fix, history, found.detail)
            return checked
        except TimeUp as stuck:
            checked.defect = Defect(
                index, f"the game did not end within {setup.game_timeout:g} s",
                "look for a loop that never ends in the rules (where it was is below); if "
                "the games are only slow, give --game-timeout more seconds (0: no bound)",
                history, _their_traceback(stuck, setup))
            return checked
        checked.games += 1
        checked.moves.append(length)
        if on_done:
            on_done(1)
    checked.defect = check_declared(setup, min(games, REPLAYED), first)
    return checked


def _check_game(game, setup: Setup, index: int, history: list[str], checked: Checked,
                outside: dict) -> int:
    # the same chance as the runner's random bots, so that --log N replays this game
    rngs = [random.Random(f"{setup.seed}:{index}:{seat}") for seat in range(setup.players)]
    state = _run(setup, "setting up the game", game.new_state, setup.players,
                 random.Random(f"{setup.seed}:{index}"), setup.cards)
    cards = isinstance(state, CardGame)
    checked.cards_checked = cards
    checked.invariants = cards and type(state).invariants is not CardGame.invariants
    if cards and not outside:
        outside.update(_kept_outside(state))
    made: list = []  # the moves applied, to play the game again (a card in two places)
    for moves in range(CHECK_MOVES + 1):
        over = _run(setup, "is_over()", state.is_over)
        if cards:
            _check_cards(state, lambda: _doubling_line(game, setup, index, made))
            _run(setup, "the game's attributes", state.refuse_undeclared)
            _run(setup, "invariants()", state.invariants)
            if moves == 0 or over:  # a value kept outside stays there: looked at twice a game
                _check_outside(state, outside)
        if over:
            _check_returns(_run(setup, "returns()", state.returns), state.players)
            return moves
        seat = _run(setup, "current_player()", state.current_player)
        legal = _run(setup, "legal_moves()", state.legal_moves)
        if not legal:
            raise _Found(f"seat {seat} has no legal move, but the game is not over",
                         "offer a move on every turn (a pass), or end the game")
        if cards:
            for other in range(state.players):
                _run(setup, "observation() or moves()", _check_sight, state, other, seat)
        move = legal[rngs[seat].randrange(len(legal))]
        try:
            state.apply(move)
        except IllegalMove as exc:
            raise _Found(f"apply refuses {shown(move)}, a move legal_moves offered seat "
                         f"{seat}: {exc}", "offer only the moves that can be made",
                         _their_traceback(exc, setup)) from None
        except Exception as exc:
            raise _Found(f"seat {seat}'s move '{shown(move)}' raised {error_text(exc)}",
                         "fix the error in your rules",
                         _their_traceback(exc, setup)) from None
        history.append(f"seat {seat}: {shown(move)}")
        made.append(move)
    raise _Found(f"the game did not end within {CHECK_MOVES:,} moves",
                 "make sure every game ends: a last round, an empty deck")


def _run(setup: Setup, what: str, method, *args):
    """``method(*args)``; an error in the designer's code is a defect with its traceback."""
    try:
        return method(*args)
    except _Found:
        raise
    except KeptOutside as exc:
        line = setting_line(setup.rules_file, exc.attribute) if setup.rules_file else None
        raise _Found(f"line {line}: {exc.what}" if line else exc.what, exc.fix) from None
    except Exception as exc:
        raise _Found(f"{what} raised {error_text(exc)}", "fix the error in your rules",
                     _their_traceback(exc, setup)) from None


def _their_traceback(exc: Exception, setup: Setup) -> str:
    return designer_traceback(exc, setup.rules_file) if setup.rules_file else ""


def _check_returns(returns, players: int) -> None:
    total = sum(returns) if len(returns) == players else math.nan
    if len(returns) != players or not all(0 <= r <= 1 for r in returns) or not (
            math.isclose(total, 1) or math.isclose(total, 0, abs_tol=1e-9)):
        raise _Found(f"the returns {list(returns)} do not add up",
                     f"give one number a seat ({players}), each from 0 to 1, together 1 "
                     "(the win, shared by a tie) or 0 (nobody won)")


def _check_cards(state: CardGame, doubling_line=lambda: "") -> None:
    """Every card of the deck in exactly one pile, and nothing else in a pile;
    ``doubling_line()`` names the line of the rules that put a card in a second pile."""
    where: dict[int, str] = {}
    for pile in state.all_piles():
        for card in pile.cards:
            if not isinstance(card, Card) or not 0 <= card.id < len(state.cards):
                raise _Found(f"pile {pile.name!r} holds {card!r}, which is not one of the "
                             "deck's cards", "put only the deck's cards (self.cards) in piles")
            if card.id in where:
                raise _Found(f"{card!r} is in two places: {where[card.id]} and {_named(pile)}"
                             + doubling_line(),
                             "move cards from pile to pile (pile.move, pile.move_top) "
                             "instead of adding a card that is still elsewhere")
            where[card.id] = _named(pile)
    gone = [card for card in state.cards if card.id not in where]
    if gone:
        raise _Found(f"{gone[0]!r} is in no pile" + (f" (nor are {len(gone) - 1} more cards)"
                                                      if len(gone) > 1 else ""),
                     "a card must always be in a pile: move it to another (a discard "
                     "pile, a pile of cards out of the game) instead of taking it away")


def _doubling_line(game, setup: Setup, index: int, made: list) -> str:
    """' (rules.py:23 put it in the second)': the line of the rules file after which a card
    is first in two piles, found by playing game ``index`` again with the moves ``made``,
    the last of them (or the setup, before any) traced line by line ('' if not found)."""
    if not setup.rules_file:
        return ""
    path = str(Path(setup.rules_file).resolve())  # as the rules file is compiled
    last: list = [None]  # the line of the rules file run last
    found: list = []

    def local(frame, event, arg):
        state = frame.f_locals.get("self")
        if not found and isinstance(state, CardGame) and "piles" in vars(state):
            ids = [card.id for pile in state.all_piles() for card in pile.cards]
            if len(ids) != len(set(ids)):
                found.append(last[0])
        if event == "line":
            last[0] = frame.f_lineno
        return local

    def trace(frame, event, arg):
        return local if frame.f_code.co_filename == path else None

    try:
        if not made:
            sys.settrace(trace)
        state = game.new_state(setup.players, random.Random(f"{setup.seed}:{index}"),
                               setup.cards)
        for move in made[:-1]:
            state.apply(move)
        if made:
            sys.settrace(trace)
            state.apply(made[-1])
    except Exception:  # the game fails again as it did: the line stays unknown
        pass
    finally:
        sys.settrace(None)
    return f" ({Path(path).name}:{found[0]} put it in the second)" if found and found[0] \
        else ""


def _check_sight(state: CardGame, seat: int, to_play: int) -> None:
    """What ``seat`` sees is the same whatever the cards it cannot see are."""
    seen = state.observation(seat)
    moves = state.moves() if seat == to_play else None
    hidden = state.hidden_places(seat)
    hidden_cards = {pile.cards[i].id for places in hidden.values() for pile, i in places}
    for value, what in [*((value, f"public[{key!r}]") for key, value in seen["public"].items()),
                        (moves, "its moves")]:
        named = _cards_in(value, hidden_cards)
        if named:
            raise _Found(f"seat {seat} can see {named[0]!r}, which is face down to it, in "
                         f"{what}", "keep hidden cards out of public values and moves: a "
                         "move may name a card only its seat can see")
    for key, value in seen["private"].items():
        named = _cards_in(value, hidden_cards)
        if named:
            raise _Found(f"seat {seat} can see {named[0]!r}, which is face down to it, in "
                         f"private[{seat}][{key!r}]", f"keep in private[{seat}] only cards "
                         f"seat {seat} can see; a card it should know of but not show goes "
                         "in a pile it owns (OWNER)")
    if not hidden:
        return
    kept = {group: [pile.cards[i] for pile, i in places] for group, places in hidden.items()}
    rng = random.Random(f"{seat}:{state.moves_made}")
    try:
        for group, places in hidden.items():
            shuffled = kept[group][:]
            rng.shuffle(shuffled)
            for (pile, i), card in zip(places, shuffled):
                pile.cards[i] = card
        now = state.observation(seat)
        if now != seen:
            raise _Found(f"seat {seat}'s observation changes when the cards it cannot see "
                         f"are shuffled: {_differing(seen, now)} shows something of a "
                         "hidden card", "let observation() show only what the piles' "
                         "visibility allows")
        if moves is not None and state.moves() != moves:
            raise _Found(f"seat {seat}'s moves change when the cards it cannot see are "
                         "shuffled: they tell something of a hidden card",
                         "offer moves that do not depend on cards the seat cannot see")
    finally:
        for group, places in hidden.items():
            for (pile, i), card in zip(places, kept[group]):
                pile.cards[i] = card


def _kept_outside(state: CardGame) -> dict:
    """What the rules file keeps outside a game, as it is now: its module's lists, dicts
    and sets, the game class's attributes, and its functions' default values (name ->
    pickled value, or its repr where it cannot be pickled)."""
    module = sys.modules.get(type(state).__module__)
    kept = {}
    places = [("", vars(module) if module else {})]
    places += [(f"{cls.__name__}.", vars(cls)) for cls in type(state).__mro__
               if cls.__module__ == type(state).__module__]
    for prefix, names in places:
        for name, value in names.items():
            if name.startswith("__"):
                continue
            if callable(value) and hasattr(value, "__defaults__"):
                if value.__defaults__ is None and value.__kwdefaults__ is None:
                    continue
                value = (value.__defaults__, value.__kwdefaults__)
            elif type(value) not in (list, dict, set, bytearray) and not prefix:
                continue  # a module's classes, functions and constants
            try:
                kept[prefix + name] = pickle.dumps(value)
            except Exception:  # a lambda, a lock: its repr tells a change well enough
                kept[prefix + name] = repr(value)
    return kept


def _check_outside(state: CardGame, before: dict) -> None:
    """The first value of the rules file or the game class that changed since ``before``:
    a value of the game kept where no visibility says who sees it."""
    now = _kept_outside(state)
    for name in sorted(set(before) | set(now)):
        if before.get(name) != now.get(name):
            raise _Found(f"the rules keep a value of the game in {name}, outside the game: it "
                         "changed during the game, and no visibility says which seats may "
                         "see it (a search's samples would share its true value)",
                         "keep it in a pile, in self.public or in self.private[seat]")


def _differing(seen: dict, now: dict) -> str:
    """Which part of an observation differs: 'its next', 'its public round', 'pile deck'."""
    for key in sorted(set(seen) | set(now), key=str):
        if seen.get(key) != now.get(key):
            inner = seen.get(key), now.get(key)
            if key in ("piles", "public", "private") and all(isinstance(v, dict) for v in inner):
                names = [n for n in sorted(set(inner[0]) | set(inner[1]), key=str)
                         if inner[0].get(n) != inner[1].get(n)]
                return f"pile '{names[0]}'" if key == "piles" else f"its {key} '{names[0]}'"
            return f"its '{key}'"
    return "it"


def _cards_in(value, hidden: set) -> list:
    """The cards whose ids are in ``hidden`` found anywhere inside ``value``."""
    if isinstance(value, Card):
        return [value] if value.id in hidden else []
    if isinstance(value, dict):
        value = list(value.values())
    if isinstance(value, (list, tuple, set, frozenset)):
        return [card for item in value for card in _cards_in(item, hidden)]
    return []


def _named(pile) -> str:
    return f"pile {pile.name!r}" + ("" if pile.owner is None else f" of seat {pile.owner}")



REPLAYED = 100  # games --check replays from the declared state alone
REPLAYED_BEFORE_SEARCH = 20  # games a simulation with a search bot replays so first


@time_limits()
def check_declared(setup: Setup, games: int, first: int = 0) -> Defect | None:
    """Play games ``first`` .. ``first``+games-1 of ``setup`` with random moves (those of
    :func:`check_rules`) and replay each move in the separate copy of the rules that the
    search's samples are made of, from the game's declared state alone (its piles, public
    and private values, seat, counts and chance: :meth:`~CardGame.declared`): the moves
    offered, what the move leaves and the scores must be the same. Where they differ, the
    rules read a value kept outside that state, which a search's sample would read with
    its true value: the defect names the place when it can find it (:func:`_kept_where`).
    A change during a game to ``os.environ`` or to ``sys.modules``, which the copy shares,
    is named too. Games of a bundled game, or before a defect of :func:`check_rules`,
    are not replayed: None."""
    game = game_of(setup)
    for index in range(first, first + games):
        history: list[str] = []
        try:
            with time_limit(setup.game_timeout):
                _replay_game(game, setup, index, history)
        except _Found as found:
            return Defect(index, found.what, found.fix, history, found.detail)
        except (TimeUp, Exception):  # check_rules names what is wrong with the game itself
            return None
    return None


def _replay_game(game, setup: Setup, index: int, history: list[str]) -> None:
    rngs = [random.Random(f"{setup.seed}:{index}:{seat}") for seat in range(setup.players)]
    shared = _shared_state()
    state = game.new_state(setup.players, random.Random(f"{setup.seed}:{index}"), setup.cards)
    copy = type(state).samples_class if isinstance(state, CardGame) else None
    if copy is None:
        return
    while not state.is_over():
        replayed = _replaying(setup, state.declared, copy)
        seat, legal = state.current_player(), state.legal_moves()
        if _replaying(setup, replayed.legal_moves) != legal:
            _differs(state, copy, shared, f"seat {seat} is offered other moves")
        move = legal[rngs[seat].randrange(len(legal))]
        _replaying(setup, replayed.apply, move)
        state.apply(move)
        history.append(f"seat {seat}: {shown(move)}")
        if _declared_state(replayed) != _declared_state(state):
            _differs(state, copy, shared, f"'{shown(move)}' leaves another game")
    if _replaying(setup, replayed.scores) != state.scores():
        _differs(state, copy, shared, "the scores differ")
    _differs(state, copy, shared, "", only_shared=True)


def _replaying(setup: Setup, method, *args):
    """``method(*args)`` on the copy; an error there is a defect: the declared state does
    not hold what the rules read."""
    try:
        return method(*args)
    except Exception as exc:
        raise _Found(f"replayed from its declared state alone, the game raises "
                     f"{error_text(exc)}: the rules read a value they keep outside the "
                     "piles, public and private values, which a search's samples do not "
                     "have", "keep every value of a game in a pile, in self.public or in "
                     "self.private[seat]", _their_traceback(exc, setup)) from None


def _declared_state(state: CardGame) -> tuple:
    """What a game's declared state holds: where each card is, public and private values,
    the seat to play and whether it is over."""
    return (tuple((pile.name, pile.owner, tuple(card.id for card in pile.cards))
                  for pile in state.all_piles()),
            state.public, state.private, state.seat, state.ended)


def _shared_state() -> tuple[dict, dict]:
    """What a process's games share besides the rules' module: the environment and what
    sys.modules holds that is no module."""
    return dict(os.environ), {name: value for name, value in sys.modules.items()
                              if not isinstance(value, types.ModuleType)}


def _differs(state: CardGame, copy: type, before: tuple[dict, dict], what: str,
             only_shared: bool = False) -> None:
    """Raise the defect of rules whose game ``what`` differs when replayed in ``copy``
    from the declared state alone (with ``only_shared``: only if the environment or
    sys.modules changed since ``before``), naming where the rules keep the value."""
    place = _kept_shared(before) or (None if only_shared else _kept_where(type(state), copy))
    if only_shared and place is None:
        return
    said = "the rules read a value kept outside the piles, public and private values" \
        if place is None else f"the rules keep a value of the game in {place}" \
        + (" (it changed during the game)" if only_shared else "")
    raise _Found(("" if only_shared else f"replayed from its declared state alone, {what}: ")
                 + said + ", where no visibility says which seats may see it (a search's "
                 "samples do not have it, or read its true value)",
                 "keep it in a pile, in self.public or in self.private[seat]")


def _kept_shared(before: tuple[dict, dict]) -> str | None:
    """``os.environ['NAME']`` or ``sys.modules['name']`` that changed since ``before``."""
    now = _shared_state()
    for name, (then, found) in {"os.environ": (before[0], now[0]),
                                "sys.modules": (before[1], now[1])}.items():
        for key in sorted(set(then) | set(found)):
            if then.get(key, _ABSENT) is not found.get(key, _ABSENT) and \
                    then.get(key, _ABSENT) != found.get(key, _ABSENT):
                return f"{name}[{key!r}]"
    return None


_ABSENT = object()


def _kept_where(real: type, copy: type) -> str | None:
    """The first place where the real rules' module holds a value of the game that the
    copy's does not: a module global, a class attribute, a function's default argument,
    closure or attribute (None: none found)."""
    modules = {real.__module__, copy.__module__}
    mine = dict(_places(sys.modules[real.__module__]))
    theirs = dict(_places(sys.modules[copy.__module__]))
    for name in [*mine, *(name for name in theirs if name not in mine)]:
        if not _same(mine.get(name, _ABSENT), theirs.get(name, _ABSENT), modules):
            return name
    return None


def _places(module: types.ModuleType):
    """(name, value) of each place a rules module keeps values, in a fixed order."""
    owners = [("module global ", vars(module))]
    owners += [(f"{cls.__name__}.", vars(cls)) for cls in vars(module).values()
               if isinstance(cls, type) and cls.__module__ == module.__name__]
    for prefix, names in owners:
        for name in sorted(names):
            value = names[name]
            if name.startswith(("__", "_abc_")) or isinstance(value, types.ModuleType):
                continue
            function = getattr(value, "__func__", value)
            if isinstance(function, types.FunctionType):
                where = f"{prefix.replace('module global ', '')}{name}()"
                yield f"{where} (its default arguments)", (function.__defaults__,
                                                           function.__kwdefaults__)
                yield f"{where} (its closure)", tuple(
                    _contents(cell) for cell in function.__closure__ or ())
                yield f"{where} (an attribute set on it)", dict(vars(function))
            elif not isinstance(value, type):
                yield prefix + name, value


def _contents(cell):
    try:
        value = cell.cell_contents
    except ValueError:  # a cell not filled yet
        return _ABSENT
    function = getattr(value, "__func__", value)
    if isinstance(function, types.FunctionType):  # a function's own closure holds the values
        return tuple(_contents(inner) for inner in function.__closure__ or ())
    return value


def _same(mine, theirs, modules: set) -> bool:
    """Whether two values of the rules' two copies (their modules named in ``modules``)
    hold the same: by their pickles, in which a class or function of either copy is its
    name; by their reprs where they cannot be pickled."""
    try:
        if mine is theirs or mine == theirs:
            return True
        return _pickled(mine, modules) == _pickled(theirs, modules)
    except Exception:
        return repr(mine) == repr(theirs)


def _pickled(value, modules: set) -> bytes:
    out = io.BytesIO()
    pickler = pickle.Pickler(out)
    pickler.persistent_id = lambda thing: (
        thing.__qualname__ if isinstance(thing, (type, types.FunctionType))
        and thing.__module__ in modules else None)
    pickler.dump(value)
    return out.getvalue()
