"""The verdicts are calibrated (issue 38, item 1): on games whose answer is known, run
many times from fixed seeds, the seat, compare and skill sentences name something at most
at the rate they state, and find what really is off.

The oracle is the games' known answer: seat wins drawn as a fair (or planted) multinomial,
which is what a game of chance with no seat advantage gives among its decided games."""

from __future__ import annotations

import numpy as np
import pytest

from cardkit.playtest.compare import verdict
from cardkit.playtest.stats import Z95, wilson
from cardkit.playtest.summary import ALPHA, seats_off

RUNS = 400  # of each known game: enough that 5% and 16% are far apart
GAMES = 1000  # decided games a run


def _runs(shares: list[float], runs: int = RUNS, games: int = GAMES, seed: int = 38):
    return np.random.default_rng(seed).multinomial(games, shares, size=runs)


def _most_false_alarms(runs: int) -> int:
    """The most runs that may name a seat if the verdict errs at ALPHA: exceeded by chance
    in one test of a thousand."""
    from scipy.stats import binom  # here: it takes two seconds to load, in every worker

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


def _null_rows(rng, figures: int = 11) -> list[dict]:
    """One comparison of two decks that play alike: each figure's change is chance alone,
    with its honest 95% interval (the standard errors differ from figure to figure)."""
    rows = []
    for se in rng.uniform(0.01, 2.0, size=figures):
        change = rng.normal(0.0, se)
        rows.append({"what": "x", "unit": "a game", "change": change,
                     "interval": [change - Z95 * se, change + Z95 * se],
                     "significant": abs(change) > Z95 * se})
    return rows


def test_the_compare_verdict_names_a_change_at_most_at_the_stated_rate():
    """Eleven figures compared, nothing changed: the verdict names one in at most 5% of
    comparisons; firing on any row's own interval, as before, named one in about 40%."""
    rng = np.random.default_rng(38)
    comparisons = [_null_rows(rng) for _ in range(RUNS)]
    named = sum(verdict(rows).startswith("B changes") for rows in comparisons)
    assert named <= _most_false_alarms(RUNS), named
    assert sum(any(row["significant"] for row in rows) for rows in comparisons) > \
        _most_false_alarms(RUNS)
    moved = _null_rows(rng)
    moved[3].update(change=5.0, interval=[4.0, 6.0])  # a real change is still named
    assert verdict(moved).startswith("B changes") and "+5.00" in verdict(moved)


@pytest.mark.parametrize("players", [1, 4])
def test_a_game_of_pure_luck_says_skill_matters_at_most_at_the_stated_rate(players):
    """A ladder of five rungs where no bot plays better than another: each rung's wins are
    chance alone. "Skill matters" in at most 5% of ladders; a rung far above is found."""
    from cardkit.playtest.skill import Rung, verdict

    rng = np.random.default_rng(38)
    rate, games = (0.3, 200) if players == 1 else (1 / players, 200)

    def rung(won: int) -> Rung:
        return Rung("bot", "below", games, won / games, wilson(won, games), 0.0)

    said = sum(verdict([rung(w) for w in rng.binomial(games, rate, size=5)], players)
               .startswith("Skill matters") for _ in range(RUNS))
    assert said <= _most_false_alarms(RUNS), said
    steep = [rung(w) for w in rng.binomial(games, rate, size=4)] + [rung(int(games * 0.6))]
    assert verdict(steep, players).startswith("Skill matters")
