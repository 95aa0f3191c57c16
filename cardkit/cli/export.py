"""``cardkit export`` and ``cardkit preview``: a file for each card, for print services,
Tabletop Simulator or a look on screen."""

from __future__ import annotations

from pathlib import Path

import click

from ..common.errors import printable
from ..common.words import counted
from ..imposition.services import DEFAULT_DPI, FORMATS, PREVIEW_DPI, SERVICES
from .options import deck_options, parse_optional_bleed
from .output import each_deck, in_each_language, progress_bar, shown, warn


def preview_writer(out: Path, dpi: int, strict: bool, which):
    """The ``write`` of :func:`written` that writes a deck's preview images."""
    from ..pipeline.export import preview_deck

    def write(path, chosen, only_declared):
        in_each_language(path, which, lambda one: previewed(path, chosen, only_declared, one))

    def previewed(path, chosen, only_declared, one):
        result = preview_deck(path, out, dpi, strict, chosen, only_declared, progress_bar, one)
        warn(result.warnings)
        click.echo(f"{result.deck.name}: {counted(len(result.deck.cards), 'card')} previewed -> "
                   f"{shown(result.path)} ({result.seconds:.2f} s)")
    return write


def _service(ctx, param, value):
    return SERVICES[value] if value else None


@click.command()
@deck_options
@click.option("--to", type=click.Choice(FORMATS),
              help="png: one image per card face and a manifest of counts. pdf: one card "
                   "face a page, for print shops. tts: a Tabletop Simulator deck. "
                   "[default: what --for takes]")
@click.option("--for", "service", type=click.Choice(sorted(SERVICES)), callback=_service,
              help="A print service's exact sizes and rules: tgc (The Game Crafter) and mpc "
                   "(MakePlayingCards) take images; drivethru (DriveThruCards) and eu "
                   "(3 mm bleed shops) take PDFs.")
@click.option("--dpi", type=click.IntRange(72, 1200),
              help=f"Image resolution (png). [default: {DEFAULT_DPI}]")
@click.option("--bleed", callback=parse_optional_bleed, metavar="LENGTH",
              help="Art past the trim on each side: '3mm', '0.125in', or millimetres. "
                   "[default: the service's, else none]")
@click.option("--colour", type=click.Choice(["rgb", "cmyk"]),
              help="Colours of a pdf: cmyk writes every colour and image as CMYK, black "
                   "text pure black, ink limited to the service's maximum. "
                   "[default: the service's, else rgb]")
@click.option("--base-url", metavar="URL",
              help="tts: where you will host the images (default: file:// paths on this "
                   "computer, for playing alone).")
def export(decks, every_deck, out, strict, players, variants, which, to, service, dpi, bleed,
           colour, base_url):
    """Export DECKS for print services and Tabletop Simulator.

    \b
      cardkit export blofa --for tgc        images for The Game Crafter
      cardkit export blofa --for mpc        images for MakePlayingCards
      cardkit export blofa --for drivethru  CMYK PDF, one card a page
      cardkit export blofa --to tts         a deck for Tabletop Simulator
      cardkit export blofa --to png --dpi 600 --bleed 3mm

    A failed export leaves the previous output untouched.
    """
    from ..pipeline.export import ExportOptions, export_deck

    to = to or (service.to if service else None)
    if to is None:
        raise click.UsageError("say what to export: --to png, pdf or tts, or --for a service")
    if service and service.to != to:
        raise click.UsageError(f"--for {service.name} makes {service.to} files, not {to}; "
                               f"leave out --to")
    if service and (dpi or bleed is not None):
        raise click.UsageError(f"--for {service.name} sets the resolution and bleed "
                               f"{service.title} asks for; leave out --dpi and --bleed")
    if dpi and to != "png":
        raise click.UsageError("--dpi is for --to png")
    if colour and to != "pdf":
        raise click.UsageError("--colour is for --to pdf (images are RGB, as services ask)")
    if base_url and to != "tts":
        raise click.UsageError("--base-url is for --to tts")
    if to == "tts" and (bleed is not None or service):
        raise click.UsageError("a Tabletop Simulator deck has no bleed and no service")
    dpi = dpi or (service.dpi if service else DEFAULT_DPI)
    options = ExportOptions(to, service, dpi, bleed, colour, base_url)

    def write(path, chosen, only_declared):
        in_each_language(path, which, lambda one: exported(path, chosen, only_declared, one))

    def exported(path, chosen, only_declared, one):
        result = export_deck(path, out, options, strict, chosen, only_declared, progress_bar,
                             one)
        warn(result.warnings)
        for note in result.notes:
            click.echo(printable(f"note: {note}"), err=True)
        click.echo(f"{result.deck.name}: {result.files} {result.what} -> "
                   f"{shown(result.path)} ({result.seconds:.2f} s)")

    each_deck(decks, every_deck, players, variants, write)


@click.command()
@deck_options
@click.option("--dpi", type=click.IntRange(36, 600), default=PREVIEW_DPI, show_default=True,
              help="Image resolution: 150 suits a screen, 300 a close look.")
def preview(decks, every_deck, out, strict, players, variants, which, dpi):
    """Show DECKS on screen: an image of each card's front and back side by side, and a
    contact sheet of the deck, each card labelled with its number.

    \b
      cardkit preview blofa                 every card, and the contact sheet
      cardkit preview blofa --cards 3       card 3 alone
      cardkit preview my-game --cards kind=event

    The images go to output/DECK/DECK-preview/, replacing the last preview.
    """
    each_deck(decks, every_deck, players, variants, preview_writer(out, dpi, strict, which))
