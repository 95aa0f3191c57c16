"""Benchmark (run with `make bench`): complete games a second on one core, for each game,
with random bots in every seat.

The baseline is the smallest game there is, played through the same runner in the same
run: shuffle a 52-card deck, each of the players draws one card, the highest wins. Its
games a second are what the runner, the bots' interface and a shuffle cost; each game's
ratio to it says how much its own rules cost. Rounds alternate game and baseline, and the
medians are printed.

Target (issue 11): at least 500 games a second a core for every game.

Then (issue 46) a run's peak memory at 10^4, 10^5 and 10^6 games of the fastest game,
each in a fresh process playing on two workers as `cardkit simulate` does (a Tally in the
parent, games.csv's rows to a temporary file): it should not grow with the games. The
10^6 run takes a few minutes (217 s on an idle 2-core machine).
"""

from __future__ import annotations

import random
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cardkit.games import MODULES, load_game  # noqa: E402
from cardkit.toolkit.state import RandomBot, State  # noqa: E402

GAMES = 400
ROUNDS = 3
MEMORY_RUNS = (10_000, 100_000, 1_000_000)
FASTEST = "rise-up"  # the most games a second of the bundled games


class HighCard(State):
    """The baseline: each player draws one card from a shuffled deck; the highest wins."""

    def __init__(self, players, rng):
        self.players, self.rng = players, rng
        self.deck = list(range(52))
        rng.shuffle(self.deck)
        self.drawn: list[int] = []

    def current_player(self):
        return len(self.drawn)

    def legal_moves(self):
        return ["draw"]

    def apply(self, move):
        self.drawn.append(self.deck.pop())

    def is_over(self):
        return len(self.drawn) == self.players

    def returns(self):
        best = max(self.drawn)
        return [1.0 if card == best else 0.0 for card in self.drawn]

    def scores(self):
        return [float(card) for card in self.drawn]

    def observation(self, seat):
        return {"drawn": list(self.drawn)}


def games_a_second(new_state, players: int, games: int = GAMES) -> float:
    """Play ``games`` games with random bots as the runner does; games a second."""
    bot = RandomBot()
    started = time.perf_counter()
    for index in range(games):
        state = new_state(players, random.Random(f"1:{index}"))
        rngs = [random.Random(f"1:{index}:{seat}") for seat in range(players)]
        while not state.is_over():
            seat = state.current_player()
            state.apply(bot.choose(state.observation(seat), state.legal_moves(), rngs[seat]))
        state.returns()
    return games / (time.perf_counter() - started)


def main() -> None:
    print(f"games a second on one core, random bots, median of {ROUNDS} rounds of {GAMES} games")
    print("(baseline: one card each from a shuffled deck, through the same loop)")
    for name in sorted(MODULES):
        game = load_game(name)
        players = game.default_players
        rates, baseline = [], []
        for _ in range(ROUNDS):
            rates.append(games_a_second(game.new_state, players))
            baseline.append(games_a_second(HighCard, players))
        rate, base = statistics.median(rates), statistics.median(baseline)
        verdict = "ok" if rate >= 500 else "UNDER the 500 target"
        seats = f"{players} player{'s' * (players != 1)}"
        print(f"  {name:8} {seats:9}: {rate:8,.0f} games/s   baseline {base:8,.0f}/s   "
              f"ratio {rate / base:.3f}   {verdict}")


def peak_of_a_run(games: int) -> None:
    """In this process: play ``games`` games of FASTEST as `cardkit simulate --report` keeps
    them, and print the seconds and the peak resident memory in MB."""
    from cardkit.playtest.run_setup import BotSpec, Setup
    from cardkit.playtest.runner import play_into
    from cardkit.playtest.summary import summarise
    from cardkit.playtest.tally import GameRows, Tally

    game = load_game(FASTEST)
    setup = Setup(FASTEST, game.default_players, 1, (BotSpec("random"),) * game.default_players)
    tally = Tally(setup.players, GameRows())
    started = time.perf_counter()
    play_into([setup], games, lambda run, start, chunk: tally.add(chunk), workers=2)
    summarise(setup, tally, 0.0)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KB on Linux
    print(f"{time.perf_counter() - started:.1f} {peak:.1f}")


def memory() -> None:
    print(f"peak memory of a run of {FASTEST} (random bots, 2 workers; the parent process)")
    first = None
    for games in MEMORY_RUNS:
        done = subprocess.run([sys.executable, __file__, "--peak", str(games)],
                              capture_output=True, text=True, check=True)
        seconds, peak = map(float, done.stdout.split())
        first = first or peak
        print(f"  {games:>9,} games: {peak:6.1f} MB, {peak / first:.2f} x the first, "
              f"{seconds:7.1f} s")


if __name__ == "__main__":
    if sys.argv[1:2] == ["--peak"]:
        peak_of_a_run(int(sys.argv[2]))
    else:
        main()
        memory()
