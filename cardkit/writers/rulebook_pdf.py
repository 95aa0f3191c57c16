"""Write a rulebook (:mod:`cardkit.render.rulebook`) as a PDF on one paper size: the
deck's rules in its fonts (embedded, as every cardkit PDF's) and colours, with a footer
naming the deck, its version stamp (as the card sheets' footers do) and "page N of M"."""

from __future__ import annotations

import io
from pathlib import Path

from reportlab.lib import colors
from reportlab.platypus import BaseDocTemplate, Frame, PageTemplate

from ..assets.fonts import DEFAULT_FONT, register
from ..assets.shaping import isolated
from ..common.units import MM
from ..imposition.paper import PRINTABLE_BORDER
from ..deck.rulebook import Rulebook
from ..render.card import CardRenderer
from ..render.rulebook import SMALLEST_SIZE, Look, Story
from ..render.textpaint import set_line
from .metadata import at_actual_size, dated

MARGIN = 20 * MM  # on A4: inside any home printer's border, with room for the footer
SMALLEST_MARGIN = 8 * MM  # room for the footer, 5 mm inside even a card-sized page
A4_SHORT_SIDE = 210 * MM
SMALLEST_SCALE = 0.6  # of the type on small pages: 6 pt body text
FOOTER_SIZE = 8.0
FOOTER_COLOUR = colors.HexColor("#707070")


def write_rulebook_pdf(path: Path, rulebook: Rulebook, page_size: tuple[float, float],
                       renderer: CardRenderer, look: Look) -> int:
    """Write ``rulebook`` on pages of ``page_size`` (points) to ``path`` (a file name or
    a binary file), each footer saying "page N of M"; returns the number of pages."""
    deck = rulebook.deck
    width, height = page_size
    # pages smaller than A4 (A5, an index card, a card) get smaller margins and type
    scale = min(1.0, min(page_size) / A4_SHORT_SIDE)
    margin = max(SMALLEST_MARGIN, MARGIN * scale)
    footer_size = max(SMALLEST_SIZE, FOOTER_SIZE * scale)
    footer_y = max(margin / 2, PRINTABLE_BORDER + 1 * MM)  # its descenders 5 mm inside too
    register(DEFAULT_FONT)
    footer = " · ".join(filter(None, [isolated(deck.title), deck.stamp, "rules"]))

    def written(target, pages: int) -> int:
        """The rulebook written to ``target``, its footers saying "page N of ``pages``"
        (when known); returns how many pages it took."""
        document = BaseDocTemplate(
            target, pagesize=page_size,
            leftMargin=margin, rightMargin=margin, topMargin=margin, bottomMargin=margin,
            title=f"{deck.title} (rules)", author=deck.author, creator="cardkit",
            subject=", ".join(filter(None, [deck.title, deck.stamp])), invariant=1,
            pageCompression=1, initialFontName=DEFAULT_FONT)
        frame = Frame(margin, margin, width - 2 * margin, height - 2 * margin, id="text",
                      leftPadding=0, rightPadding=0, topPadding=0, bottomPadding=0)

        def on_page(canvas, doc):
            if doc.page == 1:
                dated(canvas)
                at_actual_size(canvas)
                canvas.showOutline()  # the headings' bookmarks open beside the pages
            canvas.saveState()
            canvas.setFont(look.body, footer_size)
            canvas.setFillColor(FOOTER_COLOUR)
            set_line(canvas, margin, footer_y, footer, fallbacks=deck.fonts)
            set_line(canvas, width - margin, footer_y,
                     f"page {doc.page}" + (f" of {pages}" if pages else ""), "right")
            canvas.restoreState()

        document.addPageTemplates([PageTemplate("page", [frame], onPage=on_page)])
        story = Story(rulebook, renderer, look, max(scale, SMALLEST_SCALE))
        document.build(story.flowables(frame.width, frame.height))
        return document.page

    # the footers sit below the text, so the pages break the same way in both passes
    pages = written(io.BytesIO(), 0)
    return written(path if hasattr(path, "write") else str(path), pages)
