"""The seat verdict is calibrated (issue 38, item 1): on games whose answer is known, run
many times from fixed seeds, it names a seat at most at the rate it states, and finds a
seat that really is off.

The oracle is the games' known answer: seat wins drawn as a fair (or planted) multinomial,
which is what a game of chance with no seat advantage gives among its decided games."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import binom

from cardkit.playtest.stats import wilson
from cardkit.playtest.summary import ALPHA, seats_off

RUNS = 400  # of each known game: enough that 5% and 16% are far apart
GAMES = 1000  # decided games a run


def _runs(shares: list[float], runs: int = RUNS, games: int = GAMES, seed: int = 38):
    return np.random.default_rng(seed).multinomial(games, shares, size=runs)


def _most_false_alarms(runs: int) -> int:
    """The most runs that may name a seat if the verdict errs at ALPHA: exceeded by chance
    in one test of a thousand."""
    return int(binom.ppf(0.999, runs, ALPHA))


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_a_fair_game_names_a_seat_at_most_at_the_stated_rate(players):
    fair = 1 / players
    named = sum(bool(seats_off(list(wins), GAMES, fair)) for wins in _runs([fair] * players))
    assert named <= _most_false_alarms(RUNS), f"{named} of {RUNS} runs named a seat"


def test_each_seat_tested_alone_would_raise_false_alarms_far_above_it():
    """The rule this replaces (a seat named when its own 95% interval leaves the fair share
    out) fails the same check: the check can tell."""
    fair = 0.25
    named = sum(any(not (low <= fair <= high)
                    for low, high in (wilson(won, GAMES) for won in wins))
                for wins in _runs([fair] * 4))
    assert named > _most_false_alarms(RUNS), named


def test_a_seat_that_is_off_is_found():
    """Seat 0 wins 30% of a four-seat game's decided games, not 25%: at 2,000 games it is
    named in at least 80% of runs, and the fair seats hardly ever."""
    shares = [0.30] + [0.70 / 3] * 3
    found = [seats_off(list(wins), 2000, 0.25) for wins in _runs(shares, 200, 2000)]
    assert sum(0 in off for off in found) >= 0.8 * 200
