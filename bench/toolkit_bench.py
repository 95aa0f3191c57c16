"""Benchmark (run with `make bench`): designers' games on the rules toolkit.

1. Games a second on one core for the starter deck's game and lantern-market's, random
   bots, through the runner `cardkit simulate` uses (one worker).
   Target (issue 27): at least 1,000 games a second a core.
2. The toolkit's cost: the starter's game on the toolkit against the same game written by
   hand against State (bench/hand_starter.py), random bots, same loop, game for game in
   turn; the two must play the same games (their results are compared).
   Target (issue 27): the toolkit version within 1.5x the hand-written one's time.
   The same for a game whose moves() reads card fields in combinations (bench/fields_game.py,
   issue 40), against its twin that reads each card's fields once into lists: <= 1.5x.
3. Per-card bookkeeping (the card journal): each game through the runner with it and
   without it, in turn.
   Target (issue 29): at most 10% of a run's time.
"""

from __future__ import annotations

import random
import statistics
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path[:0] = [str(ROOT), str(HERE)]

from fields_game import HandPairs, Pairs  # noqa: E402
from hand_starter import HandStarter  # noqa: E402

from cardkit.deck.loader import load_deck  # noqa: E402
from cardkit.playtest.rules_file import load_rules  # noqa: E402
from cardkit.playtest.runner import BotSpec, Setup, play_many, play_one  # noqa: E402
from cardkit.starter import create_deck  # noqa: E402

GAMES, ROUNDS, PLAYERS = 2000, 5, 2


def designer_game(deck: Path):
    """(the Game of the rules beside ``deck``'s deck.yaml, its cards)."""
    game = load_rules(deck / "rules.py")
    return game, game.cards_from_deck(load_deck(deck / "deck.yaml").for_rules())


def through_the_runner(name: str, deck: Path) -> float:
    """Games a second with one worker, as `cardkit simulate --workers 1` plays them."""
    _, cards = designer_game(deck)
    setup = Setup(name, PLAYERS, 1, (BotSpec("random"),) * PLAYERS, cards,
                  str(deck / "rules.py"))
    started = time.perf_counter()
    play_many(setup, GAMES, workers=1)
    return GAMES / (time.perf_counter() - started)


def played(new_state, cards, index: int) -> tuple[float, tuple]:
    """Seconds to play game ``index`` with random moves, and its result."""
    started = time.perf_counter()
    state = new_state(PLAYERS, random.Random(f"1:{index}"), cards)
    rngs = [random.Random(f"1:{index}:{seat}") for seat in range(PLAYERS)]
    while not state.is_over():
        legal = state.legal_moves()
        state.apply(legal[rngs[state.current_player()].randrange(len(legal))])
    return time.perf_counter() - started, (state.returns(), state.scores(), state.moves_made)


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        starter = Path(tmp) / "starter"
        create_deck(starter, "starter")
        print(f"designers' games on the toolkit, {PLAYERS} players, random bots, one core")
        for name, deck in (("starter", starter), ("lantern-market",
                                                  ROOT / "examples" / "lantern-market")):
            rates = [through_the_runner(name, deck) for _ in range(ROUNDS)]
            rate = statistics.median(rates)
            verdict = "met" if rate >= 1000 else "NOT met"
            print(f"  {name:15} {rate:8,.0f} games/s (median of {ROUNDS} runs of {GAMES:,})"
                  f"   target >= 1,000: {verdict}")
        game, cards = designer_game(starter)
        against_hand("the starter's game", game.new_state, HandStarter, cards)
        against_hand("pairs (fields read in moves)", Pairs, HandPairs, cards)
        print("per-card bookkeeping: each game through the runner with its card journal, "
              "against the same game without one, in turn")
        for name, deck in (("starter", starter), ("lantern-market",
                                                  ROOT / "examples" / "lantern-market")):
            ratios = sorted(journal_cost(name, deck) for _ in range(ROUNDS))
            ratio = statistics.median(ratios)
            print(f"  {name:15} {ratio:.3f}x ({ratios[0]:.3f}-{ratios[-1]:.3f})   target "
                  f"<= 1.10x: {'met' if ratio <= 1.10 else 'NOT met'}")


def journal_cost(name: str, deck: Path) -> float:
    """The time GAMES games take through the runner with their card journal, against the
    same games without one, each game played both ways in turn (whole runs in turn swung
    0.9x-1.3x on a shared machine)."""
    _, cards = designer_game(deck)
    setup = Setup(name, PLAYERS, 1, (BotSpec("random"),) * PLAYERS, cards,
                  str(deck / "rules.py"))
    kept = skipped = 0.0
    for index in range(GAMES):
        started = time.perf_counter()
        play_one(setup, index)
        kept += time.perf_counter() - started
        with _no_journal():
            started = time.perf_counter()
            play_one(setup, index)
            skipped += time.perf_counter() - started
    return kept / skipped


def against_hand(name: str, kit_game, hand_game, cards) -> None:
    """Print the toolkit version's time against the hand-written one's. The two play game
    for game in turn, so that a slow spell of a shared machine slows both alike (rounds of
    a whole run each swung the ratio from 1.6x to 2.6x)."""
    kit, hand, ratios = [], [], []
    for _ in range(ROUNDS):
        kit_seconds = hand_seconds = 0.0
        for index in range(GAMES):
            kit_time, kit_result = played(kit_game, cards, index)
            hand_time, hand_result = played(hand_game, cards, index)
            assert kit_result == hand_result, f"{name}: the two versions played game {index} " \
                "differently"
            kit_seconds, hand_seconds = kit_seconds + kit_time, hand_seconds + hand_time
        kit.append(kit_seconds)
        hand.append(hand_seconds)
        ratios.append(kit_seconds / hand_seconds)
    ratio = statistics.median(ratios)
    print(f"  {name}, {GAMES:,} games: toolkit {statistics.median(kit):.3f} s, "
          f"by hand {statistics.median(hand):.3f} s: {ratio:.2f}x ({min(ratios):.2f}-"
          f"{max(ratios):.2f}), the same games, played in turn   target <= 1.5x: "
          + ("met" if ratio <= 1.5 else "NOT met"))


@contextmanager
def _no_journal():
    """Games without a card journal: no pile tells one of its cards, no record is made."""
    import cardkit.toolkit.game as toolkit_game

    class NoJournal:  # tells no pile of itself, so the piles keep none
        def __init__(self, *_):
            pass

        def begin(self, piles):
            pass

        def arrived(self, card, place):  # a pile made during play is told of it
            pass

    made, record = toolkit_game.CardJournal, toolkit_game.CardGame.card_record
    toolkit_game.CardJournal = NoJournal
    toolkit_game.CardGame.card_record = lambda self: None
    try:
        yield
    finally:
        toolkit_game.CardJournal, toolkit_game.CardGame.card_record = made, record


if __name__ == "__main__":
    main()
