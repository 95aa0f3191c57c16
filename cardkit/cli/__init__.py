"""The ``cardkit`` command. Each command is a module of this package (a small family shares
one: ``export`` and ``preview``, ``new`` and ``schema``, ``list`` and ``validate``, ``check``
and ``score``); the options several share are in :mod:`.options`, and what they print on
success and on bad input in :mod:`.output`.

Bad input exits with code 2 and ``file:line:col: problem; fix`` lines on stderr, never a
traceback. Set CARDKIT_DEBUG=1 to see the traceback of an internal error.

Each command imports the modules that do its work when it runs, not when this module loads:
those bring reportlab, Pillow and pypdf, and importing them for every command made
``cardkit --help`` take ten times as long as Python's own start (issue 14). A command's own
module is imported only when that command is used (:data:`COMMANDS`), and the choices and
defaults the options show come from small modules, or from their own module when click
first needs them (:class:`.options.LateChoice`).
"""

from __future__ import annotations

import atexit
import errno
import gc
import importlib
import os
import sys

# Python collects its youngest objects every 700 new ones. A command makes millions that
# die young and next to no cycles (a 1,000-card build: 100 collections, 60 ms, none freeing
# anything; before its first card, its imports, click's and its own, made some 50 passes,
# 15 ms): the command line's process collects them every 50,000 instead.
YOUNG_OBJECTS = 50_000
gc.set_threshold(YOUNG_OBJECTS, *gc.get_threshold()[1:])

import click  # noqa: E402  (after the collector is set: it brings some 70 modules)

from .. import __version__  # noqa: E402

MAX_NAME, MAX_PATH = 255, 4096  # what Linux and macOS file systems take

# Each command: the module of this package that defines it, its function there, and the
# first sentence of its help, which `cardkit --help` lists without importing the module
# (a command's module is imported when it runs or shows its own help; all of them made a
# third of `--help`'s time). tests/test_cli.py checks each against its command's help.
COMMANDS = {
    "board": ("components", "board",
              "Write each board of each of DECKS whole, and tiled over A4 or Letter pages."),
    "box": ("components", "box", "Write the tuck box of each of DECKS as a PDF dieline to "
            "cut, fold and glue."),
    "build": ("build", "build", "Build print-ready PDF sheets for DECKS."),
    "calibrate": ("calibrate", "calibrate", "Print a test sheet that measures your "
                  "printer: whether it prints at 100%, and how far it shifts the back "
                  "side, as the --back-offset value to build with."),
    "check": ("rules", "check", "Check example hands and scores against the rules of GAME."),
    "diff": ("diff", "diff", "Show what changed from OLD to NEW, card by card, by what "
             "prints."),
    "export": ("export", "export", "Export DECKS for print services and Tabletop Simulator."),
    "list": ("decks", "list_decks", "List the bundled decks with their card counts."),
    "new": ("new", "new", "Start a new deck in FOLDER, named after it: a deck of two kinds "
            "of card read from a spreadsheet, their layouts and backs, and a README saying "
            "what to change."),
    "pack": ("pack", "pack", "Write the contest entry of each of DECKS: the print-and-play "
             "sheets on A4 and Letter (duplex and gutterfold), a low-ink version, the "
             "rulebook, a how to print and cut sheet, gallery images, the Tabletop Simulator "
             "deck, the components and changes, and the licence, as a folder and a zip (the "
             "same bytes for the same inputs with SOURCE_DATE_EPOCH)."),
    "preview": ("export", "preview", "Show DECKS on screen: an image of each card's front "
                "and back side by side, and a contact sheet of the deck, each card labelled "
                "with its number."),
    "rulebook": ("rulebook", "rulebook", "Write the rulebook of each of DECKS as PDF, from "
                 "the rules.md beside its deck file."),
    "schema": ("new", "schema", "Print the JSON Schema of a deck file or a layout file, for "
               "editors that complete keys and flag mistakes as you type."),
    "score": ("rules", "score", "A quick answer from the rules of GAME."),
    "serve": ("serve", "serve", "Show DECK in the browser as it prints, and redraw it on "
              "every save: the deck, its layouts, spreadsheets (sheet links too, with "
              "--allow-network), images, icons and fonts."),
    "simulate": ("simulate", "simulate", "Play GAME many times with bots and show how it "
                 "behaves: who wins from which seat, how long games last, the scores and "
                 "the game's own figures."),
    "tokens": ("components", "tokens", "Write the tokens and tiles of each of DECKS on "
               "sheets, each cut on its outline."),
    "validate": ("decks", "validate", "Check DECK without building it: keys, types, "
                 "layouts, composition, that every card's text fits, and that every text "
                 "stands out from what lies behind it; and its tuck box, tokens and boards, "
                 "if it has them."),
    "watch": ("watch", "watch", "Build DECK, then build it again each time a file it reads "
              "is saved: the deck, its layouts, spreadsheets, images, icons and fonts."),
}


class _Group(click.Group):
    """Loads a command's module when the command is used, and turns unexpected exceptions
    into a one-line message instead of a traceback."""

    def main(self, *args, **kwargs):
        # Python's last cycle collection, as it exits, goes over every object the command
        # imported or made, to free memory the system takes back anyway (a 1-card build: 6%
        # of its instructions); frozen, they are left out of it
        atexit.unregister(gc.freeze)  # once, however many commands run in one process
        atexit.register(gc.freeze)
        return super().main(*args, **kwargs)

    def list_commands(self, ctx):
        return sorted(COMMANDS)

    def get_command(self, ctx, name):
        if name not in COMMANDS:
            return None
        module, function, _ = COMMANDS[name]
        command = getattr(importlib.import_module(f"{__name__}.{module}"), function)
        command.epilog = docs_epilog(DOCS[name])
        return command

    def format_commands(self, ctx, formatter):
        # click's own listing, of stand-ins that carry only each command's first sentence
        listed = click.Group(commands=[click.Command(name, help=summary)
                                       for name, (_, _, summary) in COMMANDS.items()])
        listed.format_commands(ctx, formatter)

    def invoke(self, ctx):
        # late: `cardkit --help` shows its text before a command is invoked, without these
        import signal

        from ..common.errors import InputError, lacking_library
        from .output import EXIT_BAD_INPUT, internal_error, report_input_error

        try:
            return super().invoke(ctx)
        except (click.exceptions.Exit, click.ClickException, click.Abort):
            raise
        except BrokenPipeError:  # the reader went away (`cardkit list | head`): stop quietly
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            ctx.exit(128 + signal.SIGPIPE)  # as the shell reports a writer its reader left
        except InputError as error:  # raised outside a command's own handling
            report_input_error(error, "in the input")
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
            click.echo(f"cardkit: {internal_error(exc)}", err=True)
            from ..common.processes import terminated  # late: it brings process pools

            # what failed was the unwinding of a stop the user asked for: it is still one
            ctx.exit(128 + signal.SIGTERM if terminated() else 1)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__)
def main():
    """cardkit turns a deck described in YAML into print-ready card sheets.

    \b
    Start with:
      cardkit new my-game          a deck of your own to change
      cardkit watch my-game        rebuild it on every save
      cardkit serve my-game        see it in your browser as you work on it
      cardkit preview my-game      PNGs of its cards, and a contact sheet
      cardkit list                 the decks that ship with cardkit
      cardkit build blofa          print-and-play PDF in output/blofa/
      cardkit rulebook blofa       its rules as a PDF, from decks/blofa/rules.md
      cardkit pack blofa           its contest entry: sheets, rules, images, a zip
      cardkit box blofa            its tuck box, a dieline to cut, fold and glue
      cardkit export blofa --for tgc   images for a print service
      cardkit validate my-game     check a deck without building it
      cardkit diff v1.0 my-game    what changed since the version tagged v1.0
      cardkit check bullet         check the rules examples of a game
      cardkit score bullet "6 6 6 5 5" "4 4 4 7 7"   ask the rules
    """
    # a terminated build unwinds like Ctrl-C does, so it removes its temporary files (only
    # the main thread may set a handler: cardkit run from a thread leaves it be)
    import signal
    import threading

    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, _terminated)


def _terminated(signum, frame):
    from ..common.processes import note_terminated  # late: it brings process pools

    note_terminated()
    raise SystemExit(128 + signum)


# The docs' page (docs/PAGE.md, built by 'make docs' into output/docs/PAGE.html) and
# section that explain each command; every --help ends with it.
DOCS = {
    "build": "print-at-home#build-options", "calibrate": "print-at-home#calibrating-duplex",
    "rulebook": "print-at-home#rulebook", "box": "print-at-home#the-tuck-box",
    "tokens": "print-at-home#the-tokens", "board": "print-at-home#the-board",
    "export": "print-services#exports", "pack": "print-services#packing-a-contest-entry",
    "watch": "studio#the-design-loop-watch", "serve": "studio#in-your-browser-serve",
    "preview": "studio#proofs-preview", "schema": "studio#your-editor-schema",
    "new": "start#your-first-deck", "list": "start#the-commands-at-a-glance",
    "validate": "start#when-a-deck-is-wrong", "diff": "playtest-rounds",
    "check": "rules-and-simulation#rules-checker", "score": "rules-and-simulation#rules-checker",
    "simulate": "rules-and-simulation#playtesting-by-simulation",
}


def docs_epilog(page: str) -> str:
    name, _, section = page.partition("#")
    anchor = f"#{section}" if section else ""
    return f"Docs: docs/{name}.md{anchor} (after 'make docs': output/docs/{name}.html{anchor})"


main.epilog = "Docs: docs/index.md, or after 'make docs' output/docs/index.html (with search)"
