"""Every element kind draws where its box says, in its colours: rendered and sampled."""

from __future__ import annotations

from PIL import Image

from cardkit.deck.loader import load_deck
from conftest import write_deck
from pdfgeom import render_page

DPI = 100
RED, GREEN, BLUE = (220, 30, 30), (30, 160, 60), (30, 60, 200)


def _pixel(image, x_mm, y_mm, left_mm, top_mm):
    """Colour at (x, y) mm from the card's top-left, the card's corner being at
    (left, top) mm from the page's top-left."""
    return image.getpixel((round((left_mm + x_mm) / 25.4 * DPI),
                           round((top_mm + y_mm) / 25.4 * DPI)))


def _close(pixel, expected, tolerance=12):
    return all(abs(a - b) <= tolerance for a, b in zip(pixel, expected))


LAYOUT = """
styles:
  blue: {fill: "#1e3cc8"}
  red: {fill: "#dc1e1e"}
elements:
  - {name: bg, kind: rect, box: card, fill: white}
  - {name: square, kind: rect, box: [5mm, 5mm, 10mm, 10mm], fill: "#dc1e1e", radius: 1mm}
  - {name: oval, kind: ellipse, box: [20mm, 5mm, 10mm, 10mm], fill: "#1ea03c"}
  - name: tri
    kind: polygon
    box: [35mm, 5mm, 10mm, 10mm]
    points: [[50%, 0%], [100%, 100%], [0%, 100%]]
    fill: "#1e3cc8"
  - {name: star, kind: icon, icon: heart, box: [5mm, 20mm, 10mm, 10mm], fill: "#dc1e1e"}
  - {name: picked, kind: rect, box: [20mm, 20mm, 10mm, 10mm], style: "{tone}"}
  - {name: rule, kind: line, box: [35mm, 25mm, 20mm, 0mm], stroke: "#1ea03c", stroke_width: 3pt}
  - {name: art, kind: image, image: red.png, box: [5mm, 35mm, 10mm, 10mm], fit: stretch}
  - name: turned
    kind: text
    box: [40mm, 32mm, 8mm, 40mm]
    text: MMMMMMMM
    size: 14pt
    colour: "#1e3cc8"
    rotate: 90
"""


def test_each_element_kind_draws_in_its_box(tmp_path, build):
    Image.new("RGB", (20, 20), RED).save(tmp_path / "red.png")
    deck = write_deck(tmp_path, """
name: kinds
size: poker
front: kinds
backs: {plain: {layout: kinds}}
fields: {tone: text}
cards:
  - {tone: blue}
""", {"kinds": LAYOUT})
    result = build(deck)
    image = render_page(result.path, 0, DPI)
    left, top = 9.75, (297 - 3 * 88.9) / 2
    assert _close(_pixel(image, 10, 10, left, top), RED)  # rect
    assert _close(_pixel(image, 25, 10, left, top), GREEN)  # ellipse
    assert _close(_pixel(image, 40, 12, left, top), BLUE)  # polygon, lower middle
    assert _close(_pixel(image, 36, 6, left, top), (255, 255, 255))  # outside the triangle
    assert _close(_pixel(image, 10, 26, left, top), RED)  # heart icon
    assert _close(_pixel(image, 25, 25, left, top), BLUE)  # style picked by a field
    assert _close(_pixel(image, 45, 25, left, top), GREEN)  # line
    assert _close(_pixel(image, 10, 40, left, top), RED)  # image
    # Rotated text runs down its tall box: its ink is tall and thin, inside the box.
    x0, y0 = round((left + 40) / 25.4 * DPI), round((top + 32) / 25.4 * DPI)
    x1, y1 = round((left + 48) / 25.4 * DPI), round((top + 72) / 25.4 * DPI)
    region = image.crop((x0 - 20, y0 - 20, x1 + 20, y1 + 20))
    ink = [(x, y) for x in range(region.width) for y in range(region.height)
           if _close(region.getpixel((x, y)), BLUE, 60)]
    xs, ys = [p[0] for p in ink], [p[1] for p in ink]
    assert max(ys) - min(ys) > 4 * (max(xs) - min(xs))
    assert min(xs) >= 20 and max(xs) <= region.width - 20
    assert _close(_pixel(image, 2, 2, left, top), (255, 255, 255))  # background


def test_extends_overrides_elements_by_name_property_by_property(tmp_path):
    deck = write_deck(tmp_path, """
name: ext
size: poker
front: child
backs: {plain: {layout: base}}
cards:
  - {}
""", {"base": """
elements:
  - {name: bg, kind: rect, box: card, fill: white, stroke: black}
  - {name: title, kind: text, box: [5mm, 5mm, 40mm, 10mm], text: Base, size: 12pt}
""", "child": """
extends: base
elements:
  - {name: bg, fill: red}
  - {name: extra, kind: ellipse, box: [5mm, 20mm, 10mm, 10mm], fill: blue}
"""})
    card = load_deck(deck).cards[0]
    names = [e.name for e in card.front.elements]
    assert names == ["bg", "title", "extra"]
    bg = card.front.elements[0].resolve(card.values(), card.front.styles)
    assert bg["fill"].hexval() == "0xff0000" and bg["stroke"].hexval() == "0x000000"


def test_a_bleed_picture_is_checked_at_the_size_it_prints_grown_by_the_bleed(tmp_path):
    """A poker card's 750 x 1050 px picture is 300 dpi over the trim (2.5 x 3.5 in), but a
    bleed picture is fitted to its box grown by 1/8 in on each side (2.75 x 3.75 in):
    contained there it prints 1050 px over 3.75 in, 280 dpi. The check said nothing."""
    from test_bad_input import _problems

    Image.new("RGB", (750, 1050), RED).save(tmp_path / "art.png")
    face = "elements:\n  - {name: art, kind: image, image: art.png, box: card, bleed: true}\n"
    (warning,) = _problems(tmp_path, face)
    assert "image 'art.png' prints at 280 dpi (its 750 x 1050 px over 68.0 x 95.2 mm), " \
           "under the 300 dpi print needs; use an image of at least 804 x 1125 px" in warning
    (tmp_path / "trim").mkdir()
    Image.new("RGB", (750, 1050), RED).save(tmp_path / "trim" / "art.png")
    assert _problems(tmp_path / "trim", face.replace(", bleed: true", "")) == []
