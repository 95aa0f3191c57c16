"""Bluff the Bullet as a game: the deck and deal, every move's rule, bluffs, bullets, Fin,
the showdown, hidden cards, and a fixed-seed run whose headline numbers must not drift."""

from __future__ import annotations

import copy
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardkit.deck.loader import load_deck
from cardkit.toolkit.state import IllegalMove, RandomBot
from cardkit.games.bullet import (FIN, GAME, STANDARD, BulletState, CardSharpBot, card,
                                  cards_from_deck, new_state, plays)
from cardkit.rules import bullet as rules
from cardkit.rules.errors import RulesError
from cardkit.sources.bundled import bundled_decks
from conftest import play_out

# by hand: the seven categories by the shape of the counts, high card 0 ... five of a kind 6
CATEGORY = {(1, 1, 1, 1, 1): 0, (2, 1, 1, 1): 1, (2, 2, 1): 2, (3, 1, 1): 3, (3, 2): 4,
            (4, 1): 5, (5,): 6}


def showdown_key(values):
    counts = Counter(values)
    order = sorted(counts, key=lambda v: (counts[v], v), reverse=True)
    return CATEGORY[tuple(sorted(counts.values(), reverse=True))], order


def move_bound(state) -> int:
    """Every turn draws at least one card, so there are at most as many turns as cards;
    a turn is one play, at most 1 + 2 x players cards each answered by the others, and
    one penalty."""
    n = state.players
    return len(state.cards) * (1 + (1 + 2 * n) * (n - 1) + 1)


def where_cards_are(state) -> Counter:
    """Every card id: deck, hands, Action Cards, discards, the chain while unsettled (once
    settled its cards are discarded or in a hand), Fin once drawn."""
    ids = Counter(state.deck + state.discard)
    for place in state.hands + state.action:
        ids.update(place)
    if state.asking:
        ids.update(c for _, c, _, _ in state.chain)
    if state.fin_drawn:
        ids[state.fin] += 1
    return ids


def play_game(players, seed, bots, check=None):
    state = play_out(new_state(players, random.Random(seed)), bots, random.Random(seed + 1),
                     check)
    if check:
        check(state)
    return state


def cards(text: str) -> list:
    """'crow 1, cup 2' -> [('crow', 1), ('cup', 2)]."""
    return [card(name.strip()) for name in text.split(",")]


def table(*hands: str, action=(), deck="cup 1, Fin, cup 2", seed=0) -> BulletState:
    """A hand-built game: Poker Hands (face-up cards first), Action Cards, the deck top
    first."""
    return BulletState([cards(h) for h in hands],
                       [cards(a) if a else [] for a in action] or [[] for _ in hands],
                       cards(deck), random.Random(seed))


# -- the deck and the deal ---------------------------------------------------------------

@pytest.mark.parametrize("players, top", [(2, 4), (3, 5), (4, 6), (5, 7)])
def test_the_values_in_play_make_the_deck(players, top):
    state = new_state(players, random.Random(players))
    numbers = [c for c in state.cards if c != FIN]
    assert len(numbers) == 8 * top and state.cards.count(FIN) == 1
    assert Counter(v for _, v in numbers) == {v: 8 for v in range(1, top + 1)}
    assert Counter(s for s, _ in numbers) == {s: 2 * top for s in rules.SUITS}


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_deal_and_fin_in_the_bottom_eleven(players):
    for seed in range(40):
        state = new_state(players, random.Random(seed))
        assert [len(h) for h in state.hands] == [5] * players
        assert [sum(c is not None for c in shown) for shown in state.shown] == [3] * players
        start = state.turn
        assert [len(a) for a in state.action] == [2 if s == start else 1
                                                 for s in range(players)]
        assert state.fin in state.deck[:11]  # the deck's bottom is the list's start
        assert where_cards_are(state) == Counter(range(len(state.cards)))


def test_the_best_face_up_cards_start_and_ties_go_to_the_dealers_left():
    rest = "cup 1, cup 2"
    # the rule examples: 7 7 2 / 3 3 3 / 6 5 4 -> seat 1; 5 5 1 / 2 3 4 / 5 5 1 with the
    # last seat dealing -> seat 0, the first clockwise from the dealer's left
    assert table(f"crow 7, cup 7, key 2, {rest}", f"crow 3, cup 3, key 3, {rest}",
                 f"crow 6, cup 5, key 4, {rest}").current_player() == 1
    assert table(f"crow 5, cup 5, key 1, {rest}", f"crow 2, cup 3, key 4, {rest}",
                 f"key 5, bullet 5, bullet 1, {rest}").current_player() == 0
    assert table(f"crow 2, cup 3, key 4, {rest}", f"crow 5, cup 5, key 1, {rest}",
                 f"key 5, bullet 5, bullet 1, {rest}").current_player() == 1


def test_the_starting_player_draws_to_two():
    state = table("crow 4, cup 4, key 4, crow 1, cup 2", "key 1, key 2, key 3, cup 3, crow 3",
                  action=["crow 2", "bullet 1"], deck="cup 1, Fin, cup 2")
    assert state.action_labels(0) == ["crow 2", "cup 1"] and state.action_labels(1) == \
        ["bullet 1"]


# -- turns, abilities, bluffs and bullets worked by hand ---------------------------------

def two_player_table(deck="cup 3, bullet 4, crow 2, Fin, key 4"):
    """Seat 0 starts (three 4s face up) holding crow 3 and then cup 3; seat 1 holds
    bullet 1."""
    return table("crow 4, cup 4, key 4, crow 1, cup 2", "key 1, key 2, key 3, bullet 3, bullet 2",
                 action=["crow 3", "bullet 1"], deck=deck)


def test_a_turn_offers_crow_cup_and_key_with_each_card_never_a_bullet():
    state = two_player_table()
    moves = state.legal_moves()
    assert len(moves) == 2 * (10 + 25 + 1)  # two cards: 10 crows, 25 swaps, 1 look
    assert {m[2] for m in moves} == {"crow", "cup", "key"}
    assert ("play", "cup 3", "cup", (0, 3), (1, 0)) in moves
    assert ("play", "crow 3", "cup", (0, 3), (0, 4)) not in moves  # within one hand
    assert ("play", "crow 3", "key", 0) not in moves  # one's own hand
    same = table("crow 4, cup 4, key 4, crow 1, cup 2", "key 1, key 2, key 3, bullet 3, cup 1",
                 action=["crow 3", "bullet 1"], deck="crow 3, Fin, cup 2")
    assert len(same.legal_moves()) == 36  # two crow 3s: one set of plays


def test_an_unanswered_crow_puts_the_played_card_face_up_in_place_of_the_target():
    state = two_player_table()
    state.apply(("play", "crow 3", "crow", (1, 0)))
    assert state.current_player() == 1
    assert state.legal_moves() == ["pass", "call", ("bullet", "bullet 1")]
    state.apply("pass")
    assert state.hands_values()[1] == [3, 2, 3, 3, 2]
    assert state.observation(0)["hands"][1][0] == ("crow", 3)  # face up for everyone
    assert state.observation(0)["discard"] == (("key", 1),)
    assert state.current_player() == 1 and state.action_labels(1) == ["bullet 1", "bullet 4"]


def test_a_bullet_on_a_bullet_lets_the_first_card_work():
    state = two_player_table()
    state.apply(("play", "crow 3", "crow", (1, 0)))
    state.apply("pass")
    state.apply(("play", "bullet 1", "key", 0))  # seat 1 bluffs a look
    assert state.legal_moves() == ["pass", "call", ("bullet", "cup 3")]
    state.apply(("bullet", "cup 3"))  # seat 0 bluffs a bullet
    assert state.current_player() == 1  # the bullet's answer: the card under it is shut
    state.apply(("bullet", "bullet 4"))  # seat 1 shoots the bullet
    assert state.legal_moves() == ["pass", "call"]  # seat 0 holds nothing
    assert state.observation(1)["hands"][0][3] is None
    state.apply("pass")
    assert state.observation(1)["hands"][0][3:] == (("crow", 1), ("cup", 2))  # the look
    assert state.is_over() and state.fin_drawn == "turn draw"  # seat 0 drew crow 2, Fin
    assert state.returns() == [0.0, 1.0] and state.scores() == [3.0, 4.0]
    assert state.figures() == {"winning_hand": "full house", "bluffs": 2,
                               "bluffs_succeeded": 1, "calls": 0, "calls_right": 0,
                               "bullets": 2, "fin_on_penalty": 0}


def test_a_bullet_cancels_and_a_wrong_call_on_it_costs_the_caller():
    state = two_player_table(deck="cup 3, bullet 4, crow 2, key 2, Fin, key 4")
    state.apply(("play", "crow 3", "crow", (1, 0)))
    state.apply(("bullet", "bullet 1"))
    state.apply("call")  # seat 0 calls the bullet: it is one
    assert state.hands_values()[1] == [1, 2, 3, 3, 2]  # the crow was cancelled
    assert state.penalty == (0, 1) and state.current_player() == 1
    assert state.legal_moves() == [("discard", 0, slot) for slot in range(5)]
    state.apply(("discard", 0, 1))  # seat 1 takes a 4; the top card comes face down
    assert state.hands_values()[0] == [4, 4, 4, 1, 2] and state.shown[0][1] is None
    assert state.observation(1)["hands"][0][1] is None
    assert state.observation(0)["hands"][0][1] == ("bullet", 4)
    assert state.figures()["calls"] == 1 and state.figures()["calls_right"] == 0


def test_the_rules_caught_bluff_example():
    """Stated crow, played cup by seat 0, called by seat 1: no effect, and seat 1 picks
    the card seat 0 discards."""
    state = table("crow 6, cup 6, key 6, crow 1, cup 2",
                  "key 1, key 2, key 3, bullet 3, cup 1",
                  "crow 2, crow 3, crow 5, key 5, bullet 5",
                  "cup 3, cup 4, key 4, bullet 1, bullet 2",
                  action=["cup 5", "bullet 6", "", ""], deck="key 6, crow 4, Fin, cup 2")
    state.apply(("play", "cup 5", "crow", (1, 0)))
    state.apply("call")
    assert state.hands_values()[1] == [1, 2, 3, 3, 1]
    assert (state.penalty, state.current_player()) == ((0, 1), 1)
    state.apply(("discard", 0, 0))
    assert state.hands_values()[0] == [4, 6, 6, 1, 2] and state.shown[0][0] is None
    assert state.record[0] == (1, 1) and state.turn == 1


def test_the_rules_wrong_call_example():
    """Stated key, played key by seat 2, called by seat 3: it works, and seat 2 picks the
    card seat 3 discards."""
    state = table("crow 2, cup 2, key 1, crow 1, cup 2",
                  "key 1, key 2, key 3, bullet 3, cup 1",
                  "crow 6, cup 6, key 6, key 5, bullet 5",
                  "cup 3, cup 4, key 4, bullet 1, bullet 2",
                  action=["", "", "key 6", ""], deck="crow 5, crow 4, Fin, cup 2")
    assert state.current_player() == 2
    state.apply(("play", "key 6", "key", 0))
    assert state.current_player() == 3  # the answers start at the player's left
    state.apply("call")
    assert state.observation(2)["hands"][0][3:] == (("crow", 1), ("cup", 2))
    assert (state.penalty, state.current_player()) == ((3, 2), 2)
    state.apply(("discard", 3, 4))
    assert state.hands_values()[3] == [3, 4, 4, 1, 4]


def test_the_rules_fin_as_replacement_example():
    """Stated bullet, played cup by seat 1, called by seat 0: the crow under it works,
    seat 1 discards, Fin comes up as the replacement, the next card replaces it and the
    game ends."""
    state = table("crow 4, cup 4, key 4, crow 1, cup 2", "key 1, key 2, key 3, bullet 3, bullet 2",
                  action=["crow 3", "cup 1"], deck="cup 3, Fin, key 4, crow 2")
    state.apply(("play", "crow 3", "crow", (1, 0)))
    state.apply(("bullet", "cup 1"))
    state.apply("call")
    assert state.hands_values()[1] == [3, 2, 3, 3, 2]  # the crow worked
    assert (state.penalty, state.current_player()) == ((1, 0), 0)
    state.apply(("discard", 1, 0))
    assert state.is_over() and state.fin_drawn == "penalty draw"
    assert state.hands_values()[1] == [4, 2, 3, 3, 2]  # key 4 took the place of Fin
    assert state.figures() == {"winning_hand": "three of a kind", "bluffs": 1,
                               "bluffs_succeeded": 0, "calls": 1, "calls_right": 1,
                               "bullets": 1, "fin_on_penalty": 1}
    assert state.legal_moves() == [] and state.returns() == [1.0, 0.0]


def test_fin_last_in_the_deck_as_a_replacement_shuffles_the_discards():
    state = two_player_table(deck="cup 3, Fin")
    state.apply(("play", "crow 3", "crow", (1, 0)))
    state.apply(("bullet", "bullet 1"))
    state.apply("call")
    state.apply(("discard", 0, 4))
    assert state.is_over() and where_cards_are(state) == Counter(range(len(state.cards)))
    assert state.shown[0][4] is None


def test_a_cup_swaps_two_cards_that_keep_their_faces():
    state = two_player_table()
    state.apply(("play", "cup 3", "cup", (0, 4), (1, 0)))  # face-down cup 2 for key 1
    state.apply("pass")
    assert state.hands_values() == [[4, 4, 4, 1, 1], [2, 2, 3, 3, 2]]
    assert state.shown[0][4] == ("key", 1) and state.shown[1][0] is None
    assert state.observation(1)["hands"][1][0] == ("cup", 2)  # its new owner sees it
    assert state.observation(0)["hands"][1][0] == ("cup", 2)  # its old owner knows it


def test_a_look_shows_the_face_down_cards_to_the_looker_only():
    state = table("crow 4, cup 4, key 4, crow 1, cup 2", "key 1, key 2, key 3, bullet 3, bullet 2",
                  "crow 2, crow 3, cup 1, key 2, bullet 4", action=["key 1", "", ""],
                  deck="key 3, crow 5, cup 5, Fin, cup 3")
    state.apply(("play", "key 1", "key", 1))
    state.apply("pass")
    state.apply("pass")
    assert state.observation(0)["hands"][1][3:] == (("bullet", 3), ("bullet", 2))
    assert state.observation(2)["hands"][1][3:] == (None, None)


# -- illegal moves -----------------------------------------------------------------------

def test_illegal_moves_raise():
    state = two_player_table()
    for move in [("play", "cup 3", "bullet", (1, 0)), ("play", "key 7", "key", 1),
                 ("play", "crow 3", "key", 0), ("play", "crow 3", "crow", (2, 0)),
                 ("play", "crow 3", "crow", [1, 0]), "pass", "call", ("bullet", "crow 3"),
                 ("discard", 0, 1), (), "", None, 7]:
        with pytest.raises(IllegalMove):
            state.apply(move)
    state.apply(("play", "crow 3", "crow", (1, 0)))
    for move in [("bullet", "cup 3"), ("play", "cup 3", "key", 1), ("discard", 1, 0)]:
        with pytest.raises(IllegalMove):
            state.apply(move)
    state.apply("call")  # wrongly: seat 0 chooses which card seat 1 discards
    for move in [("discard", 0, 1), ("discard", 1, 5), "pass"]:
        with pytest.raises(IllegalMove):
            state.apply(move)


def test_no_move_after_the_end():
    state = play_game(2, 1, [RandomBot(), RandomBot()])
    assert state.legal_moves() == []
    with pytest.raises(IllegalMove):
        state.apply("pass")


# -- random games: conservation, legality, scores, the bound -----------------------------

def check_conserved(state, move=None):
    assert where_cards_are(state) == Counter(range(len(state.cards)))
    assert state.moves_made <= move_bound(state)


def check_showdown(state):
    keys = [showdown_key(values) for values in state.hands_values()]
    best = [seat for seat, key in enumerate(keys) if key == max(keys)]
    assert state.returns() == [1 / len(best) if s in best else 0.0 for s in range(state.players)]
    assert state.scores() == [float(key[0]) for key in keys]
    figures = state.figures()
    assert figures["winning_hand"] == rules.CATEGORIES[max(keys)[0]]
    assert figures["bluffs_succeeded"] <= figures["bluffs"]
    assert figures["calls_right"] <= figures["calls"]


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2 ** 32 - 1), st.integers(2, 5))
def test_random_games_conserve_cards_and_score_by_the_rules(seed, players):
    state = play_game(players, seed, [RandomBot() for _ in range(players)], check_conserved)
    check_showdown(state)


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 2 ** 32 - 1), st.integers(2, 5))
def test_heuristic_games_conserve_cards_and_score_by_the_rules(seed, players):
    bots = [CardSharpBot(), RandomBot()] * 3
    state = play_game(players, seed, bots[:players], check_conserved)
    check_showdown(state)


def test_the_same_seeds_play_the_same_game():
    def moves(seed):
        made = []
        play_game(3, seed, [CardSharpBot()] * 3,
                  lambda s, move=None: made.append((s.moves_made, s.current_player())))
        return made
    assert moves(5) == moves(5)


# -- hidden information ------------------------------------------------------------------

def hidden_from(state, seat):
    """Card ids ``seat`` may not know: the deck, the others' Action Cards, face-down
    cards of other hands it has not seen, and the others' unsettled chain cards."""
    ids = [c for c in state.deck if c != state.fin]
    for other in range(state.players):
        if other != seat:
            ids += state.action[other]
            ids += [c for c, up in zip(state.hands[other], state.shown[other])
                    if up is None and c not in state.known[seat]]
    if state.asking:
        ids += [c for who, c, _, _ in state.chain if who != seat]
    return ids


def check_hidden(state, move=None):
    """Every seat's observation stays the same when the cards hidden from it change."""
    if state.is_over():
        return
    for seat in range(state.players):
        ids = hidden_from(state, seat)
        twin = copy.deepcopy(state)
        faces = [twin.cards[c] for c in ids]
        state.rng.shuffle(faces)  # the test may use the game's rng: the twin is thrown away
        for c, face in zip(ids, faces):
            twin.cards[c] = face
        seen = state.observation(seat)
        assert twin.observation(seat) == seen
        assert seen["action"] == tuple(state.cards[c] for c in state.action[seat])


def test_observations_hide_the_others_cards():
    for seed in range(3):
        play_game(4, seed, [CardSharpBot(), RandomBot()] * 2, check_hidden)


def test_a_seat_sees_its_own_face_down_cards_and_not_the_others():
    state = two_player_table()
    view = state.observation(0)
    assert view["hands"][0] == (("crow", 4), ("cup", 4), ("key", 4), ("crow", 1), ("cup", 2))
    assert view["hands"][1] == (("key", 1), ("key", 2), ("key", 3), None, None)
    assert view["action"] == (("crow", 3), ("cup", 3)) and view["action_counts"] == (2, 1)


# -- the deck a designer prints ----------------------------------------------------------

def printed_deck():
    deck = load_deck(bundled_decks()["bullet"])
    return [{**c.fields, "back": c.back.name} for c in deck.copies()]


def test_the_bundled_deck_is_the_standard_composition():
    assert cards_from_deck(printed_deck()) == STANDARD
    assert len(STANDARD) == 56


def test_a_deck_without_bullets_still_plays():
    printed = [c for c in printed_deck() if c.get("suit") != "bullet"]
    composition = cards_from_deck(printed)
    state = new_state(4, random.Random(2), composition)
    assert len(state.cards) == 37 and not any(s == "bullet" for s, _ in state.cards)
    rng = random.Random(3)
    while not state.is_over():
        state.apply(RandomBot().choose(None, state.legal_moves(), rng))


@pytest.mark.parametrize("change, message", [
    (lambda d: [c for c in d if c.get("kind") != "fin"], "0 Fin cards"),
    (lambda d: d + [{"kind": "fin"}], "2 Fin cards"),
    (lambda d: [{**c, "suit": "spade"} if c.get("value") == 3 else c for c in d], "'spade'"),
    (lambda d: [{k: v for k, v in c.items() if k != "suit"} for c in d], "it has a value but no suit"),
    (lambda d: [{**c, "value": 9} if c.get("value") == 3 else c for c in d], "value 9"),
    (lambda d: [{**c, "value": 3.0} if c.get("value") == 3 else c for c in d], "value 3.0"),
    (lambda d: [c for c in d if not c.get("value")], "no number cards"),
])
def test_unplayable_decks_are_refused(change, message):
    with pytest.raises(RulesError, match=message):
        cards_from_deck(change(printed_deck()))


def test_a_deck_too_small_for_the_deal_is_refused():
    small = cards_from_deck([c for c in printed_deck() if c.get("value") not in (1, 2)]
                            + [c for c in printed_deck() if c.get("value") == 1][:4])
    new_state(4, random.Random(0), small)  # 4 x 4 x 2 + 4 = 36 = 4 x 6 + 10 + 2
    with pytest.raises(RulesError, match="at least 40"):
        new_state(5, random.Random(0), small[:39])


def test_the_game_entry():
    assert GAME.name == "bullet" and GAME.players == (2, 3, 4, 5)
    assert set(GAME.bots) == {"random", "heuristic", "search"}
    assert CardSharpBot(bluff_rate=0.0).params["call_threshold"] == 0.6
    with pytest.raises(ValueError):
        CardSharpBot(patience=1.0)
    assert len(plays(5, 0, "cup 1")[0]) == 25 + 250 + 4


# -- a fixed-seed run ----------------------------------------------------------------------

def test_two_hundred_random_games_keep_their_headline_numbers():
    wins, moves, figures = [0.0] * 4, 0, Counter()
    for seed in range(200):
        state = play_game(4, seed, [RandomBot()] * 4)
        wins = [w + r for w, r in zip(wins, state.returns())]
        moves += state.moves_made
        figures.update({k: v for k, v in state.figures().items() if isinstance(v, int)})
        figures[state.figures()["winning_hand"]] += 1
    assert [round(w, 3) for w in wins] == [44.0, 53.0, 53.0, 50.0]
    assert moves == 7022  # 35.11 moves a game
    assert figures == {"bluffs": 1939, "bluffs_succeeded": 538, "calls": 1472,
                       "calls_right": 1099, "bullets": 1000, "fin_on_penalty": 70,
                       "four of a kind": 7, "full house": 22, "three of a kind": 72,
                       "two pair": 68, "pair": 31}


def test_forty_games_of_the_card_sharp_against_random_bots_keep_their_numbers():
    wins, moves = [0.0] * 3, 0
    for seed in range(40):
        state = play_game(3, seed, [CardSharpBot(), RandomBot(), RandomBot()])
        wins = [w + r for w, r in zip(wins, state.returns())]
        moves += state.moves_made
    assert [round(w, 3) for w in wins] == [27.0, 7.0, 6.0]
    assert moves == 1138
