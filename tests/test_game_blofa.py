"""Blófa Cards as a game: the deal, every move's rule, the ends and scores, hidden cards,
and a fixed-seed run whose headline numbers must not drift."""

from __future__ import annotations

import copy
import functools
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardkit.deck.loader import load_deck
from cardkit.toolkit.state import IllegalMove, RandomBot
from cardkit.games.blofa import (END_CAPTURED, END_DRY, END_NO_CARD, GAME, BlofaState,
                                 BluffBot, cards_from_deck, new_state, truth_chance)
from cardkit.rules import blofa as rules
from cardkit.rules.errors import RulesError
from cardkit.sources.bundled import bundled_decks
from conftest import play_out

MAX_TRICKS = 16  # 3 captures, each after at most 3 dry tricks, then 4 dry tricks
MAX_MOVES = MAX_TRICKS * (18 + 18 + 2)  # per trick: plays and passes (18 cards), challenge, keep


def situation(hands, piles=([], []), seed=0):
    return BlofaState(hands, [list(p) for p in piles], random.Random(seed))


def where_cards_are(state):
    """Every card in the game: hands, piles, the trick, captured rule cards."""
    cards = Counter(state.laid + [0] * len(state.captured_by))
    for place in state.hands + state.piles:
        cards.update(place)
    return cards


def play_game(seed, bots, check=None):
    return play_out(new_state(4, random.Random(seed)), bots, random.Random(seed + 1), check)


# -- the deal ----------------------------------------------------------------------------

def test_the_deal_gives_two_of_each_colour_and_leaves_one_in_each_pile():
    state = new_state(4, random.Random(3))
    assert [len(hand) for hand in state.hands] == [4, 4, 4, 4]
    assert [sorted(c % 2 for c in hand) for hand in state.hands] == [[0, 0, 1, 1]] * 4
    assert [len(pile) for pile in state.piles] == [1, 1]
    assert state.piles[0][0] % 2 == 0 and state.piles[1][0] % 2 == 1
    assert where_cards_are(state) == Counter(rules.DISTRIBUTION)
    assert state.current_player() == 0 and state.dealer == 0  # seat 0 is the youngest


def test_only_four_players():
    assert GAME.players == (4,)
    with pytest.raises(RulesError):
        new_state(3, random.Random(1))


def test_the_dealer_opens_with_a_play_declared_1_or_2():
    state = situation([[4, 2, 1, 1], [], [], []])
    assert state.legal_moves() == [
        ("play", (1,), 1), ("play", (1,), 2), ("play", (2,), 1), ("play", (2,), 2),
        ("play", (4,), 1), ("play", (4,), 2), ("play", (1, 1), 1), ("play", (1, 1), 2),
        ("play", (1, 2), 1), ("play", (1, 2), 2), ("play", (1, 4), 1), ("play", (1, 4), 2),
        ("play", (2, 1), 1), ("play", (2, 1), 2), ("play", (2, 4), 1), ("play", (2, 4), 2),
        ("play", (4, 1), 1), ("play", (4, 1), 2), ("play", (4, 2), 1), ("play", (4, 2), 2)]


# -- the text's examples -----------------------------------------------------------------

def test_a_4_declared_as_2_is_legal_and_a_challenge_catches_it():
    state = situation([[4, 1], [3, 1], [2], [5]], piles=([0], [1]))
    state.apply(("play", (4,), 2))
    assert state.current_player() == 1
    state.apply("challenge")
    assert state.vp == [-1, 1, 0, 0]
    assert (state.challenges, state.challenges_right, state.revealed) == (1, 1, (4,))
    assert state.current_player() == 1 and state.legal_moves() == [("keep", 4)]


def test_after_a_declaration_of_2_the_next_declares_3_or_4():
    state = situation([[2], [1, 3], [], []], piles=([0], [1]))
    state.apply(("play", (2,), 2))
    declared = {move[2] for move in state.legal_moves() if move[0] == "play"}
    assert declared == {3, 4}
    assert ("play", (1, 3), 3) in state.legal_moves()  # a lie, and legal


# -- passing -----------------------------------------------------------------------------

def test_the_first_passer_picks_a_pile_the_next_must_take_the_other():
    state = situation([[1], [], [], []], piles=([2, 4], [3]))
    state.apply(("play", (1,), 1))
    assert state.legal_moves() == [("pass", "blue"), ("pass", "yellow"), "challenge"]
    state.apply(("pass", "blue"))
    assert state.hands[1] == [4]
    assert ("pass", "yellow") in state.legal_moves()
    assert ("pass", "blue") not in state.legal_moves()
    state.apply(("pass", "yellow"))
    assert state.legal_moves() == [("pass", "blue"), "challenge"]


def test_a_pass_is_not_a_move_when_its_pile_is_empty():
    state = situation([[1], [], [], []], piles=([2], []))
    state.apply(("play", (1,), 1))
    state.apply(("pass", "blue"))
    assert state.legal_moves() == ["challenge"]  # yellow is empty, seat 2 holds nothing


def test_the_pile_rule_runs_across_plays_in_the_trick():
    state = situation([[1], [2], [2], []], piles=([0, 4], [1, 3]))
    state.apply(("play", (1,), 1))
    state.apply(("pass", "yellow"))
    state.apply(("play", (2,), 3))
    assert ("pass", "yellow") not in state.legal_moves()
    assert ("pass", "blue") in state.legal_moves()


def test_three_passes_in_a_row_give_the_declarer_the_trick_and_1_vp():
    state = situation([[1, 3], [0], [], []], piles=([2, 4], [3, 5]))
    state.apply(("play", (3,), 1))
    state.apply(("play", (0,), 3))  # seat 1 declares; the count of passes starts again
    state.apply(("pass", "blue"))
    state.apply(("pass", "yellow"))
    assert state.winner is None
    state.apply(("pass", "blue"))
    assert state.vp == [0, 1, 0, 0] and state.winner == 1 and state.tricks == 1
    assert state.legal_moves() == [("keep", 0), ("keep", 3)]


# -- challenges and the end of a trick ---------------------------------------------------

def test_a_true_declaration_wins_the_clash_for_the_declarer():
    state = situation([[1, 1], [2], [], []], piles=([0], [1]))
    state.apply(("play", (1, 1), 2))
    state.apply("challenge")
    assert state.vp == [1, -1, 0, 0] and state.winner == 0
    assert (state.challenges, state.challenges_right) == (1, 0)


def test_the_winner_keeps_one_of_the_last_three_cards_in_laying_order():
    state = situation([[1, 3], [4, 0], [2, 5], []], piles=([], []))
    state.apply(("play", (1, 3), 2))
    state.apply(("play", (4, 0), 3))
    state.apply(("play", (2, 5), 5))  # laid: 1 3 4 0 2 5; the last three are 0 2 5
    state.apply("challenge")  # 2 + 5 = 7, not 5: seat 3 wins
    assert state.legal_moves() == [("keep", 0), ("keep", 2), ("keep", 5)]
    assert state.observation(3)["keep_from"] == (0, 2, 5)
    assert state.observation(0)["keep_from"] == ()
    state.apply(("keep", 5))
    assert state.hands[3] == [5] and state.captured_by == []
    assert sorted(state.piles[0]) == [0, 2, 4] and sorted(state.piles[1]) == [1, 3]
    assert state.current_player() == 3 and state.dealer == 3 and state.dry == 1


def test_keeping_a_rule_card_captures_it():
    state = situation([[0, 2], [1], [], [3]], piles=([4], [5]))
    state.apply(("play", (0, 2), 2))
    state.apply("challenge")
    state.apply(("keep", 0))
    assert state.captured_by == [0] and state.hands[0] == [] and 0 not in state.piles[0]
    assert state.end == END_NO_CARD  # seat 0 deals next and has no card: the game ends


# -- the end -----------------------------------------------------------------------------

def test_the_game_ends_when_every_rule_card_is_captured():
    state = situation([[0, 2], [1], [3], [3]], piles=([4], [5]))
    state.captured_by = [1, 2]
    state.apply(("play", (0,), 1))
    state.apply("challenge")
    state.apply(("keep", 0))
    assert state.end == END_CAPTURED and state.is_over() and state.legal_moves() == []
    # seat 1 captured twice (+6 each, +4 across to seat 3, +2 on its right to seat 0),
    # seat 2 once (+6, +4 to seat 0, +2 to seat 1); the clash: seat 1 +1, seat 0 -1
    assert state.final() == {"scores": [-1 + 2 + 4 + 2, 1 + 6 + 2 + 6, 6, 4 + 4],
                             "eliminated": [], "winner": 1}
    assert state.returns() == [0.0, 1.0, 0.0, 0.0]
    with pytest.raises(IllegalMove):
        state.apply(("play", (2,), 1))


def test_the_game_ends_after_four_tricks_in_a_row_without_a_capture():
    state = situation([[1, 2], [0], [3], [3]], piles=([4], [5]))
    state.dry = 3
    state.apply(("play", (1,), 1))
    state.apply("challenge")
    state.apply(("keep", 1))
    assert state.end == END_DRY
    # seat 1 still holds a rule card and is out; seat 0 leads with 1 VP
    assert state.final() == {"scores": [1, -1, 0, 0], "eliminated": [1], "winner": 0}
    assert state.figures() == {"captures": 0, "eliminations": 1, "tricks": 1,
                               "challenges": 1, "challenges_right": 0, "end": END_DRY}


def test_a_tie_for_the_best_score_means_nobody_wins():
    state = situation([[1, 2], [4], [3], [3]], piles=([4], [5]))
    state.dry, state.vp = 3, [0, 2, 0, 0]
    state.apply(("play", (1,), 1))
    state.apply("challenge")  # seat 0 +1, seat 1 -1: both at 1
    state.apply(("keep", 1))
    assert state.scores() == [1.0, 1.0, 0.0, 0.0] and state.returns() == [0.0] * 4


# -- illegal moves and hidden cards ------------------------------------------------------

@pytest.mark.parametrize("move", [
    ("play", (5,), 1),  # not in the hand
    ("play", (1,), 3),  # an opening declares 1 or 2
    ("play", (1, 1), 2),  # only one 1
    ("play", (1, 2, 3), 2),  # at most two cards
    ("pass", "blue"), "challenge", ("keep", 1), "pass", ["play", (1,), 1]])
def test_an_illegal_move_raises(move):
    state = situation([[1, 2, 3], [], [], []], piles=([0], [1]))
    with pytest.raises(IllegalMove):
        state.apply(move)
    assert state.moves_made == 0 and state.hands[0] == [1, 2, 3]


def shuffle_hidden(state, seat, rng):
    """The same state with every card ``seat`` cannot see swapped at random for another
    card of its colour: other hands, the piles, the others' cards in the trick."""
    other = copy.deepcopy(state)
    places = [hand for s, hand in enumerate(other.hands) if s != seat] + other.piles
    plays = [list(cards) if who != seat else None for who, cards, _ in other.plays]
    places += [cards for cards in plays if cards is not None]
    for parity in (0, 1):
        slots = [(place, i) for place in places for i, card in enumerate(place)
                 if card % 2 == parity]
        values = [place[i] for place, i in slots]
        rng.shuffle(values)
        for (place, i), value in zip(slots, values):
            place[i] = value
    other.plays = [(who, tuple(cards) if new is None else tuple(new), declared)
                   for (who, cards, declared), new in zip(other.plays, plays)]
    other.laid = [card for _, cards, _ in other.plays for card in cards]
    return other


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32))
def test_an_observation_does_not_depend_on_cards_the_seat_cannot_see(seed):
    rng = random.Random(seed)

    def check(state, move):
        seat = rng.randrange(4)
        if state.winner is None:
            assert shuffle_hidden(state, seat, rng).observation(seat) == state.observation(seat)

    play_game(seed, [RandomBot(), BluffBot(), RandomBot(), BluffBot()], check)


def test_an_observation_shows_backs_not_values():
    state = situation([[0, 1], [2, 3, 5], [], []], piles=([4], [1]))
    state.apply(("play", (0, 1), 1))
    seen = state.observation(1)
    assert seen["hand"] == (2, 3, 5) and seen["mine"] == ()
    assert seen["backs"] == ((0, 0), (1, 2), (0, 0), (0, 0))
    assert seen["plays"] == ((0, ("blue", "yellow"), 1),)
    assert state.observation(0)["mine"] == (0, 1)


# -- whole games -------------------------------------------------------------------------

BOTS = {"random": [RandomBot()] * 4, "heuristic": [BluffBot()] * 4,
        "mixed": [BluffBot(bluff_rate=0.9), RandomBot(), BluffBot(call_threshold=0.4),
                  BluffBot(pass_preference=0.9)]}


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from(sorted(BOTS)))
def test_whole_games_keep_every_rule(seed, bots):
    deck = Counter(rules.DISTRIBUTION)

    def check(state, move):
        assert where_cards_are(state) == deck
        assert sum(state.vp) == state.tricks - state.challenges  # a clash adds up to 0
        assert rules.declarations_legal([declared for _, _, declared in state.plays])[0]
        assert state.moves_made <= MAX_MOVES

    state = play_game(seed, BOTS[bots], check)
    assert where_cards_are(state) == deck
    assert state.tricks <= MAX_TRICKS
    holding = [seat for seat, hand in enumerate(state.hands) for card in hand if card == 0]
    by_hand = list(state.vp)
    for seat in state.captured_by:
        by_hand[seat] += 6
        by_hand[(seat + 2) % 4] += 4
        by_hand[(seat - 1) % 4] += 2
    assert state.scores() == by_hand
    alive = [seat for seat in range(4) if seat not in holding]
    best = max((by_hand[s] for s in alive), default=None)
    leaders = [s for s in alive if by_hand[s] == best]
    assert state.returns() == [float(len(leaders) == 1 and s == leaders[0]) for s in range(4)]
    figures = state.figures()
    assert figures["captures"] == len(state.captured_by)
    assert figures["eliminations"] == len(set(holding))
    if len(state.captured_by) == 3:
        assert figures["end"] == END_CAPTURED
    elif state.dry == 4:
        assert figures["end"] == END_DRY
    else:
        assert figures["end"] == END_NO_CARD and not state.hands[state.dealer]


def test_two_hundred_random_games_give_the_same_numbers():
    wins, length, ends = [0] * 5, 0, Counter()
    for seed in range(200):
        state = play_game(seed, BOTS["random"])
        returns = state.returns()
        wins[returns.index(1.0) if 1.0 in returns else 4] += 1
        length += state.moves_made
        ends[state.end] += 1
    assert (wins, length) == ([56, 47, 40, 31, 26], 5342)
    assert ends == {END_DRY: 149, END_NO_CARD: 50, END_CAPTURED: 1}


def test_the_heuristic_bot_beats_random_bots():
    won = sum(play_game(seed, [BluffBot()] + [RandomBot()] * 3).returns()[0]
              for seed in range(100))
    assert won >= 70


def test_truth_chance_reads_the_backs():
    seen = {"deck": rules.DISTRIBUTION, "hand": (0, 1, 2, 3), "mine": (), "captured_by": (),
            "plays": ((0, ("yellow", "yellow"), 5),)}
    assert truth_chance(seen) == 0  # two odd cards make an even sum
    seen["plays"] = ((0, ("blue", "yellow"), 9),)  # only 4 + 5: 2 of 7 unseen blues, 1 of 7
    assert truth_chance(seen) == pytest.approx(2 / 7 * 1 / 7)


# -- a designer's deck -------------------------------------------------------------------

@functools.cache
def bundled_cards() -> tuple:
    deck = load_deck(bundled_decks()["blofa"])
    return tuple({**card.fields, "back": card.back.name} for card in deck.copies())


def printed_cards():
    return [dict(card) for card in bundled_cards()]


def test_the_bundled_deck_is_the_standard_composition():
    assert cards_from_deck(printed_cards()) == rules.DISTRIBUTION


def test_a_changed_count_changes_the_game():
    cards = printed_cards() + [{"value": 0, "back": "blue", "title": "", "text": ""}] * 2
    composition = cards_from_deck(cards)
    state = new_state(4, random.Random(2), composition)
    assert state.rule_cards == 5 and [len(p) for p in state.piles] == [3, 1]
    bots, rng = BOTS["heuristic"], random.Random(9)
    while not state.is_over():
        seat = state.current_player()
        state.apply(bots[seat].choose(state.observation(seat), state.legal_moves(), rng))
    assert where_cards_are(state) == Counter(composition)


@pytest.mark.parametrize("change, message", [
    (lambda cards: [{k: v for k, v in c.items() if k != "value"} for c in cards],
     "it has no value"),
    (lambda cards: [{**c, "value": "two"} if c["value"] == 2 else c for c in cards],
     "its value 'two' is not a whole number"),
    (lambda cards: [{**c, "back": "blue"} if c["value"] == 5 else c for c in cards],
     "a 5 has a 'blue' back"),
    (lambda cards: [c for c in cards if c["value"] != 3], "the deck has 6 yellow cards"),
    (lambda cards: [{**c, "value": 4} if c["value"] == 0 else c for c in cards],
     "the deck has no rule card"),
])
def test_a_deck_that_cannot_be_played_is_refused(change, message):
    with pytest.raises(RulesError, match=message):
        cards_from_deck(change(printed_cards()))
