"""The manifest of an image export: each image with how many printed cards show it, since a
print service takes an image and a quantity."""

from __future__ import annotations

import csv
from pathlib import Path

from ..deck.model import Deck
from ..imposition.faces import Face, backs_by_card
from ..render.card import FRONT

COLUMNS = ("image", "side", "count", "cards", "name", "back", "version")


def write_manifest(path: Path, deck: Deck, faces: list[Face], suffix: str = ".png") -> None:
    """One row per image: its file, side, count, the card numbers showing it, the card's
    name, for a front the back image it is printed with, and the deck's version."""
    with open(path, "w", newline="", encoding="utf-8") as out:
        writer = csv.writer(out)
        writer.writerow(COLUMNS)
        backs = backs_by_card(faces)
        for face in faces:
            front = face.side == FRONT
            writer.writerow([face.file + suffix, face.side, face.count,
                             " ".join(map(str, face.cards)),
                             deck.name_of(face.card) if front else face.card.back.name,
                             backs[face.card.number].file + suffix if front else "",
                             deck.version])
