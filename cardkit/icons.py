"""Vector symbols drawn in code, so icons stay sharp at any print size.

An icon is a list of parts, each a function adding one closed outline to a reportlab path
in a unit square (0..1 on both axes, y up). Parts are filled one by one, so overlapping
parts simply unite; a part marked ``HOLLOW`` is filled even-odd, which makes rings.
:func:`draw_icon` scales an icon into a box and shades it:

- ``solid``: filled;
- ``clear``: outline only;
- ``striped``: outline plus parallel lines clipped to the shape.
"""

from __future__ import annotations

import math
from functools import lru_cache

from reportlab.pdfgen.canvas import FILL_EVEN_ODD, FILL_NON_ZERO

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


_STEM = _curves((0.47, 0.32), ((0.46, 0.18), (0.4, 0.08), (0.3, 0.02)),
                ((0.45, 0.02), (0.55, 0.02), (0.7, 0.02)),
                ((0.6, 0.08), (0.54, 0.18), (0.53, 0.32)))


def _star_part(p):
    for i in range(10):
        radius = 0.5 if i % 2 == 0 else 0.2
        angle = math.pi / 2 + i * math.pi / 5
        x, y = 0.5 + radius * math.cos(angle), 0.48 + radius * math.sin(angle)
        p.lineTo(x, y) if i else p.moveTo(x, y)
    p.close()


ICONS = {
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


INLINE_HEIGHT = 0.72  # an inline icon's ink is as tall as a capital letter, in ems
INLINE_WIDTH = 1.3  # and at most this wide
INLINE_GAP = 0.08  # space on each side of it, in ems


class _Extent:
    """Stands in for a path to measure an icon's outline (control points included)."""

    def __init__(self):
        self.xs, self.ys = [], []

    def _add(self, *coordinates):
        self.xs.extend(coordinates[0::2])
        self.ys.extend(coordinates[1::2])

    def moveTo(self, x, y):  # named as reportlab path methods are
        self._add(x, y)

    lineTo = moveTo

    def curveTo(self, *points):
        self._add(*points)

    def circle(self, cx, cy, r):
        self._add(cx - r, cy - r, cx + r, cy + r)

    def rect(self, x, y, w, h):
        self._add(x, y, x + w, y + h)

    def close(self):
        pass


@lru_cache(maxsize=None)
def ink_bounds(name: str) -> tuple[float, float, float, float]:
    """The box (x0, y0, x1, y1) in icon units that an icon's outline fills.

    >>> [round(v, 2) for v in ink_bounds('square')]
    [0.08, 0.08, 0.92, 0.92]
    """
    extent = _Extent()
    for build, _ in _parts(name):
        build(extent)
    return min(extent.xs), min(extent.ys), max(extent.xs), max(extent.ys)


def inline_placement(name: str, size: float) -> tuple[float, float, float, float]:
    """How an icon sits in a line of text of font ``size``: (advance, dx, dy, side) with
    its unit square of ``side`` points drawn at (x + dx, baseline + dy), so that its ink
    stands on the baseline, as tall as a capital letter (less if it is very wide)."""
    x0, y0, x1, y1 = ink_bounds(name)
    side = min(INLINE_HEIGHT / (y1 - y0), INLINE_WIDTH / (x1 - x0)) * size
    advance = (x1 - x0) * side + 2 * INLINE_GAP * size
    return advance, INLINE_GAP * size - x0 * side, -y0 * side, side


def _parts(name):
    """(build function, fill rule) for each part of an icon."""
    for part in ICONS[name]:
        if isinstance(part, tuple):
            yield part[1], FILL_EVEN_ODD
        else:
            yield part, FILL_NON_ZERO


def draw_icon(canvas, name: str, x: float, y: float, width: float, height: float,
              fill=None, stroke=None, stroke_width: float = 0.0,
              shading: str = "solid") -> None:
    """Draw icon ``name`` into the box whose lower-left corner is (x, y), keeping its
    proportions and centring it in the box. ``fill`` is the icon's colour; ``stroke``
    optionally outlines a solid icon."""
    side = min(width, height)
    if side <= 0:
        return
    canvas.saveState()
    canvas.translate(x + (width - side) / 2, y + (height - side) / 2)
    canvas.scale(side, side)
    for build, rule in _parts(name):
        path = canvas.beginPath()
        build(path)
        if shading == "solid":
            if fill is not None:
                canvas.setFillColor(fill)
            if stroke is not None:
                canvas.setStrokeColor(stroke)
                canvas.setLineWidth(stroke_width / side)
            canvas.drawPath(path, fill=int(fill is not None), stroke=int(stroke is not None),
                            fillMode=rule)
            continue
        colour = fill if fill is not None else stroke
        canvas.setStrokeColor(colour)
        if shading == "striped":
            canvas.saveState()
            canvas.clipPath(path, stroke=0, fill=0, fillMode=rule)
            canvas.setLineWidth(STRIPE_WIDTH)
            stripes = canvas.beginPath()
            position = STRIPE_GAP / 2
            while position < 1:
                stripes.moveTo(position, 0)
                stripes.lineTo(position, 1)
                position += STRIPE_GAP
            canvas.drawPath(stripes, stroke=1, fill=0)
            canvas.restoreState()
            path = canvas.beginPath()
            build(path)
        canvas.setLineWidth(OUTLINE)
        canvas.drawPath(path, stroke=1, fill=0)
    canvas.restoreState()
