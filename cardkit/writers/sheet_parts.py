"""What the card sheets (:mod:`.sheet_pdf`), token sheets (:mod:`.token_pdf`) and boards
(:mod:`.board_pdf`) print alike: the hairline a cut follows, the footer's size, colour and
texts, and a card drawn in its slot, turned, or scaled as a picture of it."""

from __future__ import annotations

from reportlab.lib import colors

from ..assets.shaping import isolated
from ..render.card import CardRenderer

MARK_WIDTH = 0.25  # points: a hairline a cutter can still see
FOOTER_SIZE = 6.0
LABEL_COLOUR = colors.HexColor("#808080")


def draw_turned(canvas, renderer: CardRenderer, card, side: str, slot, bleed: float) -> None:
    """Draw ``card``'s ``side`` in ``slot`` (a card's or a token's); a turned one is drawn
    upright in a turned frame whose origin is its trim's lower-left corner."""
    width, height = (slot.height, slot.width) if slot.turned in (90, -90) else \
        (slot.width, slot.height)
    if not slot.turned:
        renderer.draw(canvas, card, side, slot.x, slot.y, width, height, bleed)
        return
    canvas.saveState()
    if slot.turned == 90:  # the card's bottom edge runs up the slot's right side
        canvas.translate(slot.x + slot.width, slot.y)
    elif slot.turned == 180:  # upside down: its bottom edge along the slot's top
        canvas.translate(slot.x + slot.width, slot.y + slot.height)
    else:  # -90: its bottom edge runs down the slot's left side
        canvas.translate(slot.x, slot.y + slot.height)
    canvas.rotate(slot.turned)
    renderer.draw(canvas, card, side, 0, 0, width, height, bleed)
    canvas.restoreState()


def draw_scaled(canvas, renderer: CardRenderer, card, side: str, x: float, y: float,
                scale: float, width: float, height: float) -> None:
    """Draw ``card``'s ``side`` (``width`` x ``height``) ``scale`` times its size, its
    lower-left corner at (x, y): a picture of it, on a page that is not its print."""
    canvas.saveState()
    canvas.translate(x, y)
    canvas.scale(scale, scale)
    renderer.draw(canvas, card, side, 0, 0, width, height)
    canvas.restoreState()


def footer_texts(title: str, label: str, stamp: str = ""):
    """The footer, longest first: the full line, then without '(actual size)', then with
    the deck's title cut shorter and shorter. Deck, version, page and 'print at 100%'
    always stay. The title is an isolate (here in brackets): a Hebrew title keeps its
    own order.

    >>> for text in list(footer_texts("Shapes", "fronts 1/2", "version 0.3"))[:3]:
    ...     print(text.replace("\u2068", "[").replace("\u2069", "]"))
    [Shapes] · version 0.3 · fronts 1/2 · print at 100% (actual size)
    [Shapes] · version 0.3 · fronts 1/2 · print at 100%
    [Shape…] · version 0.3 · fronts 1/2 · print at 100%
    """
    label = f"{stamp} · {label}" if stamp else label
    yield f"{isolated(title)} · {label} · print at 100% (actual size)"
    for keep in range(len(title), 0, -1):
        shown = title if keep == len(title) else title[:keep].rstrip() + "…"
        yield f"{isolated(shown)} · {label} · print at 100%"
