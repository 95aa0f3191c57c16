"""Write a tuck box's sheets (:mod:`cardkit.imposition.tuckbox`) as a PDF: each face drawn
from its layout, its bleed elements run 2 mm past its edges, the glue areas shaded, the fold
lines dashed, the cut line solid, and a legend below naming the three."""

from __future__ import annotations

from pathlib import Path

from reportlab.lib import colors
from reportlab.pdfgen.canvas import Canvas

from ..assets.fonts import DEFAULT_FONT, register
from ..assets.shaping import isolated
from ..common.units import MM
from ..deck.box import Box
from ..imposition.tuckbox import BLEED, BoxSheet
from ..render.card import FRONT, CardRenderer
from ..render.textpaint import line_width, set_line
from .metadata import describe

CUT_WIDTH = 0.5  # points
FOLD_WIDTH = 0.5
FOLD_DASH = (3, 2)  # points on, off
FOLD_COLOUR = colors.HexColor("#404040")
GLUE_FILL = colors.HexColor("#c8c8c8")
LEGEND_SIZE = 7.0
MIN_LEGEND_SIZE = 4.0  # a very long title is cut at the sheet's edge rather than unreadable
LEGEND_COLOUR = colors.HexColor("#505050")
SAMPLE = 8 * MM  # a legend entry's sample line or patch


def write_box_pdf(path: Path, box: Box, sheets: list[BoxSheet],
                  renderer: CardRenderer) -> None:
    """Draw ``sheets`` of ``box`` into the PDF at ``path``."""
    canvas = Canvas(str(path), pagesize=(sheets[0].width, sheets[0].height),
                    initialFontName=register(DEFAULT_FONT), invariant=1, pageCompression=1)
    describe(canvas, box.deck, "tuck box")
    cards = {face: box.face_card(face) for face in box.faces}
    for sheet in sheets:
        canvas.setPageSize((sheet.width, sheet.height))
        canvas.saveState()
        canvas.translate(sheet.x, sheet.y)
        _faces(canvas, sheet, cards, renderer)
        _glue(canvas, sheet)
        _folds(canvas, sheet)
        _cut(canvas, sheet)
        canvas.restoreState()
        _legend(canvas, sheet, box)
        canvas.showPage()
    canvas.save()


def _faces(canvas, sheet: BoxSheet, cards: dict, renderer: CardRenderer) -> None:
    """Every face's bleed elements grown by the bleed first, then every face whole over
    them: where two faces meet at a fold, neither's bleed shows on the other, as under a
    dieline's neighbouring panel; past a cut edge or onto a flap, it does."""
    printed = [panel for panel in sheet.piece.panels if panel.face in cards]
    for panel in printed:
        items = renderer.resolve(cards[panel.face], FRONT)
        _face(canvas, panel, cards[panel.face], renderer, BLEED,
              lambda i, items=items: items[i].element.bleed)
    for panel in printed:
        _face(canvas, panel, cards[panel.face], renderer, 0.0, None)


def _face(canvas, panel, card, renderer: CardRenderer, bleed: float, which) -> None:
    if panel.turned:  # upside down: its top edge along the panel's bottom
        canvas.saveState()
        canvas.translate(panel.x + panel.width, panel.y + panel.height)
        canvas.rotate(180)
        renderer.draw(canvas, card, FRONT, 0, 0, panel.width, panel.height, bleed, which)
        canvas.restoreState()
    else:
        renderer.draw(canvas, card, FRONT, panel.x, panel.y, panel.width, panel.height,
                      bleed, which)


def _polygon(canvas, points, fill: bool, stroke: bool) -> None:
    path = canvas.beginPath()
    path.moveTo(*points[0])
    for point in points[1:]:
        path.lineTo(*point)
    path.close()
    canvas.drawPath(path, fill=int(fill), stroke=int(stroke))


def _glue(canvas, sheet: BoxSheet) -> None:
    canvas.setFillColor(GLUE_FILL)
    for shape in sheet.piece.glue:
        _polygon(canvas, shape, fill=True, stroke=False)


def _fold_style(canvas) -> None:
    canvas.setStrokeColor(FOLD_COLOUR)
    canvas.setLineWidth(FOLD_WIDTH)
    canvas.setDash(*FOLD_DASH)


def _cut_style(canvas) -> None:
    canvas.setStrokeColor(colors.black)
    canvas.setLineWidth(CUT_WIDTH)
    canvas.setDash()


def _folds(canvas, sheet: BoxSheet) -> None:
    _fold_style(canvas)
    for x1, y1, x2, y2 in sheet.piece.folds:
        canvas.line(x1, y1, x2, y2)


def _cut(canvas, sheet: BoxSheet) -> None:
    _cut_style(canvas)
    _polygon(canvas, sheet.piece.cut, fill=False, stroke=True)


def _legend(canvas, sheet: BoxSheet, box: Box) -> None:
    """Cut, fold and glue with a sample of each, then what the box is, in the band below
    the dieline."""
    x, y, width, height = sheet.legend
    middle = y + height / 2
    canvas.saveState()
    canvas.setFont(DEFAULT_FONT, LEGEND_SIZE)
    for name, style in (("cut", _cut_style), ("fold", _fold_style), ("glue", None)):
        if style is None:
            canvas.setFillColor(GLUE_FILL)
            canvas.rect(x, middle - 1.5 * MM, SAMPLE, 3 * MM, stroke=0, fill=1)
        else:
            style(canvas)
            canvas.line(x, middle, x + SAMPLE, middle)
        canvas.setFillColor(LEGEND_COLOUR)
        set_line(canvas, x + SAMPLE + 1.5 * MM, middle - LEGEND_SIZE / 3, name)
        x += SAMPLE + 12 * MM
    deck = box.deck
    lines = [" · ".join(filter(None, [isolated(deck.title), deck.stamp, sheet.label,
                                      "print at 100%"])),
             box.summary]
    room = sheet.legend[0] + width - x
    size = max(MIN_LEGEND_SIZE, min([LEGEND_SIZE] + [
        LEGEND_SIZE * room / line_width(line, DEFAULT_FONT, LEGEND_SIZE, deck.fonts)
        for line in lines]))
    canvas.setFont(DEFAULT_FONT, size)
    set_line(canvas, x, middle + 0.4 * size, lines[0], fallbacks=deck.fonts)
    set_line(canvas, x, middle - 1.1 * size, lines[1], fallbacks=deck.fonts)
    canvas.restoreState()
