"""Trick Taking with the shape cards as a game: the deal, taking and locking in, the hand
limit, the final lock-ins, arrows and objectives at the scoring, hidden backs and rule
cards, designers' decks, the bots, and a fixed-seed run whose headline numbers must not
drift."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations, product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardkit.deck.loader import load_deck
from cardkit.toolkit.state import IllegalMove, RandomBot
from cardkit.games.shapes import (GAME, STANDARD, Composition, Front, GreedyBot, ScorerBot,
                                  arrow_odds, cards_from_deck, new_state, pass_chance)
from cardkit.rules import shapes
from cardkit.rules.errors import RulesError
from cardkit.rules.shapes import Card, Objective
from cardkit.sources.bundled import bundled_decks
from conftest import play_out

MAX_MOVES = 81 + 27 + 81 + 9  # takes, lock-ins, a pass a take, a pass a seat at the end
NO_OBJECTIVE = Objective("Unreachable", "9+ triplets", 1)


def card(text: str) -> Card:
    return shapes.parse_card(text)


def face(text: str) -> Front:
    return Front(*card(text)[:3])


def rigged(players: int, cards: list[str], objectives=None):
    """A game whose shape cards come in the order given: the first three on offer, then
    the deck from its top; the rule cards dealt in the order given."""
    objectives = tuple(objectives or [NO_OBJECTIVE] * players)
    state = new_state(players, random.Random(0),
                      Composition(tuple(map(card, cards)), objectives))
    state.objectives = list(objectives[:players])
    state.offer, state.deck = [0, 1, 2][:len(cards)], list(range(len(cards) - 1, 2, -1))
    return state


def take(state, text: str) -> None:
    state.apply(("take", face(text)))


def lock(state, *texts: str) -> None:
    state.apply(("lock", tuple(sorted(map(face, texts)))))


def where_cards_are(state) -> Counter:
    """Every shape card of the game: deck, offer, hands and locked triplets."""
    places = Counter(state.deck + state.offer)
    for hand, triplets in zip(state.hands, state.triplets):
        places.update(hand)
        places.update(c for t in triplets for c in t)
    return places


def play(players: int, seed: int, kinds, check=None):
    bots = [GAME.bots[kind]() for kind in kinds]
    return play_out(new_state(players, random.Random(seed)), bots, random.Random(seed + 1),
                    check)


# -- the known answer: how triplets score ----------------------------------------------

FRONTS = [Card(s, n, f) for s, n, f in product(*shapes.PROPERTIES.values())]


def by_hand(triplet) -> int:
    """1 a property when the three agree, 2 when they all differ."""
    points = 0
    for values in zip(*(c[:3] for c in triplet)):
        kinds = len(set(values))
        points += {1: 1, 2: 0, 3: 2}[kinds]
    return points


def test_the_score_distribution_over_every_triplet_of_distinct_fronts():
    triplets = list(combinations(FRONTS, 3))
    assert len(triplets) == 2925  # 27 choose 3
    mine = Counter(map(by_hand, triplets))
    assert Counter(map(shapes.score_triplet, triplets)) == mine
    # Worked by hand. Per property the three values, in order, are the same (3 ways), all
    # different (6) or mixed (18); with s same, d different and m mixed properties there
    # are 3^s 6^d 18^m ordered triplets, less, when none differs, those where the same two
    # cards agree in every mixed property (3 x 6^m): such two cards are one front. Divide
    # by 3! for unordered triplets and multiply by the ways to pick which properties:
    #   d=3: 36 (6 points); d=2 s=1: 3 x 18 = 54 (5); d=2 m=1: 3 x 108 = 324 and d=1 s=2:
    #   3 x 9 = 27 (4); d=1 s=1 m=1: 6 x 54 = 324 (3); d=1 m=2: 3 x 324 = 972 (2);
    #   s=1 m=2: 3 x 108 = 324 (1); m=3: 864 (0); s=2 m=1 needs two equal fronts: none.
    assert mine == {0: 864, 1: 324, 2: 972, 3: 324, 4: 324 + 27, 5: 54, 6: 36}


# -- the deal ----------------------------------------------------------------------------

@pytest.mark.parametrize("players", range(2, 10))
def test_the_deal_puts_three_cards_on_offer_and_gives_each_player_a_rule_card(players):
    state = new_state(players, random.Random(players))
    assert len(state.offer) == 3 and len(state.deck) == 78
    assert where_cards_are(state) == Counter(range(81))
    assert sorted(state.cards) == sorted(STANDARD.cards)
    assert len(set(state.objectives)) == players
    assert set(state.objectives) <= set(shapes.OBJECTIVES)
    assert state.current_player() == 0 and state.hands == [[]] * players


@pytest.mark.parametrize("players", [0, 1, 10])
def test_the_game_is_for_two_to_nine_players(players):
    with pytest.raises(RulesError, match="the game is for 2-9 players"):
        new_state(players, random.Random(0))
    assert GAME.players == tuple(range(2, 10))


def test_the_standard_deck_is_the_bundled_one():
    deck = load_deck(bundled_decks()["shapes"])
    composition = cards_from_deck([{**c.fields, "back": c.back.name} for c in deck.copies()])
    assert Counter(composition.cards) == Counter(STANDARD.cards)
    assert len(composition.cards) == 81
    assert composition.objectives == STANDARD.objectives == shapes.OBJECTIVES


# -- a turn --------------------------------------------------------------------------------

def test_a_turn_takes_one_of_the_three_on_offer_and_the_deck_fills_the_gap():
    state = rigged(2, ["circle 1 clear", "circle 2 clear", "circle 3 clear",
                       "square 1 solid", "square 2 solid"])
    assert state.legal_moves() == [("take", face(t)) for t in
                                   ("circle 1 clear", "circle 2 clear", "circle 3 clear")]
    take(state, "circle 2 clear")
    assert state.observation(1)["offer"] == tuple(map(face, ("circle 1 clear",
                                                             "square 1 solid",
                                                             "circle 3 clear")))
    assert state.observation(1)["deck"] == 1 and state.current_player() == 1
    assert str(state.legal_moves()[1]) == "('take', 1 solid square)"


def test_two_copies_of_a_front_on_offer_are_one_choice():
    state = rigged(2, ["circle 1 clear left", "circle 1 clear right", "square 3 solid"])
    assert state.legal_moves() == [("take", face("circle 1 clear")),
                                   ("take", face("square 3 solid"))]


def test_a_third_card_opens_the_choice_to_lock_in_one_triplet_or_pass():
    state = rigged(2, ["circle 1 clear", "square 1 solid", "circle 2 clear",
                       "square 2 solid", "circle 3 clear", "square 3 solid", "circle 1 solid"])
    for text in ("circle 1 clear", "square 1 solid", "circle 2 clear", "square 2 solid"):
        take(state, text)  # two cards each: no lock-in to decide
    take(state, "circle 3 clear")
    assert state.current_player() == 0
    assert state.legal_moves() == [("lock", tuple(map(face, ("circle 1 clear",
                                                             "circle 2 clear",
                                                             "circle 3 clear")))), "pass"]
    state.apply("pass")
    take(state, "square 3 solid")
    lock(state, "square 1 solid", "square 2 solid", "square 3 solid")
    assert state.current_player() == 0 and state.hands[1] == []
    assert state.observation(0)["triplets"][1] == (tuple(map(face, (
        "square 1 solid", "square 2 solid", "square 3 solid"))),)


def test_triplets_of_repeated_fronts_are_one_move_each():
    state = rigged(2, ["circle 1 clear left", "square 1 solid", "circle 1 clear right",
                       "square 2 solid", "circle 1 clear blank", "square 3 solid",
                       "triangle 2 striped", "square 1 clear"])
    for move in ("circle 1 clear", "square 1 solid", "circle 1 clear", "square 2 solid",
                 "circle 1 clear", "pass", "square 3 solid", "pass", "square 1 clear"):
        state.apply(move) if move == "pass" else take(state, move)
    assert state.current_player() == 0 and state.observation(0)["hand"] == (
        face("circle 1 clear"),) * 3 + (face("square 1 clear"),)
    assert state.legal_moves() == [("lock", (face("circle 1 clear"),) * 3),
                                   ("lock", (face("circle 1 clear"),) * 2
                                    + (face("square 1 clear"),)), "pass"]


def test_a_hand_over_the_limit_of_seven_must_lock_in_a_triplet():
    state = new_state(2, random.Random(5))
    while len(state.hands[0]) < 8:
        state.apply("pass" if "pass" in state.legal_moves() else state.legal_moves()[0])
    assert state.current_player() == 0
    fronts = state.observation(0)["hand"]
    assert state.legal_moves() == [("lock", t) for t in dict.fromkeys(combinations(fronts, 3))]
    with pytest.raises(IllegalMove):
        state.apply("pass")
    state.apply(state.legal_moves()[0])
    assert len(state.hands[0]) == 5 and state.current_player() == 1


def test_illegal_moves_are_refused():
    state = rigged(2, ["circle 1 clear", "circle 2 clear", "circle 3 clear", "square 1 solid"])
    for move in ("pass", ("take", face("square 1 solid")), ("lock", (face("circle 1 clear"),
                 face("circle 2 clear"), face("circle 3 clear"))), ("take",), "draw"):
        with pytest.raises(IllegalMove):
            state.apply(move)
    assert state.moves_made == 0 and where_cards_are(state) == Counter(range(4))


# -- the end: final lock-ins, arrows, objectives ------------------------------------------

def test_the_rules_whole_table_example_played_move_by_move():
    """decks/shapes/examples.yaml's table: seat 0's left arrows send its 5 points to seat
    1, whose own triplet scores 6; seat 0 still meets its objective with the triplet it
    passed (4 points); seat 1's Hoarder is not met."""
    state = rigged(2, ["circle 1 clear left", "circle 1 clear blank", "circle 2 striped left",
                       "triangle 2 striped blank", "circle 3 solid left",
                       "square 3 solid blank"],
                   [Objective("Same shape", "1+ triplets: shape same", 4),
                    Objective("Hoarder", "4+ triplets", 3)])
    for text in ("circle 1 clear", "circle 1 clear", "circle 2 striped", "triangle 2 striped",
                 "circle 3 solid"):
        take(state, text)
    lock(state, "circle 1 clear", "circle 2 striped", "circle 3 solid")
    take(state, "square 3 solid")  # the last card: seat 1 locks in at the end
    assert state.phase == "final" and state.current_player() == 1
    lock(state, "circle 1 clear", "triangle 2 striped", "square 3 solid")
    assert state.is_over()
    assert [[c.back for c in t] for t in state.triplet_cards(0)] == [["left"] * 3]
    assert state.scores() == [4, 11] and state.returns() == [0.0, 1.0]
    assert state.figures() == {"triplets": 2, "arrow_passes": 1, "objectives_met": 1,
                               "mean_triplet_score": 5.5}


def test_right_arrows_go_to_the_previous_seat_left_to_the_next_mixed_stay():
    state = rigged(3, ["circle 1 clear left", "triangle 1 solid right", "square 1 clear left",
                       "circle 2 clear left", "triangle 2 striped right",
                       "square 1 striped right", "circle 3 clear left",
                       "triangle 3 clear right", "square 1 solid blank"])
    for text in ("circle 1 clear", "triangle 1 solid", "square 1 clear", "circle 2 clear",
                 "triangle 2 striped", "square 1 striped", "circle 3 clear"):
        take(state, text)
    lock(state, "circle 1 clear", "circle 2 clear", "circle 3 clear")  # 4 points, to seat 1
    take(state, "triangle 3 clear")
    lock(state, "triangle 1 solid", "triangle 2 striped", "triangle 3 clear")  # 5, to seat 0
    take(state, "square 1 solid")
    lock(state, "square 1 clear", "square 1 striped", "square 1 solid")  # 4, stays
    assert state.is_over() and state.scores() == [5, 4, 4]
    assert state.returns() == [1.0, 0.0, 0.0] and state.figures()["arrow_passes"] == 2


def test_at_the_end_each_player_in_turn_locks_in_as_many_triplets_as_wanted():
    texts = [f"{s} {n} {f}" for s in ("circle", "triangle") for n in (1, 2, 3)
             for f in ("clear", "striped", "solid")][:18]
    state = rigged(3, texts)
    while state.phase != "final":
        state.apply("pass" if "pass" in state.legal_moves() else state.legal_moves()[0])
    assert [len(h) for h in state.hands] == [6, 6, 6]
    assert state.current_player() == 2  # seat 2 took the last card
    order = []
    while not state.is_over():
        seat = state.current_player()
        order.append(seat)
        state.apply(state.legal_moves()[0] if seat != 1 or order.count(1) == 1 else "pass")
    assert order == [2, 2, 0, 0, 1, 1]  # seat 1 locks one triplet, then stops
    assert [len(h) for h in state.hands] == [0, 3, 0]
    assert [len(t) for t in state.triplets] == [2, 1, 2]


def test_tied_players_share_the_win():
    state = rigged(2, ["circle 1 clear blank", "square 1 clear blank", "circle 2 clear blank",
                       "square 2 clear blank", "circle 3 clear blank",
                       "square 3 clear blank"])
    for text in ("circle 1 clear", "square 1 clear", "circle 2 clear", "square 2 clear",
                 "circle 3 clear"):
        take(state, text)
    lock(state, "circle 1 clear", "circle 2 clear", "circle 3 clear")
    take(state, "square 3 clear")
    lock(state, "square 1 clear", "square 2 clear", "square 3 clear")
    assert state.scores() == [4, 4] and state.returns() == [0.5, 0.5]


# -- every game --------------------------------------------------------------------------

@settings(max_examples=100, deadline=None)
@given(st.integers(0, 10**9), st.integers(2, 9), st.sampled_from(["random", "heuristic"]))
def test_random_games_keep_every_rule(seed, players, kind):
    def check(state, move):
        assert where_cards_are(state) == Counter(range(81))
        assert all(len(hand) <= 8 for hand in state.hands)
        if state.phase == "take":
            assert all(len(hand) <= 7 for hand in state.hands)
        for seat, hand in enumerate(state.hands):  # the table's view matches the cards
            assert state.hand_fronts[seat] == tuple(state.fronts[c] for c in hand)

    state = play(players, seed, [kind] * players, check)
    assert state.moves_made <= MAX_MOVES
    assert not state.deck and not state.offer and where_cards_are(state) == Counter(range(81))
    assert all(len(hand) <= 7 for hand in state.hands)
    table = shapes.final_scores([{"triplets": state.triplet_cards(seat),
                                  "objective": state.objectives[seat].condition,
                                  "points": state.objectives[seat].points}
                                 for seat in range(players)])
    assert state.scores() == table["scores"]
    assert state.returns() == [1 / len(table["winners"]) if s in table["winners"] else 0
                               for s in range(players)]
    figures = state.figures()
    triplets = [t for seat in range(players) for t in state.triplet_cards(seat)]
    assert figures["triplets"] == len(triplets)
    assert figures["mean_triplet_score"] == pytest.approx(
        sum(map(by_hand, triplets)) / len(triplets))
    assert figures["arrow_passes"] == sum(len({c.back for c in t}) == 1 and t[0].back != "blank"
                                          for t in triplets)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**9), st.integers(2, 9), st.data())
def test_an_observation_holds_no_back_and_no_other_rule_card(seed, players, data):
    state = new_state(players, random.Random(seed))
    rng = random.Random(seed)
    for _ in range(data.draw(st.integers(0, 150))):
        if state.is_over():
            break
        state.apply(rng.choice(state.legal_moves()))
    seat = data.draw(st.integers(0, players - 1))
    seen = state.observation(seat)
    assert seen["objective"] == state.objectives[seat]
    assert seen["hand"] == tuple(state.fronts[c] for c in state.hands[seat])

    def parts(value):
        yield value
        if isinstance(value, dict):
            value = list(value.keys()) + list(value.values())
        if isinstance(value, (list, tuple)) and not isinstance(value, Front):
            for part in value:
                yield from parts(part)
    assert not any(isinstance(part, Card) for part in parts(seen))
    others = {o for s, o in enumerate(state.objectives) if s != seat}
    assert not any(part in others or part in {o.title for o in others}
                   for part in parts(seen) if not isinstance(part, (dict, list)))
    # Hidden: every back, the deck's order, the others' rule cards. Changing them
    # changes nothing this seat sees.
    state.cards = tuple(c._replace(back=rng.choice(shapes.BACKS)) for c in state.cards)
    rng.shuffle(state.deck)
    spare = [o for o in shapes.OBJECTIVES if o not in state.objectives]
    state.objectives = [o if s == seat else (spare or [NO_OBJECTIVE])[0]
                        for s, o in enumerate(state.objectives)]
    assert state.observation(seat) == seen


def test_the_chance_a_triplet_passes_is_that_of_its_backs_drawn_at_random():
    odds = arrow_odds(STANDARD.cards)
    backs = {f: [c.back for c in STANDARD.cards if c[:3] == f[:3]] for f in odds}
    for triplet in [tuple(map(face, t)) for t in (
            ("circle 1 clear", "circle 2 clear", "square 3 solid"),
            ("circle 1 clear", "circle 1 clear", "square 3 solid"),
            ("circle 1 clear", "circle 1 clear", "circle 1 clear"))]:
        ways = Counter()  # every way of choosing the triplet's copies
        picks = [combinations(range(3), triplet.count(f)) for f in dict.fromkeys(triplet)]
        for chosen in product(*picks):
            shown = {backs[f][i] for f, copies in zip(dict.fromkeys(triplet), chosen)
                     for i in copies}
            ways[shown in ({"left"}, {"right"})] += 1
        assert pass_chance(triplet, odds) == pytest.approx(ways[True] / sum(ways.values()))


def test_a_fixed_seed_run_of_200_random_games():
    wins, lengths = [0.0] * 4, []
    for seed in range(200):
        state = play(4, seed, ["random"] * 4)
        wins = [w + r for w, r in zip(wins, state.returns())]
        lengths.append(state.moves_made)
    assert [round(w, 3) for w in wins] == [56.333, 42.5, 40.333, 60.833]  # ties share
    assert sum(lengths) == 24103  # 120.5 moves a game


# -- designers' decks --------------------------------------------------------------------

def deck(changes=None):
    """The bundled deck's cards as a designer's deck gives them, with some fields changed:
    {index: fields}."""
    cards = [{"shape": c.shape, "number": c.number, "fill": c.fill, "back": c.back,
              "title": "", "condition": "", "points": None} for c in STANDARD.cards]
    cards += [{"shape": "", "number": None, "fill": "", "back": "objective", "title": o.title,
               "condition": o.condition, "points": o.points} for o in shapes.OBJECTIVES]
    for index, fields in (changes or {}).items():
        cards[index].update(fields)
    return cards


@pytest.mark.parametrize("changes, message", [
    ({0: {"number": None}}, "this shape card has no number"),
    ({5: {"fill": ""}}, "this shape card has no fill"),
    ({2: {"number": "two"}}, "its number 'two' is not a whole number"),
    ({81: {"condition": "lots of triplets"}}, "'lots of triplets' is not an objective"),
    ({82: {"points": None}}, "rule card 'True to Form' has no points"),
])
def test_a_deck_that_cannot_be_played_is_refused(changes, message):
    with pytest.raises(RulesError, match=message) as refused:
        cards_from_deck(deck(changes))
    if "shape card" in message or "number" in message:  # the card it is about, by index
        assert refused.value.card == next(iter(changes))


def test_a_deck_without_shape_cards_or_rule_cards_is_refused():
    with pytest.raises(RulesError, match="the deck has no shape cards"):
        cards_from_deck([c for c in deck() if c["back"] == "objective"])
    with pytest.raises(RulesError, match="the deck has no rule cards"):
        cards_from_deck([c for c in deck() if c["back"] != "objective"])
    three = cards_from_deck(deck()[:81] + deck()[81:84])
    with pytest.raises(RulesError, match="4 players need 4 rule cards, the deck has 3"):
        new_state(4, random.Random(0), three)


def test_a_designer_who_prints_no_arrows_sees_no_passes():
    blank = cards_from_deck([dict(c, back="blank") if c["back"] != "objective" else c
                             for c in deck()])
    for seed in range(5):
        state, rng = new_state(3, random.Random(seed), blank), random.Random(seed)
        bots = [GreedyBot(), RandomBot(), GreedyBot(arrows=0)]
        while not state.is_over():
            seat = state.current_player()
            state.apply(bots[seat].choose(state.observation(seat), state.legal_moves(), rng))
        assert state.figures()["arrow_passes"] == 0
        assert where_cards_are(state) == Counter(range(81))


# -- the heuristic bot -------------------------------------------------------------------

LOOKALIKES = Objective("Lookalikes", "1+ triplets: shape same, number same", 4)


def lock_choice(bot, hand_texts, phase="lock", objective=LOOKALIKES):
    hand = tuple(sorted(map(face, hand_texts)))
    moves = [("lock", t) for t in dict.fromkeys(combinations(hand, 3))]
    moves += ["pass"] * (len(hand) <= 7)
    seen = {"seat": 0, "players": 2, "phase": phase, "objective": objective, "hand": hand,
            "triplets": ((), ()), "arrows": arrow_odds(STANDARD.cards)}
    return bot.choose(seen, moves, random.Random(0))


SIX = ("circle 1 clear", "triangle 2 striped", "square 3 solid")
ZERO = ("circle 1 clear", "circle 2 clear", "triangle 1 striped")


def test_the_heuristic_locks_in_a_six_and_holds_a_poor_hand():
    assert lock_choice(GreedyBot(), SIX) == ("lock", tuple(sorted(map(face, SIX))))
    assert lock_choice(GreedyBot(), ZERO) == "pass"
    assert lock_choice(GreedyBot(threshold=6), SIX) == "pass"  # 6 less the arrow risk


def test_the_heuristic_at_the_end_locks_what_is_worth_anything():
    assert lock_choice(GreedyBot(), ZERO, "final") == "pass"
    hoarder = Objective("Hoarder", "4+ triplets", 3)  # any triplet brings it closer
    assert lock_choice(GreedyBot(), ZERO, "final", hoarder) != "pass"
    assert lock_choice(GreedyBot(), ZERO[:2] + ("circle 3 clear",), "final") != "pass"
    assert lock_choice(GreedyBot(arrows=10), SIX, "final") == "pass"  # too risky


def test_the_heuristic_over_the_limit_locks_its_best():
    hand = SIX + ZERO[1:] + ("square 1 clear", "square 2 clear", "circle 3 striped")
    assert len(hand) == 8 and shapes.score_triplet(lock_choice(GreedyBot(), hand)[1]) == 6
    assert shapes.score_triplet(lock_choice(GreedyBot(threshold=9), hand)[1]) == 6


def test_the_heuristic_prefers_a_triplet_for_its_objective():
    same = ("circle 1 clear", "circle 2 striped", "circle 3 solid")  # 5 points
    hand = SIX + same
    dress = Objective("True to Form", "1+ triplets: shape same", 4)
    assert lock_choice(GreedyBot(), hand, "final")[1] == tuple(sorted(map(face, SIX)))
    assert lock_choice(GreedyBot(), hand, "final", dress)[1] == tuple(sorted(map(face, same)))
    assert lock_choice(GreedyBot(objective=0), hand, "final", dress)[1] == \
        tuple(sorted(map(face, SIX)))


SAME = ("circle 1 clear", "circle 2 striped", "circle 3 solid")  # 5 points: shape same
TRUE_TO_FORM = Objective("True to Form", "2+ triplets: shape same", 3)


def test_the_scorer_weighs_its_rule_card_half():
    """Worked by hand: with one copy of each front a back, three distinct fronts all show
    one arrow with chance 2/27, so a triplet is worth its points x (1 - 2 x 2/27): SIX
    5.11, SAME 4.26. SAME fits True to Form, which needs 2 such triplets for 3 points: a
    bonus of 3/2 = 1.5 at full weight (5.76, over SIX), 0.75 at half weight (5.01, under
    it); both are worth the threshold of 5 during play."""
    assert shapes.score_triplet(tuple(map(card, SAME))) == by_hand(tuple(map(card, SAME))) == 5
    six, same = (tuple(sorted(map(face, hand))) for hand in (SIX, SAME))
    for phase in ("lock", "final"):
        assert lock_choice(GreedyBot(), SIX + SAME, phase, TRUE_TO_FORM) == ("lock", same)
        assert lock_choice(ScorerBot(), SIX + SAME, phase, TRUE_TO_FORM) == ("lock", six)
    assert ScorerBot().params == {**GreedyBot().params, "objective": 0.5}
    assert GAME.bots["scorer"] is ScorerBot and ScorerBot.fair


def test_the_heuristic_beats_random_players():
    wins = [0.0, 0.0]
    for seed in range(30):
        state = play(2, seed, ["heuristic", "random"])
        wins = [w + r for w, r in zip(wins, state.returns())]
    assert wins[0] >= 28


def test_bot_parameters_are_checked():
    with pytest.raises(ValueError, match="unknown bot parameter 'bluff'"):
        GreedyBot(bluff=1.0)
    assert set(GreedyBot.PARAMS) == {"threshold", "objective", "arrows"}


def test_the_greedy_bot_keeps_one_table_of_worths_a_deck(monkeypatch):
    """Its triplet worths are kept by the deck's arrow odds, which every observation
    copies: three games of four greedy bots fill one table, found again at each move."""
    monkeypatch.setattr(GreedyBot, "_worths", {})
    for seed in range(3):
        play(4, seed, ["heuristic"] * 4)
    assert len(GreedyBot._worths) == 1
