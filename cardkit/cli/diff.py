"""``cardkit diff``: what changed between two versions of a deck, card by card."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from ..common.errors import InputError, printable
from ..sources.bundled import find_deck
from .output import EXIT_BAD_INPUT, named, report_input_error, report_output_error, shown


@click.command()
@click.argument("old")
@click.argument("new", default=".")
@click.option("--sheet", type=click.Path(dir_okay=False, path_type=Path), metavar="FILE",
              help="Also draw the changed cards, old beside new, into FILE: a PDF, or PNG "
                   "images with a .png name.")
@click.option("--lang", default="", metavar="CODE",
              help="Compare the deck in one of its languages ('de').")
def diff(old, new, sheet, lang):
    """Show what changed from OLD to NEW, card by card, by what prints.

    NEW is a deck (its folder, YAML file or a bundled deck's name; the current folder
    if not given). OLD is another folder or deck file, or a git revision of NEW's folder
    ('HEAD~1', 'v1.0'), compared with the working files.

    \b
    cardkit diff v1.0 my-game
    cardkit diff my-game-0.3 my-game --sheet changes.pdf

    A card is changed when either side prints differently; the stamps (version, date,
    card id) do not count. Cards are matched by name.
    """
    from ..pipeline.chosen import Which, check_cards, load_chosen
    from ..pipeline.changes import compare, old_version

    try:
        new_file = find_deck(new)
        with old_version(old, new_file) as (old_file, label):
            old_deck = load_chosen(old_file, which=Which(lang=lang))
            new_deck = load_chosen(new_file, which=Which(lang=lang))
            changes = compare(old_deck, new_deck, label)
            click.echo(printable(report(changes)))
            if sheet is not None:
                from ..writers.changes_pdf import write_changes

                renderers = check_cards(old_deck)[0], check_cards(new_deck)[0]
                try:
                    written = write_changes(sheet, changes, *renderers)
                except OSError as error:  # a read-only folder, a full disk, a socket
                    report_output_error(error, "--sheet", "file")
                    sys.exit(EXIT_BAD_INPUT)
                click.echo("changes sheet -> " + ", ".join(shown(path) for path in written))
    except InputError as error:
        report_input_error(error, f"comparing {old} with {named(new)}")
        sys.exit(EXIT_BAD_INPUT)


def report(changes) -> str:
    """The terminal's list: a line per card that is not as it was, under it the words of
    each field that changed, then the backs and a sum.

    'changed  Lantern Oil  x5  front: text; fields: text'
    '             text: Cheap and [-bright.-] {+warm.+}'"""
    from ..deck.changes import marked, summary_line

    lines = [changes.heading]
    width = max((len(change.name) for change in changes.cards), default=0)
    for change in changes.cards:
        count = (f"x{change.old.count} -> x{change.new.count}" if change.status == "count"
                 else f"x{(change.new or change.old).count}")
        said = []
        if change.elements:
            said.append(", ".join(change.elements))
        if change.fields:
            said.append("fields: " + ", ".join(change.fields))
        if change.status == "changed" and change.old.count != change.new.count:
            said.append(f"x{change.old.count} before")
        if change.status == "data":
            said.append("prints the same")
        lines.append(f"  {change.status:8} {change.name:{width}}  {count:9} {'; '.join(said)}"
                     .rstrip())
        lines += [f"{' ' * 13}{key}: {marked(words)}" for key, words in change.words()]
    for name, status in changes.backs:
        lines.append(f"  back     {name}: {status}")
    for name, status in changes.components:  # a box, tokens, boards: not on the card sheet
        lines.append(f"  {status:8} {name}")
    lines.append(summary_line(changes))
    return "\n".join(lines)
