"""``cardkit simulate``: play a game many times with bots."""

from __future__ import annotations

import math
import os
import sys
from pathlib import Path

import click

from ..common.errors import InputError, printable
from ..sources.bundled import find_deck
from ..playtest.executors import ENV, TIMEOUT
from .game_cards import dealable, deck_cards
from .options import GAME_NAMES
from .output import EXIT_BAD_INPUT, named, progress_bar, report_input_error, shown
from .run_end import (refuse, refuse_report_folder, rules_failed, say_stopped,
                      stop_cause, write_report_to)
from .run_summary import summary_lines

MAX_GAMES = 100_000_000  # a run keeps counts, not games: a cap on typos, not on memory
SKILL_GAMES = 200  # games a rung of the skill ladder, unless --games says otherwise


def _bot_specs(ctx, param, value):
    from ..playtest.run_setup import BotSpec

    specs = []
    for text in value:
        name, _, rest = text.partition(":")
        params = []
        for item in filter(None, rest.split(",")):
            key, sep, value = item.partition("=")
            try:
                parsed = float(value)
            except ValueError:  # a word: the name of a bot (search:playout=heuristic)
                parsed = value if value.isidentifier() else math.nan
            if not sep or not key or isinstance(parsed, float) and not math.isfinite(parsed):
                raise click.BadParameter(f"'{item}' in '{text}' is not NAME=NUMBER or "
                                         "NAME=WORD; write e.g. 'heuristic:bluff_rate=0.3,"
                                         "call_threshold=0.6' or 'search:playout=heuristic'")
            params.append((key, parsed))
        specs.append(BotSpec(name, tuple(params)))
    return tuple(specs)


@click.command()
@click.argument("game", metavar="GAME")
@click.option("--games", "count", type=click.IntRange(1, MAX_GAMES), default=1000,
              show_default=True, help=f"How many games to play (at most {MAX_GAMES:,}; "
              "a run keeps counts, not games, so its memory does not grow with them).")
@click.option("--players", type=int, help="Players a game (default: the game's usual number).")
@click.option("--seed", type=int, default=1, show_default=True,
              help="Same seed, same games, however many workers.")
@click.option("--bots", "bots", multiple=True, callback=_bot_specs, metavar="BOT[:K=V,...]",
              help="Who plays: 'random', 'heuristic' or 'search' (looks ahead), with "
                   "parameters, e.g. 'heuristic:bluff_rate=0.3', 'search:iterations=50' or "
                   "'search:guide=heuristic'. "
                   "Once for every seat, or once a seat in order (default: random).")
@click.option("--rest", "rest", multiple=True, callback=_bot_specs, metavar="BOT[:K=V,...]",
              help="The bot of every seat --bots leaves: '--bots search --rest random' "
                   "is search in seat 0 against random play (add --rotate to move it round).")
@click.option("--rotate", is_flag=True,
              help="Move the bots round the seats from game to game (game i: seat s has "
                   "bot (s + i) mod players of --bots), to tell the bots from the seats.")
@click.option("--deck", "deck_file", metavar="DECK",
              help="Play with a changed deck: its cards' counts and fields decide the "
                   "composition (a deck folder, YAML file or bundled deck name).")
@click.option("--compare", "compare_deck", metavar="DECK",
              help="Also play the same games (seeds and bots) with DECK, a changed copy of "
                   "the deck, and show what changes beyond chance: seat shares, length, the "
                   "game's figures.")
@click.option("--sweep", "sweep_text", metavar="WHAT=VALUES",
              help="Vary one thing, a full run at each value, and see its effect in one "
                   "table: players=2..5, count[name=Dragon]=1..4 (copies of a card; "
                   "each[kind=good]=1..3: of every matching card), a bot parameter such as "
                   "bluff_rate=0,0.2,0.4, or a number your rules file names in capitals "
                   "(ROUNDS=4..8). Says which value is fairest.")
@click.option("--tune", is_flag=True,
              help="Suggest changes that meet --target goals by varying what --vary allows "
                   "(each as --sweep is written, as a range): a search, then the best few "
                   "settings checked with --games fresh games each.")
@click.option("--target", "targets", multiple=True, metavar="NAME=BOUND",
              help="With --tune: seats=5 (each seat within 5 points of fair), "
                   "length=8..12, nobody=5 (% of games), card-edge=5 (points), skill=10 "
                   "(search over random, points).")
@click.option("--vary", "vary", multiple=True, metavar="WHAT=RANGE",
              help="With --tune: what may change, e.g. HAND=3..6, count[name=Dragon]=0..3, "
                   "bluff_rate=0,0.2,0.4.")
@click.option("--trials", type=click.IntRange(1, 5000), default=200, show_default=True,
              help="With --tune: settings the search tries.")
@click.option("--rules", "rules_file", type=click.Path(dir_okay=False, path_type=Path),
              help="Your game's rules file, if it is not rules.py beside the deck.")
@click.option("--check", is_flag=True,
              help="Check the rules instead: play --games random games, checking every "
                   "move; stop at the first mistake, with the moves that lead there.")
@click.option("--skill", is_flag=True,
              help="Does skill matter? Play a ladder of bots of rising skill (random, "
                   "the game's own bot, then search guided by it at 25, 50 and 100 "
                   "iterations), each against the one below, and say how the wins climb "
                   "(--games a rung; default 200).")
@click.option("--log", "log_game", type=click.IntRange(0, MAX_GAMES - 1), metavar="N",
              help="Show game N of the run (as --seed and --bots play it) move by move, "
                   "with what the seat to play saw.")
@click.option("--report", "report_dir", type=click.Path(file_okay=False, path_type=Path),
              help="Write a report folder: report.html with plots, summary.json, games.csv.")
@click.option("--workers", type=click.IntRange(1, 64), default=os.cpu_count() or 1,
              show_default="the machine's cores", help="Processes playing in parallel.")
@click.option("--executor", "executor_address", metavar="dask://HOST:PORT", envvar=ENV,
              help="Play on a Dask cluster instead of this machine's processes (needs "
                   f"cardkit[dask]; or set {ENV}). The same seed plays the same games.")
@click.option("--executor-timeout", type=click.FloatRange(0, min_open=True), default=TIMEOUT,
              show_default=True, metavar="SECONDS", help="How long to wait for the Dask "
              "cluster to answer, or during a run to have a worker again.")
@click.option("--game-timeout", type=click.FloatRange(0), default=60.0, show_default=True,
              metavar="SECONDS", help="Stop when a game takes more CPU time (a loop in your "
              "rules that never ends), naming it and its seed; 0: no bound. CPU time, so a "
              "machine busy with other work slows games without stopping them. Not on Dask.")
@click.pass_context
def simulate(ctx, game, count, players, seed, bots, rest, rotate, deck_file, compare_deck,
             sweep_text, tune, targets, vary, trials, rules_file, check, skill, log_game,
             report_dir, workers, executor_address, executor_timeout, game_timeout):
    """Play GAME many times with bots and show how it behaves: who wins from which seat,
    how long games last, the scores and the game's own figures.

    GAME is a game cardkit ships (blofa, bullet, ragusa, rise-up, shapes), or your own
    deck (its folder or YAML file) with the game's rules in rules.py beside it. A rules
    file is a program: it runs with your rights, and no other command runs it.

    \b
      cardkit simulate blofa --games 5000
      cardkit simulate my-game --check      check your rules in 1,000 random games
      cardkit simulate my-game --log 3      game 3, move by move
      cardkit simulate blofa --skill        does skill matter in Blófa?
      cardkit simulate bullet --players 3 --bots heuristic:bluff_rate=0.5 \\
                              --bots random --bots random
      cardkit simulate ragusa --deck my-ragusa/ --report output/ragusa-sim
      cardkit simulate ragusa --compare my-ragusa/   did my changes help?
      cardkit simulate bullet --sweep players=2..5   the fairest player count

    Ctrl-C (or SIGTERM) stops a run after the games under way and shows the figures of
    the games played; a second Ctrl-C stops at once, without the games under way.
    """
    import time
    from contextlib import ExitStack
    from dataclasses import replace

    from ..playtest.executors import ExecutorError, executor_for
    from ..playtest.report import write_report
    from ..playtest.rules_file import RulesFileError
    from ..playtest.run_setup import BotSpec, Setup, new_bot
    from ..playtest.runner import Stopped, play_into
    from ..playtest.summary import summarise
    from ..playtest.tally import GameRows, Tally
    from ..rules.errors import RulesError

    if report_dir is not None:
        from ..playtest.report import why_not_a_report_folder

        why = why_not_a_report_folder(report_dir)
        if why:
            refuse_report_folder(report_dir, why)
    given_deck = deck_file
    name, rules, rules_path, deck_file = _chosen(game, rules_file, deck_file)
    players = rules.default_players if players is None else players
    if players not in rules.players:
        allowed = sorted(rules.players)  # the usual count comes first in player_counts
        if len(allowed) > 2 and allowed[-1] - allowed[0] == len(allowed) - 1:
            span = f"{allowed[0]}-{allowed[-1]}"
        else:
            span = ", ".join(map(str, allowed[:-1])) + " or " * (len(allowed) > 1) + \
                str(allowed[-1])
        refuse(f"{rules.title} is for {span} player{'s' * (allowed != [1])}, not {players}",
               f"choose --players {span.replace('-', ' to ')}")
    if rest:
        if len(rest) > 1 or len(bots) >= players:
            refuse("--rest is the bot of the seats --bots leaves" + (
                   ", once" if len(rest) > 1 else f"; --bots gives all {players}"),
                   "give --rest once, with fewer --bots than players")
        bots = tuple(bots) + rest * (players - len(bots))
    bots = bots or (BotSpec("random"),)
    if len(bots) not in (1, players):
        refuse(f"{len(bots)} --bots for {players} players",
                "give --bots once for every seat, or once a seat, or the first seats' and "
                "--rest BOT for the others")
    for spec in bots:
        if spec.name not in rules.bots:
            refuse(f"{name} has no bot '{spec.name}'", "use one of: " + ", ".join(rules.bots))
        try:
            new_bot(rules, spec)
        except RulesError as error:
            refuse(f"--bots {spec}: {error.what}", error.fix)
    cards, deck_name = None, "bundled deck"
    if deck_file:
        deck_name, cards = deck_cards(rules, deck_file)
        name = deck_name if rules_path else name  # a designer's game goes by its deck's name
    dealable(rules, players, seed, cards, deck_file, rules_path)
    setup = Setup(name, players, seed, tuple(bots) * (players // len(bots)), cards,
                  str(rules_path) if rules_path else None, game_timeout or None, rotate)
    if rotate and (compare_deck or sweep_text or skill or check):
        refuse("--rotate moves the bots of one run round its seats", "leave out --compare, "
               "--sweep, --skill and --check (--skill rotates its own bots), or --rotate")
    if rotate and len(set(bots)) == 1:
        refuse(f"--rotate moves different bots round the seats, and every seat has {bots[0]}",
               "give --bots once a seat, e.g. --bots heuristic --bots random, or leave out "
               "--rotate")
    if compare_deck:
        if skill or check or log_game is not None:
            refuse("--compare plays two decks side by side", "leave out --skill, --check "
                    "and --log, or run them on each deck")
        other_rules, other_path = _own_rules(compare_deck, rules, rules_path, players, bots)
        _, other_cards = deck_cards(other_rules, compare_deck)
        dealable(other_rules, players, seed, other_cards, compare_deck, other_path)
    if sweep_text and (compare_deck or skill or check or log_game is not None):
        refuse("--sweep plays its own runs", "leave out --compare, --skill, --check and "
                "--log")
    if (targets or vary) and not tune or tune and (sweep_text or compare_deck or skill or
                                                   check or log_game is not None):
        refuse("--target and --vary go with --tune, which plays its own runs", "give "
               "--tune with them, and leave out --sweep, --compare, --skill, --check, --log")
    stack = ExitStack()  # a Dask client, open while games are played
    try:
        executor = stack.enter_context(executor_for(executor_address, executor_timeout))
    except ExecutorError as error:
        refuse(error.what, error.fix)
    try:
        if tune:
            from .tune_run import tune as tune_run

            tune_run(setup, rules, deck_file or name, rules_path, targets, vary, trials,
                     count, workers, report_dir, executor)
            return
        if sweep_text:
            from .sweep_run import sweep_run

            sweep_run(sweep_text, setup, rules, deck_file or name, rules_path, count, workers,
                      report_dir, executor)
            return
        if compare_deck:
            from .compare_run import compare_decks

            compare_decks({"A": (setup, given_deck or deck_name),
                           "B": (replace(setup, cards=other_cards,
                                         rules_file=str(other_path) if other_path else None),
                                 compare_deck)},
                          count, workers, report_dir, executor)
            return
        if log_game is not None:
            from ..playtest.log import game_log

            game_log(setup, log_game, lambda line: click.echo(printable(line)))
            return
        if skill:
            if bots != (BotSpec("random"),):
                refuse("--skill plays its own bots", "leave out --bots")
            default = ctx.get_parameter_source("count").name == "DEFAULT"
            _skill(setup, SKILL_GAMES if default else count, workers, report_dir, executor)
            return
        replay = [game, f"--players {players}", f"--seed {seed}"]
        replay += [f"--deck {given_deck}"] if given_deck else []
        replay += [f"--rules {rules_file}"] if rules_file else []
        if check:
            from .check_run import check

            check(setup, count, " ".join(replay))
            return
        if setup.rules_file and any(rules.bots[spec.name].searches for spec in bots):
            from .check_run import refuse_kept_outside

            refuse_kept_outside(setup, " ".join(replay))
        started = time.perf_counter()
        stopped = False
        tally = Tally(players, GameRows() if report_dir else None, rotate)
        with progress_bar(count) as bar:
            try:
                play_into([setup], count, lambda run, start, chunk: tally.add(chunk),
                          workers, bar.update, executor)
            except Stopped:
                stopped = True
    except (RulesFileError, ExecutorError) as error:  # the latter: a cluster gone meanwhile
        rules_failed(error)
    finally:
        stack.close()
    if stopped:
        say_stopped(tally.games, count)
    summary = summarise(setup, tally, time.perf_counter() - started)
    for line in summary_lines(summary):
        click.echo(printable(line))
    if report_dir:
        write_report_to(report_dir, write_report, summary, tally)
    if stopped:
        sys.exit(stop_cause()[1])


def _chosen(game: str, rules_file: Path | None, deck_file: str | None):
    """(name, Game, its rules file or None, the deck its cards come from or None) for
    GAME: a bundled game by name, else a deck whose rules file is beside it (or named)."""
    from ..playtest.rules_file import RulesFileError, load_rules
    from ..sources.rules_fields import RULES_PROGRAM as RULES_FILE

    if game in GAME_NAMES and rules_file is None:
        from ..games import load_game

        return game, load_game(game), None, deck_file
    try:
        deck_path = find_deck(game)
    except InputError as error:
        if not Path(game).exists():
            refuse(f"'{game}' is neither a game cardkit ships ({', '.join(GAME_NAMES)}) "
                    "nor a deck", "give your deck's folder or YAML file, with the game's "
                    f"rules in {RULES_FILE} beside it" + _close_game(game))
        report_input_error(error, f"in {named(game)}")
        sys.exit(EXIT_BAD_INPUT)
    rules_path = rules_file or deck_path.parent / RULES_FILE
    if rules_file is not None and not rules_file.is_file():
        refuse(f"--rules {rules_file}: no such file", "give the path of your rules file")
    if not rules_path.is_file():
        refuse(f"{shown(deck_path.parent)}: no {RULES_FILE} beside {deck_path.name}",
                f"write the game's rules in {RULES_FILE} ('cardkit new' makes a deck with "
                "one; docs/own-game.md, 'Simulate your own game', shows how)")
    try:
        rules = load_rules(rules_path)
    except RulesFileError as error:
        rules_failed(error)
    return deck_path.parent.name, rules, rules_path.resolve(), deck_file or str(deck_path)


def _own_rules(deck_file: str, rules, rules_path, players: int, bots):
    """The rules a compared deck plays, and their file: a designer's deck with a rules file
    of its own (a rule variant) plays it; otherwise A's rules."""
    from ..playtest.rules_file import RulesFileError, load_rules
    from ..sources.rules_fields import RULES_PROGRAM as RULES_FILE

    if rules_path is None:
        return rules, None
    try:
        own = find_deck(deck_file).parent / RULES_FILE
    except InputError:  # the deck is read, and its mistake shown, with its cards
        return rules, rules_path
    if not own.is_file() or own.resolve() == rules_path or own.read_bytes() == \
            rules_path.read_bytes():  # a copy of A's rules file is the same rules
        return rules, rules_path
    try:
        other = load_rules(own)
    except RulesFileError as error:
        rules_failed(error)
    if players not in other.players:
        refuse(f"{shown(own)} is for {other.players[0]}-{other.players[-1]} players, not "
               f"{players}", "compare at a player count both rules allow")
    for spec in bots:
        if spec.name not in other.bots:
            refuse(f"{shown(own)} has no bot '{spec.name}'", "choose --bots both rules have")
    return other, own.resolve()


def _close_game(name: str) -> str:
    """'; did you mean 'blofa'?' for a near miss of a bundled game's name, else ''."""
    from ..common.errors import did_you_mean

    hint = did_you_mean(name, GAME_NAMES)
    return f"; {hint}" if hint.startswith("did you mean") else ""


def _skill(setup, games: int, workers: int, report_dir, executor) -> None:
    """Climb the skill ladder, print each rung and the verdict, and write the report."""
    import time

    from ..playtest.runner import Stopped
    from ..playtest.skill import bots_used, climb, ladder, verdict

    rungs_count = len(ladder(setup))
    click.echo(f"{setup.game}: skill ladder, {setup.players} player"
               f"{'s' * (setup.players != 1)}, {games:,} games a rung, seed {setup.seed}")
    described = bots_used(setup)
    click.echo("the bots, weakest first:")
    for line in described:
        click.echo(f"  {line}")
    stopped = False
    with progress_bar(games * rungs_count) as bar:
        try:
            rungs = climb(setup, games, workers, bar.update, time.perf_counter, executor)
        except Stopped as stop:  # the rungs climbed, the last one perhaps in part
            rungs, stopped = stop.finished, True
            say_stopped(len(rungs), rungs_count, "rungs begun")
    fair = 1 / setup.players
    width = max([len(rung.bot) for rung in rungs] + [22])
    for rung in rungs:
        low, high = rung.interval
        against = f"against {rung.against}" if rung.against and setup.players > 1 else ""
        click.echo(f"  {rung.bot:{width}} {against:{width + 8}} won {rung.won:6.1%} (95%: {low:.1%}-"
                   f"{high:.1%})  {rung.seconds:.1f} s")
    sentence = verdict(rungs, setup.players)
    if setup.players > 1:
        click.echo(f"  (shares of the decided games; chance alone: {fair:.0%} against the "
                   "rung below)")
    click.echo(sentence)
    if report_dir:
        from dataclasses import asdict

        from ..playtest.report_runs import write_skill_report

        write_report_to(report_dir, write_skill_report, {
            "game": setup.game, "players": setup.players, "seed": setup.seed,
            "games_a_rung": games, "bots": described, "rungs": [asdict(rung) for rung in rungs],
            "verdict": sentence})
    if stopped:
        sys.exit(stop_cause()[1])
