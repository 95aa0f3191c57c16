"""Work a build does once for many cards rather than once a card (issues 61 and 62): the
same properties for cards that fill an element's templates alike, and one value for each
short plain scalar a deck file repeats. Speed is measured by the bench; these check that
the sharing happens and that it changes no value."""

from __future__ import annotations

from pathlib import Path

from cardkit.deck.loader import load_deck
from cardkit.render.card import FRONT, CardRenderer, Report
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
