"""``cardkit build``: print-and-play PDF sheets of decks."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from ..common.words import counted
from .options import deck_options, sheet_options
from .output import each_deck, in_each_language, shown, warn

if TYPE_CHECKING:
    from ..imposition.sheets import SheetOptions
    from ..pipeline.chosen import Which


@click.command()
@deck_options
@sheet_options
@click.option("--template", metavar="NAME|FILE",
              help="Lay the cards out by a sheet template (slots of your own, label "
                   "stock such as avery-l7160 or avery-5160, or cards-and-tokens, whose "
                   "token slots take the deck's tokens) instead of the automatic grid; it "
                   "gives the paper.")
def build(decks, every_deck, out, strict, players, variants, which, sheet, paper,
          orientation, duplex, back_offset, bleed, guides, ink, template):
    """Build print-ready PDF sheets for DECKS.

    Each DECK is a bundled deck's name (see 'cardkit list'), a deck's folder or its
    YAML file. A failed build leaves the previous output untouched.
    """
    from ..imposition.sheets import SheetOptions

    options = SheetOptions(sheet, paper, duplex, back_offset, bleed, guides, orientation, ink)
    if template is not None:
        from ..deck.sheet_template import load_template

        if sheet != "pnp" or orientation != "auto":
            raise click.UsageError("--template lays out the sheet itself: leave --sheet "
                                   "and --orientation out")
        chosen = load_template(template)
        options = SheetOptions(sheet, chosen.paper, duplex, back_offset, bleed, guides,
                               orientation, ink, chosen)
    each_deck(decks, every_deck, players, variants,
               build_writer(out, options, strict, which))


def build_writer(out: Path, options: SheetOptions, strict: bool, which: Which):
    """The ``write`` of :func:`written` that builds a deck's sheets and says so."""
    from ..imposition.paper import PAPER_NAMES

    def write(path, chosen, only_declared):
        in_each_language(path, which, lambda one: built(path, chosen, only_declared, one))

    def built(path, chosen, only_declared, one):
        from ..pipeline.build import build_deck

        result = build_deck(path, out, options, strict, chosen, only_declared, one)
        warn(result.warnings)
        grid = result.grid
        click.echo(f"{result.deck.name}: {counted(result.cards, 'card')}, "
                   + (f"{counted(result.tokens, 'token')}, " if result.tokens else "")
                   + f"{counted(result.pages, 'page')} "
                   + ("after a cover note " if result.deck.note else "")
                   + f"({PAPER_NAMES[options.paper]} {grid.orientation}, {grid.per_page} a "
                   f"page) -> {shown(result.path)} ({result.seconds:.2f} s)")
    return write
