"""The intervals a simulation's figures carry: Wilson's for a share, a normal one for a
difference of means; and a box plot's figures, all from how often each value came up."""

from __future__ import annotations

import math
from collections import Counter

Z95 = 1.959963984540054  # the normal quantile for a two-sided 95% interval


def wilson(wins: float, games: int) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate of ``wins`` in ``games``: unlike
    p ± 1.96·se it stays inside 0..1 and is honest for rare events and small runs. It
    holds the rate itself, also at 0 and 1, where floating point would put a bound a hair
    beyond it.

    >>> wilson(0, 300)[0], wilson(300, 300)[1]
    (0.0, 1.0)
    """
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * games)) / (1 + z2 / games)
    half = Z95 * math.sqrt(p * (1 - p) / games + z2 / (4 * games * games)) / (1 + z2 / games)
    return max(0.0, min(p, centre - half)), min(1.0, max(p, centre + half))


def holm(p_values: dict, alpha: float = 0.05) -> set:
    """The keys of ``p_values`` found beyond chance with all of them tested together
    (Holm's step-down correction): on data where nothing is off, some key is named in at
    most ``alpha`` of runs, however the tests depend on each other.

    >>> sorted(holm({"a": 0.001, "b": 0.02, "c": 0.04})), holm({"a": 0.03, "b": 0.04})
    (['a', 'b', 'c'], set())
    """
    found = set()
    for rank, key in enumerate(sorted(p_values, key=p_values.get)):
        if p_values[key] * (len(p_values) - rank) > alpha:
            break  # this key and every one after it are within chance
        found.add(key)
    return found


def benjamini_hochberg(p_values: dict, rate: float = 0.05) -> set:
    """The keys of ``p_values`` found beyond chance with a false-discovery rate of ``rate``
    (Benjamini and Hochberg's step-up rule): on data where nothing is off, some key is
    named in at most ``rate`` of runs; where some are off, at most ``rate`` of the keys
    named are named by chance, on average. It finds more than :func:`holm` among many
    tests.

    >>> sorted(benjamini_hochberg({"a": 0.01, "b": 0.04, "c": 0.045}))
    ['a', 'b', 'c']
    >>> benjamini_hochberg({"a": 0.03, "b": 0.5})
    set()
    """
    ordered = sorted(p_values, key=p_values.get)
    kept = 0
    for rank, key in enumerate(ordered, 1):
        if p_values[key] * len(ordered) <= rate * rank:
            kept = rank  # every key up to the last one under its line is found
    return set(ordered[:kept])


def mean(counts: Counter) -> float:
    """The mean of the values ``counts`` holds (value -> how often)."""
    return sum(value * count for value, count in counts.items()) / counts.total()


def mean_difference(a: Counter, b: Counter):
    """B's mean less A's, with a 95% normal interval from each side's own variance; each
    side's values as counts (value -> how often).

    >>> [round(x, 3) for x in mean_difference(Counter([1, 2, 3, 4]), Counter([2, 3, 4, 5]))]
    [1.0, -0.789, 2.789]
    """
    (mean_a, var_a), (mean_b, var_b) = _mean_var(a), _mean_var(b)
    half = Z95 * math.sqrt(var_a + var_b)
    return mean_b - mean_a, mean_b - mean_a - half, mean_b - mean_a + half


def mean_interval(counts: Counter) -> tuple[float, float, float]:
    """The mean of the values ``counts`` holds, with its 95% normal interval; (0, 0, 0)
    when it holds none.

    >>> [round(x, 3) for x in mean_interval(Counter([1, 2, 3, 4]))]
    [2.5, 1.235, 3.765]
    """
    if not counts:
        return 0.0, 0.0, 0.0
    centre, variance = _mean_var(counts)
    half = Z95 * math.sqrt(variance)
    return centre, centre - half, centre + half


def _mean_var(counts: Counter) -> tuple[float, float]:
    """The mean of ``counts``' values and the variance of that mean."""
    centre, games = mean(counts), counts.total()
    spread = sum(count * (value - centre) ** 2 for value, count in counts.items())
    return centre, spread / max(1, games - 1) / games


def box(counts) -> dict:
    """A box plot's figures (matplotlib's ``bxp``) from the values ``counts`` holds (value
    -> how often), as ``boxplot`` finds them from every value: the quartiles interpolated,
    whiskers at the furthest values within 1.5 box lengths, the values beyond them drawn.

    >>> from collections import Counter
    >>> b = box(Counter({1: 1, 2: 2, 3: 1, 20: 1}))
    >>> b["q1"], b["med"], b["q3"], b["whislo"], b["whishi"], b["fliers"]
    (2.0, 2.0, 3.0, 1, 3, [20])
    """
    ordered = sorted(counts.items())
    total = sum(count for _, count in ordered)

    def at(rank: int):
        for value, count in ordered:
            rank -= count
            if rank < 0:
                return value

    def quantile(q: float) -> float:
        place = q * (total - 1)
        low, high = at(math.floor(place)), at(math.ceil(place))
        return low + (high - low) * (place - math.floor(place))

    q1, q3 = quantile(0.25), quantile(0.75)
    reach = 1.5 * (q3 - q1)
    low = min((value for value, _ in ordered if value >= q1 - reach), default=q1)
    high = max((value for value, _ in ordered if value <= q3 + reach), default=q3)
    low, high = min(low, q1), max(high, q3)  # never inside the box
    return {"med": quantile(0.5), "q1": q1, "q3": q3, "whislo": low, "whishi": high,
            "fliers": [value for value, _ in ordered if not low <= value <= high]}
