"""``cardkit list`` and ``cardkit validate``: the decks cardkit ships, and whether a deck
is right."""

from __future__ import annotations

import sys

import click

from ..common.errors import InputError
from ..sources.bundled import find_deck
from .output import EXIT_BAD_INPUT, counted, named, report_input_error, warn


@click.command(name="list")
def list_decks():
    """List the bundled decks with their card counts."""
    from ..pipeline.listing import deck_summaries

    for name, deck in deck_summaries().items():
        if deck.problems:
            click.echo(f"{name:12} INVALID ({deck.problems} problems; "
                       f"run 'cardkit validate {name}')")
            continue
        variants = "".join(f"  [{k}: {', '.join(v)}]" for k, v in deck.variants.items())
        click.echo(f"{name:12} {counted(deck.total, 'card'):>10}  {deck.size:8} {deck.title}"
                   + variants)


@click.command()
@click.argument("deck")
@click.option("--strict", is_flag=True, help="Treat warnings as errors.")
def validate(deck, strict):
    """Check DECK without building it: keys, types, layouts, composition, and that every
    card's text fits."""
    from ..pipeline.build import check_cards, load_chosen

    try:
        loaded = load_chosen(find_deck(deck))
        _, report = check_cards(loaded, strict)
    except InputError as error:
        report_input_error(error, f"in {named(deck)}")
        sys.exit(EXIT_BAD_INPUT)
    warn(report.warnings)
    count = len(report.warnings)
    click.echo(f"{loaded.name}: {counted(loaded.total(), 'card')}, {len(loaded.cards)} "
               "distinct, OK"
               + (f" ({count} warning{'s' * (count != 1)})" if count else ""))
