"""Write imposed pages to a PDF: cards, cutting guides, fold line, footer, proofing guides.

Every font is a bundled TrueType font, embedded (subset) by reportlab; the canvas's
initial font is one of them, so the PDF never names the unembedded Helvetica.
"""

from __future__ import annotations

import tempfile
import zlib
from pathlib import Path

from reportlab.lib import colors
from reportlab.pdfbase.pdfdoc import (PDFArray, PDFDictionary, PDFImageXObject, PDFName,
                                      PDFStream)
from reportlab.pdfgen.canvas import Canvas

from ..assets.fonts import DEFAULT_FONT, ascent_descent, bold, register
from ..common.units import MM
from ..deck.model import Deck
from ..imposition.paper import PRINTABLE_BORDER
from ..imposition.sheets import Page, SheetError, SheetOptions, bounds
from ..render.card import BACK, CardRenderer
from ..render.textpaint import line_width, set_line
from .metadata import describe
from .sheet_parts import FOOTER_SIZE, LABEL_COLOUR, MARK_WIDTH, draw_turned, footer_texts

MIN_FOOTER_SIZE = 4.0  # when even the shortest footer does not fit at FOOTER_SIZE
BOLD = bold(DEFAULT_FONT)
COVER_MARGIN = 20 * MM  # a cover note's text: well inside any printer's border
MAX_FOOTER_TITLE = 200  # characters of a title a footer shows: about a page width at 6 pt
TRIM_GUIDE = colors.HexColor("#00a0e0")
SAFE_GUIDE = colors.HexColor("#e0008c")


def write_pdf(path: Path, deck: Deck, pages: list[Page], options: SheetOptions,
              renderer: CardRenderer, tokens: tuple | None = None) -> None:
    """Write ``pages``; ``tokens``, for a sheet template's token slots, is (each token's
    (front card, back card or None), the renderer that draws them)."""
    with open(path, "wb") as out, tempfile.TemporaryFile() as spool:
        canvas = Canvas(out, pagesize=(pages[0].width, pages[0].height),
                        initialFontName=register(DEFAULT_FONT), invariant=1, pageCompression=1)
        describe(canvas, deck, "print and play")
        spooled = _SpooledPages(spool, out)
        if deck.note:
            register(BOLD)
            _cover(canvas, deck, pages[0], options, spooled)
        _draw_pages(canvas, deck, pages, options, renderer, spooled, tokens)
        canvas.save()


def _cover(canvas, deck: Deck, page: Page, options: SheetOptions,
           spooled: _SpooledPages) -> None:
    """The deck's note (a reprint's cover note) on pages of its own before the cards,
    each followed by a blank page when fronts and backs print on both sides of a sheet,
    so that every sheet of cards still has its backs behind it."""
    size, leading = 10, 14
    per_page = int((page.height - 2 * COVER_MARGIN) // leading)
    lines = list(deck.note)
    for start in range(0, len(lines), per_page):
        canvas.setPageSize((page.width, page.height))
        canvas.setFillColor(colors.black)
        y = page.height - COVER_MARGIN - size
        for number, line in enumerate(lines[start:start + per_page], start):
            canvas.setFont(BOLD if number == 0 else DEFAULT_FONT, size)
            set_line(canvas, COVER_MARGIN, y, line, fallbacks=deck.fonts)
            y -= leading
        canvas.showPage()
        spooled.take(canvas)
        if options.sheet == "pnp" and getattr(options.template, "duplex", True):
            canvas.setPageSize((page.width, page.height))
            canvas.showPage()
            spooled.take(canvas)


def _draw_pages(canvas, deck: Deck, pages, options: SheetOptions, renderer: CardRenderer,
                spooled: _SpooledPages, tokens: tuple | None) -> None:
    copies = deck.copies()
    for page in pages:
        canvas.setPageSize((page.width, page.height))
        if page.slots:
            canvas.setTrimBox(list(bounds(page.slots)))
            canvas.setBleedBox(list(bounds(page.slots, options.bleed)))
        for slot in page.slots:
            _draw_card(canvas, renderer, copies[slot.index], slot, options.bleed)
        if page.tokens:
            from .token_pdf import draw_tokens  # late: most sheets hold no tokens

            draw_tokens(canvas, page.tokens, *tokens, outlines=page.token_outlines)
        _cut_guides(canvas, page)
        if page.fold_x is not None:
            _fold_line(canvas, page)
        if options.guides:
            _guides(canvas, page, copies, options.bleed)
        _footer(canvas, page, deck.title, deck.stamp, deck.fonts)
        canvas.showPage()
        spooled.take(canvas)


class _SpooledPages:
    """Finished pages' content, compressed and kept in a temporary file until the PDF is
    saved, and the saved PDF written straight to its file.

    reportlab holds every page of a document until it is saved, then formats the whole
    file into a list of strings and joins them: a 50,000-card deck's pages would take some
    80 MB of memory as text, and the save twice the file's size again.
    """

    def __init__(self, spool, out):
        self.spool, self.out = spool, out
        self.writing_out = False

    def take(self, canvas) -> None:
        """Move the page just finished out of memory, and the pictures it drew first."""
        document = canvas._doc
        page = document.Pages.pages[-1]
        data = zlib.compress(page.stream.encode("utf-8"))  # what reportlab would write
        page.Contents, page.stream = _SpooledStream(self, *self._keep(data)), None
        names = [ref.name for ref in page.XObjects.dict.values()] if page.XObjects else []
        while names:  # the page's pictures, and their soft masks
            image = document.idToObject.get(names.pop())
            if type(image) is PDFImageXObject:
                content = image.streamContent
                data = content.encode("latin-1") if isinstance(content, str) else content
                image.__class__ = _SpooledImage  # the same object, which the PDF refers to
                image.spooled = (self, *self._keep(data), isinstance(content, str))
                image.streamContent = None
                if getattr(image, "smask", None) is not None:
                    names.append(image.smask.name)

    def _keep(self, data: bytes) -> tuple[int, int]:
        """Write ``data`` at the spool's end: (where it starts, its length)."""
        offset = self.spool.seek(0, 2)
        self.spool.write(data)
        return offset, len(data)

    def write_out(self, document) -> None:
        """From the first page stream on, send what reportlab formats to the output file
        instead of collecting it; the collector's join at the end then joins nothing, and
        reportlab writes that empty result to the same file."""
        if self.writing_out:
            return
        collector = document.__accum__  # reportlab's PDFFile being formatted
        self.out.writelines(collector.strings)
        collector.strings.clear()
        collector.write = self.out.write
        self.writing_out = True

    def read(self, offset: int, length: int) -> bytes:
        self.spool.seek(offset)
        return self.spool.read(length)


class _SpooledStream(PDFStream):
    """A page's content stream, read back from the spool as the PDF is written."""

    __Comment__ = "page stream"

    def __init__(self, pages: _SpooledPages, offset: int, length: int):
        super().__init__(PDFDictionary({"Filter": PDFArray([PDFName("FlateDecode")])}))
        self.pages, self.offset, self.length = pages, offset, length

    def format(self, document):
        self.pages.write_out(document)
        self.content = self.pages.read(self.offset, self.length)
        try:
            return super().format(document)
        finally:
            self.content = None


class _SpooledImage(PDFImageXObject):
    """A picture's data (reportlab's encoded stream, 1 to 4 bytes a pixel), read back from
    the spool as the PDF is written: 200 distinct 3-megapixel pictures held some 4 GB of
    it until the PDF was saved."""

    def format(self, document):
        pages, offset, length, text = self.spooled
        pages.write_out(document)
        data = pages.read(offset, length)
        self.streamContent = data.decode("latin-1") if text else data
        try:
            return super().format(document)
        finally:
            self.streamContent = None


def _draw_card(canvas, renderer: CardRenderer, card, slot, bleed: float) -> None:
    """Draw a card in its slot, its ink clipped to the slot's reach when it has one."""
    if slot.reach is None:
        draw_turned(canvas, renderer, card, slot.side, slot, bleed)
        return
    left, bottom, right, top = slot.reach
    canvas.saveState()
    inside = canvas.beginPath()
    inside.rect(slot.x - left, slot.y - bottom, slot.width + left + right,
                slot.height + bottom + top)
    canvas.clipPath(inside, stroke=0, fill=0)
    draw_turned(canvas, renderer, card, slot.side, slot, bleed)
    canvas.restoreState()


def _cut_guides(canvas, page: Page) -> None:
    canvas.saveState()
    canvas.setStrokeColor(colors.black)
    canvas.setLineWidth(MARK_WIDTH)
    for g in page.guides:
        canvas.line(g.x1, g.y1, g.x2, g.y2)
    canvas.restoreState()


def _fold_line(canvas, page: Page) -> None:
    canvas.saveState()
    canvas.setStrokeColor(LABEL_COLOUR)
    canvas.setLineWidth(0.5)
    canvas.setDash(4, 3)
    canvas.line(page.fold_x, PRINTABLE_BORDER, page.fold_x, page.height - PRINTABLE_BORDER)
    canvas.restoreState()


def _guides(canvas, page: Page, copies, bleed: float) -> None:
    """Trim lines in cyan and each layout's safe area, dashed, in magenta."""
    canvas.saveState()
    canvas.setLineWidth(0.3)
    for slot in page.slots:
        card = copies[slot.index]
        layout = card.back.layout if slot.side == BACK else card.front
        canvas.setStrokeColor(TRIM_GUIDE)
        canvas.setDash()
        canvas.rect(slot.x, slot.y, slot.width, slot.height, stroke=1, fill=0)
        inset = layout.safe
        canvas.setStrokeColor(SAFE_GUIDE)
        canvas.setDash(2, 2)
        canvas.rect(slot.x + inset, slot.y + inset, slot.width - 2 * inset,
                    slot.height - 2 * inset, stroke=1, fill=0)
    canvas.restoreState()


def _footer(canvas, page: Page, title: str, stamp: str = "",
            fallbacks: tuple[str, ...] = ()) -> None:
    """The footer in the first free strip that holds it whole (bottom, top, left, right),
    else in the longest strip, shortened to fit; the title's letters Lato lacks in the
    first of ``fallbacks`` (the deck's fonts) that has them."""
    if not page.slots and not page.tokens:
        return
    spaces = page.footer
    if not spaces:
        raise SheetError("the cards leave no room for the footer inside the printable border",
                         "use less bleed or a smaller card")
    if len(title) > MAX_FOOTER_TITLE:  # trying every shorter cut would take long
        title = title[:MAX_FOOTER_TITLE - 1] + "…"
    texts = footer_texts(title, page.label, stamp)  # longest first, each made when tried
    text = next(texts)
    width = line_width(text, DEFAULT_FONT, FOOTER_SIZE, fallbacks)
    space = next((s for s in spaces if s.length >= width), None)
    if space is None:  # the longest strip, with the longest text it holds (else the shortest)
        space = max(spaces, key=lambda s: s.length)
        for text in texts:
            width = line_width(text, DEFAULT_FONT, FOOTER_SIZE, fallbacks)
            if width <= space.length:
                break
    size = max(MIN_FOOTER_SIZE, min(FOOTER_SIZE, FOOTER_SIZE * space.length / width))
    ascent, descent = ascent_descent(DEFAULT_FONT, size)
    canvas.saveState()
    canvas.setFillColor(LABEL_COLOUR)
    canvas.setFont(DEFAULT_FONT, size)
    canvas.translate((space.x1 + space.x2) / 2, (space.y1 + space.y2) / 2)
    canvas.rotate(space.angle)
    set_line(canvas, 0, (descent - ascent) / 2, text, "centre", fallbacks)
    canvas.restoreState()
