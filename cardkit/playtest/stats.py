"""The interval every figure of a simulation carries: Wilson's for a share."""

from __future__ import annotations

import math

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
