"""Physical lengths. Everything inside cardkit is in PostScript points (1/72 inch).

Users always write the unit: ``63.5mm``, ``2.5in``, ``9pt``; inside a layout a
percentage of the card (``50%``) is allowed too. A bare number is refused because a
sheet printed in the wrong unit is a sheet wasted.
"""

from __future__ import annotations

import math
import re

MM = 72 / 25.4
INCH = 72.0
POINTS_PER_UNIT = {"mm": MM, "cm": 10 * MM, "in": INCH, "pt": 1.0}

_LENGTH = re.compile(r"^\s*(-?\d+(?:\.\d+)?|-?\.\d+)\s*(mm|cm|in|pt|%)\s*$")

LENGTH_HELP = "write a number with its unit, e.g. '63.5mm', '2.5in' or '9pt'"
MAX_LENGTH = 10_000 * MM  # 10 m: more than any card, box, font or sheet needs, and far
# enough from a float's limits that sums and products of lengths stay finite


class UnitError(ValueError):
    """A length written without a unit, or not a length at all."""


def parse_length(text, percent_of: float | None = None) -> float:
    """Parse a length into points.

    >>> round(parse_length('25.4mm'), 6)
    72.0
    >>> parse_length('50%', percent_of=100.0)
    50.0
    >>> parse_length('12')
    Traceback (most recent call last):
    ...
    cardkit.common.units.UnitError: '12' has no unit
    >>> parse_length('9' * 400 + 'mm')
    Traceback (most recent call last):
    ...
    cardkit.common.units.UnitError: '99999999999999999999…' is too large to be a length
    >>> parse_length('20000mm')
    Traceback (most recent call last):
    ...
    cardkit.common.units.UnitError: '20000mm' is longer than anything on a card can be (10 m at most)
    """
    if isinstance(text, bool) or not isinstance(text, (str, int, float)):
        raise UnitError(f"{text!r} is not a length")
    shown = str(text) if len(str(text)) <= 30 else str(text)[:20] + "…"
    match = _LENGTH.match(str(text))
    if not match:
        if re.match(r"^\s*-?[\d.]+\s*$", str(text)):
            raise UnitError(f"'{shown}' has no unit")
        raise UnitError(f"'{shown}' is not a length")
    number, unit = float(match.group(1)), match.group(2)
    if not math.isfinite(number):
        raise UnitError(f"'{shown}' is too large to be a length")
    if unit == "%":
        if percent_of is None:
            raise UnitError(f"'{shown}': a percentage is not allowed here")
        length = number / 100 * percent_of
    else:
        length = number * POINTS_PER_UNIT[unit]
    if abs(length) > MAX_LENGTH:
        raise UnitError(f"'{shown}' is longer than anything on a card can be (10 m at most)")
    return length


def to_mm(points: float) -> float:
    """Points to millimetres.

    >>> to_mm(72.0)
    25.4
    """
    return points / MM
