"""A deck's tokens and tiles, as its ``tokens:`` list says: each entry a shape (round,
square or hex), a size, how many, a front layout and, for a double-sided one, a back
layout; its other keys are values its layouts read, as a card's fields are.

A round token's size is its diameter, a square's its side, a hex's its width across the
flats (it stands on a flat side, its corners left and right).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..common.errors import Problems, Where
from ..common.units import MM, to_mm
from ..sources import checks
from ..sources.yamlfile import Map
from .components import FaceLayouts, as_card, deck_values
from .layout import Layout
from .model import Card, Deck

SHAPES = ("round", "square", "hex")
TOKEN_KEYS = ("shape", "size", "count", "front", "back")  # any other key is a value
MIN_TOKEN, MAX_TOKEN = 5 * MM, 170 * MM  # a bead's size to a hex across A4's printable width
MAX_TOKEN_COPIES = 1000


@dataclass(frozen=True)
class Token:
    """One kind of token, printed ``count`` times."""

    number: int  # 1-based, in the deck's order
    shape: str
    size: float  # points: diameter, side, or a hex's width across its flats
    count: int
    front: Layout
    back: Layout | None  # None: printed on one side
    values: dict
    where: Where

    @property
    def extent(self) -> tuple[float, float]:
        """The width and height of the rectangle around the shape (points)."""
        return token_extent(self.shape, self.size)

    def face_card(self, deck: Deck, side: str) -> Card:
        """The token's front or back as a card the renderer draws."""
        layout = self.front if side == "front" else self.back
        return as_card(deck, 2 * self.number - (side == "front"), layout, self.values)


def token_extent(shape: str, size: float) -> tuple[float, float]:
    """A hex across its corners is 2/sqrt(3) of its width across the flats."""
    return (size * 2 / math.sqrt(3), size) if shape == "hex" else (size, size)


def read_tokens(deck: Deck, problems: Problems) -> list[Token]:
    """The deck's tokens, their mistakes added to ``problems``."""
    entries = deck.tokens
    if entries is None:
        problems.add(Where(deck.path), "the deck has no tokens",
                     "add a 'tokens:' list, e.g. '- {shape: round, size: 25mm, front: "
                     "token-front}' (see docs/print-at-home.md, 'Tuck box, tokens and "
                     "boards')")
        return []
    where = getattr(entries, "where", Where(deck.path))
    if not checks.expect_list(problems, entries, where, "tokens"):
        return []
    loader = FaceLayouts(deck, problems)
    tokens = []
    for number, entry in enumerate(entries, 1):
        token = _token(deck, number, entry, entries.at(number - 1), loader, problems)
        if token is not None:
            tokens.append(token)
    return tokens


def _token(deck, number, entry, where, loader, problems) -> Token | None:
    if not checks.expect_map(problems, entry, where, f"token {number}"):
        return None
    before = len(problems.items)
    for key in ("shape", "size", "front"):
        if key not in entry:
            problems.add(entry.where, f"token {number} has no '{key}'", f"add '{key}:'")
    shape = checks.get_choice(problems, entry, "shape", SHAPES)
    size = None
    if "size" in entry:
        size = checks.length(problems, entry["size"], entry.at("size"), "token size")
        if size is not None and not MIN_TOKEN <= size <= MAX_TOKEN:
            problems.add(entry.at("size"), f"a token {to_mm(size):g} mm across is out of "
                         f"range", f"give {to_mm(MIN_TOKEN):g} to {to_mm(MAX_TOKEN):g} mm")
            size = None
    count = checks.get_int(problems, entry, "count", 1, minimum=1)
    if count is not None and count > MAX_TOKEN_COPIES:
        problems.add(entry.at("count"), f"{count} copies of one token is surely a typo",
                     f"give at most {MAX_TOKEN_COPIES}")
    values = {**deck_values(deck), **{k: v for k, v in entry.items() if k not in TOKEN_KEYS}}
    for key, value in values.items():
        if isinstance(value, (Map, list)):
            problems.add(entry.at(key), f"token value '{key}' must be text or a number, "
                         f"not {checks.describe(value)}", "write it on one line")
    if len(problems.items) > before:
        return None
    extent = token_extent(shape, size)
    front = loader.load(entry["front"], extent, values, entry.at("front"))
    back = loader.load(entry["back"], extent, values, entry.at("back")) \
        if "back" in entry else None
    if front is None or ("back" in entry and back is None):
        return None
    return Token(number, shape, size, count, front, back, values, where)
