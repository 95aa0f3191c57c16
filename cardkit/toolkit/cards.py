"""A printed card as the rules see it: its fields from the deck file, and its back.

Every copy is a card of its own: a deck with three Scouts gives the rules three cards,
each equal only to itself. A copy is one object, however often it is made: the same
``id`` (its place in the deck), fields, back and title give the same card, also after
pickling, so equality and hashing are Python's own, by identity, and cost no call.
Copies that look the same (same fields, same back) have the same ``look``, a string. A
field reads as an attribute (``card.cost``, as fast as any attribute: each set of field
names gets a class of its own with a slot a field, and no ``__getattr__``, which would make
Python look every attribute up the slow way) or by name (``card["cost"]``, for any field
name, one that is not a Python name included).

>>> scout = Card(0, {"name": "Scout", "cost": 1}, back="unit")
>>> scout.cost, scout["name"], scout.back, scout
(1, 'Scout', 'unit', Scout)
>>> twin = Card(1, {"name": "Scout", "cost": 1}, back="unit")
>>> scout is Card(0, {"name": "Scout", "cost": 1}, back="unit"), scout == twin, scout.look == twin.look
(True, False, True)

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

import sys
from types import MappingProxyType
from weakref import WeakValueDictionary


class _Sealed(type):
    """The class of Card and its field classes: an attribute set on it would be shared by
    every game and sample in the process, where no visibility says who sees it."""

    def __setattr__(cls, name: str, value) -> None:
        raise AttributeError(f"the Card class cannot be changed (here {name!r}): it is "
                             "shared by every game, and the search's samples too; keep a "
                             "game's values in a pile, in self.public or in self.private[seat]")

    def __delattr__(cls, name: str) -> None:
        cls.__setattr__(name, None)


class Card(metaclass=_Sealed):
    """One printed copy: ``id`` (0, 1, ... in the deck's order), ``fields`` (name ->
    value, as the deck gives them; read only), ``back`` (the name of its back design), ``title``
    (its name as the deck's ``card_name`` makes it; '' if none) and ``look`` (what a player
    sees of its face and back: equal for identical copies)."""

    __slots__ = ("id", "fields", "back", "title", "look", "__weakref__")
    _attributes: tuple[str, ...] = ()  # the fields its class has a slot for

    def __new__(cls, id: int, fields: dict, back: str = "", title: str = ""):
        name = fields.get("name")
        title = title or (str(name) if name not in (None, "") else f"card {id}")
        # one string for all identical copies: comparing two looks is then one pointer
        look = sys.intern(repr((back, sorted(fields.items(), key=_first))))
        made = _MADE.get((cls, id, title, look))
        if made is not None:
            return made
        made = object.__new__(_card_class(tuple(fields)) if cls is Card else cls)
        fields = MappingProxyType(dict(fields))
        for name, value in (("id", id), ("fields", fields), ("back", back), ("title", title),
                            ("look", look)):
            object.__setattr__(made, name, value)
        for name in made._attributes:  # a field as a plain attribute: read at slot speed
            object.__setattr__(made, name, fields[name])
        _MADE[cls, id, title, look] = made
        return made

    def __setattr__(self, name: str, value) -> None:
        raise AttributeError(f"card {self!r} cannot be changed: a card is the same printed "
                             "card in every game")

    def __delattr__(self, name: str) -> None:
        self.__setattr__(name, None)

    def __copy__(self) -> Card:
        return self  # it cannot change: a copy is the card

    def __deepcopy__(self, memo) -> Card:
        return self

    def __getitem__(self, name: str):
        return self.fields[name]

    def __lt__(self, other: Card) -> bool:  # sorted() keeps the deck's order
        return self.id < other.id

    def __repr__(self) -> str:
        return self.title

    def __reduce__(self):  # its class is made at run time: pickle it as a Card
        return Card, (self.id, dict(self.fields), self.back, self.title)


def _first(item):
    return item[0]


# (class asked for, id, title, look) -> the card: a copy is made once while it is in use
_MADE: WeakValueDictionary = WeakValueDictionary()
_CLASSES: dict[tuple, type] = {}  # the field names a card has -> its class


def _card_class(names: tuple) -> type:
    """The class of a card with fields ``names``: a Card with a slot for each field that
    can be an attribute (a name, not one of Card's own, not starting with '_')."""
    made = _CLASSES.get(names)
    if made is None:
        slots = tuple(name for name in names if isinstance(name, str) and name.isidentifier()
                      and not name.startswith("_") and not hasattr(Card, name))
        made = _CLASSES[names] = type("Card", (Card,), {
            "__slots__": slots, "_attributes": slots, "__module__": __name__})
    return made
