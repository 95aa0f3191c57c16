"""Per-card figures (issue 29): which cards each seat drew, played and held, and how a
seat that did so fares against its usual rate."""

from __future__ import annotations

import math
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardkit.deck.loader import load_deck
from cardkit.playtest.per_card import TOO_RARE, card_figures
from cardkit.playtest.rules_file import load_rules
from cardkit.playtest.game_loop import Result
from cardkit.playtest.run_setup import BotSpec, Setup
from cardkit.playtest.runner import play_many
from cardkit.playtest.summary import summarise
from cardkit.toolkit import BACKS, OWNER

ROOT = Path(__file__).resolve().parent.parent
LANTERN = ROOT / "examples" / "lantern-market"


def lantern():
    game = load_rules(LANTERN / "rules.py")
    return game, game.cards_from_deck(load_deck(LANTERN / "deck.yaml").for_rules())


def watched_record(state, rng) -> list[dict]:
    """The oracle: play ``state`` to its end with random moves, looking at every seat's
    piles after the deal and after each move (not at the journal): a card new among a
    seat's piles was drawn, one gone from its private piles to anywhere but another of
    them was played."""
    def where(card):
        for pile in state.all_piles():
            if card in pile.cards:
                return pile.owner, pile.visibility in (OWNER, BACKS)
        raise AssertionError(f"{card!r} is in no pile")

    places = {card: (None, False) for card in state.cards}  # before the deal
    drawn = [set() for _ in range(state.players)]
    played = [set() for _ in range(state.players)]
    first = True
    while first or not state.is_over():
        if not first:
            legal = state.legal_moves()
            state.apply(legal[rng.randrange(len(legal))])
        first = False
        for card in state.cards:
            (seat, private), (before, was_private) = where(card), places[card]
            if (seat, private) != (before, was_private):
                if was_private and not (private and seat == before):
                    played[before].add(repr(card))
                if seat is not None and seat != before:
                    drawn[seat].add(repr(card))
                places[card] = seat, private
    held = [sorted({repr(c) for p in state.all_piles() if p.owner == s for c in p.cards})
            for s in range(state.players)]
    return [{"drawn": sorted(d), "played": sorted(p), "held": h}
            for d, p, h in zip(drawn, played, held)]


def sorted_record(state) -> list[dict]:
    return [{what: sorted(names) for what, names in seat.items()}
            for seat in state.card_record()]


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), players=st.sampled_from([2, 3, 4]))
def test_the_journal_agrees_with_watching_the_piles(seed, players):
    game, cards = lantern()
    state = game.new_state(players, random.Random(seed), cards)
    assert watched_record(state, random.Random(-seed)) == sorted_record(state)


def test_a_starter_s_cards_are_drawn_played_and_held(tmp_path):
    from cardkit.starter import create_deck

    create_deck(tmp_path / "duel", "duel")
    game = load_rules(tmp_path / "duel" / "rules.py")
    cards = game.cards_from_deck(load_deck(tmp_path / "duel" / "deck.yaml").for_rules())
    for seed in range(10):
        state = game.new_state(2, random.Random(seed), cards)
        assert watched_record(state, random.Random(seed)) == sorted_record(state)


def test_a_searched_sample_keeps_no_record():
    game, cards = lantern()
    state = game.new_state(3, random.Random(1), cards)
    world = state.determinized(0, random.Random(2))
    assert world.journal is None and all(p.journal is None for p in world.all_piles())


def test_card_figures_against_a_hand_count():
    """Seat 0 wins 3 games in 4. Both seats draw the Imp every game; the Dragon is drawn
    by seat 0 in the games it wins and by seat 1 in the others: whoever draws it wins.
    Every game has three slots (a card a seat drew), two of them the winner's: a slot wins
    2/3 of the time. The Dragon's 80 slots all win, against 2/3 usual; the Imp's 160 win
    half, against 2/3. Each game's variance is that of drawing the card's slots from the
    three (returns 1, 1, 0: a variance of 2/9): 1·2/2·2/9 for either, so that each is
    26.7 wins off its usual over 80 games, with a standard error of sqrt(80·2/9)."""
    games = [Result(i, [1.0, 0.0] if i % 4 else [0.0, 1.0], [0, 0], 9, {},
                    [{"drawn": ["Dragon", "Imp"] if i % 4 else ["Imp"], "played": [],
                      "held": []},
                     {"drawn": ["Imp"] if i % 4 else ["Dragon", "Imp"], "played": [],
                      "held": []}])
             for i in range(80)]
    figures = {entry["card"]: entry for entry in card_figures(games, 2)}
    dragon, imp = figures["Dragon"]["drawn"], figures["Imp"]["drawn"]
    assert (dragon["seat_games"], dragon["won"], dragon["a_game"]) == (80, 1.0, 1.0)
    assert (imp["seat_games"], imp["won"], imp["a_game"]) == (160, 0.5, 2.0)
    assert dragon["usual"] == pytest.approx(2 / 3) and imp["usual"] == pytest.approx(2 / 3)
    half = 1.959963984540054 * math.sqrt(80 * 2 / 9)
    assert dragon["interval"] == pytest.approx([(80 - 160 / 3 - half) / 80,
                                                (80 - 160 / 3 + half) / 80])
    assert imp["interval"] == pytest.approx([(80 - 320 / 3 - half) / 160,
                                             (80 - 320 / 3 + half) / 160])
    assert dragon["significant"] and imp["significant"]
    assert [entry["card"] for entry in card_figures(games, 2)] == ["Dragon", "Imp"]
    rare = {entry["card"]: entry for entry in card_figures(games[:TOO_RARE - 1], 2)}
    rare = rare["Dragon"]["drawn"]  # 22 + 7 seat-games
    assert not rare["judged"] and not rare["significant"]


def test_lantern_market_s_report_and_terminal_show_the_cards(tmp_path):
    from click.testing import CliRunner

    from cardkit.cli import main

    outcome = CliRunner().invoke(main, ["simulate", str(LANTERN), "--games", "1500",
                                        "--workers", "1", "--report", str(tmp_path / "r")])
    assert outcome.exit_code == 0, outcome.output
    lines = outcome.output.splitlines()
    start = lines.index("  cards: a seat that drew it, against the other cards of its games")
    strongest = lines[start + 1].split(":")[0].strip()
    weakest = lines[start + 6].split(":")[0].strip()
    assert (strongest, weakest) == ("Silk Bolt", "Captain")  # the 4-coin good, the guard
    page = (tmp_path / "r" / "report.html").read_text()
    assert "<h2>Cards</h2>" in page and page.index("Silk Bolt") < page.index("Captain")


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 100_000),
       name=st.sampled_from(["blofa", "bullet", "ragusa", "rise-up", "shapes"]))
def test_a_bundled_game_s_record_agrees_with_watching_the_hands(seed, name):
    """The oracle watches, after every move, what each seat owns and what is in its hand,
    each as a multiset of names (WATCHED says what those are in each game, read from the
    observation or the table, never from the record): a card new among what it owns was
    drawn (dealt, drawn, kept, bought, traded, taken), one gone from its hand was played;
    what it owns at the end is held."""
    from collections import Counter

    from cardkit.games import load_game

    game = load_game(name)
    state = game.new_state(game.default_players, random.Random(seed))
    watch = WATCHED[name]
    seats = range(state.players)
    owned = [Counter(watch(state, seat)[0]) for seat in seats]
    hands = [Counter(watch(state, seat)[1]) for seat in seats]
    drawn, played = [set(o) for o in owned], [set() for _ in seats]
    rng = random.Random(-seed)
    while not state.is_over():
        legal = state.legal_moves()
        state.apply(legal[rng.randrange(len(legal))])
        for seat in seats:
            now_owned, now_hand = map(Counter, watch(state, seat))
            drawn[seat] |= set(now_owned - owned[seat])
            played[seat] |= set(hands[seat] - now_hand)
            owned[seat], hands[seat] = now_owned, now_hand
    assert state.card_record() == [
        {"drawn": sorted(d), "played": sorted(p), "held": sorted(set(o))}
        for d, p, o in zip(drawn, played, owned)]


def _blofa(state, seat):
    from cardkit.games.blofa import card_name

    hand = [card_name(value) for value in state.hands[seat]]
    return hand, hand


def _ragusa(state, seat):
    return state.hands[seat], state.hands[seat]


def _bullet(state, seat):
    """Owned: the Poker Hand and the Action Cards; the hand: the Action Cards."""
    from cardkit.games.bullet import label

    seen = state.observation(seat)
    action = [label(card) for card in seen["action"]]
    return [label(card) for card in seen["hands"][seat]] + action, action


def _rise_up(state, seat):
    """Owned: the abilities; the hand: those neither used nor set aside for a fight."""
    seen = state.observation(seat)
    names = [(card.partition("#")[0], card, used) for card, used in seen["abilities"]]
    return ([name for name, _, _ in names],
            [name for name, card, used in names if not used and card not in seen["invested"]])


def _shapes(state, seat):
    """Owned: the hand, the triplets and the rule card; the hand: the hand."""
    from cardkit.games.shapes import objective_name

    hand = [str(state.cards[c]) for c in state.hands[seat]]
    locked = [str(card) for triplet in state.triplet_cards(seat) for card in triplet]
    return hand + locked + [objective_name(state.objectives[seat])], hand


WATCHED = {"blofa": _blofa, "bullet": _bullet, "ragusa": _ragusa, "rise-up": _rise_up,
           "shapes": _shapes}


def test_blofa_reports_its_cards():
    setup = Setup("blofa", 4, 1, (BotSpec("heuristic"),) + (BotSpec("random"),) * 3)
    cards = {entry["card"]: entry for entry in summarise(setup, play_many(setup, 400),
                                                          1.0)["cards"]}
    assert set(cards) == {"rule card (0, blue)", "1 (yellow)", "2 (blue)", "3 (yellow)",
                          "4 (blue)", "5 (yellow)"}
    # a seat holding a rule card at the end is eliminated: it wins less than its usual
    assert cards["rule card (0, blue)"]["held"]["change"] < 0


def test_a_designer_s_cards_are_named_as_the_deck_names_them(tmp_path):
    """The deck's card_name names each card in the figures, as in its exported files."""
    import shutil

    deck = tmp_path / "lantern-market"
    shutil.copytree(LANTERN, deck)
    text = (deck / "deck.yaml").read_text()
    (deck / "deck.yaml").write_text(text.replace("size: poker\n",
                                                 'size: poker\ncard_name: "{name} ({kind})"\n'))
    game = load_rules(deck / "rules.py")
    cards = game.cards_from_deck(load_deck(deck / "deck.yaml").for_rules())
    assert {str(card) for card in cards} >= {"Silk Bolt (good)", "Captain (guard)"}
    setup = Setup(str(deck), 3, 1, (BotSpec("random"),) * 3, cards, str(deck / "rules.py"))
    named = {entry["card"] for entry in summarise(setup, play_many(setup, 60), 1.0)["cards"]}
    assert "Silk Bolt (good)" in named and "Silk Bolt" not in named


def test_the_journal_takes_tokens_and_piles_of_no_seat_with_private_faces():
    """A card the rules make during play (an id past the deck's) is journaled like any; a
    card leaving a face-down pile of no seat (BACKS, no owner) is nobody's play."""
    from cardkit.toolkit import PUBLIC, Card, Pile
    from cardkit.toolkit.zones import CardJournal

    journal = CardJournal(2)
    pool, hand = Pile("pool", BACKS), Pile("hand", OWNER, owner=0)
    table = Pile("table", PUBLIC)
    pool.cards = [Card(0, {"name": "Gem"}), Card(1, {"name": "Gem"})]
    journal.begin([pool, hand, table])
    pool.move_top(table)  # out of a private pile of no seat: played by nobody
    hand.add(Card(7, {"name": "Token"}))  # made by the rules
    hand.move(hand.cards[0], table)
    record = journal.record([pool, hand, table])
    assert record[0] == {"drawn": {"Token"}, "played": {"Token"}, "held": set()}
    assert record[1] == {"drawn": set(), "played": set(), "held": set()}


def test_a_card_s_interval_is_cochran_mantel_haenszel_s_worked_with_numpy():
    """The oracle: each game's card-slots (a card a seat drew, with the seat's return) as
    arrays, with numpy: the card's expected wins are, game by game, its slots times the
    slots' mean return, and the variance that of drawing its slots from the game's without
    replacement; against what the Tally's running sums give."""
    import numpy as np

    rng = random.Random(7)
    names = ["Dragon", "Imp", "Cat", "Owl"]
    games = []
    for i in range(300):
        returns = [0.0, 0.0, 0.0]
        winners = rng.sample(range(3), rng.choice([1, 1, 1, 2]))
        for seat in winners:
            returns[seat] = 1 / len(winners)
        record = [{"drawn": rng.sample(names, rng.randint(0, 3)), "played": [], "held": []}
                  for _ in range(3)]
        games.append(Result(i, returns, [0, 0, 0], 9, {}, record))
    figures = {entry["card"]: entry["drawn"] for entry in card_figures(games, 3)}
    for name in names:
        count = wins = expected = variance = 0.0
        for game in games:
            slots = np.array([y for seat, y in zip(game.cards, game.returns)
                              for _ in seat["drawn"]])
            mine = np.array([y for seat, y in zip(game.cards, game.returns)
                             if name in seat["drawn"]])
            if not len(mine):
                continue
            count, wins = count + len(mine), wins + mine.sum()
            expected += len(mine) * slots.mean()
            if len(slots) > 1:
                variance += (len(mine) * (len(slots) - len(mine)) / (len(slots) - 1)
                             * slots.var())
        half = 1.959963984540054 * np.sqrt(variance) / count
        figure = figures[name]
        assert figure["seat_games"] == count
        assert figure["usual"] == pytest.approx(expected / count, abs=1e-12)
        assert figure["interval"] == pytest.approx(
            [(wins - expected) / count - half, (wins - expected) / count + half], abs=1e-12)


def _games_where_every_card_drawn_is_held(players: int = 2):
    from cardkit.playtest.game_loop import Result

    record = [{"drawn": ["Dragon", "Imp"] if i % 4 else ["Imp"], "played": [],
               "held": ["Dragon", "Imp"] if i % 4 else ["Imp"]} for i in range(80)]
    return [Result(i, ([1.0, 0.0] if i % 4 else [0.0, 1.0])[:players], [0] * players, 9, {},
                   [record[i], {"drawn": ["Imp"], "played": [], "held": ["Imp"]}][:players])
            for i in range(80)]


def test_a_held_figure_the_same_as_the_drawn_one_is_tested_once():
    """Before: every card drawn was held at the end, and each card was tested twice (4
    figures tested together where 2 differ), which cost the verdict power."""
    from cardkit.playtest.per_card import card_figures, card_verdict

    cards = card_figures(_games_where_every_card_drawn_is_held(), 2)
    verdict = card_verdict(cards, 80)
    assert verdict["tested"] == 2
    assert all(card["held"]["same_as"] == "drawn" for card in cards)


def test_one_player_s_cards_are_not_said_to_need_a_number_of_games():
    """Rise Up: a seat's result is the same whichever of its cards it had, so no number of
    games can find a card (before: 'would need about 14,000 games')."""
    from cardkit.playtest.per_card import card_figures, card_verdict, verdict_sentences
    from cardkit.playtest.game_loop import Result

    games = [Result(i, [float(i % 3 == 0)], [0], 9, {},
                    [{"drawn": ["Ace", "King"] if i % 2 else ["Queen"], "played": [],
                      "held": []}]) for i in range(200)]
    verdict = card_verdict(card_figures(games, 1), 200)
    assert verdict["needed"] is None and verdict["tested"] > 0
    assert "no number of games can tell one card from another" in verdict_sentences(verdict)[0]


def test_the_seat_sentence_says_how_many_seats_it_tested_when_it_names_none():
    from cardkit.cli.run_summary import outcome_lines

    lines = outcome_lines({"fair_share": 0.25, "nobody_won": 0.0, "decided": 100, "tied": 0,
                           "edges": [], "players": 4})
    assert "  No seat is further from a fair share than chance explains (4 seats tested " \
           "together)." in lines
