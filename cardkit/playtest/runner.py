"""Play games with bots, in parallel, reproducibly.

Game ``i`` of a run draws its chance from ``Random(f"{seed}:{i}")`` and the bot in seat
``s`` from ``Random(f"{seed}:{i}:{s}")``, so a game depends only on the seed and its index:
the same seed gives the same games whatever the number of worker processes. A worker gets
a :class:`Setup` (plain data) and a range of indexes, and returns plain results, so any
executor that can pickle them could take the work.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from ..common.processes import worker_pool
from ..games import load_game

MAX_MOVES = 100_000  # a game still going after this many moves has a bug: say so
CHUNK = 50  # games a worker plays per task: enough to amortise the hand-off


@dataclass(frozen=True)
class BotSpec:
    """A bot by name, with parameters that differ from its defaults."""

    name: str
    params: tuple[tuple[str, float], ...] = ()

    def __str__(self) -> str:
        return self.name + (":" + ",".join(f"{k}={v:g}" for k, v in self.params)
                            if self.params else "")


@dataclass(frozen=True)
class Setup:
    """Everything that decides a run's games, except which of them to play."""

    game: str
    players: int
    seed: int
    bots: tuple[BotSpec, ...]  # one a seat
    cards: object = None  # a designer's deck, from the game's cards_from_deck; None: bundled


@dataclass
class Result:
    """One finished game."""

    index: int
    returns: list[float]
    scores: list[float]
    length: int  # moves made
    figures: dict = field(default_factory=dict)


class NeverEnds(RuntimeError):
    """A game that made MAX_MOVES moves without ending: a bug in the game or a bot."""


def play_one(setup: Setup, index: int) -> Result:
    """Play game ``index`` of the run ``setup`` describes."""
    game = load_game(setup.game)
    state = game.new_state(setup.players, random.Random(f"{setup.seed}:{index}"), setup.cards)
    bots = [game.bots[spec.name](**dict(spec.params)) for spec in setup.bots]
    rngs = [random.Random(f"{setup.seed}:{index}:{seat}") for seat in range(setup.players)]
    moves = 0
    while not state.is_over():
        if moves == MAX_MOVES:
            raise NeverEnds(f"{setup.game} game {index} (seed {setup.seed}) made "
                            f"{MAX_MOVES:,} moves without ending")
        seat = state.current_player()
        state.apply(bots[seat].choose(state.observation(seat), state.legal_moves(), rngs[seat]))
        moves += 1
    return Result(index, list(state.returns()), list(state.scores()), moves, state.figures())


def play_range(setup: Setup, start: int, stop: int) -> list[Result]:
    return [play_one(setup, index) for index in range(start, stop)]


def play_many(setup: Setup, games: int, workers: int = 1, on_done=None) -> list[Result]:
    """Play games 0 .. games-1; ``on_done(n)`` is told after each n finished games. The
    results come back in game order, whatever the workers."""
    chunks = [(start, min(start + CHUNK, games)) for start in range(0, games, CHUNK)]
    results: list[Result] = []
    if workers <= 1 or len(chunks) == 1:
        for start, stop in chunks:
            results.extend(play_range(setup, start, stop))
            if on_done:
                on_done(stop - start)
        return results
    with worker_pool(workers) as pool:
        futures = [pool.submit(play_range, setup, start, stop) for start, stop in chunks]
        for future in futures:  # in order: the results stay in game order
            chunk = future.result()
            results.extend(chunk)
            if on_done:
                on_done(len(chunk))
    return results
