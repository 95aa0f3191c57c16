"""Per-card placement: the distinct faces of a deck, their file names and their counts.

Print services take one image per distinct face and a quantity, so copies are not
repeated; a back design that draws the same on every card is one shared face
(``back-blue``), with the designs that draw the same as it; a back that reads card fields
is a face per card.

>>> slug("Rules 1/3: Setup")
'rules-1-3-setup'
>>> slug("Blófa ♥ 7")
'blofa-7'
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, replace

from ..deck.model import Card, Deck
from ..render.card import BACK, FRONT

MAX_SLUG = 40  # characters of a card's name in a file name


@dataclass(frozen=True)
class Face:
    """One image to make: a side of ``card`` (the first card showing it), ``file`` its
    name without extension, ``cards`` the numbers of the cards that show it and ``count``
    how many printed cards do."""

    card: Card
    side: str
    file: str
    cards: tuple[int, ...]
    count: int


def slug(text: str) -> str:
    """Lower-case ASCII letters and digits joined by '-', for a file name."""
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", plain.lower()).strip("-")[:MAX_SLUG].strip("-")


def faces(deck: Deck, same_back) -> list[Face]:
    """Every distinct face: each card's front in deck order, then the backs. Cards whose
    back design is drawn identically (``same_back(a, b)`` says so) share one back face,
    and so do designs of other names that draw the same (named by the first)."""
    width = max(3, len(str(len(deck.cards))))
    names = {card.number: f"{card.number:0{width}d}-{slug(deck.name_of(card)) or 'card'}"
             for card in deck.cards}
    fronts = [Face(card, FRONT, names[card.number] + "-front", (card.number,), card.count)
              for card in deck.cards]
    by_design: dict[str, list[Card]] = {}
    for card in deck.cards:
        by_design.setdefault(card.back.name, []).append(card)
    backs: list[Face] = []
    shared: list[int] = []  # where the backs that one design draws alike are in ``backs``
    for design, cards in by_design.items():
        if all(same_back(cards[0], other) for other in cards[1:]):
            numbers, count = tuple(c.number for c in cards), sum(c.count for c in cards)
            twin = next((i for i in shared if same_back(backs[i].card, cards[0])), None)
            if twin is not None:  # another design that prints the same: one back
                face = backs[twin]
                backs[twin] = replace(face, cards=tuple(sorted(face.cards + numbers)),
                                      count=face.count + count)
                continue
            shared.append(len(backs))
            backs.append(Face(cards[0], BACK, f"back-{slug(design) or 'design'}", numbers,
                              count))
        else:
            backs += [Face(card, BACK, names[card.number] + "-back", (card.number,),
                           card.count) for card in cards]
    return fronts + backs


def backs_by_card(faces_: list[Face]) -> dict[int, Face]:
    """Each card's number -> the back face it is printed with."""
    return {number: face for face in faces_ if face.side == BACK for number in face.cards}


def card_pages(deck: Deck, order: tuple[str, str]) -> list[tuple[Card, str]]:
    """(card, side) for each page of a one-card-per-page PDF: the sides of every printed
    copy in ``order``."""
    return [(card, side) for card in deck.copies() for side in order]
