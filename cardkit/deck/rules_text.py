"""The cards' text checked against the rules (issue 41): the fields the rules read that
the cards do not show, and numbers the layouts print that come from no field.

A field is shown when a layout prints it (or shows an element by it), or when the cards'
designs tell its values apart: with ``layout: front-{kind}`` and ``back: "{kind}"``, a
unit and an event look different, so players see the kind without reading it.
"""

from __future__ import annotations

import re

from ..common.errors import Problem, Where
from .model import Deck

FIELD_TOKEN = re.compile(r"\{[^{}]*\}")  # {field}, {icon}, {deck.version}
NUMBER = re.compile(r"\d+")


def printed_fields(deck: Deck) -> set[str]:
    """The fields some layout of the deck reads to draw a card."""
    return {name for layout in deck.layouts() for name in layout.fields_read()}


def told_apart(deck: Deck, field: str) -> bool:
    """Whether the cards' designs (front layout and back) tell every value of ``field``
    from every other: no design is shared by cards of two values."""
    owner: dict = {}
    for card in deck.cards:
        value = card.fields.get(field)
        design = (card.front.name, card.back.name)
        if owner.setdefault(design, value) != value:
            return False
    return True


def unseen_fields(deck: Deck, read: dict[str, Where]) -> list[Problem]:
    """A warning for each field the rules read (``read``: name -> where the rules name
    it) that no card shows."""
    shown = printed_fields(deck)
    fronts = ", ".join(sorted({card.front.name for card in deck.cards}))
    return [Problem(where, f"the rules read field '{name}', which no layout prints: players "
                    "cannot see what decides the game",
                    f"print {{{name}}} in a text element of the fronts ({fronts})")
            for name, where in read.items()
            if name in deck.cards[0].fields and name not in shown
            and not told_apart(deck, name)]


def loose_numbers(deck: Deck) -> list[Problem]:
    """A warning for each layout element whose own text prints a number (not one read
    from a field): what the card says there, the rules cannot read."""
    found = []
    for layout in deck.layouts():
        for element in layout.elements:
            text = element.templates.get("text", element.fixed.get("text"))
            numbers = NUMBER.findall(FIELD_TOKEN.sub(" ", str(text or "")))
            if numbers and element.kind == "text":
                found.append(Problem(element.where, f"layout {layout.name}, element "
                                     f"'{element.name}' prints {', '.join(numbers)}, which "
                                     "comes from no field: the rules cannot read it",
                                     "make it a field the rules read, and print that field"))
    return found
