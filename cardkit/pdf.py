"""Write imposed pages to a PDF: cards, crop marks, fold line, proofing guides.

Every font is a bundled TrueType font, embedded (subset) by reportlab; the canvas's
initial font is one of them, so the PDF never names the unembedded Helvetica.
"""

from __future__ import annotations

from pathlib import Path

from reportlab.lib import colors
from reportlab.pdfgen.canvas import Canvas

from .fonts import DEFAULT_FONT, register, string_width
from .model import Deck
from .render import BACK, CardRenderer
from .sheets import MARK_GAP, Page, SheetOptions, bounds, crop_marks
from .units import MM

MARK_WIDTH = 0.25  # points: a hairline a cutter can still see
LABEL_SIZE = 6.0
LABEL_COLOUR = colors.HexColor("#808080")
TRIM_GUIDE = colors.HexColor("#00a0e0")
SAFE_GUIDE = colors.HexColor("#e0008c")


def write_pdf(path: Path, deck: Deck, pages: list[Page], options: SheetOptions,
              renderer: CardRenderer) -> None:
    canvas = Canvas(str(path), pagesize=(pages[0].width, pages[0].height),
                    initialFontName=register(DEFAULT_FONT), invariant=1, pageCompression=1)
    canvas.setTitle(f"{deck.title} (print and play)")
    canvas.setAuthor(deck.author)
    canvas.setCreator("cardkit")
    copies = deck.copies()
    for page in pages:
        canvas.setPageSize((page.width, page.height))
        if page.slots:
            canvas.setTrimBox(list(bounds(page.slots)))
            canvas.setBleedBox(list(bounds(page.slots, options.bleed)))
        for slot in page.slots:
            renderer.draw(canvas, copies[slot.index], slot.side, slot.x, slot.y,
                          slot.width, slot.height, options.bleed)
        _crop_marks(canvas, page, options.bleed)
        if page.fold_x is not None:
            _fold_line(canvas, page)
        if options.guides:
            _guides(canvas, page, copies, options.bleed)
        _label(canvas, page, f"{deck.title} · {page.label} · print at 100% (actual size)",
               options.bleed)
        canvas.showPage()
    canvas.save()


def _crop_marks(canvas, page: Page, bleed: float) -> None:
    canvas.saveState()
    canvas.setStrokeColor(colors.black)
    canvas.setLineWidth(MARK_WIDTH)
    for x1, y1, x2, y2 in crop_marks(page, bleed):
        canvas.line(x1, y1, x2, y2)
    canvas.restoreState()


def _fold_line(canvas, page: Page) -> None:
    canvas.saveState()
    canvas.setStrokeColor(LABEL_COLOUR)
    canvas.setLineWidth(0.5)
    canvas.setDash(4, 3)
    canvas.line(page.fold_x, 5 * MM, page.fold_x, page.height - 5 * MM)
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


def _label(canvas, page: Page, text: str, bleed: float) -> None:
    """A small line under the cards saying what the page is, placed between two crop marks
    near the middle; left out when no gap between marks is wide enough."""
    if not page.slots:
        return
    width = string_width(text, DEFAULT_FONT, LABEL_SIZE)
    centre = page.width / 2
    cuts = sorted({s.x for s in page.slots} | {s.x + s.width for s in page.slots})
    gaps = [(a, b) for a, b in zip(cuts, cuts[1:]) if b - a >= width + 4 * MM]
    if not gaps:
        return
    left, right = min(gaps, key=lambda g: abs((g[0] + g[1]) / 2 - centre))
    baseline = bounds(page.slots, bleed)[1] - MARK_GAP - 2.5 * MM
    canvas.saveState()
    canvas.setFillColor(LABEL_COLOUR)
    canvas.setFont(DEFAULT_FONT, LABEL_SIZE)
    canvas.drawCentredString((left + right) / 2, baseline, text)
    canvas.restoreState()
