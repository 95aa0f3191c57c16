"""Where the decks and layouts that ship with cardkit live, and how a deck is named.

cardkit runs from a checkout (``make build`` installs it in editable mode), so the bundled
``decks/`` and ``layouts/`` folders sit next to the package.
"""

from __future__ import annotations

from pathlib import Path

from ..common.errors import InputError, Problem, Where, did_you_mean
from .files import BUNDLED_DECKS, BUNDLED_LAYOUTS, SPREADSHEET_SUFFIXES, why_unreadable

DECKS_DIR, LAYOUTS_DIR = BUNDLED_DECKS, BUNDLED_LAYOUTS
DECK_FILE = "deck.yaml"


def bundled_decks() -> dict[str, Path]:
    """Bundled deck name -> its deck.yaml, sorted by name."""
    return {p.parent.name: p for p in sorted(DECKS_DIR.glob(f"*/{DECK_FILE}"))}


def find_deck(name_or_path: str) -> Path:
    """The deck file for a bundled deck's name, a deck folder or a YAML file path."""
    # imported here: PyYAML would slow every command's start
    from .yamlfile import MAX_BYTES

    path = Path(name_or_path)
    if path.suffix.lower() in SPREADSHEET_SUFFIXES:
        raise InputError([Problem(Where(path), "a spreadsheet holds cards, not a whole deck "
                                  "(its size, layouts and backs)",
                                  f"write a deck.yaml whose cards come from it, "
                                  f"'cards: {{from: {path.name}}}', and build that "
                                  "(docs/own-game.md)")])
    if path.suffix in (".yaml", ".yml") or path.is_file():
        why = why_unreadable(path, MAX_BYTES)
        if why:
            raise InputError([Problem(Where(path), why, "check the path")])
        return path
    if path.is_dir():
        if (path / DECK_FILE).is_file():
            return path / DECK_FILE
        raise InputError([Problem(Where(path), f"this folder has no {DECK_FILE}",
                                  "name the deck's YAML file")])
    decks = bundled_decks()
    if name_or_path in decks:
        return decks[name_or_path]
    raise InputError([Problem(Where(name_or_path), "no bundled deck or file of that name",
                              did_you_mean(name_or_path, decks) + " (see 'cardkit list')")])


