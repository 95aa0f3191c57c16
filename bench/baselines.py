"""What a designer might write by hand instead of using cardkit: plain reportlab scripts
that read the same deck file with the same YAML parser (libyaml, as cardkit does), register
the same Lato fonts (embedded as subsets) and draw the same pages: 3x3 poker cards on A4,
centred, crop marks, a footer, each page of fronts followed by its mirrored backs. They
check nothing, and import nothing of cardkit's, so that a whole process of one is what a
designer's own script costs: ``python bench/baselines.py KIND DECK OUT`` runs one.
"""

from __future__ import annotations

from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
MM = 72 / 25.4
CARD_W, CARD_H = 63.5 * MM, 88.9 * MM
PAGE_W, PAGE_H = 210 * MM, 297 * MM
LEFT, TOP = (PAGE_W - 3 * CARD_W) / 2, (PAGE_H + 3 * CARD_H) / 2
FONT_DIR = ROOT / "cardkit" / "assets" / "lato"  # the files cardkit embeds
BACK_WORD = (0, 39.45, 63.5, 10)  # the box of the backs' word, mm from the top-left
FACES = {"Lato": "Lato-Regular.ttf", "Lato-Bold": "Lato-Bold.ttf",
         "Lato-Black": "Lato-Black.ttf"}


def _read(deck: Path) -> dict:
    return yaml.load(deck.read_text(encoding="utf-8"), Loader=yaml.CSafeLoader)


def _canvas(out: Path):
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont
    from reportlab.pdfgen.canvas import Canvas

    for name, file in FACES.items():
        pdfmetrics.registerFont(TTFont(name, str(FONT_DIR / file)))
    return Canvas(str(out), pagesize=(PAGE_W, PAGE_H), initialFontName="Lato",
                  pageCompression=1)


def _marks(canvas) -> None:
    canvas.setStrokeColorRGB(0, 0, 0)
    canvas.setLineWidth(0.25)
    for i in range(4):
        x, y = LEFT + i * CARD_W, TOP - i * CARD_H
        canvas.line(x, TOP + MM, x, TOP + 5 * MM)
        canvas.line(x, TOP - 3 * CARD_H - MM, x, TOP - 3 * CARD_H - 5 * MM)
        canvas.line(LEFT - MM, y, LEFT - 5 * MM, y)
        canvas.line(LEFT + 3 * CARD_W + MM, y, LEFT + 3 * CARD_W + 5 * MM, y)


def _footer(canvas, title: str, label: str) -> None:
    canvas.setFillColorRGB(0.5, 0.5, 0.5)
    canvas.setFont("Lato", 6)
    canvas.drawCentredString(PAGE_W / 2, 7 * MM,
                             f"{title} · {label} · print at 100% (actual size)")


def _sheets(canvas, cards: list, title: str, front, back) -> None:
    """Pages of nine fronts, each followed by its backs, mirrored for long-edge duplex."""
    pages = (len(cards) + 8) // 9
    for number, start in enumerate(range(0, len(cards), 9), 1):
        sheet = cards[start:start + 9]
        for side, draw in (("fronts", front), ("backs", back)):
            for i, card in enumerate(sheet):
                row, col = divmod(i, 3)
                if side == "backs":
                    col = 2 - col
                draw(canvas, LEFT + col * CARD_W, TOP - (row + 1) * CARD_H, card)
            _marks(canvas)
            _footer(canvas, title, f"{side} {number}/{pages}")
            canvas.showPage()
    canvas.save()


def _middle(box, y: float, font: str, size: float) -> float:
    """The baseline that centres a line of ``font`` in ``box`` (mm from the card's top) on
    a card whose bottom is at ``y``."""
    from reportlab.pdfbase.pdfmetrics import getAscentDescent

    ascent, descent = getAscentDescent(font, size)
    return y + CARD_H - (box[1] + box[3] / 2) * MM - (ascent + descent) / 2


def run_plain_text(deck: Path, out: Path) -> None:
    """The text-heavy deck of ``text_deck.py``: a background, a value on a disc, a title
    and a paragraph wrapped by reportlab's own simpleSplit."""
    from reportlab.lib.colors import HexColor, white
    from reportlab.lib.utils import simpleSplit
    from reportlab.pdfbase.pdfmetrics import getAscentDescent

    from text_deck import TEXT_BOX, TEXT_LEADING, TEXT_SIZE, TITLE_BOX, VALUE_BOX

    data = _read(deck)
    backs = {name: {"colour": HexColor(b["colour"]), "tint": HexColor(b["tint"]),
                    "name": b["name"]} for name, b in data["backs"].items()}
    canvas = _canvas(out / "plain-text.pdf")

    def front(canvas, x, y, card):
        back = backs[card["back"]]
        canvas.setFillColor(back["tint"])
        canvas.rect(x, y, CARD_W, CARD_H, stroke=0, fill=1)
        vx, vy, vw, vh = (v * MM for v in VALUE_BOX)
        canvas.setFillColor(back["colour"])
        canvas.ellipse(x + vx, y + CARD_H - vy - vh, x + vx + vw, y + CARD_H - vy, 0, 1)
        canvas.setFillColor(white)
        canvas.setFont("Lato-Black", 14)
        canvas.drawCentredString(x + vx + vw / 2, _middle(VALUE_BOX, y, "Lato-Black", 14),
                                 str(card["value"]))
        canvas.setFillColor(back["colour"])
        canvas.setFont("Lato-Black", 13)
        canvas.drawString(x + TITLE_BOX[0] * MM, _middle(TITLE_BOX, y, "Lato-Black", 13),
                          card["name"])
        canvas.setFillColor(HexColor("#222222"))
        text = canvas.beginText()
        text.setFont("Lato", TEXT_SIZE, TEXT_SIZE * TEXT_LEADING)
        ascent = getAscentDescent("Lato", TEXT_SIZE)[0]
        text.setTextOrigin(x + TEXT_BOX[0] * MM, y + CARD_H - TEXT_BOX[1] * MM - ascent)
        for line in simpleSplit(card["text"], "Lato", TEXT_SIZE, TEXT_BOX[2] * MM):
            text.textLine(line)
        canvas.drawText(text)

    def back_side(canvas, x, y, card):
        back = backs[card["back"]]
        canvas.setFillColor(back["colour"])
        canvas.rect(x, y, CARD_W, CARD_H, stroke=0, fill=1)
        canvas.setFillColor(white)
        canvas.setFont("Lato-Black", 20)
        canvas.drawCentredString(x + CARD_W / 2, _middle(BACK_WORD, y, "Lato-Black",
                                                         20), back["name"])

    cards = [card for card in data["cards"] for _ in range(card.get("count", 1))]
    _sheets(canvas, cards, data["title"], front, back_side)


# The suit icons of ``card_deck.py`` in a unit square (y up): a start, then Bezier segments
SUIT_SHAPES = {
    "heart": ((0.5, 0.05), ((0.35, 0.25), (0.02, 0.42), (0.02, 0.68)),
              ((0.02, 0.88), (0.18, 0.97), (0.3, 0.97)), ((0.42, 0.97), (0.48, 0.88), (0.5, 0.8)),
              ((0.52, 0.88), (0.58, 0.97), (0.7, 0.97)), ((0.82, 0.97), (0.98, 0.88), (0.98, 0.68)),
              ((0.98, 0.42), (0.65, 0.25), (0.5, 0.05))),
    "diamond": ((0.5, 0.0), ((0.62, 0.2), (0.75, 0.36), (0.88, 0.5)),
                ((0.75, 0.64), (0.62, 0.8), (0.5, 1.0)), ((0.38, 0.8), (0.25, 0.64), (0.12, 0.5)),
                ((0.25, 0.36), (0.38, 0.2), (0.5, 0.0))),
}


def run_plain_cards(deck: Path, out: Path) -> None:
    """The deck of ``card_deck.py``: a title, a number, a suit icon and a block of text
    wrapped by reportlab's own simpleSplit, on a tinted card; backs of one colour and a
    word."""
    from reportlab.lib.colors import HexColor
    from reportlab.lib.utils import simpleSplit
    from reportlab.pdfbase.pdfmetrics import getAscentDescent

    from card_deck import (ICON_BOX, INK, NUMBER_BOX, NUMBER_SIZE, TEXT_BOX, TEXT_LEADING,
                           TEXT_SIZE, TINT, TITLE_BOX, TITLE_SIZE)

    data = _read(deck)
    ink, tint = HexColor(INK), HexColor(TINT)
    colours = {}
    canvas = _canvas(out / "plain-cards.pdf")
    ascent = getAscentDescent("Lato", TEXT_SIZE)[0]

    def front(canvas, x, y, card):
        canvas.setFillColor(tint)
        canvas.rect(x, y, CARD_W, CARD_H, stroke=0, fill=1)
        canvas.setFillColor(ink)
        canvas.setFont("Lato-Black", TITLE_SIZE)
        canvas.drawString(x + TITLE_BOX[0] * MM, _middle(TITLE_BOX, y, "Lato-Black", TITLE_SIZE),
                          card["title"])
        canvas.setFont("Lato-Black", NUMBER_SIZE)
        canvas.drawRightString(x + (NUMBER_BOX[0] + NUMBER_BOX[2]) * MM,
                               _middle(NUMBER_BOX, y, "Lato-Black", NUMBER_SIZE),
                               str(card["number"]))
        canvas.saveState()
        side = ICON_BOX[2] * MM
        canvas.translate(x + ICON_BOX[0] * MM, y + CARD_H - (ICON_BOX[1] + ICON_BOX[3]) * MM)
        canvas.scale(side, side)
        start, *segments = SUIT_SHAPES[card["suit"]]
        path = canvas.beginPath()
        path.moveTo(*start)
        for c1, c2, end in segments:
            path.curveTo(*c1, *c2, *end)
        path.close()
        colour = colours.setdefault(card["colour"], HexColor(card["colour"]))
        canvas.setFillColor(colour)
        canvas.drawPath(path, stroke=0, fill=1, fillMode=0)
        canvas.restoreState()
        canvas.setFillColor(ink)
        text = canvas.beginText()
        text.setFont("Lato", TEXT_SIZE, TEXT_SIZE * TEXT_LEADING)
        text.setTextOrigin(x + TEXT_BOX[0] * MM, y + CARD_H - TEXT_BOX[1] * MM - ascent)
        for line in simpleSplit(card["text"], "Lato", TEXT_SIZE, TEXT_BOX[2] * MM):
            text.textLine(line)
        canvas.drawText(text)

    def back_side(canvas, x, y, card):
        canvas.setFillColor(ink)
        canvas.rect(x, y, CARD_W, CARD_H, stroke=0, fill=1)
        canvas.setFillColor(tint)
        canvas.setFont("Lato-Black", 20)
        canvas.drawCentredString(x + CARD_W / 2, _middle(BACK_WORD, y, "Lato-Black", 20),
                                 data["backs"]["plain"]["name"])

    _sheets(canvas, data["cards"], data["title"], front, back_side)


def run_minimal(deck: Path, out: Path) -> None:
    """The Blófa card's shapes and texts at the same places, values from the deck file."""
    from reportlab.lib.colors import HexColor, white

    data = _read(deck)
    cards = []
    for entry in data["cards"]:
        for member in entry.get("cards", [entry]):
            card = {**{k: v for k, v in entry.items() if k != "cards"}, **member}
            cards.extend([card] * card.get("count", 1))
    backs = {name: {k: (HexColor(v) if str(v).startswith("#") else v) for k, v in b.items()}
             for name, b in data["backs"].items()}
    canvas = _canvas(out / "minimal.pdf")
    w, h = CARD_W, CARD_H

    def front(canvas, x, y, card):
        back = backs[card["back"]]
        canvas.setFillColor(white)
        canvas.rect(x, y, w, h, stroke=0, fill=1)
        canvas.setStrokeColor(back["colour"])
        canvas.setLineWidth(2)
        canvas.roundRect(x + 3 * MM, y + 3 * MM, 57.5 * MM, 82.9 * MM, 3 * MM, 1, 0)
        canvas.setFillColor(back["ink"])
        canvas.setFont("Lato-Black", 20)
        canvas.drawCentredString(x + 9.5 * MM, y + h - 12 * MM, str(card["value"]))
        canvas.saveState()
        canvas.translate(x + 54 * MM, y + 10 * MM)
        canvas.rotate(180)
        canvas.drawCentredString(0, -3 * MM, str(card["value"]))
        canvas.restoreState()
        canvas.setFillColor(back["tint"])
        canvas.ellipse(x + 11.75 * MM, y + 27.9 * MM, x + 51.75 * MM, y + 67.9 * MM, 0, 1)
        canvas.setFillColor(back["ink"])
        canvas.setFont("Lato-Black", 84)
        canvas.drawCentredString(x + w / 2, y + 37 * MM, str(card["value"]))
        canvas.setFont("Lato-Bold", 9)
        canvas.drawCentredString(x + w / 2, y + 22 * MM, back["label"])
        canvas.setFillColor(HexColor("#555555"))
        canvas.setFont("Lato", 7.5)
        canvas.drawCentredString(x + w / 2, y + 9 * MM, "0×3 1×5 2×4 3×3 4×2 5×1")

    def back_side(canvas, x, y, card):
        back = backs[card["back"]]
        canvas.setFillColor(back["tint"])
        canvas.rect(x, y, w, h, stroke=0, fill=1)
        canvas.setStrokeColor(back["colour"])
        canvas.setLineWidth(1.5)
        canvas.roundRect(x + 4 * MM, y + 4 * MM, 55.5 * MM, 80.9 * MM, 3 * MM, 1, 0)
        canvas.setFillColor(back["colour"])
        canvas.ellipse(x + 9.75 * MM, y + 22.45 * MM, x + 53.75 * MM, y + 66.45 * MM, 0, 1)
        canvas.setFillColor(white)
        canvas.setFont("Lato-Black", 26)
        canvas.drawCentredString(x + w / 2, y + 41 * MM, "Blófa")
        canvas.setFillColor(back["ink"])
        canvas.setFont("Lato-Bold", 10)
        canvas.drawCentredString(x + w / 2, y + 11 * MM, back["label"])

    _sheets(canvas, cards, data.get("title", "Blófa"), front, back_side)


PLAIN = {"plain-text": run_plain_text, "plain-cards": run_plain_cards, "minimal": run_minimal}

if __name__ == "__main__":  # a whole process, as bench.py times it against `cardkit build`
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    PLAIN[sys.argv[1]](Path(sys.argv[2]), Path(sys.argv[3]))
