"""The validated deck: what the loader produces and everything downstream reads.

Lengths are in points. Nothing here knows about YAML or drawing.
"""

# No `from __future__ import annotations`: typing would compile each NamedTuple field's
# annotation, a string under it, into a ForwardRef at import (about 0.1 M instructions
# each, issue 62); here they are the types themselves.
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

from ..common.errors import Where
from ..common.units import MM
from .languages import Languages
from .layout import Layout
from .template import fill

# Card size presets, width x height in millimetres.
SIZE_PRESETS_MM = {
    "poker": (63.5, 88.9),
    "bridge": (57.15, 88.9),
    "mini-american": (41.0, 63.0),
    "mini-euro": (44.0, 68.0),
    "tarot": (70.0, 120.0),
    "square": (70.0, 70.0),
}


class CardSize(NamedTuple):
    """A card's trim size in points; ``name`` is the preset or 'custom'."""

    name: str
    width: float
    height: float

    @classmethod
    def preset(cls, name: str) -> "CardSize":
        width, height = SIZE_PRESETS_MM[name]
        return cls(name, width * MM, height * MM)


class BackDesign(NamedTuple):
    """A named card back: its layout and the fields that layout reads as ``{back.NAME}``."""

    name: str
    layout: Layout
    fields: dict


@dataclass(frozen=True, slots=True)  # slots: a big deck holds tens of thousands
class Card:
    """One distinct card of the deck, printed ``count`` times."""

    number: int  # 1-based position among the deck's distinct cards
    fields: dict  # field name -> value, defaults filled in
    front: Layout
    back: BackDesign
    count: int
    where: Where  # the card's entry in the deck, or its spreadsheet row
    folder: Path  # the folder of the deck file that gave the card: its images are there
    # what every card of the deck reads alike: deck.title, deck.version, deck.date (one
    # dict the deck's cards share)
    stamps: dict = field(default_factory=dict, compare=False)

    def values(self) -> dict:
        """What layouts can read: the card's fields, ``back``, ``back.FIELD`` and the
        deck's stamps (``deck.version``...)."""
        values = {**self.stamps, **self.fields}
        values["back"] = self.back.name
        for key, value in self.back.fields.items():
            values[f"back.{key}"] = value
        return values

    def label(self) -> str:
        """How messages name this card: 'card 4 (value 2)', by its first two short
        fields, its name (or title) first however long, so that every message names a
        card the same way: 'card 9 (name The Clockwork Heist Master, kind heist)'."""
        named = [(k, self.fields[k]) for k in ("name", "title")
                 if isinstance(self.fields.get(k), str) and self.fields[k].strip()][:1]
        short = [(k, v) for k, v in self.fields.items() if (k, v) not in named
                 and isinstance(v, (int, float, str)) and 0 < len(str(v)) <= 24]
        shown = ", ".join(f"{k} {_cut(str(v).strip())}" for k, v in (named + short)[:2])
        return f"card {self.number}" + (f" ({shown})" if shown else "")


def _back_look(back: BackDesign):
    """What a back design prints, as a value equal for designs that print the same: its
    layout and the design's values it reads; the design itself when its layout reads
    a card's fields or its name (each card's back may then differ)."""
    read = back.layout.fields_read()
    if not all(name.startswith(("back.", "deck.", "strings.")) for name in read):
        return back.name
    return back.layout.name, tuple(sorted((name, repr(back.fields.get(name[5:])))
                                          for name in read if name.startswith("back.")))


def _cut(text: str, limit: int = 60) -> str:
    """A card's name as a message shows it: a very long one is cut."""
    return text if len(text) <= limit else text[:limit] + "..."


PAPER_CHOICES = ("a4", "letter")  # the papers sheets are planned on


class Contest(NamedTuple):  # not a dataclass: one costs 1.5 ms to make at import
    """What a contest asks; None where it asks nothing. ``where`` is the deck's
    ``contest:`` line, which messages about a broken rule name."""

    name: str
    title: str  # as messages name it: 'the 18-card contest'
    where: Where
    cards: int | None = None  # the exact number of printed cards
    size: CardSize | None = None
    per_sheet: int | None = None  # cards on each print-and-play sheet
    papers: tuple[str, ...] = PAPER_CHOICES  # the papers the sheets must print on
    rules_pages: int | None = None  # the most pages the rulebook may take on A4
    components: int | None = None  # the most components besides the cards, printed or not
    tokens: bool = True  # whether the entry may print tokens ('tokens:')
    boards: bool = True  # whether the entry may print boards ('boards:')


class Deck(NamedTuple):
    """A deck as loaded and checked: its cards, backs and everything its file says of
    itself (title, version, variants, languages, contest, box, tokens, boards). Nothing
    changes a deck once made (its ``{}`` defaults are shared): ``_replace`` makes another.
    A NamedTuple, not a dataclass, as :class:`Contest`."""

    name: str
    title: str
    author: str
    version: str
    size: CardSize
    cards: tuple[Card, ...]
    path: Path
    backs: dict = {}
    variants: dict = {}  # name -> option -> field -> values allowed
    variant: str = ""  # the chosen variant options, e.g. 'players3'; '' for everything
    card_name: str = ""  # a template naming each card in exported files, '' for the default
    # lines printed on a page before the cards: a reprint's cover note (--changed-since)
    note: tuple[str, ...] = ()
    languages: Languages = Languages()
    lang: str = ""  # the language chosen (--lang), '' for the deck as written
    warnings: tuple = ()  # what loading found to warn of: a translation missing
    contest: Contest | None = None  # the contest the deck is entered in
    # the counts 'composition:' promises: 'total' -> cards, a field (or 'back') -> value
    # (as text) -> cards; empty without one
    composition: dict = {}
    components: dict = {}  # besides the cards: name -> how many
    license: str = ""  # the licence's name, or a file beside the deck holding its text
    box: object = None  # the deck's 'box:' entry as written (a Map), read by deck.box
    tokens: object = None  # the deck's 'tokens:' list as written (a Seq), read by deck.tokens
    boards: object = None  # the deck's 'boards:' list as written, read by deck.boards
    size_at: Where | None = None  # where the deck gives its card size, for the box's messages
    field_types: dict = {}  # field name -> its type ('integer')
    required: frozenset = frozenset()  # the fields each card must give: no default

    @property
    def stamp(self) -> str:
        """The version as printed pages and files name it: 'version 0.3'; '' without one."""
        return f"version {self.version}" if str(self.version).strip() else ""

    @property
    def fonts(self) -> tuple[str, ...]:
        """The fonts the deck brings (:attr:`~cardkit.assets.catalog.Assets.own_fonts`)."""
        return self.cards[0].front.assets.own_fonts

    def copies(self) -> list[Card]:
        """Every printed card in deck order, each distinct card repeated ``count`` times."""
        return [card for card in self.cards for _ in range(card.count)]

    def name_of(self, card: Card) -> str:
        """The card's name in exported files and reports: the ``card_name`` template
        filled in, else (or when that comes out empty, as on a reference card) its
        ``name`` or ``title`` field, else its first two short fields ('value 2')."""
        named = " ".join(fill(self.card_name, card.values()).split())
        if named:
            return named
        for field_name in ("name", "title"):
            value = card.fields.get(field_name)
            if isinstance(value, str) and value.strip():
                return value.strip()
        short = [str(v) for v in card.fields.values()
                 if isinstance(v, (int, float, str)) and not isinstance(v, bool)
                 and 0 < len(str(v)) <= 24]
        return " ".join(short[:2]) or f"card {card.number}"

    def for_rules(self) -> list[dict]:
        """Every printed copy as a game's ``cards_from_deck`` reads it: its fields, its
        ``back`` and its ``card_name`` (:meth:`name_of`)."""
        return [{**card.fields, "back": card.back.name, "card_name": self.name_of(card)}
                for card in self.copies()]

    def layouts(self) -> list[Layout]:
        """Each distinct layout the cards use, fronts and backs, in the order met."""
        return list({id(layout): layout for card in self.cards
                     for layout in (card.front, card.back.layout)}.values())

    def total(self) -> int:
        return sum([card.count for card in self.cards])  # a list: no generator step a card

    def tally_backs(self) -> Counter:
        """Printed cards counted by how their backs print: back designs that print the
        same (one layout reading only the design's own values, equal in each) are one,
        named by their names ('unit / event'). Players tell cards apart by what they
        see, not by what the deck calls the design."""
        looks: dict = {}  # what a back prints -> the names of the designs printing it
        for card in self.cards:
            looks.setdefault(_back_look(card.back), []).append(card.back.name)
        named = {look: " / ".join(dict.fromkeys(names)) for look, names in looks.items()}
        counts = Counter()
        for card in self.cards:
            counts[named[_back_look(card.back)]] += card.count
        return counts

    def tally(self, key: str) -> Counter:
        """Printed cards counted by a field (or 'back'), values written as text; cards
        whose field is empty are not counted. For Blófa, ``tally('back')`` is
        ``Counter({'blue': 9, 'yellow': 9})``."""
        counts = Counter()
        for card in self.cards:
            value = card.back.name if key == "back" else card.fields.get(key)
            if value is not None and value != "":
                counts[str(value)] += card.count
        return counts
