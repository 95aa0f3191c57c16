"""What a designer might write by hand instead of using cardkit: plain reportlab scripts
that read the same deck file with the same YAML parser (libyaml, as cardkit does), register
the same Lato fonts (embedded as subsets) and draw the same pages: 3x3 poker cards on A4,
centred, crop marks, a footer, each page of fronts followed by its mirrored backs. They
check nothing.
"""

from __future__ import annotations

from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
MM = 72 / 25.4
CARD_W, CARD_H = 63.5 * MM, 88.9 * MM
PAGE_W, PAGE_H = 210 * MM, 297 * MM
LEFT, TOP = (PAGE_W - 3 * CARD_W) / 2, (PAGE_H + 3 * CARD_H) / 2
FACES = {"Lato": "Lato-Regular.ttf", "Lato-Bold": "Lato-Bold.ttf",
         "Lato-Black": "Lato-Black.ttf"}


def _read(deck: Path) -> dict:
    return yaml.load(deck.read_text(encoding="utf-8"), Loader=yaml.CSafeLoader)


def _canvas(out: Path):
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont
    from reportlab.pdfgen.canvas import Canvas

    from cardkit.assets.fonts import FONT_DIR

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


def run_plain_text(deck: Path, out: Path) -> None:
    """The text-heavy deck of ``text_deck.py``: a background, a value on a disc, a title
    and a paragraph wrapped greedily with reportlab's string widths, a line at a time."""
    from reportlab.lib.colors import HexColor, white
    from reportlab.pdfbase.pdfmetrics import getAscentDescent, stringWidth

    from text_deck import TEXT_BOX, TEXT_LEADING, TEXT_SIZE, TITLE_BOX, VALUE_BOX

    data = _read(deck)
    backs = {name: {"colour": HexColor(b["colour"]), "tint": HexColor(b["tint"]),
                    "name": b["name"]} for name, b in data["backs"].items()}
    canvas = _canvas(out / "plain-text.pdf")

    def middle(box, x, y, font, size):
        """The baseline that centres a line of ``font`` in ``box`` (mm from the top)."""
        ascent, descent = getAscentDescent(font, size)
        return y + CARD_H - (box[1] + box[3] / 2) * MM - (ascent + descent) / 2

    def wrap(text, width):
        lines, line = [], ""
        for word in text.split():
            longer = f"{line} {word}" if line else word
            if line and stringWidth(longer, "Lato", TEXT_SIZE) > width:
                lines.append(line)
                longer = word
            line = longer
        return lines + [line]

    def front(canvas, x, y, card):
        back = backs[card["back"]]
        canvas.setFillColor(back["tint"])
        canvas.rect(x, y, CARD_W, CARD_H, stroke=0, fill=1)
        vx, vy, vw, vh = (v * MM for v in VALUE_BOX)
        canvas.setFillColor(back["colour"])
        canvas.ellipse(x + vx, y + CARD_H - vy - vh, x + vx + vw, y + CARD_H - vy, 0, 1)
        canvas.setFillColor(white)
        canvas.setFont("Lato-Black", 14)
        canvas.drawCentredString(x + vx + vw / 2, middle(VALUE_BOX, x, y, "Lato-Black", 14),
                                 str(card["value"]))
        canvas.setFillColor(back["colour"])
        canvas.setFont("Lato-Black", 13)
        canvas.drawString(x + TITLE_BOX[0] * MM, middle(TITLE_BOX, x, y, "Lato-Black", 13),
                          card["name"])
        canvas.setFillColor(HexColor("#222222"))
        text = canvas.beginText()
        text.setFont("Lato", TEXT_SIZE, TEXT_SIZE * TEXT_LEADING)
        ascent = getAscentDescent("Lato", TEXT_SIZE)[0]
        text.setTextOrigin(x + TEXT_BOX[0] * MM, y + CARD_H - TEXT_BOX[1] * MM - ascent)
        for line in wrap(card["text"], TEXT_BOX[2] * MM):
            text.textLine(line)
        canvas.drawText(text)

    def back_side(canvas, x, y, card):
        back = backs[card["back"]]
        canvas.setFillColor(back["colour"])
        canvas.rect(x, y, CARD_W, CARD_H, stroke=0, fill=1)
        canvas.setFillColor(white)
        canvas.setFont("Lato-Black", 20)
        canvas.drawCentredString(x + CARD_W / 2, middle((0, 39.45, 63.5, 10), x, y,
                                                        "Lato-Black", 20), back["name"])

    cards = [card for card in data["cards"] for _ in range(card.get("count", 1))]
    _sheets(canvas, cards, data["title"], front, back_side)


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
