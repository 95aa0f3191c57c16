"""Imposition: where each card, cutting guide and footer goes on each printed page. Pure
geometry, no drawing.

Page coordinates are PDF points with the origin at the page's lower-left corner. A slot
is a card's trim rectangle; when there is bleed, neighbouring cards sit ``2 * bleed``
apart so that each one's bleed stays its own.

The design rule is a **5 mm printable border**: most home printers cannot print closer to
the paper's edge, so every guide and the footer stay at least that far inside, and so do
the cards' trims, since every cut line needs a guide. Only bleed may run into the border,
where it is cut away anyway.

PnP sheets: each paper gets its own grid, portrait or landscape, whichever holds more
cards, centred. When the grid leaves a band below it deep enough for cards turned on their
side, a strip of turned cards fills it (3 mm bleed on Letter: 6 upright cards and 2 turned
ones, where a plain grid holds 6). On a tie the plain grid wins, then portrait. Each page of
fronts is followed by its page of backs, placed so that turning the paper over brings every
back behind its front:

- long-edge duplex: the paper turns about its long edge. On a portrait page columns
  mirror, ``x' = W - x - w``; on a landscape page rows mirror, ``y' = H - y - h``;
- short-edge duplex: the other way round.

Gutterfold sheets: a landscape page with fronts left of a vertical fold line and their
backs mirrored to the right of it; folding the page puts each back behind its front.

Every card keeps the relation of an exported card to its back: held front up and turned
over about its own vertical axis, its back is upright. Where the paper turns over about
an axis across the cards' height (mirrored columns), a back stands as its front does, a
turned card's back turned the other way. Where it turns about an axis along their width
(mirrored rows: landscape long-edge, portrait short-edge), that would leave every back
upside down, so the backs are turned half round: by ``180 - turned`` degrees.

Guides: each cut line gets a crop mark beyond the cards at both of its ends. Where the
margin is too narrow for a mark inside the printable border, a hairline runs exactly along
the cut line instead, from the border a few millimetres into the cards, so a cut removes it.
Between the upright grid and the strip of turned cards, a hairline along each cut line
crosses the gap and runs a few millimetres into the cards.
"""

# No `from __future__ import annotations`: typing would compile each NamedTuple field's
# annotation, a string under it, into a ForwardRef at import (about 0.1 M instructions
# each, issue 62); here they are the types themselves.
from collections.abc import Sequence
from typing import NamedTuple

from ..common.units import MM
from .paper import PAPER_NAMES, PAPERS, PRINTABLE_BORDER

ORIENTATIONS = ("auto", "portrait", "landscape")
MARK_GAP = 1 * MM  # between the cards' bleed edge and a crop mark
MARK_LENGTH = 4 * MM
MIN_GUIDE = 3 * MM  # shorter than this, a guide is hard to line a ruler up with
HAIRLINE_INTO_CARDS = 3 * MM  # how far a hairline guide runs along the cut line past the trim
FOLD_GAP = 4 * MM  # between the fold line and the nearest card's bleed (gutterfold)
FOOTER_CLEARANCE = 1 * MM  # between the footer and the cards or a guide
FOOTER_DEPTH = 2.2 * MM  # a line of 6 pt Lato (ascent + descent 2.12 mm), as the writer sets it
TOKEN_BLEED = 1 * MM  # a token face's ink reaches this far past its cut outline


# Slot, Page and SheetOptions are NamedTuples, not frozen dataclasses: a dataclass is made at
# import by compiling its methods' source, about 1.5 ms each (issue 62)
class Slot(NamedTuple):
    """One card on a page: the trim's lower-left corner and size, and which card."""

    x: float
    y: float
    width: float
    height: float
    index: int  # position in the deck's printed order
    side: str  # "front" or "back"
    turned: int = 0  # degrees the card is turned anticlockwise: 0, 90, -90 or 180
    # how far the card's ink may reach past the trim's left, bottom, right and top edges
    # (less than 0: kept inside, as a label's inset); None: to the bleed, as on the grid
    reach: tuple[float, float, float, float] | None = None

    @property
    def card_size(self) -> tuple[float, float]:
        """The card's own width and height (the slot's, swapped when it is turned)."""
        return (self.height, self.width) if self.turned in (90, -90) else \
            (self.width, self.height)


class Guide(NamedTuple):
    """A cutting guide: the segment (x1, y1)-(x2, y2)."""

    x1: float
    y1: float
    x2: float
    y2: float


class Page(NamedTuple):
    """One page of a sheet: its size, the card (and token) slots on it, its cutting guides
    and fold line, and where its footer may go."""

    width: float
    height: float
    slots: tuple[Slot, ...]
    label: str  # e.g. "fronts 1/2"
    guides: tuple[Guide, ...] = ()
    fold_x: float | None = None  # gutterfold: where to fold
    footer: tuple["FooterSpace", ...] = ()  # the strips free for the footer, best first
    tokens: tuple = ()  # a sheet template's token slots (imposition.tokens.TokenSlot)
    token_outlines: bool = True  # their cut outlines drawn (not on stickers cut already)


class SheetOptions(NamedTuple):
    """How a deck's sheets are laid out: the sheet type, paper, duplex, back offset,
    bleed, guides, orientation, ink and sheet template a build asks for."""

    sheet: str = "pnp"  # or "gutterfold"
    paper: str = "a4"
    duplex: str | None = None  # "long" (the default for pnp) or "short"; pnp only
    back_offset: tuple[float, float] | None = None  # points, right and down; pnp only
    bleed: float = 0.0  # points
    guides: bool = False
    orientation: str = "auto"  # or "portrait", "landscape"
    ink: str = "full"  # or "draft": large areas light, for playtest prints
    template: object = None  # a deck.sheet_template.SheetTemplate instead of the grid


class Grid(NamedTuple):
    """How the cards of one sheet type sit on the paper."""

    paper_width: float  # as the page is printed: wider than high when landscape
    paper_height: float
    cols: int
    rows: int
    turned_cols: int = 0  # a strip of cards turned on their side below the grid
    turned_rows: int = 0

    @property
    def per_page(self) -> int:
        return self.cols * self.rows + self.turned_cols * self.turned_rows

    @property
    def orientation(self) -> str:
        return "landscape" if self.paper_width > self.paper_height else "portrait"


class Pages(Sequence):
    """A build's pages, each one made when it is asked for, so that a 50,000-card deck's
    11,112 pages are not all held at once. ``make(i)`` makes page ``i``."""

    def __init__(self, count: int, make):
        self._count, self._make = count, make

    def __len__(self) -> int:
        return self._count

    def __getitem__(self, index):
        if isinstance(index, slice):
            return [self._make(i) for i in range(*index.indices(self._count))]
        if index < 0:
            index += self._count
        if not 0 <= index < self._count:
            raise IndexError(index)
        return self._make(index)


class Plan(NamedTuple):
    """The pages of a build, the grid they share, and the bleed the cards are drawn with
    (the build's, or on a gutterfold sheet without one, what keeps neighbours apart)."""

    pages: Pages
    grid: Grid
    bleed: float = 0.0


class SheetError(ValueError):
    """The cards cannot be placed on the paper as asked."""

    def __init__(self, what: str, fix: str, where=None, token: int | None = None):
        super().__init__(what)
        self.what, self.fix = what, fix
        self.where = where  # the place to name, when it is not the deck's file: a template's
        self.token = token  # which of the tokens asked for, when it is one that has no slot


def trim_inset(bleed: float) -> float:
    """How close a card's trim may come to the paper's edge: inside the printable border,
    with the bleed still on the paper.

    >>> round(trim_inset(3 * MM) / MM, 3), round(trim_inset(6 * MM) / MM, 3)
    (5.0, 6.0)
    """
    return max(PRINTABLE_BORDER, bleed)


def fit_count(space: float, card: float, bleed: float, ends: float) -> int:
    """How many cards of length ``card``, ``2 * bleed`` apart, fit in ``space`` when the
    first and last trims keep ``ends`` (both together) from its edges.

    >>> fit_count(210 * MM, 63.5 * MM, 0, 10 * MM)
    3
    >>> fit_count(297 * MM, 63.5 * MM, 3 * MM, 6 * MM)
    4
    """
    room = space - ends + 2 * bleed
    return max(0, int((room + 1e-6) // (card + 2 * bleed)))


def mirrors_columns(duplex: str, page_width: float, page_height: float) -> bool:
    """Whether turning the paper over mirrors the page's columns (else its rows): the
    paper turns about its long edge for long-edge duplex, about its short edge otherwise.

    >>> mirrors_columns("long", 210, 297), mirrors_columns("long", 297, 210)
    (True, False)
    >>> mirrors_columns("short", 210, 297)
    False
    """
    portrait = page_height >= page_width
    return portrait == (duplex == "long")


def _grid_spots(cols: int, rows: int, width: float, height: float, bleed: float, left: float,
                top: float) -> list[tuple[float, float]]:
    """Trim corners (x, y) of a grid's cards in reading order; (left, top) is the first
    card's trim top-left corner."""
    pitch_x, pitch_y = width + 2 * bleed, height + 2 * bleed
    return [(left + c * pitch_x, top - height - r * pitch_y)
            for r in range(rows) for c in range(cols)]


def _span(count: int, card: float, bleed: float) -> float:
    """From the first trim to the last of ``count`` cards in a row or column."""
    return count * card + (count - 1) * 2 * bleed


def _papers(options: SheetOptions) -> list[tuple[float, float]]:
    short, long = PAPERS[options.paper]
    return [size for name, size in (("portrait", (short, long)), ("landscape", (long, short)))
            if options.orientation in ("auto", name)]


def _too_big(width: float, height: float, options: SheetOptions, where: str) -> SheetError:
    return SheetError(f"a {width / MM:g} x {height / MM:g} mm card with {options.bleed / MM:g} "
                      f"mm bleed does not fit {where} on {PAPER_NAMES[options.paper]}",
                      "use less bleed, another paper or a smaller card")


def _ends(bleed: float, footer: bool = False) -> float:
    """What a row or column of cards keeps free at its two ends together: the trim inset,
    or, on the sides that hold the footer, room for it between the border and the bleed."""
    if footer:  # always more than the trim inset
        return 2 * (PRINTABLE_BORDER + FOOTER_DEPTH + FOOTER_CLEARANCE + bleed)
    return 2 * trim_inset(bleed)


def pnp_grid(width: float, height: float, options: SheetOptions) -> Grid:
    """The grid that holds the most cards with room for the footer, above and below or
    left and right of them; on a tie, a plain grid before one with a turned strip, and
    portrait before landscape."""
    bleed, ends, footer_ends = options.bleed, _ends(options.bleed), _ends(options.bleed, True)
    plain, with_strip = [], []
    for w, h in _papers(options):
        cols, rows = fit_count(w, width, bleed, ends), fit_count(h, height, bleed, footer_ends)
        plain.append(Grid(w, h, cols, rows))
        plain.append(Grid(w, h, fit_count(w, width, bleed, footer_ends),
                          fit_count(h, height, bleed, ends)))
        # the band left below the grid, less the gap to it, for cards on their side
        band = h - footer_ends - _span(rows, height, bleed) - 2 * bleed
        turned_rows = fit_count(band, width, bleed, 0) if rows else 0
        if turned_rows:
            with_strip.append(Grid(w, h, cols, rows, fit_count(w, height, bleed, ends),
                                   turned_rows))
    best = max(plain + with_strip, key=lambda g: g.per_page)
    if not best.per_page:
        raise _too_big(width, height, options, "inside the printable border with its footer")
    return best


def _spots(grid: Grid, width: float, height: float, bleed: float) -> list[tuple]:
    """(x, y, slot width, slot height, turned) of every card place, in reading order:
    the grid, then the strip of turned cards below it; all of it centred on the paper."""
    total = _span(grid.rows, height, bleed)
    if grid.turned_rows:
        total += 2 * bleed + _span(grid.turned_rows, width, bleed)
    top = (grid.paper_height + total) / 2
    left = (grid.paper_width - _span(grid.cols, width, bleed)) / 2
    spots = [(x, y, width, height, 0)
             for x, y in _grid_spots(grid.cols, grid.rows, width, height, bleed, left, top)]
    if grid.turned_rows:
        top -= _span(grid.rows, height, bleed) + 2 * bleed
        left = (grid.paper_width - _span(grid.turned_cols, height, bleed)) / 2
        spots += [(x, y, height, width, 90) for x, y in _grid_spots(
            grid.turned_cols, grid.turned_rows, height, width, bleed, left, top)]
    return spots


def back_slot(s, columns: bool, paper_w: float, paper_h: float,
              offset: tuple[float, float] = (0.0, 0.0)):
    """The back of the card (a Slot) or token (a TokenSlot) in slot ``s``: behind it once
    the paper turns over, mirrored across the columns (``columns``) or the rows, moved by
    ``offset`` (right, down)."""
    dx, dy = offset
    reach = getattr(s, "reach", None)  # a card slot's, mirrored with it
    if columns:
        if reach:
            s = s._replace(reach=(reach[2], reach[1], reach[0], reach[3]))
        return s._replace(x=paper_w - s.x - s.width + dx, y=s.y - dy, side="back",
                          turned={180: 180}.get(s.turned, -s.turned))
    if reach:
        s = s._replace(reach=(reach[0], reach[3], reach[2], reach[1]))
    turned = {0: 180, 90: 90, -90: -90, 180: 0}[s.turned]  # 180 - turned, in -90..180
    return s._replace(x=s.x + dx, y=paper_h - s.y - s.height - dy, side="back",
                      turned=turned)


def pnp_pages(count: int, width: float, height: float, options: SheetOptions) -> Plan:
    """Fronts and backs for ``count`` cards of the given trim size (points)."""
    grid = pnp_grid(width, height, options)
    paper_w, paper_h, bleed = grid.paper_width, grid.paper_height, options.bleed
    spots = _spots(grid, width, height, bleed)
    columns = mirrors_columns(options.duplex or "long", paper_w, paper_h)
    dx, dy = options.back_offset or (0.0, 0.0)
    sheets = -(-count // grid.per_page)
    marks: dict = {}  # (side, cards on the page) -> its marks: the same on every such page

    def back(s: Slot) -> Slot:
        return back_slot(s, columns, paper_w, paper_h, (dx, dy))

    def page(index: int) -> Page:
        sheet, side = divmod(index, 2)
        first = sheet * grid.per_page
        indices = range(first, min(first + grid.per_page, count))
        slots = tuple(Slot(x, y, w, h, i, "front", turned)
                      for (x, y, w, h, turned), i in zip(spots, indices))
        if side:
            slots = tuple(back(s) for s in slots)
        key = (side, len(slots))
        if key not in marks:
            whole = tuple(Slot(x, y, w, h, 0, "front", turned) for x, y, w, h, turned in spots)
            if side:
                whole = tuple(back(s) for s in whole)
            marks[key] = _marks(paper_w, paper_h, slots, bleed, whole=whole)
        label = f"{('fronts', 'backs')[side]} {sheet + 1}/{sheets}"
        return marks[key]._replace(slots=slots, label=label)

    return Plan(Pages(2 * sheets, page), grid, bleed)


GUTTER_BLEEDS = (1.5 * MM, 1.0 * MM, 0.5 * MM)  # tried on a gutterfold sheet without bleed


def gutterfold_pages(count: int, width: float, height: float, options: SheetOptions) -> Plan:
    """Landscape pages: fronts left of the fold, their backs mirrored right of it. Without
    a bleed of the build's, the cards get the largest of GUTTER_BLEEDS that fits as many on
    the sheet: cards that touched showed the neighbour's colour after a slightly-off cut."""
    if not options.bleed:
        whole = _gutterfold(count, width, height, options)
        for bleed in GUTTER_BLEEDS:
            try:
                spaced = _gutterfold(count, width, height, options._replace(bleed=bleed))
            except SheetError:
                continue
            if spaced.grid.per_page == whole.grid.per_page:
                return spaced
        return whole
    return _gutterfold(count, width, height, options)


def _gutterfold(count: int, width: float, height: float, options: SheetOptions) -> Plan:
    if options.duplex or any(options.back_offset or ()):
        raise SheetError("gutterfold sheets print on one side and are folded, so --duplex "
                         "and --back-offset do not apply to them",
                         "leave those options out, or use --sheet pnp")
    if options.orientation == "portrait":
        raise SheetError("gutterfold sheets are landscape, folded down the middle",
                         "leave --orientation out, or use --sheet pnp")
    paper_h, paper_w = PAPERS[options.paper]
    bleed = options.bleed
    fold = paper_w / 2
    grid = Grid(paper_w, paper_h,
                fit_count(fold, width, bleed, trim_inset(bleed) + FOLD_GAP + bleed),
                fit_count(paper_h, height, bleed, _ends(bleed, footer=True)))
    if not grid.per_page:
        raise _too_big(width, height, options, "beside the fold")
    left = fold - FOLD_GAP - bleed - _span(grid.cols, width, bleed)
    spots = _grid_spots(grid.cols, grid.rows, width, height, bleed, left,
                        (paper_h + _span(grid.rows, height, bleed)) / 2)
    sheets = -(-count // grid.per_page)
    marks: dict = {}  # cards on the page -> its marks: the same on every such page

    def page(sheet: int) -> Page:
        first = sheet * grid.per_page
        slots = []
        for (x, y), i in zip(spots, range(first, min(first + grid.per_page, count))):
            slots.append(Slot(x, y, width, height, i, "front"))
            slots.append(Slot(2 * fold - x - width, y, width, height, i, "back"))
        if len(slots) not in marks:
            whole = [Slot(x, y, width, height, 0, side) for x, y in spots
                     for x, side in ((x, "front"), (2 * fold - x - width, "back"))]
            marks[len(slots)] = _marks(paper_w, paper_h, tuple(slots), bleed, fold, whole)
        return marks[len(slots)]._replace(slots=tuple(slots),
                                          label=f"sheet {sheet + 1}/{sheets}")

    return Plan(Pages(sheets, page), grid, bleed)


def _sides(width: float, height: float) -> list[tuple]:
    """The page seen from each edge (bottom, top, left, right): functions from a page
    rectangle (x1, y1, x2, y2) to (along1, along2, depth1, depth2), depth measured from
    that edge, and back; the angle text runs at along that edge; the edge's length."""
    return [
        (lambda x1, y1, x2, y2: (x1, x2, y1, y2), lambda a1, a2, d1, d2: (a1, d1, a2, d2),
         0, width),
        (lambda x1, y1, x2, y2: (x1, x2, height - y2, height - y1),
         lambda a1, a2, d1, d2: (a1, height - d2, a2, height - d1), 0, width),
        (lambda x1, y1, x2, y2: (y1, y2, x1, x2), lambda a1, a2, d1, d2: (d1, a1, d2, a2),
         90, height),
        (lambda x1, y1, x2, y2: (y1, y2, width - x2, width - x1),
         lambda a1, a2, d1, d2: (width - d2, a1, width - d1, a2), -90, height),
    ]


def _marks(width: float, height: float, slots, bleed: float, fold_x: float | None = None,
           whole=None) -> Page:
    """A page with its cut guides and the strips free for its footer, but no label: what
    every page whose cards sit alike shares, worked out once for all of them. The footer
    goes where it goes on a page of the ``whole`` grid's slots, so that on a last page
    partly filled it does not float up into the empty space."""
    page = Page(width, height, slots, "", cut_guides(width, height, slots, bleed), fold_x)
    full = page if whole is None or len(whole) == len(slots) else \
        Page(width, height, whole, "", cut_guides(width, height, whole, bleed), fold_x)
    return page._replace(footer=tuple(footer_spaces(full, bleed)))


def cut_guides(page_width: float, page_height: float, slots, bleed: float) -> tuple[Guide, ...]:
    """A guide at both ends of every cut line of each block of cards (the upright grid, the
    strip of turned cards): a crop mark beyond the cards where the margin holds one of at
    least MIN_GUIDE inside the printable border, else a hairline along the cut line from
    the border into the cards; where the line runs on into the other block, a hairline
    across the gap between them. No guide touches a card except on its cut line."""
    blocks = {}
    for slot in slots:
        blocks.setdefault(slot.turned != 0, []).append(slot)
    guides = []
    for block in blocks.values():
        others = [bounds(b, bleed) for b in blocks.values() if b is not block]
        guides += _block_guides(page_width, page_height, block, others, bleed)
    return tuple(guides)


def _block_guides(page_width, page_height, slots, others, bleed) -> list[Guide]:
    xs = sorted({round(v, 3) for s in slots for v in (s.x, s.x + s.width)})
    ys = sorted({round(v, 3) for s in slots for v in (s.y, s.y + s.height)})
    guides = []
    for (to_side, to_page, _, _), lines in zip(_sides(page_width, page_height),
                                               (xs, xs, ys, ys)):
        trim_depth = to_side(*bounds(slots))[2]
        facing = [box for box in map(lambda b: to_side(*b), others) if box[3] <= trim_depth]
        mark_start = trim_depth - bleed - MARK_GAP
        room = mark_start - PRINTABLE_BORDER
        for line in lines:
            beyond = [box for box in facing if box[0] < line < box[1]]
            if beyond:  # across the gap to the other block's trim
                start = max(box[3] for box in beyond) - bleed
                end = trim_depth + HAIRLINE_INTO_CARDS
            elif room >= MIN_GUIDE:
                start, end = mark_start, mark_start - min(MARK_LENGTH, room)
            else:
                start, end = PRINTABLE_BORDER, trim_depth + HAIRLINE_INTO_CARDS
            x1, y1, x2, y2 = to_page(line, line, min(start, end), max(start, end))
            guides.append(Guide(x1, y1, x2, y2))
    return guides


class FooterSpace(NamedTuple):
    """A free strip for the footer: its rectangle and the angle its text runs at (0 along
    the bottom or top, 90 up the left side, -90 down the right side)."""

    x1: float
    y1: float
    x2: float
    y2: float
    angle: int

    @property
    def length(self) -> float:
        return self.x2 - self.x1 if self.angle == 0 else self.y2 - self.y1


def footer_spaces(page: Page, bleed: float, depth: float = FOOTER_DEPTH) -> list[FooterSpace]:
    """The longest free strip at least ``depth`` deep on each side of the page (bottom,
    top, left, right, in that order of preference), between the printable border and the
    cards (and tokens), clear of every guide and the fold line."""
    w, h = page.width, page.height
    boxes = ([bounds(page.slots, bleed)] if page.slots else []) + \
        ([bounds(page.tokens, TOKEN_BLEED)] if page.tokens else [])
    cards = (min(b[0] for b in boxes), min(b[1] for b in boxes),
             max(b[2] for b in boxes), max(b[3] for b in boxes))
    segments = [(g.x1, g.y1, g.x2, g.y2) for g in page.guides]
    if page.fold_x is not None:
        segments.append((page.fold_x, 0, page.fold_x, h))
    spaces = []
    for to_side, to_page, angle, length in _sides(w, h):
        strip = _free_strip([to_side(min(x1, x2), min(y1, y2), max(x1, x2), max(y1, y2))
                             for x1, y1, x2, y2 in segments],
                            length, to_side(*cards)[2] - FOOTER_CLEARANCE, depth)
        if strip:
            spaces.append(FooterSpace(*to_page(*strip), angle))
    return spaces


def _free_strip(obstacles, length: float, deepest: float, depth: float):
    """The longest strip (a1, a2, d1, d2) along one side, between the printable border and
    ``deepest``, at least ``depth`` deep and FOOTER_CLEARANCE clear of the obstacles, each
    given as (a1, a2, d1, d2); either below all of them, or across the band between two."""
    near, far = PRINTABLE_BORDER, length - PRINTABLE_BORDER
    if deepest - near < depth:
        return None
    inside = [(a1 - FOOTER_CLEARANCE, a2 + FOOTER_CLEARANCE, d1 - FOOTER_CLEARANCE)
              for a1, a2, d1, d2 in obstacles
              if d2 > near and d1 - FOOTER_CLEARANCE < deepest and a2 > near and a1 < far]
    candidates = []
    below = min([deepest] + [d1 for _, _, d1 in inside])
    if below - near >= depth:
        candidates.append((near, far, near, below))
    edges = sorted((a1, a2) for a1, a2, _ in inside)
    start = near
    for a1, a2 in edges + [(far, far)]:
        if a1 > start:
            candidates.append((start, min(a1, far), near, deepest))
        start = max(start, a2)
    centre = length / 2
    return max(candidates, key=lambda c: (round(c[1] - c[0], 3), -abs((c[0] + c[1]) / 2
                                                                      - centre)),
               default=None)


def bounds(slots, grow: float = 0.0) -> tuple[float, float, float, float]:
    """The rectangle (x1, y1, x2, y2) around the slots' trims, grown by ``grow``."""
    return (min([s.x for s in slots]) - grow, min([s.y for s in slots]) - grow,
            max([s.x + s.width for s in slots]) + grow,
            max([s.y + s.height for s in slots]) + grow)  # lists: no generator step a slot
