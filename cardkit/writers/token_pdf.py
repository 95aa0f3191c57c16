"""Write token sheets (:mod:`cardkit.imposition.tokens`) as a PDF: each face drawn from
its layout and clipped to its shape grown by the bleed, then its cut outline as a hairline
over it, and the footer the card sheets have."""

from __future__ import annotations

from pathlib import Path

from reportlab.lib import colors
from reportlab.pdfgen.canvas import Canvas

from ..assets.fonts import DEFAULT_FONT, register, string_width
from ..deck.model import Deck
from ..imposition.sheets import PRINTABLE_BORDER
from ..imposition.tokens import TOKEN_BLEED, TokenPage, TokenSlot
from ..render.card import FRONT, CardRenderer
from .metadata import describe
from .sheet_pdf import FOOTER_SIZE, LABEL_COLOUR, MARK_WIDTH, footer_texts


def write_token_pdf(path: Path, deck: Deck, pages: list[TokenPage], cards: list,
                    renderer: CardRenderer) -> None:
    """Draw ``pages``; ``cards[i]`` is token i's (front card, back card or None)."""
    canvas = Canvas(str(path), pagesize=(pages[0].width, pages[0].height),
                    initialFontName=register(DEFAULT_FONT), invariant=1, pageCompression=1)
    describe(canvas, deck, "tokens")
    for page in pages:
        canvas.setPageSize((page.width, page.height))
        for slot in page.slots:
            card = cards[slot.index][slot.side == "back"]
            canvas.saveState()
            canvas.clipPath(_shape(canvas, slot, TOKEN_BLEED), stroke=0, fill=0)
            renderer.draw(canvas, card, FRONT, slot.x, slot.y, slot.width, slot.height,
                          TOKEN_BLEED)
            canvas.restoreState()
        canvas.setStrokeColor(colors.black)
        canvas.setLineWidth(MARK_WIDTH)
        for slot in page.slots:
            canvas.drawPath(_shape(canvas, slot), stroke=1, fill=0)
        _footer(canvas, page, deck)
        canvas.showPage()
    canvas.save()


def _shape(canvas, slot: TokenSlot, grow: float = 0.0):
    """The token's outline as a path, grown by ``grow`` (its bleed) all round."""
    path = canvas.beginPath()
    if slot.shape == "round":
        path.circle(slot.x + slot.width / 2, slot.y + slot.height / 2, slot.width / 2 + grow)
        return path
    cx, cy = slot.x + slot.width / 2, slot.y + slot.height / 2
    # scaled about the centre, so that the flats (the nearest parts) move out by ``grow``
    scale = 1 + 2 * grow / min(slot.width, slot.height)
    corners = [(cx + (x - cx) * scale, cy + (y - cy) * scale) for x, y in slot.outline()]
    path.moveTo(*corners[0])
    for corner in corners[1:]:
        path.lineTo(*corner)
    path.close()
    return path


def _footer(canvas, page: TokenPage, deck: Deck) -> None:
    room = page.width - 2 * PRINTABLE_BORDER
    text = next((t for t in footer_texts(deck.title, "tokens " + page.label, deck.stamp)
                 if string_width(t, DEFAULT_FONT, FOOTER_SIZE) <= room), None)
    if text is None:
        return
    canvas.setFillColor(LABEL_COLOUR)
    canvas.setFont(DEFAULT_FONT, FOOTER_SIZE)
    canvas.drawCentredString(page.width / 2, PRINTABLE_BORDER + 0.6, text)
