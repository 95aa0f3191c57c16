"""The ``cardkit`` command: build, list and validate decks.

Bad input exits with code 2 and ``file:line:col: problem; fix`` lines on stderr, never a
traceback. Set CARDKIT_DEBUG=1 to see the traceback of an internal error.

Each command imports the modules that do its work when it runs, not when this module loads:
those bring reportlab, Pillow and pypdf, and importing them for every command made
``cardkit --help`` take ten times as long as Python's own start (issue 14). The choices and
defaults the options show come from small modules, or from their own module when click
first needs them (:class:`_LateChoice`).
"""

from __future__ import annotations

import errno
import math
import os
import signal
import sys
import threading
from importlib import import_module
from pathlib import Path
from typing import TYPE_CHECKING

import click

from ..sources.bundled import bundled_decks, find_deck
from ..common.errors import InputError, lacking_library
from ..games import MODULES as GAMES
from ..imposition.services import DEFAULT_DPI, FORMATS, PREVIEW_DPI, SERVICES
from ..common.units import MM, UnitError, parse_length

if TYPE_CHECKING:
    from ..imposition.sheets import SheetOptions

EXIT_BAD_INPUT = 2
MAX_NAME, MAX_PATH = 255, 4096  # what Linux and macOS file systems take
MAX_GAMES = 1_000_000  # a simulation's results are kept in memory, about 1 KB a game


def _report_input_error(error: InputError, what: str) -> None:
    _warn(error.warnings)
    for problem in error.problems:
        click.echo(f"{problem}", err=True)
    count = len(error.problems)
    click.echo(f"cardkit: {count} problem{'s' * (count != 1)} {what}", err=True)


def _named(deck: str) -> str:
    """How a message names the deck the user gave: a bundled deck by its name, a folder or
    file by its full path ('.' says nothing once the problems have scrolled by)."""
    path = Path(deck)
    return str(path.resolve()) if path.exists() else deck


def _report_output_error(error: OSError) -> None:
    """What went wrong writing the output, and what to do: a full disk is not a folder
    to change, and an error without an operating-system code is a library failing to
    read an input (a file that changed or broke after it was checked), not the output."""
    where = f" {error.filename}" if error.filename else ""
    if error.errno in (errno.ENOSPC, errno.EDQUOT):
        click.echo(f"cardkit: cannot write{where}: the disk is full (or your quota is used "
                   "up); free some space, or give --out a folder on another disk", err=True)
    elif error.errno is None:
        click.echo(f"cardkit: cannot read an input while writing: {error}; check the deck's "
                   "files with 'cardkit validate' (one may have changed since)", err=True)
    else:
        click.echo(f"cardkit: cannot write{where}: {error.strerror or error}; give --out a "
                   "folder you can write to", err=True)


def _warn(warnings) -> None:
    for warning in warnings:
        click.echo(f"warning: {warning}", err=True)


def _variants(ctx, param, value):
    chosen = {}
    for item in value:
        name, sep, option = item.partition("=")
        if not sep or not name or not option:
            raise click.BadParameter(f"'{item}' is not NAME=VALUE; write e.g. 'players=3'")
        chosen[name] = option
    return chosen


def _cards(ctx, param, value):
    from ..deck.selection import SpecError, parse_spec

    try:
        parse_spec(value) if value else None
    except SpecError as error:
        raise click.BadParameter(str(error)) from None
    return value


class _LateChoice(click.Choice):
    """A Choice whose choices ``find(module)`` gives when click first needs them, to parse
    or to show help, importing the ``module`` (relative to cardkit) only then: the command
    alone pays for it. cardkit.deck.model imports reportlab; cardkit.imposition.sheets takes as long to
    load as the rest of what 'cardkit --help' needs."""

    def __init__(self, module: str, find):
        self._module, self._find = module, find
        self.case_sensitive = True

    @property
    def choices(self) -> tuple:
        return tuple(self._find(import_module(self._module, __package__)))


def _shown(path: Path) -> str:
    """A path relative to the working folder when it is inside it."""
    try:
        return str(path.resolve().relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def _cli_length(text: str) -> float:
    """A length from the command line, in points: '3mm', '0.125in'; a bare number is in
    millimetres. Raises ValueError."""
    text = text.strip()
    try:
        return parse_length(text)
    except UnitError:
        return parse_length(text + "mm")


def _bleed(ctx, param, value):
    try:
        bleed = _cli_length(value)
    except ValueError:
        raise click.BadParameter(f"'{value}' is not a length; write e.g. '3mm', "
                                 "'0.125in' or '3' (millimetres)") from None
    if not 0 <= bleed <= 10 * MM:
        raise click.BadParameter(f"'{value}' is not between 0 and 10mm")
    return bleed


def _optional_bleed(ctx, param, value):
    return None if value is None else _bleed(ctx, param, value)


def _back_offset(ctx, param, value):
    if value is None:
        return None
    try:
        x, y = (_cli_length(v) for v in value.split(","))
    except ValueError:
        raise click.BadParameter(f"'{value}' is not two lengths; write e.g. '0.5,-0.3' "
                                 "(millimetres right, down) or '0.5mm,-0.01in'") from None
    if max(abs(x), abs(y)) > 20 * MM:
        raise click.BadParameter(f"'{value}' moves the backs more than 20mm; read it again "
                                 "from a calibration sheet ('cardkit calibrate')")
    return x, y


_DUPLEX_HELP = "Which edge your printer flips the paper on (pnp sheets; default long)."
_OFFSET_HELP = ("Shift the backs X right and Y down (millimetres, or lengths such as "
                "'0.5mm,-0.01in') to correct a printer that does not line up the two sides; "
                "'cardkit calibrate' prints a sheet to read them from.")


def _internal_error(exc: Exception) -> str:
    return (f"internal error: {exc!r}. Please report it with the deck that caused it "
            "(CARDKIT_DEBUG=1 shows the traceback).")


class _Group(click.Group):
    """Turns unexpected exceptions into a one-line message instead of a traceback."""

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except (click.exceptions.Exit, click.ClickException, click.Abort):
            raise
        except BrokenPipeError:  # the reader went away (`cardkit list | head`): stop quietly
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            ctx.exit(1)
        except InputError as error:  # raised outside a command's own handling
            _report_input_error(error, "in the input")
            ctx.exit(EXIT_BAD_INPUT)
        except OSError as exc:
            if exc.errno != errno.ENAMETOOLONG:
                raise
            # only names the user gave (a deck, a folder, an 'extends') grow this long
            name = str(exc.filename or "")
            shown = name if len(name) <= 80 else name[:40] + "…" + name[-30:]
            click.echo(f"cardkit: {shown}: a name in this path is too long for the file "
                       f"system (at most {MAX_NAME} bytes a name, {MAX_PATH:,} a path); use "
                       "shorter names", err=True)
            ctx.exit(EXIT_BAD_INPUT)
        except Exception as exc:
            if os.environ.get("CARDKIT_DEBUG"):
                raise
            if isinstance(exc, ModuleNotFoundError) and \
                    not (exc.name or "cardkit").startswith("cardkit"):
                click.echo(lacking_library(exc.name), err=True)  # a command imports it late
                ctx.exit(1)
            click.echo(f"cardkit: {_internal_error(exc)}", err=True)
            ctx.exit(1)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="cardkit")
def main():
    """cardkit turns a deck described in YAML into print-ready card sheets.

    \b
    Start with:
      cardkit new my-game          a deck of your own to change
      cardkit watch my-game        rebuild it on every save
      cardkit preview my-game      PNGs of its cards, and a contact sheet
      cardkit list                 the decks that ship with cardkit
      cardkit build blofa          print-and-play PDF in output/blofa/
      cardkit export blofa --for tgc   images for a print service
      cardkit validate my-game     check a deck without building it
      cardkit check bullet         check the rules examples of a game
      cardkit score bullet "6 6 6 5 5" "4 4 4 7 7"   ask the rules
    """
    # a terminated build unwinds like Ctrl-C does, so it removes its temporary files (only
    # the main thread may set a handler: cardkit run from a thread leaves it be)
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, _terminated)


def _terminated(signum, frame):
    raise SystemExit(128 + signum)


def _options(*options):
    """A decorator adding ``options`` to a command, in the order given."""
    def decorate(command):
        for option in reversed(options):
            command = option(command)
        return command
    return decorate


# what to build and how strictly: every command that writes a deck
_choice_options = _options(
    click.option("--out", type=click.Path(file_okay=False, path_type=Path),
                 default=Path("output"), show_default="output/ in the current folder",
                 help="Folder for the output; each deck gets a subfolder."),
    click.option("--strict", is_flag=True,
                 help="Treat warnings as errors: text that does not fit, missing glyphs, "
                      "ink outside the card or in the unsafe band, images under 300 dpi."),
    click.option("--players", type=click.IntRange(1, 99), metavar="N",
                 help="Only the cards for N players, for decks with a 'players' variant "
                      "(the same as --variant players=N)."),
    click.option("--variant", "variants", multiple=True, callback=_variants,
                 metavar="NAME=VALUE", help="Pick an option of one of the deck's variants."),
    click.option("--cards", default="", callback=_cards, metavar="SPEC",
                 help="Only these cards, each once: numbers and ranges ('3,7-9', as "
                      "messages and 'cardkit preview' number them) or FIELD=VALUE "
                      "('name=Dragon'). For proofs and spares."),
)

# which decks: one or more named, or every bundled one
_deck_options = _options(
    click.argument("decks", nargs=-1),
    click.option("--all", "every_deck", is_flag=True, help="Every bundled deck."),
    _choice_options,
)

# how the home-printing sheets are laid out: build and watch
_sheet_options = _options(
    click.option("--sheet", type=click.Choice(["pnp", "gutterfold"]), default="pnp",
                 show_default=True,
                 help="pnp: fronts and backs on alternate pages for duplex printing. "
                      "gutterfold: fronts and backs side by side, fold and glue."),
    click.option("--paper", type=_LateChoice("..imposition.sheets", lambda sheets: sorted(sheets.PAPERS)),
                 default="a4", show_default=True),
    click.option("--orientation", default="auto",
                 type=_LateChoice("..imposition.sheets", lambda sheets: sheets.ORIENTATIONS),
                 show_default=True,
                 help="auto: whichever way up holds more cards (portrait on a tie)."),
    click.option("--duplex", type=click.Choice(["long", "short"]), help=_DUPLEX_HELP),
    click.option("--back-offset", callback=_back_offset, metavar="X,Y", help=_OFFSET_HELP),
    click.option("--bleed", default="0", callback=_bleed, show_default=True,
                 metavar="LENGTH", help="Extend card backgrounds this far past the trim "
                 "line: '3mm', '0.125in', or a bare number of millimetres."),
    click.option("--guides", is_flag=True, help="Draw trim lines and safe areas for proofing."),
    click.option("--ink", type=click.Choice(["full", "draft"]), default="full",
                 show_default=True,
                 help="draft: backgrounds, tints and large shapes print light (a fifth of "
                      "their ink) and light text on them dark, for playtest prints."),
)


def _each_deck(decks, every_deck, players, variants, write) -> None:
    """Call ``write(path, variants, only_declared)`` for each deck named (or every bundled
    deck), reporting bad input per deck; exit 2 if any deck was refused."""
    variants = _with_players(variants, players)
    if every_deck:
        decks = tuple(bundled_decks()) + decks
    if not decks:
        raise click.UsageError("name a deck, or use --all")
    # --all applies a variant to the decks that have it
    results = [_written(name, write, variants, every_deck) for name in decks]
    if not all(results):
        sys.exit(EXIT_BAD_INPUT)


def _count(number: int, thing: str) -> str:
    """``1 card``, ``18 cards``."""
    return f"{number:,} {thing}{'s' * (number != 1)}"


def _with_players(variants: dict, players: int | None) -> dict:
    return variants if players is None else {**variants, "players": str(players)}


def _written(name: str, write, variants: dict, only_declared: bool) -> bool:
    """Call ``write`` for the deck ``name``; report its bad input or unwritable output and
    return False, or return True."""
    try:
        write(find_deck(name), variants, only_declared)
        return True
    except InputError as error:
        _report_input_error(error, f"in {_named(name)}; nothing was written")
    except OSError as error:  # the output folder: read-only, under a file, too long
        _report_output_error(error)
    return False


@main.command()
@_deck_options
@_sheet_options
def build(decks, every_deck, out, strict, players, variants, cards, sheet, paper, orientation,
          duplex, back_offset, bleed, guides, ink):
    """Build print-ready PDF sheets for DECKS.

    Each DECK is a bundled deck's name (see 'cardkit list'), a deck's folder or its
    YAML file. A failed build leaves the previous output untouched.
    """
    from ..imposition.sheets import SheetOptions

    options = SheetOptions(sheet, paper, duplex, back_offset, bleed, guides, orientation, ink)
    _each_deck(decks, every_deck, players, variants,
               _build_writer(out, options, strict, cards))


def _build_writer(out: Path, options: SheetOptions, strict: bool, cards: str):
    """The ``write`` of :func:`_written` that builds a deck's sheets and says so."""
    from ..imposition.sheets import PAPER_NAMES

    def write(path, chosen, only_declared):
        from ..pipeline.build import build_deck

        result = build_deck(path, out, options, strict, chosen, only_declared, cards)
        _warn(result.warnings)
        grid = result.grid
        click.echo(f"{result.deck.name}: {_count(result.cards, 'card')}, "
                   f"{_count(result.pages, 'page')} "
                   f"({PAPER_NAMES[options.paper]} {grid.orientation}, {grid.per_page} a "
                   f"page) -> {_shown(result.path)} ({result.seconds:.2f} s)")
    return write


def _preview_writer(out: Path, dpi: int, strict: bool, cards: str):
    """The ``write`` of :func:`_written` that writes a deck's preview images."""
    from ..pipeline.export import preview_deck

    def write(path, chosen, only_declared):
        result = preview_deck(path, out, dpi, strict, chosen, only_declared, _progress, cards)
        _warn(result.warnings)
        click.echo(f"{result.deck.name}: {_count(len(result.deck.cards), 'card')} previewed -> "
                   f"{_shown(result.path)} ({result.seconds:.2f} s)")
    return write


@main.command()
@click.argument("deck")
@_choice_options
@_sheet_options
@click.option("--preview", "also_preview", is_flag=True,
              help="Also write the preview images after each build (of the --cards chosen), "
                   "for an image viewer that reloads them.")
def watch(deck, out, strict, players, variants, cards, sheet, paper, orientation, duplex,
          back_offset, bleed, guides, ink, also_preview):
    """Build DECK, then build it again each time a file it reads is saved: the deck, its
    layouts, spreadsheets, images, icons and fonts. Takes the options of 'cardkit build'.

    \b
      cardkit watch my-game
      cardkit watch my-game --cards 3 --preview    proof card 3 as you work on it

    A save with a mistake prints the problems and the last good PDF stays; the next save
    builds again. Ctrl-C stops.
    """
    import time

    from ..imposition.sheets import SheetOptions
    from ..pipeline.watch import watch as watch_deck
    from ..pipeline.watch import watched_folders

    try:
        path = find_deck(deck)
    except InputError as error:
        _report_input_error(error, f"in {_named(deck)}")
        sys.exit(EXIT_BAD_INPUT)
    options = SheetOptions(sheet, paper, duplex, back_offset, bleed, guides, orientation, ink)
    variants = _with_players(variants, players)
    writers = [_build_writer(out, options, strict, cards)]
    if also_preview:
        writers.append(_preview_writer(out, PREVIEW_DPI, strict, cards))

    def rebuild(changed: list[str]) -> None:
        if changed:
            more = len(changed) - 3
            click.echo(time.strftime("%H:%M:%S ") + ", ".join(changed[:3])
                       + (f" and {more} more" if more > 0 else "") + " changed")
        for write in writers:
            try:
                if not _written(deck, write, variants, False):
                    break  # the build's problems are the preview's too
            except Exception as exc:  # a bug of cardkit's: say so, and keep watching
                if os.environ.get("CARDKIT_DEBUG"):
                    raise
                click.echo(f"cardkit: {_internal_error(exc)}", err=True)
                break
        if not changed:
            click.echo("watching " + ", ".join(_shown(f) for f in watched_folders(path))
                       + " for changes (Ctrl-C stops)")

    try:
        watch_deck(path, out, rebuild)
    except KeyboardInterrupt:  # how a watch is meant to end
        pass


def _progress(length: int):
    """A progress bar on a terminal; nothing otherwise (logs and pipes stay clean)."""
    if not sys.stderr.isatty():
        from ..pipeline.export import no_progress

        return no_progress(length)
    return click.progressbar(length=length, file=sys.stderr, show_eta=False)


def _service(ctx, param, value):
    return SERVICES[value] if value else None


@main.command()
@_deck_options
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
@click.option("--bleed", callback=_optional_bleed, metavar="LENGTH",
              help="Art past the trim on each side: '3mm', '0.125in', or millimetres. "
                   "[default: the service's, else none]")
@click.option("--colour", type=click.Choice(["rgb", "cmyk"]),
              help="Colours of a pdf: cmyk writes every colour and image as CMYK, black "
                   "text pure black, ink limited to the service's maximum. "
                   "[default: the service's, else rgb]")
@click.option("--base-url", metavar="URL",
              help="tts: where you will host the images (default: file:// paths on this "
                   "computer, for playing alone).")
def export(decks, every_deck, out, strict, players, variants, cards, to, service, dpi, bleed,
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
        result = export_deck(path, out, options, strict, chosen, only_declared, _progress,
                             cards)
        _warn(result.warnings)
        for note in result.notes:
            click.echo(f"note: {note}", err=True)
        click.echo(f"{result.deck.name}: {result.files} {result.what} -> "
                   f"{_shown(result.path)} ({result.seconds:.2f} s)")

    _each_deck(decks, every_deck, players, variants, write)


@main.command()
@_deck_options
@click.option("--dpi", type=click.IntRange(36, 600), default=PREVIEW_DPI, show_default=True,
              help="Image resolution: 150 suits a screen, 300 a close look.")
def preview(decks, every_deck, out, strict, players, variants, cards, dpi):
    """Show DECKS on screen: an image of each card's front and back side by side, and a
    contact sheet of the deck, each card labelled with its number.

    \b
      cardkit preview blofa                 every card, and the contact sheet
      cardkit preview blofa --cards 3       card 3 alone
      cardkit preview my-game --cards kind=event

    The images go to output/DECK/DECK-preview/, replacing the last preview.
    """
    _each_deck(decks, every_deck, players, variants, _preview_writer(out, dpi, strict, cards))


@main.command()
@click.option("--paper", type=_LateChoice("..imposition.sheets", lambda sheets: sorted(sheets.PAPERS)),
              default="a4", show_default=True)
@click.option("--duplex", type=click.Choice(["long", "short"]), default="long",
              show_default=True, help="Which edge your printer flips the paper on.")
@click.option("--orientation", default="portrait",
              type=_LateChoice("..imposition.sheets", lambda sheets: sheets.ORIENTATIONS[1:]),
              show_default=True,
              help="Calibrate the way up your sheets print ('cardkit build' names it).")
@click.option("--back-offset", callback=_back_offset, metavar="X,Y",
              help="Print the back with this correction applied, to check it: the red "
                   "lines then read 0.")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path),
              default=Path("output"), show_default="output/ in the current folder",
              help="Folder for the output; the sheet goes in its 'calibration' subfolder.")
def calibrate(paper, duplex, orientation, back_offset, out):
    """Print a test sheet that measures your printer: whether it prints at 100%, and how far
    it shifts the back side, as the --back-offset value to build with.

    Print it two-sided the way you print cards, hold it to the light and read where the
    red lines on the back cross the scales on the front.
    """
    from ..pipeline.build import offset_part
    from ..common.atomic import atomic_path
    from ..writers.calibration_pdf import write_calibration

    name = f"calibration-{paper}-{duplex}"
    name += "-landscape" if orientation == "landscape" else ""
    if any(back_offset or ()):
        name += "-" + offset_part(back_offset)
    path = out / "calibration" / f"{name}.pdf"
    try:
        with atomic_path(path) as temporary:
            write_calibration(temporary, paper, duplex, orientation, back_offset or (0.0, 0.0))
    except OSError as error:
        _report_output_error(error)
        sys.exit(EXIT_BAD_INPUT)
    click.echo(f"calibration sheet -> {_shown(path)}: print it two-sided, flipping on the "
               f"{duplex} edge, at 100%")


@main.command()
@click.argument("folder", type=click.Path(path_type=Path))
@click.option("--size", default="poker",
              type=_LateChoice("..deck.model", lambda model: model.SIZE_PRESETS_MM),
              show_default=True, help="The cards' size; the layouts fit every size.")
def new(folder, size):
    """Start a new deck in FOLDER, named after it: a deck of two kinds of card read from a
    spreadsheet, their layouts and backs, and a README saying what to change. It builds as
    it stands.

    \b
      cardkit new my-game
      cardkit new my-game --size tarot
    """
    from ..starter import create_deck

    try:
        files = create_deck(folder, folder.name, size)
    except InputError as error:
        _report_input_error(error, f"in {folder}; nothing was written")
        sys.exit(EXIT_BAD_INPUT)
    shown = _shown(folder)
    click.echo(f"{folder.name}: a new deck of {size} cards in {shown}/ ("
               + ", ".join(str(f) for f in files if f.parent == Path(".")) + ", layouts/, "
               "schemas/)")
    click.echo(f"next: cardkit build {shown}, or 'cardkit watch .' in {shown}/ to rebuild "
               "on every save; its README.md says what each file is for")


@main.command()
@click.argument("kind", type=click.Choice(["deck", "layout"]))
def schema(kind):
    """Print the JSON Schema of a deck file or a layout file, for editors that complete
    keys and flag mistakes as you type.

    \b
      cardkit schema deck > deck.schema.json
      cardkit schema layout > layout.schema.json

    Then make this the first line of deck.yaml (for VS Code's YAML extension and others):
      # yaml-language-server: $schema=deck.schema.json
    """
    import json

    from ..deck.schema import deck_schema, layout_schema

    click.echo(json.dumps(deck_schema() if kind == "deck" else layout_schema(), indent=2))


@main.command(name="list")
def list_decks():
    """List the bundled decks with their card counts."""
    from ..pipeline.listing import deck_summaries

    for name, deck in deck_summaries().items():
        if deck.problems:
            click.echo(f"{name:12} INVALID ({deck.problems} problems; "
                       f"run 'cardkit validate {name}')")
            continue
        variants = "".join(f"  [{k}: {', '.join(v)}]" for k, v in deck.variants.items())
        click.echo(f"{name:12} {_count(deck.total, 'card'):>10}  {deck.size:8} {deck.title}"
                   + variants)


@main.command()
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
        _report_input_error(error, f"in {_named(deck)}")
        sys.exit(EXIT_BAD_INPUT)
    _warn(report.warnings)
    count = len(report.warnings)
    click.echo(f"{loaded.name}: {_count(loaded.total(), 'card')}, {len(loaded.cards)} "
               "distinct, OK"
               + (f" ({count} warning{'s' * (count != 1)})" if count else ""))


GAME_NAMES = sorted(GAMES)


@main.command()
@click.argument("game", required=False, type=click.Choice(GAME_NAMES))
@click.argument("file", required=False, type=click.Path(dir_okay=False, path_type=Path))
@click.option("--all", "check_all", is_flag=True, help="Check every game's bundled examples.")
def check(game, file, check_all):
    """Check example hands and scores against the rules of GAME.

    Runs the examples bundled with the game's deck, or those in FILE, one line each: a
    mark and the rules' answer in words. Also checks that the bundled deck holds the cards
    the rules assume. Exit code 0 when every example holds, 1 when one does not, 2 when an
    example cannot be read.
    """
    from ..deck.loader import load_deck
    from ..rules.examples import EXAMPLES_FILE, check_deck, run_examples

    if check_all == bool(game):
        raise click.UsageError("name a GAME, or use --all")
    games = GAME_NAMES if check_all else [game]
    failed = bad = False
    for name in games:
        path = file or bundled_decks()[name].parent / EXAMPLES_FILE
        try:
            outcomes = run_examples(name, path)
        except InputError as error:
            _report_input_error(error, f"in {path}")
            bad = True
            continue
        for outcome in outcomes:
            if outcome.ok:
                click.echo(f"✓ {outcome.name}: {outcome.reason}")
            else:
                failed = True
                click.echo(f"✗ {outcome.name}: expected {outcome.expected}, got "
                           f"{outcome.actual} ({outcome.reason}) [{outcome.where}]")
        deck = load_deck(bundled_decks()[name])
        cards = [{**card.fields, "back": card.back.name} for card in deck.copies()]
        deck_problems = check_deck(name, cards)
        for problem in deck_problems:
            click.echo(f"✗ deck {name}: {problem}")
        failed = failed or bool(deck_problems)
        held = sum(o.ok for o in outcomes)
        click.echo(f"{name}: {held} of {len(outcomes)} examples hold; the {name} deck "
                   + ("does not match the rules" if deck_problems else "matches the rules"))
    if bad:
        sys.exit(EXIT_BAD_INPUT)
    if failed:
        sys.exit(1)


@main.command()
@click.argument("game", type=click.Choice(GAME_NAMES))
@click.argument("cards", nargs=-1)
@click.option("--players", type=int, help="Number of players (bullet: values in play; "
              "shapes: where a triplet's arrows send it).")
@click.option("--foundations", metavar="CARDS", help="ragusa: the four Foundation Cards.")
@click.option("--room", metavar="CARDS", help="rise-up: the cards in the room.")
@click.option("--declared", type=int, help="blofa: the declared sum of the played cards.")
@click.option("--owner", type=int, default=0, show_default=True,
              help="shapes: the seat that locked the triplet in.")
def score(game, cards, players, foundations, room, declared, owner):
    """A quick answer from the rules of GAME.

    \b
      cardkit score bullet "6 6 6 5 5" "4 4 4 7 7"
      cardkit score ragusa --foundations "4H 7C 9D QS" "hearts: KC KD 5H 5S 9C" \\
                           "spades: AS AD 2C 3C 8H"
      cardkit score rise-up --room "7C 9D" 5H "KS used"
      cardkit score blofa 4 --declared 2
      cardkit score shapes "circle 1 clear left" "circle 2 striped left" \\
                           "circle 3 solid left" --players 4 --owner 0
    """
    from ..rules.errors import RulesError
    from ..rules.quick import score as quick_score

    try:
        lines = quick_score(game, cards, players, foundations, room, declared, owner)
    except RulesError as error:
        click.echo(f"cardkit: {error.what}; {error.fix}", err=True)
        sys.exit(EXIT_BAD_INPUT)
    for line in lines:
        click.echo(line)


def _bot_specs(ctx, param, value):
    from ..playtest.runner import BotSpec

    specs = []
    for text in value:
        name, _, rest = text.partition(":")
        params = []
        for item in filter(None, rest.split(",")):
            key, sep, number = item.partition("=")
            try:
                parsed = float(number)
            except ValueError:
                parsed = math.nan
            if not sep or not key or not math.isfinite(parsed):
                raise click.BadParameter(f"'{item}' in '{text}' is not NAME=NUMBER; write "
                                         "e.g. 'heuristic:bluff_rate=0.3,call_threshold=0.6'")
            params.append((key, parsed))
        specs.append(BotSpec(name, tuple(params)))
    return tuple(specs)


@main.command()
@click.argument("game", type=click.Choice(GAME_NAMES))
@click.option("--games", "count", type=click.IntRange(1, MAX_GAMES), default=1000,
              show_default=True, help=f"How many games to play (at most {MAX_GAMES:,}: "
              "the results of a run are held in memory, about 1 KB a game).")
@click.option("--players", type=int, help="Players a game (default: the game's usual number).")
@click.option("--seed", type=int, default=1, show_default=True,
              help="Same seed, same games, however many workers.")
@click.option("--bots", "bots", multiple=True, callback=_bot_specs, metavar="BOT[:K=V,...]",
              help="Who plays: 'random' or 'heuristic' with parameters, e.g. "
                   "'heuristic:bluff_rate=0.3'. Once for every seat, or once a seat in order "
                   "(default: random).")
@click.option("--deck", "deck_file", metavar="DECK",
              help="Play with a changed deck: its cards' counts and fields decide the "
                   "composition (a deck folder, YAML file or bundled deck name).")
@click.option("--report", "report_dir", type=click.Path(file_okay=False, path_type=Path),
              help="Write a report folder: report.html with plots, summary.json, games.csv.")
@click.option("--workers", type=click.IntRange(1, 64), default=os.cpu_count() or 1,
              show_default="the machine's cores", help="Processes playing in parallel.")
def simulate(game, count, players, seed, bots, deck_file, report_dir, workers):
    """Play GAME many times with bots and show how it behaves: who wins from which seat,
    how long games last, the scores and the game's own figures.

    \b
      cardkit simulate blofa --games 5000
      cardkit simulate bullet --players 3 --bots heuristic:bluff_rate=0.5 \\
                              --bots random --bots random
      cardkit simulate ragusa --deck my-ragusa/ --report output/ragusa-sim
    """
    import time

    from ..deck.loader import load_deck
    from ..games import load_game
    from ..playtest.report import write_report
    from ..playtest.runner import BotSpec, Setup, play_many
    from ..playtest.summary import summarise
    import random

    from ..common.errors import Problem, Where
    from ..rules.errors import RulesError

    def refuse(what: str, fix: str):
        click.echo(f"cardkit: {what}; {fix}", err=True)
        sys.exit(EXIT_BAD_INPUT)

    if report_dir is not None:
        from ..playtest.report import REPORT_FILES, why_not_a_report_folder

        why = why_not_a_report_folder(report_dir)
        if why:
            refuse(f"--report {report_dir or repr('')}: {why}", "give --report a new or "
                   f"empty folder, or one holding only a report's {', '.join(REPORT_FILES)}")
    rules = load_game(game)
    players = rules.default_players if players is None else players
    if players not in rules.players:
        allowed = rules.players
        span = f"{allowed[0]}" if len(allowed) == 1 else f"{allowed[0]}-{allowed[-1]}"
        refuse(f"{rules.title} is for {span} player{'s' * (allowed != (1,))}, not {players}",
               "choose --players " + " or ".join(map(str, allowed)) if len(allowed) < 4
               else f"choose --players from {span}")
    bots = bots or (BotSpec("random"),)
    if len(bots) not in (1, players):
        refuse(f"{len(bots)} --bots for {players} players",
               "give --bots once for every seat, or once a seat")
    for spec in bots:
        if spec.name not in rules.bots:
            refuse(f"{game} has no bot '{spec.name}'", "use one of: " + ", ".join(rules.bots))
        try:
            rules.bots[spec.name](**dict(spec.params))
        except RulesError as error:
            refuse(f"--bots {spec}: {error.what}", error.fix)
    cards = None
    if deck_file:
        try:
            deck = load_deck(find_deck(deck_file))
        except InputError as error:
            _report_input_error(error, f"in {deck_file}")
            sys.exit(EXIT_BAD_INPUT)
        copies = deck.copies()
        try:
            cards = rules.cards_from_deck([{**card.fields, "back": card.back.name}
                                           for card in copies])
        except RulesError as error:
            if error.card is None:
                problem = Problem(Where(deck.path), error.what, error.fix)
            else:  # the card, where it is written, in the designer's words
                card = copies[error.card]
                problem = Problem(card.where, f"{card.label()}: {error.what}", error.fix)
            _report_input_error(InputError([problem]), f"in {_named(deck_file)} for "
                                f"{rules.title}")
            sys.exit(EXIT_BAD_INPUT)
    try:  # a deck the game cannot be dealt from (fewer rule cards than players...)
        rules.new_state(players, random.Random(seed), cards)
    except RulesError as error:
        refuse(f"{rules.title} cannot be dealt for {players} players"
               + (f" from {deck_file}" if deck_file else "") + f": {error.what}", error.fix)
    setup = Setup(game, players, seed, tuple(bots) * (players // len(bots)), cards)
    started = time.perf_counter()
    with _progress(count) as bar:
        results = play_many(setup, count, workers, bar.update)
    summary = summarise(setup, results, time.perf_counter() - started)
    for line in _summary_lines(summary):
        click.echo(line)
    if report_dir:
        try:
            write_report(report_dir, summary, results)
        except OSError as error:
            click.echo(f"cardkit: cannot write {error.filename or report_dir}: "
                       f"{error.strerror or error}; give --report a folder you can write to",
                       err=True)
            sys.exit(EXIT_BAD_INPUT)
        click.echo(f"report: {_shown(Path(report_dir) / 'report.html')}")


def _summary_lines(summary: dict) -> list[str]:
    """The run in a few lines for the terminal."""
    per_second = summary["games"] / summary["seconds"] if summary["seconds"] else 0
    lines = [f"{summary['game']}: {summary['games']:,} games, {summary['players']} "
             f"player{'s' * (summary['players'] != 1)}, {summary['deck']}, seed "
             f"{summary['seed']} ({summary['seconds']:.1f} s, {per_second:,.0f} games/s)"]
    for seat in summary["seats"]:
        low, high = seat["interval"]
        lines.append(f"  seat {seat['seat']} ({seat['bot']}): won {seat['win_rate']:.1%} "
                     f"(95%: {low:.1%}-{high:.1%}), mean score {seat['score']['mean']:.2f}")
    if summary["players"] > 1:
        lines.append(f"  nobody won: {summary['nobody_won']:.1%}")
    length = summary["length"]
    lines.append(f"  length: {length['mean']:.1f} moves on average (median {length['median']}, "
                 f"10-90%: {length['p10']}-{length['p90']})")
    for name, figure in summary["figures"].items():
        shown = name.replace("_", " ")
        if figure["kind"] == "number":
            lines.append(f"  {shown}: {figure['mean']:.2f} a game")
        else:
            total = sum(figure["counts"].values())
            lines.append(f"  {shown}: " + ", ".join(
                f"{value} {count / total:.0%}" for value, count in figure["counts"].items()))
    return lines
