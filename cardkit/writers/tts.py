"""Tabletop Simulator: deck sheets, back images and a saved object that TTS loads as a deck.

TTS builds a custom deck from a sheet of card faces (at most 10 columns by 7 rows, at most
4096 pixels a side) and a back image. The sheet's last slot is the "hidden card" TTS shows
for a card another player holds; cardkit puts the card's back there. A card in the saved
object is identified by its sheet's key times 100 plus its slot, so ``CardID`` 203 is the
fourth slot of sheet 2.

Cards are grouped onto sheets by back design: every card of a sheet shares its back image,
or, when a design's back differs from card to card, the sheet has a back sheet of the same
grid (``UniqueBack``).
"""

from __future__ import annotations

import json
import math
import shutil
from dataclasses import dataclass
from pathlib import Path

from PIL import Image

from ..deck.model import Card, Deck
from ..imposition.faces import Face, backs_by_card
from ..render.card import FRONT

MAX_SIDE = 4096  # pixels: the largest sheet TTS loads everywhere
COLUMNS, ROWS = 10, 7
SLOTS = COLUMNS * ROWS
SHEET_COMPRESSION = 6  # zlib level: sheets are downloaded by every player, keep them small


@dataclass(frozen=True)
class Sheet:
    """One TTS custom deck: ``cards`` in slots 0, 1, ...; ``back`` the shared back face, or
    None when every card brings its own (a back sheet)."""

    key: int
    cards: tuple[Card, ...]
    back: Face | None
    columns: int
    rows: int

    @property
    def name(self) -> str:
        return f"sheet-{self.key}"


def card_pixels(width: float, height: float) -> tuple[int, int]:
    """The largest card image, in pixels, of which a full 10 x 7 sheet fits 4096 px.

    >>> card_pixels(180, 252)    # a poker card, 2.5 x 3.5 in
    (409, 572)
    """
    scale = min(MAX_SIDE // COLUMNS / width, MAX_SIDE // ROWS / height)
    # a millimetre size is a hair under its inch value in points: do not lose a pixel to it
    return math.floor(width * scale + 1e-6), math.floor(height * scale + 1e-6)


def plan_sheets(deck: Deck, faces: list[Face]) -> list[Sheet]:
    """Sheets of at most 69 cards (the 70th slot is the hidden card), one back each (back
    designs that print the same are one), in deck order; a grid at least 2 x 2, as TTS's
    deck importer asks."""
    sheets, backs = [], backs_by_card(faces)
    by_back: dict[str, list[Card]] = {}
    for card in deck.cards:  # a shared back face (designs that print the same), or a design
        face = backs[card.number]
        by_back.setdefault(face.file if face.file.startswith("back-") else card.back.name,
                           []).append(card)
    for cards in by_back.values():
        first = backs[cards[0].number]
        back = first if first.cards == tuple(c.number for c in cards) else None
        for start in range(0, len(cards), SLOTS - 1):
            part = tuple(cards[start:start + SLOTS - 1])
            columns = max(2, min(COLUMNS, len(part) + 1))
            rows = max(2, math.ceil((len(part) + 1) / columns))
            sheets.append(Sheet(len(sheets) + 1, part, back, columns, rows))
    return sheets


def write_tts(folder: Path, url_of, deck: Deck, faces: list[Face], images: dict,
              size: tuple[int, int]) -> None:
    """Write the sheets, back images and ``DECK.json`` into ``folder``. ``images`` maps a
    face's file name to its rendered PNG; ``url_of(name)`` is the URL a file will have."""
    sheets = plan_sheets(deck, faces)
    fronts = {f.card.number: f for f in faces if f.side == FRONT}
    backs = backs_by_card(faces)
    for sheet in sheets:
        _grid(folder / f"{sheet.name}.png", sheet, [fronts[c.number] for c in sheet.cards],
              backs[sheet.cards[0].number], images, size)
        if sheet.back is None:
            _grid(folder / f"{sheet.name}-backs.png", sheet,
                  [backs[c.number] for c in sheet.cards], backs[sheet.cards[0].number],
                  images, size)
        else:
            shutil.copyfile(images[sheet.back.file], folder / f"{sheet.back.file}.png")
    saved = saved_object(deck, sheets, url_of)
    (folder / f"{deck.name}.json").write_text(json.dumps(saved, indent=2, ensure_ascii=False),
                                              encoding="utf-8")


def _grid(path: Path, sheet: Sheet, faces: list[Face], hidden: Face, images: dict,
          size: tuple[int, int]) -> None:
    width, height = size
    image = Image.new("RGB", (sheet.columns * width, sheet.rows * height), "white")
    slots = [(i, face) for i, face in enumerate(faces)] + [(sheet.columns * sheet.rows - 1,
                                                            hidden)]
    for slot, face in slots:
        with Image.open(images[face.file]) as card:
            image.paste(card, ((slot % sheet.columns) * width, (slot // sheet.columns) * height))
    image.save(path, "PNG", compress_level=SHEET_COMPRESSION)


def saved_object(deck: Deck, sheets: list[Sheet], url_of) -> dict:
    """The saved object: one ``DeckCustom`` holding every printed card, each a ``Card``
    whose ``CardID`` and ``CustomDeck`` point at its sheet and slot."""
    custom, slot_of = {}, {}
    for sheet in sheets:
        back = f"{sheet.name}-backs.png" if sheet.back is None else f"{sheet.back.file}.png"
        custom[str(sheet.key)] = {
            "FaceURL": url_of(f"{sheet.name}.png"), "BackURL": url_of(back),
            "NumWidth": sheet.columns, "NumHeight": sheet.rows, "BackIsHidden": True,
            "UniqueBack": sheet.back is None, "Type": 0}
        for slot, card in enumerate(sheet.cards):
            slot_of[card.number] = (sheet.key, slot)
    contained = []
    for card in deck.copies():
        key, slot = slot_of[card.number]
        contained.append({"Name": "Card", "Nickname": deck.name_of(card),
                          "CardID": key * 100 + slot, "Transform": _transform(),
                          "CustomDeck": {str(key): custom[str(key)]}})
    return {"SaveName": "", "GameMode": "", "Date": "", "Table": "", "Sky": "", "Note": "",
            "Rules": "", "XmlUI": "", "LuaScript": "", "LuaScriptState": "",
            "ObjectStates": [{"Name": "DeckCustom", "Nickname": deck.title,
                              "Description": ", ".join(filter(None, [
                                  deck.title, deck.stamp, "made with cardkit"])),
                              "Transform": _transform(face_down=True),
                              "DeckIDs": [c["CardID"] for c in contained],
                              "CustomDeck": custom, "ContainedObjects": contained}]}


def _transform(face_down: bool = False) -> dict:
    return {"posX": 0.0, "posY": 1.0, "posZ": 0.0, "rotX": 0.0, "rotY": 180.0,
            "rotZ": 180.0 if face_down else 0.0, "scaleX": 1.0, "scaleY": 1.0, "scaleZ": 1.0}
