"""``cardkit simulate``: play a game many times with bots."""

from __future__ import annotations

import math
import os
import sys
from pathlib import Path

import click

from ..common.errors import InputError
from ..sources.bundled import find_deck
from .options import GAME_NAMES
from .output import EXIT_BAD_INPUT, named, progress_bar, report_input_error, shown

MAX_GAMES = 1_000_000  # a simulation's results are kept in memory, about 1 KB a game


def _bot_specs(ctx, param, value):
    from ..playtest.runner import BotSpec

    specs = []
    for text in value:
        name, _, rest = text.partition(":")
        params = []
        for item in filter(None, rest.split(",")):
            key, sep, number = item.partition("=")
            try:
                parsed = float(number)
            except ValueError:
                parsed = math.nan
            if not sep or not key or not math.isfinite(parsed):
                raise click.BadParameter(f"'{item}' in '{text}' is not NAME=NUMBER; write "
                                         "e.g. 'heuristic:bluff_rate=0.3,call_threshold=0.6'")
            params.append((key, parsed))
        specs.append(BotSpec(name, tuple(params)))
    return tuple(specs)


@click.command()
@click.argument("game", type=click.Choice(GAME_NAMES))
@click.option("--games", "count", type=click.IntRange(1, MAX_GAMES), default=1000,
              show_default=True, help=f"How many games to play (at most {MAX_GAMES:,}: "
              "the results of a run are held in memory, about 1 KB a game).")
@click.option("--players", type=int, help="Players a game (default: the game's usual number).")
@click.option("--seed", type=int, default=1, show_default=True,
              help="Same seed, same games, however many workers.")
@click.option("--bots", "bots", multiple=True, callback=_bot_specs, metavar="BOT[:K=V,...]",
              help="Who plays: 'random' or 'heuristic' with parameters, e.g. "
                   "'heuristic:bluff_rate=0.3'. Once for every seat, or once a seat in order "
                   "(default: random).")
@click.option("--deck", "deck_file", metavar="DECK",
              help="Play with a changed deck: its cards' counts and fields decide the "
                   "composition (a deck folder, YAML file or bundled deck name).")
@click.option("--report", "report_dir", type=click.Path(file_okay=False, path_type=Path),
              help="Write a report folder: report.html with plots, summary.json, games.csv.")
@click.option("--workers", type=click.IntRange(1, 64), default=os.cpu_count() or 1,
              show_default="the machine's cores", help="Processes playing in parallel.")
def simulate(game, count, players, seed, bots, deck_file, report_dir, workers):
    """Play GAME many times with bots and show how it behaves: who wins from which seat,
    how long games last, the scores and the game's own figures.

    \b
      cardkit simulate blofa --games 5000
      cardkit simulate bullet --players 3 --bots heuristic:bluff_rate=0.5 \\
                              --bots random --bots random
      cardkit simulate ragusa --deck my-ragusa/ --report output/ragusa-sim
    """
    import time

    from ..deck.loader import load_deck
    from ..games import load_game
    from ..playtest.report import write_report
    from ..playtest.runner import BotSpec, Setup, play_many
    from ..playtest.summary import summarise
    import random

    from ..common.errors import Problem, Where
    from ..rules.errors import RulesError

    def refuse(what: str, fix: str):
        click.echo(f"cardkit: {what}; {fix}", err=True)
        sys.exit(EXIT_BAD_INPUT)

    if report_dir is not None:
        from ..playtest.report import REPORT_FILES, why_not_a_report_folder

        why = why_not_a_report_folder(report_dir)
        if why:
            refuse(f"--report {report_dir or repr('')}: {why}", "give --report a new or "
                   f"empty folder, or one holding only a report's {', '.join(REPORT_FILES)}")
    rules = load_game(game)
    players = rules.default_players if players is None else players
    if players not in rules.players:
        allowed = rules.players
        span = f"{allowed[0]}" if len(allowed) == 1 else f"{allowed[0]}-{allowed[-1]}"
        refuse(f"{rules.title} is for {span} player{'s' * (allowed != (1,))}, not {players}",
               "choose --players " + " or ".join(map(str, allowed)) if len(allowed) < 4
               else f"choose --players from {span}")
    bots = bots or (BotSpec("random"),)
    if len(bots) not in (1, players):
        refuse(f"{len(bots)} --bots for {players} players",
               "give --bots once for every seat, or once a seat")
    for spec in bots:
        if spec.name not in rules.bots:
            refuse(f"{game} has no bot '{spec.name}'", "use one of: " + ", ".join(rules.bots))
        try:
            rules.bots[spec.name](**dict(spec.params))
        except RulesError as error:
            refuse(f"--bots {spec}: {error.what}", error.fix)
    cards = None
    if deck_file:
        try:
            deck = load_deck(find_deck(deck_file))
        except InputError as error:
            report_input_error(error, f"in {deck_file}")
            sys.exit(EXIT_BAD_INPUT)
        copies = deck.copies()
        try:
            cards = rules.cards_from_deck([{**card.fields, "back": card.back.name}
                                           for card in copies])
        except RulesError as error:
            if error.card is None:
                problem = Problem(Where(deck.path), error.what, error.fix)
            else:  # the card, where it is written, in the designer's words
                card = copies[error.card]
                problem = Problem(card.where, f"{card.label()}: {error.what}", error.fix)
            report_input_error(InputError([problem]), f"in {named(deck_file)} for "
                                f"{rules.title}")
            sys.exit(EXIT_BAD_INPUT)
    try:  # a deck the game cannot be dealt from (fewer rule cards than players...)
        rules.new_state(players, random.Random(seed), cards)
    except RulesError as error:
        refuse(f"{rules.title} cannot be dealt for {players} players"
               + (f" from {deck_file}" if deck_file else "") + f": {error.what}", error.fix)
    setup = Setup(game, players, seed, tuple(bots) * (players // len(bots)), cards)
    started = time.perf_counter()
    with progress_bar(count) as bar:
        results = play_many(setup, count, workers, bar.update)
    summary = summarise(setup, results, time.perf_counter() - started)
    for line in _summary_lines(summary):
        click.echo(line)
    if report_dir:
        try:
            write_report(report_dir, summary, results)
        except OSError as error:
            click.echo(f"cardkit: cannot write {error.filename or report_dir}: "
                       f"{error.strerror or error}; give --report a folder you can write to",
                       err=True)
            sys.exit(EXIT_BAD_INPUT)
        click.echo(f"report: {shown(Path(report_dir) / 'report.html')}")


def _summary_lines(summary: dict) -> list[str]:
    """The run in a few lines for the terminal."""
    per_second = summary["games"] / summary["seconds"] if summary["seconds"] else 0
    lines = [f"{summary['game']}: {summary['games']:,} games, {summary['players']} "
             f"player{'s' * (summary['players'] != 1)}, {summary['deck']}, seed "
             f"{summary['seed']} ({summary['seconds']:.1f} s, {per_second:,.0f} games/s)"]
    for seat in summary["seats"]:
        low, high = seat["interval"]
        lines.append(f"  seat {seat['seat']} ({seat['bot']}): won {seat['win_rate']:.1%} "
                     f"(95%: {low:.1%}-{high:.1%}), mean score {seat['score']['mean']:.2f}")
    if summary["players"] > 1:
        lines.append(f"  nobody won: {summary['nobody_won']:.1%}")
    length = summary["length"]
    lines.append(f"  length: {length['mean']:.1f} moves on average (median {length['median']}, "
                 f"10-90%: {length['p10']}-{length['p90']})")
    for name, figure in summary["figures"].items():
        shown = name.replace("_", " ")
        if figure["kind"] == "number":
            lines.append(f"  {shown}: {figure['mean']:.2f} a game")
        else:
            total = sum(figure["counts"].values())
            lines.append(f"  {shown}: " + ", ".join(
                f"{value} {count / total:.0%}" for value, count in figure["counts"].items()))
    return lines
