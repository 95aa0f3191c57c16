"""The rules checkers: bundled examples, outside test suites, property tests, commands."""

from __future__ import annotations

import json
import subprocess
import sys
from itertools import permutations
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from cardkit.bundled import bundled_decks
from cardkit.cli import main
from cardkit.deck import load_deck
from cardkit.rules import bullet, poker, ragusa
from cardkit.rules.examples import EXAMPLES_FILE, GAMES, check_deck, run_examples

DATA = Path(__file__).parent / "data"
DECK = [poker.Card(r, s) for r in poker.RANKS for s in poker.SUITS]
hands = st.lists(st.sampled_from(DECK), min_size=5, max_size=5, unique=True)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_bundled_example_holds(game):
    outcomes = run_examples(game, bundled_decks()[game].parent / EXAMPLES_FILE)
    assert len(outcomes) >= 15
    failing = [(o.name, o.expected, o.actual) for o in outcomes if not o.ok]
    assert not failing


@pytest.mark.parametrize("game", sorted(GAMES))
def test_each_bundled_deck_holds_the_cards_its_rules_assume(game):
    deck = load_deck(bundled_decks()[game])
    cards = [{**c.fields, "back": c.back.name} for c in deck.copies()]
    assert check_deck(game, cards) == []
    assert check_deck(game, cards[1:])  # one card short is noticed


def test_exercism_poker_cases():
    data = json.loads((DATA / "exercism_poker_canonical.json").read_text())
    replaced = {c.get("reimplements") for c in data["cases"]}
    active = [c for c in data["cases"] if c["uuid"] not in replaced]
    assert len(active) == 37
    for case in active:
        found = case["input"]["hands"]
        # some cases deal from several decks, so repeated cards are allowed here
        strengths = [poker.strength(poker.parse_hand(h, distinct=False)) for h in found]
        best = [h for h, s in zip(found, strengths) if s == max(strengths)]
        assert best == case["expected"], case["description"]


def test_project_euler_54_player_one_wins_376():
    wins = 0
    for line in (DATA / "p054_poker.txt").read_text().splitlines():
        words = line.split()
        first, second = poker.parse_hand(" ".join(words[:5])), poker.parse_hand(" ".join(words[5:]))
        wins += poker.strength(first) > poker.strength(second)
    assert wins == 376


def test_there_are_7462_distinct_poker_hands():
    assert len(poker.KEY_OF_STRENGTH) == 7462
    assert poker.describe(poker.parse_hand("AS KS QS JS 10S")) == "royal flush"
    assert poker.describe(poker.parse_hand("AS 2D 3C 4H 5S")) == "straight, 5 high"


def _sign(x):
    return (x > 0) - (x < 0)


@settings(max_examples=300, deadline=None)
@given(hands, hands)
def test_the_ranking_is_a_total_order_matching_the_rules(first, second):
    """Strengths are integers (a total order); they order hands as the rule keys do."""
    by_table = _sign(poker.strength(first) - poker.strength(second))
    key = lambda cards: poker.hand_key([c.rank for c in cards], len({c.suit for c in cards}) == 1)
    by_rules = _sign((key(first) > key(second)) - (key(first) < key(second)))
    assert by_table == by_rules


@settings(max_examples=200, deadline=None)
@given(hands, st.randoms())
def test_the_ranking_ignores_card_order(cards, random):
    shuffled = list(cards)
    random.shuffle(shuffled)
    assert poker.strength(shuffled) == poker.strength(cards)
    assert poker.describe(shuffled) == poker.describe(cards)


@settings(max_examples=300, deadline=None)
@given(hands, st.sampled_from("SHDC"))
def test_ragusa_with_every_foundation_at_2_is_standard_poker(cards, suit):
    twos = {s: poker.Card(2, s) for s in "SHDC"}
    assert ragusa.strength(cards, suit, twos) == poker.strength(cards)


@settings(max_examples=200, deadline=None)
@given(hands, st.integers(2, 14))
def test_ragusa_ranks_are_a_rotation(cards, foundation):
    """Rotating every rank by the same step keeps the multiset shape (pairs stay pairs)."""
    rotated = [ragusa.rotated_rank(c.rank, foundation) for c in cards]
    assert sorted(map(rotated.count, rotated)) == sorted(map([c.rank for c in cards].count,
                                                          [c.rank for c in cards]))
    assert all(2 <= r <= 14 for r in rotated)


bullet_hands = st.lists(st.integers(1, 7), min_size=5, max_size=5)


@settings(max_examples=300, deadline=None)
@given(bullet_hands, bullet_hands)
def test_bullet_ranking_is_a_total_order_that_ignores_order(first, second):
    encode = lambda values: [bullet.PRIMES[v] for v in values]
    a, b = bullet.score(*encode(first)), bullet.score(*encode(second))
    assert _sign(a - b) == _sign((bullet.hand_key(first) > bullet.hand_key(second))
                                 - (bullet.hand_key(first) < bullet.hand_key(second)))
    for order in list(permutations(first))[:10]:
        assert bullet.hand_key(list(order)) == bullet.hand_key(first)


def test_rules_never_import_reportlab():
    code = ("import sys, cardkit.rules.examples, cardkit.rules.quick; "
            "print(sorted(m for m in sys.modules if m.startswith('reportlab')))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    assert done.stdout.strip() == "[]"


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def test_check_prints_a_line_per_example_and_exits_0():
    result = run("check", "bullet")
    assert result.exit_code == 0, result.output
    assert "✓ full house, 6s over 5s, beats full house, 4s over 7s: full house, 6s over 5s, " \
        "beats full house, 4s over 7s" in result.output
    assert result.output.count("✓") == 22
    assert result.output.endswith("bullet: 22 of 22 examples hold; the bullet deck matches "
                                  "the rules\n")
    assert run("check", "--all").exit_code == 0


def test_a_wrong_expectation_exits_1_and_a_bad_example_exits_2(tmp_path):
    wrong = tmp_path / "wrong.yaml"
    wrong.write_text("examples:\n  - name: bad\n    compare: {hands: ['6 6 6 5 5', "
                     "'4 4 4 7 7']}\n    expect: {winner: 1}\n")
    result = run("check", "bullet", wrong)
    assert result.exit_code == 1
    assert "✗ bad: expected {'winner': 1}, got {'winner': 0}" in result.output
    broken = tmp_path / "broken.yaml"
    broken.write_text("examples:\n  - name: eight\n    hand: {cards: '8 8 8 5 5'}\n"
                      "    expect: {category: pair}\n")
    result = run("check", "bullet", broken)
    assert result.exit_code == 2
    assert f"{broken}:3:11: example 'eight': '8' is not a card value with 5 players; " \
        "values run 1-7" in result.output


@pytest.mark.parametrize("args,words", [
    (["bullet", "6 6 6 5 5", "4 4 4 7 7"], "hand 1 wins"),
    (["ragusa", "--foundations", "4H 7C 9D QS", "hearts: KC KD 5H 5S 9C",
      "spades: AS AD 2C 3C 8H"], "player 0 wins the pot"),
    (["rise-up", "--room", "7C 9D", "5H", "KS used"], "invested 17 against the room's 16"),
    (["blofa", "4", "--declared", "2"], "a lie: the challenger wins the clash"),
    (["shapes", "circle 1 clear", "triangle 2 striped", "square 3 solid"], "6 points"),
])
def test_score_answers(args, words):
    result = run("score", *args)
    assert result.exit_code == 0, result.output
    assert words in result.output


@pytest.mark.parametrize("args,words", [
    (["bullet", "6 6 6 5 9"], "'9' is not a card value with 5 players"),
    (["bullet", "--players", "2", "5 5 1 1 2"], "'5' is not a card value with 2 players"),
    (["ragusa", "--foundations", "4H 7C 9D QS", "hearts: KC KC 5H 5S 9C"], "KC twice"),
    (["ragusa", "--foundations", "4H 7C 9D QS", "hearts: 4H KC 5H 5S 9C"],
     "4H is both a foundation"),
    (["ragusa", "--foundations", "4H 7C 9D QS"] + [f"{s}: {h}" for s, h in [
        ("hearts", "2C 3C 5C 6C 8C"), ("spades", "2D 3D 5D 6D 8D"),
        ("clubs", "2S 3S 5S 6S 8S"), ("diamonds", "2H 3H 5H 6H 8H"),
        ("hearts", "10C 10D 10S 10H JC")]], "Ragusa is for 2-4 players, not 5"),
    (["blofa", "7", "--declared", "2"], "7 is not a Blófa card"),
    (["shapes", "circle 1 clear", "hexagon 2 striped", "square 3 solid"], "'hexagon'"),
])
def test_impossible_input_is_a_clear_error(args, words):
    result = run("score", *args)
    assert result.exit_code == 2
    assert words in result.output
    assert "Traceback" not in result.output
