"""A designer's rules examples (issue 40, item 4): positions written in examples.yaml
beside the rules, with the moves the rules must offer and what a move leads to, run by
``--check`` first; and a game's ``invariants()``, run after every move under ``--check``.

The oracle is the starter's rules as its docstring states them, worked by hand: a turn
brings a coin, a card costs its cost, an event scores its cost and one more."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from cardkit.cli import main
from cardkit.starter import create_deck

EXAMPLES = """examples:
  - name: with no coin a seat can draw or pass, not play a card that costs three
    players: 2
    seat: 0
    piles:
      deck: [Scout, Knight]
      hand: [[Archer], [Guard]]
    public: {coins: [0, 0], points: [0, 0], round: 1}
    legal: [draw, pass]
  - name: an event scores its cost and one more
    piles: {deck: [Scout], hand: [[Truce], []]}
    public: {coins: [3, 0], points: [0, 0], round: 1}
    not legal: [play Scout]
    play: [play Truce]
    expect: {public: {points: [4, 0], coins: [1, 0]}, seat: 1, over: false}
"""


def _check(tmp_path: Path, examples: str | None, rules_change=None):
    folder = tmp_path / "duel"
    create_deck(folder, "duel")
    if examples is not None:
        (folder / "examples.yaml").write_text(examples)
    if rules_change:
        rules = folder / "rules.py"
        text = rules.read_text()
        assert rules_change[0] in text
        rules.write_text(text.replace(*rules_change))
    result = CliRunner().invoke(main, ["simulate", str(folder), "--check", "--games", "20"])
    return result.exit_code, result.output, folder / "examples.yaml"


def test_examples_that_hold_are_counted(tmp_path):
    code, out, path = _check(tmp_path, EXAMPLES)
    assert code == 0, out
    assert out.splitlines()[1] == f"  and the 2 examples in {path} hold"


@pytest.mark.parametrize("change, message", [
    (("points: [4, 0], coins", "points: [5, 0], coins"),
     "{path}:15:22: example 'an event scores its cost and one more': public is "
     "{{'points': [4, 0], 'coins': [1, 0]}}, not {{'points': [5, 0], 'coins': [1, 0]}}"),
    (("legal: [draw, pass]", "legal: [draw]"),
     "{path}:9:12: example 'with no coin a seat can draw or pass, not play a card that "
     "costs three': the rules offer 'draw', 'pass', not 'draw'"),
    (("not legal: [play Scout]", "not legal: [pass]"),
     "{path}:13:16: example 'an event scores its cost and one more': the rules offer "
     "'pass', which the example says is not legal"),
    (("play: [play Truce]", "play: [play Knight]"),
     "{path}:14:12: example 'an event scores its cost and one more': 'play Knight' is not "
     "a legal move here; the rules offer 'play Truce', 'draw', 'pass'"),
])
def test_an_example_that_does_not_hold_is_named_with_its_line(tmp_path, change, message):
    code, out, path = _check(tmp_path, EXAMPLES.replace(*change))
    assert code == 2
    assert out.splitlines()[0] == "cardkit: " + message.format(path=path) + \
        "; the rules or the example is wrong"


def test_a_rules_mistake_an_example_catches(tmp_path):
    """An event that forgets its bonus point passes every generic check; the example
    finds it."""
    code, out, path = _check(tmp_path, EXAMPLES, ("card.cost + 1", "card.cost"))
    assert code == 2 and "public is {'points': [3, 0], 'coins': [1, 0]}" in out
    code, out, _ = _check(tmp_path / "without", None, ("card.cost + 1", "card.cost"))
    assert code == 0, out


def test_an_example_that_cannot_be_read_says_where(tmp_path):
    code, out, path = _check(tmp_path, EXAMPLES.replace("[[Archer], [Guard]]",
                                                        "[[Archerr], [Guard]]"))
    assert code == 2
    assert out.splitlines()[0] == (f"{path}:7:13: pile 'hand': no card 'Archerr' is left in "
                                   "the deck; did you mean 'Archer'?")


def test_an_invariant_that_fails_is_named_with_the_game_and_its_line(tmp_path):
    """A hand of at most four cards, which drawing breaks: the check names invariants(),
    the game, and the line of the assert in the rules file."""
    change = ("    def scores(self):", "    def invariants(self):\n"
              "        assert all(len(hand) <= 4 for hand in self.hands), 'a hand of five'\n\n"
              "    def scores(self):")
    code, out, _ = _check(tmp_path, None, change)
    assert code == 2
    first = out.splitlines()[0]
    assert "invariants() raised AssertionError: a hand of five; fix the error" in first
    assert "rules.py\", line" in out and "assert all(len(hand) <= 4" in out
