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
from cardkit.starter import TEMPLATE, create_deck

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
    else:  # without the starter's own
        (folder / "examples.yaml").unlink()
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
     "{{'points': [4, 0], 'coins': [1, 0]}}, not {{'points': [5, 0], 'coins': [1, 0]}} "
     "(rules.py:{play}, play())"),
    (("legal: [draw, pass]", "legal: [draw]"),
     "{path}:9:12: example 'with no coin a seat can draw or pass, not play a card that "
     "costs three': the rules offer 'draw', 'pass', not 'draw' (rules.py:{moves}, moves())"),
    (("not legal: [play Scout]", "not legal: [pass]"),
     "{path}:13:16: example 'an event scores its cost and one more': the rules offer "
     "'pass', which the example says is not legal (rules.py:{moves}, moves())"),
    (("play: [play Truce]", "play: [play Knight]"),
     "{path}:14:12: example 'an event scores its cost and one more': 'play Knight' is not "
     "a legal move here; the rules offer 'play Truce', 'draw', 'pass' (rules.py:{moves}, "
     "moves())"),
])
def test_an_example_that_does_not_hold_is_named_with_its_line(tmp_path, change, message):
    code, out, path = _check(tmp_path, EXAMPLES.replace(*change))
    assert code == 2
    lines = (TEMPLATE / "rules.py").read_text(encoding="utf-8").splitlines()
    defined = {name: next(number for number, line in enumerate(lines, 1)
                          if line.strip().startswith(f"def {name}("))
               for name in ("moves", "play")}
    assert out.splitlines()[0] == "cardkit: " + message.format(path=path, **defined) + \
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


CAMPS = '''"""Each turn: draw, found a camp with a unit, add a unit to your latest camp, or break
your latest camp (its cards go to the discard pile). Eight rounds; a camp of two or more
units scores their strength."""

from cardkit.toolkit import OWNER, PUBLIC, CardGame


class Camps(CardGame):
    player_counts = (2,)
    fields = {"kind": ("unit", "event"), "strength": int}

    def setup(self):
        self.deck = self.pile("deck", cards=self.cards)
        self.deck.shuffle()
        self.hands = self.seat_piles("hand", OWNER)
        self.discard = self.pile("discard", PUBLIC)
        self.camps = self.seat_groups("camps", PUBLIC)
        self.deal(self.deck, self.hands, 3)
        self.public["round"] = 1

    def moves(self):
        units = [card for card in self.hands[self.seat] if card.kind == "unit"]
        camps = self.camps[self.seat]
        moves = [("found", card) for card in units]
        moves += [("add", card) for card in units if camps]
        moves += [("break",)] if camps else []
        return moves + ([("draw",)] if self.deck else [("pass",)])

    def play(self, move):
        hand, camps = self.hands[self.seat], self.camps[self.seat]
        if move[0] == "draw":
            self.deck.move_top(hand)
        elif move[0] == "found":
            hand.move(move[1], camps.new())
        elif move[0] == "add":
            hand.move(move[1], camps[-1])
        elif move[0] == "break":
            broken = camps[-1]
            broken.move_all(self.discard)
            camps.remove(broken)
        self.next_seat()
        if self.seat == 0:
            self.public["round"] += 1
            if self.public["round"] > 8:
                self.end()

    def scores(self):
        return [sum(card.strength for camp in camps if len(camp) > 1 for card in camp)
                for camps in self.camps]
'''

CAMP_EXAMPLES = """examples:
  - name: with no camp a seat may found one or draw
    piles: {deck: [Scout], hand: [[Guard, Rally], []]}
    legal: [found Guard, draw]
  - name: a camp of two units scores their strength; breaking it takes it away
    piles:
      deck: [Scout]
      hand: [[], [Archer]]
      camps: [[[Guard, Knight], [Scout]], []]
    play: [break, found Archer]
    expect: {scores: [8, 0], seat: 0}
"""


def _camps(tmp_path: Path, examples: str) -> tuple[int, str, Path]:
    folder = tmp_path / "camps"
    if not folder.exists():
        create_deck(folder, "camps")
    (folder / "rules.py").write_text(CAMPS)
    (folder / "examples.yaml").write_text(examples)
    result = CliRunner().invoke(main, ["simulate", str(folder), "--check", "--games", "20"])
    return result.exit_code, result.output, folder / "examples.yaml"


def test_groups_with_examples_check_and_an_example_places_groups(tmp_path):
    """Issue 56, item 2: --check of a game with groups stopped with an internal error as
    soon as an examples file was beside it. Oracle, by hand: Guard 3 + Knight 5 in a camp
    of two score 8, the lone Scout nothing; breaking the latest camp (the Scout's) leaves
    8; the Archer's new camp of one scores nothing."""
    code, out, path = _camps(tmp_path, CAMP_EXAMPLES)
    assert code == 0, out
    assert out.splitlines()[1] == f"  and the 2 examples in {path} hold"
    wrong = CAMP_EXAMPLES.replace("scores: [8, 0]", "scores: [9, 0]")
    code, out, path = _camps(tmp_path, wrong)
    assert code == 2
    assert out.splitlines()[0].startswith(f"cardkit: {path}:11:22:")
    assert "scores is [8, 0], not [9, 0] (rules.py:47, scores())" in out


def test_groups_written_as_a_flat_list_say_how_to_write_them(tmp_path):
    examples = CAMP_EXAMPLES.replace("camps: [[[Guard, Knight], [Scout]], []]",
                                     "camps: [[Guard, Knight], []]")
    code, out, path = _camps(tmp_path, examples)
    assert code == 2
    assert out.splitlines()[0] == (
        f"{path}:9:14: groups 'camps' is written as [['Guard', 'Knight'], []]; "
        "give one list for each of the 2 seats, each a list of groups, each a list of "
        "cards, top last ([[Scout, Guard], [Knight]])")


def test_the_passing_check_says_invariants_ran_and_which_examples_file_it_read(tmp_path):
    """Issue 56, item 6: the passing line says the game's own invariants() held (only
    where it writes one), and a run without examples names the file they would be read
    from: beside the rules (--rules FILE), not the deck."""
    change = ("    def scores(self):", "    def invariants(self):\n"
              "        assert all(len(hand) <= 12 for hand in self.hands)\n\n"
              "    def scores(self):")
    code, out, path = _check(tmp_path, None, change)
    assert code == 0, out
    assert out.splitlines()[1] == (f"  no rules examples: none in {path} (docs/own-game.md, "
                                   "'Rules examples')")
    assert out.splitlines()[2].endswith("; your invariants() held")
    code, out, _ = _check(tmp_path / "plain", EXAMPLES)
    assert "invariants" not in out


def test_a_designer_game_s_length_has_no_rounds_and_its_log_sets_groups_apart(tmp_path):
    """Issue 56, item 5: a trick-taking game of 3 rounds read '25.7 rounds' (turns over
    players, where the turn changes hands every card): a designer's game is not given
    rounds it does not count. --log writes a seat's groups as a list of lists, and sets
    the seats apart with '|' (both were '|')."""
    _camps(tmp_path, CAMP_EXAMPLES)
    folder = tmp_path / "camps"
    ran = CliRunner().invoke(main, ["simulate", str(folder), "--games", "20"])
    assert ran.exit_code == 0, ran.output
    length = next(line for line in ran.output.splitlines() if line.startswith("  length:"))
    assert length.startswith("  length: 16.0 turns on average") and "rounds" not in length
    logged = CliRunner().invoke(main, ["simulate", str(folder), "--log", "3"])
    camps = [line.split("camps ")[1].split(", round")[0] for line in logged.output.splitlines()
             if "camps [[" in line]
    assert camps, logged.output
    for shown in camps:  # seat 0's camps | seat 1's camps, each [[card, ...], ...] or []
        seats = shown.split(" | ")
        assert len(seats) == 2 and all(s == "[]" or s.startswith("[[") for s in seats), shown
