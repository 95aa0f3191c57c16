"""Write token sheets (:mod:`cardkit.imposition.tokens`) as a PDF: each face drawn from
its layout and clipped to its shape grown by the bleed, then its cut outline as a hairline
over it, and the footer the card sheets have. :func:`draw_tokens` draws the tokens of a
sheet template's pages too."""

from __future__ import annotations

from pathlib import Path

from reportlab.lib import colors
from reportlab.pdfgen.canvas import Canvas

from ..assets.fonts import DEFAULT_FONT, ascent_descent, register
from ..deck.model import Deck
from ..imposition.sheets import PRINTABLE_BORDER, TOKEN_BLEED
from ..imposition.tokens import TokenPage, TokenSlot
from ..render.card import FRONT, CardRenderer
from ..render.textpaint import line_width, set_line
from .metadata import describe
from .sheet_pdf import FOOTER_SIZE, LABEL_COLOUR, MARK_WIDTH, draw_turned, footer_texts


def write_token_pdf(path: Path, deck: Deck, pages: list[TokenPage], cards: list,
                    renderer: CardRenderer) -> None:
    """Draw ``pages``; ``cards[i]`` is token i's (front card, back card or None)."""
    canvas = Canvas(str(path), pagesize=(pages[0].width, pages[0].height),
                    initialFontName=register(DEFAULT_FONT), invariant=1, pageCompression=1)
    describe(canvas, deck, "tokens")
    for page in pages:
        canvas.setPageSize((page.width, page.height))
        draw_tokens(canvas, page.slots, cards, renderer)
        _footer(canvas, page, deck)
        canvas.showPage()
    canvas.save()


def draw_tokens(canvas, slots, cards: list, renderer: CardRenderer,
                outlines: bool = True) -> None:
    """Draw the tokens in ``slots`` (``cards`` as :func:`write_token_pdf` takes them), each
    face clipped to its shape grown by the bleed, then (with ``outlines``) their cut
    outlines over them."""
    for slot in slots:
        canvas.saveState()
        canvas.clipPath(_shape(canvas, slot, TOKEN_BLEED), stroke=0, fill=0)
        draw_turned(canvas, renderer, cards[slot.index][slot.side == "back"], FRONT, slot,
                    TOKEN_BLEED)
        canvas.restoreState()
    if outlines:
        canvas.saveState()
        canvas.setStrokeColor(colors.black)
        canvas.setLineWidth(MARK_WIDTH)
        for slot in slots:
            canvas.drawPath(_shape(canvas, slot), stroke=1, fill=0)
        canvas.restoreState()


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
                 if line_width(t, DEFAULT_FONT, FOOTER_SIZE, deck.fonts) <= room), None)
    if text is None:
        return
    canvas.setFillColor(LABEL_COLOUR)
    canvas.setFont(DEFAULT_FONT, FOOTER_SIZE)
    # the baseline high enough that the descenders stay inside the border too
    descent = ascent_descent(DEFAULT_FONT, FOOTER_SIZE)[1]
    set_line(canvas, page.width / 2, PRINTABLE_BORDER + descent + 0.1, text, "centre",
             deck.fonts)
