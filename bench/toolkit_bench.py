"""Benchmark (run with `make bench`): designers' games on the rules toolkit.

1. Games a second of CPU time on one core for the starter deck's game and lantern-market's,
   random bots, through the runner `cardkit simulate` uses (one worker).
   Target (issue 27): at least 1,000 games a second a core.
2. The toolkit's cost (issue 56): each game through the runner, as `cardkit simulate
   --workers 1` plays it (random bots), against the same game written independently in
   plain Python, game for game in turn, as CPU time; the two must play the same games
   (their scores are compared). Three games: the starter's (bench/hand_starter.py), one
   whose moves() reads card fields in combinations (bench/fields_game.py) and a
   trick-taking game at four players (bench/tricks_game.py).
   Target (issue 56): each at most 2x its plain-Python twin.
3. Per-card bookkeeping (the card journal): each game through the runner with it and
   without it, in turn.
   Target (issue 29): at most 10% of a run's time.
"""

from __future__ import annotations

import random
import statistics
from collections import defaultdict
import sys
import tempfile
import time
from contextlib import contextmanager
from functools import partial
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path[:0] = [str(ROOT), str(HERE)]

import tricks_game  # noqa: E402
from fields_game import HandPairs  # noqa: E402
from hand_starter import HandStarter  # noqa: E402

from cardkit.deck.loader import load_deck  # noqa: E402
from cardkit.playtest.rules_file import load_rules  # noqa: E402
from cardkit.playtest.game_loop import play_one  # noqa: E402
from cardkit.playtest.run_setup import BotSpec, Setup  # noqa: E402
from cardkit.playtest.runner import play_many  # noqa: E402
from cardkit.starter import create_deck  # noqa: E402

GAMES, ROUNDS, PLAYERS = 2000, 5, 2


def designer_game(deck: Path):
    """(the Game of the rules beside ``deck``'s deck.yaml, its cards)."""
    game = load_rules(deck / "rules.py")
    return game, game.cards_from_deck(load_deck(deck / "deck.yaml").for_rules())


def through_the_runner(name: str, deck: Path) -> float:
    """Games a second of CPU time with one worker, as `cardkit simulate --workers 1`
    plays them (CPU time: a machine shared with other work slows wall time, not this)."""
    _, cards = designer_game(deck)
    setup = Setup(name, PLAYERS, 1, (BotSpec("random"),) * PLAYERS, cards,
                  str(deck / "rules.py"))
    started = time.process_time()
    play_many(setup, GAMES, workers=1)
    return GAMES / (time.process_time() - started)


def played_by_hand(new_state, cards, index: int) -> list:
    """Game ``index`` (seed 1) of a game written by hand against State, each seat choosing
    at random as the runner's random bot does: its scores."""
    state = new_state(PLAYERS, random.Random(f"1:{index}"), cards)
    rngs = [random.Random(f"1:{index}:{seat}") for seat in range(PLAYERS)]
    while not state.is_over():
        legal = state.legal_moves()
        state.apply(legal[rngs[state.current_player()].randrange(len(legal))])
    return state.scores()


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
            print(f"  {name:15} {rate:8,.0f} games/s of CPU time (median of {ROUNDS} runs "
                  f"of {GAMES:,})"
                  f"   target >= 1,000: {verdict}")
        print("the toolkit through the runner against the same game in plain Python, "
              f"game for game in turn, CPU time (load {_load()})")
        _, cards = designer_game(starter)
        against_plain("the starter's game", starter / "rules.py", cards, 2,
                      partial(played_by_hand, HandStarter, cards))
        against_plain("pairs (fields read in moves)", HERE / "fields_game.py", cards, 2,
                      partial(played_by_hand, HandPairs, cards))
        printed = tricks_game.deck()
        tricks = load_rules(HERE / "tricks_game.py").cards_from_deck(printed)
        against_plain("tricks (4 players)", HERE / "tricks_game.py", tricks, 4,
                      partial(tricks_game.play_plain, 4, 1, cards=printed))
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
        started = time.process_time()
        play_one(setup, index)
        kept += time.process_time() - started
        with _no_journal():
            started = time.process_time()
            play_one(setup, index)
            skipped += time.process_time() - started
    return kept / skipped


def against_plain(name: str, rules: Path, cards, players: int, plain) -> None:
    """Print the CPU time of the toolkit version through the runner (``rules``, random
    bots, seed 1) against the plain-Python version's (``plain(index)``: the scores of game
    ``index``). The two play game for game in turn, so that a slow spell of a shared
    machine slows both alike."""
    setup = Setup(rules.parent.name, players, 1, (BotSpec("random"),) * players, cards,
                  str(rules))
    kit, hand, ratios = [], [], []
    for _ in range(ROUNDS):
        kit_seconds = hand_seconds = 0.0
        for index in range(GAMES):
            started = time.process_time()
            kit_scores = play_one(setup, index).scores
            middle = time.process_time()
            hand_scores = plain(index)
            hand_seconds += time.process_time() - middle
            kit_seconds += middle - started
            assert kit_scores == hand_scores, f"{name}: the two versions played game " \
                f"{index} differently"
        kit.append(kit_seconds)
        hand.append(hand_seconds)
        ratios.append(kit_seconds / hand_seconds)
    ratio = statistics.median(ratios)
    print(f"  {name}, {GAMES:,} games, load {_load()}: through the runner {statistics.median(kit) / GAMES * 1e6:,.0f} "
          f"us a game, plain Python {statistics.median(hand) / GAMES * 1e6:,.0f} us: "
          f"{ratio:.2f}x ({min(ratios):.2f}-{max(ratios):.2f})   target <= 2x: "
          + ("met" if ratio <= 2 else "NOT met"))


def _load() -> str:
    """The machine's load averages (1, 5, 15 minutes): how shared the cores were."""
    try:
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:  # not Linux
        return "unknown"


@contextmanager
def _no_journal():
    """Games without a card journal: no pile tells one of its cards, no record is made."""
    import cardkit.toolkit.game as toolkit_game

    class NoJournal:  # tells no pile of itself, so the piles keep none
        def __init__(self, *_):
            self.taken, self.flows = {}, defaultdict(list)  # a group made in play notes moves here

        def begin(self, piles):
            pass

        def moved(self, cards, before, place):  # a pile made during play is told of it
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
