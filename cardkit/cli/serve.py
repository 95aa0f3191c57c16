"""``cardkit serve``: the deck live in a browser."""

from __future__ import annotations

import sys

import click

from ..common.errors import InputError
from ..sources.bundled import find_deck
from .options import network_options
from .output import EXIT_BAD_INPUT, named, report_input_error

DEFAULT_PORT = 8719


@click.command()
@click.argument("deck")
@click.option("--port", type=click.IntRange(0, 65535), default=DEFAULT_PORT,
              show_default=True, help="The port to listen on (0: any free one).")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="The address to listen on. Only this machine can reach the default; "
                   "another address lets the network in.")
@click.option("--open/--no-open", "open_page", default=True, show_default=True,
              help="Open the page in the web browser.")
@click.option("--allow-edit", is_flag=True,
              help="Let the page change the deck's files when --host lets the network in "
                   "(on this machine only, it always may).")
@click.option("--editor", metavar="CMD",
              help="The editor the page's \"Open in editor\" links run (default: $VISUAL, "
                   "else $EDITOR): the file and line are added as '+LINE FILE', or put "
                   "where CMD says {file} and {line}, e.g. --editor \"code -g {file}:{line}\".")
@network_options
def serve(deck, port, host, open_page, allow_edit, editor):
    """Show DECK in the browser as it prints, and redraw it on every save: the deck, its
    layouts, spreadsheets (sheet links too, with --allow-network), images, icons and
    fonts. Only the cards a save changed are drawn again; a save with a mistake lists
    the problems and keeps the last good cards.

    \b
      cardkit serve my-game
      cardkit serve blofa --no-open --port 8800    print the address only
      cardkit serve my-game --editor "code -g {file}:{line}"

    A card's fields can be changed in the page: the change is written into the file
    the card came from (CSV or YAML), that value only, and the files stay the source of
    truth. An element of a layout is moved or resized on the card, and its box written
    into the layout. Ctrl-C stops.
    """
    import os
    import shlex
    import socket

    from ..studio.editor import chosen_editor
    from ..studio.run import run_studio

    editor = chosen_editor(editor, os.environ)
    try:
        shlex.split(editor)
    except ValueError as error:
        click.echo(f"cardkit: the editor command {editor!r} cannot be read ({error}); close "
                   "its quotes", err=True)
        sys.exit(EXIT_BAD_INPUT)

    try:
        path = find_deck(deck)
    except InputError as error:
        report_input_error(error, f"in {named(deck)}")
        sys.exit(EXIT_BAD_INPUT)
    try:
        listening = socket.create_server((host, port))
    except OSError as error:
        click.echo(f"cardkit: cannot listen on {host}:{port}: {error.strerror or error}; "
                   "choose another --port (0 takes any free one)", err=True)
        sys.exit(EXIT_BAD_INPUT)
    run_studio(path, listening, open_page, click.echo, deck, allow_edit, editor)
