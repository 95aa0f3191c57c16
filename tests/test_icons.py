"""Icons drawn in code: every one renders with each shading, and inline icons stand on
the line of text they sit in. Checked by rasterising real PDFs."""

from __future__ import annotations

import pytest
from reportlab.lib import colors
from reportlab.pdfgen.canvas import Canvas

from cardkit.assets.icons import ICONS, SHADINGS
from conftest import write_deck
from pdfgeom import assert_inline_icons_on_the_baseline, ink_marks, render_page

DPI = 150
INK = colors.HexColor("#203080")


def _ink_fraction(image, box) -> float:
    data = image.crop(box).tobytes()  # RGB triples
    pixels = len(data) // 3
    return sum(1 for i in range(0, len(data), 3) if data[i + 2] > data[i] + 40) / pixels


@pytest.fixture(scope="module")
def icon_sheet(tmp_path_factory):
    """Every icon in every shading, 40 pt square each, one row per shading."""
    path = tmp_path_factory.mktemp("icons") / "icons.pdf"
    canvas = Canvas(str(path), pagesize=(60 * len(ICONS), 60 * len(SHADINGS)))
    for row, shading in enumerate(SHADINGS):
        for column, name in enumerate(ICONS):
            ICONS[name].draw(canvas, 10 + 60 * column, 10 + 60 * row, 40, 40, INK,
                      shading=shading)
    canvas.save()
    return render_page(path, 0, DPI), len(SHADINGS)


def _box(column, row, rows):
    scale = DPI / 72
    top = (60 * rows - (10 + 60 * row) - 40) * scale
    left = (10 + 60 * column) * scale
    return (round(left), round(top), round(left + 40 * scale), round(top + 40 * scale))


@pytest.mark.parametrize("name", list(ICONS))
def test_every_icon_renders_in_every_shading(icon_sheet, name):
    image, rows = icon_sheet
    column = list(ICONS).index(name)
    ink = {shading: _ink_fraction(image, _box(column, row, rows))
           for row, shading in enumerate(SHADINGS)}
    assert ink["solid"] > 0.12, ink  # a real filled shape, not a speck
    assert 0.02 < ink["clear"] < ink["striped"], ink  # stripes add ink inside the outline
    if name in ("circle", "triangle", "square"):  # the shape cards' three fills
        assert ink["clear"] + 0.05 < ink["striped"] < ink["solid"] - 0.05, ink


def test_a_solid_circle_fills_its_box_and_a_clear_one_is_hollow(icon_sheet):
    image, rows = icon_sheet
    left, top, right, bottom = _box(list(ICONS).index("circle"), 0, rows)
    centre = ((left + right) // 2, (top + bottom) // 2)
    solid = image.getpixel(centre)
    assert abs(solid[2] - 0x80) < 12 and abs(solid[0] - 0x20) < 12
    clear_left, clear_top, clear_right, clear_bottom = _box(list(ICONS).index("circle"), 2,
                                                            rows)
    assert image.getpixel(((clear_left + clear_right) // 2,
                           (clear_top + clear_bottom) // 2)) == (255, 255, 255)


def test_inline_icons_stand_on_the_text_line(tmp_path, build):
    deck = write_deck(tmp_path, """
name: inline
size: poker
front: face
backs: {plain: {layout: face}}
fields: {text: text}
cards:
  - text: "H{bullet}H{cup}H"
""", {"face": """
elements:
  - {name: bg, kind: rect, box: card, fill: white}
  - {name: line, kind: text, box: [5mm, 20mm, 50mm, 20mm], text: "{text}", size: 30pt,
     colour: "#203080", align: left}
"""})
    result = build(deck)
    assert not result.warnings  # no missing glyph: the icons are not characters
    image = render_page(result.path, 0, 300)
    scale = 300 / 25.4
    left, top = 9.75 + 5, (297 - 3 * 88.9) / 2 + 20
    box = tuple(round(v * scale) for v in (left, top, left + 50, top + 20))
    assert_inline_icons_on_the_baseline(ink_marks(image, box, lambda p: p[2] > p[0] + 40))
