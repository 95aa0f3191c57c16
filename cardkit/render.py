"""Draw one card, front or back, onto any reportlab canvas at any position.

This is the only module that turns layouts into drawing operations. It knows nothing of
sheets: the imposition code tells it where each card goes, so the same call serves PnP
sheets, gutterfold sheets and, later, one-card pages and per-card images.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from reportlab.lib.utils import ImageReader

from .errors import Problem, Problems
from .fonts import missing_chars
from .icons import draw_icon, inline_placement
from .layout import BadValue, Box, Element, Layout
from .model import Card
from .textfit import TextBlock, fit_text

FRONT, BACK = "front", "back"
EDGE = 0.01  # points: how close a box edge must be to the trim to count as on it


class Report:
    """What drawing found: problems (bad values, missing images) stop a build; warnings
    (text that does not fit, missing glyphs) stop it only with --strict. The same finding
    on many cards is reported once, at the first card, with a count of the others."""

    def __init__(self) -> None:
        self._found: dict = {}  # (severity, element position, what) -> (Problem, card numbers)

    def add(self, severity: str, card: Card, layout: Layout, element: Element, what: str,
            fix: str) -> None:
        key = (severity, element.where, what)
        if key not in self._found:
            self._found[key] = (Problem(card.where, f"{card.label()}, layout '{layout.name}', "
                                        f"element '{element.name}': {what}", fix), {card.number})
        self._found[key][1].add(card.number)

    def _list(self, severity: str) -> list[Problem]:
        found = []
        for (kind, _, _), (problem, cards) in self._found.items():
            if kind == severity:
                others = len(cards) - 1
                more = f" (and {others} more card{'s' * (others != 1)})" if others else ""
                found.append(Problem(problem.where, problem.what + more, problem.fix))
        return found

    @property
    def problems(self) -> Problems:
        problems = Problems()
        problems.items = self._list("problem")
        return problems

    @property
    def warnings(self) -> list[Problem]:
        return self._list("warning")


@dataclass(frozen=True)
class Resolved:
    """An element with its properties for one card; ``text`` is laid out already."""

    element: Element
    props: dict
    text: TextBlock | None = None
    image: object = None  # an ImageReader


class CardRenderer:
    """Draws cards; resolves each distinct card's elements once, however many copies."""

    def __init__(self, report: Report):
        self.report = report
        self._resolved: dict = {}
        self._images: dict = {}

    def draw(self, canvas, card: Card, side: str, x: float, y: float, width: float,
             height: float, bleed: float = 0.0) -> None:
        """Draw ``card``'s ``side`` with its trim's lower-left corner at (x, y)."""
        canvas.saveState()
        path = canvas.beginPath()
        path.rect(x - bleed, y - bleed, width + 2 * bleed, height + 2 * bleed)
        canvas.clipPath(path, stroke=0, fill=0)
        for item in self.resolve(card, side):
            box = _placed(item.element, x, y, width, height, bleed)
            _draw(canvas, item, box)
        canvas.restoreState()

    def resolve(self, card: Card, side: str) -> list[Resolved]:
        key = (card.number, side)
        if key not in self._resolved:
            self._resolved[key] = self._resolve(card, side)
        return self._resolved[key]

    def _resolve(self, card: Card, side: str) -> list[Resolved]:
        layout = card.front if side == FRONT else card.back.layout
        values = card.values()
        items = []
        for element in layout.elements:
            try:
                props = element.resolve(values, layout.styles)
            except BadValue as exc:
                self._problem(card, layout, element, exc.what, exc.fix)
                continue
            if not props["show"]:
                continue
            if element.kind == "text":
                items.append(Resolved(element, props, self._text(card, layout, element, props)))
            elif element.kind == "image":
                image = self._image(card, layout, element, props["image"])
                if image is not None:
                    items.append(Resolved(element, props, image=image))
            else:
                items.append(Resolved(element, props))
        return items

    def _text(self, card, layout, element: Element, props) -> TextBlock:
        width, height = element.box.width, element.box.height
        if element.rotate in (90, 270):
            width, height = height, width
        block = fit_text(props["text"], props["font"], width, height, props["size"],
                         props["min_size"], props["leading"])
        if not block.fits:
            self._warn(card, layout, element, f"text does not fit its box even at {block.size:g}pt",
                       "shorten the text, enlarge the box or lower 'min_size'")
        words = [run for line in block.lines for run in line.runs if not run.icon]
        for face in sorted({run.font for run in words}):
            text = "".join(run.text for run in words if run.font == face)
            missing = missing_chars(face, text)
            if missing:
                self._warn(card, layout, element, f"font {face} has no glyph for {missing!r}",
                           "use other characters, or an icon element")
        return block

    def _image(self, card, layout, element: Element, name: str):
        # Relative to the deck file that wrote the card (a deck may extend another).
        path = (Path(card.where.file).parent / name).resolve()
        if path not in self._images:
            try:
                self._images[path] = ImageReader(str(path))
            except Exception as exc:  # Pillow raises many kinds; all mean "not an image"
                reason = "file not found" if not path.exists() else f"not an image ({exc})"
                self._problem(card, layout, element, f"image '{name}': {reason}",
                              f"put a PNG or JPG at {path}")
                self._images[path] = None
        return self._images[path]

    def _problem(self, card, layout, element, what, fix):
        self.report.add("problem", card, layout, element, what, fix)

    def _warn(self, card, layout, element, what, fix):
        self.report.add("warning", card, layout, element, what, fix)


def _placed(element: Element, x, y, width, height, bleed) -> Box:
    """The element's box on the canvas (lower-left origin), grown into the bleed where
    it touches the trim and asks for it."""
    box = element.box
    left, top = box.x, box.y
    right, bottom = box.x + box.width, box.y + box.height
    if element.bleed and bleed:
        left -= bleed if left <= EDGE else 0
        top -= bleed if top <= EDGE else 0
        right += bleed if right >= width - EDGE else 0
        bottom += bleed if bottom >= height - EDGE else 0
    return Box(x + left, y + height - bottom, right - left, bottom - top)


def _draw(canvas, item: Resolved, box: Box) -> None:
    element = item.element
    rotate = element.rotate
    if rotate:
        canvas.saveState()
        canvas.translate(box.x + box.width / 2, box.y + box.height / 2)
        canvas.rotate(-rotate)  # layouts turn clockwise, as a designer sees the card
        w, h = (box.height, box.width) if rotate in (90, 270) else (box.width, box.height)
        box = Box(-w / 2, -h / 2, w, h)
    DRAW[element.kind](canvas, item, box)
    if rotate:
        canvas.restoreState()


def _paint(canvas, props) -> tuple[int, int]:
    """Set fill and stroke from the properties; returns the (fill, stroke) flags."""
    fill, stroke = props.get("fill"), props.get("stroke")
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
    draw_icon(canvas, props["icon"], box.x, box.y, box.width, box.height,
              props["fill"], props["stroke"], props["stroke_width"], props["shading"])


def _image(canvas, item, box):
    fit = item.props["fit"]
    if fit == "cover":
        iw, ih = item.image.getSize()
        scale = max(box.width / iw, box.height / ih)
        w, h = iw * scale, ih * scale
        canvas.saveState()
        clip = canvas.beginPath()
        clip.rect(box.x, box.y, box.width, box.height)
        canvas.clipPath(clip, stroke=0, fill=0)
        canvas.drawImage(item.image, box.x + (box.width - w) / 2, box.y + (box.height - h) / 2,
                         w, h, mask="auto")
        canvas.restoreState()
    else:
        canvas.drawImage(item.image, box.x, box.y, box.width, box.height, mask="auto",
                         preserveAspectRatio=fit == "contain", anchor="c")


def _text(canvas, item, box):
    block, props = item.text, item.props
    canvas.setFillColor(props["colour"])
    valign = props["valign"]
    if valign == "top":
        baseline = box.y + box.height - block.ascent
    elif valign == "bottom":
        baseline = box.y + block.descent + block.leading * (len(block.lines) - 1)
    else:
        baseline = box.y + (box.height + block.height) / 2 - block.ascent
    text = canvas.beginText()
    font, icons = None, []
    for line in block.lines:
        if props["align"] == "left":
            x = box.x
        elif props["align"] == "right":
            x = box.x + box.width - line.width
        else:
            x = box.x + (box.width - line.width) / 2
        text.setTextOrigin(x, baseline)
        follows = True  # the text cursor is where this run starts
        for run, offset in zip(line.runs, line.offsets):
            if run.icon:
                icons.append((run.text, x + offset, baseline))
                follows = False
                continue
            if run.font != font:
                font = run.font
                text.setFont(font, block.size)
            if follows:
                text.textOut(" " + run.text if run.space_before else run.text)
            else:
                text.setTextOrigin(x + offset, baseline)
                text.textOut(run.text)
                follows = True
        baseline -= block.leading
    canvas.drawText(text)
    for name, x, y in icons:  # in the text's colour
        _, dx, dy, side = inline_placement(name, block.size)
        draw_icon(canvas, name, x + dx, y + dy, side, side, props["colour"])


DRAW = {"rect": _rect, "ellipse": _ellipse, "polygon": _polygon, "line": _line,
        "text": _text, "icon": _icon, "image": _image}
