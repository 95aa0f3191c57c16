"""Is every text readable? Its colour against what lies behind it, measured on the card.

Each side is drawn without its texts (and what lies far from them) and rasterised at a low
resolution; what lies behind a text is the median colour where its lines lie (art, panels and the paper as printed: not
the rest of its box, which may hold the panel around a coloured disc). A text
whose contrast with that is under 4.5:1 (WCAG 2's line for body text; 3:1 for text of 18
points and more) is a warning: hard to read at the table, and worse printed.
"""

from __future__ import annotations

import io

from reportlab.pdfgen.canvas import Canvas

from ..assets.fonts import DEFAULT_FONT, register
from ..assets.icons import BuiltinIcon
from ..common.errors import Problem
from ..common.units import MM
from ..deck.model import Card, CardSize, Deck
from ..render.card import BACK, BLEED_ALLOWANCE, FRONT, CardRenderer, Report
from ..render.paint import line_origins
from ..sources.checks import faded

DPI = 36  # enough to see a panel's colour; cheap enough for every side of a deck
BODY, LARGE = 4.5, 3.0  # the lowest contrast for text, and for text of LARGE_SIZE or more
LARGE_SIZE = 18.0  # points
NEAR = 3 * MM  # an element this close to a text's box may lie behind it (its stroke)
BATCH = 64  # backdrops drawn into one PDF before they are rasterised
KEEP_BACKDROPS = 64  # rasterised backdrops kept for the sides to come (34 KB each, poker)


def luminance(rgb) -> float:
    """WCAG 2 relative luminance of an sRGB colour with channels 0-1."""
    def linear(c):
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (linear(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a, b) -> float:
    """WCAG 2 contrast ratio of two sRGB colours.

    >>> round(contrast((1, 1, 1), (0, 0, 0)), 1), round(contrast((0xf5 / 255, 0xee / 255,
    ...       0xdb / 255), (0xfd / 255, 0xf6 / 255, 0xe3 / 255)), 2)
    (21.0, 1.07)
    """
    return _ratio(luminance(a), luminance(b))


def _ratio(one: float, other: float) -> float:
    """WCAG 2 contrast ratio of two relative luminances."""
    high, low = max(one, other), min(one, other)
    return (high + 0.05) / (low + 0.05)


def low_contrast(deck: Deck, renderer: CardRenderer) -> list[Problem]:
    """A warning for each text element (once, at its first card) whose colour stands out
    too little from what the card draws behind it."""
    check = ContrastCheck(deck.size, Report())
    for card in deck.cards:
        for side in (FRONT, BACK):
            check.side(renderer, card, side, renderer.resolve(card, side))
    check.finish()
    return check.report.warnings


class ContrastCheck:
    """Measures each text of the sides it is given against what lies behind it, and adds
    a warning to ``report`` for each text element that stands out too little (once, at
    its first card). Cheap enough for every build: a side's backdrop (the side drawn
    without its texts) is drawn once per distinct backdrop, and rasterised with up to
    :data:`BATCH` others from one PDF; each text is measured once per backdrop, place and
    colour. :meth:`finish` measures what still waits for its backdrop.

    A backdrop holds only the elements that reach near a text of the layout (within
    :data:`NEAR`): a card's pips and art away from its texts change nothing behind them.
    It is known by what its drawing depends on: the layout, the folder its images are read
    from, and the values of the fields those elements read. Working out a drawing key
    instead would draw every side once more (0.5 ms a side, 0.5 s for 1,000 cards).

    ``side`` is what :class:`CardRenderer` calls with ``on_resolved``: a build measures
    each side as its page draws it. A text of a size group is measured at its own size
    first and again at the group's, which is never larger."""

    def __init__(self, size: CardSize, report: Report):
        self.size, self.report = size, report
        self.pixels = (max(1, round(size.width / 72 * DPI)),
                       max(1, round(size.height / 72 * DPI)))
        # id(layout) -> (it, id()s of the elements a backdrop holds, the fields they read,
        # whether only the back design's and the deck's)
        self._layouts: dict = {}
        self._known: dict = {}  # what a backdrop depends on -> its number
        self._designs: dict = {}  # (id(layout), folder, back design's name) -> backdrop
        self._backdrops: dict = {}  # backdrop's number -> its picture at DPI, the newest last
        self._drawing = None  # the PDF the backdrops not yet rasterised are drawn into
        self._pages: dict = {}  # backdrop's number -> its page in the drawing
        self._waiting: list = []  # (backdrop, card, layout, text item) to measure
        self._flat: dict = {}  # (backdrop, id(element)) -> its box's one colour, or None
        self._clear_boxes: dict = {}  # (backdrop, id(element), colour, least) -> _clear()
        self._medians: dict = {}  # (backdrop, area in pixels) -> the colour behind it
        self._line_areas: dict = {}  # what places a text's lines -> their area in pixels
        self._measured: dict = {}  # (behind, colour, the least) -> finding or None
        self._found: set = set()  # id()s of the elements warned of (kept by their layouts)
        self._told_texts: dict = {}  # (backdrop, id(element), its colour...) -> _told()
        self._told_lines_at: dict = {}  # (backdrop, what places the lines) -> _told_lines()

    def side(self, renderer: CardRenderer, card: Card, side: str, items) -> None:
        """Measure the texts of ``card``'s ``side``, resolved as ``items``: now if its
        backdrop was rasterised already, else once a batch of backdrops is (or at
        :meth:`finish`)."""
        texts = [item for item in items if item.text is not None and item.props.get("text")
                 and id(item.element) not in self._found]
        if not texts:
            return
        layout = card.front if side == FRONT else card.back.layout
        backdrop = self._backdrop(card, layout)
        drawn = []  # most texts are told by the colours of the shapes behind them instead
        for item in texts:
            told = self._told(backdrop, layout, items, item)
            if told is None:
                told = self._told_lines(backdrop, layout, items, item)
            if told is None:
                drawn.append(item)
            elif told is not CLEAR:  # after what waits, as its backdrop would have been
                entry = (None, card, layout, item, told)
                self._waiting.append(entry) if self._waiting else self._measure(*entry)
        texts = drawn
        if not texts:
            return
        if backdrop in self._backdrops:
            self._backdrops[backdrop] = self._backdrops.pop(backdrop)  # the newest now
            for item in texts:
                self._measure(backdrop, card, layout, item)
            return
        if backdrop not in self._pages:
            self._draw(renderer, card, side, items, layout, backdrop)
        self._waiting += [(backdrop, card, layout, item) for item in texts]
        if len(self._pages) >= BATCH or len(self._waiting) >= 16 * BATCH:
            self.finish()

    def finish(self) -> None:
        """Rasterise the backdrops drawn so far, in one PDF, and measure the texts waiting
        for them."""
        if self._drawing is not None:
            from ..common.pdfium import open_pdf  # late: a deck of flat colours needs no pixels

            canvas, drawing = self._drawing
            canvas.save()
            with open_pdf(drawing.getvalue()) as pdf:
                for backdrop, page in self._pages.items():
                    self._backdrops[backdrop] = pdf[page].render(scale=DPI / 72).to_pil() \
                        .convert("RGB").resize(self.pixels)
            self._drawing, self._pages = None, {}
        waiting, self._waiting = self._waiting, []
        for entry in waiting:
            self._measure(*entry)
        while len(self._backdrops) > KEEP_BACKDROPS:
            del self._backdrops[next(iter(self._backdrops))]  # the oldest

    def _told(self, backdrop: int, layout, items, item):
        """What the colours of the shapes behind a text tell without drawing them: CLEAR
        (it stands out from all of them), the one colour its box shows, or None."""
        colour, props = item.props["colour"], item.props
        key = (backdrop, id(item.element), colour.rgb(), colour.alpha, props["opacity"],
               item.text.size >= LARGE_SIZE)
        if key not in self._told_texts:
            _, held, *_ = self._layout(layout)
            behind = [other for other in items if id(other.element) in held]
            self._told_texts[key] = CLEAR if _clear_of(behind, item) else \
                _flat(behind, _box_area(item), self.size)
        return self._told_texts[key]

    def _told_lines(self, backdrop: int, layout, items, item):
        """The one colour the shapes behind a text show where its lines lie, when its
        box shows more (a number on a disc, the paper in the box's corners), or None."""
        key = (backdrop, self._lines_key(item))
        if key not in self._told_lines_at:
            _, held, *_ = self._layout(layout)
            behind = [other for other in items if id(other.element) in held]
            self._told_lines_at[key] = _flat(behind, _lines_area(item), self.size)
        return self._told_lines_at[key]

    def _measure(self, backdrop: int | None, card: Card, layout, item,
                 behind: tuple | None = None) -> None:
        """Measure a text against its backdrop, or against ``behind``, the one colour
        its box shows, when that is known without drawing (backdrop None)."""
        if id(item.element) in self._found:
            return  # warned of already
        colour = faded(item.props["colour"], item.props["opacity"])
        least = LARGE if item.text.size >= LARGE_SIZE else BODY
        if behind is None:
            if self._clear(backdrop, item, colour, least):
                return
            behind = self._behind(backdrop, item)
            if behind is None:
                return  # its lines lie wholly outside the card
        key = (behind, colour.rgb(), colour.alpha, least)
        if key not in self._measured:
            self._measured[key] = _finding(behind, colour, least)
        if self._measured[key] is not None:
            self._found.add(id(item.element))
            self.report.add("warning", card, layout, item.element, self._measured[key],
                            "darken the text or lighten what lies behind it (or the "
                            "other way round)", in_layout=True)

    def _layout(self, layout) -> tuple:
        """(the layout, id()s of the elements its backdrops hold, the fields they read,
        whether those are all the back design's or the deck's)."""
        known = self._layouts.get(id(layout))
        if known is None:  # the layout is kept with its id, so the id stays its own
            texts = [_extent(e, 0.0) for e in layout.elements if e.kind == "text"]
            held = [e for e in layout.elements if e.kind != "text" and any(
                _overlap(_extent(e, NEAR), text) for text in texts)]
            reads = sorted({name for e in held
                            for name in e.fields(layout.styles, layout.assets.icons)})
            known = self._layouts[id(layout)] = (layout, {id(e) for e in held}, reads, all(
                name == "back" or name.startswith(("back.", "deck.")) for name in reads))
        return known

    def _backdrop(self, card: Card, layout) -> int:
        _, _, reads, of_back = self._layout(layout)
        if of_back:  # the same for every card with this back: its values not read again
            design = (id(layout), card.folder, card.back.name)
            backdrop = self._designs.get(design)
            if backdrop is not None:
                return backdrop
        values = card.values()
        depends = (id(layout), card.folder, repr([values.get(name) for name in reads]))
        backdrop = self._known.setdefault(depends, len(self._known))
        if of_back:
            self._designs[design] = backdrop
        return backdrop

    def _clear(self, backdrop: int, item, colour, least: float) -> bool:
        """Whether an opaque text stands out enough from whatever part of its box lies
        behind its lines, so that they need not be found. Luminance grows with each
        channel, so the median behind the lines is no darker than the box's darkest
        channels and no lighter than its lightest; a text darker (or lighter) than both,
        by ``least`` from the nearer, is clear wherever its lines lie."""
        if colour.alpha not in (None, 1):
            return False
        key = (backdrop, id(item.element), colour.rgb(), least)
        if key not in self._clear_boxes:
            area = self._pixels(_box_area(item))
            extrema = None if area is None else self._backdrops[backdrop].crop(area).getextrema()
            self._clear_boxes[key] = extrema is not None and _stands_out(
                colour.rgb(), *([e[end] / 255 for e in extrema] for end in (0, 1)), least)
        return self._clear_boxes[key]

    def _behind(self, backdrop: int, item):
        """The colour behind a text: the median of the backdrop where its lines lie, or
        the colour of its whole box when that is one colour (most texts, on a panel: their
        lines need not be found then); None when the lines lie outside the card."""
        image = self._backdrops[backdrop]
        box = (backdrop, id(item.element))
        if box not in self._flat:
            area = self._pixels(_box_area(item))
            flat = area is not None and all(low == high for low, high
                                            in image.crop(area).getextrema())
            self._flat[box] = image.getpixel(area[:2]) if flat else None
        if self._flat[box] is not None:
            return tuple(c / 255 for c in self._flat[box])
        area = self._lines_pixels(item)
        if area is None:
            return None
        if (backdrop, area) not in self._medians:
            from PIL import ImageStat  # late: as open_pdf

            self._medians[backdrop, area] = tuple(
                c / 255 for c in ImageStat.Stat(image.crop(area)).median)
        return self._medians[backdrop, area]

    def _lines_pixels(self, item) -> tuple[int, int, int, int] | None:
        """:meth:`_pixels` of :func:`_lines_area`, kept by what places the lines in their
        box: the same few values (a card's number) are set on card after card."""
        key = self._lines_key(item)
        if key not in self._line_areas:
            self._line_areas[key] = self._pixels(_lines_area(item))
        return self._line_areas[key]

    @staticmethod
    def _lines_key(item) -> tuple:
        """What places a text's lines in its box."""
        block, props = item.text, item.props
        return (id(item.element), block.size, block.leading, block.ascent, block.descent,
                props["align"], props["valign"], tuple((line.width, line.rtl)
                                                        for line in block.lines))

    def _pixels(self, area) -> tuple[int, int, int, int] | None:
        """An area of the card (left, top, right, bottom in points) in the backdrop's
        pixels, at least one wide and high, cut to the card; None when it lies wholly
        outside."""
        left, top, right, bottom = (round(v / 72 * DPI) for v in area)
        right, bottom = max(right, left + 1), max(bottom, top + 1)
        area = (max(0, left), max(0, top), min(self.pixels[0], right),
                min(self.pixels[1], bottom))
        return area if area[0] < area[2] and area[1] < area[3] else None

    def _draw(self, renderer, card, side, items, layout, backdrop) -> None:
        """Draw the backdrop of a side (its ``items``, resolved): the elements near its
        texts, on a page of the drawing."""
        width, height = self.size.width, self.size.height
        if self._drawing is None:
            drawing = io.BytesIO()
            self._drawing = Canvas(drawing, pagesize=(width, height), pageCompression=0,
                                   initialFontName=register(DEFAULT_FONT), invariant=1), drawing
        canvas = self._drawing[0]
        _, held, *_ = self._layout(layout)
        renderer.draw(canvas, card, side, 0, 0, width, height, 0,
                      which=lambda i: id(items[i].element) in held)
        canvas.showPage()  # a page even when nothing lies near the texts
        self._pages[backdrop] = len(self._pages)


def _stands_out(text, darkest, lightest, least: float) -> bool:
    """Whether opaque ``text`` (an sRGB colour) stands out at least ``least``:1 from every
    colour whose channels lie between those of ``darkest`` and ``lightest``: luminance
    grows with each channel, so it is darker (or lighter) than all of them by that much."""
    text, low, high = luminance(text), luminance(darkest), luminance(lightest)
    nearest = low if text < low else high if text > high else None
    return nearest is not None and _ratio(text, nearest) >= least


PAINTED = ("rect", "ellipse", "polygon", "line")  # kinds drawn in their fill and stroke only


def _inks(items, box) -> tuple | None:
    """The lowest and the highest of each channel of the colours ``items`` paint with,
    and of the white paper, unless an opaque rectangle covers ``box`` (then of it and what
    is drawn over it); None when one draws a picture or an SVG icon. Whatever the backdrop
    shows in ``box`` (edges, translucent ink over other ink) mixes these colours, so its
    channels lie between the two."""
    colours = [(1.0, 1.0, 1.0)]
    for item in items:
        kind, props, element = item.element.kind, item.props, item.element
        if kind not in PAINTED and not (kind == "icon" and isinstance(props["icon"],
                                                                      BuiltinIcon)):
            return None
        fill = props.get("fill")
        if kind == "rect" and fill is not None and fill.alpha in (None, 1) and \
                props["opacity"] == 1 and not element.rotate and not props["radius"] and \
                _covers(element.box, box):
            colours = []  # it hides what lies under it
        colours += [c.rgb() for c in (fill, props.get("stroke")) if c is not None]
    return tuple(map(min, zip(*colours))), tuple(map(max, zip(*colours)))


def _covers(outer, area) -> bool:
    """Whether box ``outer`` holds ``area`` (left, top, right, bottom)."""
    return outer.x <= area[0] and outer.y <= area[1] and area[2] <= outer.x + outer.width \
        and area[3] <= outer.y + outer.height


CLEAR = "clear"  # what _told() says of a text that stands out from every colour behind it
EDGE = 72 / DPI  # how far past a shape's edge its colour blends into the backdrop's pixels


def _flat(behind, area, size: CardSize) -> tuple | None:
    """The one colour the backdrop of the items ``behind`` a text shows over ``area`` of
    it (its box, or where its lines lie: left, top, right, bottom): the paper's white, or
    the fill of an opaque rectangle or ellipse holding the area a pixel past it, within
    the card, when nothing else drawn reaches the area; else None."""
    left, top, right, bottom = area
    area = (max(0.0, left - EDGE), max(0.0, top - EDGE), min(size.width, right + EDGE),
            min(size.height, bottom + EDGE))
    if area[0] >= area[2] or area[1] >= area[3]:
        return None  # off the card
    colour, reached = (1.0, 1.0, 1.0), False
    for other in behind:
        element, props = other.element, other.props
        if _hides(element, props, area):
            colour, reached = props["fill"].rgb(), False  # it hides what lies under it
        else:  # a picture may reach past its box by a bleed; the area is a pixel wider
            reach = (props.get("stroke_width") or 0) / 2 if element.kind in PAINTED + (
                "icon",) else BLEED_ALLOWANCE
            reached = reached or _overlap(_extent(element, reach), area)
    return None if reached else colour


def _hides(element, props, area) -> bool:
    """Whether an element's opaque fill alone covers ``area``: a rectangle without a
    stroke or rounded corners holding it, or an ellipse inside whose stroke it lies (an
    upright rectangle lies inside an ellipse when its corners do)."""
    fill = props.get("fill")
    if element.kind not in ("rect", "ellipse") or fill is None or \
            fill.alpha not in (None, 1) or props["opacity"] != 1 or element.rotate:
        return False
    box = element.box
    if element.kind == "rect":
        return props["stroke"] is None and not props["radius"] and _covers(box, area)
    inset = props["stroke_width"] / 2 if props["stroke"] is not None else 0.0
    half_w, half_h = box.width / 2 - inset, box.height / 2 - inset
    if half_w <= 0 or half_h <= 0:
        return False
    cx, cy = box.x + box.width / 2, box.y + box.height / 2
    return all(((x - cx) / half_w) ** 2 + ((y - cy) / half_h) ** 2 <= 1
               for x in (area[0], area[2]) for y in (area[1], area[3]))


def _clear_of(behind, item) -> bool:
    """Whether an opaque text stands out enough from anything the items ``behind`` it
    paint (:func:`_inks`) that its backdrop need not be drawn."""
    colour = item.props["colour"]
    if item.props["opacity"] != 1 or colour.alpha not in (None, 1):
        return False
    inks = _inks(behind, _box_area(item))
    return inks is not None and _stands_out(colour.rgb(), *inks, LARGE
                                            if item.text.size >= LARGE_SIZE else BODY)


def _finding(behind, colour, least: float) -> str | None:
    """What is wrong with text of ``colour`` (a reportlab colour, its alpha over what is
    behind it) on ``behind``, or None when it stands out at least ``least``:1."""
    alpha = 1.0 if colour.alpha is None else colour.alpha
    shown = tuple(alpha * c + (1 - alpha) * b for c, b in zip(colour.rgb(), behind))
    ratio = contrast(shown, behind)
    if ratio >= least:
        return None
    return (f"its text {_hex(shown)} stands out {ratio:.2f}:1 from the {_hex(behind)} "
            f"behind it, under the {least:g}:1 text needs to be read")


def _extent(element, margin: float) -> tuple[float, float, float, float]:
    """Where an element may draw, (left, top, right, bottom) in points on the card: its
    box and a polygon's corners, turned with it, and ``margin`` around them."""
    box = element.box
    xs = [0.0, box.width] + [x for x, _ in element.points]
    ys = [0.0, box.height] + [y for _, y in element.points]
    half_w, half_h = max(abs(x - box.width / 2) for x in xs), max(abs(y - box.height / 2)
                                                                   for y in ys)
    if element.rotate in (90, 270):
        half_w, half_h = half_h, half_w
    cx, cy = box.x + box.width / 2, box.y + box.height / 2
    return cx - half_w - margin, cy - half_h - margin, cx + half_w + margin, cy + half_h + margin


def _overlap(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _box_area(item) -> tuple[float, float, float, float]:
    box = item.element.box
    return box.x, box.y, box.x + box.width, box.y + box.height


def _lines_area(item) -> tuple[float, float, float, float]:
    """Where a text's lines lie on the card, (left, top, right, bottom) in points from its
    top-left; the whole box for a text turned on its side."""
    box, block = item.element.box, item.text
    turned = item.element.rotate
    if not block.lines or turned in (90, 270):
        return _box_area(item)
    spans = [(x, baseline - block.ascent, x + line.width, baseline + block.descent)
             for (x, baseline), line in zip(line_origins(block, item.props, box.width,
                                                         box.height), block.lines)]
    left, top = min(s[0] for s in spans), min(s[1] for s in spans)
    right, bottom = max(s[2] for s in spans), max(s[3] for s in spans)
    if turned == 180:  # upside down in its box
        left, right, top, bottom = (box.width - right, box.width - left, box.height - bottom,
                                    box.height - top)
    return box.x + left, box.y + top, box.x + right, box.y + bottom


def _hex(rgb) -> str:
    return "#" + "".join(f"{round(c * 255):02x}" for c in rgb)
