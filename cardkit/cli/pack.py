"""``cardkit pack``: a deck's contest entry, as a folder and a zip."""

from __future__ import annotations

from pathlib import Path

import click

from .output import each_deck, shown, warn


@click.command()
@click.argument("decks", nargs=-1)
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=Path("output"),
              show_default="output/ in the current folder",
              help="Folder for the output; each deck gets a subfolder.")
@click.option("--base-url", metavar="URL", default=None,
              help="Where the Tabletop Simulator images will be hosted (default: the entry "
                   "folder, for trying the deck on this computer).")
@click.option("--strict", is_flag=True, help="Treat warnings as errors.")
def pack(decks, out, base_url, strict):
    """Write the contest entry of each of DECKS: the print-and-play sheets on A4 and
    Letter (duplex and gutterfold), a low-ink version, the rulebook, a how to print and cut
    sheet, gallery images, the Tabletop Simulator deck, the components and changes, and the
    licence, as a folder and a zip (the same bytes for the same inputs with
    SOURCE_DATE_EPOCH). A deck with 'contest:' is checked against it first.
    """
    each_deck(decks, False, None, {}, pack_writer(out, base_url, strict))


def pack_writer(out: Path, base_url: str | None, strict: bool):
    """The ``write`` of :func:`written` that packs a deck and says so."""
    def write(path, chosen, only_declared):
        from ..pipeline.pack import pack_deck

        result = pack_deck(path, out, strict, base_url)
        warn(result.warnings)
        contest = result.deck.contest
        click.echo(f"{result.deck.name}: {len(result.files)} files"
                   + (f", keeps to {contest.title} ({contest.name})" if contest else "")
                   + f" -> {shown(result.folder)}, {shown(result.zip_path)} "
                   f"({result.seconds:.2f} s)")
    return write
