"""Benchmark (run with `make bench`): the search bot's cost and the heuristic bots' speed.

1. The search bot's cost per iteration against its floor, per game: from the same states
   (each game's default players, a few random moves in), the time of one search iteration
   (sample the hidden cards, walk the tree, play out, back up) against a bare random
   playout from a copy of the state, made before the clock starts. Rounds alternate; the
   median of the rounds' ratios is printed with their spread.
   Target (issue 28): at most 2x the floor.
2. Heuristic bots in every seat: games a second on one core, through the runner, beside
   random bots in every seat (what the game itself costs).
   Target (issue 28): at least 500 games a second a core.
"""

from __future__ import annotations

import copy
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cardkit.games import MODULES, load_game  # noqa: E402
from cardkit.playtest.runner import BotSpec, Setup, play_into, play_many  # noqa: E402
from cardkit.playtest.stats import wilson  # noqa: E402
from cardkit.playtest.tally import Tally  # noqa: E402
from cardkit.toolkit.search import SearchBot  # noqa: E402

STATES, ITERATIONS, ROUNDS, HEURISTIC_GAMES = 20, 50, 5, 600


def positions(game, count: int) -> list:
    """``count`` states of ``game`` where the player to move has a choice, a few random
    moves into a game."""
    found, index = [], 0
    while len(found) < count:
        rng = random.Random(f"position:{index}")
        state = game.new_state(game.default_players, rng)
        for _ in range(rng.randrange(1, 8)):
            if state.is_over():
                break
            legal = state.legal_moves()
            state.apply(legal[rng.randrange(len(legal))])
        if not state.is_over() and len(state.legal_moves()) > 1:
            found.append(state)
        index += 1
    return found


def playout(state, rng) -> None:
    while not state.is_over():
        legal = state.legal_moves()
        state.apply(legal[rng.randrange(len(legal))])


def search_seconds(states) -> float:
    """Seconds an iteration of the search bot, over ``states``."""
    bot = SearchBot(iterations=ITERATIONS)
    started = time.perf_counter()
    for index, state in enumerate(states):
        seat, rng = state.current_player(), random.Random(index)
        bot.choose(None, state.legal_moves(), rng,
                   lambda r, state=state, seat=seat: state.determinized(seat, r))
    return (time.perf_counter() - started) / (len(states) * ITERATIONS)


def floor_seconds(states) -> float:
    """Seconds a bare random playout from a copy of each of ``states``."""
    copies = [copy.deepcopy(state) for state in states for _ in range(ITERATIONS)]
    rng = random.Random(0)
    started = time.perf_counter()
    for state in copies:
        playout(state, rng)
    return (time.perf_counter() - started) / len(copies)


def rate(name: str, players: int, bot: str) -> float:
    """Games a second with ``bot`` in every seat, through the runner, one worker."""
    setup = Setup(name, players, 1, (BotSpec(bot),) * players)
    started = time.perf_counter()
    play_many(setup, HEURISTIC_GAMES, workers=1)
    return HEURISTIC_GAMES / (time.perf_counter() - started)


def spec_of(text: str) -> BotSpec:
    """'search:playout=heuristic,iterations=100' as a BotSpec."""
    name, _, rest = text.partition(":")
    params = []
    for item in filter(None, rest.split(",")):
        key, _, value = item.partition("=")
        params.append((key, value if value.isidentifier() else float(value)))
    return BotSpec(name, tuple(params))


def strength(name: str, bot: str, games: int, workers: int = 1, seed: int = 1) -> dict:
    """``bot`` in seat 0 against the game's heuristic bot in the others (alone, in a
    solitaire game): its share of the decided games (of all games alone), the 95%
    interval, and seconds a game on one core."""
    players = load_game(name).default_players
    setup = Setup(name, players, seed, (spec_of(bot),) + (BotSpec("heuristic"),) * (players - 1))
    tally = Tally(players)
    started = time.process_time()
    clock = time.perf_counter()
    play_into([setup], games, lambda _, start, chunk: tally.add(chunk), workers)
    seconds = (time.perf_counter() - clock) * workers if workers > 1 else \
        time.process_time() - started
    base = tally.games if players == 1 else tally.decided
    low, high = wilson(tally.wins[0], base)
    return {"game": name, "bot": bot, "games": games, "share": tally.wins[0] / base,
            "low": low, "high": high, "seconds": seconds / games}


def main() -> None:
    print(f"the search bot's cost: an iteration against a bare random playout from the same "
          f"state\n({STATES} states a game, {ITERATIONS} iterations each, median of "
          f"{ROUNDS} rounds' ratios, with their spread)")
    for name in sorted(MODULES):
        game = load_game(name)
        states = positions(game, STATES)
        searched, floors = [], []
        for _ in range(ROUNDS):
            searched.append(search_seconds(states))
            floors.append(floor_seconds(states))
        ratios = sorted(s / f for s, f in zip(searched, floors))
        ratio = statistics.median(ratios)
        verdict = "ok" if ratio <= 2 else "OVER the 2x target"
        print(f"  {name:8}: {statistics.median(searched) * 1e6:7,.0f} us an iteration   "
              f"floor {statistics.median(floors) * 1e6:7,.0f} us   ratio {ratio:.2f}x "
              f"({ratios[0]:.2f}-{ratios[-1]:.2f})   {verdict}")
    print(f"\nheuristic bots in every seat: games a second on one core (median of {ROUNDS} "
          f"runs of {HEURISTIC_GAMES}),\nbeside random bots in the same run: the game's own cost")
    for name in sorted(MODULES):
        players = load_game(name).default_players
        heuristic = statistics.median(rate(name, players, "heuristic") for _ in range(ROUNDS))
        random_bots = statistics.median(rate(name, players, "random") for _ in range(ROUNDS))
        verdict = "ok" if heuristic >= 500 else "UNDER the 500 target"
        print(f"  {name:8} {players} player(s): {heuristic:6,.0f} games/s   random bots "
              f"{random_bots:6,.0f}/s   {verdict}")


if __name__ == "__main__":
    if sys.argv[1:2] == ["--strength"]:  # one line of the ablation: GAME BOT GAMES
        print(strength(sys.argv[2], sys.argv[3], int(sys.argv[4])), flush=True)
    else:
        main()
