"""CMYK output (cardkit.writers.cmyk): the colour rules as properties and worked cases,
and a page drawn every way cardkit draws, read back with pypdf and rendered with PDFium
(neither is reportlab) to show it holds no RGB, pure black where black is meant, CMYK
images that keep their transparency, and no more ink than the limit."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image
from pypdf import PdfReader
from pypdf.generic import ContentStream, NameObject
from reportlab.graphics import renderPDF
from reportlab.lib import colors
from reportlab.lib.colors import CMYKColor, Color, PCMYKColor
from reportlab.lib.utils import ImageReader

from cardkit.writers.cmyk import CmykCanvas, cmyk_image, to_cmyk

LIMIT = 2.4  # DriveThruCards: 240%
PAGE = (400, 300)
SCALE = 2  # pixels per point when rendering


def cmyk(colour, limit=4.0):
    converted, clipped = to_cmyk(colour, limit)
    return converted.cmyk(), clipped


def naive_rgb(c, m, y, k):
    """The naive CMYK to RGB formula that the conversion inverts."""
    return tuple((1 - v) * (1 - k) for v in (c, m, y))


# -- worked cases ------------------------------------------------------------------

def close(values, expected, tolerance=1e-9):
    return all(abs(a - b) <= tolerance for a, b in zip(values, expected, strict=True))


def test_pure_red_is_magenta_and_yellow():
    assert cmyk("#ff0000") == ((0, 1, 1, 0), False)


def test_black_is_black_ink_only():
    assert cmyk("#000000") == ((0, 0, 0, 1), False)
    assert cmyk(colors.black, LIMIT) == ((0, 0, 0, 1), False)


def test_a_mid_blue_by_hand():
    # #336699 is R 0.2, G 0.4, B 0.6. K = 1 - 0.6 = 0.4, and 1 - K = 0.6:
    # C = (1 - 0.2 - 0.4) / 0.6 = 2/3, M = (1 - 0.4 - 0.4) / 0.6 = 1/3,
    # Y = (1 - 0.6 - 0.4) / 0.6 = 0; 140% ink in all, under any limit.
    values, clipped = cmyk("#336699", LIMIT)
    assert close(values, (2 / 3, 1 / 3, 0, 0.4)) and not clipped


def test_a_dark_red_over_the_limit_loses_magenta_and_yellow_not_black():
    # #330000 is R 0.2: K 0.8, C 0, M = Y = (1 - 0 - 0.8) / 0.2 = 1, 280% ink.
    # M and Y share the 240 - 80 = 160% left: 80% each.
    values, clipped = cmyk("#330000", LIMIT)
    assert close(values, (0, 0.8, 0.8, 0.8)) and clipped
    assert abs(sum(values) - LIMIT) <= 1e-9


def test_alpha_and_cmyk_colours():
    converted, clipped = to_cmyk(Color(1, 0, 0, alpha=0.25), LIMIT)
    assert converted.alpha == 0.25 and not clipped
    # CMYK colours are only ink-limited; a percentage or tinted CMYK colour is resolved
    assert cmyk(CMYKColor(0.1, 0.2, 0.3, 0.4)) == ((0.1, 0.2, 0.3, 0.4), False)
    assert close(cmyk(PCMYKColor(50, 0, 100, 0))[0], (0.5, 0, 1, 0))
    assert close(cmyk(CMYKColor(1, 1, 1, 1, density=0.5))[0], (0.5,) * 4)
    values, clipped = cmyk(CMYKColor(1, 1, 1, 1), LIMIT)
    assert close(values, (1.4 / 3,) * 3 + (1,)) and clipped


def test_ink_limit_must_be_a_possible_total():
    for limit in (0.5, 4.5):
        with pytest.raises(ValueError):
            to_cmyk("#ff0000", limit)
        with pytest.raises(ValueError):
            CmykCanvas("unused.pdf", ink_limit=limit)


# -- properties --------------------------------------------------------------------

unit = st.floats(0, 1)
limits = st.floats(1, 4)


def is_neutral(rgb):
    return max(rgb) - min(rgb) <= 2 / 255 + 1e-9


@settings(max_examples=500)
@given(unit, unit, unit, st.one_of(st.none(), unit))
def test_unclipped_conversion_is_the_inverse_of_the_naive_formula(r, g, b, alpha):
    converted, clipped = to_cmyk(Color(r, g, b, alpha=alpha), 4.0)
    assert not clipped and converted.alpha == alpha
    assert all(0 <= v <= 1 for v in converted.cmyk())
    back = naive_rgb(*converted.cmyk())
    assert close(back, (r, g, b), 1e-9 if not is_neutral((r, g, b)) else 2 / 255)


@settings(max_examples=500)
@given(unit, st.tuples(*[st.floats(0, 2 / 255)] * 3))
def test_near_neutral_colours_are_black_ink_only(level, offsets):
    rgb = tuple(min(1.0, level + offset) for offset in offsets)
    c, m, y, k = cmyk(Color(*rgb))[0]
    assert c == m == y == 0
    assert close(naive_rgb(c, m, y, k), rgb, 2 / 255)


@settings(max_examples=500)
@given(unit, unit, unit, limits)
def test_ink_limit(r, g, b, limit):
    free, _ = cmyk(Color(r, g, b))
    limited, clipped = cmyk(Color(r, g, b), limit)
    assert sum(limited) <= limit + 1e-9
    assert limited[3] == free[3]  # black is kept
    assert clipped == (sum(free) > limit)
    if clipped:  # C, M and Y scaled by one factor, so the hue is kept
        scale = (limit - free[3]) / sum(free[:3])
        assert close(limited[:3], [v * scale for v in free[:3]])
    else:
        assert limited == free


level_8 = st.integers(0, 255)
greyish = st.builds(lambda v, offsets: tuple(min(255, v + o) for o in offsets), level_8,
                    st.tuples(*[st.integers(0, 2)] * 3))
pixel = st.one_of(st.tuples(level_8, level_8, level_8), greyish)


@settings(max_examples=100, deadline=None)
@given(st.lists(pixel, min_size=1, max_size=64), limits)
def test_image_pixels_follow_the_colour_rules(pixels, limit):
    image = Image.new("RGB", (len(pixels), 1))
    image.putdata(pixels)
    converted, alpha, _ = cmyk_image(image, limit)
    assert converted.mode == "CMYK" and alpha is None
    level = int(limit * 255 + 1e-9)
    data = converted.tobytes()
    for rgb, got in zip(pixels, (tuple(data[i:i + 4]) for i in range(0, len(data), 4))):
        expected = [v * 255 for v in cmyk(tuple(v / 255 for v in rgb), limit)[0]]
        assert sum(got) <= level
        assert close(got, expected, 2), (rgb, got, expected)  # integer rounding
        if is_neutral([v / 255 for v in rgb]):
            assert got[:3] == (0, 0, 0)


def test_dark_near_greys_in_an_image_are_not_rich_black():
    image = Image.new("RGB", (4, 1))
    image.putdata([(2, 0, 0), (0, 1, 2), (128, 129, 130), (255, 254, 255)])
    converted, _, clipped = cmyk_image(image, LIMIT)
    assert converted.tobytes() == bytes([0, 0, 0, 254, 0, 0, 0, 254, 0, 0, 0, 126, 0, 0, 0, 0])
    assert clipped == 0


# -- the colour log ----------------------------------------------------------------

def test_take_clipped_reports_each_clipped_colour_once(tmp_path):
    canvas = CmykCanvas(str(tmp_path / "log.pdf"), ink_limit=LIMIT)
    canvas.setFillColor(colors.HexColor("#330000"))
    canvas.setStrokeColor("#330000")
    text = canvas.beginText()
    text.setFillColorRGB(0.2, 0, 0)
    canvas.setFillColor(colors.HexColor("#336699"))  # 140%: not clipped
    canvas.setFillColor(colors.HexColor("#8b0000"))
    assert canvas.take_clipped() == ["#330000 (280% ink, printed at 240%)",
                                     "#8b0000 (245% ink, printed at 240%)"]
    assert canvas.take_clipped() == []
    canvas.setFillColorCMYK(1, 1, 1, 1)
    assert canvas.take_clipped() == ["cmyk(100%, 100%, 100%, 100%) (400% ink, printed at 240%)"]


def test_an_image_over_the_limit_is_reported_once_and_printed_within_it(tmp_path):
    image = Image.new("RGB", (10, 10), "#ffffff")
    image.paste((51, 0, 0), (0, 0, 10, 3))  # #330000, 280% ink, in 30% of the pixels
    reader = ImageReader(image)
    path = tmp_path / "dark.pdf"
    canvas = CmykCanvas(str(path), pagesize=(100, 100), ink_limit=LIMIT)
    canvas.drawImage(reader, 0, 0, 50, 50)
    canvas.drawImage(reader, 50, 50, 50, 50)
    assert canvas.take_clipped() == ["image (ink over 240% in 30% of its pixels)"]
    canvas.drawImage(reader, 0, 50, 50, 50)  # the next card reports it again
    assert canvas.take_clipped() == ["image (ink over 240% in 30% of its pixels)"]
    canvas.save()
    (data,) = [pixels for pixels, _ in cmyk_images(path)]
    assert max(sum(data[i:i + 4]) for i in range(0, len(data), 4)) == 612  # 240% of 255
    assert tuple(data[:4]) == (0, 204, 204, 204)


def test_an_image_from_a_file_is_reported_by_name(tmp_path):
    Image.new("RGB", (10, 10), (51, 0, 0)).save(tmp_path / "dark.png")
    canvas = CmykCanvas(str(tmp_path / "named.pdf"), ink_limit=LIMIT)
    canvas.drawImage(str(tmp_path / "dark.png"), 0, 0, 50, 50)
    canvas.drawImage(ImageReader(str(tmp_path / "dark.png")), 0, 0, 50, 50)
    assert canvas.take_clipped() == ["image dark.png (ink over 240% in 100% of its pixels)"]


def test_alpha_becomes_a_separate_band_and_grey_stays_grey():
    rgba = Image.new("RGBA", (3, 1))
    rgba.putdata([(255, 0, 0, 255), (0, 0, 255, 128), (0, 255, 0, 0)])
    converted, alpha, _ = cmyk_image(rgba, LIMIT)
    assert converted.mode == "CMYK" and alpha.tobytes() == bytes([255, 128, 0])
    assert converted.tobytes()[:4] == bytes([0, 255, 255, 0])

    grey, alpha, _ = cmyk_image(Image.new("LA", (2, 1), (90, 40)), LIMIT)
    assert (grey.mode, grey.tobytes(), alpha.tobytes()) == ("L", bytes([90, 90]), bytes([40, 40]))

    palette = Image.new("P", (2, 1))
    palette.putpalette([255, 255, 255, 0, 0, 0])
    palette.putdata([0, 1])
    palette.info["transparency"] = 0
    converted, alpha, _ = cmyk_image(palette, LIMIT)
    assert alpha.tobytes() == bytes([0, 255]) and converted.tobytes()[4:] == bytes([0, 0, 0, 255])

    assert cmyk_image(Image.new("RGB", (1, 1)), LIMIT)[1] is None


def test_transparent_pixels_over_the_limit_are_not_reported():
    image = Image.new("RGBA", (10, 10), (51, 0, 0, 0))
    assert cmyk_image(image, LIMIT)[2] == 0


# -- a page drawn every way cardkit draws, read back -------------------------------

SVG = """<svg xmlns="http://www.w3.org/2000/svg" width="100" height="60" viewBox="0 0 100 60">
  <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="0">
    <stop offset="0" stop-color="#ff8800"/><stop offset="1" stop-color="#0044cc"/>
  </linearGradient></defs>
  <rect x="0" y="0" width="50" height="30" fill="rgb(20,160,90)" stroke="#000000"
        stroke-width="0.5"/>
  <circle cx="75" cy="15" r="12" fill="#7f7f7f" fill-opacity="0.5"/>
  <rect x="0" y="35" width="100" height="20" fill="url(#g)"/>
  <path d="M0 58 L100 58" stroke="#123456" stroke-width="1"/>
</svg>"""

# the RGB image's quadrants, left to right, top to bottom
QUADRANTS = [(255, 0, 0), (51, 102, 153), (128, 128, 128), (26, 77, 51)]
RGB_AT = (10, 10)  # each image is drawn 80 points square
RGBA_AT = (110, 10)
BENEATH = (0, 170, 68)  # under the RGBA image, and 40 points to its right
OPAQUE = (204, 51, 0)  # the RGBA image's left 16 of 40 columns; then 8 at alpha 128;
HIDDEN = (255, 0, 255)  # then 16 of this at alpha 0
SWATCHES_AT = (300, 10)  # 15-point squares of QUADRANTS and OPAQUE, for comparison


def quadrant_image():
    image = Image.new("RGB", (40, 40))
    for i, colour in enumerate(QUADRANTS):
        x, y = 20 * (i % 2), 20 * (i // 2)
        image.paste(colour, (x, y, x + 20, y + 20))
    return image


def translucent_image():
    image = Image.new("RGBA", (40, 40), HIDDEN + (0,))
    image.paste(OPAQUE + (255,), (0, 0, 16, 40))
    image.paste(OPAQUE + (128,), (16, 0, 24, 40))
    return image


def hex_colour(rgb):
    return colors.HexColor("#%02x%02x%02x" % rgb)


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    """The page: its path, and the clipped colours the canvas reported."""
    from svglib.svglib import svg2rlg

    folder = tmp_path_factory.mktemp("cmyk")
    (folder / "art.svg").write_text(SVG, encoding="utf-8")
    path = folder / "page.pdf"
    canvas = CmykCanvas(str(path), pagesize=PAGE, pageCompression=0, ink_limit=LIMIT)

    # rectangles: RGB, RGB with alpha, the RGB and grey setters, CMYK, and over the limit
    canvas.setFillColor(colors.HexColor("#ff0000"))
    canvas.rect(10, 240, 40, 40, fill=1, stroke=0)
    canvas.setFillColor(Color(0.2, 0.4, 0.6, alpha=0.5))
    canvas.rect(60, 240, 40, 40, fill=1, stroke=0)
    canvas.setFillColorRGB(0, 0.5, 0)
    canvas.setStrokeColorRGB(0.9, 0.1, 0.5)
    canvas.rect(110, 240, 40, 40, fill=1, stroke=1)
    canvas.setFillGray(0.5)
    canvas.setStrokeGray(0.25)
    canvas.rect(160, 240, 40, 40, fill=1, stroke=1)
    canvas.setFillColor(PCMYKColor(0, 50, 100, 0))
    canvas.rect(210, 240, 40, 40, fill=1, stroke=0)
    canvas.setFillColor("#330000")
    canvas.rect(260, 240, 40, 40, fill=1, stroke=0)

    # text: black by the canvas, grey and coloured by the text object
    canvas.setFillColor(colors.black)
    canvas.drawString(10, 215, "Black text")
    text = canvas.beginText(10, 200)
    text.setFillGray(0.4)
    text.textLine("Grey text")
    text.setFillColor(colors.HexColor("#1f77b4"))
    text.textLine("Blue text")
    canvas.drawText(text)

    # a thin black line
    canvas.setStrokeColor(colors.black)
    canvas.setLineWidth(0.3)
    canvas.line(10, 170, 390, 170)

    renderPDF.draw(svg2rlg(str(folder / "art.svg")), canvas, 250, 100)

    # images: RGB (ImageReader) and RGBA (a PIL image) over a green rectangle
    canvas.drawImage(ImageReader(quadrant_image()), *RGB_AT, 80, 80, mask="auto")
    canvas.setFillColor(hex_colour(BENEATH))
    canvas.rect(*RGBA_AT, 120, 80, fill=1, stroke=0)
    canvas.drawImage(translucent_image(), *RGBA_AT, 80, 80, mask="auto")
    canvas.drawImage(Image.new("L", (4, 4), 90), 240, 10, 20, 20, mask="auto")
    canvas.drawInlineImage(Image.new("RGB", (4, 4), (10, 200, 30)), 240, 40, 20, 20)
    for i, colour in enumerate(QUADRANTS + [OPAQUE]):
        canvas.setFillColor(hex_colour(colour))
        canvas.rect(SWATCHES_AT[0] + 16 * (i % 5), SWATCHES_AT[1], 15, 15, fill=1, stroke=0)

    clipped = canvas.take_clipped()
    canvas.showPage()
    canvas.save()
    return path, clipped


def paint_events(path, page_index=0):
    """Every painting operator on a page (the first) and in its forms, with the graphics
    state it paints in: (operator, operands, fill, stroke, line width). Fill and stroke
    are (colour operator, operands)."""
    reader = PdfReader(path)
    page = reader.pages[page_index]
    events = []

    def walk(content, resources, state):
        stack = []
        for operands, op in content.operations:
            if op == b"q":
                stack.append(dict(state))
            elif op == b"Q":
                state = stack.pop()
            elif op in (b"k", b"g", b"rg", b"sc", b"scn", b"cs"):
                state["fill"] = (op.decode(), [number_or_name(v) for v in operands])
            elif op in (b"K", b"G", b"RG", b"SC", b"SCN", b"CS"):
                state["stroke"] = (op.decode(), [number_or_name(v) for v in operands])
            elif op == b"w":
                state["width"] = float(operands[0])
            elif op == b"Do":
                xobject = resources["/XObject"][operands[0]].get_object()
                if xobject["/Subtype"] == "/Form":
                    walk(ContentStream(xobject, reader), xobject.get("/Resources", resources),
                         dict(state))
                events.append((op, operands, state.get("fill"), state.get("stroke"),
                               state.get("width")))
            elif op in (b"Tj", b"TJ", b"'", b'"', b"S", b"s", b"f", b"F", b"f*", b"B", b"B*",
                        b"b", b"b*", b"sh", b"INLINE IMAGE"):
                events.append((op, operands, state.get("fill"), state.get("stroke"),
                               state.get("width")))

    walk(page.get_contents(), page["/Resources"], {})
    return events


def number_or_name(operand):
    return str(operand) if isinstance(operand, NameObject) else float(operand)


def all_resources(path):
    """(kind, object) for every XObject, shading and ExtGState the page uses, forms'
    resources included."""
    found = []

    def visit(resources):
        for kind in ("/XObject", "/Shading", "/ExtGState"):
            for obj in resources.get(kind, {}).values():
                obj = obj.get_object()
                found.append((kind, obj))
                if kind == "/XObject" and obj["/Subtype"] == "/Form" and "/Resources" in obj:
                    visit(obj["/Resources"].get_object())

    visit(PdfReader(path).pages[0]["/Resources"])
    return found


def cmyk_images(path):
    """(decoded bytes, SMask bytes or None) of each DeviceCMYK image XObject."""
    return [(obj.get_data(), obj["/SMask"].get_object().get_data() if "/SMask" in obj else None)
            for kind, obj in all_resources(path)
            if kind == "/XObject" and obj.get("/ColorSpace") == "/DeviceCMYK"]


def test_page_has_no_rgb_or_grey_colour_operators(page):
    path, _ = page
    events = paint_events(path)
    used = {state[0] for event in events for state in event[2:4] if state}
    assert used == {"k", "K"}, used
    assert b"/DeviceRGB" not in path.read_bytes()
    ops = {op for operands, op in ContentStream(PdfReader(path).pages[0].get_contents(),
                                                 None).operations}
    assert not ops & {b"rg", b"RG", b"g", b"G", b"cs", b"CS", b"sc", b"SC", b"scn", b"SCN"}


def test_images_and_shadings_are_cmyk(page):
    path, _ = page
    spaces = {"/Shading": [], "image": [], "smask": []}
    for kind, obj in all_resources(path):
        if kind == "/Shading":
            spaces["/Shading"].append(obj["/ColorSpace"])
        elif kind == "/XObject" and obj["/Subtype"] == "/Image":
            spaces["image"].append(obj["/ColorSpace"])
            if "/SMask" in obj:
                spaces["smask"].append(obj["/SMask"].get_object()["/ColorSpace"])
    assert spaces["/Shading"] == ["/DeviceCMYK"]  # the SVG's gradient
    # RGB and RGBA images; the grey image stays grey, and the RGBA's alpha is its SMask
    assert sorted(spaces["image"]) == ["/DeviceCMYK", "/DeviceCMYK", "/DeviceGray"]
    assert spaces["smask"] == ["/DeviceGray"]
    inline = [event[1] for event in paint_events(path) if event[0] == b"INLINE IMAGE"]
    assert [image["settings"]["/CS"] for image in inline] == ["/DeviceCMYK"]


def test_black_text_and_hairline_are_pure_black(page):
    path, _ = page
    events = paint_events(path)
    text = {str(event[1][0]): event[2] for event in events if event[0] in (b"Tj", b"'")}
    assert text["Black text"] == ("k", [0, 0, 0, 1])
    assert text["Grey text"] == ("k", [0, 0, 0, 0.6])
    assert text["Blue text"][0] == "k" and text["Blue text"][1][:3] != [0, 0, 0]
    hairlines = [event for event in events if event[0] == b"S" and event[4] == 0.3]
    assert hairlines and all(event[3] == ("K", [0, 0, 0, 1]) for event in hairlines)
    # the SVG's black outline too
    svg_black = [event for event in events if event[0] in (b"B", b"S") and event[4] == 0.5]
    assert svg_black and all(event[3] == ("K", [0, 0, 0, 1]) for event in svg_black)


def test_no_fill_or_stroke_exceeds_the_ink_limit(page):
    path, clipped = page
    for event in paint_events(path):
        for state in event[2:4]:
            if state:
                assert sum(state[1]) <= LIMIT + 1e-4, event
    # full grey-component replacement puts dark saturated colours over 240%
    assert clipped == ["#008000 (250% ink, printed at 240%)",
                       "#330000 (280% ink, printed at 240%)"]


def test_stored_image_pixels_invert_to_the_originals(page):
    path, _ = page
    images = cmyk_images(path)
    (rgb,) = [data for data, mask in images if mask is None]
    ((rgba, mask),) = [image for image in images if image[1] is not None]

    def pixel(data, x, y):
        c, m, y_, k = (v / 255 for v in data[4 * (40 * y + x):4 * (40 * y + x) + 4])
        return tuple(255 * v for v in naive_rgb(c, m, y_, k))

    for i, colour in enumerate(QUADRANTS):
        assert close(pixel(rgb, 20 * (i % 2) + 10, 20 * (i // 2) + 10), colour, 1)
    assert close(pixel(rgba, 5, 5), OPAQUE, 1)
    assert (mask[0], mask[20], mask[30]) == (255, 128, 0)


def test_rendered_page_shows_the_images_and_what_is_beneath_transparency(page):
    import pypdfium2

    path, _ = page
    rendered = pypdfium2.PdfDocument(str(path))[0].render(scale=SCALE).to_pil().convert("RGB")

    def at(x, y):
        return rendered.getpixel((round(x * SCALE), round((PAGE[1] - y) * SCALE)))

    def swatch(i):
        return at(SWATCHES_AT[0] + 16 * i + 7.5, SWATCHES_AT[1] + 7.5)

    def near(a, b, tolerance):
        return all(abs(p - q) <= tolerance for p, q in zip(a, b, strict=True))

    for i, colour in enumerate(QUADRANTS):
        shown = at(RGB_AT[0] + 40 * (i % 2) + 20, RGB_AT[1] + 80 - 40 * (i // 2) - 20)
        # PDFium prints CMYK through its own press model, not the naive formula: the
        # image matches the same colour drawn as a vector, and is near the original
        assert near(shown, swatch(i), 3), (colour, shown, swatch(i))
        assert near(shown, colour, 48), (colour, shown)
    green = at(RGBA_AT[0] + 100, RGBA_AT[1] + 40)  # beside the image
    assert near(at(RGBA_AT[0] + 8, RGBA_AT[1] + 40), swatch(4), 3)  # opaque
    assert near(at(RGBA_AT[0] + 70, RGBA_AT[1] + 40), green, 3)  # transparent
    half = at(RGBA_AT[0] + 40, RGBA_AT[1] + 40)  # alpha 128: between the two
    assert near(half, [(a + b) / 2 for a, b in zip(swatch(4), green)], 12), half


# -- small text in one ink -----------------------------------------------------------

def device_cmyk(hex_rgb: str):
    """The docs' formula, worked here apart from cardkit: K = 1 - max, C = (1 - R - K)
    / (1 - K), likewise M and Y."""
    r, g, b = (int(hex_rgb[i:i + 2], 16) / 255 for i in (1, 3, 5))
    k = 1 - max(r, g, b)
    return [(1 - v - k) / (1 - k) for v in (r, g, b)] + [k]


def shown(op: bytes, operands) -> str:
    """The text a Tj or TJ (a kerned line: strings and kerning numbers) shows."""
    parts = [operands[0]] if op == b"Tj" else \
        [part for part in operands[0] if hasattr(part, "get_original_bytes")]
    return "".join(part.get_original_bytes().decode("latin-1") for part in parts)


def test_small_grey_text_prints_in_black_ink_only(tmp_path):
    """A 5 pt stamp in a tinted grey is K only (the grey of its channels' mean), read from
    the exported PDF's k operators; the same grey at 10 pt, a coloured 5 pt text and a
    colour set inside a saved state keep their inks."""
    from cardkit.imposition.services import SERVICES
    from cardkit.pipeline.export import ExportOptions, export_deck

    from conftest import write_deck

    texts = [("stamp", 5, "#6b5b4b"), ("note", 5, "#b5562a"), ("heading", 10, "#6b5b4b"),
             ("small", 7.5, "#6b6f78")]
    front = "elements:\n" + "".join(
        f"  - {{name: {name}, kind: text, box: [5mm, {10 + 8 * i}mm, 50mm, 6mm], "
        f"size: {size}pt, colour: '{colour}', text: '{name}'}}\n"
        for i, (name, size, colour) in enumerate(texts))
    deck = write_deck(tmp_path / "d", """
        name: stamps
        size: poker
        front: front
        backs:
          plain: {layout: back}
        cards:
          - {}
        """, {"front": front, "back": "elements:\n  - {name: bg, kind: rect, box: card, "
                                      "fill: '#ffffff'}\n"})
    result = export_deck(deck, tmp_path / "o", ExportOptions("pdf", SERVICES["eu"]))
    fills = {shown(op, operands): fill
             for op, operands, fill, _, _ in paint_events(result.path) if op in (b"Tj", b"TJ")}
    assert set(fills) == {name for name, _, _ in texts}
    for name in fills:
        assert fills[name][0] == "k"
    assert fills["stamp"][1] == pytest.approx([0, 0, 0, 1 - (0x6b + 0x5b + 0x4b) / 3 / 255],
                                              abs=1e-5)
    assert fills["small"][1] == pytest.approx([0, 0, 0, 1 - (0x6b + 0x6f + 0x78) / 3 / 255],
                                              abs=1e-5)
    assert fills["heading"][1] == pytest.approx(device_cmyk("#6b5b4b"), abs=1e-5)
    assert min(device_cmyk("#6b5b4b")[1:3]) > 0.1  # three inks, as designed, at 10 pt
    assert fills["note"][1] == pytest.approx(device_cmyk("#b5562a"), abs=1e-5)


def test_a_small_grey_text_after_a_painted_shape_leaves_the_shape_its_inks(tmp_path):
    path = tmp_path / "after.pdf"
    canvas = CmykCanvas(str(path), pagesize=PAGE, pageCompression=0, ink_limit=LIMIT)
    canvas.setFillColor(colors.HexColor("#6b5b4b"))
    canvas.rect(10, 10, 20, 20, fill=1, stroke=0)  # painted in the colour as it is
    canvas.setFont("Helvetica", 6)
    canvas.drawString(10, 50, "small")
    canvas.saveState()
    canvas.setFillColor(colors.HexColor("#2f5d62"))
    canvas.restoreState()
    canvas.drawString(10, 60, "again")  # the grey again after the saved state ends
    canvas.showPage()
    canvas.save()
    fills = [(op, fill) for op, _, fill, _, _ in paint_events(path)]
    black = ("k", pytest.approx([0, 0, 0, 1 - 91 / 255], abs=1e-5))
    assert fills == [(b"f*", ("k", pytest.approx(device_cmyk("#6b5b4b"), abs=1e-5))),
                     (b"Tj", black), (b"Tj", black)]
