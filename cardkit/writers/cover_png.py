"""A packed entry's cover image: the deck's title over a fan of its cards, for the game's
page on BoardGameGeek (its gallery takes PNG and shows a game's first image large)."""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from ..assets.fonts import FONT_DIR
from .preview_png import GROUND, LABEL, rounded

COVER_SIZE = (1200, 900)  # pixels, 4:3, the shape BoardGameGeek's gallery crops to
MOST_CARDS = 5
CARD_HEIGHT = 560  # pixels: five cards fanned across the width, overlapping a third


def write_cover(target: Path, title: str, cards: list[Path], dpi: float) -> None:
    """Write the cover: ``title`` and up to MOST_CARDS of the ``cards`` images (the
    deck's first fronts, then a back), side by side, overlapping when they must."""
    width, height = COVER_SIZE
    image = Image.new("RGB", COVER_SIZE, GROUND)
    draw = ImageDraw.Draw(image)
    font = ImageFont.truetype(str(FONT_DIR / "Lato-Black.ttf"), 72)
    while draw.textlength(title, font=font) > width - 80 and font.size > 24:
        font = ImageFont.truetype(str(FONT_DIR / "Lato-Black.ttf"), font.size - 4)
    draw.text((width / 2, 90), title, fill=LABEL, font=font, anchor="mm")
    shown = cards[:MOST_CARDS]
    card_height = CARD_HEIGHT
    images = []
    for path in shown:
        with Image.open(path) as card:
            scale = card_height / card.height
            images.append(rounded(card.resize((round(card.width * scale), card_height),
                                              Image.LANCZOS), dpi * scale))
    if images:
        card_width = images[0].width
        room = width - 80 - card_width
        step = min(card_width + 20, room / max(1, len(images) - 1)) if len(images) > 1 else 0
        left = (width - (card_width + step * (len(images) - 1))) / 2
        for i, card in enumerate(images):
            image.paste(card, (round(left + i * step), 230), card)
    image.save(target, "PNG", compress_level=6)
