"""Rise Up as a playable game: random games keep every rule, hand-built situations give the
answers worked by hand, and a fixed-seed run pins the headline numbers."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardkit.deck.loader import load_deck
from cardkit.toolkit.state import IllegalMove, RandomBot
from cardkit.games.rise_up import (GAME, LOST_ACE, LOST_FIGHT, OUTSIDE, ROOMS, STANDARD_CARDS,
                                   WIN, DelverBot, cards_from_deck, is_ace, new_state, power)
from cardkit.rules import rise_up
from cardkit.rules.errors import RulesError
from cardkit.sources.bundled import bundled_decks
from conftest import play_out

MAX_MOVES = 1000  # far above the longest game seen (under 200 moves)


def play(seed, bot, check=None):
    """Play one game; ``check(state, move)`` runs before every move."""
    return play_out(new_state(1, random.Random(seed)), [bot], random.Random(seed + 1), check)


def places(state):
    """Every card where it lies: the pile, undealt aces, the grid, abilities, out of play."""
    return state.pile + state.aces + [c for room in state.rooms for c in room] + \
        state.abilities + state.out


def hidden(state):
    """The cards the player cannot see: face-down grid cards, the pile, undealt aces."""
    return {c for room in state.rooms for c in room if c not in state.face_up} | \
        set(state.pile) | set(state.aces)


def leaves(value):
    if isinstance(value, (tuple, list)):
        for item in value:
            yield from leaves(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from leaves(item)
    else:
        yield value


def situation(rooms, abilities, used=(), stage_ace="AS", stage=1, cards=STANDARD_CARDS):
    """A hand-built game: ``rooms`` maps (row, column) to its cards; every other card goes
    to the pile (aces: not dealt yet). The joker stands beside row 1."""
    state = new_state(1, random.Random(0), cards)
    placed = [c for cards in rooms.values() for c in cards] + list(abilities)
    state.rooms = [list(rooms.get(room, [])) for room in ROOMS]
    state.abilities, state.used, state.out = list(abilities), set(used), []
    state.stage, state.stage_ace = stage, stage_ace
    state.pile = [c for c in cards if c not in placed and not is_ace(c)]
    state.aces = [c for c in cards if c not in placed and is_ace(c)]
    return state


def play_moves(state, *moves):
    for move in moves:
        state.apply(move)
    return state


# -- properties over random games -------------------------------------------------------

@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from(["random", "heuristic"]))
def test_random_games_keep_every_rule(seed, bot_name):
    won = []

    def check(state, move):
        assert move in state.legal_moves()
        assert Counter(places(state)) == Counter(STANDARD_CARDS)  # each card once
        assert set(state.used) <= set(state.abilities) and set(state.invested) <= \
            set(state.abilities)
        assert state.joker == OUTSIDE or not state.rooms[state.joker]  # the joker's is empty
        if move == "fight":
            won.append(state.moves_made)

    state = play(seed, GAME.bots[bot_name](), check)
    assert Counter(places(state)) == Counter(STANDARD_CARDS)
    assert state.moves_made <= MAX_MOVES
    lost_fights = state.result == LOST_FIGHT
    assert state.scores() == [float(len(won) - lost_fights)]  # every fight but a lost one
    assert state.returns() == [1.0 if state.result == WIN else 0.0]
    figures = state.figures()
    assert figures["rooms_won"] == len(won) - lost_fights
    assert figures["end"] in (WIN, LOST_FIGHT, LOST_ACE)
    assert (figures["end"] == WIN) <= (figures["stage"] == 3)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32))
def test_the_observation_never_shows_a_hidden_card(seed):
    def check(state, move):
        assert not hidden(state) & set(leaves(state.observation(0)))
        obs = state.observation(0)
        assert obs["hidden_cards"] == len(hidden(state)) - len(state.aces)
        assert obs["hidden_strength"] == sum(map(power, hidden(state) - set(state.aces)))

    play(seed, DelverBot(), check)


def test_suit_powers_are_counted_by_suit():
    used = Counter()

    def check(state, move):
        if move[0] in ("heart", "diamond", "spade", "club"):
            used[move[0] + "s_used"] += 1

    for seed in range(30):
        used.clear()
        figures = play(seed, DelverBot(), check).figures()
        assert {k: figures[k] for k in used} == dict(used)


def test_a_fixed_seed_run_gives_the_same_headline_numbers():
    games = [play(seed, RandomBot()) for seed in range(200)]
    assert sum(g.returns()[0] for g in games) == 0
    assert sum(g.moves_made for g in games) == 2076
    assert Counter(g.result for g in games) == {LOST_FIGHT: 183, LOST_ACE: 17}
    heuristic = [play(seed, DelverBot()) for seed in range(100)]
    assert sum(g.returns()[0] for g in heuristic) == 20
    assert sum(g.moves_made for g in heuristic) == 5106
    assert sum(g.scores()[0] for g in heuristic) == 574
    assert Counter(g.stage for g in heuristic) == {1: 50, 2: 16, 3: 34}


# -- setup -------------------------------------------------------------------------------

def test_the_first_stage_deals_17_cards_and_an_ace_in_rows_of_1_2_3():
    state = new_state(1, random.Random(3))
    assert [len(room) for room in state.rooms] == [1, 1, 1, 2, 2, 2, 3, 3, 3]
    grid = [c for room in state.rooms for c in room]
    assert [c for c in grid if is_ace(c)] == [state.stage_ace]
    assert len(state.abilities) == 4 and sum(map(is_ace, state.abilities)) == 1
    assert len(state.pile) == 48 - 17 - 3 and len(state.aces) == 2
    assert not state.face_up and state.observation(0)["joker"] is None
    assert sorted(m for m in state.legal_moves() if m[0] == "room") == \
        [("room", (1, 1)), ("room", (1, 2)), ("room", (1, 3))]


def test_clearing_a_stage_deals_the_next_and_turns_abilities_back_but_not_aces():
    state = situation({(1, 1): ["AS"], (1, 2): ["9C"]}, ["KH", "5D", "AD"], used={"5D", "AD"})
    play_moves(state, ("room", (1, 1)), ("invest", "KH"), "fight")
    assert state.stage == 2 and state.rooms_won == 1
    assert [len(room) for room in state.rooms] == [2, 2, 2, 3, 3, 3, 4, 4, 4]
    assert state.abilities[:3] == ["5D", "AD", "AS"] and len(state.abilities) == 3 + 4
    assert state.used == {"AD"}  # the 5D is turned back, the once-a-game ace is not
    assert "KH" not in state.out  # shuffled back into the new stage's deck
    assert state.observation(0)["joker"] is None
    state = situation({(3, 3): ["AH"]}, ["2C"], stage=2, stage_ace="AH")
    state.joker = 0  # standing in (1, 1); every room but the ace's is empty
    assert [m for m in state.legal_moves() if m[0] == "room"] == [("room", (3, 3))]
    play_moves(state, ("room", (3, 3)), ("invest", "2C"), "fight")
    assert state.stage == 3 and [len(r) for r in state.rooms] == [3, 3, 3, 4, 4, 4, 5, 5, 5]
    assert len(state.abilities) == 1 + 5


def test_clearing_the_third_stage_wins():
    state = situation({(1, 2): ["7C", "AC", "2D"]}, ["KH"], stage=3, stage_ace="AC")
    play_moves(state, ("room", (1, 2)), ("invest", "KH"), "fight")
    assert state.is_over() and state.returns() == [1.0] and state.figures()["end"] == WIN


def test_a_short_deck_deals_the_last_rooms_short_then_fewer_abilities():
    names = cards_from_deck([{"rank": r, "suit": s} for r in ("A", "2", "3", "4", "5", "6")
                             for s in ("heart", "diamond", "spade", "club")]
                            + [{"rank": "Joker"}])
    state = new_state(1, random.Random(1), names)  # 20 cards and 4 aces: stage 1 fits
    assert len(state.abilities) == 4 and not state.pile and state.short_deals == 0
    state = situation({(1, 1): ["AS"]}, ["6H"], cards=names)
    play_moves(state, ("room", (1, 1)), ("invest", "6H"), "fight")
    # stage 2 wants 26 cards for the grid and 4 abilities; the deck has 20
    assert [len(room) for room in state.rooms] == [2, 2, 2, 3, 3, 3, 4, 2, 0]
    assert state.abilities == ["AS"] and state.figures()["short_deals"] == 1


# -- fights and the joker ----------------------------------------------------------------

def test_the_texts_five_of_hearts_counts_as_four_once_used():
    state = situation({(1, 1): ["4C"]}, ["5H"])
    play_moves(state, ("heart", "5H"), ("room", (1, 1)), ("invest", "5H"), "fight")
    assert not state.is_over() and "4C" in state.abilities and "5H" in state.out
    assert len(state.abilities) == 2  # the heart's draw and the room's card
    state = situation({(1, 1): ["5C"]}, ["5H"])
    play_moves(state, ("heart", "5H"), ("room", (1, 1)), ("invest", "5H"), "fight")
    assert state.result == LOST_FIGHT and state.returns() == [0.0]


def test_a_room_is_won_with_an_equal_investment_and_lost_one_short():
    for invested, result in (["8H"], ""), (["3H", "4D"], LOST_FIGHT):
        state = situation({(1, 3): ["3C", "5D"]}, ["8H", "3H", "4D"])
        play_moves(state, ("room", (1, 3)), *[("invest", c) for c in invested], "fight")
        assert state.result == result
        assert rise_up.fight([(rise_up.parse_card(c), False) for c in invested],
                             [rise_up.parse_card("3C"), rise_up.parse_card("5D")])["win"] \
            == (not result)


def test_investing_nothing_in_a_room_loses():
    state = play_moves(situation({(1, 1): ["2C"]}, ["9H"]), ("room", (1, 1)), "fight")
    assert state.result == LOST_FIGHT


def test_choosing_a_room_allows_only_investing_and_fighting():
    state = play_moves(situation({(1, 1): ["2C"]}, ["9H", "3D"]), ("room", (1, 1)))
    assert state.legal_moves() == [("invest", "9H"), ("invest", "3D"), "fight"]
    state.apply(("invest", "3D"))
    assert state.legal_moves() == [("invest", "9H"), "fight"]


def test_the_joker_moves_orthogonally_and_walks_through_emptied_rooms():
    state = situation({(1, 1): ["2C"], (1, 3): ["3C"], (2, 1): ["4C"], (2, 2): ["5C"],
                       (3, 3): ["AS"]}, ["KH", "QH"])
    # from beside row 1: its rooms, and (2, 2) through the empty (1, 2)
    assert [m[1] for m in state.legal_moves() if m[0] == "room"] == [(1, 1), (1, 3), (2, 2)]
    play_moves(state, ("room", (1, 1)), ("invest", "KH"), "fight")
    assert state.observation(0)["joker"] == (1, 1)
    assert [m[1] for m in state.legal_moves() if m[0] == "room"] == [(1, 3), (2, 1), (2, 2)]
    play_moves(state, ("room", (2, 1)), ("invest", "QH"), "fight")
    # the empty (3, 1) and (3, 2) open the way to (3, 3) at once; never diagonally
    assert [m[1] for m in state.legal_moves() if m[0] == "room"] == [(1, 3), (2, 2), (3, 3)]


# -- suit powers -------------------------------------------------------------------------

def test_diamonds_reveal_a_face_down_card():
    state = situation({(1, 1): ["2C"], (2, 2): ["9S", "AS"]}, ["5D"])
    assert ("diamond", "5D", (2, 2)) in state.legal_moves()
    play_moves(state, ("diamond", "5D", (2, 2)))
    assert state.face_up == {"9S"} and state.used == {"5D"}
    assert state.observation(0)["rooms"][4] == (("9S",), 1)
    assert ("diamond", "5D", (1, 1)) not in state.legal_moves()  # used once this stage


def test_spades_remove_a_card_and_removing_the_stages_ace_loses():
    state = situation({(1, 1): ["2C", "9S"]}, ["5S"])
    state.face_up.add("9S")
    assert {m for m in state.legal_moves() if m[0] == "spade"} == \
        {("spade", "5S", (1, 1), "9S"), ("spade", "5S", (1, 1), "?")}
    play_moves(state, ("spade", "5S", (1, 1), "9S"))
    assert state.rooms[0] == ["2C"] and "9S" in state.out and not state.is_over()
    state = situation({(1, 1): ["AS"], (2, 1): ["3C"]}, ["5S"])
    play_moves(state, ("spade", "5S", (1, 1), "?"))
    assert state.result == LOST_ACE and state.returns() == [0.0]


def test_clubs_move_a_card_to_any_room_but_the_jokers():
    state = situation({(1, 2): ["AS"], (2, 1): ["3C", "4D"]}, ["5C"])
    state.joker = 0  # in the emptied (1, 1)
    destinations = {m[4] for m in state.legal_moves() if m[0] == "club" and m[2] == (2, 1)}
    assert destinations == set(ROOMS) - {(1, 1), (2, 1)}
    play_moves(state, ("club", "5C", (2, 1), "?", (3, 3)))
    assert state.rooms[3] == ["4D"] and state.rooms[8] == ["3C"]


def test_hearts_draw_from_the_unused_pile_only_while_it_has_cards():
    state = situation({(1, 1): ["AS"]}, ["5H", "6H"])
    top = state.pile[-1]
    play_moves(state, ("heart", "5H"))
    assert state.abilities == ["5H", "6H", top] and state.figures()["hearts_used"] == 1
    state.pile.clear()
    assert ("heart", "6H") not in state.legal_moves()


# -- moves, players, decks ---------------------------------------------------------------

def test_an_illegal_move_raises():
    state = situation({(1, 1): ["AS"], (1, 2): ["2C"], (1, 3): ["4D"], (2, 1): ["3C"]}, ["5S"])
    for move in (("room", (2, 1)), ("invest", "5S"), "fight", ("spade", "5H", (1, 1), "?"),
                 ("room", [1, 1])):
        with pytest.raises(IllegalMove):
            state.apply(move)
    play_moves(state, ("spade", "5S", (1, 1), "?"))
    with pytest.raises(IllegalMove):
        state.apply(("room", (2, 1)))  # the game is over


def test_rise_up_is_for_one_player():
    with pytest.raises(RulesError):
        new_state(2, random.Random(0))
    assert GAME.players == (1,) and list(GAME.bots) == ["random", "heuristic", "search"]


def test_the_bundled_deck_gives_the_52_cards():
    deck = load_deck(bundled_decks()["rise-up"])
    cards = [{**card.fields, "back": card.back.name} for card in deck.copies()]
    assert sorted(cards_from_deck(cards)) == sorted(STANDARD_CARDS)


@pytest.mark.parametrize("cards, problem", [
    ([{"rank": "5", "suit": "heart"}] * 30 + [{"rank": "A", "suit": "club"}] * 4, "no joker"),
    ([{"rank": "5", "suit": "heart"}] * 30 + [{"rank": "Joker"}], "0 aces"),
    ([{"rank": "A", "suit": "club"}] * 4 + [{"rank": "Joker"}], "0 cards that are not aces"),
    ([{"rank": "11", "suit": "heart"}], "rank '11'"),
    ([{"suit": "heart"}], "rank ''"),
])
def test_an_unplayable_deck_is_refused(cards, problem):
    with pytest.raises(RulesError, match=problem):
        cards_from_deck(cards)


def test_a_deck_with_a_second_copy_plays():
    cards = [{"rank": str(r), "suit": s} for r in list(range(2, 11)) + ["J", "Q", "K", "A"]
             for s in ("heart", "diamond", "spade", "club")]
    names = cards_from_deck(cards + [{"rank": "K", "suit": "spade"}, {"rank": "Joker"}])
    assert names[names.index("KS") + 1] == "KS#2" and len(names) == 53 and power("KS#2") == 13
    state = new_state(1, random.Random(5), names)
    while not state.is_over():
        state.apply(DelverBot().choose(state.observation(0), state.legal_moves(),
                                       random.Random(0)))
    assert Counter(places(state)) == Counter(names)
