"""The "how to print and cut" sheet of a packed entry: one page that says, for each PDF of
the entry, what it is and how to print it (pages, cards a sheet, which edge to flip on),
with the 50 mm square a print at 100% measures. It is written from the sheets' own plans,
so it says what the PDFs are."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from reportlab.lib import colors
from reportlab.lib.utils import simpleSplit
from reportlab.pdfgen.canvas import Canvas

from ..assets.fonts import DEFAULT_FONT, register
from ..assets.shaping import isolated
from ..common.units import MM
from ..deck.model import Deck
from ..imposition.paper import PRINTABLE_BORDER
from ..render.textpaint import set_line
from .calibration_pdf import square_and_ruler
from .metadata import describe

MARGIN = PRINTABLE_BORDER + 10 * MM
TEXT_SIZE, LEADING = 9.5, 13


@dataclass(frozen=True)
class PrintedFile:
    """One PDF of the entry as the sheet describes it."""

    name: str
    pages: int
    per_page: int  # cards a sheet (0: not a sheet of cards)
    how: str  # how to print it: 'both sides, flipping on the long edge (portrait)'


def write_howto(path: Path, deck: Deck, page_size: tuple[float, float],
                files: list[PrintedFile], cutting: str, calibration: str) -> None:
    """Write the one-page sheet for ``files`` on a page of ``page_size``; ``cutting`` says
    how the cards are cut apart; ``calibration`` names the entry's printer test sheet. It
    is written for the players who print the entry, not for its designer."""
    width, height = page_size
    canvas = Canvas(str(path), pagesize=page_size, initialFontName=register(DEFAULT_FONT),
                    invariant=1, pageCompression=1)
    describe(canvas, deck, "how to print and cut")
    bold = register("Lato-Bold")
    y = height - MARGIN
    canvas.setFont(bold, 16)
    set_line(canvas, MARGIN, y, f"How to print and cut {isolated(deck.title)}",
             fallbacks=deck.fonts)
    y -= 7 * MM
    if deck.stamp:
        canvas.setFont(DEFAULT_FONT, TEXT_SIZE)
        set_line(canvas, MARGIN, y, deck.stamp)
        y -= 6 * MM

    def paragraph(text: str, font: str = DEFAULT_FONT, indent: float = 0.0) -> None:
        nonlocal y
        canvas.setFont(font, TEXT_SIZE)
        for line in simpleSplit(text, font, TEXT_SIZE, width - 2 * MARGIN - indent):
            set_line(canvas, MARGIN + indent, y, line)
            y -= LEADING
        y -= 3

    paragraph("1. Print at 100% (\"Actual size\"), never \"Fit to page\". The square below "
              "must measure 50 mm each way and the ruler 100 mm; if they do not, the printer "
              "scaled the page and the cards come out the wrong size.", bold)
    y -= 52 * MM
    square_and_ruler(canvas, MARGIN, y + 4 * MM)
    y -= 4 * MM
    paragraph("2. Print the cards from one of the files of cards (the same cards, laid out "
              "for different printers), and each other file once, on A4 or Letter as its "
              "name says:", bold)
    for file in files:
        sheet = f", {file.per_page} cards a sheet" if file.per_page else ""
        paragraph(f"{file.name}: {file.pages} page{'s' * (file.pages != 1)}{sheet}. "
                  f"{file.how}", indent=5 * MM)
    paragraph("3. Cut: " + cutting, bold)
    paragraph(f"4. If the backs sit off their fronts: print {calibration} (two pages) on "
              "both sides, the way you printed the cards, and follow what it says. Or print "
              "the gutterfold file instead: folding puts every back behind its front, "
              "whatever the printer does.")
    canvas.setFillColor(colors.HexColor("#606060"))
    canvas.setFont(DEFAULT_FONT, 6)
    set_line(canvas, width / 2, PRINTABLE_BORDER + 2 * MM,
             f"{isolated(deck.title)} · how to print and cut · print at 100% (actual size)",
             "centre", deck.fonts)
    canvas.showPage()
    canvas.save()
