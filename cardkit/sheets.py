"""Imposition: where each card goes on each printed page. Pure geometry, no drawing.

Page coordinates are PDF points with the origin at the page's lower-left corner. A slot
is a card's trim rectangle; when there is bleed, neighbouring cards sit ``2 * bleed``
apart so that each one's bleed stays its own.

PnP sheets: a grid computed for the area that A4 and Letter share, centred on the page,
so a sheet made for one paper still prints whole on the other. Each page of fronts is
followed by its page of backs, placed so that the paper's flip brings every back behind
its front:

- long-edge duplex (flip like a book page): columns mirror, ``x' = W - x - w``;
- short-edge duplex (flip like a notepad): rows mirror, ``y' = H - y - h``.

Gutterfold sheets: a landscape page with fronts left of a vertical fold line and their
backs mirrored to the right of it; folding the page puts each back behind its front.
"""

from __future__ import annotations

from dataclasses import dataclass

from .units import MM

PAPERS = {"a4": (210 * MM, 297 * MM), "letter": (215.9 * MM, 279.4 * MM)}
COMMON_AREA = (210 * MM, 279.4 * MM)  # what both papers hold
MARK_GAP = 1 * MM  # between a card's bleed edge and its crop mark
MARK_LENGTH = 4 * MM
# Kept clear between a crop mark and the paper's edge. With a poker 3x3 grid on Letter the
# marks then reach 1.35 mm from the edge; a printer that cannot print there still prints
# their inner part, which is the part a cutter lines up with.
EDGE_CLEARANCE = 1 * MM
MARGIN = EDGE_CLEARANCE + MARK_GAP + MARK_LENGTH  # from each paper edge to the cards
FOLD_GAP = 4 * MM  # between the fold line and the nearest card (gutterfold)


@dataclass(frozen=True)
class Slot:
    """One card on a page: the trim's lower-left corner and size, and which card."""

    x: float
    y: float
    width: float
    height: float
    index: int  # position in the deck's printed order
    side: str  # "front" or "back"


@dataclass(frozen=True)
class Page:
    width: float
    height: float
    slots: tuple[Slot, ...]
    label: str  # e.g. "fronts 1/2"
    fold_x: float | None = None  # gutterfold: where to fold


@dataclass(frozen=True)
class SheetOptions:
    sheet: str = "pnp"  # or "gutterfold"
    paper: str = "a4"
    duplex: str = "long"  # or "short"
    back_offset: tuple[float, float] = (0.0, 0.0)  # points, right and down
    bleed: float = 0.0  # points
    guides: bool = False


class SheetError(ValueError):
    """The cards cannot be placed on the paper as asked."""


def fit_count(space: float, card: float, bleed: float) -> int:
    """How many cards of length ``card`` with ``bleed`` each side fit in ``space``.

    >>> fit_count(200 * MM, 63.5 * MM, 0)
    3
    >>> fit_count(200 * MM, 63.5 * MM, 3 * MM)
    2
    """
    return int((space + 1e-6) // (card + 2 * bleed))


def _grid(cols, rows, width, height, bleed, left, top):
    """Trim rectangles (x, y) of a cols x rows grid whose bleed area's top-left corner is
    at (left, top), in reading order."""
    pitch_x, pitch_y = width + 2 * bleed, height + 2 * bleed
    return [(left + bleed + c * pitch_x, top - bleed - height - r * pitch_y)
            for r in range(rows) for c in range(cols)]


def pnp_pages(count: int, width: float, height: float, options: SheetOptions) -> list[Page]:
    """Fronts and backs for ``count`` cards of the given trim size (points)."""
    paper_w, paper_h = PAPERS[options.paper]
    bleed = options.bleed
    area_w, area_h = COMMON_AREA[0] - 2 * MARGIN, COMMON_AREA[1] - 2 * MARGIN
    cols, rows = fit_count(area_w, width, bleed), fit_count(area_h, height, bleed)
    if cols * rows == 0:
        raise SheetError(f"a {width / MM:g} x {height / MM:g} mm card with {bleed / MM:g} mm "
                         f"bleed does not fit on {options.paper.upper()} with crop marks")
    grid_w, grid_h = cols * (width + 2 * bleed), rows * (height + 2 * bleed)
    left, top = (paper_w - grid_w) / 2, (paper_h + grid_h) / 2
    spots = _grid(cols, rows, width, height, bleed, left, top)
    per_page = cols * rows
    sheets = (count + per_page - 1) // per_page
    dx, dy = options.back_offset
    pages = []
    for sheet in range(sheets):
        first = sheet * per_page
        indices = range(first, min(first + per_page, count))
        fronts = tuple(Slot(x, y, width, height, i, "front") for (x, y), i in zip(spots, indices))
        backs = []
        for s in fronts:
            if options.duplex == "long":
                x, y = paper_w - s.x - width, s.y
            else:
                x, y = s.x, paper_h - s.y - height
            backs.append(Slot(x + dx, y - dy, width, height, s.index, "back"))
        pages.append(Page(paper_w, paper_h, fronts, f"fronts {sheet + 1}/{sheets}"))
        pages.append(Page(paper_w, paper_h, tuple(backs), f"backs {sheet + 1}/{sheets}"))
    return pages


def gutterfold_pages(count: int, width: float, height: float,
                     options: SheetOptions) -> list[Page]:
    """Landscape pages: fronts left of the fold, their backs mirrored right of it."""
    paper_h, paper_w = PAPERS[options.paper]  # landscape
    common_h, common_w = COMMON_AREA
    bleed = options.bleed
    cols = fit_count(common_w / 2 - MARGIN - FOLD_GAP, width, bleed)
    rows = fit_count(common_h - 2 * MARGIN, height, bleed)
    if cols * rows == 0:
        raise SheetError(f"a {width / MM:g} x {height / MM:g} mm card with {bleed / MM:g} mm "
                         f"bleed does not fit beside the fold on {options.paper.upper()}")
    fold = paper_w / 2
    grid_w, grid_h = cols * (width + 2 * bleed), rows * (height + 2 * bleed)
    spots = _grid(cols, rows, width, height, bleed, fold - FOLD_GAP - grid_w,
                  (paper_h + grid_h) / 2)
    per_page = cols * rows
    sheets = (count + per_page - 1) // per_page
    pages = []
    for sheet in range(sheets):
        first = sheet * per_page
        slots = []
        for (x, y), i in zip(spots, range(first, min(first + per_page, count))):
            slots.append(Slot(x, y, width, height, i, "front"))
            slots.append(Slot(2 * fold - x - width, y, width, height, i, "back"))
        pages.append(Page(paper_w, paper_h, tuple(slots), f"sheet {sheet + 1}/{sheets}", fold))
    return pages


def plan_pages(count: int, width: float, height: float, options: SheetOptions) -> list[Page]:
    if options.sheet == "gutterfold":
        return gutterfold_pages(count, width, height, options)
    return pnp_pages(count, width, height, options)


def crop_marks(page: Page, bleed: float) -> list[tuple[float, float, float, float]]:
    """Line segments (x1, y1, x2, y2) marking every cut line in the margins around the
    cards, so no mark is printed on a card. Each trim corner's two cut lines get a mark
    at both ends."""
    if not page.slots:
        return []
    xs = sorted({round(v, 3) for s in page.slots for v in (s.x, s.x + s.width)})
    ys = sorted({round(v, 3) for s in page.slots for v in (s.y, s.y + s.height)})
    left = min(s.x for s in page.slots) - bleed - MARK_GAP
    right = max(s.x + s.width for s in page.slots) + bleed + MARK_GAP
    bottom = min(s.y for s in page.slots) - bleed - MARK_GAP
    top = max(s.y + s.height for s in page.slots) + bleed + MARK_GAP
    marks = []
    for x in xs:
        marks.append((x, top, x, top + MARK_LENGTH))
        marks.append((x, bottom, x, bottom - MARK_LENGTH))
    for y in ys:
        marks.append((left, y, left - MARK_LENGTH, y))
        marks.append((right, y, right + MARK_LENGTH, y))
    return marks


def bounds(slots, grow: float = 0.0) -> tuple[float, float, float, float]:
    """The rectangle (x1, y1, x2, y2) around the slots' trims, grown by ``grow``."""
    return (min(s.x for s in slots) - grow, min(s.y for s in slots) - grow,
            max(s.x + s.width for s in slots) + grow, max(s.y + s.height for s in slots) + grow)
