"""``cardkit rulebook``: the rules of a deck, from the ``rules.md`` beside it, as a PDF."""

from __future__ import annotations

from pathlib import Path

import click

from ..common.words import counted
from .output import each_deck, say_made, warn


@click.command()
@click.argument("decks", nargs=-1)
@click.option("--all", "every_deck", is_flag=True, help="Every bundled deck with a rules.md.")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=Path("output"),
              show_default="output/ in the current folder",
              help="Folder for the output; each deck gets a subfolder.")
@click.option("--paper", type=click.Choice(["a4", "letter", "a5", "index", "card"]),
              default=None, help="One page size only (default: both A4 and Letter, as "
              "contests ask); a5, index (3.5 x 5 in) and card (the deck's card size) set "
              "smaller type.")
@click.option("--strict", is_flag=True,
              help="Treat warnings about the cards shown (text that does not fit...) as errors.")
def rulebook(decks, every_deck, out, paper, strict):
    """Write the rulebook of each of DECKS as PDF, from the rules.md beside its deck file.

    rules.md is Markdown (headings, lists, tables, **bold**, *italic*) with the cards'
    {icons}, and three things of cardkit's own: ![](card:NAME) shows a card as it prints
    (several in one paragraph make a row), {table: FIELD, ...} a table of the deck's cards,
    {components} what the deck holds. {deck.version} and the footer give the version.
    """
    from ..imposition.paper import DEFAULT_PAPERS
    from ..sources.bundled import bundled_decks
    from ..sources.rulebook import rules_path

    if every_deck:  # only the bundled decks that have rules to print
        decks = tuple(name for name, path in bundled_decks().items()
                      if rules_path(path).is_file()) + decks
        every_deck = False
    each_deck(decks, every_deck, None, {},
              rulebook_writer(out, (paper,) if paper else DEFAULT_PAPERS, strict))


def rulebook_writer(out: Path, papers, strict: bool):
    """The ``write`` of :func:`written` that makes a deck's rulebook and says so."""
    def write(path, chosen, only_declared):
        from ..pipeline.rulebook import make_rulebook

        result = make_rulebook(path, out, papers, strict, chosen, only_declared)
        warn(result.warnings)
        say_made(result.deck.name, f"rules, {counted(result.pages, 'page')}", result.paths,
                 result.seconds)
    return write
