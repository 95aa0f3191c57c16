"""A board larger than the paper, cut into tiles that overlap. Pure geometry, no drawing;
points, origin at the lower-left corner.

Each tile shows the part of the board that fits inside the printable border, above the
footer: ``step = room - OVERLAP`` apart, so that neighbours share an OVERLAP-wide strip.
To put the board together, trim each tile's top and left paper edges at its art and lay it
over the strip its neighbour carries, on the dashed line there. Tiles are named like a
map's squares: columns A, B... from the left, rows 1, 2... from the top. The paper is
turned the way that needs fewer pages (portrait on a tie).
"""

from __future__ import annotations

import math
import string
from dataclasses import dataclass

from ..common.units import MM
from .paper import PAPERS, PRINTABLE_BORDER

OVERLAP = 10 * MM  # what neighbouring tiles share: room to glue and line them up
TILE_FOOTER = 7 * MM  # the band below a tile's art for its name, above the border


@dataclass(frozen=True)
class Tile:
    """One page of a board: which part of the board (board coordinates, from its lower-left
    corner) it shows, and where that part lies on the page."""

    column: int
    row: int  # 0 at the top
    x: float  # the board's part: lower-left corner and size
    y: float
    width: float
    height: float
    page_x: float  # where the part's lower-left corner is on the page
    page_y: float
    next_x: float | None  # where the tile to the right starts (board x), or None
    next_y: float | None  # where the tile below has its top edge (board y), or None

    @property
    def name(self) -> str:
        return f"{column_name(self.column)}{self.row + 1}"


@dataclass(frozen=True)
class TilePlan:
    page_width: float
    page_height: float
    columns: int
    rows: int
    tiles: tuple[Tile, ...]  # row by row from the top, left to right


def column_name(column: int) -> str:
    """A, B, ... Z, AA, AB..."""
    letters = string.ascii_uppercase
    return (column_name(column // 26 - 1) if column >= 26 else "") + letters[column % 26]


def _count(length: float, room: float) -> int:
    return max(1, math.ceil((length - OVERLAP - 1e-6) / (room - OVERLAP)))


def tile_board(width: float, height: float, paper: str) -> TilePlan:
    """The tiles of a ``width`` x ``height`` board on ``paper``."""
    short, long = PAPERS[paper]
    plans = []
    for page_w, page_h in ((short, long), (long, short)):
        room_w = page_w - 2 * PRINTABLE_BORDER
        room_h = page_h - 2 * PRINTABLE_BORDER - TILE_FOOTER
        plans.append((_count(width, room_w) * _count(height, room_h), page_w, page_h,
                      room_w, room_h))
    _, page_w, page_h, room_w, room_h = min(plans, key=lambda p: p[0])  # portrait on a tie
    columns, rows = _count(width, room_w), _count(height, room_h)
    step_x, step_y = room_w - OVERLAP, room_h - OVERLAP
    art_top = page_h - PRINTABLE_BORDER
    tiles = []
    for row in range(rows):
        top = height - row * step_y  # board y of the tile's top edge
        bottom = max(0.0, top - room_h)
        for column in range(columns):
            left = column * step_x
            right = min(width, left + room_w)
            tiles.append(Tile(
                column, row, left, bottom, right - left, top - bottom,
                PRINTABLE_BORDER, art_top - (top - bottom),
                left + step_x if column < columns - 1 else None,
                top - step_y if row < rows - 1 else None))
    return TilePlan(page_w, page_h, columns, rows, tuple(tiles))
