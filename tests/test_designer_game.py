"""A designer's game on the toolkit (issue 40): card fields read at attribute speed, groups
of cards made during play, identical copies offered once, and the messages a designer
meets (player counts, private values leaking, a game that does not end)."""

from __future__ import annotations

import inspect
import pickle
from pathlib import Path

from click.testing import CliRunner

from cardkit.cli import main
from cardkit.starter import create_deck
from cardkit.toolkit import Card


def test_a_card_field_is_a_plain_attribute_and_still_cannot_be_changed():
    scout = Card(0, {"name": "Scout", "cost": 1, "flavor text": "eager", "title": "x"},
                 back="unit")
    # a slot of the card's class: read without a call to __getattr__ (683,000 calls in
    # 100 games of the game)
    assert type(inspect.getattr_static(scout, "cost")).__name__ == "member_descriptor"
    assert (scout.cost, scout["flavor text"], scout.title, scout.back) == (1, "eager", "Scout",
                                                                            "unit")
    assert isinstance(scout, Card) and scout == Card(0, {"cost": 2}) and scout != Card(1, {})
    for change in (lambda: setattr(scout, "cost", 5), lambda: delattr(scout, "cost")):
        try:
            change()
            raise AssertionError("a card was changed")
        except AttributeError as refused:
            assert "cannot be changed" in str(refused)
    again = pickle.loads(pickle.dumps(scout))
    assert (again.cost, again.fields, again.look) == (1, scout.fields, scout.look)
