"""``cardkit list`` and ``cardkit validate``: the decks cardkit ships, and whether a deck
is right."""

from __future__ import annotations

import sys

import click

from ..common.errors import InputError, printable
from ..common.words import counted
from ..sources.bundled import find_deck
from .options import network_options
from .output import EXIT_BAD_INPUT, in_each_language, named, report_input_error, warn


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
        click.echo(f"{name:12} {counted(deck.total, 'card'):>10}  {deck.size:8} {printable(deck.title)}"
                   + variants)


@click.command()
@click.argument("deck")
@click.option("--strict", is_flag=True, help="Treat warnings as errors.")
@click.option("--lang", default="all", metavar="CODE", show_default=True,
              help="Check the deck in one of its languages ('de'), or in 'all' of them: "
                   "translations missing, text that fits, glyphs the fonts lack.")
@network_options
def validate(deck, strict, lang):
    """Check DECK without building it: keys, types, layouts, composition, that every
    card's text fits, and that every text stands out from what lies behind it; and its
    tuck box, tokens and boards, if it has them."""
    from ..pipeline.chosen import Which
    from ..sources.fetch_round import fetching_once

    said = []  # each language's verdict, said once every language is OK: an 'OK' above
    # the problems of another language read as if the deck were fine
    try:
        path = find_deck(deck)
        with fetching_once():  # each check loads the deck: its links are fetched once
            in_each_language(path, Which(lang=lang),
                             lambda one: said.append(_validated(path, strict, one)),
                             each_card=True)
    except InputError as error:
        fine = error.made  # --lang all: the languages without problems
        report_input_error(error, f"in {named(deck)}" + (
            f"; the {', '.join(fine)} cards are OK"
            if fine else ""))
        sys.exit(EXIT_BAD_INPUT)
    for line in said:
        click.echo(line)


def against_the_rules(deck) -> list:
    """With a rules.py beside the deck: the fields its rules read that no card shows, and
    the numbers layouts print from no field (read with ast: the file is never run)."""
    from ..deck.rules_text import loose_numbers, unseen_fields
    from ..sources.rules_fields import fields_read, rules_program

    read, unreadable = fields_read(rules_program(deck.path))
    return unreadable + (unseen_fields(deck, read) + loose_numbers(deck) if read else [])


def _validated(path, strict: bool, which) -> str:
    """Check the deck in one language: its warnings are said, the verdict returned."""
    from ..common.errors import Problem
    from ..pipeline.chosen import check_cards, load_chosen
    from ..pipeline.components import check_components
    from ..pipeline.contest import check_contest
    from ..pipeline.contrast import low_contrast

    loaded = load_chosen(path, which=which, each_card=True)
    renderer, report = check_cards(loaded, strict)
    check_contest(path, loaded)
    faint = low_contrast(loaded, renderer) + against_the_rules(loaded)
    if strict and faint:
        raise InputError([Problem(w.where, w.what + " (an error with --strict)", w.fix)
                          for w in faint])
    warnings = report.warnings + faint + check_components(loaded, strict)
    warn(warnings)
    count = len(warnings)
    return (f"{loaded.name}{f' ({loaded.lang})' if loaded.lang else ''}: "
            f"{counted(loaded.total(), 'card')}, {len(loaded.cards)} distinct, OK"
            + (f" ({count} warning{'s' * (count != 1)})" if count else ""))
