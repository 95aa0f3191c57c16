"""Paint resolved elements onto a reportlab canvas: shapes, icons, images and set text,
turned and cut to the card as their layouts say. What to paint, and whether it is right,
is decided in :mod:`.card`.
"""

from __future__ import annotations

from collections import OrderedDict
from operator import attrgetter
from pathlib import Path
from typing import NamedTuple

from reportlab.lib import colors
from reportlab.lib.utils import ImageReader

from ..assets.svg import draw_svg, restyled, svg_translucent
from ..deck.layout import Box, Element
from ..sources.checks import faded
from ..sources.images import open_image
from .textfit import TextBlock
from .textpaint import set_line, set_text
from .textmarkup import is_plain

EDGE = 0.01  # points: how close a box edge must be to the trim to count as on it


class Resolved(NamedTuple):  # made for each element of each card: a tuple is made fastest
    """An element with its properties for one card; ``text`` is laid out already, and
    ``art`` is the picture (a :class:`Picture`) or the SVG drawing."""

    element: Element
    props: dict
    text: TextBlock | None = None
    art: object = None


def art_size(fit: str, size, width: float, height: float) -> tuple[float, float]:
    """The size an image of ``size`` (any unit) is drawn at in a box, by its ``fit``."""
    if fit == "stretch":
        return width, height
    scale = (max if fit == "cover" else min)(width / size[0], height / size[1])
    return size[0] * scale, size[1] * scale


class Picture(NamedTuple):
    """A deck's PNG or JPEG as checked when its card was resolved: the file, the version
    of it that was checked (its modification time and length), its size in pixels and
    whether it has transparent parts. Its bytes and pixels are read when it is drawn, and
    held only for a while (:class:`HeldPictures`)."""

    path: Path
    version: tuple[int, int]
    size: tuple[int, int]
    translucent: bool


def art_pixels(art) -> tuple[float, float]:
    return art.size if isinstance(art, Picture) else (art.width, art.height)


def line_origins(block: TextBlock, props, width: float, height: float):
    """Where each line of a text starts, (x, baseline) from its box's top-left, y down."""
    count = len(block.lines)
    if props["valign"] == "top":
        baseline = block.ascent
    elif props["valign"] == "bottom":
        baseline = height - block.descent - block.leading * (count - 1)
    else:
        baseline = (height - block.height) / 2 + block.ascent
    align = props["align"]
    sides = (sided(align, False), sided(align, True))  # of a line, by its direction
    for line in block.lines:
        side = sides[line.rtl]
        if side == "left":
            x = 0.0
        elif side == "right":
            x = width - line.width
        else:
            x = (width - line.width) / 2
        yield x, baseline
        baseline += block.leading


def sided(align: str, rtl: bool) -> str:
    """The side ``align`` sets a line against, for a paragraph running right to left if
    ``rtl``: 'start' is where the text's lines start (left, or right in Hebrew and Arabic),
    'end' the other side.

    >>> sided('start', True), sided('end', False), sided('left', True)
    ('right', 'right', 'left')
    """
    if align == "start":
        return "right" if rtl else "left"
    if align == "end":
        return "left" if rtl else "right"
    return align


def element_box(element: Element, x, y, width, height, bleed) -> Box:
    """The element's box on the canvas (lower-left origin), grown into the bleed where
    it touches the trim and asks for it."""
    return placed_box(box_offsets(element, width, height, bleed), x, y, height)


def box_offsets(element: Element, width, height, bleed) -> tuple[float, float, float, float]:
    """What :func:`element_box` finds the same wherever the card is drawn: the box's left
    and bottom edges from the trim's left and top, its width and its height."""
    box = element.box
    left, top = box.x, box.y
    right, bottom = box.x + box.width, box.y + box.height
    if element.bleed and bleed:
        left -= bleed if left <= EDGE else 0
        top -= bleed if top <= EDGE else 0
        right += bleed if right >= width - EDGE else 0
        bottom += bleed if bottom >= height - EDGE else 0
    return left, bottom, right - left, bottom - top


def placed_box(offsets, x, y, height) -> Box:
    """The box of :func:`box_offsets` on a card of ``height`` drawn at (x, y)."""
    left, bottom, width, box_height = offsets
    return Box(x + left, y + height - bottom, width, box_height)


OVERHANG = 0.25  # of a text's size: how far its glyphs may reach past their lines
WIDTH, RTL = attrgetter("width"), attrgetter("rtl")  # of a text's line


def inside(item: Resolved, box: Box, edges) -> bool:
    """Whether all the ink of ``item``, drawn in ``box``, surely lies within ``edges``
    (left, bottom, right, top). Judged for shapes, images and plain text that fits; lines,
    polygons, icons, text with icons and turned elements say no."""
    element, props = item.element, item.props
    kind = element.kind
    if element.rotate or kind not in ("rect", "ellipse", "text", "image"):
        return False
    left, bottom, right, top = box.x, box.y, box.x + box.width, box.y + box.height
    reach = 0.0  # an image is clipped to its box
    if kind == "text":
        block = item.text
        if not block.fits or not is_plain(props["text"]):
            return False
        # (map and attrgetter: no Python call a line, for a text on every card)
        spare = box.width - max(map(WIDTH, block.lines), default=box.width)
        sides = {sided(props["align"], rtl) for rtl in set(map(RTL, block.lines))}
        if sides == {"left"}:
            right -= spare
        elif sides == {"right"}:
            left += spare
        elif sides == {"center"}:
            left, right = left + spare / 2, right - spare / 2
        else:  # lines against both sides
            return False
        reach = OVERHANG * block.size
    elif kind != "image" and props["stroke"] is not None:
        reach = props["stroke_width"] / 2
    return left - reach >= edges[0] - 1e-6 and bottom - reach >= edges[1] - 1e-6 and \
        right + reach <= edges[2] + 1e-6 and top + reach <= edges[3] + 1e-6


def draw_item(canvas, item: Resolved, box: Box, fitted: Box | None = None) -> None:
    """Draw ``item`` in ``box``; an image is fitted to ``fitted`` (its box without the
    bleed) and shown as far as ``box`` reaches."""
    element = item.element
    rotate = element.rotate
    if rotate:
        canvas.saveState()
        cx, cy = box.x + box.width / 2, box.y + box.height / 2
        canvas.translate(cx, cy)
        canvas.rotate(-rotate)  # layouts turn clockwise, as a designer sees the card
        box, fitted = (_turned(b, cx, cy, rotate) if b is not None else None
                       for b in (box, fitted))
    if fitted is not None:
        _image(canvas, item, box, fitted)
    else:
        DRAW[element.kind](canvas, item, box)
    if rotate:
        canvas.restoreState()


def _turned(box: Box, cx: float, cy: float, rotate: int) -> Box:
    """``box`` in the frame turned ``rotate`` degrees clockwise about (cx, cy)."""
    corners = [(box.x - cx, box.y - cy), (box.x + box.width - cx, box.y + box.height - cy)]
    turn = {90: lambda x, y: (-y, x), 180: lambda x, y: (-x, -y), 270: lambda x, y: (y, -x),
            0: lambda x, y: (x, y)}[rotate]
    (x1, y1), (x2, y2) = (turn(x, y) for x, y in corners)
    return Box(min(x1, x2), min(y1, y2), abs(x2 - x1), abs(y2 - y1))


def translucent(item: Resolved) -> bool:
    """Whether drawing ``item`` needs transparency (which PDF/X-1a forbids): an opacity
    under 1, a colour with alpha (a styled span's too), a picture with an alpha channel, SVG art with either."""
    props, art = item.props, item.art
    if props.get("opacity", 1) < 1 or any(
            getattr(props.get(key), "alpha", 1) not in (None, 1)
            for key in ("fill", "stroke", "colour")):
        return True
    if item.text is not None and any(
            run.style is not None and getattr(run.style.colour, "alpha", 1) not in (None, 1)
            for line in item.text.lines for run in line.runs):  # a span's colour
        return True
    if isinstance(art, Picture):
        return art.translucent
    drawing = art if art is not None else getattr(props.get("icon"), "drawing", None)
    return drawing is not None and svg_translucent(drawing)


OVERFLOW_MARK = colors.Color(0.85, 0.05, 0.1)


def overflow_mark(canvas, box: Box) -> None:
    """A proof's mark on a text that does not fit: its box tinted and outlined in red."""
    canvas.setFillColor(OVERFLOW_MARK, alpha=0.15)
    canvas.setStrokeColor(OVERFLOW_MARK, alpha=1)
    canvas.setLineWidth(1.2)
    canvas.setDash(3, 1.5)
    canvas.rect(box.x, box.y, box.width, box.height, stroke=1, fill=1)
    canvas.setDash()


def _paint(canvas, props) -> tuple[int, int]:
    """Set fill and stroke from the properties, faded by the element's opacity; returns
    the (fill, stroke) flags."""
    fill, stroke = props.get("fill"), props.get("stroke")
    if props["opacity"] != 1:  # most shapes are opaque: their colours are drawn as they are
        fill, stroke = faded(fill, props["opacity"]), faded(stroke, props["opacity"])
    if fill is not None:
        canvas.setFillColor(fill)
    if stroke is not None:
        canvas.setStrokeColor(stroke)
        canvas.setLineWidth(props["stroke_width"])
    return int(fill is not None), int(stroke is not None)


def _rect(canvas, item, box):
    fill, stroke = _paint(canvas, item.props)
    if fill or stroke:
        radius = item.props["radius"]
        if radius:
            canvas.roundRect(box.x, box.y, box.width, box.height, radius, stroke, fill)
        else:
            canvas.rect(box.x, box.y, box.width, box.height, stroke, fill)


def _ellipse(canvas, item, box):
    fill, stroke = _paint(canvas, item.props)
    if fill or stroke:
        canvas.ellipse(box.x, box.y, box.x + box.width, box.y + box.height, stroke, fill)


def _polygon(canvas, item, box):
    fill, stroke = _paint(canvas, item.props)
    path = canvas.beginPath()
    for i, (px, py) in enumerate(item.element.points):
        point = (box.x + px, box.y + box.height - py)
        path.lineTo(*point) if i else path.moveTo(*point)
    path.close()
    canvas.drawPath(path, stroke=stroke, fill=fill)


def _line(canvas, item, box):
    _, stroke = _paint(canvas, item.props)
    if stroke:
        canvas.line(box.x, box.y + box.height, box.x + box.width, box.y)


def _icon(canvas, item, box):
    props = item.props
    props["icon"].draw(canvas, box.x, box.y, box.width, box.height, props["fill"],
                       props["stroke"], props["stroke_width"], props["shading"],
                       props["opacity"], set_line)


def _image(canvas, item, box, fitted: Box | None = None):
    """Fitted to its box (contain, cover or stretch; ``fitted``, if given, is the box to
    fit to) and placed by its anchor; the picture is cropped to ``box``."""
    props, art = item.props, item.art
    fitted = fitted or box
    width, height = art_size(props["fit"], art_pixels(art), fitted.width, fitted.height)
    ax, ay = props["anchor"]  # from the left and from the top
    x = fitted.x + (fitted.width - width) * ax
    y = fitted.y + (fitted.height - height) * (1 - ay)
    canvas.saveState()
    clip = canvas.beginPath()
    clip.rect(box.x, box.y, box.width, box.height)
    canvas.clipPath(clip, stroke=0, fill=0)
    ink = props.get("ink", 1.0)  # what draft ink keeps of a large picture's ink
    if isinstance(art, Picture):
        # a PDF's fill opacity applies to images; over white paper, a fraction of the
        # opacity is that fraction of the ink
        canvas.setFillAlpha(props["opacity"] * ink)
        canvas.drawImage(HELD.reader(art), x, y, width, height, mask="auto")
    else:
        draw_svg(canvas, restyled(art, None, props["opacity"], ink), x, y, width, height,
                 set_line)
    canvas.restoreState()


class _CheckedReader(ImageReader):
    """reportlab's reader of a picture file, opening it as a deck's image is opened: as a
    PNG or JPEG of bounded size (the file may have changed since it was checked)."""

    def _read_image(self, fp):
        return open_image(fp)


class HeldPictures:
    """Readers of the pictures drawn last, newest last, within ``budget`` bytes: each
    holds its file's bytes and, once drawn, its pixels decoded twice (reportlab's RGB
    bytes and Pillow's image), as does a CMYK canvas's converted copy, which goes with it.
    Past the budget the oldest readers are let go whole, to be read again if their
    picture is drawn again: 200 distinct 3-megapixel pictures used to keep every file's
    bytes until the PDF was written (6 GB for 5.6 MB photos)."""

    def __init__(self, budget: int):
        self.budget = budget
        self.held: OrderedDict[Picture, tuple[ImageReader, int]] = OrderedDict()
        self.used = 0  # bytes, as :meth:`cost` counts them

    @staticmethod
    def cost(picture: Picture) -> int:
        """The bytes a reader of ``picture`` holds once drawn, at most: the file, and 4
        bytes a pixel (RGBA) twice."""
        width, height = picture.size
        return picture.version[1] + 8 * width * height

    def reader(self, picture: Picture) -> ImageReader:
        if picture in self.held:
            self.held.move_to_end(picture)
            return self.held[picture][0]
        reader, cost = _CheckedReader(str(picture.path)), self.cost(picture)
        self.held[picture] = (reader, cost)
        self.used += cost
        while self.used > self.budget and len(self.held) > 1:
            _, (_, freed) = self.held.popitem(last=False)
            self.used -= freed
        return reader


HELD = HeldPictures(160_000_000)  # bytes: a few tarot-sized pictures


def texts_by_face(block: TextBlock) -> list[tuple[str, str]]:
    """Each font a text block's words are set in, with those words."""
    words = [run for line in block.lines for run in line.runs if not run.icon]
    return [(face, "".join(run.text for run in words if run.font == face))
            for face in sorted({run.font for run in words})]


def _text(canvas, item, box):
    block, props = item.text, item.props
    top = box.y + box.height
    origins = [(box.x + x, top - baseline)
               for x, baseline in line_origins(block, props, box.width, box.height)]
    set_text(canvas, block, origins, props["colour"], props["opacity"],
             props["icon_colours"])




DRAW = {"rect": _rect, "ellipse": _ellipse, "polygon": _polygon, "line": _line,
        "text": _text, "icon": _icon, "image": _image}
