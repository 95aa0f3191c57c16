"""Icons: vector symbols drawn in code, and a deck's own SVG icons from its ``icons/``
folder. Both stay sharp at any print size and can stand inline in text (``{crow}``).

A built-in icon is a list of parts in a unit square (0..1 on both axes, y up), each a
function adding closed outlines to a path; a part marked ``HOLLOW`` is a ring (its second
outline is a hole). The parts are recorded once and turned so that outlines run
counter-clockwise and holes clockwise: filled as one path with the non-zero rule, the
parts unite, also when the icon is translucent. A built-in icon is shaded:

- ``solid``: filled;
- ``clear``: outline only;
- ``striped``: outline plus parallel lines clipped to the shape.

An SVG icon keeps its own colours, unless it has a single colour: then it takes the
element's ``fill`` (inline, the text's colour), as the built-in icons do.
"""

from __future__ import annotations

import math
from functools import cached_property
from pathlib import Path

from reportlab.pdfgen.canvas import FILL_NON_ZERO

from ..common.errors import Problem, Problems, Where
from ..sources.checks import faded
from ..sources.files import REACH_FIX, deck_root, why_outside
from .svg import (SvgError, colours, draw_svg, font_fallbacks, in_fonts, ink_bounds,
                  load_svg, restyled)

SHADINGS = ("solid", "striped", "clear")
OUTLINE = 0.06  # outline width for clear and striped shapes, in icon units
STRIPE_GAP, STRIPE_WIDTH = 0.09, 0.03
HOLLOW = "hollow"


def _poly(*points):
    def part(p):
        p.moveTo(*points[0])
        for point in points[1:]:
            p.lineTo(*point)
        p.close()
    return part


def _circle(cx, cy, r):
    return lambda p: p.circle(cx, cy, r)


def _rect(x, y, w, h):
    return lambda p: p.rect(x, y, w, h)


def _curves(start, *segments):
    """A closed outline: a start point, then (c1, c2, end) bezier segments."""
    def part(p):
        p.moveTo(*start)
        for c1, c2, end in segments:
            p.curveTo(*c1, *c2, *end)
        p.close()
    return part


def _ring(cx, cy, outer, inner):
    def part(p):
        p.circle(cx, cy, outer)
        p.circle(cx, cy, inner)
    return part


# the stem reaches up into the leaves, so no gap shows between them at any size
_STEM = _curves((0.47, 0.42), ((0.46, 0.18), (0.4, 0.08), (0.3, 0.02)),
                ((0.45, 0.02), (0.55, 0.02), (0.7, 0.02)),
                ((0.6, 0.08), (0.54, 0.18), (0.53, 0.42)))


def _star_part(p):
    for i in range(10):
        radius = 0.5 if i % 2 == 0 else 0.2
        angle = math.pi / 2 + i * math.pi / 5
        x, y = 0.5 + radius * math.cos(angle), 0.48 + radius * math.sin(angle)
        p.lineTo(x, y) if i else p.moveTo(x, y)
    p.close()


PARTS = {
    # French suits
    "heart": [_curves((0.5, 0.05), ((0.35, 0.25), (0.02, 0.42), (0.02, 0.68)),
                      ((0.02, 0.88), (0.18, 0.97), (0.3, 0.97)),
                      ((0.42, 0.97), (0.48, 0.88), (0.5, 0.8)),
                      ((0.52, 0.88), (0.58, 0.97), (0.7, 0.97)),
                      ((0.82, 0.97), (0.98, 0.88), (0.98, 0.68)),
                      ((0.98, 0.42), (0.65, 0.25), (0.5, 0.05)))],
    "diamond": [_curves((0.5, 0.0), ((0.62, 0.2), (0.75, 0.36), (0.88, 0.5)),
                        ((0.75, 0.64), (0.62, 0.8), (0.5, 1.0)),
                        ((0.38, 0.8), (0.25, 0.64), (0.12, 0.5)),
                        ((0.25, 0.36), (0.38, 0.2), (0.5, 0.0)))],
    "spade": [_curves((0.5, 0.98), ((0.38, 0.8), (0.04, 0.62), (0.04, 0.4)),
                      ((0.04, 0.24), (0.18, 0.16), (0.3, 0.16)),
                      ((0.4, 0.16), (0.46, 0.22), (0.5, 0.3)),
                      ((0.54, 0.22), (0.6, 0.16), (0.7, 0.16)),
                      ((0.82, 0.16), (0.96, 0.24), (0.96, 0.4)),
                      ((0.96, 0.62), (0.62, 0.8), (0.5, 0.98))), _STEM],
    "club": [_circle(0.5, 0.73, 0.22), _circle(0.26, 0.43, 0.22), _circle(0.74, 0.43, 0.22),
             _circle(0.5, 0.5, 0.12), _STEM],
    # Bluff the Bullet's suits
    "crow": [_circle(0.27, 0.7, 0.13),  # head
             _poly((0.17, 0.75), (0.0, 0.66), (0.18, 0.63)),  # beak
             _curves((0.2, 0.68), ((0.2, 0.45), (0.35, 0.27), (0.55, 0.26)),  # body
                     ((0.72, 0.25), (0.82, 0.32), (0.88, 0.37)),
                     ((0.7, 0.52), (0.5, 0.74), (0.3, 0.82))),
             _poly((0.78, 0.39), (1.0, 0.24), (0.98, 0.15), (0.74, 0.29)),  # tail
             _rect(0.4, 0.06, 0.035, 0.24), _rect(0.5, 0.06, 0.035, 0.24)],  # legs
    "cup": [_curves((0.14, 0.92), ((0.4, 0.92), (0.6, 0.92), (0.86, 0.92)),  # bowl
                    ((0.86, 0.56), (0.66, 0.44), (0.5, 0.44)),
                    ((0.34, 0.44), (0.14, 0.56), (0.14, 0.92))),
            _rect(0.45, 0.14, 0.1, 0.32),  # stem
            _curves((0.24, 0.06), ((0.24, 0.16), (0.76, 0.16), (0.76, 0.06)),  # foot
                    ((0.6, 0.06), (0.4, 0.06), (0.24, 0.06)))],
    "key": [(HOLLOW, _ring(0.24, 0.5, 0.2, 0.09)),  # bow
            _rect(0.42, 0.455, 0.54, 0.09),  # shaft
            _rect(0.76, 0.3, 0.07, 0.16), _rect(0.88, 0.34, 0.07, 0.12)],  # bit
    "bullet": [_curves((0.34, 0.58), ((0.34, 0.8), (0.44, 0.92), (0.5, 0.97)),  # tip
                       ((0.56, 0.92), (0.66, 0.8), (0.66, 0.58)),
                       ((0.55, 0.58), (0.45, 0.58), (0.34, 0.58))),
               _rect(0.34, 0.1, 0.32, 0.45),  # casing
               _rect(0.3, 0.03, 0.4, 0.06)],  # rim
    # The shape cards' shapes, and plain symbols
    "circle": [_circle(0.5, 0.5, 0.46)],
    "square": [_rect(0.08, 0.08, 0.84, 0.84)],
    "triangle": [_poly((0.5, 0.95), (0.97, 0.08), (0.03, 0.08))],
    "star": [_star_part],
    # Arrows
    "arrow-left": [_poly((0.95, 0.42), (0.4, 0.42), (0.4, 0.25), (0.05, 0.5), (0.4, 0.75),
                         (0.4, 0.58), (0.95, 0.58))],
    "arrow-right": [_poly((0.05, 0.42), (0.6, 0.42), (0.6, 0.25), (0.95, 0.5), (0.6, 0.75),
                          (0.6, 0.58), (0.05, 0.58))],
}


class _Recorder:
    """Stands in for a reportlab path and records its outlines as segment lists, so they
    can be measured, turned and replayed."""

    KAPPA = 0.5523  # control-point distance of a quarter circle as a cubic Bezier

    def __init__(self):
        self.outlines = []  # each: [start point, then ("L", p) or ("C", c1, c2, p) ...]

    def moveTo(self, x, y):  # named as reportlab path methods are
        self.outlines.append([(x, y)])

    def lineTo(self, x, y):
        self.outlines[-1].append(("L", (x, y)))

    def curveTo(self, x1, y1, x2, y2, x3, y3):
        self.outlines[-1].append(("C", (x1, y1), (x2, y2), (x3, y3)))

    def rect(self, x, y, w, h):
        self.moveTo(x, y)
        for point in ((x + w, y), (x + w, y + h), (x, y + h)):
            self.lineTo(*point)

    def circle(self, cx, cy, r):
        k = self.KAPPA * r
        self.moveTo(cx + r, cy)
        self.curveTo(cx + r, cy + k, cx + k, cy + r, cx, cy + r)
        self.curveTo(cx - k, cy + r, cx - r, cy + k, cx - r, cy)
        self.curveTo(cx - r, cy - k, cx - k, cy - r, cx, cy - r)
        self.curveTo(cx + k, cy - r, cx + r, cy - k, cx + r, cy)

    def close(self):
        pass


def _points(outline):
    yield outline[0]
    for segment in outline[1:]:
        yield from segment[1:]


def _turning(outline) -> float:
    """Twice the signed area of the outline's control polygon: > 0 counter-clockwise."""
    points = list(_points(outline))
    return sum(x1 * y2 - x2 * y1 for (x1, y1), (x2, y2) in zip(points, points[1:] + points[:1]))


def _reversed(outline):
    """The same outline, run the other way."""
    ends = [outline[0]] + [segment[-1] for segment in outline[1:]]
    result = [ends[-1]]
    for i in range(len(outline) - 1, 0, -1):
        segment = outline[i]
        if segment[0] == "L":
            result.append(("L", ends[i - 1]))
        else:
            result.append(("C", segment[2], segment[1], ends[i - 1]))
    return result


def _outlines(parts) -> tuple:
    """Every outline of an icon's parts, outer ones counter-clockwise, holes clockwise."""
    result = []
    for part in parts:
        hollow = isinstance(part, tuple)
        recorder = _Recorder()
        (part[1] if hollow else part)(recorder)
        for index, outline in enumerate(recorder.outlines):
            clockwise = hollow and index > 0
            if (_turning(outline) < 0) != clockwise:
                outline = _reversed(outline)
            result.append(outline)
    return tuple(result)


class Icon:
    """An icon in a unit square (y up): its ink's bounds, and how to draw it in a box."""

    name: str
    single_colour = True  # takes the element's fill or the text's colour

    def bounds(self) -> tuple[float, float, float, float]:
        raise NotImplementedError

    def draw(self, canvas, x: float, y: float, width: float, height: float, fill=None,
             stroke=None, stroke_width: float = 0.0, shading: str = "solid",
             opacity: float = 1.0, set_string=None) -> None:
        """Draw the icon centred in the box whose lower-left corner is (x, y), keeping its
        proportions. ``fill`` is its colour; ``stroke`` optionally outlines it. An SVG
        icon's texts are set by ``set_string``, as :func:`.svg.draw_svg` sets them."""
        raise NotImplementedError


class BuiltinIcon(Icon):
    def __init__(self, name: str, parts):
        self.name = name
        self.parts = parts

    @cached_property
    def outlines(self) -> tuple:
        return _outlines(self.parts)

    def bounds(self):
        """The box (x0, y0, x1, y1) in icon units that the outline fills (control points
        included).

        >>> [round(v, 2) for v in ICONS['square'].bounds()]
        [0.08, 0.08, 0.92, 0.92]
        """
        xs, ys = zip(*(p for outline in self.outlines for p in _points(outline)))
        return min(xs), min(ys), max(xs), max(ys)

    def _path(self, canvas):
        path = canvas.beginPath()
        for outline in self.outlines:
            path.moveTo(*outline[0])
            for segment in outline[1:]:
                if segment[0] == "L":
                    path.lineTo(*segment[1])
                else:
                    path.curveTo(*segment[1], *segment[2], *segment[3])
            path.close()
        return path

    def draw(self, canvas, x, y, width, height, fill=None, stroke=None, stroke_width=0.0,
             shading="solid", opacity=1.0, set_string=None):
        side = min(width, height)
        if side <= 0:
            return
        fill, stroke = faded(fill, opacity), faded(stroke, opacity)
        canvas.saveState()
        canvas.translate(x + (width - side) / 2, y + (height - side) / 2)
        canvas.scale(side, side)
        path = self._path(canvas)
        if shading == "solid":
            if fill is not None:
                canvas.setFillColor(fill)
            if stroke is not None:
                canvas.setStrokeColor(stroke)
                canvas.setLineWidth(stroke_width / side)
            canvas.drawPath(path, fill=int(fill is not None), stroke=int(stroke is not None),
                            fillMode=FILL_NON_ZERO)
            canvas.restoreState()
            return
        canvas.setStrokeColor(fill if fill is not None else stroke)
        if shading == "striped":
            canvas.saveState()
            canvas.clipPath(path, stroke=0, fill=0, fillMode=FILL_NON_ZERO)
            canvas.setLineWidth(STRIPE_WIDTH)
            stripes = canvas.beginPath()
            position = STRIPE_GAP / 2
            while position < 1:
                stripes.moveTo(position, 0)
                stripes.lineTo(position, 1)
                position += STRIPE_GAP
            canvas.drawPath(stripes, stroke=1, fill=0)
            canvas.restoreState()
        canvas.setLineWidth(OUTLINE)
        canvas.drawPath(self._path(canvas), stroke=1, fill=0)
        canvas.restoreState()


class SvgIcon(Icon):
    """An icon from an SVG file, drawn as vectors. Its unit square is the SVG's own
    canvas, scaled to a side of 1 and centred. Its texts are in the deck's ``fonts`` of
    their families, as an SVG picture's are; ``fallbacks`` says (what, fix) of those set
    in another font (:func:`.svg.font_fallbacks`)."""

    def __init__(self, name: str, path: Path, root: Path, fonts: dict[str, str]):
        self.name = name
        # load_svg raises SvgError
        self.drawing, missing, lacking = in_fonts(load_svg(path, root), fonts)
        self.fallbacks = font_fallbacks(missing, lacking)
        self.single_colour = len(colours(self.drawing)) <= 1
        x0, y0, x1, y1 = self.bounds()  # an icon is placed in text by its ink
        if not (max(x1 - x0, y1 - y0) > 0 and math.isfinite(x1 - x0 + y1 - y0)):
            raise SvgError("the icon draws nothing: its shapes have no width or height",
                           "draw its shapes inside the SVG's viewBox")

    @cached_property
    def _square(self) -> tuple[float, float, float]:
        """Where the drawing sits in the unit square: (left, bottom, scale)."""
        width, height = self.drawing.width, self.drawing.height
        scale = 1 / max(width, height)
        return (1 - width * scale) / 2, (1 - height * scale) / 2, scale

    def bounds(self):
        left, bottom, scale = self._square
        x0, y0, x1, y1 = ink_bounds(self.drawing)
        return left + x0 * scale, bottom + y0 * scale, left + x1 * scale, bottom + y1 * scale

    def draw(self, canvas, x, y, width, height, fill=None, stroke=None, stroke_width=0.0,
             shading="solid", opacity=1.0, set_string=None):
        side = min(width, height)
        if side <= 0:
            return
        left, bottom, scale = self._square
        drawing = restyled(self.drawing, fill if self.single_colour else None, opacity)
        draw_svg(canvas, drawing, x + (width - side) / 2 + left * side,
                 y + (height - side) / 2 + bottom * side, self.drawing.width * scale * side,
                 self.drawing.height * scale * side, set_string)


ICONS: dict[str, Icon] = {name: BuiltinIcon(name, parts) for name, parts in PARTS.items()}


def deck_icons(folders, problems: Problems, fonts: dict[str, str],
               warnings: list[Problem]) -> dict[str, Icon]:
    """The built-in icons and the SVG files in the ``icons/`` folders of a deck (and of
    the decks it extends, the deck's own first), each named by its file name, their
    texts in the deck's ``fonts``. An icon whose text prints in a font its file does not
    ask for is added to ``warnings``, once for each family it asks for: the build prints
    it wherever the icon is used."""
    icons = dict(ICONS)
    own = {}
    for folder in folders:
        icons_dir = Path(folder) / "icons"
        if not icons_dir.is_dir():
            continue
        for path in sorted(icons_dir.glob("*.svg")):
            name = path.stem
            if name in own:
                continue  # the deck's own icon overrides the one of a deck it extends
            outside = why_outside(path, folder)
            if outside:
                problems.add(Where(path), f"the icon file is {outside}", REACH_FIX)
                continue
            try:
                own[name] = SvgIcon(name, path, deck_root(folder), fonts)
                warnings.extend(Problem(Where(path), f"icon '{name}' {what}", fix)
                                for what, fix in own[name].fallbacks)
            except SvgError as exc:
                problems.add(Where(path), exc.what, exc.fix)
            except OSError as exc:
                problems.add(Where(path), f"cannot read the file ({exc.strerror})",
                             "check its permissions")
    return {**icons, **own}


INLINE_HEIGHT = 0.72  # an inline icon's ink is as tall as a capital letter, in ems
INLINE_WIDTH = 1.3  # and at most this wide
INLINE_GAP = 0.08  # space on each side of it, in ems


def inline_placement(icon: Icon, size: float) -> tuple[float, float, float, float]:
    """How an icon sits in a line of text of font ``size``: (advance, dx, dy, side) with
    its unit square of ``side`` points drawn at (x + dx, baseline + dy), so that its ink
    stands on the baseline, as tall as a capital letter (less if it is very wide)."""
    x0, y0, x1, y1 = icon.bounds()
    # an icon that is a flat line (a dash) is bounded by its length alone
    side = min(INLINE_HEIGHT / (y1 - y0) if y1 > y0 else math.inf,
               INLINE_WIDTH / (x1 - x0) if x1 > x0 else math.inf) * size
    advance = (x1 - x0) * side + 2 * INLINE_GAP * size
    return advance, INLINE_GAP * size - x0 * side, -y0 * side, side
