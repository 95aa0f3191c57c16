"""The text-heavy benchmark deck (issue 14): every card distinct, with a background, a title,
a value on a disc and a paragraph of 30-60 words of its own, wrapped in a box.

The same cards feed cardkit (a deck file and two layouts), the plain reportlab script of
``bench.py`` and DeckSmith, so that all three draw the same thing.
"""

from __future__ import annotations

import random
from pathlib import Path

SEED = 14
WORDS = ("draw", "a", "card", "then", "discard", "one", "of", "your", "choice", "each",
         "player", "may", "trade", "gold", "for", "the", "market", "lantern", "river",
         "when", "this", "enters", "play", "gain", "two", "coins", "and", "look", "at",
         "top", "three", "cards", "deck", "put", "them", "back", "in", "any", "order",
         "opponent", "reveals", "their", "hand", "until", "end", "turn", "moves",
         "fortress", "harbour", "caravan", "merchant", "silver", "bridge", "wandering")
BACKS = {"sun": {"colour": "#b5562a", "tint": "#f6e6dc"},
         "moon": {"colour": "#2f5a7a", "tint": "#e2ecf3"}}

# Where things go on a 63.5 x 88.9 mm card, in mm from its top-left corner.
TITLE_BOX = (15, 5, 44, 9)
VALUE_BOX = (4, 4, 10, 10)
TEXT_BOX = (5, 40, 53.5, 44)
TEXT_SIZE = 9
TEXT_LEADING = 1.2


def text_cards(count: int) -> list[dict]:
    """``count`` distinct cards: name, value, back and a 30-60 word text (seeded)."""
    chance = random.Random(SEED)
    cards = []
    for i in range(count):
        words = [chance.choice(WORDS) for _ in range(chance.randint(30, 60))]
        words[0] = words[0].capitalize()
        text = " ".join(words) + "."
        cards.append({"name": f"Card {i + 1}", "value": i % 10, "back": list(BACKS)[i % 2],
                      "text": text})
    return cards


FRONT_LAYOUT = f"""\
elements:
  - name: background
    kind: rect
    box: card
    bleed: true
    fill: "{{back.tint}}"
  - name: disc
    kind: ellipse
    box: [{VALUE_BOX[0]}mm, {VALUE_BOX[1]}mm, {VALUE_BOX[2]}mm, {VALUE_BOX[3]}mm]
    fill: "{{back.colour}}"
  - name: value
    kind: text
    box: [{VALUE_BOX[0]}mm, {VALUE_BOX[1]}mm, {VALUE_BOX[2]}mm, {VALUE_BOX[3]}mm]
    text: "{{value}}"
    font: Lato-Black
    size: 14pt
    colour: white
  - name: title
    kind: text
    box: [{TITLE_BOX[0]}mm, {TITLE_BOX[1]}mm, {TITLE_BOX[2]}mm, {TITLE_BOX[3]}mm]
    text: "{{name}}"
    font: Lato-Black
    size: 13pt
    align: left
    colour: "{{back.colour}}"
  - name: text
    kind: text
    box: [{TEXT_BOX[0]}mm, {TEXT_BOX[1]}mm, {TEXT_BOX[2]}mm, {TEXT_BOX[3]}mm]
    text: "{{text}}"
    font: Lato
    size: {TEXT_SIZE}pt
    min_size: 6pt
    leading: {TEXT_LEADING}
    align: left
    valign: top
    colour: "#222222"
"""

BACK_LAYOUT = """\
elements:
  - name: background
    kind: rect
    box: card
    bleed: true
    fill: "{back.colour}"
  - name: word
    kind: text
    box: [0mm, 39.45mm, 63.5mm, 10mm]
    text: "{back.name}"
    font: Lato-Black
    size: 20pt
    colour: white
"""


def deck_folder(folder: Path, name: str, front: str, back: str) -> Path:
    """A new deck folder ``name`` ('text-1000') in ``folder``, with its two layouts
    ('text-front', 'text-back'), whose YAML is ``front`` and ``back``."""
    deck = folder / name
    (deck / "layouts").mkdir(parents=True)
    prefix = name.split("-")[0]
    (deck / "layouts" / f"{prefix}-front.yaml").write_text(front, encoding="utf-8")
    (deck / "layouts" / f"{prefix}-back.yaml").write_text(back, encoding="utf-8")
    return deck


def write_deck(folder: Path, count: int) -> Path:
    """cardkit's deck file for ``text_cards(count)``, with its layouts, in ``folder``."""
    deck = deck_folder(folder, f"text-{count}", FRONT_LAYOUT, BACK_LAYOUT)
    lines = [f"name: text-{count}", "title: Text bench", "size: poker",
             "fields: {name: text, value: integer, text: text}", "backs:"]
    for name, back in BACKS.items():
        lines += [f"  {name}:", "    layout: text-back", f"    name: {name}",
                  f'    colour: "{back["colour"]}"', f'    tint: "{back["tint"]}"']
    lines += ["cards:"]
    for card in text_cards(count):
        lines.append(f"  - {{name: {card['name']}, value: {card['value']}, "
                     f"back: {card['back']}, layout: text-front, text: \"{card['text']}\"}}")
    path = deck / "deck.yaml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path
