"""Draw one card, front or back, onto any reportlab canvas at any position.

This module and :mod:`.paint`, which it hands each element to, are the only ones that turn
layouts into drawing operations. They know nothing of sheets: the imposition code says
where each card goes, so the same call serves PnP and gutterfold sheets, one-card pages
and per-card images.

Resolving a card (filling its elements' values, laying out its text, reading its images)
is also where the card is checked as it will print: problems stop a build, warnings stop
it only with --strict.
"""

from __future__ import annotations

from pathlib import Path

from PIL import UnidentifiedImageError

from ..assets.icons import BuiltinIcon
from ..assets.svg import SvgError, font_fallbacks, load_svg, with_deck_fonts
from ..common.errors import Problem, Problems, Where
from ..common.units import INCH, to_mm
from ..deck.layout import MAX_MADE, Box, Element, Layout
from ..deck.model import Card
from ..deck.properties import BadValue
from ..sources.checks import quoted
from ..sources.files import MB, REACH_FIX, deck_root, why_outside, why_unreadable
from ..sources.images import MAX_PIXELS, TooManyPixels, open_image
from .draft import drafted
from .paint import (EDGE, Picture, Resolved, art_size, box_offsets, draw_item, element_box,
                    inside, line_origins, overflow_mark, placed_box)
from .cardtext import TextResolver


FRONT, BACK = "front", "back"
PRINT_DPI = 300  # what print services ask of images
BLEED_ALLOWANCE = INCH / 8  # how far a bleed element may reach past the trim (or --bleed)
MAX_IMAGE_BYTES = 50 * MB
FULL_INK, DRAFT_INK = "full", "draft"
KEEP_BOXES = 64  # places on a sheet an element's box is kept for: a page's slots, front and back


class Report:
    """What drawing found: problems (bad values, missing images) stop a build; warnings
    (text that does not fit, missing glyphs) stop it only with --strict. The same finding
    on many cards is reported once, at the first card, with a count of the others."""

    def __init__(self, warnings=()) -> None:
        """``warnings``: what loading found to warn of (a translation missing, the
        original printed), reported with what drawing finds."""
        self._found: dict = {}  # (severity, element position, what) -> (Problem, card numbers)
        for warning in warnings:
            self._found[("warning", warning.where, warning.what)] = (warning, set())

    def add(self, severity: str, card: Card, layout: Layout, element: Element, what: str,
            fix: str, in_layout: bool = False) -> None:
        """Record a finding on ``card``; ``in_layout`` when the layout is what to change
        (the message then points at the element, not at the card)."""
        key = (severity, element.where, what)
        if key not in self._found:
            if in_layout:
                problem = Problem(element.where, f"layout '{layout.name}', element "
                                  f"'{element.name}', on {card.label()}: {what}", fix)
            else:
                problem = Problem(card.where, f"{card.label()}, layout '{layout.name}', "
                                  f"element '{element.name}': {what}", fix)
            self._found[key] = (problem, {card.number})
        self._found[key][1].add(card.number)

    def _list(self, severity: str) -> list[Problem]:
        found = []
        for (kind, _, _), (problem, cards) in self._found.items():
            if kind == severity:
                others = max(0, len(cards) - 1)
                more = f" (and {others} more card{'s' * (others != 1)})" if others else ""
                found.append(Problem(problem.where, problem.what + more, problem.fix))
        return found

    def of_card(self, number: int) -> list[tuple[str, Where, Problem]]:
        """What was found on card ``number``: (severity, where its element is written,
        the finding as first met)."""
        return [(severity, element, problem) for (severity, element, _), (problem, cards)
                in self._found.items() if number in cards]

    @property
    def problems(self) -> Problems:
        problems = Problems()
        problems.items = self._list("problem")
        return problems

    @property
    def warnings(self) -> list[Problem]:
        return self._list("warning")


class CardRenderer(TextResolver):
    """Draws cards; resolves each distinct card's elements once, however many copies.
    ``bleed`` is the build's bleed, for the check that nothing reaches past it. ``keep``
    bounds how many resolved sides it holds (None: all of them); the oldest go first, so a
    build that draws page by page holds what a few pages need, and a card's copies, which
    follow each other, are resolved once. With ``marks`` (a proof, not a print), each
    text that does not fit its box has the box outlined and tinted in red, so the warning's
    element can be found on the card. ``on_resolved(renderer, card, side, items)``, if
    given, is called with each side as it is resolved (a side resolved again after the
    renderer let it go is given again)."""

    def __init__(self, report: Report, bleed: float = 0.0, ink: str = FULL_INK,
                 keep: int | None = None, marks: bool = False, skip=frozenset(),
                 on_resolved=None):
        self.report = report
        self.on_resolved = on_resolved
        self.skip = skip  # elements (by where they are) found wrong already: not resolved
        self.marks = marks  # proofs (previews, --guides): outline the texts that overflow
        self.reach = max(bleed, BLEED_ALLOWANCE)
        self.draft = ink == DRAFT_INK
        self.keep = keep
        self._resolved: dict = {}  # key (see _key) -> (resolved elements, findings)
        self._images: dict = {}
        self._box_places: dict = {}  # id(element) -> what its box reaches
        self._places: dict = {}  # (card width, height, bleed) -> id(element) -> _Place
        # size_group name -> the size its texts are set at, once every card is resolved
        self.group_sizes: dict[str, float] = {}
        self._grouped: dict = {}  # resolved side's key -> ((group, size fitted), ...)
        self._reads_card: dict = {}  # id(back layout) -> (it, whether it reads card fields)
        self._findings: list | None = None  # what the side being resolved has wrong

    def draw(self, canvas, card: Card, side: str, x: float, y: float, width: float,
             height: float, bleed: float = 0.0, which=None) -> None:
        """Draw ``card``'s ``side`` with its trim's lower-left corner at (x, y). What
        reaches past the trim (or the bleed) is cut there. ``which(i)``, if given, says
        whether to draw the side's i-th element (see :func:`translucent`)."""
        frame = (width, height, bleed)
        places = self._places.get(frame)
        if places is None:
            places = self._places[frame] = {}
        edges = (x - bleed, y - bleed, x + width + bleed, y + height + bleed)
        placed, uncut = [], True
        for i, item in enumerate(self.resolve(card, side)):
            if which is not None and not which(i):
                continue
            place = places.get(id(item.element))
            if place is None:
                place = places[id(item.element)] = _Place(item.element, *frame)
            box = place.boxes.get((x, y)) or place.box_at(x, y)
            placed.append((item, box))
            uncut = uncut and place.inside(item, box, edges)

        def draw_all():
            for item, box in placed:
                if item.element.kind == "image" and item.element.bleed:
                    # fitted to its box grown by the usual bleed, whatever this build's:
                    # inside the trim the picture is the same with any bleed, and a bleed
                    # of up to 1/8 in shows more of the picture, never a gap
                    fitted = element_box(item.element, x, y, width, height, BLEED_ALLOWANCE)
                    draw_item(canvas, item, box, fitted)
                else:
                    draw_item(canvas, item, box)

        if uncut:
            # Nothing to cut (most cards), and nothing to restore after: these elements
            # set each colour, width and font they use
            draw_all()
            return
        canvas.saveState()
        path = canvas.beginPath()
        path.rect(x - bleed, y - bleed, width + 2 * bleed, height + 2 * bleed)
        canvas.clipPath(path, stroke=0, fill=0)
        draw_all()
        if self.marks:  # over everything, so nothing the card draws can hide them
            for item, box in placed:
                if item.text is not None and not item.text.fits:
                    overflow_mark(canvas, box)
        canvas.restoreState()

    def resolve(self, card: Card, side: str) -> list[Resolved]:
        key = self._key(card, side)
        found = self._resolved.get(key)
        if found is None:
            self._findings = []
            found = self._resolved[key] = (self._resolve(card, side), self._findings)
            self._findings = None
            if self.keep is not None and len(self._resolved) > self.keep:
                del self._resolved[next(iter(self._resolved))]  # the oldest
            if self.on_resolved is not None:
                self.on_resolved(self, card, side, found[0])
        else:
            if self.keep is not None:  # kept as the newest: a shared back stays
                self._resolved[key] = self._resolved.pop(key)
            # a back shared with other cards: what was found on it is found on this card
            for severity, *finding in found[1]:
                self.report.add(severity, card, *finding)
        return found[0]

    def _key(self, card: Card, side: str) -> tuple:
        """What a resolved side is kept under: the card, or for a back whose layout reads
        only the back design's fields, the back design (and the folder its images are
        found in), which the cards with that back share."""
        if side == BACK:
            layout = card.back.layout
            if id(layout) not in self._reads_card:
                names = {name for element in layout.elements
                         for name in element.fields(layout.styles, layout.assets.icons)}
                self._reads_card[id(layout)] = (layout, any(  # the layout: its id stays its own
                    name != "back" and not name.startswith(("back.", "deck."))
                    for name in names))
            if not self._reads_card[id(layout)][1]:
                return (BACK, card.back.name, card.folder)
        return (card.number, side)

    def fit(self, cards) -> None:
        """Resolve every card's front and back, the texts of each size group at one size:
        the cards whose texts of a group were set larger are resolved again."""
        for _ in range(2):
            for card in cards:
                self.resolve(card, FRONT)
                self.resolve(card, BACK)
            if not self.share_group_sizes():
                break

    def share_group_sizes(self) -> bool:
        """Once every card is resolved: set the texts of each ``size_group`` at one size,
        the largest at which all of them fit (the smallest any of them fitted at). The
        cards with a text of a group set larger are resolved again when next asked for;
        returns whether there are any."""
        for fitted in self._grouped.values():
            for group, size in fitted:
                self.group_sizes[group] = min(size, self.group_sizes.get(group, size))
        redo = [key for key, fitted in self._grouped.items()
                if any(size > self.group_sizes[group] for group, size in fitted)]
        for key in redo:
            self._resolved.pop(key, None)
        self._grouped.clear()
        return bool(redo)

    def _resolve(self, card: Card, side: str) -> list[Resolved]:
        layout = card.front if side == FRONT else card.back.layout
        values = card.values()
        items = []
        areas: list = []  # for draft ink: the filled shapes so far, (box, made lighter)
        for element in layout.elements:
            if self.skip and element.where in self.skip:  # hashing a Where costs
                continue
            try:
                props = element.resolve(values, layout.styles, layout.assets)
                if not props["show"]:
                    continue
                if self.draft:
                    props = drafted(element, props, areas, layout.card_size)
                item = self._item(card, side, layout, element, props)
            except BadValue as exc:
                self._problem(card, layout, element, exc.what, exc.fix)
                continue
            if item is not None:
                items.append(item)
                self._check_place(card, layout, item)
        return items

    def _item(self, card, side, layout, element: Element, props) -> Resolved | None:
        if element.kind == "text":
            return Resolved(element, props, text=self._text(card, side, layout, element, props))
        if element.kind == "image":
            art = self._image(card, layout, element, props)
            return Resolved(element, props, art=art) if art is not None else None
        if element.kind == "icon" and props["shading"] != "solid" and \
                not isinstance(props["icon"], BuiltinIcon):
            raise BadValue(f"shading '{props['shading']}' works on the built-in icons only",
                           "draw the shading into the SVG, or use 'shading: solid'")
        if element.kind == "icon" and not props["icon"].single_colour and \
                "fill" in {**element.fixed, **element.templates}:
            self._warn(card, layout, element, f"icon '{props['icon'].name}' is drawn in its "
                       "own colours (its SVG has more than one), so 'fill' does not colour it",
                       "draw the icon in one colour for 'fill' to colour it, or leave 'fill' "
                       "out to keep its colours", in_layout=True)
        return Resolved(element, props)

    def _image(self, card, layout, element: Element, props):
        """The image (PNG, JPG) or SVG drawing a card's image element shows; its path is
        relative to the deck file that gave the card."""
        name = props["image"]
        key = (name, card.folder)
        if key not in self._images:
            self._images[key] = _read_image(card.folder / name, card.folder)
        art, problem = self._images[key]
        if art is None:
            what, fix = problem
            raise BadValue(f"image {quoted(name, 200)}: {what}", fix)
        if isinstance(art, Picture):
            self._check_resolution(card, layout, element, props, name, art)
            return art
        art, missing, lacking = with_deck_fonts(art, layout.assets)
        for what, fix in font_fallbacks(missing, lacking):
            self._warn(card, layout, element, f"image {quoted(name, 200)} {what}", fix,
                       in_layout=True)
        return art

    def _check_resolution(self, card, layout, element, props, name, image: Picture) -> None:
        """Warn of a picture under PRINT_DPI at the size it prints: fitted to its box, grown
        by BLEED_ALLOWANCE at the trim for a bleed picture (as :meth:`draw` fits it)."""
        pixels = image.size
        box = element_box(element, 0, 0, *layout.card_size,
                          BLEED_ALLOWANCE if element.bleed else 0.0)
        width, height = box.width, box.height
        if element.rotate in (90, 270):  # drawn in a frame turned a quarter
            width, height = height, width
        width, height = art_size(props["fit"], pixels, width, height)
        dpi = min(pixels[0] / (width / INCH), pixels[1] / (height / INCH))
        if dpi < PRINT_DPI - 0.5:
            need = [round(PRINT_DPI * side / INCH) for side in (width, height)]
            self._warn(card, layout, element, f"image '{name}' prints at {dpi:.0f} dpi (its "
                       f"{pixels[0]} x {pixels[1]} px over {to_mm(width):.1f} x "
                       f"{to_mm(height):.1f} mm), under the {PRINT_DPI} dpi print needs",
                       f"use an image of at least {need[0]} x {need[1]} px, or SVG")

    def _check_place(self, card, layout, item: Resolved) -> None:
        """Warn about ink outside the card (or past the bleed, for bleed elements), and
        about text and icons in the unsafe band between the trim and the safe area."""
        element = item.element
        key = id(element)
        if key not in self._box_places:  # the box is the same on every card
            box = element.box
            self._box_places[key] = self._place(layout, element, (
                box.x, box.y, box.x + box.width, box.y + box.height))
        sides, in_band = self._box_places[key]
        if element.kind in ("text", "icon"):
            if not sides and not in_band and (element.kind == "icon" or item.text.fits):
                return  # its ink lies inside its box, which lies inside the safe area
            ink = _ink(item)
            if ink is None:
                return
            sides, in_band = self._place(layout, element, ink)
        if sides:
            self._warn(card, layout, element, *outside_finding(element, sides),
                       in_layout=True)
        elif in_band and element.kind in ("text", "icon"):
            what = "text" if element.kind == "text" else "the icon"
            self._warn(card, layout, element, f"{what} lies within {to_mm(layout.safe):g} mm "
                       "of the trim, where cutting may clip it",
                       "move its box inside the safe area (see it with --guides)",
                       in_layout=True)

    def _place(self, layout, element: Element, ink) -> tuple[list[str], bool]:
        """The sides where ``ink`` (left, top, right, bottom on the card) reaches outside
        the card (or the bleed), and whether it enters the unsafe band."""
        left, top, right, bottom = ink
        width, height = layout.card_size
        sides = outside_sides(ink, layout.card_size, self.reach if element.bleed else 0.0)
        safe = layout.safe
        in_band = left < safe - EDGE or top < safe - EDGE or right > width - safe + EDGE or \
            bottom > height - safe + EDGE
        return sides, in_band

    def _problem(self, card, layout, element, what, fix):
        self._add("problem", card, layout, element, what, fix)

    def _warn(self, card, layout, element, what, fix, in_layout=False):
        self._add("warning", card, layout, element, what, fix, in_layout)

    def _add(self, severity, card, *finding):
        self.report.add(severity, card, *finding)
        if self._findings is not None:
            self._findings.append((severity, *finding))


class _Place:
    """Where an element goes on cards of one size drawn with one bleed (its
    :func:`box_offsets`), and whether its ink stays inside them: a text's is judged on
    each card; a shape's or a picture's once for each dict of properties it is drawn
    with (most are one of a few dicts every card shares: a back's colour), on the card
    at the origin."""

    __slots__ = ("element", "offsets", "height", "box", "edges", "boxes", "clear")

    def __init__(self, element: Element, width: float, height: float, bleed: float):
        self.element = element  # kept, so that its id() stays its own
        self.offsets = box_offsets(element, width, height, bleed)
        self.height = height
        self.box = placed_box(self.offsets, 0.0, 0.0, height)
        self.edges = (-bleed, -bleed, width + bleed, height + bleed)
        self.boxes: dict = {}  # (x, y) -> the box on the card drawn there (see box_at)
        self.clear: dict = {}  # id(props) -> (the props, kept so the id stays theirs; verdict)

    def box_at(self, x: float, y: float) -> Box:
        """The element's box on the card whose trim's lower-left corner is at (x, y).
        Cards are drawn at a sheet's few slots page after page, so the boxes of the
        first :data:`KEEP_BOXES` places are kept and not made again."""
        box = placed_box(self.offsets, x, y, self.height)
        if len(self.boxes) < KEEP_BOXES:
            self.boxes[x, y] = box
        return box

    def inside(self, item: Resolved, box, edges) -> bool:
        """:func:`inside` for ``item`` drawn in ``box`` on a card within ``edges``."""
        if item.text is not None:
            return inside(item, box, edges)
        known = self.clear.get(id(item.props))
        if known is None:
            known = (item.props, inside(item, self.box, self.edges))
            if len(self.clear) < MAX_MADE:  # props made anew for each card are judged anew
                self.clear[id(item.props)] = known
        return known[1]


def outside_sides(edges, card_size, reach: float) -> list[str]:
    """The sides where ``edges`` (left, top, right, bottom on the card, in points) reach
    outside a card of ``card_size``, or more than ``reach`` past it (a bleed element's).

    >>> outside_sides((-5, 0, 100, 100), (100, 100), 0.0), outside_sides((-5, 0, 9, 9), (9, 9), 9)
    (['left'], [])
    """
    left, top, right, bottom = edges
    width, height = card_size
    return [side for side, out in (("left", left < -reach - EDGE), ("top", top < -reach - EDGE),
                                   ("right", right > width + reach + EDGE),
                                   ("bottom", bottom > height + reach + EDGE)) if out]


def outside_finding(element: Element, sides: list[str]) -> tuple[str, str]:
    """What validate says of ``element`` reaching outside the card at ``sides``, and the
    fix."""
    where = "the bleed" if element.bleed else "the card"
    may_bleed = not element.bleed and element.kind not in ("text", "icon")
    return (f"reaches outside {where} ({', '.join(sides)}) and is cut off there",
            "move or shrink its box" + (", or give it 'bleed: true' if it is meant to run "
                                        "off the edge" if may_bleed else ""))


def shares_sizes(deck) -> bool:
    """Whether any layout of ``deck`` gives a text a ``size_group``, itself or by a style."""
    layouts = deck.layouts()
    return any("size_group" in element.fixed or "size_group" in element.templates
               for layout in layouts for element in layout.elements) or \
        any("size_group" in style for layout in layouts for style in layout.styles.values())


def _read_image(path: Path, folder: Path):
    """(the image or SVG drawing, None) or (None, (why it cannot be used, the fix)) for
    the image at ``path`` named by a deck in ``folder``. A raster image is decoded whole
    here, so a damaged file is found when the deck is checked, not later while the PDF is
    written."""
    outside = why_outside(path, folder)
    if outside:
        return None, (outside, REACH_FIX)
    path = path.resolve()
    why = why_unreadable(path, MAX_IMAGE_BYTES)
    if why:
        return None, (why, f"put a PNG, JPG or SVG at {path}" if "not found" in why else
                      "use a smaller image: 300 dpi at its size on the card is enough"
                      if "MB" in why else "use a PNG, JPG or SVG file")
    if path.suffix.lower() == ".svg":
        try:
            return load_svg(path, deck_root(folder)), None
        except SvgError as exc:
            return None, (exc.what, exc.fix)
    try:
        stat = path.stat()
        with open_image(path) as probe:
            probe.load()  # decode it all: a truncated file fails now
            translucent = probe.mode in ("RGBA", "LA", "PA") or "transparency" in probe.info
        # read again by name when drawn (a JPEG is then embedded as it is, not decoded and
        # compressed again)
        image = Picture(path, (stat.st_mtime_ns, stat.st_size), probe.size, translucent)
    except TooManyPixels as large:
        return None, (f"{large} is more than {MAX_PIXELS // 1_000_000} megapixels",
                      "use a smaller image: 300 dpi at its size on the card is enough")
    except UnidentifiedImageError:
        return None, ("not a PNG or JPEG file (whatever its name says), nor SVG",
                      "save it again as PNG, JPG or plain SVG")
    except Exception:  # Pillow raises many kinds; all mean "not an image it can read"
        return None, ("not an image cardkit can read (PNG, JPG or SVG), or damaged",
                      "save it again as PNG, JPG or plain SVG")
    return image, None


def _ink(item: Resolved):
    """Where an element's ink lies on the card, (left, top, right, bottom) from the card's
    top-left, y down; None when it draws nothing."""
    element, box = item.element, item.element.box
    width, height = box.width, box.height
    if element.rotate in (90, 270):
        width, height = height, width
    if element.kind == "text":
        block = item.text
        if not block.lines or not any(line.runs for line in block.lines):
            return None
        spans = [(x, x + line.width, baseline - block.ascent, baseline + block.descent)
                 for line, (x, baseline) in zip(block.lines,
                                                line_origins(block, item.props, width, height))
                 if line.runs]
        local = (min(s[0] for s in spans), min(s[2] for s in spans),
                 max(s[1] for s in spans), max(s[3] for s in spans))
    elif element.kind == "icon":
        side = min(width, height)
        x0, y0, x1, y1 = item.props["icon"].bounds()
        left, top = (width - side) / 2, (height - side) / 2
        local = (left + x0 * side, top + (1 - y1) * side, left + x1 * side,
                 top + (1 - y0) * side)
    else:
        local = (0.0, 0.0, width, height)
    # turn about the box's centre, clockwise as the card is seen (y down)
    cx, cy = width / 2, height / 2
    corners = [(x - cx, y - cy) for x in (local[0], local[2]) for y in (local[1], local[3])]
    turn = {0: lambda x, y: (x, y), 90: lambda x, y: (-y, x), 180: lambda x, y: (-x, -y),
            270: lambda x, y: (y, -x)}[element.rotate]
    turned = [turn(x, y) for x, y in corners]
    mx, my = box.x + box.width / 2, box.y + box.height / 2
    return (mx + min(x for x, _ in turned), my + min(y for _, y in turned),
            mx + max(x for x, _ in turned), my + max(y for _, y in turned))
