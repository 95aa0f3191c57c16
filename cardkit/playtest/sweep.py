"""Which count of this card makes the game fairest? Vary one thing, play a full run at each
value, and see its effect in one table.

A sweep is written as one of:

- ``players=2..5``: the player count;
- ``count[name=Dragon]=1..4``: how many copies of the card whose field ``name`` is
  ``Dragon`` the deck holds; a card is chosen by fields (``count[colour=red,value=5]``,
  every one matching) or by the name the deck's ``card_name`` gives it
  (``count[red 5]``), and must be one card (one design, however many copies);
- ``each[kind=good]=1..3``: as many copies of every card that matches;
- ``bluff_rate=0,0.2,0.4``: a bot parameter, for every seat whose bot takes it;
- ``HAND=3..6``: a number a designer's rules file names in capitals (a rule variant).

``A..B`` is every whole number from A to B; a list is separated by commas.

>>> parse("count[name=Dragon]=1..3")
Sweep(kind='count', key=('count', (('name', 'Dragon'),)), values=(1, 2, 3))
>>> parse("each[colour=red,value=5]=2").key
('each', (('colour', 'red'), ('value', '5')))
>>> parse("bluff_rate=0,0.5").values
(0.0, 0.5)
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, replace

from .run_setup import BotSpec, Setup

MAX_POINTS = 50
_RANGE = re.compile(r"^(-?\d+)\.\.(-?\d+)$")
_COUNT = re.compile(r"^(count|each)\[([^\]=,]+(?:=[^\],]+)?(?:,[^\]=,]+=[^\],]+)*)\]$")


class SweepError(ValueError):
    """A sweep that cannot be read or played: what, and how to write it."""

    def __init__(self, what: str, fix: str):
        super().__init__(what)
        self.what, self.fix = what, fix


@dataclass(frozen=True)
class Sweep:
    kind: str  # 'players', 'count' or 'param'
    key: object  # None, ('count' or 'each', the selector) or a parameter's name
    values: tuple


def parse(text: str) -> Sweep:
    """The sweep ``text`` asks for; SweepError names it, says what is wrong and how to
    write it."""
    counted = text.startswith(("count[", "each["))
    if counted:
        closed = text.find("]")
        name, equals, values = (text[:closed + 1], text[closed + 1:closed + 2],
                                text[closed + 2:]) if closed > 0 else (text, "", "")
        if not _COUNT.match(name):
            raise SweepError(f"--sweep {text!r}: {name} names no card",
                             "write count[FIELD=VALUE]=COUNTS, e.g. count[name=Dragon]=1..4, "
                             "several fields with commas, or count[CARD NAME]=COUNTS")
    else:
        name, equals, values = text.partition("=")
    if not equals or not values:
        raise SweepError(f"--sweep {text!r}: no values", "write WHAT=VALUES, e.g. "
                         "players=2..5, count[name=Dragon]=1..4 or bluff_rate=0,0.2,0.4")
    if name == "players" or counted:
        least, what = (2, "player count") if name == "players" else (0, "count")
        numbers = _whole_numbers(text, values, least, what)
    elif not re.fullmatch(r"[A-Za-z_]\w*", name):
        raise SweepError(f"--sweep {text!r}: {name!r} is neither players, count[...] nor "
                         "a bot parameter's name",
                         "write players=2..5, count[name=Dragon]=1..4 or a parameter such "
                         "as bluff_rate=0,0.2,0.4")
    elif _RANGE.match(values):  # every whole number between, as for players
        numbers = tuple(map(float, _range(text, values)))
    else:
        numbers = _numbers(text, values)
    if name == "players":
        return Sweep("players", None, numbers)
    if counted:
        found = _COUNT.match(name)
        return Sweep("count", (found[1], tuple(
            tuple(part.split("=", 1)) if "=" in part else ("card_name", part)
            for part in found[2].split(","))), numbers)
    return Sweep("param", name, numbers)


def _whole_numbers(text: str, values: str, least: int, what: str) -> tuple[int, ...]:
    """A range ``2..5`` or a list ``2,4``, each number at least ``least``, at most
    MAX_POINTS of them."""
    if _RANGE.match(values):
        numbers = _range(text, values)
    else:
        try:
            numbers = [int(value) for value in values.split(",")]
        except ValueError:
            raise SweepError(f"--sweep {text!r}: {values!r} is not a {what} range or list",
                             f"give whole numbers: a range such as {least + 1}..{least + 3} "
                             f"or a list such as {least + 1},{least + 3}") from None
    _at_most_max_points(text, numbers)
    if min(numbers) < least:
        raise SweepError(f"--sweep {text!r}: {min(numbers)} is not a usable {what}",
                         f"give {what}s of {least} or more")
    return tuple(numbers)


def _range(text: str, values: str) -> range:
    """The whole numbers of ``A..B``, at most MAX_POINTS of them (counted before any is
    made: ``1..10**12`` is refused, not built)."""
    found = _RANGE.match(values)
    low, high = int(found[1]), int(found[2])
    if low > high:
        raise SweepError(f"--sweep {text!r}: {values} runs backwards",
                         f"write the smaller number first, e.g. {high}..{low}")
    numbers = range(low, high + 1)
    _at_most_max_points(text, numbers)
    return numbers


def _numbers(text: str, values: str) -> tuple[float, ...]:
    try:
        numbers = tuple(float(value) for value in values.split(","))
    except ValueError:
        raise SweepError(f"--sweep {text!r}: {values!r} are not numbers",
                         "give numbers separated by commas, e.g. 0,0.2,0.4") from None
    _at_most_max_points(text, numbers)
    return numbers


def _at_most_max_points(text: str, numbers) -> None:
    if len(numbers) > MAX_POINTS:
        raise SweepError(f"--sweep {text!r}: {len(numbers):,} values",
                         f"sweep at most {MAX_POINTS} values; each is a full run")


def with_count(fields: list[dict], key: tuple, count: int) -> list[dict]:
    """The deck's copies (field dicts) with exactly ``count`` copies of the card ``key``
    chooses (``('each', ...)``: of every card it matches), each where its first copy was;
    SweepError if it matches none, or (``count``) more than one card. A selector's
    ``card_name`` matches the deck's name for the card, or its ``name`` field.

    >>> deck = [{"name": "Imp"}, {"name": "Dragon", "cost": 5}, {"name": "Dragon", "cost": 5},
    ...         {"name": "Ogre", "cost": 5}]
    >>> [c["name"] for c in with_count(deck, ("count", (("name", "Dragon"),)), 3)]
    ['Imp', 'Dragon', 'Dragon', 'Dragon', 'Ogre']
    >>> [c["name"] for c in with_count(deck, ("each", (("cost", "5"),)), 1)]
    ['Imp', 'Dragon', 'Ogre']
    """
    mode, selector = key
    designs: dict = {}  # each matching card, by its fields: the places of its copies
    for place, copy in enumerate(fields):
        if _matches(copy, selector):
            designs.setdefault(repr(sorted(copy.items(), key=repr)), []).append(place)
    said = ",".join(f"{field}={value}" if field != "card_name" else value
                    for field, value in selector)
    if not designs:
        raise SweepError(f"no card of the deck matches {said}",
                         "choose a card by fields it has (count[name=...], several with "
                         "commas) or by the name the deck gives it (count[red 5])")
    if mode == "count" and len(designs) > 1:
        names = sorted({_reads(fields[places[0]], "card_name") for places in designs.values()})
        raise SweepError(f"count[{said}] matches {len(designs)} different cards "
                         f"({', '.join(names[:4])}{', ...' if len(names) > 4 else ''})",
                         f"choose one (count[name={names[0]}]), or give each of them that "
                         f"many copies with each[{said}]")
    first = {places[0]: places for places in designs.values()}
    matched = {place for places in designs.values() for place in places}
    changed = []
    for place, copy in enumerate(fields):
        if place in first:
            changed += [dict(copy) for _ in range(count)]
        elif place not in matched:
            changed.append(copy)
    return changed


def copies_of(fields: list[dict], key: tuple) -> int | None:
    """How many copies the deck holds of the card ``key`` chooses (``each``: of every card
    it matches, None when they differ).

    >>> deck = [{"name": "Imp"}, {"name": "Dragon"}, {"name": "Dragon"}]
    >>> copies_of(deck, ("count", (("name", "Dragon"),))), copies_of(deck, ("each", ()))
    (2, None)
    """
    designs = Counter(repr(sorted(copy.items(), key=repr)) for copy in fields
                      if _matches(copy, key[1]))
    counts = set(designs.values())
    return counts.pop() if len(counts) == 1 else None


def _matches(copy: dict, selector: tuple) -> bool:
    """Whether a card has every (field, value) of ``selector``, as text."""
    return all(_reads(copy, field) == value for field, value in selector)


def _reads(copy: dict, field: str) -> str:
    """A field of a card as a selector reads it: as text; ``card_name`` is the deck's name
    for the card, else its ``name`` field."""
    if field == "card_name":
        return str(copy.get("card_name") or copy.get("name"))
    return str(copy.get(field))


def broken_promises(deck, changed: list[dict]) -> list[str]:
    """What the copies ``changed`` (a sweep's or tune's point: ``deck``'s printed copies,
    as :meth:`~cardkit.deck.model.Deck.for_rules` gives them, with some card's count
    changed) break of what the deck keeps to as written: the number of cards its contest
    asks for, and each count its ``composition:`` promises (the total, by back, by a
    field). A promise the deck as written does not keep (a variant's deck) is not one a
    change breaks.

    >>> from types import SimpleNamespace as Deck
    >>> deck = Deck(contest=None, composition={"total": 3, "kind": {"unit": 2}},
    ...             for_rules=lambda: [{"kind": "unit"}, {"kind": "unit"}, {"kind": "spell"}])
    >>> broken_promises(deck, [{"kind": "unit"}] * 3 + [{"kind": "spell"}])
    ["the deck's composition: 4 cards (it promises 3)", \
"the deck's composition: 3 cards with kind unit (it promises 2)"]
    """
    today, broken = deck.for_rules(), []
    contest = deck.contest
    if contest is not None and contest.cards is not None and \
            len(today) == contest.cards != len(changed):
        broken.append(f"{contest.title}: {len(changed)} cards (it asks for {contest.cards})")
    for key, promise in deck.composition.items():
        for value, count in (promise.items() if key != "total" else [(None, promise)]):
            have = _composed(changed, key, value)
            if _composed(today, key, value) == count != have:
                broken.append(f"the deck's composition: {have} cards"
                              + (f" with {key} {value}" if value is not None else "")
                              + f" (it promises {count})")
    return broken


def _composed(copies: list[dict], key: str, value: str | None) -> int:
    """How many of ``copies`` a composition's count counts: all of them (``total``), or
    those whose field (or back) ``key`` reads ``value``."""
    if value is None:
        return len(copies)
    return sum(1 for copy in copies if copy.get(key) not in (None, "")
               and str(copy.get(key)) == value)


def chosen_card(fields: list[dict], key: tuple) -> str | None:
    """The name of the one card a ``count[...]`` sweep varies, as the figures name it; None
    for ``each[...]``."""
    mode, selector = key
    if mode == "count":
        return next((_reads(copy, "card_name") for copy in fields
                     if _matches(copy, selector)), None)
    return None


def point_setup(setup: Setup, sweep: Sweep, value, game) -> Setup:
    """The run for one value of the sweep (for a count: the caller deals the cards) of
    ``game`` (a :class:`~cardkit.toolkit.Game`): a name a designer's rules file gives a
    number in capitals (``HAND``) is that constant, any other a bot parameter."""
    bot_classes = game.bots
    if sweep.kind == "players":
        bots = setup.bots if len(set(setup.bots)) == 1 else None
        if bots is None:
            raise SweepError("a sweep of players needs one bot for every seat",
                             "give --bots once")
        return replace(setup, players=value, bots=(bots[0],) * value)
    if sweep.kind == "param" and sweep.key in game.constants:
        kept = game.constants[sweep.key]
        if isinstance(kept, int) and value != int(value):
            raise SweepError(f"{sweep.key} is a whole number in the rules ({kept}), not "
                             f"{value:g}", f"sweep whole numbers, e.g. {sweep.key}="
                             f"{kept}..{kept + 2}")
        return replace(setup, constants=((sweep.key, type(kept)(value)),))
    if sweep.kind == "param":
        takers = [spec for spec in setup.bots if sweep.key in bot_classes[spec.name].PARAMS]
        if not takers:
            taken = sorted({name for spec in setup.bots
                            for name in bot_classes[spec.name].PARAMS})
            raise SweepError(f"no bot playing takes {sweep.key}" + (
                f" (they take {', '.join(taken)})" if taken else ""),
                "sweep a parameter they take, or choose --bots that take it (see "
                "'cardkit simulate --help')" + (
                    ", or a constant of the rules file: " + ", ".join(sorted(game.constants))
                    if game.constants else ""))
        return replace(setup, bots=tuple(
            BotSpec(spec.name, tuple({**dict(spec.params), sweep.key: value}.items()))
            if sweep.key in bot_classes[spec.name].PARAMS else spec for spec in setup.bots))
    return setup


def unfairness(summary: dict) -> float:
    """How far the seat furthest from a fair share is from it (0: perfectly fair); for a
    solitaire game, how far its win rate is from 50%."""
    if summary["players"] == 1:
        return abs(summary["seats"][0]["share"] - 0.5)
    return max(abs(seat["share"] - summary["fair_share"]) for seat in summary["seats"])
