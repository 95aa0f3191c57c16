"""A deck in the shape of issue 62's: what a designer's text-heavy game looks like. Every
card has a title, a number, a suit icon and a block of 30-60 words of its own, wrapped;
the backs are a colour and a word. Generated here (seeded), not shipped.

The same cards feed cardkit (a deck file and two layouts) and ``plain_cards.py``, a plain
reportlab script that draws the same pages.
"""

from __future__ import annotations

import random
from pathlib import Path

from text_deck import WORDS, deck_folder

SEED = 62
SUITS = {"heart": "#b3261e", "diamond": "#c25e00"}  # built-in icons, and their colours
INK, TINT = "#1f2a36", "#f4efe6"

# Where things go on a 63.5 x 88.9 mm card, in mm from its top-left corner.
TITLE_BOX = (5, 5, 40, 8)
NUMBER_BOX = (46, 4, 12.5, 10)
ICON_BOX = (24.25, 17, 15, 15)
TEXT_BOX = (5, 36, 53.5, 47)
TITLE_SIZE, NUMBER_SIZE, TEXT_SIZE, TEXT_LEADING = 12, 16, 9, 1.2


def deck_cards(count: int) -> list[dict]:
    """``count`` distinct cards: title, number, suit and a 30-60 word text (seeded)."""
    chance = random.Random(SEED)
    cards = []
    for i in range(count):
        words = [chance.choice(WORDS) for _ in range(chance.randint(30, 60))]
        title = " ".join(chance.choice(WORDS) for _ in range(2)).title()
        cards.append({"title": title, "number": i % 13 + 1, "suit": list(SUITS)[i % 2],
                      "text": " ".join(words).capitalize() + "."})
    return cards


def _box(box) -> str:
    return "[" + ", ".join(f"{v}mm" for v in box) + "]"


FRONT_LAYOUT = f"""\
elements:
  - name: paper
    kind: rect
    box: card
    bleed: true
    fill: "{TINT}"
  - name: title
    kind: text
    box: {_box(TITLE_BOX)}
    text: "{{title}}"
    font: Lato-Black
    size: {TITLE_SIZE}pt
    align: left
    colour: "{INK}"
  - name: number
    kind: text
    box: {_box(NUMBER_BOX)}
    text: "{{number}}"
    font: Lato-Black
    size: {NUMBER_SIZE}pt
    align: right
    colour: "{INK}"
  - name: suit
    kind: icon
    box: {_box(ICON_BOX)}
    icon: "{{suit}}"
    fill: "{{colour}}"
  - name: text
    kind: text
    box: {_box(TEXT_BOX)}
    text: "{{text}}"
    font: Lato
    size: {TEXT_SIZE}pt
    leading: {TEXT_LEADING}
    align: left
    valign: top
    colour: "{INK}"
"""

BACK_LAYOUT = f"""\
elements:
  - name: background
    kind: rect
    box: card
    bleed: true
    fill: "{INK}"
  - name: word
    kind: text
    box: [0mm, 39.45mm, 63.5mm, 10mm]
    text: "{{back.name}}"
    font: Lato-Black
    size: 20pt
    colour: "{TINT}"
"""


def write_deck(folder: Path, count: int) -> Path:
    """cardkit's deck file for ``deck_cards(count)``, with its layouts, in ``folder``."""
    deck = deck_folder(folder, f"cards-{count}", FRONT_LAYOUT, BACK_LAYOUT)
    lines = [f"name: cards-{count}", "title: Cards bench", "size: poker",
             "fields: {title: text, number: integer, suit: text, colour: text, text: text}",
             "backs:", "  plain:", "    layout: cards-back", "    name: Tales"]
    lines += ["cards:"]
    for card in deck_cards(count):
        lines.append(f"  - {{title: {card['title']}, number: {card['number']}, "
                     f"suit: {card['suit']}, colour: \"{SUITS[card['suit']]}\", "
                     f"back: plain, layout: cards-front, text: \"{card['text']}\"}}")
    path = deck / "deck.yaml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path
