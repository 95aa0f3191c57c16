"""What ``--tune`` aims at and how it judges a setting: the targets the designer names
(``--target``), what may vary (``--vary``), each setting's figures with their 95%
intervals, and how far they fall outside the targets.

A target is written ``NAME=BOUND``, each name with one direction, so that no ``<`` or
``>`` needs quoting from the shell:

- ``seats=5``: every seat's share of the decided games within 5 percentage points of fair;
- ``length=8..12``: the mean length (turns where the game counts them, else moves);
- ``nobody=5``: nobody wins at most 5% of the games;
- ``card-edge=5``: no card stands out (the card verdict) by more than 5 points;
- ``skill=10``: search (25 iterations a move) wins at least 10 points more than a fair
  share against random play, the bots moved round the seats.

A setting's distance is how far its figures fall outside the targets, summed (points, or
the length's unit): 0 meets them all. A figure meets its target when its whole 95%
interval does (:func:`verdict`: else ``MISSED`` or ``within chance``).

>>> parse_target("length=8..12")
Target(name='length', low=8.0, high=12.0)
>>> miss(Target("seats", 0, 5.0), 7.5), miss(Target("skill", 10.0, 100), 12.0)
(2.5, 0.0)
"""

from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass
from statistics import NormalDist

from .stats import mean_interval, wilson
from .sweep import SweepError, parse

SEAT_LEVEL = 0.05  # the chance that any seat's share falls outside the seats interval
SKILL_BOT = ("search", (("iterations", 25.0),))
TARGETS = {  # name -> (what it bounds, its unit, whether the bound is a range)
    "seats": ("each seat within {high:g} points of a fair share", "points", False),
    "length": ("a mean length of {low:g} to {high:g} {unit}", "", True),
    "nobody": ("nobody wins at most {high:g}% of the games", "points", False),
    "card-edge": ("no card stands out by more than {high:g} points", "points", False),
    "skill": ("search beats random play by at least {low:g} points", "points", False),
}
_RANGE = re.compile(r"^(\d+(?:\.\d+)?)\.\.(\d+(?:\.\d+)?)$")


class TuneError(SweepError):
    """A target or a range that cannot be used: what, and how to write it."""


@dataclass(frozen=True)
class Target:
    name: str
    low: float  # skill and length: the least wanted
    high: float  # the most wanted (length, seats, nobody, card-edge)

    def said(self, unit: str = "turns") -> str:
        return TARGETS[self.name][0].format(low=self.low, high=self.high, unit=unit)


def parse_target(text: str) -> Target:
    """The target ``text`` names; TuneError says what is wrong and how to write it."""
    name, equals, bound = text.partition("=")
    if name not in TARGETS:
        from ..common.errors import did_you_mean

        raise TuneError(f"--target {text!r}: no target '{name}'",
                        did_you_mean(name, TARGETS, "use one of: " + ", ".join(TARGETS))
                        + " (e.g. seats=5, length=8..12, nobody=5, card-edge=5, skill=10)")
    if name == "length":
        found = _RANGE.match(bound)
        if not found:
            raise TuneError(f"--target {text!r}: {bound!r} is not a range of lengths",
                            "write length=LOW..HIGH, e.g. length=8..12")
        low, high = float(found[1]), float(found[2])
        if low > high:
            raise TuneError(f"--target {text!r}: {bound} is empty (it runs backwards)",
                            f"write the smaller number first: length={found[2]}..{found[1]}")
        return Target(name, low, high)
    try:
        value = float(bound)
    except ValueError:
        value = math.nan
    if not equals or not 0 <= value <= 100:
        raise TuneError(f"--target {text!r}: {bound!r} is not a number of points from 0 "
                        "to 100", f"write {name}=NUMBER, e.g. {name}=5")
    return Target(name, value, 100.0) if name == "skill" else Target(name, 0.0, value)


@dataclass(frozen=True)
class Knob:
    """One thing the search may vary: a sweep's WHAT (its kind and key) and values."""

    text: str  # as given, e.g. 'count[name=Dragon]=0..3'
    what: str  # 'count[name=Dragon]'
    kind: str  # 'count' or 'param' (a constant of the rules, or a bot parameter)
    key: object
    values: tuple


def parse_vary(text: str) -> Knob:
    """A ``--vary`` as a sweep is written, with at least two values and not the player
    count (every target is a figure of one player count)."""
    try:
        sweep = parse(text)
    except SweepError as error:
        raise TuneError(error.what.replace("--sweep", "--vary", 1), error.fix) from None
    what = text.rsplit("=", 1)[0]
    if sweep.kind == "players":
        raise TuneError(f"--vary {text!r}: the player count is not tuned (each target is "
                        "of one player count)", "tune at each count with --players P, or "
                        "compare counts with --sweep players=2..5")
    if len(set(sweep.values)) < 2:
        raise TuneError(f"--vary {text!r}: one value, so nothing to vary",
                        f"give a range or a list, e.g. {what}=1..4 or {what}=0.1,0.3")
    return Knob(text, what, sweep.kind, sweep.key, tuple(sweep.values))


def miss(target: Target, value: float) -> float:
    """How far ``value`` falls outside ``target`` (0 within it)."""
    return max(0.0, target.low - value, value - target.high)


@dataclass
class Figure:
    """A target's figure in a setting's games: its value, 95% interval and a phrase."""

    value: float
    interval: tuple[float, float]
    said: str


def figures(targets, summary: dict, lengths: Counter, skill_summary: dict | None) -> dict:
    """Each target's :class:`Figure` from a setting's summary (and the lengths of its
    games; ``skill_summary``: its search-against-random games)."""
    found = {}
    for target in targets:
        if target.name == "seats":
            found["seats"] = seats_figure(summary)
        elif target.name == "length":
            centre, low, high = mean_interval(lengths)
            found["length"] = Figure(centre, (low, high),
                                     f"length: {centre:.1f} {summary['length_unit']}"
                                     + _within((low, high)))
        elif target.name == "nobody":
            games = summary["games"]
            low, high = wilson(games - summary["decided"], games)
            found["nobody"] = Figure(summary["nobody_won"] * 100, (low * 100, high * 100),
                                     f"nobody wins {summary['nobody_won']:.1%} of the games"
                                     + _within((low * 100, high * 100), "%"))
        elif target.name == "card-edge":
            found["card-edge"] = _card_edge(summary.get("cards") or [])
        else:
            bot = next(b for b in skill_summary["bot_shares"] if b["bot"].startswith("search"))
            value = (bot["share"] - bot["fair_share"]) * 100
            interval = tuple((b - bot["fair_share"]) * 100 for b in bot["interval"])
            found["skill"] = Figure(value, interval, f"skill: search wins {bot['share']:.1%} "
                                    f"against random, {value:+.1f} points over a fair "
                                    f"{bot['fair_share']:.0%}{_within(interval)}")
    return found


def seats_figure(summary: dict) -> Figure:
    """How far the seat furthest from a fair share is from it, in points, with an
    interval that holds the largest of the seats' true distances 95% of the time: each
    seat's 95% interval widened to the 1 - 0.05 / k level (k: the seats whose shares are
    free, one fewer than the seats), so that the largest of several noisy shares is not
    read as one share.

    >>> seat = {"seat": 0, "share": 0.5, "share_interval": [0.45, 0.55]}
    >>> one = seats_figure({"fair_share": 0.5, "players": 2, "seats": [seat, {**seat, "seat": 1}]})
    >>> [round(b, 1) for b in one.interval]
    [0.0, 5.0]
    >>> four = seats_figure({"fair_share": 0.5, "players": 4, "seats": [seat] * 4})
    >>> round(four.interval[1], 1)  # widened for the largest of 3 free shares
    6.1
    """
    fair = summary["fair_share"] if summary["players"] > 1 else 0.5
    free = max(1, len(summary["seats"]) - 1)
    widen = NormalDist().inv_cdf(1 - SEAT_LEVEL / 2 / free) / NormalDist().inv_cdf(0.975)
    lows, highs = [], []
    for seat in summary["seats"]:
        share, (low, high) = seat["share"], seat["share_interval"]
        low, high = max(0.0, share - (share - low) * widen), min(1.0, share + (high - share) * widen)
        apart = abs(low - fair) * 100, abs(high - fair) * 100
        lows.append(0.0 if low <= fair <= high else min(apart))
        highs.append(max(apart))
    seat = max(summary["seats"], key=lambda s: abs(s["share"] - fair))
    value, interval = abs(seat["share"] - fair) * 100, (max(lows), max(highs))
    return Figure(value, interval, f"seats: seat {seat['seat']} wins {seat['share']:.1%}, "
                  f"{value:.1f} points from a fair {fair:.0%} (the furthest of "
                  f"{len(summary['seats'])} seats){_within(interval)}")


def _card_edge(cards: list[dict]) -> Figure:
    """The card that stands out most beyond chance (the card verdict), by how many points
    a seat with it wins more (or less) than with another card; 0 when none does."""
    named = [(abs(card[event]["change"]), card["card"], event, card[event])
             for card in cards for event in ("drawn", "played", "held")
             if card[event]["significant"]]
    if not named:
        return Figure(0.0, (0.0, 0.0), "card edge: no card stands out beyond chance")
    size, name, event, figure = max(named, key=lambda n: n[0])
    low, high = sorted(abs(b) * 100 for b in figure["interval"])
    return Figure(size * 100, (low, high), f"card edge: a seat that has {name} {event} wins "
                  f"{figure['change'] * 100:+.1f} points against another card"
                  + _within(tuple(b * 100 for b in figure["interval"])))


def _within(interval, unit: str = "") -> str:
    return f" (95%: {interval[0]:.1f}{unit} to {interval[1]:.1f}{unit})"


MET, MISSED, CHANCE = "met", "MISSED", "within chance"


def verdict(target: Target, figure: Figure) -> str:
    """Whether a figure meets its target: ``met`` when its whole 95% interval lies within
    the target, ``MISSED`` when it lies wholly outside, else ``within chance`` (the games
    cannot tell).

    >>> seats = Target("seats", 0, 5.0)
    >>> [verdict(seats, Figure(v, (v - 1, v + 1), "")) for v in (3.0, 5.5, 7.0)]
    ['met', 'within chance', 'MISSED']
    """
    low, high = figure.interval
    if target.low <= low and high <= target.high:
        return MET
    if high < target.low or low > target.high:
        return MISSED
    return CHANCE


def distance(targets, found: dict) -> float:
    """How far a setting's figures fall outside the targets, summed (0: within all)."""
    return sum(miss(target, found[target.name].value) for target in targets)


def sure_distance(targets, found: dict) -> float:
    """As :func:`distance`, each figure taken at the end of its 95% interval furthest
    into the miss: what the search ranks by, so that of two settings that both look
    within the targets the one surely within wins, not the luckier draw."""
    return sum(max(0.0, target.low - found[target.name].interval[0],
                   found[target.name].interval[1] - target.high) for target in targets)
