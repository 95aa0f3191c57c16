"""Token sheets: tokens of any shapes and sizes packed on the paper, each cut on its own
outline. Pure geometry, no drawing; points, origin at the lower-left corner.

Tokens go in rows from the top, left to right, in the deck's order, :data:`TOKEN_GAP`
apart; a row is as high as its tallest token. Everything stays inside the printable
border, the footer below. A page of fronts is followed by its page of backs when any token
on it is double-sided, each back placed as a card's is: for long-edge duplex on portrait
paper the columns mirror, ``x' = W - x - w``, so turning the paper over about its long
edge brings every back behind its front; for short-edge duplex the rows mirror, and a
printer's offset moves every back alike.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import NamedTuple

from ..common.units import MM
from .paper import PAPER_NAMES, PAPERS, PRINTABLE_BORDER
from .sheets import FOOTER_CLEARANCE, FOOTER_DEPTH, TOKEN_BLEED, SheetError, back_slot

TOKEN_GAP = 2 * TOKEN_BLEED + 1 * MM  # between two tokens' outlines: each bleed its own
FOOTER_BAND = FOOTER_DEPTH + FOOTER_CLEARANCE


class TokenSlot(NamedTuple):  # a NamedTuple, as sheets.Slot: back_slot turns both
    """One token on a page: the rectangle around its shape, the shape, which token."""

    x: float
    y: float
    width: float
    height: float
    shape: str
    index: int  # which of the tokens asked for
    side: str  # 'front' or 'back'
    turned: int = 0  # a back behind a front mirrored across the rows: 180

    def outline(self) -> list[tuple[float, float]]:
        """The cut outline of a square or hex, its corners anticlockwise; a round one is
        a circle of radius ``width / 2`` about the centre."""
        cx, cy = self.x + self.width / 2, self.y + self.height / 2
        if self.shape == "hex":  # corners left and right, flats at top and bottom
            r = self.width / 2
            return [(cx + r * math.cos(math.radians(a)), cy + r * math.sin(math.radians(a)))
                    for a in range(0, 360, 60)]
        return [(self.x, self.y), (self.x + self.width, self.y),
                (self.x + self.width, self.y + self.height), (self.x, self.y + self.height)]


@dataclass(frozen=True)
class TokenPage:
    width: float
    height: float
    slots: tuple[TokenSlot, ...]
    label: str  # 'fronts 1/2'


def token_pages(tokens, paper: str, duplex: str = "long",
                back_offset: tuple[float, float] = (0.0, 0.0)) -> list[TokenPage]:
    """The pages for ``tokens``, each (shape, width, height, count, double-sided), on
    portrait ``paper``, backs for ``duplex`` printing moved by ``back_offset`` (points
    right, down); SheetError when one is too big for it."""
    width, height = PAPERS[paper]
    inset = PRINTABLE_BORDER + TOKEN_BLEED  # the bleed, too, stays inside the border
    left, right = inset, width - inset
    top, bottom = height - inset, PRINTABLE_BORDER + FOOTER_BAND + TOKEN_BLEED
    if duplex == "short":  # the backs' rows mirror: the footer's band is kept free at the top
        top -= FOOTER_BAND
    sheets: list[list[TokenSlot]] = [[]]
    x, y, row = left, top, 0.0
    for index, (shape, w, h, count, _) in enumerate(tokens):
        if w > right - left or h > top - bottom:
            raise SheetError(f"a {w / MM:.1f} x {h / MM:.1f} mm {shape} token does not fit "
                             f"{PAPER_NAMES[paper]} inside the printable border",
                             "make it smaller")
        for _ in range(count):
            if x + w > right + 1e-6:  # the next row
                x, y, row = left, y - row - TOKEN_GAP, 0.0
            if y - h < bottom - 1e-6:  # the next page
                sheets.append([])
                x, y, row = left, top, 0.0
            sheets[-1].append(TokenSlot(x, y - h, w, h, shape, index, "front"))
            x, row = x + w + TOKEN_GAP, max(row, h)
    pages = []
    for number, slots in enumerate(sheets, 1):
        pages.append(TokenPage(width, height, tuple(slots), f"fronts {number}/{len(sheets)}"))
        backs = tuple(back_slot(s, duplex == "long", width, height, back_offset)
                      for s in slots if tokens[s.index][4])
        if backs:
            pages.append(TokenPage(width, height, backs, f"backs {number}/{len(sheets)}"))
    return pages
