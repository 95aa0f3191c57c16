"""A tuck box's dieline and where it goes on the paper. Pure geometry, no drawing; lengths
in points, the origin at the lower-left corner.

The dieline is one row of panels, each as high as the box: a glue flap, the back, a side,
the front and the other side. The back carries the lid and its tuck flap, which close the
top; the front carries the bottom lid and its tuck flap; each side a dust flap at either
end. Folded, the glue flap goes behind the last side, so it is at most the side's depth
less :data:`~cardkit.deck.box.GLUE_SPARE`; a side too shallow for a flap of
:data:`~cardkit.deck.box.MIN_GLUE` (a thin deck) has the flap on its free edge instead,
glued behind the back. The fold lines across the front and up it lie the box's inside
apart (its width and height); across a side, the inside depth plus the box's own stock
where it folds (:func:`~cardkit.deck.box.fold_depth`).

Each printed face's art runs :data:`BLEED` past its edges, so a cut a little off shows
art, not paper; where two faces meet at a fold, each face is drawn over the other's bleed.

When the whole row does not fit the paper inside the printable border (with the legend
below it), it is cut in two after the first side, which gets a second glue flap ('join')
that goes behind the front's free edge: two sheets.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..common.units import MM
from ..deck.box import GLUE_SPARE, fold_depth, glued_to_back
from .paper import PAPER_NAMES, PAPERS, PRINTABLE_BORDER
from .sheets import SheetError

GLUE = 8 * MM  # a glue flap's width: room for a line of glue
BLEED = 2 * MM  # how far a face's art runs past its edges
GLUE_TAPER = 3 * MM  # its ends cut at a slant, so that it folds clear of the flaps
TUCK = 15 * MM  # how deep a tuck flap reaches into the box
TUCK_CORNER = 4 * MM  # its corners cut off, so that it slides in
DUST_TAPER = 2 * MM  # a dust flap's sides slant in, clear of the lid
NOTCH = 8 * MM  # the thumb notch's radius at most, in the front's top edge
LEGEND = 10 * MM  # the band below the dieline that names its lines
LEGEND_GAP = 3 * MM  # between the legend and the dieline


@dataclass(frozen=True)
class Panel:
    """A face of the box on the dieline: its rectangle and the angle its layout turns."""

    face: str
    x: float
    y: float
    width: float
    height: float
    turned: int = 0  # 0, or 180 for the lid, which is seen from the front once closed


@dataclass(frozen=True)
class Piece:
    """One piece of dieline: its size, the faces, the cut outline (one closed polygon),
    the fold lines (segments) and the glue areas (polygons), from its lower-left corner."""

    width: float
    height: float
    panels: tuple[Panel, ...]
    cut: tuple[tuple[float, float], ...]
    folds: tuple[tuple[float, float, float, float], ...]
    glue: tuple[tuple[tuple[float, float], ...], ...]


@dataclass(frozen=True)
class BoxSheet:
    """A page: the piece, where its lower-left corner goes, and the legend's band."""

    width: float
    height: float
    piece: Piece
    x: float
    y: float
    legend: tuple[float, float, float, float]  # x, y, width, height
    label: str  # 'sheet 1/2'


def glue_width(depth: float) -> float:
    """The glue flap's width: :data:`GLUE`, and behind a side at most its fold depth less
    :data:`GLUE_SPARE`."""
    return GLUE if glued_to_back(depth) else min(GLUE, fold_depth(depth) - GLUE_SPARE)


def _columns(split: bool, width: float, depth: float) -> list[list[tuple[str, float]]]:
    side, glue = fold_depth(depth), ("glue", glue_width(depth))
    panels = [("back", width), ("side", side), ("front", width), ("side", side)]
    whole = panels + [glue] if glued_to_back(depth) else [glue] + panels
    if not split:
        return [whole]
    cut = whole.index(("side", side)) + 1  # after the first side, which gets a join flap
    return [whole[:cut] + [("join", GLUE)], whole[cut:]]


def dust_flap(depth: float, width: float) -> float:
    """A dust flap's height: about the box's depth, at least 6 mm, at most half its width."""
    return min(max(0.8 * depth, 6 * MM), width / 2)


def _piece(columns, width: float, height: float, depth: float) -> Piece:
    """The piece of the given columns, with its lowest point at y = 0; ``depth`` is the
    side's fold depth."""
    below = max(depth + TUCK if kind == "front" else dust_flap(depth, width)
                if kind == "side" else 0 for kind, _ in columns)
    y0, y1 = below, below + height
    bottom, top, folds, glue, panels = [], [], [], [], []
    x = 0.0
    for i, (kind, w) in enumerate(columns):
        x2 = x + w
        if i:
            folds.append((x, y0, x, y1))
        if kind in ("glue", "join"):
            near, far = (x, x2) if i else (x2, x)  # the fold, the free edge
            shape = [(near, y0), (far, y0 + GLUE_TAPER), (far, y1 - GLUE_TAPER), (near, y1)]
            glue.append(tuple(shape))
            bottom += sorted(shape[:2])
            top += sorted(shape[2:])
        elif kind == "back":
            lid, tip = y1 + depth, y1 + depth + TUCK
            bottom += [(x, y0), (x2, y0)]
            top += [(x, y1), (x, lid), (x, tip - TUCK_CORNER), (x + TUCK_CORNER, tip),
                    (x2 - TUCK_CORNER, tip), (x2, tip - TUCK_CORNER), (x2, lid), (x2, y1)]
            folds += [(x, y1, x2, y1), (x, lid, x2, lid)]
            panels += [Panel("back", x, y0, w, height), Panel("top", x, y1, w, depth, 180)]
        elif kind == "front":
            lid, tip = y0 - depth, y0 - depth - TUCK
            bottom += [(x, y0), (x, lid), (x, tip + TUCK_CORNER), (x + TUCK_CORNER, tip),
                       (x2 - TUCK_CORNER, tip), (x2, tip + TUCK_CORNER), (x2, lid), (x2, y0)]
            top += [(x, y1)] + _notch(x + w / 2, y1, min(NOTCH, w / 5)) + [(x2, y1)]
            folds += [(x, y0, x2, y0), (x, lid, x2, lid)]
            panels += [Panel("front", x, y0, w, height), Panel("bottom", x, lid, w, depth)]
        else:  # a side, with a dust flap at either end
            flap, taper = dust_flap(depth, width), min(DUST_TAPER, w / 4)
            bottom += [(x, y0), (x + taper, y0 - flap), (x2 - taper, y0 - flap), (x2, y0)]
            top += [(x, y1), (x + taper, y1 + flap), (x2 - taper, y1 + flap), (x2, y1)]
            folds += [(x, y0, x2, y0), (x, y1, x2, y1)]
            panels.append(Panel("side", x, y0, w, height))
        x = x2
    cut = tuple(bottom + top[::-1])
    return Piece(x, max(py for _, py in cut), tuple(panels), cut, tuple(folds), tuple(glue))


def _notch(centre: float, edge: float, radius: float, steps: int = 16) -> list:
    """A half circle cut down into the top edge, left to right."""
    return [(centre - radius * math.cos(math.pi * i / steps),
             edge - radius * math.sin(math.pi * i / steps)) for i in range(steps + 1)]


def _place(piece: Piece, paper: str, label: str) -> BoxSheet | None:
    """The piece and its bleed centred above the legend on the paper, upright or landscape,
    whichever holds it (upright first); None if neither does."""
    short, long = PAPERS[paper]
    for width, height in ((short, long), (long, short)):
        room_w = width - 2 * PRINTABLE_BORDER - 2 * BLEED
        room_h = height - 2 * PRINTABLE_BORDER - LEGEND - LEGEND_GAP - 2 * BLEED
        if piece.width <= room_w and piece.height <= room_h:
            x = (width - piece.width) / 2
            y = PRINTABLE_BORDER + LEGEND + LEGEND_GAP + BLEED + (room_h - piece.height) / 2
            legend = (PRINTABLE_BORDER, PRINTABLE_BORDER, width - 2 * PRINTABLE_BORDER, LEGEND)
            return BoxSheet(width, height, piece, x, y, legend, label)
    return None


def box_sheets(width: float, height: float, depth: float, paper: str) -> list[BoxSheet]:
    """The sheets of a box whose inside is ``width`` x ``height`` x ``depth``: one, or two
    when the dieline does not fit one; SheetError when it does not fit even then."""
    for split in (False, True):
        pieces = [_piece(c, width, height, fold_depth(depth))
                  for c in _columns(split, width, depth)]
        sheets = [_place(piece, paper, f"sheet {i + 1}/{len(pieces)}")
                  for i, piece in enumerate(pieces)]
        if all(sheets):
            return sheets
    biggest = max(pieces, key=lambda p: p.width * p.height)
    raise SheetError(f"the box's dieline does not fit {PAPER_NAMES[paper]} inside the "
                     f"printable border even on two sheets (its larger piece is "
                     f"{biggest.width / MM:.0f} x {biggest.height / MM:.0f} mm)",
                     "use a thinner stock, fewer cards or smaller cards")
