"""Screen previews: each card's front and back side by side, and contact sheets of the deck.

The images are the one-card pages rasterised (as every export is), so a preview shows
exactly what prints; they are only laid out here, with Pillow: cards get rounded corners
and sit on a grey ground, so a white card stands out, and each is labelled on the contact
sheet with the number ``--cards`` picks it by and the copies it prints.
"""

from __future__ import annotations

import math
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from ..assets.fonts import FONT_DIR

GROUND = (226, 228, 231)
LABEL = (40, 40, 40)
CORNER = 1 / 8  # inches: a playing card's corner radius
PER_SHEET = 100  # cards on one contact sheet; a bigger deck gets several
THUMB_WIDTH = 180  # pixels: a card's width on the contact sheet


def rounded(card: Image.Image, dpi: float) -> Image.Image:
    """The card image with its corners cut round, as RGBA."""
    mask = Image.new("L", card.size, 0)
    ImageDraw.Draw(mask).rounded_rectangle((0, 0, card.width - 1, card.height - 1),
                                           radius=round(CORNER * dpi), fill=255)
    shaped = card.convert("RGBA")
    shaped.putalpha(mask)
    return shaped


def side_by_side(front: Path, back: Path, target: Path, dpi: float) -> None:
    """Write ``front`` and ``back`` next to each other on the ground, as ``target``."""
    with Image.open(front) as a, Image.open(back) as b:
        margin = round(dpi / 8)
        image = Image.new("RGB", (a.width + b.width + 3 * margin,
                                  max(a.height, b.height) + 2 * margin), GROUND)
        for card, x in ((a, margin), (b, a.width + 2 * margin)):
            shaped = rounded(card, dpi)
            image.paste(shaped, (x, margin), shaped)
    image.save(target, dpi=(dpi, dpi), compress_level=1)


def contact_sheets(cards: list[tuple[Path, str]], folder: Path, dpi: float) -> list[Path]:
    """Contact sheets of the card images ``cards`` ((image, label) each), at most
    PER_SHEET a sheet, as ``contact-sheet.png`` (or ``contact-sheet-1.png``, ...)."""
    sheets = [cards[i:i + PER_SHEET] for i in range(0, len(cards), PER_SHEET)]
    written = []
    for number, chunk in enumerate(sheets, 1):
        name = "contact-sheet" + (f"-{number}" if len(sheets) > 1 else "") + ".png"
        _contact_sheet(chunk, folder / name, dpi)
        written.append(folder / name)
    return written


def _contact_sheet(cards: list[tuple[Path, str]], target: Path, dpi: float) -> None:
    thumbs = []
    for path, label in cards:
        with Image.open(path) as image:
            scale = THUMB_WIDTH / image.width
            thumb = image.resize((THUMB_WIDTH, round(image.height * scale)), Image.LANCZOS)
        thumbs.append((rounded(thumb, dpi * scale), label))
    width, height = THUMB_WIDTH, max(t.height for t, _ in thumbs)
    font = ImageFont.truetype(str(FONT_DIR / "Lato-Regular.ttf"), 14)
    gap, label_height = 16, 24
    # about as wide as tall, like a screen: columns grow with the square root of the deck
    columns = max(1, min(len(thumbs), math.ceil(math.sqrt(len(thumbs) * height / width))))
    rows = math.ceil(len(thumbs) / columns)
    sheet = Image.new("RGB", (columns * (width + gap) + gap,
                              rows * (height + label_height + gap) + gap), GROUND)
    draw = ImageDraw.Draw(sheet)
    for index, (thumb, label) in enumerate(thumbs):
        row, column = divmod(index, columns)
        x = gap + column * (width + gap)
        y = gap + row * (height + label_height + gap)
        sheet.paste(thumb, (x, y), thumb)
        draw.text((x + width / 2, y + height + 4), _fitted(draw, label, font, width),
                  fill=LABEL, font=font, anchor="ma")
    sheet.save(target, compress_level=1)


def _fitted(draw: ImageDraw.ImageDraw, text: str, font, width: int) -> str:
    """``text`` cut with an ellipsis to ``width`` pixels."""
    while len(text) > 1 and draw.textlength(text, font=font) > width:
        text = text[:-2] + "…"
    return text
