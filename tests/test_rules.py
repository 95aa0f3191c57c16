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

from cardkit.cli import main
from cardkit.deck.loader import load_deck
from cardkit.rules import blofa, bullet, poker, ragusa, rise_up, shapes
from cardkit.rules.errors import RulesError
from cardkit.rules.examples import EXAMPLES_FILE, GAMES, check_deck, run_examples
from cardkit.sources.bundled import bundled_decks

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


# -- situations that cannot happen: one check a game, used by `score` and the examples ----

def refused(call, *args, **kwargs) -> str:
    """The RulesError message of a call that must refuse its situation."""
    with pytest.raises(RulesError) as caught:
        call(*args, **kwargs)
    return str(caught.value)


def score_error(*args) -> str:
    """The error line of a `cardkit score` that must exit 2."""
    result = run("score", *args)
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    return result.output.strip()


def test_rise_up_refuses_a_card_named_twice():
    assert score_error("rise-up", "--room", "5H", "5H") == \
        "cardkit: '5H' is named twice; each card of the deck exists once"
    assert score_error("rise-up", "--room", "7C 9D 7C", "KS") == \
        "cardkit: '7C' is named twice; each card of the deck exists once"
    assert score_error("rise-up", "--room", "AH AD", "KS") == \
        "cardkit: the room holds 2 aces (AH, AD); only the stage's ace is dealt into the " \
        "grid, so a room has one ace at most"
    assert refused(rise_up.removal_loses, rise_up.parse_card("KD"), rise_up.parse_card("KD")) \
        == "the stage's ace 'KD' is not an ace; name an ace: AS, AH, AD or AC"


def test_shapes_refuses_more_copies_than_the_deck_holds():
    assert score_error("shapes", *["circle 1 clear left"] * 3) == \
        "cardkit: 'circle 1 clear left' is named 3 times; the deck has each front once with " \
        "each back (left, right, blank; a card without a back is the blank one): give the " \
        "copies different backs"
    assert "'circle 1 clear blank' is named twice" in score_error(
        "shapes", "circle 1 clear", "circle 1 clear blank", "circle 1 clear left")
    # one front three times, once with each back, is three real cards
    assert run("score", "shapes", "circle 1 clear left", "circle 1 clear right",
               "circle 1 clear").exit_code == 0
    # across triplets too: a card locked in twice
    twice = [shapes.parse_card(c) for c in ("circle 1 clear", "circle 2 clear", "circle 3 clear")]
    assert refused(shapes.check_situation, [twice, twice]).startswith(
        "'circle 1 clear blank' is named twice;")


def test_shapes_seat_counts():
    cards = ["circle 1 clear", "circle 2 clear", "circle 3 clear"]
    assert score_error("shapes", *cards, "--players", "10") == \
        "cardkit: the game is for 2-9 players, not 10; each player gets one of the 9 rule " \
        "cards; give 2-9 players"
    assert score_error("shapes", *cards, "--players", "0").startswith(
        "cardkit: the game is for 2-9 players, not 0;")
    assert score_error("shapes", *cards, "--players", "3", "--owner", "3") == \
        "cardkit: seat 3 is not at a table of 3; seats are 0-2"


def test_blofa_refuses_cards_and_declarations_that_cannot_be():
    assert score_error("blofa", "5", "5", "--declared", "10") == \
        "cardkit: 5 is played twice, but the deck has one 5; the 18 cards are three 0s, " \
        "five 1s, four 2s, three 3s, two 4s, one 5"
    for declared in ("0", "-2"):
        assert score_error("blofa", "4", "--declared", declared) == \
            f"cardkit: a declared sum of {declared} cannot happen; a trick opens with a " \
            "declaration of 1 or 2 and each next one is higher"
    assert score_error("blofa", "4", "--declared", "37") == \
        "cardkit: a declared sum of 37 cannot happen; a trick has at most 18 plays, each " \
        "declaring 1 or 2 more than the last, so declarations stop at 36"
    assert run("score", "blofa", "4", "--declared", "36").exit_code == 0
    assert score_error("blofa", "٣", "--declared", "3") == \
        "cardkit: '٣' is not a card value; write values 0-5"
    assert refused(blofa.declarations_legal, list(range(1, 20))).startswith(
        "19 declarations in one trick cannot happen;")


def test_bullet_counts_values_across_all_hands_and_seats():
    assert score_error("bullet", "1 1 1 1 1", "1 1 1 1 2") == \
        "cardkit: the hands hold nine 1s together; the deck has eight of each value " \
        "(4 suits x 2 copies)"
    assert run("score", "bullet", "1 1 1 1 1", "1 1 1 2 2").exit_code == 0  # eight 1s
    assert score_error("bullet", "--players", "2", "1 1 2 2 3", "1 2 3 4 4", "3 3 4 4 1") == \
        "cardkit: 3 hands with 2 players; each player holds one hand: give at most 2 hands, " \
        "or more players"
    assert score_error("bullet", "--players", "0", "1 1 2 2 3") == \
        "cardkit: Bluff the Bullet is for 2-5 players, not 0; choose 2, 3, 4 or 5 players"
    assert refused(bullet.example_start, {"face_up": ["1 1 1", "1 1 1", "1 1 1"],
                                          "dealer": 0}).startswith(
        "the hands hold nine 1s together;")


def test_shapes_refuses_a_property_given_twice():
    assert score_error("shapes", "circle triangle 1 clear", "circle 2 clear",
                       "circle 3 clear") == \
        "cardkit: 'circle triangle 1 clear' names two shapes, 'circle' and 'triangle'; a " \
        "card has one shape, one number, one fill and at most one back"
    assert refused(shapes.parse_card, "circle 1 clear left right") == \
        "'circle 1 clear left right' names two backs, 'left' and 'right'; a card has one " \
        "shape, one number, one fill and at most one back"
    assert refused(shapes.parse_card, "2 circle 1 clear").startswith(
        "'2 circle 1 clear' names two numbers, '2' and '1';")
    assert refused(shapes.parse_card, "solid circle 1 clear").startswith(
        "'solid circle 1 clear' names two fills, 'solid' and 'clear';")


FOUNDATION_FIX = "Foundation Cards stay on the table all round: choose another card"


@pytest.mark.parametrize("kind, situation", [
    ("hand", {"cards": "KC KD 2S 7C 9H", "suit": "clubs", "foundations": "4H 7C 9D QS"}),
    ("value", {"card": "7C", "suit": "hearts", "foundations": "4H 7C 9D QS"}),
    ("showdown", {"foundations": "4H 7C 9D QS", "players": [
        {"suit": "hearts", "shown": "3C 3D 8S 9C 10D"}, {"suit": "spades",
                                                          "shown": "KC KD 7C 6C 8D"}]}),
])
def test_ragusa_examples_of_every_kind_refuse_a_foundation_card_in_a_hand(kind, situation):
    seat = 1 if kind == "showdown" else 0
    assert refused(ragusa.EXAMPLES[kind], situation) == \
        f"7C is both a foundation card on the table and player {seat}'s; {FOUNDATION_FIX}"


def test_ragusa_example_files_and_score_refuse_a_foundation_card(tmp_path):
    path = tmp_path / "examples.yaml"
    path.write_text("examples:\n  - name: kings\n    hand: {cards: 'KC KD 2S 7C 9H', suit: "
                    "clubs, foundations: '4H 7C 9D QS'}\n    expect: {category: pair}\n")
    result = run("check", "ragusa", path)
    assert result.exit_code == 2
    assert f"{path}:3:11: example 'kings': 7C is both a foundation card on the table and " \
        f"player 0's; {FOUNDATION_FIX}" in result.output
    assert score_error("ragusa", "--foundations", "4H 7C 9D QS", "clubs: KC KD 2S 7C 9H") == \
        f"cardkit: 7C is both a foundation card on the table and player 0's; {FOUNDATION_FIX}"
    assert score_error("ragusa", "--foundations", "4H 7C 9D QS", "clubs: KC KD 2S 7H 9H",
                       "hearts: KC 3D 4S 5S 6S") == \
        "cardkit: KC is both player 0's and player 1's; one deck holds each card once"


def test_shapes_final_scores_for_a_player_with_an_objective_and_no_triplets():
    left = [shapes.parse_card(f"circle {n} clear left") for n in (1, 2, 3)]
    outcome = shapes.final_scores([{"objective": "1+ triplets", "points": 3},
                                   {"triplets": [left], "objective": "1+ triplets",
                                    "points": 2}])
    assert outcome == {"scores": [4, 2], "winners": [0]}
    assert shapes.example_table({"players": [{"objective": "1+ triplets", "points": 3},
                                             {}]})[0] == {"scores": [0, 0], "winners": [0, 1]}


# -- property tests: the deck's real composition is accepted, one copy more is refused ---

def _bullet_deck(players: int) -> list[int]:
    return [v for v in bullet.values_in_play(players) for _ in range(bullet.PER_VALUE)]


@st.composite
def bullet_tables(draw):
    """2-5 players and 1 hand a player or fewer, dealt from the real deck."""
    players = draw(st.integers(2, 5))
    count = draw(st.integers(1, players))
    dealt = draw(st.permutations(_bullet_deck(players)))[:5 * count]
    return players, [dealt[i:i + 5] for i in range(0, len(dealt), 5)]


@settings(max_examples=200, deadline=None)
@given(bullet_tables())
def test_bullet_hands_dealt_from_the_deck_are_always_accepted(table):
    players, hands = table
    bullet.check_situation(hands, players)


@settings(max_examples=200, deadline=None)
@given(st.integers(2, 5), st.data())
def test_bullet_one_copy_more_than_the_deck_holds_is_always_refused(players, data):
    value = data.draw(st.sampled_from(list(bullet.values_in_play(players))))
    count = data.draw(st.integers(2, players))  # nine cards need two hands at least
    others = [v for v in _bullet_deck(players) if v != value]
    rest = data.draw(st.permutations(others))[:5 * count - bullet.PER_VALUE - 1]
    dealt = data.draw(st.permutations([value] * (bullet.PER_VALUE + 1) + rest))
    hands = [dealt[i:i + 5] for i in range(0, len(dealt), 5)]
    assert refused(bullet.check_situation, hands, players) == \
        f"the hands hold nine {value}s together; the deck has eight of each value " \
        "(4 suits x 2 copies)"


room_and_abilities = st.lists(st.sampled_from(DECK), min_size=2, max_size=12, unique=True)


@settings(max_examples=200, deadline=None)
@given(room_and_abilities, st.data())
def test_rise_up_a_card_named_twice_is_always_refused(cards, data):
    split = data.draw(st.integers(1, len(cards) - 1))
    invested = [(card, data.draw(st.booleans())) for card in cards[:split]]
    room = [card for card in cards[split:] if card.rank != 14]  # one ace a room at most
    rise_up.check_situation(invested, room)  # distinct cards: accepted
    twice = data.draw(st.sampled_from(cards[:split] + room))
    where = data.draw(st.sampled_from(["room", "abilities"]))
    if where == "room" and twice.rank != 14:
        room = room + [twice]
    else:
        invested = invested + [(twice, False)]
    assert refused(rise_up.check_situation, invested, room) == \
        f"'{twice}' is named twice; each card of the deck exists once"


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(DECK), min_size=10, max_size=10, unique=True), st.data())
def test_ragusa_a_card_in_two_hands_or_a_hand_and_the_table_is_always_refused(cards, data):
    table = {s: poker.Card(2, s) for s in "SHDC"}
    cards = [c for c in cards if c.rank != 2] or [poker.Card(3, "S")]
    players = [{"suit": "H", "shown": cards[:len(cards) // 2]},
               {"suit": "S", "shown": cards[len(cards) // 2:]}]
    ragusa.check_situation(players, table)
    extra = data.draw(st.sampled_from(cards + list(table.values())))
    seat = data.draw(st.integers(0, 1))
    players[seat]["shown"].append(extra)
    message = refused(ragusa.check_situation, players, table)
    if extra in table.values():
        assert message == f"{extra} is both a foundation card on the table and player " \
            f"{seat}'s; {FOUNDATION_FIX}"
    elif extra in players[1 - seat]["shown"]:
        assert message == f"{extra} is both player 0's and player 1's; one deck holds each " \
            "card once"
    else:
        assert message == f"{extra} is named twice in player {seat}'s cards; one deck " \
            "holds each card once"


SHAPE_CARDS = [shapes.Card(s, n, f, b) for s in shapes.PROPERTIES["shape"]
               for n in shapes.PROPERTIES["number"] for f in shapes.PROPERTIES["fill"]
               for b in shapes.BACKS]


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 9), st.data())
def test_shapes_distinct_cards_are_accepted_and_a_repeated_one_refused(count, data):
    dealt = data.draw(st.permutations(SHAPE_CARDS))[:3 * count]
    triplets = [dealt[i:i + 3] for i in range(0, len(dealt), 3)]
    shapes.check_situation(triplets)
    twice = data.draw(st.sampled_from(dealt))
    triplets[-1] = triplets[-1][:2] + [twice] if triplets[-1][2] != twice else \
        [twice] + triplets[-1][1:]
    message = refused(shapes.check_situation, triplets)
    assert message.startswith(
        f"'{twice.shape} {twice.number} {twice.fill} {twice.back}' is named twice;")
