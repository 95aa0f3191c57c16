"""Read geometry and colour back out of a built PDF with PDFium, a parser independent of
reportlab, so tests measure what a printer would get."""

from __future__ import annotations

import ctypes
from dataclasses import dataclass

import pypdfium2 as pdfium
import pypdfium2.raw as raw

MM = 72 / 25.4


@dataclass(frozen=True)
class Shape:
    left: float  # millimetres from the page's lower-left corner
    bottom: float
    right: float
    top: float
    fill: tuple | None  # (r, g, b) 0-255 when filled
    stroked: bool
    stroke: tuple | None = None  # (r, g, b) 0-255 when stroked

    @property
    def centre(self):
        """The middle of the bounds: for a stroked line, where the line really is (the
        bounds grow by half the line width on each side)."""
        return ((self.left + self.right) / 2, (self.bottom + self.top) / 2)

    @property
    def width(self):
        return self.right - self.left

    @property
    def height(self):
        return self.top - self.bottom


def page_sizes(path) -> list[tuple[float, float]]:
    """(width, height) of every page, in millimetres."""
    doc = pdfium.PdfDocument(str(path))
    try:
        return [(w / MM, h / MM) for w, h in (doc.get_page_size(i) for i in range(len(doc)))]
    finally:
        doc.close()


def shapes(path, page_index: int) -> list[Shape]:
    """Every path object on a page with its bounds (mm), fill colour and stroke flag."""
    doc = pdfium.PdfDocument(str(path))
    try:
        page = doc[page_index]
        found = []
        for obj in page.get_objects(max_depth=8):
            if obj.type != raw.FPDF_PAGEOBJ_PATH:
                continue
            mode, stroke = ctypes.c_int(), ctypes.c_int()
            raw.FPDFPath_GetDrawMode(obj.raw, ctypes.byref(mode), ctypes.byref(stroke))
            fill = _colour(raw.FPDFPageObj_GetFillColor, obj) if mode.value else None
            line = _colour(raw.FPDFPageObj_GetStrokeColor, obj) if stroke.value else None
            left, bottom, right, top = obj.get_bounds()
            found.append(Shape(left / MM, bottom / MM, right / MM, top / MM, fill,
                               bool(stroke.value), line))
        return found
    finally:
        doc.close()


def _colour(getter, obj) -> tuple:
    r, g, b, a = (ctypes.c_uint() for _ in range(4))
    getter(obj.raw, r, g, b, a)
    return (r.value, g.value, b.value)


@dataclass(frozen=True)
class Char:
    text: str
    left: float  # millimetres from the page's lower-left corner
    bottom: float
    right: float
    top: float


def chars(path, page_index: int, loose: bool = False) -> list[Char]:
    """Every character PDFium finds on a page, with its box (mm), in reading order;
    spaces it infers have no box and are left out. Boxes fit the glyph's ink, or with
    ``loose`` the font's whole line height, so the characters of a line share one bottom."""
    doc = pdfium.PdfDocument(str(path))
    try:
        text_page = doc[page_index].get_textpage()
        found = []
        for i in range(text_page.count_chars()):
            text = text_page.get_text_range(i, 1)
            left, bottom, right, top = text_page.get_charbox(i, loose=loose)
            if text.strip() and right > left:
                found.append(Char(text, left / MM, bottom / MM, right / MM, top / MM))
        return found
    finally:
        doc.close()


def page_count(path) -> int:
    doc = pdfium.PdfDocument(str(path))
    try:
        return len(doc)
    finally:
        doc.close()


def render_page(path, page_index: int, dpi: float = 50):
    """The page as a PIL image; pixel (x, y) from the top-left."""
    doc = pdfium.PdfDocument(str(path))
    try:
        return doc[page_index].render(scale=dpi / 72).to_pil().convert("RGB")
    finally:
        doc.close()


def ink_marks(image, box, is_ink) -> list[tuple[int, int, int, int]]:
    """The marks (glyphs, icons) inked in a region of a rendered page, left to right:
    (left, right, top, bottom) in pixels of the region. ``box`` is the region in pixels,
    (left, top, right, bottom); ``is_ink`` tells an inked pixel's colour."""
    region = image.crop(box)
    columns = {}
    for x in range(region.width):
        ys = [y for y in range(region.height) if is_ink(region.getpixel((x, y)))]
        if ys:
            columns[x] = (min(ys), max(ys))
    marks, current = [], []
    for x in sorted(columns):
        if current and x > current[-1] + 1:
            marks.append(current)
            current = []
        current.append(x)
    marks.append(current)
    return [(m[0], m[-1], min(columns[x][0] for x in m), max(columns[x][1] for x in m))
            for m in marks if m]


def assert_inline_icons_on_the_baseline(marks) -> None:
    """Marks H, icon, H, icon, H: each icon stands on the H's baseline, as tall as it."""
    assert len(marks) == 5, marks
    h_top, h_bottom = marks[0][2:]
    cap = h_bottom - h_top
    for _, _, top, bottom in (marks[1], marks[3]):
        assert abs(bottom - h_bottom) <= 0.06 * cap  # on the baseline
        assert 0.8 * cap <= bottom - top <= 1.2 * cap  # as tall as a capital
