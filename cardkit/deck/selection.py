"""Picking cards for a proof: ``--cards 3,7-9`` or ``--cards name=Dragon``.

Cards are named by the numbers messages and the preview's contact sheet give them (a deck's
distinct cards, counted from 1 in deck order), by ranges of those numbers, or by a field's
value. Items separated by commas add up: ``--cards 1,name=Dragon`` is card 1 and every
Dragon. A chosen card prints once, whatever its count: a proof, or a spare for a lost card.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import replace

from ..common.errors import InputError, Problem, Where, did_you_mean
from ..sources import checks
from .model import Card, Deck

SPEC_HELP = "write card numbers and ranges such as '3,7-9', or FIELD=VALUE such as 'name=Dragon'"
_NUMBER = re.compile(r"^\s*(\d{1,9})\s*$")
_RANGE = re.compile(r"^\s*(\d{1,9})\s*-\s*(\d{1,9})\s*$")
_NAME_PART = re.compile(r"[^a-z0-9,=.-]+")


class SpecError(ValueError):
    """A ``--cards`` text that is not numbers, ranges or FIELD=VALUE items."""


def parse_spec(text: str) -> tuple:
    """The items of a ``--cards`` text: ``(first, last)`` number ranges and
    ``(field, value)`` pairs.

    >>> parse_spec("3, 7-9,name=Old Dragon,")
    ((3, 3), (7, 9), ('name', 'Old Dragon'))
    """
    items = []
    for part in filter(str.strip, text.split(",")):  # '3,7,' is '3,7'
        number, span = _NUMBER.match(part), _RANGE.match(part)
        field, sep, value = part.partition("=")
        if number:
            items.append((int(number[1]), int(number[1])))
        elif span and int(span[1]) <= int(span[2]):
            items.append((int(span[1]), int(span[2])))
        elif span:
            raise SpecError(f"the range '{part.strip()}' runs backwards; write "
                            f"'{span[2]}-{span[1]}'")
        elif sep and field.strip() and value.strip():
            items.append((field.strip(), value.strip()))
        else:
            raise SpecError(f"{checks.quoted(part.strip())} is not a card number, a range or "
                            f"FIELD=VALUE; {SPEC_HELP}")
    if not items:
        raise SpecError(f"{checks.quoted(text)} names no cards; {SPEC_HELP}")
    return tuple(items)


def select_cards(deck: Deck, text: str) -> Deck:
    """The deck with only the cards ``text`` names, each printed once and keeping its
    number; raise InputError naming each item that picks no card."""
    try:
        items = parse_spec(text)
    except SpecError as error:
        raise InputError([Problem(Where(deck.path), f"--cards: {error}", SPEC_HELP)]) from None
    problems = []
    chosen: set[int] = set()
    for item in items:
        picked = {card.number for card in deck.cards if picks(item, card)}
        if not picked:
            problems.append(Problem(Where(deck.path), *_why_none(deck, item)))
        chosen |= picked
    if problems:
        raise InputError(problems)
    cards = tuple(replace(card, count=1) for card in deck.cards if card.number in chosen)
    return deck._replace(cards=cards, variant="-".join(filter(None, [deck.variant,
                                                                      _name_part(text)])))


def picks(item: tuple, card: Card) -> bool:
    first, last = item
    if isinstance(first, int):
        return first <= card.number <= last
    value = card.values().get(first)
    return value is not None and field_text(value).casefold() == last.casefold()


def field_text(value) -> str:
    """A field's value as a designer writes it: 3, 2.5, true."""
    return str(value).lower() if isinstance(value, bool) else str(value)


def _why_none(deck: Deck, item: tuple) -> tuple[str, str]:
    """What a ``--cards`` item that picks nothing got wrong, and the fix."""
    first, last = item
    count = len(deck.cards)
    if isinstance(first, int):
        shown = f"card {first}" if first == last else f"cards {first}-{last}"
        return (f"--cards: there is no {shown}; the deck has {count} distinct cards",
                f"use numbers from 1 to {count} ('cardkit preview' numbers them)")
    fields = deck.cards[0].values().keys() if deck.cards else ()
    if first not in fields:
        return f"--cards: the deck has no field {checks.quoted(first)}", did_you_mean(
            first, fields)
    values = sorted({field_text(v) for card in deck.cards
                     if (v := card.values().get(first)) is not None and v != ""})
    if not values:
        return f"--cards: no card has {first} {checks.quoted(last)}", \
            f"no card gives '{first}' a value"
    hint = did_you_mean(last, values)
    if len(values) > 8 and not hint.startswith("did you"):
        hint = "for example " + ", ".join(map(checks.quoted, values[:8]))
    return f"--cards: no card has {first} {checks.quoted(last)}", hint


def _name_part(text: str) -> str:
    """The selection as part of a file name: ``cards3,7-9``, ``cards-name=dragon``; a long
    or unusual one is cut and given a short hash, so two selections never share a name."""
    plain = _NAME_PART.sub("_", text.lower().replace(" ", ""))
    if len(plain) > 40 or plain != text.lower().replace(" ", ""):
        plain = plain[:32] + "~" + hashlib.sha1(text.encode()).hexdigest()[:6]
    return "cards" + ("" if plain[:1].isdigit() else "-") + plain
