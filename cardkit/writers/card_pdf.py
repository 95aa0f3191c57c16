"""One card face per page: for print shops, and as the drawing every exported image is
rasterised from, so a PNG is exactly the card the PDF holds.

Each page is the card's trim plus its bleed, the trim centred; the page's TrimBox and
BleedBox say where the card is cut and how far its art runs.
"""

from __future__ import annotations

from pathlib import Path

from reportlab.pdfgen.canvas import Canvas

from ..fonts import DEFAULT_FONT, register
from ..model import Card, Deck
from ..render import CardRenderer


def write_card_pdf(path: Path, deck: Deck, pages: list[tuple[Card, str]],
                   page_size: tuple[float, float], renderer: CardRenderer,
                   ink_limit: float | None = None, on_page=None) -> list[str]:
    """Write ``pages`` ((card, side) each) at ``page_size`` (points). With ``ink_limit``
    every colour and image is CMYK with at most that total ink; the returned notes name
    the cards whose colours were clipped to it. ``on_page()`` is called after each page."""
    width, height = page_size
    trim_w, trim_h = deck.size.width, deck.size.height
    bleed_x, bleed_y = (width - trim_w) / 2, (height - trim_h) / 2
    options = dict(pagesize=page_size, initialFontName=register(DEFAULT_FONT), invariant=1,
                   pageCompression=1)
    if ink_limit is None:
        canvas = Canvas(str(path), **options)
    else:
        from .cmyk import CmykCanvas
        canvas = CmykCanvas(str(path), ink_limit=ink_limit, **options)
    canvas.setTitle(f"{deck.title} (one card a page)")
    canvas.setAuthor(deck.author)
    canvas.setCreator("cardkit")
    notes, noted = [], set()
    for card, side in pages:
        canvas.setTrimBox([bleed_x, bleed_y, bleed_x + trim_w, bleed_y + trim_h])
        canvas.setBleedBox([0, 0, width, height])
        renderer.draw(canvas, card, side, bleed_x, bleed_y, trim_w, trim_h,
                      max(bleed_x, bleed_y))
        if ink_limit is not None:
            clipped = canvas.take_clipped()
            if clipped and (card.number, side) not in noted:
                noted.add((card.number, side))
                notes.append(f"{card.label()}, {side}: ink limited to "
                             f"{ink_limit * 100:g}% for {', '.join(clipped)}")
        canvas.showPage()
        if on_page:
            on_page()
    canvas.save()
    return notes
