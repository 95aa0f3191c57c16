"""Write a rulebook (:mod:`cardkit.render.rulebook`) as a PDF on one paper size: the
deck's rules in its fonts (embedded, as every cardkit PDF's) and colours, with a footer
naming the deck, its version stamp (as the card sheets' footers do) and the page."""

from __future__ import annotations

from pathlib import Path

from reportlab.lib import colors
from reportlab.platypus import BaseDocTemplate, Frame, PageTemplate

from ..assets.fonts import DEFAULT_FONT, register
from ..common.units import MM
from ..deck.rulebook import Rulebook
from ..render.card import CardRenderer
from ..render.rulebook import Look, Story
from .metadata import dated

MARGIN = 20 * MM  # inside any home printer's border, with room for the footer
FOOTER_SIZE = 8.0
FOOTER_COLOUR = colors.HexColor("#707070")


def write_rulebook_pdf(path: Path, rulebook: Rulebook, page_size: tuple[float, float],
                       renderer: CardRenderer, look: Look) -> int:
    """Write ``rulebook`` on pages of ``page_size`` (points) to ``path`` (a file name or
    a binary file); returns the number of pages."""
    deck = rulebook.deck
    width, height = page_size
    register(DEFAULT_FONT)
    document = BaseDocTemplate(
        path if hasattr(path, "write") else str(path), pagesize=page_size,
        leftMargin=MARGIN, rightMargin=MARGIN, topMargin=MARGIN, bottomMargin=MARGIN,
        title=f"{deck.title} (rules)", author=deck.author, creator="cardkit",
        subject=", ".join(filter(None, [deck.title, deck.stamp])), invariant=1,
        pageCompression=1, initialFontName=DEFAULT_FONT)
    frame = Frame(MARGIN, MARGIN, width - 2 * MARGIN, height - 2 * MARGIN, id="text",
                  leftPadding=0, rightPadding=0, topPadding=0, bottomPadding=0)
    footer = " · ".join(filter(None, [deck.title, deck.stamp, "rules"]))

    def on_page(canvas, doc):
        if doc.page == 1:
            dated(canvas)
        canvas.saveState()
        canvas.setFont(look.body, FOOTER_SIZE)
        canvas.setFillColor(FOOTER_COLOUR)
        canvas.drawString(MARGIN, MARGIN / 2, footer)
        canvas.drawRightString(width - MARGIN, MARGIN / 2, f"page {doc.page}")
        canvas.restoreState()

    document.addPageTemplates([PageTemplate("page", [frame], onPage=on_page)])
    document.build(Story(rulebook, renderer, look).flowables(frame.width, frame.height))
    return document.page
