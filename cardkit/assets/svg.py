"""SVG art drawn as vectors: svglib reads the file into reportlab shapes, which go into the
PDF as paths, never as pixels.

A drawing is checked once when it is loaded: it must parse and draw something. Its text
(live text from Inkscape or Illustrator) is set in the deck's font of the family the SVG
names, matched per deck by :func:`with_deck_fonts`; svglib never looks for fonts on the
system (it would run fontconfig): the families are only noted while the file is read.
"""

from __future__ import annotations

import copy
import math
from functools import lru_cache
from pathlib import Path

from typing import TYPE_CHECKING

from reportlab.lib.colors import Color

if TYPE_CHECKING:  # reportlab.graphics is imported when a deck has SVG: it is slow to load
    from reportlab.graphics.shapes import Drawing

from ..sources.files import why_unreadable
from .fonts import DEFAULT_FONT, bold, italic, lacks, register
from .svgchecks import MAX_SVG_BYTES, SvgError, noted_font

_COLOUR_KEYS = ("fillColor", "strokeColor")
_OPACITY_KEYS = ("fillOpacity", "strokeOpacity")


@lru_cache(maxsize=512)
def with_deck_fonts(drawing: Drawing, assets) -> tuple[Drawing, tuple[tuple[str, ...], ...],
                                                       tuple[tuple[str, str], ...]]:
    """``drawing`` with each text set in the deck's font (``assets``'s) of the first
    family its ``font-family`` lists that the deck has, bold and italic by the family's
    faces; the family lists the deck has no font of (an empty one: no family given),
    whose text is set in the bundled Lato; and the deck's families that have no face for
    a text's weight or slant, as (family, "**" for bold or "*" for italic), whose text is
    set in the family's face as it is."""
    return in_fonts(drawing, assets.fonts)


def in_fonts(drawing: Drawing, fonts: dict[str, str]) -> tuple[
        Drawing, tuple[tuple[str, ...], ...], tuple[tuple[str, str], ...]]:
    """:func:`with_deck_fonts` for a deck whose fonts, by the names layouts use, are
    ``fonts``."""
    from reportlab.graphics.shapes import String

    texts = [node for node in _nodes(drawing) if isinstance(node, String)]
    if not texts:
        return drawing, (), ()
    result, missing, lacking = copy.deepcopy(drawing), set(), set()
    for node in _nodes(result):
        noted = noted_font(node.fontName) if isinstance(node, String) else None
        if noted is None:
            continue
        names, is_bold, is_italic = noted
        family = next((name for name in names if name in fonts), None)
        if family is None:
            missing.add(names)
        face = fonts[family] if family is not None else DEFAULT_FONT
        lacking.update((family, markup) for markup, wanted in (("**", is_bold), ("*", is_italic))
                       if wanted and lacks(face, markup))
        face = bold(face) if is_bold else face
        node.fontName = italic(face) if is_italic else face
    return result, tuple(sorted(missing)), tuple(sorted(lacking))


def font_fallbacks(missing: tuple[tuple[str, ...], ...],
                   lacking: tuple[tuple[str, str], ...]) -> list[tuple[str, str]]:
    """What a designer is told of an SVG's texts set in a font their file does not ask
    for, from :func:`in_fonts`'s ``missing`` and ``lacking``: (what, to follow the file's
    name; fix), one for each family list and each missing face."""
    told = []
    for names in missing:
        if names:
            listed = ", ".join(f"'{name}'" for name in names)
            what = (f"has text in font family {listed}, which the deck has no font of"
                    if len(names) == 1 else f"has text in font families {listed}, none "
                    "of which the deck has a font of")
            fix = "put the family's TTF or OTF in the deck's fonts/ folder, or"
        else:
            what, fix = "has text that names no font family", "name one of the deck's " \
                "fonts' families in the SVG (font-family), or"
        told.append((f"{what}: it prints in {DEFAULT_FONT}", f"{fix} turn the text into "
                     "paths (Inkscape: Path > Object to Path)"))
    for family, emphasis in lacking:
        style = "bold" if emphasis == "**" else "italic"
        told.append((f"has {style} text in font family '{family}', which has no {style} "
                     "face: it prints in the family's face as it is",
                     f"add the family's {style} TTF to the deck's fonts/ folder"))
    return told


def load_svg(path: Path, root: Path) -> Drawing:
    """The SVG at ``path`` as a drawing; raises SvgError (or OSError) when unusable. The
    files it links (``<image href=...>``) must lie inside ``root``, the deck's reach."""
    path = Path(path)
    why = why_unreadable(path, MAX_SVG_BYTES)
    if why:
        raise SvgError(why, "use a plain SVG file of a few hundred kilobytes at most")
    with open(path, "rb") as file:
        if file.read(2) == b"\x1f\x8b":  # libxml2 would inflate it, without a bound
            raise SvgError("a compressed (gzip) SVG", "save it as plain SVG")
    return _load(path, path.stat().st_mtime_ns, Path(root))


@lru_cache(maxsize=256)
def _load(path: Path, mtime: int, root: Path) -> Drawing:
    import logging  # like svglib, imported on first use: most decks have no SVG

    from reportlab.graphics.shapes import Group

    from .svgread import read_svg

    class Refusals(logging.Handler):
        """Collects svglib's refusals of linked files outside the trusted folder."""

        def __init__(self):
            super().__init__(logging.ERROR)
            self.refused: list[str] = []

        def emit(self, record):
            if record.getMessage().startswith("Refusing"):
                self.refused.append(str(record.args[0]) if record.args else "")

    logger = logging.getLogger("svglib")  # it logs what it skips; the checks below judge
    refusals = Refusals()
    level, propagate = logger.level, logger.propagate
    logger.setLevel(logging.ERROR)
    logger.propagate = False
    logger.addHandler(refusals)
    try:
        drawing = read_svg(path, root)
    except SvgError:  # a picture or a linked SVG refused before svglib read it
        raise
    except Exception:  # lxml and svglib raise many kinds; all mean "not an SVG we can read"
        drawing = None
    finally:
        logger.removeHandler(refusals)
        logger.setLevel(level)
        logger.propagate = propagate
    if refusals.refused:
        raise SvgError(f"the SVG links {refusals.refused[0]!r}, outside the deck's folder "
                       f"{root}", "embed the image in the SVG (Inkscape: Extensions > Images "
                       "> Embed Images), or keep linked files in the deck's folder "
                       "(docs/deck-format.md, 'What a deck can read')")
    if drawing is None or not drawing.width or not drawing.height:
        raise SvgError("not a readable SVG file",
                       "save it again as plain SVG from your drawing program")
    _check(drawing)
    shapes = list(_nodes(drawing))
    if not any(not isinstance(node, Group) for node in shapes):
        raise SvgError("the SVG draws nothing", "check it is the file you meant")
    # renderPDF starts from the drawing's font; an embedded one keeps Helvetica out
    drawing.initialFontName = register(DEFAULT_FONT)
    return drawing


def _nodes(node):
    """The drawing's nodes, parents first (a loop, not recursion: nesting may be deep)."""
    for node, _ in _with_depth(node):
        yield node


def _with_depth(root):
    stack = [(root, 0)]
    while stack:
        node, depth = stack.pop()
        yield node, depth
        stack.extend((child, depth + 1) for child in reversed(getattr(node, "contents", ())))


MAX_DEPTH = 100  # groups in groups: drawing programs nest a handful
MAX_EXTENT = 1000  # times the drawing's own size: farther than any point a card could show


def _check(drawing: Drawing) -> None:
    """Refuse what would fail or run away when the drawing is drawn, so that validate
    refuses what build would: groups nested too deep, numbers too large for a PDF (points,
    transforms, stroke widths), pictures that are not PNG or JPEG or are too large. A dash
    pattern that sums to nothing is dropped, as browsers draw it: a solid line. (Pictures
    are checked before svglib reads them: :func:`.svgchecks.check_picture`.)"""
    limit = MAX_EXTENT * max(drawing.width, drawing.height)
    for node, depth in _with_depth(drawing):
        if depth > MAX_DEPTH:
            raise SvgError(f"its groups nest more than {MAX_DEPTH} deep",
                           "ungroup them in the drawing program")
        width = getattr(node, "strokeWidth", None)
        if width is not None and not 0 <= width <= limit:
            raise SvgError(f"a stroke width of {width:g} is far larger than the drawing",
                           "save the art again with sane stroke widths")
        dash = getattr(node, "strokeDashArray", None)
        if dash and (not all(math.isfinite(d) and d >= 0 for d in dash) or sum(dash) <= 0):
            node.strokeDashArray = None
    bounds = ink_bounds(drawing) or ()  # None: nothing drawn, which _load refuses
    if not all(math.isfinite(v) and abs(v) <= limit for v in bounds):
        raise SvgError("a point or transform lies far outside the drawing (numbers such as "
                       "1e300)", "save the art again from the drawing program")


def ink_bounds(drawing: Drawing) -> tuple[float, float, float, float]:
    """The box (x0, y0, x1, y1) the drawing's shapes cover, in its own units: their points
    carried through every group's transform (reportlab's ``getBounds`` turns each child's
    box instead, which grows a rotated shape's box). Curves count their control points."""
    from reportlab.graphics.shapes import Group, mmult, transformPoint

    points = []

    def visit(node, matrix):
        if isinstance(node, Group):
            matrix = mmult(matrix, node.transform)
            for child in node.contents:
                visit(child, matrix)
            return
        points.extend(transformPoint(matrix, p) for p in _outline(node))

    visit(drawing, (1, 0, 0, 1, 0, 0))
    if not points:
        return drawing.getBounds()
    xs, ys = zip(*points)
    return min(xs), min(ys), max(xs), max(ys)


def _outline(node) -> list[tuple[float, float]]:
    """Points on or around a shape's outline, in its parent's units."""
    from reportlab.graphics.shapes import Circle, Ellipse, Line, PolyLine, Polygon, Rect
    from reportlab.graphics.shapes import Path as ShapePath

    if isinstance(node, (ShapePath, Polygon, PolyLine)):
        flat = node.points
        return list(zip(flat[0::2], flat[1::2]))
    if isinstance(node, Rect):
        return [(node.x, node.y), (node.x + node.width, node.y + node.height)]
    if isinstance(node, (Circle, Ellipse)):
        rx, ry = (node.r, node.r) if isinstance(node, Circle) else (node.rx, node.ry)
        return [(node.cx + rx * math.cos(a * math.pi / 16),
                 node.cy + ry * math.sin(a * math.pi / 16)) for a in range(32)]
    if isinstance(node, Line):
        return [(node.x1, node.y1), (node.x2, node.y2)]
    x0, y0, x1, y1 = node.getBounds()
    return [(x0, y0), (x1, y1)]


def colours(drawing: Drawing) -> set[tuple]:
    """The distinct colours (r, g, b) a drawing paints with."""
    found = set()
    for node in _nodes(drawing):
        for key in _COLOUR_KEYS:
            colour = getattr(node, key, None)
            if isinstance(colour, Color):
                found.add(tuple(round(c, 4) for c in colour.rgb()))
    return found


def svg_translucent(drawing: Drawing) -> bool:
    """Whether a drawing paints with any transparency: a colour with alpha or an
    opacity under 1."""
    for node in _nodes(drawing):
        if any(getattr(getattr(node, key, None), "alpha", 1) not in (None, 1)
               for key in _COLOUR_KEYS) or \
                any((getattr(node, key, None) or 1) < 1 for key in _OPACITY_KEYS):
            return True
    return False


@lru_cache(maxsize=512)
def restyled(drawing: Drawing, colour: Color | None, opacity: float,
             ink: float = 1.0) -> Drawing:
    """A copy of ``drawing`` with every colour replaced by ``colour`` (keeping each one's
    transparency), every transparency multiplied by ``opacity``, and every colour mixed
    with white to keep ``ink`` of its ink (draft printing: each shape lighter, none seen
    through another, as fading the whole drawing would)."""
    if colour is None and opacity == 1 and ink == 1:
        return drawing
    result = copy.deepcopy(drawing)
    for node in _nodes(result):
        for key in _COLOUR_KEYS:
            old = getattr(node, key, None)
            if isinstance(old, Color):
                new = colour if colour is not None else old
                alpha = (old.alpha if old.alpha is not None else 1) * opacity
                setattr(node, key, Color(*(1 - ink * (1 - c) for c in new.rgb()), alpha))
        for key in _OPACITY_KEYS:
            if getattr(node, key, None) is not None:
                setattr(node, key, getattr(node, key) * opacity)
    return result


def draw_svg(canvas, drawing: Drawing, x: float, y: float, width: float,
             height: float, set_string=None) -> None:
    """Draw ``drawing`` stretched to the box whose lower-left corner is (x, y); with
    ``set_string(canvas, x, y, text, anchor)``, each of its filled texts is set by it (a
    card's texts are shaped: right to left, joined, kerned) rather than by reportlab."""
    from reportlab.graphics import renderPDF

    canvas.saveState()
    canvas.translate(x, y)
    canvas.scale(width / drawing.width, height / drawing.height)
    if set_string is None:
        renderPDF.draw(drawing, canvas, 0, 0, showBoundary=False)
    else:
        _texts_set_by(set_string).draw(renderPDF.renderScaledDrawing(drawing), canvas, 0, 0,
                                       showBoundary=False)
    canvas.restoreState()


# an SVG text's anchor -> where set_string's line is placed from its x
_ANCHORS = {"start": "left", "inherited": "left", "middle": "centre", "end": "right"}


def _texts_set_by(set_string):
    """reportlab's PDF renderer, its filled texts set by ``set_string``."""
    from reportlab.graphics import renderPDF

    class Renderer(renderPDF._PDFRenderer):
        def drawString(self, string):
            anchor = _ANCHORS.get(self._tracker.getState()["textAnchor"])
            if not self._fill or getattr(string, "textRenderMode", 0) or anchor is None:
                return super().drawString(string)  # outlined text, numeric anchors
            set_string(self._canvas, string.x, string.y, string.text, anchor)

    return Renderer()
