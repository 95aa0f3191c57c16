"""One card face per page: for print shops, and as the drawing every exported image is
rasterised from, so a PNG is exactly the card the PDF holds.

Each page is the card's trim plus its bleed, the trim centred; the page's TrimBox and
BleedBox say where the card is cut and how far its art runs.

For PDF/X-1a, which forbids transparency, a card side that uses some can be flattened:
everything up to its last translucent element is drawn, composited, into an opaque picture
of just the area the translucent elements cover (at the print's resolution), laid over the
same elements drawn as vectors without the translucent ones; what comes after stays
vectors. So a title on a translucent band stays sharp text, and only the band and what
shows through it become pixels.
"""

from __future__ import annotations

import math
import tempfile
from pathlib import Path

from reportlab.lib.utils import ImageReader
from reportlab.pdfgen.canvas import Canvas

from ..assets.fonts import DEFAULT_FONT, register
from ..common.pdfium import open_pdf
from ..deck.model import Card, Deck
from ..render.card import CardRenderer
from ..render.paint import element_box, translucent
from .metadata import describe


def write_card_pdf(path: Path, deck: Deck, pages: list[tuple[Card, str]],
                   page_size: tuple[float, float], renderer: CardRenderer,
                   ink_limit: float | None = None, on_page=None,
                   flatten_dpi: int | None = None) -> list[str]:
    """Write ``pages`` ((card, side) each) at ``page_size`` (points) to ``path`` (or a
    binary file object, without ``ink_limit``). With ``ink_limit``
    every colour and image is CMYK with at most that total ink; the returned notes name
    the cards whose colours were clipped to it. ``on_page()`` is called after each page.
    With ``flatten_dpi``, transparency is flattened (see above) at that resolution."""
    width, height = page_size
    trim_w, trim_h = deck.size.width, deck.size.height
    bleed_x, bleed_y = (width - trim_w) / 2, (height - trim_h) / 2
    options = dict(pagesize=page_size, initialFontName=register(DEFAULT_FONT), invariant=1,
                   pageCompression=1)
    if ink_limit is None:
        canvas = Canvas(path if hasattr(path, "write") else str(path), **options)
    else:
        from .cmyk import CmykCanvas
        canvas = CmykCanvas(str(path), ink_limit=ink_limit, **options)
    describe(canvas, deck, "one card a page")
    notes, noted = [], set()
    for card, side in pages:
        canvas.setTrimBox([bleed_x, bleed_y, bleed_x + trim_w, bleed_y + trim_h])
        canvas.setBleedBox([0, 0, width, height])
        if flatten_dpi:
            _flattened(canvas, renderer, card, side, page_size, (trim_w, trim_h),
                       flatten_dpi)
        else:
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


def _flattened(canvas, renderer: CardRenderer, card: Card, side: str,
               page_size: tuple[float, float], trim: tuple[float, float], dpi: int) -> None:
    """Draw a card side centred on the page with no transparency (see the module's
    docstring)."""
    width, height = page_size
    x, y = (width - trim[0]) / 2, (height - trim[1]) / 2
    bleed = max(x, y)
    items = renderer.resolve(card, side)
    clear = {i for i, item in enumerate(items) if translucent(item)}
    if not clear:
        renderer.draw(canvas, card, side, x, y, *trim, bleed)
        return
    last = max(clear)
    scale = dpi / 72
    boxes = [element_box(items[i].element, x, y, *trim, bleed) for i in clear]
    # the area the translucent elements cover, on whole pixels, inside the page
    left = max(0, math.floor(min(b.x for b in boxes) * scale))
    bottom = max(0, math.floor(min(b.y for b in boxes) * scale))
    right = min(round(width * scale), math.ceil(max(b.x + b.width for b in boxes) * scale))
    top = min(round(height * scale), math.ceil(max(b.y + b.height for b in boxes) * scale))
    patch = _composited(renderer, card, side, page_size, trim, last, dpi).crop(
        (left, round(height * scale) - top, right, round(height * scale) - bottom))
    renderer.draw(canvas, card, side, x, y, *trim, bleed,
                  which=lambda i: i < last and i not in clear)
    canvas.drawImage(ImageReader(patch), left / scale, bottom / scale,
                     (right - left) / scale, (top - bottom) / scale)
    renderer.draw(canvas, card, side, x, y, *trim, bleed, which=lambda i: i > last)


def _composited(renderer, card, side, page_size, trim, last: int, dpi: int):
    """The side's elements up to ``last``, drawn on a one-card RGB page over white paper
    and rasterised at ``dpi``."""
    width, height = page_size
    x, y = (width - trim[0]) / 2, (height - trim[1]) / 2
    with tempfile.TemporaryDirectory() as scratch:
        drawing = Path(scratch) / "side.pdf"
        canvas = Canvas(str(drawing), pagesize=page_size, initialFontName=register(DEFAULT_FONT),
                        invariant=1)
        renderer.draw(canvas, card, side, x, y, *trim, max(x, y), which=lambda i: i <= last)
        canvas.showPage()
        canvas.save()
        with open_pdf(str(drawing)) as document:
            return document[0].render(scale=dpi / 72).to_pil().convert("RGB")
