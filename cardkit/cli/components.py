"""``cardkit box``, ``cardkit tokens`` and ``cardkit board``: the deck's components other
than cards, each a PDF on A4 and Letter (or the one --paper names)."""

from __future__ import annotations

from pathlib import Path

import click

from ..common.words import counted
from .options import OFFSET_HELP, parse_back_offset
from .output import each_deck, say_made, shown, warn


def _component_options(command):
    """The options both commands take."""
    for option in reversed([
            click.argument("decks", nargs=-1),
            click.option("--all", "every_deck", is_flag=True, help="Every bundled deck."),
            click.option("--out", type=click.Path(file_okay=False, path_type=Path),
                         default=Path("output"), show_default="output/ in the current folder",
                         help="Folder for the output; each deck gets a subfolder."),
            click.option("--paper", type=click.Choice(["a4", "letter"]), default=None,
                         help="One paper size only (default: both A4 and Letter)."),
            click.option("--strict", is_flag=True, help="Treat warnings about the faces "
                         "(text that does not fit...) as errors.")]):
        command = option(command)
    return command


def _papers(paper):
    from ..imposition.paper import DEFAULT_PAPERS

    return (paper,) if paper else DEFAULT_PAPERS


@click.command()
@_component_options
def box(decks, every_deck, out, paper, strict):
    """Write the tuck box of each of DECKS as a PDF dieline to cut, fold and glue.

    The box holds the deck's cards: its inside is the card size plus 1 mm each way, and
    the stack (cards x stock thickness) plus 1 mm deep. The deck's 'box:' entry gives the
    stock (standard 0.30 mm, premium 0.32 mm, linen 0.35 mm, or e.g. 0.3mm), a 'logo'
    image and a layout for each face (front, back, side, top, bottom), which read
    {deck.title}, {deck.version}, {deck.author}, {box.cards} (a number), {box.contents}
    ("1 card", "54 cards") and {box.logo}. A dieline too big for one sheet is split over
    two, joined by a glue flap.
    """
    each_deck(decks, every_deck, None, {}, box_writer(out, _papers(paper), strict))


def box_writer(out: Path, papers, strict: bool):
    """The ``write`` of :func:`written` that makes a deck's box and says so."""
    def write(path, chosen, only_declared):
        from ..pipeline.box import make_box

        _say_box(make_box(path, out, papers, strict, chosen, only_declared), papers)
    return write


def _say_box(result, papers) -> None:
    from ..imposition.paper import PAPER_NAMES

    warn(result.warnings)
    for paper, sheets in zip(papers, result.sheets):
        if sheets > 1:
            click.echo(f"{result.box.deck.name}: the box does not fit one "
                       f"{PAPER_NAMES[paper]} sheet, so it is split over {sheets}: glue "
                       "the shaded flap at the right of sheet 1 behind the front's "
                       "free edge on sheet 2")
    say_made(result.box.deck.name, f"{result.box.summary}, "
             f"{counted(result.sheets[0], 'sheet')}", result.paths, result.seconds)


@click.command()
@_component_options
@click.option("--duplex", type=click.Choice(["long", "short"]), default="long",
              show_default=True, help="Which edge your printer flips the paper on.")
@click.option("--back-offset", callback=parse_back_offset, metavar="X,Y", help=OFFSET_HELP)
def tokens(decks, every_deck, out, paper, strict, duplex, back_offset):
    """Write the tokens and tiles of each of DECKS on sheets, each cut on its outline.

    The deck's 'tokens:' list gives each kind: shape (round, square, hex), size (diameter,
    side, or a hex's width across its flats), count, a front layout and, for a
    double-sided token, a back layout; its other keys are values the layouts read. A page
    of fronts is followed by its backs, placed behind them for the printer's duplex edge.
    """
    each_deck(decks, every_deck, None, {},
              tokens_writer(out, _papers(paper), strict, duplex, back_offset or (0.0, 0.0)))


def tokens_writer(out: Path, papers, strict: bool, duplex: str = "long",
                  back_offset=(0.0, 0.0)):
    """The ``write`` of :func:`written` that makes a deck's token sheets and says so."""
    def write(path, chosen, only_declared):
        from ..pipeline.tokens import make_tokens

        _say_tokens(make_tokens(path, out, papers, strict, chosen, only_declared, duplex,
                                back_offset))
    return write


def _say_tokens(result) -> None:
    warn(result.warnings)
    say_made(result.deck.name, f"{counted(result.tokens, 'token')}, "
             f"{counted(result.pages[0], 'page')}", result.paths, result.seconds)


@click.command()
@_component_options
def board(decks, every_deck, out, paper, strict):
    """Write each board of each of DECKS whole, and tiled over A4 or Letter pages.

    The deck's 'boards:' list gives each board's name, width, height and layout, and
    values the layout reads. The whole board is one page of its own size, for a print
    shop; the tiles overlap by 10 mm, with a dashed line where the next tile's edge goes,
    after a page map saying which page goes where.
    """
    each_deck(decks, every_deck, None, {}, boards_writer(out, _papers(paper), strict))


def boards_writer(out: Path, papers, strict: bool):
    """The ``write`` of :func:`written` that makes a deck's boards and says so."""
    def write(path, chosen, only_declared):
        from ..pipeline.boards import make_boards

        _say_boards(make_boards(path, out, papers, strict, chosen, only_declared))
    return write


def _say_boards(result) -> None:
    from ..imposition.paper import PAPER_NAMES

    warn(result.warnings)
    for name, whole, tiled in result.made:
        click.echo(f"{result.deck.name}: board {name} -> {shown(whole)}; "
                   + ", ".join(f"{counted(tiles, 'tile')} on {PAPER_NAMES[p]} -> "
                               f"{shown(tiles_path)}" for p, tiles_path, tiles in tiled)
                   + f" ({result.seconds:.2f} s)")


def components_writer(out: Path, papers, strict: bool):
    """The ``write`` of :func:`written` that makes the tuck box, token sheets and boards a
    deck declares (``watch --components``), and says so as their own commands do."""
    def write(path, chosen, only_declared):
        from ..pipeline.components import make_declared

        declared = make_declared(path, out, papers, strict, chosen, only_declared)
        if declared.box:
            _say_box(declared.box, papers)
        if declared.tokens:
            _say_tokens(declared.tokens)
        if declared.boards:
            _say_boards(declared.boards)
    return write
