"""A deck's boards and mats, as its ``boards:`` list says: each a name, a width and a
height (larger than the paper, as a rule), and the layout drawn on it; its other keys are
values the layout reads."""

from __future__ import annotations

from dataclasses import dataclass

from ..common.errors import Problems, Where
from ..common.units import MM, to_mm
from ..sources import checks
from ..sources.yamlfile import Map
from .components import FaceLayouts, as_card, deck_values
from .layout import Layout
from .loader import NAME, NAME_HELP
from .model import Card, Deck

BOARD_KEYS = ("name", "width", "height", "layout")  # any other key is a value
MIN_BOARD, MAX_BOARD = 50 * MM, 2000 * MM  # a coaster to a large play mat


@dataclass(frozen=True)
class Board:
    name: str  # in file names: 'street' -> lantern-market-board-street.pdf
    width: float  # points
    height: float
    layout: Layout
    values: dict
    where: Where

    def card(self, deck: Deck, number: int) -> Card:
        """The board as a card the renderer draws."""
        return as_card(deck, number, self.layout, self.values)


def read_boards(deck: Deck, problems: Problems) -> list[Board]:
    """The deck's boards, their mistakes added to ``problems``."""
    entries = deck.boards
    if entries is None:
        problems.add(Where(deck.path), "the deck has no boards", "add a 'boards:' list, e.g. "
                     "'- {name: main, width: 400mm, height: 300mm, layout: my-board}'")
        return []
    if not checks.expect_list(problems, entries, getattr(entries, "where", Where(deck.path)),
                              "boards"):
        return []
    loader = FaceLayouts(deck, problems)
    boards, names = [], set()
    for number, entry in enumerate(entries, 1):
        where = entries.at(number - 1)
        if not checks.expect_map(problems, entry, where, f"board {number}"):
            continue
        before = len(problems.items)
        for key in BOARD_KEYS:
            if key not in entry:
                problems.add(entry.where, f"board {number} has no '{key}'", f"add '{key}:'")
        name = checks.get_text(problems, entry, "name")
        if name is not None and not NAME.match(name):
            problems.add(entry.at("name"), f"board name {checks.quoted(name)} is not a simple "
                         "name", NAME_HELP)
        elif name in names:
            problems.add(entry.at("name"), f"two boards are named '{name}'",
                         "give each board a name of its own")
        names.add(name)
        sides = [_side(problems, entry, key) for key in ("width", "height") if key in entry]
        if len(problems.items) > before:
            continue
        values = {**deck_values(deck),
                  **{k: v for k, v in entry.items() if k not in BOARD_KEYS}}
        for key, value in values.items():
            if isinstance(value, (Map, list)):
                problems.add(entry.at(key), f"board value '{key}' must be text or a "
                             f"number, not {checks.describe(value)}", "write it on one line")
        layout = loader.load(entry["layout"], tuple(sides), values, entry.at("layout"))
        if layout is not None and len(problems.items) == before:
            boards.append(Board(name, *sides, layout, values, where))
    return boards


def _side(problems: Problems, entry: Map, key: str) -> float | None:
    side = checks.length(problems, entry[key], entry.at(key), f"board {key}")
    if side is not None and not MIN_BOARD <= side <= MAX_BOARD:
        extent = "wide" if key == "width" else "high"
        problems.add(entry.at(key), f"a board {to_mm(side):g} mm {extent} is out of range",
                     f"give {to_mm(MIN_BOARD):g} to {to_mm(MAX_BOARD):g} mm")
        return None
    return side
