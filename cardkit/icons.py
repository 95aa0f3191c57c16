"""Vector symbols drawn in code, so icons stay sharp at any print size.

Each icon is a function that adds its outline to a reportlab path in a unit square
(0..1 on both axes, y up); :func:`draw_icon` scales it into a box.
"""

from __future__ import annotations

import math


def _heart(p):
    p.moveTo(0.5, 0.05)
    p.curveTo(0.35, 0.25, 0.02, 0.42, 0.02, 0.68)
    p.curveTo(0.02, 0.88, 0.18, 0.97, 0.3, 0.97)
    p.curveTo(0.42, 0.97, 0.48, 0.88, 0.5, 0.8)
    p.curveTo(0.52, 0.88, 0.58, 0.97, 0.7, 0.97)
    p.curveTo(0.82, 0.97, 0.98, 0.88, 0.98, 0.68)
    p.curveTo(0.98, 0.42, 0.65, 0.25, 0.5, 0.05)
    p.close()


def _diamond(p):
    p.moveTo(0.5, 0.0)
    p.curveTo(0.62, 0.2, 0.75, 0.36, 0.88, 0.5)
    p.curveTo(0.75, 0.64, 0.62, 0.8, 0.5, 1.0)
    p.curveTo(0.38, 0.8, 0.25, 0.64, 0.12, 0.5)
    p.curveTo(0.25, 0.36, 0.38, 0.2, 0.5, 0.0)
    p.close()


def _stem(p):
    p.moveTo(0.47, 0.32)
    p.curveTo(0.46, 0.18, 0.4, 0.08, 0.3, 0.02)
    p.lineTo(0.7, 0.02)
    p.curveTo(0.6, 0.08, 0.54, 0.18, 0.53, 0.32)
    p.close()


def _spade(p):
    p.moveTo(0.5, 0.98)
    p.curveTo(0.38, 0.8, 0.04, 0.62, 0.04, 0.4)
    p.curveTo(0.04, 0.24, 0.18, 0.16, 0.3, 0.16)
    p.curveTo(0.4, 0.16, 0.46, 0.22, 0.5, 0.3)
    p.curveTo(0.54, 0.22, 0.6, 0.16, 0.7, 0.16)
    p.curveTo(0.82, 0.16, 0.96, 0.24, 0.96, 0.4)
    p.curveTo(0.96, 0.62, 0.62, 0.8, 0.5, 0.98)
    p.close()
    _stem(p)


def _club(p):
    for cx, cy in ((0.5, 0.73), (0.26, 0.43), (0.74, 0.43)):
        p.circle(cx, cy, 0.22)
    p.moveTo(0.5, 0.5)
    p.circle(0.5, 0.5, 0.1)
    _stem(p)


def _circle(p):
    p.circle(0.5, 0.5, 0.48)


def _square(p):
    p.rect(0.06, 0.06, 0.88, 0.88)


def _triangle(p):
    p.moveTo(0.5, 0.95)
    p.lineTo(0.97, 0.08)
    p.lineTo(0.03, 0.08)
    p.close()


def _star(p):
    for i in range(10):
        radius = 0.5 if i % 2 == 0 else 0.2
        angle = math.pi / 2 + i * math.pi / 5
        x, y = 0.5 + radius * math.cos(angle), 0.48 + radius * math.sin(angle)
        p.lineTo(x, y) if i else p.moveTo(x, y)
    p.close()


ICONS = {
    "heart": _heart, "diamond": _diamond, "spade": _spade, "club": _club,
    "circle": _circle, "square": _square, "triangle": _triangle, "star": _star,
}


def draw_icon(canvas, name: str, x: float, y: float, width: float, height: float,
              fill=None, stroke=None, stroke_width: float = 0.0) -> None:
    """Draw icon ``name`` into the box whose lower-left corner is (x, y), keeping its
    proportions and centring it in the box."""
    side = min(width, height)
    canvas.saveState()
    canvas.translate(x + (width - side) / 2, y + (height - side) / 2)
    canvas.scale(side, side)
    path = canvas.beginPath()
    ICONS[name](path)
    if fill is not None:
        canvas.setFillColor(fill)
    if stroke is not None:
        canvas.setStrokeColor(stroke)
        canvas.setLineWidth(stroke_width / side if side else 0)
    canvas.drawPath(path, fill=int(fill is not None), stroke=int(stroke is not None))
    canvas.restoreState()
