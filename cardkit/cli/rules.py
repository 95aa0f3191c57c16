"""``cardkit check`` and ``cardkit score``: ask a game's rules."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from ..common.errors import InputError
from ..sources.bundled import bundled_decks
from .options import GAME_NAMES
from .output import EXIT_BAD_INPUT, report_input_error


@click.command()
@click.argument("game", required=False, type=click.Choice(GAME_NAMES))
@click.argument("file", required=False, type=click.Path(dir_okay=False, path_type=Path))
@click.option("--all", "check_all", is_flag=True, help="Check every game's bundled examples.")
def check(game, file, check_all):
    """Check example hands and scores against the rules of GAME.

    Runs the examples bundled with the game's deck, or those in FILE, one line each: a
    mark and the rules' answer in words. Also checks that the bundled deck holds the cards
    the rules assume. Exit code 0 when every example holds, 1 when one does not, 2 when an
    example cannot be read.
    """
    from ..deck.loader import load_deck
    from ..rules.examples import EXAMPLES_FILE, check_deck, run_examples

    if check_all == bool(game):
        raise click.UsageError("name a GAME, or use --all")
    games = GAME_NAMES if check_all else [game]
    failed = bad = False
    for name in games:
        path = file or bundled_decks()[name].parent / EXAMPLES_FILE
        try:
            outcomes = run_examples(name, path)
        except InputError as error:
            report_input_error(error, f"in {path}")
            bad = True
            continue
        for outcome in outcomes:
            if outcome.ok:
                click.echo(f"✓ {outcome.name}: {outcome.reason}")
            else:
                failed = True
                click.echo(f"✗ {outcome.name}: expected {outcome.expected}, got "
                           f"{outcome.actual} ({outcome.reason}) [{outcome.where}]")
        deck = load_deck(bundled_decks()[name])
        cards = deck.for_rules()
        deck_problems = check_deck(name, cards)
        for problem in deck_problems:
            click.echo(f"✗ deck {name}: {problem}")
        failed = failed or bool(deck_problems)
        held = sum(o.ok for o in outcomes)
        click.echo(f"{name}: {held} of {len(outcomes)} examples hold; the {name} deck "
                   + ("does not match the rules" if deck_problems else "matches the rules"))
    if bad:
        sys.exit(EXIT_BAD_INPUT)
    if failed:
        sys.exit(1)


@click.command()
@click.argument("game", type=click.Choice(GAME_NAMES))
@click.argument("cards", nargs=-1)
@click.option("--players", type=int, help="Number of players (bullet: values in play; "
              "shapes: where a triplet's arrows send it).")
@click.option("--foundations", metavar="CARDS", help="ragusa: the four Foundation Cards.")
@click.option("--room", metavar="CARDS", help="rise-up: the cards in the room.")
@click.option("--declared", type=int, help="blofa: the declared sum of the played cards.")
@click.option("--owner", type=int, default=0, show_default=True,
              help="shapes: the seat that locked the triplet in.")
def score(game, cards, players, foundations, room, declared, owner):
    """A quick answer from the rules of GAME.

    \b
      cardkit score bullet "6 6 6 5 5" "4 4 4 7 7"
      cardkit score ragusa --foundations "4H 7C 9D QS" "hearts: KC KD 5H 5S 9C" \\
                           "spades: AS AD 2C 3C 8H"
      cardkit score rise-up --room "7C 9D" 5H "KS used"
      cardkit score blofa 4 --declared 2
      cardkit score shapes "circle 1 clear left" "circle 2 striped left" \\
                           "circle 3 solid left" --players 4 --owner 0
    """
    from ..rules.errors import RulesError
    from ..rules.quick import score as quick_score

    try:
        lines = quick_score(game, cards, players, foundations, room, declared, owner)
    except RulesError as error:
        click.echo(f"cardkit: {error.what}; {error.fix}", err=True)
        sys.exit(EXIT_BAD_INPUT)
    for line in lines:
        click.echo(line)
