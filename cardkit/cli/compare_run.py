"""``cardkit simulate GAME --compare DECK``: the same games played with decks A and B,
paired by seed, and what changes between them (:mod:`cardkit.playtest.compare`)."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from ..common.errors import printable
from ..common.words import counted
from .output import progress_bar, shown
from .run_end import say_stopped, stop_cause, write_report_to


def compare_decks(setups: dict, games: int, workers: int, report_dir, executor) -> None:
    """Play the same games with decks A and B (``setups`` maps "A" and "B" to (Setup,
    the deck's name)), print what changes, write the report."""
    import time

    from ..playtest.compare import Pairs, compare, pairing, shown_change
    from ..playtest.runner import Stopped, in_step, play_into
    from ..playtest.summary import summarise
    from ..playtest.tally import GameRows, Tally

    started, stopped = time.perf_counter(), False
    tallies = [Tally(setup.players, GameRows() if report_dir else None)
               for setup, _ in setups.values()]
    pairs = Pairs(tallies[0].players)

    def take(start, chunks):
        for tally, chunk in zip(tallies, chunks):
            tally.add(chunk)
        pairs.add(*chunks)

    with progress_bar(2 * games) as bar:
        try:  # compare the same games only: those both finished, game i of A with B's
            play_into([setup for setup, _ in setups.values()], games, in_step(take, 2),
                      workers, bar.update, executor)
        except Stopped:
            stopped = True
            say_stopped(tallies[0].games, games, "games of each deck")
    seconds = time.perf_counter() - started
    runs = {deck: ({**summarise(setup, tally, seconds), "deck_name": deck_name}, tally)
            for (deck, (setup, deck_name)), tally in zip(setups.items(), tallies)}
    comparison = compare(runs["A"][0], runs["B"][0], pairs)
    rules_a, rules_b = (setups[deck][0].rules_file for deck in "AB")
    comparison["variant"] = shown(Path(rules_b)) if rules_b != rules_a else None
    first = runs["A"][0]
    click.echo(printable(
        f"{first['game']}: {counted(games, 'game')} each, "
        f"{counted(first['players'], 'player')}, seed {first['seed']}; A {first['deck_name']}, "
        f"B {runs['B'][0]['deck_name']}"))
    if comparison["variant"]:
        click.echo(printable(f"  B plays its own rules, {comparison['variant']}: a rule "
                             "variant"))
    for row in comparison["rows"]:
        a, b = ((f"{row['a']:.1%}", f"{row['b']:.1%}") if row["unit"] == "share" else
                (f"{row['a']:.2f}", f"{row['b']:.2f}"))
        click.echo(printable(f"  {row['what']}: {a} -> {b}, {shown_change(row)}"
                             + ("  beyond chance" if row["significant"] else "")))
    click.echo(pairing(comparison))
    click.echo(comparison["verdict"])
    if report_dir:
        from ..playtest.report_runs import write_compare_report

        write_report_to(report_dir, write_compare_report, comparison, runs)
    if stopped:
        sys.exit(stop_cause()[1])
