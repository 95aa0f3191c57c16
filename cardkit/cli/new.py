"""``cardkit new`` and ``cardkit schema``: start a deck, and help an editor check it."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from ..common.errors import InputError
from .options import LateChoice
from .output import EXIT_BAD_INPUT, report_input_error, shown


@click.command()
@click.argument("folder", type=click.Path(path_type=Path))
@click.option("--size", default="poker",
              type=LateChoice("cardkit.deck.model", lambda model: model.SIZE_PRESETS_MM),
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
        report_input_error(error, f"in {folder}; nothing was written")
        sys.exit(EXIT_BAD_INPUT)
    where = shown(folder)
    click.echo(f"{folder.name}: a new deck of {size} cards in {where}/ ("
               + ", ".join(str(f) for f in files if f.parent == Path(".")) + ", layouts/, "
               "schemas/)")
    click.echo(f"next: cardkit build {where}, or 'cardkit watch .' in {where}/ to rebuild "
               "on every save; its README.md says what each file is for")


@click.command()
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
