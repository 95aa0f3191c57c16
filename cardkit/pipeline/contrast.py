"""Is every text readable? Its colour against what lies behind it, measured on the card.

Each side is drawn without its texts and rasterised at a low resolution; what lies behind a
text is the median colour where its lines lie (art, panels and the paper as printed: not
the rest of its box, which may hold the panel around a coloured disc). A text
whose contrast with that is under 4.5:1 (WCAG 2's line for body text; 3:1 for text of 18
points and more) is a warning: hard to read at the table, and worse printed.
"""

from __future__ import annotations

import io

from reportlab.pdfgen.canvas import Canvas

from ..assets.fonts import DEFAULT_FONT, register
from ..common.errors import Problem
from ..deck.model import Deck
from ..render.card import BACK, FRONT, CardRenderer
from ..render.paint import line_origins
from ..sources.checks import faded

DPI = 36  # enough to see a panel's colour; cheap enough for every side of a deck
BODY, LARGE = 4.5, 3.0  # the lowest contrast for text, and for text of LARGE_SIZE or more
LARGE_SIZE = 18.0  # points


def luminance(rgb) -> float:
    """WCAG 2 relative luminance of an sRGB colour with channels 0-1."""
    def linear(c):
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (linear(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a, b) -> float:
    """WCAG 2 contrast ratio of two sRGB colours.

    >>> round(contrast((1, 1, 1), (0, 0, 0)), 1), round(contrast((0xf5 / 255, 0xee / 255,
    ...       0xdb / 255), (0xfd / 255, 0xf6 / 255, 0xe3 / 255)), 2)
    (21.0, 1.07)
    """
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def low_contrast(deck: Deck, renderer: CardRenderer) -> list[Problem]:
    """A warning for each text element (once, at its first card) whose colour stands out
    too little from what the card draws behind it."""
    import pypdfium2
    from PIL import ImageStat

    width, height = deck.size.width, deck.size.height
    pixels = (max(1, round(width / 72 * DPI)), max(1, round(height / 72 * DPI)))
    found, seen_sides, seen_elements = [], set(), set()
    for card in deck.cards:
        for side in (FRONT, BACK):
            items = renderer.resolve(card, side)
            texts = {i for i, item in enumerate(items) if item.text is not None
                     and item.props.get("text") and item.element.where not in seen_elements}
            if not texts or id(items) in seen_sides:
                continue
            seen_sides.add(id(items))
            drawing = io.BytesIO()
            canvas = Canvas(drawing, pagesize=(width, height),
                            initialFontName=register(DEFAULT_FONT), invariant=1)
            renderer.draw(canvas, card, side, 0, 0, width, height, 0,
                          which=lambda i: i not in texts)
            canvas.showPage()  # a page even when the side has nothing but texts
            canvas.save()
            pdf = pypdfium2.PdfDocument(drawing.getvalue())
            try:
                image = pdf[0].render(scale=DPI / 72).to_pil().convert("RGB").resize(pixels)
            finally:
                pdf.close()
            for index in sorted(texts):
                item = items[index]
                left, top, right, bottom = (round(v / 72 * DPI) for v in _lines_area(item))
                right, bottom = max(right, left + 1), max(bottom, top + 1)
                area = (max(0, left), max(0, top), min(pixels[0], right),
                        min(pixels[1], bottom))
                if area[0] >= area[2] or area[1] >= area[3]:
                    continue  # a box wholly outside the card
                behind = tuple(c / 255 for c in ImageStat.Stat(image.crop(area)).median)
                colour = faded(item.props["colour"], item.props["opacity"])
                alpha = 1.0 if colour.alpha is None else colour.alpha
                shown = tuple(alpha * c + (1 - alpha) * b for c, b in zip(colour.rgb(), behind))
                ratio = contrast(shown, behind)
                least = LARGE if item.text.size >= LARGE_SIZE else BODY
                if ratio < least:
                    seen_elements.add(item.element.where)
                    found.append(Problem(
                        item.element.where,
                        f"{card.label()}, element '{item.element.name}': its text "
                        f"{_hex(shown)} stands out {ratio:.2f}:1 from the {_hex(behind)} "
                        f"behind it, under the {least:g}:1 text needs to be read",
                        "darken the text or lighten what lies behind it (or the other "
                        "way round)"))
    return found


def _lines_area(item) -> tuple[float, float, float, float]:
    """Where a text's lines lie on the card, (left, top, right, bottom) in points from its
    top-left; the whole box for a text turned on its side."""
    box, block = item.element.box, item.text
    turned = item.element.rotate
    if not block.lines or turned in (90, 270):
        return box.x, box.y, box.x + box.width, box.y + box.height
    spans = [(x, baseline - block.ascent, x + line.width, baseline + block.descent)
             for (x, baseline), line in zip(line_origins(block, item.props, box.width,
                                                         box.height), block.lines)]
    left, top = min(s[0] for s in spans), min(s[1] for s in spans)
    right, bottom = max(s[2] for s in spans), max(s[3] for s in spans)
    if turned == 180:  # upside down in its box
        left, right, top, bottom = (box.width - right, box.width - left, box.height - bottom,
                                    box.height - top)
    return box.x + left, box.y + top, box.x + right, box.y + bottom


def _hex(rgb) -> str:
    return "#" + "".join(f"{round(c * 255):02x}" for c in rgb)
