"""A printed card as the rules see it: its fields from the deck file, and its back.

Every copy is a card of its own: a deck with three Scouts gives the rules three cards,
which compare equal only to themselves (by ``id``, the copy's place in the deck). A field
reads as an attribute (``card.cost``) or by name (``card["cost"]``).

>>> scout = Card(0, {"name": "Scout", "cost": 1}, back="unit")
>>> scout.cost, scout["name"], scout.back, scout
(1, 'Scout', 'unit', Scout)
>>> scout == Card(0, {"name": "Scout", "cost": 1}, back="unit"), scout == Card(1, {})
(True, False)

A card shows as its ``title``: the name the deck's ``card_name`` gives it, else its
``name`` field, else "card N" (reports name cards so).

>>> Card(3, {"name": "Scout", "cost": 1}, title="Scout (1 coin)"), Card(4, {"cost": 2})
(Scout (1 coin), card 4)
"""

from __future__ import annotations


class Card:
    """One printed copy: ``id`` (0, 1, ... in the deck's order), ``fields`` (name ->
    value, as the deck gives them), ``back`` (the name of its back design) and ``title``
    (its name as the deck's ``card_name`` makes it; '' if none)."""

    __slots__ = ("id", "fields", "back", "title")

    def __init__(self, id: int, fields: dict, back: str = "", title: str = ""):
        self.id, self.fields, self.back = id, dict(fields), back
        name = self.fields.get("name")
        self.title = title or (str(name) if name not in (None, "") else f"card {id}")

    def __getattr__(self, name: str):
        if name.startswith("_") or name in Card.__slots__:  # not a field: unpickling, copying
            raise AttributeError(name)
        try:
            return self.fields[name]
        except KeyError:
            raise AttributeError(f"card {self!r} has no field {name!r}; the deck's fields "
                                 f"are {', '.join(self.fields) or 'none'}") from None

    def __getitem__(self, name: str):
        return self.fields[name]

    def __eq__(self, other) -> bool:
        return isinstance(other, Card) and other.id == self.id

    def __hash__(self) -> int:
        return self.id

    def __lt__(self, other: Card) -> bool:  # sorted() keeps the deck's order
        return self.id < other.id

    def __repr__(self) -> str:
        return self.title

    def __getstate__(self):
        return self.id, self.fields, self.back, self.title

    def __setstate__(self, state) -> None:
        self.id, self.fields, self.back, self.title = state
