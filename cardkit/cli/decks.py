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
    """Check DECK without building it: keys, types, layouts, composition, that every
    card's text fits, and that every text stands out from what lies behind it."""
    from ..common.errors import Problem
    from ..pipeline.build import check_cards, load_chosen
    from ..pipeline.contrast import low_contrast

    try:
        loaded = load_chosen(find_deck(deck))
        renderer, report = check_cards(loaded, strict)
        faint = low_contrast(loaded, renderer)
        if strict and faint:
            raise InputError([Problem(w.where, w.what + " (an error with --strict)", w.fix)
                              for w in faint])
    except InputError as error:
        report_input_error(error, f"in {named(deck)}")
        sys.exit(EXIT_BAD_INPUT)
    warnings = report.warnings + faint
    warn(warnings)
    count = len(warnings)
    click.echo(f"{loaded.name}: {counted(loaded.total(), 'card')}, {len(loaded.cards)} "
               "distinct, OK"
               + (f" ({count} warning{'s' * (count != 1)})" if count else ""))
