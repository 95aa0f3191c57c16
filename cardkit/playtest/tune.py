"""What should I change? Search what the designer lets vary (``--vary``: card counts,
constants of the rules file, bot parameters) for settings that meet the targets they name
(``--target``), then check the best few with fresh games.

A target is written ``NAME=BOUND``, each name with one direction, so that no ``<`` or
``>`` needs quoting from the shell:

- ``seats=5``: every seat's share of the decided games within 5 percentage points of fair;
- ``length=8..12``: the mean length (turns where the game counts them, else moves);
- ``nobody=5``: nobody wins at most 5% of the games;
- ``card-edge=5``: no card stands out (the card verdict) by more than 5 points;
- ``skill=10``: search (25 iterations a move) wins at least 10 points more than a fair
  share against random play, the bots moved round the seats.

A setting's distance is how far its figures fall outside the targets, summed (points, or
the length's unit): 0 meets them all; the search ranks by it with each figure at the
far end of its 95% interval (:func:`sure_distance`). optuna's TPE sampler proposes the points, in
batches; each batch is played, each point from seeds of its own, by successive halving (every point RUNGS[0] games, the best
third RUNGS[1] more, the best third of those RUNGS[2] more), so that promising points get
more games, and optuna is told each point's distance at the deepest rung it reached. The
best few settings are then played again from seeds the search never used, with today's
setting, and each changed value moved back alone (the one-step check), so the figures and
intervals of the answer are not the lucky draws that made them win the search. A figure
meets its target when its whole 95% interval does (:func:`verdict`: else ``MISSED`` or
``within chance``).

>>> parse_target("length=8..12")
Target(name='length', low=8.0, high=12.0)
>>> miss(Target("seats", 0, 5.0), 7.5), miss(Target("skill", 10.0, 100), 12.0)
(2.5, 0.0)
"""

from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass, field
from statistics import NormalDist

from .stats import mean_interval, wilson
from .sweep import SweepError, parse

RUNGS = (50, 100, 300)  # games a rung adds to a point: 50, then 150 and 450 in all
SEAT_LEVEL = 0.05  # the chance that any seat's share falls outside the seats interval
BATCH = 27  # points a batch: a third go on at each of the three rungs (27, 9, 3)
FINALISTS = 3  # settings checked with fresh games
SEARCH_SEED = 1000  # the search plays from seeds past seed + this (point_seed); fresh games from seed
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


def matters(targets, suggested: dict, moved: dict,
            rows: dict | None = None) -> tuple[list[str], bool]:
    """The one-step check of a changed value: the targets the suggestion meets and the
    setting with the value moved back misses, and whether moving it back matters: it
    misses a target, or falls further outside them beyond chance. With ``rows`` (the
    paired comparison of the two settings' games, played from the same seeds: what
    :func:`paired_rows` gives), a figure falls further outside beyond chance when its
    paired interval says it moved away from the target; without, when the distances'
    difference is beyond 1.96 standard errors, each figure's from its interval.

    >>> seats = [Target("seats", 0, 5.0)]
    >>> def off(points):
    ...     return {"seats": Figure(points, (points - 2, points + 2), "")}
    >>> matters(seats, off(6.0), off(8.0)), matters(seats, off(6.0), off(15.0))
    (([], False), ([], True))
    """
    lost = [t.name for t in targets
            if miss(t, suggested[t.name].value) == 0 < miss(t, moved[t.name].value)]
    if rows is not None and all(t.name in PAIRED for t in targets):
        return lost, bool(lost) or any(
            miss(t, moved[t.name].value) > miss(t, suggested[t.name].value)
            and _moved_away(t, rows) for t in targets)
    apart = distance(targets, moved) - distance(targets, suggested)
    halves = [(found[t.name].interval[1] - found[t.name].interval[0]) / 2
              for t in targets if miss(t, suggested[t.name].value) or
              miss(t, moved[t.name].value) for found in (suggested, moved)]
    return lost, bool(lost) or apart > math.sqrt(sum(h * h for h in halves))


PAIRED = ("seats", "length", "nobody")  # the targets the paired one-step check reads


def paired_rows(setup, suggested: Point, moved: Point) -> dict | None:
    """The figures of the setting ``moved`` back against the ``suggested`` one, their fresh
    games paired by index (the same seeds, as ``--compare`` pairs two decks): the change
    of each seat's share (``seats``, with the fair share), of nobody winning and of the
    length, each with its paired 95% interval; None where the games cannot be paired."""
    from .compare import Pairs, compare
    from .summary import summarise

    if not suggested.games or sorted(suggested.games) != sorted(moved.games):
        return None
    pairs = Pairs(setup.players)
    for start in sorted(suggested.games):
        pairs.add(suggested.games[start], moved.games[start])
    summaries = [summarise(setup, point.tallies[0], 0.0) for point in (suggested, moved)]
    rows = compare(*summaries, pairs)["rows"]
    return {"seats": rows[:setup.players], "fair": summaries[0]["fair_share"],
            "nobody": next((row for row in rows if row["what"] == "nobody wins"), None),
            "length": next(row for row in rows if row["what"] == "length")}


def _moved_away(target: Target, rows: dict) -> bool:
    """Whether the paired comparison says the moved-back setting's figure for ``target``
    went away from it beyond chance: the seat furthest from a fair share further from it,
    more games nobody wins, a length further outside the range."""
    if target.name == "seats":
        fair = rows["fair"] if len(rows["seats"]) > 1 else 0.5
        seat = max(rows["seats"], key=lambda row: abs(row["b"] - fair))
        return seat["significant"] and abs(seat["b"] - fair) > abs(seat["a"] - fair)
    row = rows[target.name]
    if row is None or not row["significant"]:
        return False
    if target.name == "nobody":
        return row["change"] > 0
    return miss(target, row["b"]) > miss(target, row["a"])


@dataclass
class Point:
    """A setting the search played: its values (one a knob), its games a setup
    (the game's, and with a skill target the search-against-random one), its distance at
    the deepest rung it reached."""

    values: tuple
    tallies: list = field(default_factory=list)
    rung: int = -1  # the deepest rung played
    distance: float = math.inf
    figures: dict = field(default_factory=dict)
    games: dict = field(default_factory=dict)  # fresh games only: start -> the game's chunk


def search(knobs: list[Knob], today: tuple, targets: list[Target], trials: int, seed: int,
           play, measure, rungs=RUNGS, batch: int = BATCH) -> list[Point]:
    """Every point tried, the best first (least :func:`sure_distance` at the deepest rung
    reached, then fewest changes from ``today``). ``play(points, games, seed)`` plays
    ``games`` more games of each point (adding to its tallies); ``measure(point)`` gives
    its figures."""
    import optuna

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    study = optuna.create_study(sampler=optuna.samplers.TPESampler(
        seed=seed, n_startup_trials=min(batch, max(1, trials // 3))))
    if all(value in knob.values for knob, value in zip(knobs, today)):
        study.enqueue_trial({knob.what: value for knob, value in zip(knobs, today)})
    points: dict[tuple, Point] = {}
    asked = 0
    while asked < trials:
        batch_trials = [study.ask() for _ in range(min(batch, trials - asked))]
        asked += len(batch_trials)
        chosen = [tuple(_suggest(trial, knob) for knob in knobs) for trial in batch_trials]
        alive = list(range(len(batch_trials)))
        for rung, games in enumerate(rungs):
            due = {values: points.setdefault(values, Point(values)) for values in
                   (chosen[i] for i in alive)}
            behind = [point for point in due.values() if point.rung < rung]
            if behind:
                # each point from seeds of its own: one seed's luck would shift every
                # estimate of a rung together, and drop settings near the truth with it
                play(behind, games, [point_seed(seed, rung, list(points).index(point.values))
                                     for point in behind])
                for point in behind:
                    point.rung, point.figures = rung, measure(point)
                    point.distance = sure_distance(targets, point.figures)
            for i in alive:
                batch_trials[i].report(points[chosen[i]].distance, sum(rungs[:rung + 1]))
            if rung + 1 < len(rungs):
                ranked = sorted(alive, key=lambda i: (points[chosen[i]].distance, i))
                kept = ranked[:max(1, math.ceil(len(ranked) / 3))]
                for i in ranked[len(kept):]:
                    study.tell(batch_trials[i], state=optuna.trial.TrialState.PRUNED)
                alive = sorted(kept)
        for i in alive:
            study.tell(batch_trials[i], points[chosen[i]].distance)
    return sorted(points.values(), key=lambda p: (-p.rung, p.distance,
                                                  changes(knobs, today, p.values)))


def point_seed(seed: int, rung: int, number: int) -> int:
    """The seed the search plays rung ``rung`` of its ``number``-th point from: one no
    other point, rung or the fresh games (``seed``) play.

    >>> len({point_seed(1, rung, number) for rung in range(3) for number in range(500)})
    1500
    """
    return seed + SEARCH_SEED + rung * 1_000_003 + number * 3 + 1


def _suggest(trial, knob: Knob):
    values = knob.values
    whole = all(float(v).is_integer() for v in values)
    if whole and list(values) == list(range(int(values[0]), int(values[-1]) + 1)):
        chosen = trial.suggest_int(knob.what, int(values[0]), int(values[-1]))
        return type(values[0])(chosen)
    return trial.suggest_categorical(knob.what, list(values))


def changes(knobs: list[Knob], today: tuple, values: tuple) -> int:
    return sum(value != was for value, was in zip(values, today))


def change_text(knob: Knob, was, value) -> str:
    """'Dragon x3 -> x2' for a count, 'HAND 5 -> 4' for a constant or a parameter."""
    if knob.kind == "count":
        name = ",".join(v if f == "card_name" else (v if f == "name" else f"{f}={v}")
                        for f, v in knob.key[1])
        shown = "mixed" if was is None else f"x{was:g}"
        return f"{name} {shown} -> x{value:g}" + (" each" if knob.key[0] == "each" else "")
    return f"{knob.what} {'?' if was is None else f'{was:g}'} -> {value:g}"


def step_said(step: dict) -> str:
    """A one-step check in a sentence.

    >>> step_said({"back": "HAND 4 -> 5", "distance": 2.1, "matters": True, "closer": False,
    ...            "lost": ["seats"]})
    'HAND 4 -> 5 alone: 2.1 outside the targets: this part matters (seats missed without it)'
    >>> step_said({"back": "Imp x3 -> x2", "distance": 0.0, "matters": False, "closer": True,
    ...            "lost": []}).split(": ")[-1]
    'leave this part out'
    """
    if not step["matters"] and step["closer"]:
        verdict = "closer to the targets without it: leave this part out"
    elif not step["matters"]:
        verdict = "without it the figures move within chance: this part alone does not matter"
    elif step["lost"]:
        verdict = f"this part matters ({', '.join(step['lost'])} missed without it)"
    else:
        verdict = "this part matters (further outside the targets without it, beyond chance)"
    return f"{step['back']} alone: {step['distance']:.1f} outside the targets: {verdict}"


def finalists(points: list[Point], today: tuple, count: int = FINALISTS) -> list[Point]:
    """The best ``count`` settings that change something from today."""
    return [point for point in points if point.values != today][:count]


def one_step(values: tuple, today: tuple) -> list[tuple[int, tuple]]:
    """(knob, setting) for each changed value moved back to today's alone."""
    return [(k, values[:k] + (today[k],) + values[k + 1:])
            for k, (value, was) in enumerate(zip(values, today)) if value != was]


def tune_and_check(setups_for, today: tuple, knobs: list[Knob], targets: list[Target],
                   trials: int, games: int, setup, workers: int = 1, executor=None,
                   progress=None, rungs=None, batch: int = BATCH) -> dict:
    """Search, then play today's setting, the finalists and their one-step checks
    ``games`` fresh games each (from ``setup.seed``, which the search never plays): the
    answer as plain data (what summary.json's ``tune`` holds). ``setups_for(values)``
    gives a setting's runs (the game's, then search against random for a skill target);
    ``progress(games)`` a progress bar (a context manager with ``update``)."""
    from contextlib import nullcontext
    from dataclasses import replace

    from .runner import play_into
    from .summary import summarise
    from .tally import Tally

    played, rungs = [0], rungs or RUNGS

    def play(points, count, seeds, keep=False):
        """``count`` more games of each point, from its seed in ``seeds``, into its
        tallies (``keep``: and its games, for the one-step check's pairs)."""
        seed_of = {point.values: seed for point, seed in zip(points, seeds)}

        def take(run, start, chunk):
            point, index = runs[run]
            point.tallies[index].add(chunk)
            if keep and index == 0:
                point.games[start] = chunk

        runs = [(point, index) for point in points
                for index in range(len(setups_for(point.values)))]
        for point in points:
            point.tallies = point.tallies or [Tally(s.players, rotated=s.rotate)
                                              for s in setups_for(point.values)]
        with (progress or (lambda n: nullcontext(None)))(count * len(runs)) as bar:
            play_into([replace(setups_for(p.values)[i], seed=seed_of[p.values])
                       for p, i in runs], count,
                      take, workers, bar.update if bar else None, executor)
        played[0] += count * len(runs)

    def measure(point):
        summaries = [summarise(s, t, 0.0) for s, t in zip(setups_for(point.values),
                                                          point.tallies)]
        return figures(targets, summaries[0], point.tallies[0].lengths,
                       summaries[1] if len(summaries) > 1 else None)

    points = search(knobs, today, targets, trials, setup.seed, play, measure, rungs, batch)
    fresh: dict[tuple, Point] = {}

    def check(settings):
        """Play the settings not yet checked ``games`` fresh games each, from the seed
        the search never played."""
        new = [fresh.setdefault(values, Point(values)) for values in settings
               if values not in fresh]
        if new:  # all from the same seed: the one-step check compares them game by game
            play(new, games, [setup.seed] * len(new), keep=True)
        for point in new:
            point.figures = measure(point)
            point.distance = distance(targets, point.figures)

    searched = played[0]
    best = [point.values for point in finalists(points, today)]
    check([today, *best, *(back for values in best for _, back in one_step(values, today))])
    # a one-step setting as good as its finalist with fewer changes is the better answer
    best = sorted((values for values in fresh if values != today),
                  key=lambda v: (fresh[v].distance, changes(knobs, today, v)))[:FINALISTS]
    check([back for values in best for _, back in one_step(values, today)])
    unit = summarise(setups_for(today)[0], fresh[today].tallies[0], 0.0)["length_unit"]

    def shown(point):
        return {t.name: {"value": point.figures[t.name].value,
                         "interval": list(point.figures[t.name].interval),
                         "said": point.figures[t.name].said,
                         "verdict": verdict(t, point.figures[t.name]),
                         "met": verdict(t, point.figures[t.name]) == MET} for t in targets}

    def values(point):
        return {k.what: v for k, v in zip(knobs, point.values)}

    suggestions = []
    for point in map(fresh.get, best):
        checked = point
        steps = []
        for k, back in one_step(point.values, today):
            moved = fresh[back]
            lost, mattering = matters(targets, checked.figures, moved.figures,
                                      paired_rows(setups_for(today)[0], checked, moved))
            steps.append({"knob": knobs[k].what,
                          "back": change_text(knobs[k], point.values[k], today[k]),
                          "distance": moved.distance, "figures": shown(moved), "lost": lost,
                          "matters": mattering,
                          "closer": moved.distance < checked.distance})
        suggestions.append({
            "changes": [change_text(k, was, v) for k, was, v in zip(knobs, today, point.values)
                        if v != was],
            "values": values(point), "distance": checked.distance,
            "within": all(verdict(t, checked.figures[t.name]) == MET for t in targets),
            "missed": any(verdict(t, checked.figures[t.name]) == MISSED for t in targets),
            "figures": shown(checked), "one_step": steps})
    return {
        "game": setup.game, "players": setup.players, "seed": setup.seed,
        "bots": [str(b) for b in setup.bots], "length_unit": unit,
        "targets": [{"target": t.name, "said": t.said(unit)} for t in targets],
        "vary": [k.text for k in knobs], "trials": trials, "rungs": list(rungs),
        "fresh_games": games, "games_searched": searched,
        "today": {"values": values(fresh[today]), "distance": fresh[today].distance,
                  "within": all(verdict(t, fresh[today].figures[t.name]) == MET
                                for t in targets),
                  "figures": shown(fresh[today])},
        "suggestions": suggestions,
        "points": [{"values": values(p), "distance": p.distance,
                    "games": sum(rungs[:p.rung + 1])} for p in points]}
