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

A card cannot be changed, its fields neither: the game, its samples and every bot's
observation hold the same card, so a change would reach them all.

>>> scout.cost = 5
Traceback (most recent call last):
AttributeError: card Scout cannot be changed: a card is the same printed card in every game
"""

from __future__ import annotations

from types import MappingProxyType


class Card:
    """One printed copy: ``id`` (0, 1, ... in the deck's order), ``fields`` (name ->
    value, as the deck gives them; read only), ``back`` (the name of its back design) and ``title``
    (its name as the deck's ``card_name`` makes it; '' if none)."""

    __slots__ = ("id", "fields", "back", "title")

    def __init__(self, id: int, fields: dict, back: str = "", title: str = ""):
        name = fields.get("name")
        self.__setstate__((id, fields, back,
                           title or (str(name) if name not in (None, "") else f"card {id}")))

    def __setattr__(self, name: str, value) -> None:
        raise AttributeError(f"card {self!r} cannot be changed: a card is the same printed "
                             "card in every game")

    __delattr__ = __setattr__

    def __copy__(self) -> Card:
        return self  # it cannot change: a copy is the card

    def __deepcopy__(self, memo) -> Card:
        return self

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
        return self.id, dict(self.fields), self.back, self.title

    def __setstate__(self, state) -> None:
        id, fields, back, title = state
        for name, value in (("id", id), ("fields", MappingProxyType(dict(fields))),
                            ("back", back), ("title", title)):
            object.__setattr__(self, name, value)
