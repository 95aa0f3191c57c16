"""The changes sheet of two versions of a deck: a row per card, the
old card beside the new, the sides that changed, with what changed written beside them.
An A4 PDF (the cards as vectors), or its pages as PNG images."""

from __future__ import annotations

import io
from pathlib import Path

from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.utils import simpleSplit
from reportlab.pdfgen.canvas import Canvas

from ..assets.fonts import DEFAULT_FONT, bold, register
from ..assets.shaping import isolated
from ..common.atomic import atomic_path
from ..common.pdfium import open_pdf
from ..common.units import MM
from ..deck.changes import (ADDED, CHANGED, COUNT, GONE, NEW, REMOVED, DeckChanges,
                            summary_line)
from ..render.card import FRONT
from ..render.textpaint import line_width, set_line
from .metadata import dated
from .sheet_parts import draw_scaled

MARGIN = 12 * MM
LABEL_WIDTH = 56 * MM
CARD_HEIGHT = 40 * MM  # each card drawn this high (narrower when it is wide)
CARD_WIDTH = 29 * MM  # at most
GAP = 3 * MM
ROW = CARD_HEIGHT + 9 * MM
GREY, FRAME = colors.HexColor("#606060"), colors.HexColor("#b0b0b0")
STATUS_COLOUR = {CHANGED: "#c07000", ADDED: "#1a7f37", REMOVED: "#b3261e", COUNT: "#3060a0"}
WORD_COLOUR = {GONE: colors.HexColor("#b3261e"), NEW: colors.HexColor("#1a7f37")}
WORD_SIZE, WORD_LEADING = 7.5, 3.3 * MM
PNG_DPI = 300
BOLD = bold(DEFAULT_FONT)


def write_changes(path: Path, changes: DeckChanges, old_renderer, new_renderer) -> list[Path]:
    """Write the changes sheet to ``path``: a PDF, or with a ``.png`` name its pages as
    PNG files (``NAME.png``, or ``NAME-1.png``... for several pages). Returns the files."""
    shown = changes.of(CHANGED, ADDED, REMOVED, COUNT)
    drawing = io.BytesIO()
    register(BOLD)
    canvas = Canvas(drawing, pagesize=A4, initialFontName=register(DEFAULT_FONT), invariant=1)
    canvas.setTitle(f"{changes.new.title}: changes since {changes.old_label}")
    canvas.setCreator("cardkit")
    dated(canvas)
    per_page = int((A4[1] - 2 * MARGIN - 16 * MM) // ROW)
    pages = [shown[i:i + per_page] for i in range(0, len(shown), per_page)] or [[]]
    for number, rows in enumerate(pages, 1):
        _heading(canvas, changes, number, len(pages))
        top = A4[1] - MARGIN - 16 * MM
        for change in rows:
            _row(canvas, change, top, changes, old_renderer, new_renderer)
            top -= ROW
        canvas.showPage()
    canvas.save()
    if Path(path).suffix.lower() != ".png":
        with atomic_path(Path(path)) as temporary:
            temporary.write_bytes(drawing.getvalue())
        return [Path(path)]
    return _pngs(Path(path), drawing.getvalue())


def _heading(canvas, changes: DeckChanges, page: int, pages: int) -> None:
    canvas.setFillColor(colors.black)
    canvas.setFont(BOLD, 12)
    set_line(canvas, MARGIN, A4[1] - MARGIN - 4 * MM, changes.heading_with(isolated)
             + (f"   (page {page} of {pages})" if pages > 1 else ""), fallbacks=changes.new.fonts)
    canvas.setFont(DEFAULT_FONT, 8)
    canvas.setFillColor(GREY)
    set_line(canvas, MARGIN, A4[1] - MARGIN - 9 * MM, summary_line(changes))
    set_line(canvas, MARGIN + LABEL_WIDTH, A4[1] - MARGIN - 14 * MM, "before")
    set_line(canvas, _new_x(changes), A4[1] - MARGIN - 14 * MM, "now")


def _row(canvas, change, top: float, changes: DeckChanges, old_renderer, new_renderer) -> None:
    """One card's row, its top at ``top``: the label, then the old and the new sides."""
    sides = change.sides or (FRONT,)
    fallbacks = changes.new.fonts
    canvas.setFillColor(colors.HexColor(STATUS_COLOUR[change.status]))
    canvas.setFont(BOLD, 9)
    set_line(canvas, MARGIN, top - 4 * MM, change.status)
    y = top - 9 * MM
    for text, font, size, leading, colour, most in (
            (change.name, BOLD, 9, 4 * MM, colors.black, 2),
            (_said(change), DEFAULT_FONT, 7.5, 3.3 * MM, GREY, 6)):
        canvas.setFont(font, size)
        canvas.setFillColor(colour)
        for line in simpleSplit(text, font, size, LABEL_WIDTH - 4 * MM)[:most]:
            set_line(canvas, MARGIN, y, line, fallbacks=fallbacks)
            y -= leading
    lines = int((y - (top - ROW + 3 * MM)) // WORD_LEADING)  # what the row has room for
    for key, words in change.words():
        y -= 1 * MM
        y, lines = _words(canvas, [(key, f"{key}:")] + words, y, lines, fallbacks)
    size = changes.new.size
    if change.old is not None:
        _cards(canvas, old_renderer, change.old, sides, MARGIN + LABEL_WIDTH, top, size)
    if change.new is not None:
        _cards(canvas, new_renderer, change.new, sides, _new_x(changes), top, size)
    canvas.setStrokeColor(FRAME)
    canvas.setLineWidth(0.3)
    canvas.line(MARGIN, top - ROW + 2 * MM, A4[0] - MARGIN, top - ROW + 2 * MM)


def _said(change) -> str:
    """What changed, in words, for the label."""
    count = (change.new or change.old).count
    counts = (f"{change.old.count} -> {change.new.count} copies" if change.old and change.new
              and change.old.count != change.new.count
              else f"{count} cop{'y' if count == 1 else 'ies'}")
    parts = [counts]
    if change.fields:
        parts.append("fields: " + ", ".join(change.fields))
    if change.elements:
        parts.append("prints differently: " + ", ".join(change.elements))
    return "; ".join(parts)


def _words(canvas, words, y: float, lines: int,
           fallbacks: tuple[str, ...]) -> tuple[float, int]:
    """A field's words flowed into the label from ``y`` in at most ``lines`` lines: the
    field's name in grey, words gone struck through in red, new ones underlined in green.
    Returns the next line's ``y`` and the lines left."""
    x, right = MARGIN, MARGIN + LABEL_WIDTH - 4 * MM
    space = line_width(" ", DEFAULT_FONT, WORD_SIZE)
    for number, (kind, word) in enumerate(words):
        font = DEFAULT_FONT if number else BOLD
        width = line_width(word, font, WORD_SIZE, fallbacks)
        if x > MARGIN and x + width > right:
            lines -= 1
            x, y = MARGIN, y - WORD_LEADING
        if lines <= 0:
            break
        colour = GREY if not number else WORD_COLOUR.get(kind, colors.black)
        canvas.setFillColor(colour)
        canvas.setStrokeColor(colour)
        canvas.setFont(font, WORD_SIZE)
        set_line(canvas, x, y, word, fallbacks=fallbacks)
        if kind in WORD_COLOUR and number:
            canvas.setLineWidth(0.5)
            rise = 0.3 * WORD_SIZE if kind == GONE else -0.15 * WORD_SIZE  # strike, underline
            canvas.line(x, y + rise, x + width, y + rise)
        x += width + space
    return y - WORD_LEADING, lines - 1


def _cards(canvas, renderer, card, sides, x: float, top: float, size) -> None:
    """The card's ``sides`` side by side from ``x``, scaled to the row, each framed and
    named below."""
    scale = min(CARD_HEIGHT / size.height, CARD_WIDTH / size.width)
    width, height = size.width * scale, size.height * scale
    for side in sides:
        y = top - 2 * MM - height
        draw_scaled(canvas, renderer, card, side, x, y, scale, size.width, size.height)
        canvas.setStrokeColor(FRAME)
        canvas.setLineWidth(0.3)
        canvas.rect(x, y, width, height)
        canvas.setFillColor(GREY)
        canvas.setFont(DEFAULT_FONT, 6.5)
        set_line(canvas, x + width / 2, y - 3 * MM, side, "centre")
        x += width + GAP


def _new_x(changes: DeckChanges) -> float:
    size = changes.new.size
    width = size.width * min(CARD_HEIGHT / size.height, CARD_WIDTH / size.width)
    return MARGIN + LABEL_WIDTH + 2 * (width + GAP) + 3 * MM


def _pngs(path: Path, pdf_bytes: bytes) -> list[Path]:
    from .card_png import page_png

    with open_pdf(pdf_bytes) as pdf:
        targets = [path] if len(pdf) == 1 else [
            path.with_name(f"{path.stem}-{i}{path.suffix}") for i in range(1, len(pdf) + 1)]
        for page, target in zip(pdf, targets):
            size = tuple(round(side / 72 * PNG_DPI) for side in page.get_size())
            with atomic_path(target) as temporary:
                temporary.write_bytes(page_png(page, size, PNG_DPI))
            page.close()
    return targets

