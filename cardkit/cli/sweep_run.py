"""``cardkit simulate --sweep``: a full run at each value of one setting, side by side."""

from __future__ import annotations

import sys

import click

from .game_cards import broken_by, dealable, deck_cards
from .output import named, progress_bar
from .run_end import refuse, say_stopped, stop_cause, write_report_to


def sweep_run(text: str, setup, rules, deck_file: str, rules_path, games: int, workers: int,
           report_dir, executor) -> None:
    """A full run at each value of the sweep; one table, the fairest value named."""
    import time
    from dataclasses import replace

    from ..playtest.runner import Stopped, play_into
    from ..playtest.summary import summarise
    from ..playtest.sweep import (SweepError, chosen_card, parse, point_setup, unfairness,
                                  with_count)
    from ..playtest.tally import Tally

    what, card = text.rsplit("=", 1)[0], []  # card: the one a count sweep varies
    breaks = {}  # a count's value -> what it breaks of the deck's contest and composition

    def counted(fields, value):
        card[:] = [chosen_card(fields, sweep.key)]
        return with_count(fields, sweep.key, value)

    try:
        sweep = parse(text)
        points = []
        for value in sweep.values:
            run = point_setup(setup, sweep, value, rules)
            if sweep.kind == "players" and value not in rules.players:
                raise SweepError(f"{rules.title} is not for {value} players",
                                 f"sweep within {rules.players[0]}..{rules.players[-1]}")
            if sweep.kind == "count":
                try:
                    _, cards = deck_cards(rules, deck_file, lambda fields, value=value:
                                           counted(fields, value), text)
                except SweepError as error:  # the deck it could not find the card in
                    raise SweepError(f"{named(deck_file)}: {error.what}", error.fix) from None
                run = replace(run, cards=cards)
                breaks[value] = broken_by(deck_file, lambda fields, value=value:
                                        with_count(fields, sweep.key, value))
            dealable(rules, run.players, run.seed, run.cards,
                      f"{deck_file} ({what}={value:g})", rules_path)
            points.append((value, run))
    except SweepError as error:  # named by the option and its value, once
        refuse(error.what if error.what.startswith("--sweep") else
                f"--sweep {text!r}: {error.what}", error.fix)
    click.echo(f"{setup.game}: sweep of {what}, {games:,} games a point, seed {setup.seed}")
    started, stopped = time.perf_counter(), False
    tallies = [Tally(run.players) for _, run in points]
    with progress_bar(games * len(points)) as bar:
        try:  # the points side by side, on every worker
            play_into([run for _, run in points], games,
                      lambda point, start, chunk: tallies[point].add(chunk), workers,
                      bar.update, executor)
        except Stopped:
            stopped = True
            say_stopped(sum(tally.games for tally in tallies), games * len(points))
    seconds = time.perf_counter() - started
    rows = [(value, summarise(run, tally, seconds))
            for (value, run), tally in zip(points, tallies) if tally.games]
    card = card[0] if card else None
    for value, summary in rows:
        shares = [s["share"] for s in summary["seats"]]
        figure = next((c["drawn"] for c in summary.get("cards") or () if c["card"] == card),
                      None)
        click.echo(f"  {what}={value:g}: seats {min(shares):.1%}-{max(shares):.1%}"
                   f" (furthest {unfairness(summary) * 100:.1f} percentage points from fair), "
                   f"nobody won {summary['nobody_won']:.1%} of all games, "
                   f"{summary['length']['mean']:.1f} "
                   f"{summary['length_unit']}"
                   + (f", {card}'s drawer {figure['change'] * 100:+.1f} percentage points"
                      if figure and figure["judged"] else "")
                   + "".join(f"; breaks {broken}" for broken in breaks.get(value, ())))
    value, fairest = min(rows, key=lambda row: unfairness(row[1]))
    if fairest["players"] == 1 and sweep.kind != "players":
        click.echo(f"Closest to winning half the games: {what}={value:g}.")
    else:
        off = [f"{point:g}" for point, summary in rows if summary["edges"]]
        click.echo(("Every value is within chance of a fair share; the closest: " if not off
                    else "Fairest: ") + f"{what}={value:g}, no seat further than "
                   f"{unfairness(fairest) * 100:.1f} percentage points from a fair share"
                   + (f"; a seat is off a fair share beyond chance at {what}="
                      f"{', '.join(off)} (each value's seats tested together)." if off else "."))
    if report_dir:
        from ..playtest.report_runs import write_sweep_report

        write_report_to(report_dir, write_sweep_report, {"sweep": text, "points": [
            {"value": value, "summary": summary} for value, summary in rows],
            "fairest": value})
    if stopped:
        sys.exit(stop_cause()[1])
