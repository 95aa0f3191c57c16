"""The options several commands share, in one place: which decks and cards (``deck_options``,
``choice_options``), how home-printing sheets are laid out (``sheet_options``), and the
parsing of lengths, offsets and choices that load late.
"""

from __future__ import annotations

import functools
import sys
from importlib import import_module
from pathlib import Path

import click

from ..common.units import MM, UnitError, parse_length
from ..games import MODULES as GAMES

GAME_NAMES = sorted(GAMES)


def _variants(ctx, param, value):
    chosen = {}
    for item in value:
        name, sep, option = item.partition("=")
        if not sep or not name or not option:
            raise click.BadParameter(f"'{item}' is not NAME=VALUE; write e.g. 'players=3'")
        chosen[name] = option
    return chosen


def _cards(ctx, param, value):
    if not value:  # the selection's module brings the whole deck model: only when asked
        return value
    from ..deck.selection import SpecError, parse_spec

    try:
        parse_spec(value)
    except SpecError as error:
        raise click.BadParameter(str(error)) from None
    return value


class LateChoice(click.Choice):
    """A Choice whose choices ``find(module)`` gives when click first needs them, to parse
    or to show help, importing the ``module`` (its full name) only then: the command
    alone pays for it. cardkit.deck.model imports reportlab; cardkit.imposition.sheets takes
    as long to load as the rest of what 'cardkit --help' needs."""

    def __init__(self, module: str, find):
        self._module, self._find = module, find
        self.case_sensitive = True

    @property
    def choices(self) -> tuple:
        return tuple(self._find(import_module(self._module)))


PAPERS = LateChoice("cardkit.imposition.paper", lambda paper: sorted(paper.PAPERS))


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


def parse_optional_bleed(ctx, param, value):
    return None if value is None else _bleed(ctx, param, value)


def parse_back_offset(ctx, param, value):
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
OFFSET_HELP = ("Shift the backs X right and Y down (millimetres, or lengths such as "
               "'0.5mm,-0.01in') to correct a printer that does not line up the two sides; "
               "'cardkit calibrate' prints a sheet to read them from.")


def _gathered_which(command):
    """Hands the command one ``which`` (pipeline.chosen.Which) for --cards,
    --changed-since and --lang."""
    @functools.wraps(command)
    def gathered(*args, cards, changed_since, lang, **kwargs):
        from ..pipeline.chosen import Which

        return command(*args, which=Which(cards, changed_since, lang), **kwargs)
    return gathered


_LINKS = __package__.rpartition(".")[0] + ".sources.links"


def _network_choice(command):
    """Tells the sources what the user allowed of the network for this command
    (--allow-network, --refresh), for the decks whose cards come from a sheet's link."""
    @functools.wraps(command)
    def chosen(*args, allow_network, refresh, **kwargs):
        # not imported yet, the module holds its default, no network: a deck without
        # links need not import it (and its spreadsheet readers) to be told
        links = sys.modules.get(_LINKS)
        if links is None and (allow_network or refresh):
            from ..sources import links
        if links is not None:
            links.NETWORK.allowed, links.NETWORK.refresh = allow_network, refresh
        return command(*args, **kwargs)
    return chosen


def _options(*options):
    """A decorator adding ``options`` to a command, in the order given."""
    def decorate(command):
        for option in reversed(options):
            command = option(command)
        return command
    return decorate


# whether the sheets a deck names by link may be fetched: every command that reads a deck
network_options = _options(
    click.option("--allow-network", is_flag=True,
                 help="Fetch the sheets the deck names by link ('from: https://...'), "
                      "asking whether they changed since the copy kept in the deck's "
                      ".cardkit-cache/ folder. Without it, those copies are used."),
    click.option("--refresh", is_flag=True,
                 help="Fetch the deck's sheet links again, whatever the copies kept "
                      "(implies --allow-network)."),
    _network_choice,
)

# what to build and how strictly: every command that writes a deck
choice_options = _options(
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
    click.option("--changed-since", default="", metavar="OLD",
                 help="Only the cards that print differently from OLD (a folder or a git "
                      "revision such as v1.0; see 'cardkit diff'), the added ones and the "
                      "extra copies, after a cover page saying what to take out."),
    click.option("--lang", default="", metavar="CODE",
                 help="The deck in one of its languages ('de'), or 'all' of them, one "
                      "output each, named with the language."),
    _gathered_which,
    network_options,
)

# which decks: one or more named, or every bundled one
deck_options = _options(
    click.argument("decks", nargs=-1),
    click.option("--all", "every_deck", is_flag=True, help="Every bundled deck."),
    choice_options,
)

# how the home-printing sheets are laid out: build and watch
sheet_options = _options(
    click.option("--sheet", type=click.Choice(["pnp", "gutterfold"]), default="pnp",
                 show_default=True,
                 help="pnp: fronts and backs on alternate pages for duplex printing. "
                      "gutterfold: fronts and backs side by side, fold and glue."),
    click.option("--paper", type=PAPERS, default="a4", show_default=True),
    click.option("--orientation", default="auto",
                 type=LateChoice("cardkit.imposition.sheets", lambda sheets: sheets.ORIENTATIONS),
                 show_default=True,
                 help="auto: whichever way up holds more cards (portrait on a tie)."),
    click.option("--duplex", type=click.Choice(["long", "short"]), help=_DUPLEX_HELP),
    click.option("--back-offset", callback=parse_back_offset, metavar="X,Y", help=OFFSET_HELP),
    click.option("--bleed", default="0", callback=_bleed, show_default=True,
                 metavar="LENGTH", help="Extend card backgrounds this far past the trim "
                 "line: '3mm', '0.125in', or a bare number of millimetres."),
    click.option("--guides", is_flag=True, help="Draw trim lines and safe areas for proofing."),
    click.option("--ink", type=click.Choice(["full", "draft"]), default="full",
                 show_default=True,
                 help="draft: backgrounds, tints and large shapes print light (a fifth of "
                      "their ink) and light text on them dark, for playtest prints."),
)
