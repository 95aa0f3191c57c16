"""``cardkit simulate GAME --check``: a designer's rules examples, then random games with
every move checked (:mod:`cardkit.playtest.check`)."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from ..common.errors import InputError
from .output import EXIT_BAD_INPUT, progress_bar, report_input_error, shown

MOVES_SHOWN = 30  # of the moves that lead to a mistake the checker found


def check(setup, count: int, replay: str) -> None:
    """Run a designer's rules examples (examples.yaml beside the rules), then the rules
    checker, and say what they found; an example that does not hold, or a defect, exits 2.
    ``replay``: the arguments of ``cardkit simulate`` that play the same games."""
    from ..playtest.check import CHECK_MOVES, REPLAYED, check_rules

    examples = _examples(setup)

    with progress_bar(count) as bar:
        checked = check_rules(setup, count, bar.update)
    if checked.defect is not None:
        _refuse(setup, checked.defect, replay)
    lengths = checked.moves
    click.echo(f"{setup.game}: {checked.games:,} random games, {setup.players} "
               f"player{'s' * (setup.players != 1)}, seed {setup.seed}: no mistake found")
    if examples:
        click.echo(examples)
    click.echo("  checked after every move: a legal move until the end, every move offered "
               "is taken, the returns add up"
               + ("; every card in one pile, nothing seen that the piles hide"
                  if checked.cards_checked else "")
               + ("; your invariants() held" if checked.invariants else ""))
    if checked.cards_checked:
        replayed = min(checked.games, REPLAYED)
        click.echo(f"  replayed: {'the first ' if replayed < checked.games else ''}"
                   f"{replayed:,} game{'s' * (replayed != 1)} move by move in a separate copy "
                   "of the rules, from the declared piles and values alone (as the search's "
                   "samples play)")
    click.echo(f"  length: {sum(lengths) / len(lengths):.1f} moves on average, the longest "
               f"{max(lengths):,} (a game must end within {CHECK_MOVES:,})")


def refuse_kept_outside(setup, replay: str) -> None:
    """Before a simulation with a search bot: replay its first games from their declared
    state alone (:func:`~cardkit.playtest.check.check_declared`); rules that keep a value
    of the game elsewhere, which the search's samples would not have or would read
    truly, exit 2, naming the place."""
    from ..playtest.check import REPLAYED_BEFORE_SEARCH, check_declared

    defect = check_declared(setup, REPLAYED_BEFORE_SEARCH)
    if defect is not None:
        _refuse(setup, defect, replay)


def _refuse(setup, defect, replay: str) -> None:
    """Say what the checker found, in which game and after which moves, and exit 2."""
    where = setup.rules_file or setup.game
    made = len(defect.moves)
    when = f"after {made} move{'s' * (made != 1)}" if made else "before the first move"
    click.echo(f"cardkit: {where}: game {defect.game} (seed {setup.seed}), {when}: "
               f"{defect.what}; {defect.fix}", err=True)
    if defect.detail:
        click.echo(defect.detail, err=True)
    if defect.moves:
        click.echo("the moves that lead there:", err=True)
        skipped = max(0, len(defect.moves) - MOVES_SHOWN)
        if skipped:
            click.echo(f"  ({skipped:,} moves before these)", err=True)
        for number, move in enumerate(defect.moves[skipped:], skipped + 1):
            click.echo(f"  {number}. {move}", err=True)
    click.echo(f"see the game: cardkit simulate {replay} --log {defect.game}", err=True)
    sys.exit(EXIT_BAD_INPUT)


def _examples(setup) -> str:
    """Run the rules examples beside a designer's rules, if there are any: the line that
    says they held ('' without examples); one that does not hold exits 2, naming its file
    and line."""
    from ..playtest.rules_examples import EXAMPLES_FILE, run_examples
    from ..playtest.run_setup import game_of

    if not setup.rules_file:
        return ""
    path = Path(setup.rules_file).parent / EXAMPLES_FILE
    if not path.is_file():  # where they would be read from: beside the rules, not the deck
        return f"  no rules examples: none in {shown(path)} (docs/own-game.md, 'Rules examples')"
    try:
        held, failed = run_examples(game_of(setup), setup.cards, path)
    except InputError as error:
        report_input_error(error, f"in {shown(path)}")
        sys.exit(EXIT_BAD_INPUT)
    if failed:
        click.echo(f"cardkit: {failed.where}: {failed.what}; the rules or the example is "
                   "wrong", err=True)
        sys.exit(EXIT_BAD_INPUT)
    return f"  and the {held} example{'s' * (held != 1)} in {shown(path)} hold"
