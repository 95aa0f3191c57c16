"""One card face per page: for print shops, and as the drawing every exported image is
rasterised from, so a PNG is exactly the card the PDF holds.

Each page is the card's trim plus its bleed, the trim centred; the page's TrimBox and
BleedBox say where the card is cut and how far its art runs.

For PDF/X-1a, which forbids transparency, a card side that uses some can be flattened:
everything up to its last translucent element is drawn, composited, into an opaque picture
of just the area the translucent elements cover (at the print's resolution), laid over the
same elements drawn as vectors without the translucent ones; what comes after stays
vectors. So a title on a translucent band stays sharp text, and only the band and what
shows through it become pixels. The last few composited pictures are kept by their
drawing, so a card's copies and a back many cards share are rasterised once.
"""

from __future__ import annotations

import hashlib
import io
import math
from collections import OrderedDict
from pathlib import Path

from reportlab.lib.utils import ImageReader
from reportlab.pdfgen.canvas import Canvas

from ..assets.fonts import DEFAULT_FONT, register
from ..common.pdfium import open_pdf
from ..deck.model import Card, Deck
from ..render.card import CardRenderer
from ..render.paint import element_box, translucent
from .metadata import describe

# composited pictures kept for the pages that repeat them (a card's copies come page after
# page, front and back; a shared back every other page): at 600 dpi a whole poker card's
# takes about 10 MB, and 13 MB more converted to CMYK
COMPOSITED_KEPT = 3


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
    composited = _Composited(renderer, page_size, (trim_w, trim_h), flatten_dpi)
    for card, side in pages:
        canvas.setTrimBox([bleed_x, bleed_y, bleed_x + trim_w, bleed_y + trim_h])
        canvas.setBleedBox([0, 0, width, height])
        if flatten_dpi:
            _flattened(canvas, renderer, card, side, page_size, (trim_w, trim_h),
                       composited)
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
               page_size: tuple[float, float], trim: tuple[float, float],
               composited: _Composited) -> None:
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
    scale = composited.dpi / 72
    boxes = [element_box(items[i].element, x, y, *trim, bleed) for i in clear]
    # the area the translucent elements cover, on whole pixels, inside the page
    left = max(0, math.floor(min(b.x for b in boxes) * scale))
    bottom = max(0, math.floor(min(b.y for b in boxes) * scale))
    right = min(round(width * scale), math.ceil(max(b.x + b.width for b in boxes) * scale))
    top = min(round(height * scale), math.ceil(max(b.y + b.height for b in boxes) * scale))
    patch = composited.patch(card, side, last, (left, round(height * scale) - top, right,
                                                round(height * scale) - bottom))
    renderer.draw(canvas, card, side, x, y, *trim, bleed,
                  which=lambda i: i < last and i not in clear)
    canvas.drawImage(patch, left / scale, bottom / scale,
                     (right - left) / scale, (top - bottom) / scale)
    renderer.draw(canvas, card, side, x, y, *trim, bleed, which=lambda i: i > last)


class _Composited:
    """The area ``crop`` (pixels, from the top left) of a side's elements up to its
    ``last`` translucent one, drawn on a one-card RGB page over white paper and rasterised
    at ``dpi``. The last COMPOSITED_KEPT readers are kept by that page's PDF bytes (the same
    page gives the same pixels) and the crop: a CMYK canvas converts a reader it has seen
    once, so a card's copies and a back many cards share are rasterised and converted
    once."""

    def __init__(self, renderer: CardRenderer, page_size: tuple[float, float],
                 trim: tuple[float, float], dpi: int | None):
        self.renderer, self.page_size, self.trim, self.dpi = renderer, page_size, trim, dpi
        self.kept: OrderedDict[tuple, ImageReader] = OrderedDict()

    def patch(self, card: Card, side: str, last: int, crop: tuple[int, int, int, int]):
        width, height = self.page_size
        x, y = (width - self.trim[0]) / 2, (height - self.trim[1]) / 2
        drawing = io.BytesIO()
        canvas = Canvas(drawing, pagesize=self.page_size,
                        initialFontName=register(DEFAULT_FONT), invariant=1)
        self.renderer.draw(canvas, card, side, x, y, *self.trim, max(x, y),
                           which=lambda i: i <= last)
        canvas.showPage()
        canvas.save()
        key = (hashlib.sha256(drawing.getvalue()).digest(), crop)
        if key not in self.kept:
            with open_pdf(drawing.getvalue()) as document:
                page = document[0].render(scale=self.dpi / 72).to_pil().convert("RGB")
            self.kept[key] = ImageReader(page.crop(crop))
            if len(self.kept) > COMPOSITED_KEPT:
                self.kept.popitem(last=False)
        self.kept.move_to_end(key)
        return self.kept[key]
