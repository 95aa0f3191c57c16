"""Ragusa: Trade 'Em as a game: the deal, turns, trades and calls, deck actions and their
costs, unpaid penalties, the showdown (fewer cards, ties, split pots), hidden cards, the
heuristic bot, designers' decks, and a fixed-seed run whose numbers must not drift."""

from __future__ import annotations

import copy
import itertools
import random
from collections import Counter
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardkit.deck.loader import load_deck
from cardkit.toolkit.state import IllegalMove, RandomBot
from cardkit.games.ragusa import (CARD, GAME, STACK, STANDARD, TURNS, RagusaState, Trader,
                                  best_split, cards_from_deck, new_state)
from cardkit.rules import poker, ragusa
from cardkit.rules.errors import RulesError
from cardkit.sources.bundled import bundled_decks
from conftest import play_out

MOVES_A_TURN = 18  # sell 10 cards and stop, trade, claim, place, claim, call, 2 removes
FOUNDATIONS = "4H 7C 9D QS"  # the seed's example: a hearts player's 4 is their 2


def situation(hands, suits, goods="2S 3S 4S 5S 6S", foundations=FOUNDATIONS, deck=None):
    """A hand-built round at its first move; the deck is every other card unless given."""
    table = ragusa.parse_foundations(foundations)
    hands = [hand.split() for hand in hands]
    goods = goods.split()
    used = set(goods) | {str(c) for c in table.values()} | {c for h in hands for c in h}
    deck = deck.split() if deck is not None else [c for c in STANDARD if c not in used]
    state = RagusaState(random.Random(0), STANDARD, table, list(suits), hands, goods, deck)
    assert max(where_cards_are(state).values()) == 1
    return state


def where_cards_are(state):
    """Every card of the round, wherever it is."""
    return Counter(state.deck + state.goods + state.removed + list(state.table.values())
                   + [str(c) for c in state.foundations.values()]
                   + [card for hand in state.hands for card in hand])


def check_invariants(state, tokens=None):
    """Every card somewhere exactly once; tokens only move between players and the pot;
    the pot never runs dry; the goods stay five; hands hold ten at most (eleven while
    putting one back)."""
    assert where_cards_are(state) == Counter(STANDARD)
    assert sum(state.tokens) + state.pot == (tokens or STACK * state.players)
    assert state.pot >= 0 and min(state.tokens) >= 0
    assert len(state.goods) == 5
    assert max(map(len, state.hands)) <= (11 if state.phase == "discard" else 10)


def play_game(players, seed, bots=None, check=None):
    bots = bots or [RandomBot()] * players
    state = play_out(new_state(players, random.Random(seed)), bots, random.Random(seed + 1),
                     check and (lambda state, move: check(state)))
    if check:
        check(state)
    return state


def play(state, *moves):
    for move in moves:
        state.apply(move)
    return state


def honest_trade(state, give, answer):
    """The active player trades ``give`` with the next seat, who answers ``answer``; both
    name their cards truly and believe each other; a player who has taken no deck action
    then ends the turn without one."""
    partner = (state.active + 1) % state.players
    play(state, ("trade", partner, give), ("claim", give), ("place", answer),
         ("claim", answer, "believe"), "believe")
    return end_turn(state)


def end_turn(state):
    """After the trade, a player who has not acted ends the turn (the deck action may come
    after the trade: amended ruling)."""
    if state.phase == "act" and state.traded and not state.is_over():
        play(state, "end")
    return state


def brute_force_winners(state):
    """Every split of every hand tried: the best (shown, other) pair wins."""
    def best(hand, suit):
        cards = [CARD[c] for c in hand]
        if len(cards) <= 5:
            return ragusa.hand_key(cards, suit, state.foundations), ()
        return max((ragusa.hand_key(list(five), suit, state.foundations),
                    ragusa.hand_key([c for c in cards if c not in five], suit,
                                    state.foundations))
                   for five in itertools.combinations(cards, 5))
    keys = [best(hand, suit) for hand, suit in zip(state.hands, state.suits)]
    return [seat for seat, key in enumerate(keys) if key == max(keys)]


# -- the deal ------------------------------------------------------------------------------

@pytest.mark.parametrize("players, deck, pot", [(2, 23, 40), (3, 13, 60), (4, 3, 80)])
def test_the_deal_for_each_player_count(players, deck, pot):
    state = new_state(players, random.Random(players))
    check_invariants(state)
    assert len(state.deck) == deck and state.pot == pot
    assert state.tokens == [STACK - 20] * players
    assert [len(hand) for hand in state.hands] == [10] * players
    assert sorted(state.foundations) == sorted("SHDC")
    assert all(card.suit == suit for suit, card in state.foundations.items())
    # the first card dealt to each player gives their secret suit
    assert state.suits == [CARD[hand[0]].suit for hand in state.hands]
    assert (state.current_player(), state.phase) == (0, "act")


def test_more_or_fewer_players_or_too_small_a_deck_are_refused():
    for players in (1, 5):
        with pytest.raises(RulesError, match=f"2-4 players, not {players}"):
            new_state(players, random.Random(0))
    with pytest.raises(RulesError, match="4 players need 49"):
        new_state(4, random.Random(0), STANDARD[:48])


# -- random games: properties --------------------------------------------------------------

@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**9), players=st.sampled_from([2, 3, 4]),
       heuristic=st.lists(st.booleans(), min_size=4, max_size=4))
def test_random_games_keep_every_rule(seed, players, heuristic):
    """Cards and tokens are conserved at every step, only legal moves are played, the
    game ends after five turns each within a bound, and the showdown pays the pot to the
    players a brute-force search finds best."""
    bots = [Trader() if h else RandomBot() for h in heuristic[:players]]
    recorded = {}
    showdown = RagusaState._showdown

    def recording(state):
        recorded.update(tokens=list(state.tokens), pot=state.pot, winners=brute_force_winners(
            state))
        showdown(state)

    with mock.patch.object(RagusaState, "_showdown", recording):
        state = play_game(players, seed, bots, check=check_invariants)
    assert state.turn == TURNS * players
    assert state.moves_made <= MOVES_A_TURN * TURNS * players
    assert state.winners == recorded["winners"]
    share, odd = divmod(recorded["pot"], len(state.winners))
    paid = [state.tokens[s] - recorded["tokens"][s] for s in range(players)]
    assert paid == [share + (state.winners.index(s) < odd) if s in state.winners else 0
                    for s in range(players)]
    assert state.returns() == [1 / len(state.winners) if s in state.winners else 0
                               for s in range(players)]
    assert state.scores() == state.tokens and state.pot == 0
    figures = state.figures()
    assert figures["pot_won"] == recorded["pot"]
    assert figures["calls_right"] <= figures["bluff_calls"] <= 2 * figures["trades"]
    assert figures["winning_hand"] in poker.CATEGORIES


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(sorted(CARD)), min_size=0, max_size=11, unique=True),
       st.sampled_from("SHDC"), st.integers(2, 14))
def test_the_best_key_and_split_match_a_brute_force_search(names, suit, foundation):
    table = {s: poker.Card(foundation if s == suit else 2, s) for s in "SHDC"}
    cards = [CARD[name] for name in names]
    key = ragusa.hand_key(cards, suit, table)
    if len(cards) >= 5:
        assert key == max(ragusa.hand_key(list(five), suit, table)
                          for five in itertools.combinations(cards, 5))
    if len(cards) <= 10:
        shown, other = best_split(names, suit, table)
        assert sorted(shown + other) == sorted(names) and len(shown) == min(5, len(names))
        pair = (ragusa.hand_key([CARD[c] for c in shown], suit, table),
                ragusa.hand_key([CARD[c] for c in other], suit, table))
        assert pair[0] == key
        if len(cards) > 5:
            assert pair == max((ragusa.hand_key(list(five), suit, table),
                                ragusa.hand_key([c for c in cards if c not in five], suit,
                                                table))
                               for five in itertools.combinations(cards, 5))


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10**9), players=st.sampled_from([2, 3, 4]), steps=st.integers(0, 80))
def test_an_observation_shows_nothing_hidden(seed, players, steps):
    """Shuffling everything a seat cannot see (other hands, the deck, the other player's
    card in the trade, other suits) leaves its observation unchanged."""
    state, rng = new_state(players, random.Random(seed)), random.Random(seed)
    for _ in range(steps):
        if state.is_over():
            return
        moves = state.legal_moves()
        state.apply(moves[rng.randrange(len(moves))])
    for seat in range(players):
        other = copy.deepcopy(state)
        hidden = other.deck + [c for s in range(players) if s != seat for c in other.hands[s]]
        hidden += [c for s, c in other.table.items() if s != seat]
        rng.shuffle(hidden)
        other.deck = [hidden.pop() for _ in other.deck]
        for s in range(players):
            if s != seat:
                other.hands[s] = [hidden.pop() for _ in other.hands[s]]
                other.suits[s] = rng.choice("SHDC")
                if s in other.table:
                    other.table[s] = hidden.pop()
        assert other.observation(seat) == state.observation(seat)
        observed = state.observation(seat)
        assert observed["hand"] == tuple(state.hands[seat]) and observed["suit"] == \
            state.suits[seat]


def test_a_fixed_seed_run_does_not_drift():
    wins, lengths, figures = [0.0] * 4, [], Counter()
    for seed in range(200):
        state = play_game(4, seed)
        wins = [w + r for w, r in zip(wins, state.returns())]
        lengths.append(state.moves_made)
        figures[state.figures()["winning_hand"]] += 1
    assert [round(w, 3) for w in wins] == WINS
    assert sum(lengths) / len(lengths) == MEAN_LENGTH
    assert figures.most_common(3) == CATEGORIES


# random bots; since the amended ruling (a deck action may follow the trade) they also sell,
# swap and buy after trading, which leaves weaker hands at the showdown
WINS, MEAN_LENGTH = [58.0, 53.0, 43.0, 46.0], 144.04
CATEGORIES = [("two pair", 50), ("pair", 42), ("high card", 30)]


# -- hand-built situations -------------------------------------------------------------------

HEARTS_FULL_HOUSE = "KC KD KS 5C 5D 6C 8D 10H JH 2D"  # hearts scale: Js over 3s
SPADES_FULL_HOUSE = "AS AD AC 2C 2H 4C 6D 8S 10C 7H"  # aces full on the standard scale


def seed_example():
    """A hearts player (foundation 4H) against a spades player (foundation QS)."""
    return situation([HEARTS_FULL_HOUSE, SPADES_FULL_HOUSE], "HS")


def last_turn(state):
    state.turn = TURNS * state.players - 1
    state.active = state.mover = state.turn % state.players
    return state


def test_the_seed_example_replayed_kings_count_as_jacks_for_hearts():
    """Five quiet trades each, handing the same two cards back and forth; at the showdown
    the hearts player's kings are jacks and the spades player's aces are 4s and 2s are 5s,
    so jacks full beats what would be aces full on the standard scale."""
    state = seed_example()
    table = state.foundations
    assert ragusa.card_value(CARD["KC"], "H", table) == 11
    assert ragusa.card_value(CARD["AS"], "S", table) == 4
    for _ in range(TURNS):
        honest_trade(state, "6C", "6D")  # seat 0's turn
        honest_trade(state, "6C", "6D")  # seat 1's turn hands them back
    assert state.is_over() and state.moves_made == 6 * TURNS * 2  # five moves and "end"
    assert state.winners == [0] and state.returns() == [1.0, 0.0]
    assert state.tokens == [30 + 40, 30] and state.pot == 0
    assert sorted(state.shown[0][0]) == sorted("KC KD KS 5C 5D".split())
    assert state.figures() == {"deck_tokens_spent": 0, "tokens_from_sales": 0,
                               "pot_won": 40, "trades": 10, "bluff_calls": 0,
                               "calls_right": 0, "false_claims": 0,
                               "winning_hand": "full house"}


def test_the_deck_action_may_follow_the_trade_once_a_turn():
    """Amended ruling: the one deck action comes before or after the trade. After the
    trade the player may swap (the turn then ends) or end the turn; one who acted before
    the trade is done when it is settled; nobody trades twice."""
    state = seed_example()
    play(state, ("trade", 1, "6C"), ("claim", "6C"), ("place", "6D"),
         ("claim", "6D", "believe"), "believe")
    moves = state.legal_moves()
    assert (state.current_player(), state.phase) == (0, "act")
    assert "end" in moves and not any(m[0] == "trade" for m in moves if m != "end")
    assert ("swap", "6D", state.goods[0]) in moves
    play(state, ("swap", "6D", state.goods[0]))
    assert (state.current_player(), state.phase, state.tokens[0]) == (1, "act", 30 - 3)
    # seat 1 acts first, then trades: its turn ends with the trade
    play(state, ("swap", "6C", state.goods[1]))
    give = state.hands[1][0]
    play(state, ("trade", 0, give), ("claim", give), ("place", "KC"),
         ("claim", "KC", "believe"), "believe")
    assert (state.current_player(), state.turn) == (0, 2)


def test_a_turn_must_trade_and_offers_one_deck_action_first():
    state = seed_example()
    moves = state.legal_moves()
    assert "end" not in moves
    assert Counter(m if isinstance(m, str) else m[0] for m in moves) == {
        "trade": 10, "sell": 10, "swap": 50, "buy": 5, "swipe": 1}
    play(state, ("swap", "6C", "2S"))
    assert state.tokens == [27, 30] and state.pot == 43 and state.goods[0] == "6C"
    assert "2S" in state.hands[0] and "6C" not in state.hands[0]
    assert {m[0] for m in state.legal_moves()} == {"trade"}  # one deck action a turn
    honest_trade(state, "2S", "6D")
    assert (state.current_player(), state.turn, state.phase) == (1, 1, "act")
    assert state.figures()["deck_tokens_spent"] == 3


def test_a_call_costs_the_liar_or_the_wrong_accuser_five_and_the_cards_swap_anyway():
    state = seed_example()
    play(state, ("trade", 1, "6C"), ("claim", "AH"))  # seat 0 lies
    assert state.current_player() == 1 and state.phase == "place"
    assert state.observation(1)["claims"] == {0: "AH"}
    play(state, ("place", "6D"))
    play(state, ("claim", "6D", "call"))  # seat 1 tells the truth, rightly accuses seat 0
    assert state.current_player() == 0 and state.phase == "call"
    assert state.observation(0)["claims"] == {0: "AH", 1: "6D"}  # not seat 1's call
    assert state.tokens == [30, 30]
    play(state, "call")  # seat 0 wrongly accuses seat 1
    assert state.tokens == [20, 30] and state.pot == 50
    assert "6D" in state.hands[0] and "6C" in state.hands[1]
    assert state.observation(1)["exposed"] == (1, 1)
    figures = state.figures()
    assert [figures[name] for name in ("bluff_calls", "calls_right", "false_claims")] == \
        [2, 1, 1]


def test_believed_lies_cost_nothing():
    state = seed_example()
    honest_trade(state, "6C", "6D")
    play(state, ("trade", 0, "6C"), ("claim", "3H"), ("place", "6D"),
         ("claim", "KH", "believe"), "believe")
    assert state.tokens == [30, 30] and state.figures()["false_claims"] == 2


@pytest.mark.parametrize("tokens, removals, left", [(7, 1, 2), (4, 2, 4), (10, 0, 0)])
def test_a_player_who_cannot_pay_gives_up_a_card(tokens, removals, left):
    state = seed_example()
    state.tokens[0] = tokens
    total = sum(state.tokens) + state.pot
    play(state, ("trade", 1, "6C"), ("claim", "AH"), ("place", "6D"),
         ("claim", "6D", "call"), "call")  # two penalties for seat 0
    for _ in range(removals):
        assert state.current_player() == 0 and state.phase == "remove"
        removals_offered = sorted(state.legal_moves())
        assert removals_offered == sorted(("remove", c) for c in state.hands[0])
        play(state, ("remove", state.hands[0][0]))
    assert (state.current_player(), state.phase, state.traded) == (0, "act", True)
    end_turn(state)
    assert (state.current_player(), state.phase) == (1, "act")
    assert state.tokens[0] == left and len(state.hands[0]) == 10 - removals
    assert len(state.removed) == removals
    check_invariants(state, total)


def test_a_player_left_with_no_card_owes_nothing_more():
    state = situation(["6C", SPADES_FULL_HOUSE], "HS")
    state.tokens[0] = 0
    total = sum(state.tokens) + state.pot
    play(state, ("trade", 1, "6C"), ("claim", "AH"), ("place", "6D"),
         ("claim", "6D", "call"), "call", ("remove", "6D"))
    end_turn(state)
    assert state.hands[0] == [] and state.current_player() == 1
    assert state.legal_moves()[0] == "end"  # nobody to trade with
    check_invariants(state, total)


def test_buying_refills_the_goods_from_the_deck_and_eleven_cards_put_one_back():
    state = seed_example()
    top = state.deck[-1]
    play(state, ("buy", "3S"))
    assert state.tokens[0] == 25 and state.pot == 45 and state.goods[1] == top
    assert state.phase == "discard" and len(state.legal_moves()) == 11
    play(state, ("discard", "6C"))
    assert "6C" in state.deck and "3S" in state.hands[0] and len(state.hands[0]) == 10
    assert {m[0] for m in state.legal_moves()} == {"trade"}
    room = situation(["KC KD KS 5C 5D 6C 8D 10H JH", SPADES_FULL_HOUSE], "HS")
    play(room, ("buy", "3S"))
    assert room.phase == "act" and len(room.hands[0]) == 10


def test_selling_pays_a_token_a_card_from_the_pot():
    state = seed_example()
    play(state, ("sell", "6C"), ("sell", "8D"))
    assert ("sell", "10H") in state.legal_moves() and "stop" in state.legal_moves()
    play(state, "stop")
    assert state.tokens[0] == 32 and state.pot == 38 and len(state.hands[0]) == 8
    assert {"6C", "8D"} <= set(state.deck)
    assert {m[0] for m in state.legal_moves()} == {"trade"}
    assert state.figures()["tokens_from_sales"] == 2


def test_selling_the_whole_hand_ends_trading_with_that_player():
    state = seed_example()
    play(state, *[("sell", c) for c in HEARTS_FULL_HOUSE.split()], "stop")
    assert state.legal_moves() == ["end"]
    play(state, "end")
    assert state.current_player() == 1 and state.legal_moves()[0] == "end"


def test_deck_actions_need_the_tokens_and_the_cards():
    def kinds(state):
        return {m if isinstance(m, str) else m[0] for m in state.legal_moves()}

    short = situation([HEARTS_FULL_HOUSE, SPADES_FULL_HOUSE], "HS", deck="3D 4D 5H 6H")
    assert "swipe" not in kinds(short) and "buy" in kinds(short)  # a swipe needs 5 cards
    poor = seed_example()
    poor.tokens[0] = 14
    assert kinds(poor) == {"trade", "sell", "swap", "buy"}
    poor.tokens[0] = 4
    play(poor, ("sell", "6C"), "stop")  # 5 tokens now, but one deck action a turn
    assert poor.tokens[0] == 5 and kinds(poor) == {"trade"}
    poorer = seed_example()
    poorer.tokens[0] = 2
    assert kinds(poorer) == {"trade", "sell"}
    empty = situation([HEARTS_FULL_HOUSE, SPADES_FULL_HOUSE], "HS", deck="")
    assert not any(m[0] == "buy" for m in empty.legal_moves())
    with pytest.raises(IllegalMove):
        empty.apply(("buy", "3S"))


def test_a_swipe_turns_up_five_new_goods_and_shuffles_the_old_into_the_deck():
    state = seed_example()
    fresh = state.deck[-5:][::-1]
    play(state, "swipe")
    assert state.goods == fresh and state.tokens[0] == 15 and state.pot == 55
    assert set("2S 3S 4S 5S 6S".split()) <= set(state.deck)
    check_invariants(state)


def test_a_claim_names_any_card_of_the_deck():
    state = play(seed_example(), ("trade", 1, "6C"))
    assert sorted(m[1] for m in state.legal_moves()) == sorted(STANDARD)
    for move in [("claim", "2S", "call"), ("claim", "1S"), "call", ("place", "8D")]:
        with pytest.raises(IllegalMove):
            state.apply(move)
    play(state, ("claim", "2S"), ("place", "6D"))  # a Common Good: a lie anyone can see
    assert len(state.legal_moves()) == 2 * 52
    assert Trader(call_threshold=1.0).choose(state.observation(1), state.legal_moves(),
                                   random.Random(0))[2] == "call"


def test_illegal_moves_are_refused():
    state = seed_example()
    for move in ["end", ("trade", 0, "6C"), ("trade", 1, "AS"), ("swap", "6C", "KH"),
                 ("sell", "AS"), "stop", ("remove", "6C"), "pass"]:
        with pytest.raises(IllegalMove):
            state.apply(move)
    assert state.moves_made == 0


# -- the showdown ----------------------------------------------------------------------------

FLAT, FLAT_GOODS = "2H 2C 2D 2S", "QS QH QD QC JD"  # every scale the standard one


def test_tied_players_are_ranked_by_their_other_five():
    state = situation(["AS KS 9S 7S 5S 3C 4D 6H 8C 10D", "AH KH 9H 7H 5H 3D 4C 6D 8D JC"],
                      "HH", goods=FLAT_GOODS, foundations=FLAT)
    honest_trade(last_turn(state), "3D", "3C")
    assert state.winners == [1] and state.tokens == [30, 70]
    assert sorted(state.shown[1][0]) == sorted("AH KH 9H 7H 5H".split())
    assert state.figures()["winning_hand"] == "flush"


def test_players_still_tied_split_the_pot_odd_token_to_the_first_seat():
    state = situation(["AS KS 9S 7S 5S 3C 4D 6H 8C 10D", "AH KH 9H 7H 5H 3D 4C 6D 8D 10C"],
                      "HS", goods="3S QH QD QC JD", foundations=FLAT)
    last_turn(state)
    play(state, ("swap", "3D", "3S"))  # the pot is now 43
    honest_trade(state, "3S", "3C")
    assert state.winners == [0, 1] and state.returns() == [0.5, 0.5]
    assert state.tokens == [30 + 22, 27 + 21] and state.figures()["pot_won"] == 43


def test_a_hand_of_fewer_than_five_shows_all_and_misses_its_kickers():
    state = situation(["AS AH 3C", "AD AC 4D 5H 6S 8C 9D 10H JS KC"], "SS", goods=FLAT_GOODS,
                      foundations=FLAT)
    honest_trade(last_turn(state), "4D", "3C")
    assert state.shown[0] == (["AS", "AH", "4D"], [])
    assert state.winners == [1]
    players = [{"suit": "S", "shown": [CARD[c] for c in shown], "other": [CARD[c] for c in
                                                                         other]}
               for shown, other in state.shown]
    assert "pair from only 3 cards: A A 4" in ragusa.showdown(players, state.foundations)[1]


def test_an_empty_hand_loses_to_any_card():
    state = situation(["", "3C"], "SH", goods=FLAT_GOODS, foundations=FLAT)
    last_turn(state)
    assert state.legal_moves()[0] == "end"
    play(state, "end")
    assert state.winners == [1] and state.figures()["winning_hand"] == "high card"


# -- the heuristic bot -----------------------------------------------------------------------

def test_the_trader_gives_away_the_card_it_misses_least():
    state = seed_example()
    bot, rng = Trader(), random.Random(0)
    move = bot.choose(state.observation(0), state.legal_moves(), rng)
    assert move == ("trade", 1, "6C")  # the lowest card outside the full house
    greedy = situation([HEARTS_FULL_HOUSE, SPADES_FULL_HOUSE], "HS", goods="KH 3S 4S 5S 6S")
    assert bot.choose(greedy.observation(0), greedy.legal_moves(), rng) == \
        ("swap", "6C", "KH")  # four of a kind
    content = Trader(greed=2.0)
    assert content.choose(greedy.observation(0), greedy.legal_moves(), rng)[0] == "trade"


def test_the_trader_calls_a_claim_of_a_card_it_holds_and_tells_the_truth_without_bluff():
    state = play(seed_example(), ("trade", 1, "6C"), ("claim", "AS"))  # seat 1 holds AS
    honest, rng = Trader(bluff_rate=0.0), random.Random(0)
    placed = honest.choose(state.observation(1), state.legal_moves(), rng)
    assert placed == ("place", "4C")  # the lowest on the spades scale outside its hand
    play(state, placed)
    assert honest.choose(state.observation(1), state.legal_moves(), rng) == \
        ("claim", "4C", "call")
    trusting = Trader(bluff_rate=0.0, call_threshold=1.0)
    assert trusting.choose({**state.observation(1), "claims": {0: "3H"}},
                           state.legal_moves(), rng) == ("claim", "4C", "believe")
    play(state, ("claim", "4C", "believe"))
    assert trusting.choose(state.observation(0), state.legal_moves(), rng) == "believe"
    assert Trader(call_threshold=0.5).choose(state.observation(0), state.legal_moves(),
                                             rng) == "call"
    liar = Trader(bluff_rate=1.0)
    claim = play(seed_example(), ("trade", 1, "6C"))
    assert liar.choose(claim.observation(0), claim.legal_moves(), rng) != ("claim", "6C")


def test_the_trader_beats_random_players():
    wins = 0.0
    for seed in range(60):
        seat = seed % 2
        bots = [RandomBot(), RandomBot()]
        bots[seat] = Trader()
        wins += play_game(2, seed, bots).returns()[seat]
    assert wins / 60 > 0.9


# -- a designer's deck -----------------------------------------------------------------------

def bundled_cards():
    deck = load_deck(bundled_decks()["ragusa"])
    return [{**card.fields, "back": card.back.name} for card in deck.copies()]


def test_the_bundled_deck_is_the_standard_composition():
    assert cards_from_deck(bundled_cards()) == STANDARD
    assert GAME.cards_from_deck is cards_from_deck and GAME.bots["heuristic"] is Trader


def test_a_deck_without_twos_deals_three_players_but_not_four():
    cards = [c for c in bundled_cards() if c["rank"] != "2"]
    composition = cards_from_deck(cards)
    assert len(composition) == 48
    with pytest.raises(RulesError, match="4 players need 49"):
        new_state(4, random.Random(0), composition)
    state = new_state(3, random.Random(5), composition)
    assert not any(c.startswith("2") for h in state.hands for c in h)
    assert where_cards_are(state) == Counter(composition)


@pytest.mark.parametrize("change, message", [
    (lambda cards: [{k: v for k, v in c.items() if k != "suit"} for c in cards],
     "no rank or no suit field"),
    (lambda cards: cards + [{"rank": "Joker", "suit": "", "back": "standard"}], "a joker"),
    (lambda cards: cards + [{"rank": "K", "suit": "heart", "back": "standard"}],
     "KH 2 times"),
    (lambda cards: [c for c in cards if c["suit"] != "club"], "no clubs"),
    (lambda cards: cards + [{"rank": "1", "suit": "heart", "back": "standard"}],
     "rank '1' and suit 'heart' are not a playing card"),
    (lambda cards: cards + [{"rank": "K", "suit": "", "back": "standard"}],
     "are not a playing card"),
    (lambda cards: [c for c in cards if c["rank"] in ("A", "K", "Q", "J", "10", "9", "")],
     "24 playing cards; 2 players need 29"),
])
def test_a_deck_the_game_cannot_use_is_refused(change, message):
    with pytest.raises(RulesError, match=message):
        cards_from_deck(change(bundled_cards()))
