"""What should I change? Search what the designer lets vary (``--vary``: card counts,
constants of the rules file, bot parameters) for settings that meet the targets they name
(``--target``; :mod:`.tune_targets` says how each is written and judged), then check the
best few with fresh games.

The search ranks settings by their distance from the targets with each figure at the far
end of its 95% interval (:func:`~.tune_targets.sure_distance`). optuna's TPE sampler
proposes the points, in batches; each batch is played, each point from seeds of its own,
by successive halving (every point RUNGS[0] games, the best third RUNGS[1] more, the best
third of those RUNGS[2] more), so that promising points get more games, and optuna is
told each point's distance at the deepest rung it reached. The best few settings are
then played again from seeds the search never used, with today's setting, and each
changed value moved back alone (the one-step check, paired on the same seeds as
``--compare`` pairs two decks), so the figures and intervals of the answer are not the
lucky draws that made them win the search.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from .tune_targets import (MET, MISSED, Knob, Target, distance, figures, miss, sure_distance,
                           verdict)

RUNGS = (50, 100, 300)  # games a rung adds to a point: 50, then 150 and 450 in all
BATCH = 27  # points a batch: a third go on at each of the three rungs (27, 9, 3)
FINALISTS = 3  # settings checked with fresh games
SEARCH_SEED = 1000  # the search plays from seeds past seed + this (point_seed); fresh games from seed



def matters(targets, suggested: dict, moved: dict,
            rows: dict | None = None) -> tuple[list[str], bool]:
    """The one-step check of a changed value: the targets the suggestion meets and the
    setting with the value moved back misses, and whether moving it back matters: it
    misses a target, or falls further outside them beyond chance. With ``rows`` (the
    paired comparison of the two settings' games, played from the same seeds: what
    :func:`paired_rows` gives), a figure falls further outside beyond chance when its
    paired interval says it moved away from the target; without, when the distances'
    difference is beyond 1.96 standard errors, each figure's from its interval.

    >>> from cardkit.playtest.tune_targets import Figure
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
