"""The calibration sheet: a two-sided test page that tells a user whether their printer prints
at 100% and how far it shifts the back side, as the ``--back-offset`` value that corrects it.

The front has a 50 mm square, a 100 mm ruler and two scales in millimetres, one across (X)
and one up the page (Y). The back has a red line over the zero of each scale, placed the way
``sheets`` places a card's back. Held to the light, each red line crosses its scale at the
value to pass as ``--back-offset X,Y``. The scales are numbered so that the reading is that
value directly (right and down, in the back's own frame, as ``sheets`` applies it):

- when turning the paper mirrors the columns, X grows to the right and Y grows upwards;
- when it mirrors the rows, X grows to the left and Y grows downwards.

Why: a back printed 1 mm too far right (seen from the back) needs ``X = -1``; seen through
the paper with columns mirrored, it shows 1 mm to the left of zero. A back printed 1 mm too
low needs ``Y = -1`` and, with columns mirrored, shows 1 mm below zero.

The scales sit off the page's centre lines, so a sheet printed flipping on the other edge
puts the red lines far from their scales, which the instructions tell the user to look for.
"""

from __future__ import annotations

from pathlib import Path

from reportlab.lib import colors
from reportlab.pdfgen.canvas import Canvas

from ..assets.fonts import DEFAULT_FONT, cap_height, register
from ..common.units import MM
from ..imposition.sheets import PAPER_NAMES, PAPERS, PRINTABLE_BORDER, mirrors_columns
from ..render.textpaint import line_width, set_line
from .metadata import at_actual_size

SCALE_RANGE = 8  # millimetres each way from zero
POINTER = colors.HexColor("#e00000")
INK = colors.black
GREY = colors.HexColor("#606060")
TEXT_SIZE = 8.5
# what a player does with the reading: they print a packed entry's PDFs and build nothing
PLAYERS_STEP = [
    "4. A line more than 1 mm from 0: your printer shifts the back side that far, and the "
    "backs will sit off",
    "    their fronts. Print the gutterfold file instead (one side, folded), or send the two "
    "numbers to the designer.",
]


def scale_centres(width: float, height: float) -> tuple[tuple[float, float], tuple[float, float]]:
    """Where the zero of the X scale and of the Y scale lie on the front (points): off both
    centre lines, so that a sheet flipped the wrong way shows the red lines far away."""
    return (width / 2 - 45 * MM, height / 2 - 35 * MM), (width / 2 + 45 * MM, height / 2 - 35 * MM)


def write_calibration(path: Path, paper: str, duplex: str, orientation: str = "portrait",
                      back_offset: tuple[float, float] = (0.0, 0.0),
                      for_players: bool = False) -> None:
    """The two-sided sheet; ``for_players``: the one in a packed entry, which tells a
    player what to do with the reading (they print the entry's PDFs, they build nothing)."""
    short, long = PAPERS[paper]
    width, height = (short, long) if orientation == "portrait" else (long, short)
    columns = mirrors_columns(duplex, width, height)
    canvas = Canvas(str(path), pagesize=(width, height), initialFontName=register(DEFAULT_FONT),
                    invariant=1, pageCompression=1)
    canvas.setTitle(f"cardkit calibration sheet ({PAPER_NAMES[paper]}, {duplex}-edge duplex)")
    at_actual_size(canvas)
    canvas.setCreator("cardkit")
    register("Lato-Bold")
    _front(canvas, width, height, paper, duplex, columns, back_offset, for_players)
    canvas.showPage()
    _back(canvas, width, height, columns, back_offset)
    canvas.showPage()
    canvas.save()


def _front(canvas, width, height, paper, duplex, columns, back_offset, for_players) -> None:
    left, top = PRINTABLE_BORDER + 10 * MM, height - PRINTABLE_BORDER - 12 * MM
    canvas.setFillColor(INK)
    canvas.setFont("Lato-Bold", 14)
    set_line(canvas, left, top, f"{'Printer test' if for_players else 'cardkit calibration'}"
                                f" sheet · {PAPER_NAMES[paper]} · flip on the {duplex} edge")
    applied = ""
    if any(back_offset):
        applied = (f" (this sheet was printed with --back-offset {back_offset[0] / MM:g},"
                   f"{back_offset[1] / MM:g}: add the readings to it)")
    steps = [
        "1. Print this page at 100% (actual size), on both sides, flipping on the "
        f"{duplex} edge: the way you will print the cards.",
        "2. Measure the square: 50 mm each way, and the ruler: 100 mm. If not, the printer "
        "scales the page; turn off 'fit to page'.",
        "3. Hold the sheet up to a window or a lamp, this side facing you. A red line printed "
        "on the back crosses",
        "    each scale below: read the number where it crosses (estimate between ticks).",
        *(PLAYERS_STEP if for_players else
          [f"4. Build with those numbers: cardkit build DECK --duplex {duplex} "
           f"--back-offset X,Y{applied}."]),
        "5. No red line on a scale? The printer flipped on the other edge: print again "
        "flipping on the other edge.",
    ]
    canvas.setFont(DEFAULT_FONT, TEXT_SIZE)
    for i, step in enumerate(steps):
        set_line(canvas, left, top - (8 + 4.2 * i) * MM, step)
    square_and_ruler(canvas, left, top - 90 * MM)
    (x_zero, y_zero) = scale_centres(width, height)
    _scale(canvas, *x_zero, across=True, sign=1 if columns else -1)
    _scale(canvas, *y_zero, across=False, sign=1 if columns else -1)
    _footer(canvas, width, "front")


def _back(canvas, width, height, columns, back_offset) -> None:
    """A red line over each scale's zero, as the sheets place a back behind its front."""
    dx, dy = back_offset
    canvas.setStrokeColor(POINTER)
    canvas.setFillColor(POINTER)
    canvas.setLineWidth(0.35 * MM)
    reach = 9 * MM
    for (x, y), across in zip(scale_centres(width, height), (True, False)):
        x, y = (width - x, y) if columns else (x, height - y)
        x, y = x + dx, y - dy
        if across:  # a vertical line crossing the X scale
            canvas.line(x, y - reach, x, y + reach)
        else:
            canvas.line(x - reach, y, x + reach, y)
    canvas.setFillColor(INK)
    canvas.setFont(DEFAULT_FONT, TEXT_SIZE)
    set_line(canvas, width / 2, height / 2 + 40 * MM,
             "Back of the calibration sheet: read the red lines from the front.", "centre")
    _footer(canvas, width, "back")


def square_and_ruler(canvas, left: float, bottom: float) -> None:
    """A 50 mm square and a 100 mm ruler, bottom-left at (left, bottom): what a print at
    100% measures."""
    canvas.setStrokeColor(INK)
    canvas.setLineWidth(0.3)
    canvas.rect(left, bottom, 50 * MM, 50 * MM, stroke=1, fill=0)
    canvas.setFont(DEFAULT_FONT, TEXT_SIZE)
    set_line(canvas, left + 25 * MM, bottom + 23 * MM, "50 mm x 50 mm", "centre")
    ruler_left, base = left + 65 * MM, bottom + 25 * MM
    canvas.line(ruler_left, base, ruler_left + 100 * MM, base)
    for mm in range(101):
        tick = 5 * MM if mm % 10 == 0 else 3 * MM if mm % 5 == 0 else 1.8 * MM
        x = ruler_left + mm * MM
        canvas.line(x, base, x, base + tick)
        if mm % 10 == 0:
            set_line(canvas, x, base + 6.5 * MM, str(mm // 10), "centre")
    set_line(canvas, ruler_left, base - 5 * MM, "100 mm ruler (numbers in cm)")


def _scale(canvas, x: float, y: float, across: bool, sign: int) -> None:
    """A scale from -SCALE_RANGE to +SCALE_RANGE mm whose zero is at (x, y), with a tick
    every half millimetre and a number every millimetre (even numbers on one side, odd on
    the other, so they have room). ``across`` scales read along x, numbers growing to the
    right for ``sign`` 1; the others read along y, numbers growing upwards for ``sign`` 1."""
    canvas.setStrokeColor(INK)
    canvas.setFillColor(INK)
    canvas.setLineWidth(0.25)
    canvas.setFont(DEFAULT_FONT, 5)
    for half in range(-2 * SCALE_RANGE, 2 * SCALE_RANGE + 1):
        value = half / 2
        offset = sign * value * MM
        length = (3.5 if half == 0 else 2.5 if half % 2 == 0 else 1.2) * MM
        side = 1 if half % 4 == 0 else -1  # even numbers above (or right), odd below
        label = f"{value:g}"
        if across:
            canvas.line(x + offset, y - length, x + offset, y + length)
            if half % 2 == 0:  # the digits centred on the tick, a minus sign left of them
                digits = line_width(label.lstrip("-"), DEFAULT_FONT, 5)
                set_line(canvas, x + offset + digits / 2,
                         y + side * 4.6 * MM - (side < 0) * 1.6 * MM, label, "right")
        else:
            canvas.line(x - length, y + offset, x + length, y + offset)
            if half % 2 == 0:
                text_x = x + 4.2 * MM if side > 0 else x - 4.2 * MM
                set_line(canvas, text_x, y + offset - cap_height(DEFAULT_FONT, 5) / 2, label,
                         "left" if side > 0 else "right")  # centred on the tick
    canvas.setFont("Lato-Bold", 9)
    if across:
        set_line(canvas, x - (SCALE_RANGE + 2) * MM, y - 1.2 * MM, "X", "right")
    else:
        set_line(canvas, x, y + (SCALE_RANGE + 4) * MM, "Y", "centre")
    canvas.setFont(DEFAULT_FONT, TEXT_SIZE)


def _footer(canvas, width: float, side: str) -> None:
    canvas.setFillColor(GREY)
    canvas.setFont(DEFAULT_FONT, 6)
    set_line(canvas, width / 2, PRINTABLE_BORDER + 2 * MM,
             f"cardkit calibration sheet · {side} · print at 100% (actual size)", "centre")
