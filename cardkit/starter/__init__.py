"""The starter deck behind ``cardkit new NAME``: a folder with a working deck to change.

The folder is copied from ``template/`` beside this file: a deck of two kinds of card (units
and events) read from ``cards.csv``, a front layout per kind on a shared base, a back per
kind, a README for the designer and a ``.gitignore``. The deck's name, title and size are
filled into the copies by replacing placeholders, so every template file is valid YAML (or
CSV, or Markdown) as it stands. The JSON Schemas that the files' first lines point editors
to are written from :mod:`cardkit.deck.schema`, so they always match the running cardkit.

It uses the deck model (names, sizes, schemas); it never imports rendering, output or the
commands, nor the rules.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from ..common.atomic import atomic_folder
from ..common.errors import InputError, Problem, Where
from ..deck.loader import NAME, NAME_HELP
from ..deck.model import SIZE_PRESETS_MM
from ..deck.schema import deck_schema, layout_schema
from ..sources.checks import quoted

TEMPLATE = Path(__file__).parent / "template"

# The files of a new deck, in the order they are listed to the designer.
DECK_FILES = ("deck.yaml", "cards.csv", "layouts/front-base.yaml", "layouts/front-unit.yaml",
              "layouts/front-event.yaml", "layouts/back.yaml",
              "rules.py", "examples.yaml", "rules.md", "README.md", ".gitignore")
# '.gitignore' is stored without its dot, so that it does not act on cardkit's own
# repository and is not left out of the package as a hidden file.
STORED_AS = {".gitignore": "gitignore"}
SCHEMA_FILES = {"schemas/deck.json": deck_schema, "schemas/layout.json": layout_schema}
TAKEN_FIX = "choose another name, or remove it"


def deck_title(name: str) -> str:
    """The title a new deck starts with: its name's words, capitalised.

    >>> deck_title('my-first-game'), deck_title('honey_heist')
    ('My First Game', 'Honey Heist')
    """
    return " ".join(word.capitalize() for word in re.split("[-_]", name) if word)


def create_deck(folder: Path, name: str, size: str = "poker") -> list[Path]:
    """Write a new deck named ``name`` with cards of ``size`` (a preset) into ``folder``,
    which must not exist or be empty. Returns the files written, relative to ``folder``.
    Nothing is left behind when it fails; bad input raises InputError."""
    folder = Path(folder)
    _check(folder, name, size)
    files = _filled(name, size)
    try:
        with atomic_folder(folder) as temporary:
            for relative, text in files.items():
                path = temporary / relative
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(text, encoding="utf-8")
    except OSError as error:  # a read-only place, a file where a parent folder should be
        raise InputError([Problem(Where(folder), f"cannot write the deck: {error.strerror}",
                                  "choose a folder you can write to")]) from None
    return [Path(relative) for relative in files]


def _filled(name: str, size: str) -> dict[str, str]:
    """Each file of the new deck (relative path -> text): the template's files with the
    deck's name, title and size in place of their placeholders, then the schemas."""
    placeholders = {"__NAME__": name, "__TITLE__": deck_title(name), "__SIZE__": size}
    files = {}
    for relative in DECK_FILES:
        text = (TEMPLATE / STORED_AS.get(relative, relative)).read_text(encoding="utf-8")
        for placeholder, value in placeholders.items():
            text = text.replace(placeholder, value)
        files[relative] = text
    for relative, schema in SCHEMA_FILES.items():
        files[relative] = json.dumps(schema(), indent=2) + "\n"
    return files


def _check(folder: Path, name: str, size: str) -> None:
    """Raise InputError naming everything wrong with the request, all at once."""
    problems = []
    where = Where(folder)
    if not NAME.match(name):
        problems.append(Problem(where, f"{quoted(name)} cannot be a deck's name", NAME_HELP))
    if size not in SIZE_PRESETS_MM:
        problems.append(Problem(where, f"'{size}' is not a card size cardkit knows",
                                "use one of: " + ", ".join(SIZE_PRESETS_MM)))
    if folder.is_dir():
        if any(folder.iterdir()):
            problems.append(Problem(where, "the folder exists and is not empty", TAKEN_FIX))
    elif folder.exists() or folder.is_symlink():
        problems.append(Problem(where, "a file of that name is in the way", TAKEN_FIX))
    if problems:
        raise InputError(problems)
