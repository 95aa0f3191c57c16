"""``cardkit watch``: build a deck again on every save."""

from __future__ import annotations

import os
import sys

import click

from ..common.errors import InputError
from ..imposition.services import PREVIEW_DPI
from ..sources.bundled import find_deck
from .build import build_writer
from .components import components_writer
from .export import preview_writer
from .options import choice_options, sheet_options
from .output import (EXIT_BAD_INPUT, internal_error, named, report_input_error, shown,
                     with_players, written)
from .rulebook import rulebook_writer


@click.command()
@click.argument("deck")
@choice_options
@sheet_options
@click.option("--preview", "also_preview", is_flag=True,
              help="Also write the preview images after each build (of the --cards chosen), "
                   "for an image viewer that reloads them.")
@click.option("--rulebook", "also_rulebook", is_flag=True,
              help="Also write the rulebook from the deck's rules.md after each build, on "
                   "the --paper chosen; saving rules.md rebuilds it.")
@click.option("--components", "also_components", is_flag=True,
              help="Also write the tuck box, token sheets and boards the deck declares "
                   "after each build, on the --paper chosen.")
def watch(deck, out, strict, players, variants, which, sheet, paper, orientation, duplex,
          back_offset, bleed, guides, ink, also_preview, also_rulebook, also_components):
    """Build DECK, then build it again each time a file it reads is saved: the deck, its
    layouts, spreadsheets, images, icons and fonts. Takes the options of 'cardkit build'.

    \b
      cardkit watch my-game
      cardkit watch my-game --cards 3 --preview    proof card 3 as you work on it
      cardkit watch my-game --rulebook             the rules too, as you write them
      cardkit watch my-game --components           its box, tokens and boards too

    A save with a mistake prints the problems and the last good PDF stays; the next save
    builds again. Ctrl-C stops.
    """
    import time

    from ..imposition.sheets import SheetOptions
    from ..pipeline.watch import watch as watch_deck
    from ..pipeline.watch import watched_folders
    from ..sources.fetch_round import fetching_once

    try:
        path = find_deck(deck)
    except InputError as error:
        report_input_error(error, f"in {named(deck)}")
        sys.exit(EXIT_BAD_INPUT)
    options = SheetOptions(sheet, paper, duplex, back_offset, bleed, guides, orientation, ink)
    variants = with_players(variants, players)
    writers = [build_writer(out, options, strict, which)]
    if also_preview:
        writers.append(preview_writer(out, PREVIEW_DPI, strict, which))
    if also_rulebook:
        writers.append(rulebook_writer(out, (paper,), strict))
    if also_components:
        writers.append(components_writer(out, (paper,), strict))

    def rebuild(changed: list[str]) -> None:
        if changed:
            more = len(changed) - 3
            click.echo(time.strftime("%H:%M:%S ") + ", ".join(changed[:3])
                       + (f" and {more} more" if more > 0 else "") + " changed")
        if not path.is_file():  # its folder deleted or moved away: a checkout, an unzip
            click.echo(f"{shown(path)}: not there now (deleted or moved away); it is built "
                       "again when it is back", err=True)
            return
        with fetching_once():  # one round: the build and the preview fetch a link once
            for write in writers:
                try:
                    if not written(deck, write, variants, False):
                        break  # the build's problems are the preview's too
                except Exception as exc:  # a bug of cardkit's: say so, and keep watching
                    if os.environ.get("CARDKIT_DEBUG"):
                        raise
                    click.echo(f"cardkit: {internal_error(exc)}", err=True)
                    break
        if not changed:
            click.echo("watching " + ", ".join(shown(f) for f in watched_folders(path))
                       + " for changes (Ctrl-C stops)")

    try:
        watch_deck(path, out, rebuild)
    except KeyboardInterrupt:  # how a watch is meant to end
        pass
