"""Work a build does once for many cards rather than once a card (issues 61 and 62): the
same properties for cards that fill an element's templates alike, and one value for each
short plain scalar a deck file repeats. Speed is measured by the bench; these check that
the sharing happens and that it changes no value."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

from reportlab.pdfgen.canvas import Canvas
from test_contrast import text_deck

from cardkit.deck.loader import load_deck
from cardkit.render import card as card_module
from cardkit.render.card import BACK, FRONT, CardRenderer, Report
from cardkit.sources.yamlfile import parse_yaml

DECKS = Path(__file__).resolve().parent.parent / "decks"


def test_cards_filling_an_element_alike_share_its_properties():
    deck = load_deck(DECKS / "blofa" / "deck.yaml")
    made: dict = {}  # (layout, element, its filled templates) -> the dicts it gave
    for card in deck.cards:
        values = card.values()
        for layout in (card.front, card.back.layout):
            for element in layout.elements:
                if element.kind == "text" or not element.templates:
                    continue
                filled = tuple(sorted((key, values[text[1:-1]])  # '{back.tint}' and such
                                      for key, text in element.templates.items()))
                made.setdefault((layout.name, element.name, filled), []).append(
                    element.resolve(values, layout.styles, layout.assets))
    shared = [props for props in made.values() if len(props) > 1 and props[0]["show"]]
    assert shared, "blofa's cards fill shapes alike"
    for props in shared:
        assert all(p is props[0] for p in props)  # one dict, not a copy a card
    # a text a card's fields fill stays the card's own
    renderer = CardRenderer(Report())
    texts = [item.props for card in deck.cards for item in renderer.resolve(card, FRONT)
             if "text" in item.element.templates]
    assert len(texts) >= len(deck.cards)
    assert len({id(props) for props in texts}) == len(texts)


def test_repeated_plain_scalars_are_one_value():
    data = parse_yaml("cards:\n  - {kind: heart, value: 3, text: 'a b'}\n"
                      "  - {kind: heart, value: 3, text: 'a b'}\n")
    first, second = data["cards"]
    assert first == second == {"kind": "heart", "value": 3, "text": "a b"}
    assert first["kind"] is second["kind"]  # unquoted: built once
    assert first.at("kind") != second.at("kind")  # each keeps its own place


def test_a_shape_s_ink_is_judged_once_for_each_dict_of_its_properties(tmp_path, monkeypatch):
    """The bench deck's cards alternate two backs, whose colours fill each front's
    background and disc and each back's background: each of those shapes is judged to
    stay inside the card once for each back's properties, not on every card; a text,
    set anew on each card, is judged on each."""
    judged = []
    inside = card_module.inside
    monkeypatch.setattr(card_module, "inside", lambda item, *args: judged.append(
        item.element.name) or inside(item, *args))
    deck = load_deck(text_deck(tmp_path, 40))
    renderer, canvas = CardRenderer(Report()), Canvas(io.BytesIO())
    width, height = deck.size.width, deck.size.height
    for number, card in enumerate(deck.cards):  # on the slots of a page of 3 x 3
        x, y = 20 + number % 3 * (width + 10), 20 + number // 3 % 3 * (height + 10)
        renderer.draw(canvas, card, FRONT, x, y, width, height)
        renderer.draw(canvas, card, BACK, x, y, width, height)
    assert {name: judged.count(name) for name in set(judged)} == \
        {"background": 2 + 2, "disc": 2, "value": 40, "title": 40, "text": 40, "word": 40}


def test_the_command_line_collects_young_objects_rarely_from_its_start():
    """Importing the command line sets Python's cycle collector to pass over the young
    every 50,000 new objects, before click and the command's modules are imported."""
    code = "import gc, cardkit.cli; print(gc.get_threshold()[0])"
    shown = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           check=True)
    assert shown.stdout.split() == ["50000"]
