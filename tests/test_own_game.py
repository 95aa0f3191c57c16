"""A designer's own game: fonts from the deck's fonts/ folder, SVG icons inline and as
elements, SVG images drawn as vectors, translucent colours and opacity, anchored images,
and the bundled example deck. Checked in the built PDFs with pypdf and PDFium."""

from __future__ import annotations

import shutil
from pathlib import Path

import pypdf
import pytest
from click.testing import CliRunner

from cardkit.cli import main
from cardkit.common.errors import InputError
from cardkit.deck.loader import load_deck
from cardkit.sources.files import ROOT
from conftest import write_deck
from pdfgeom import assert_inline_icons_on_the_baseline, ink_marks, render_page

EXAMPLE = ROOT / "examples" / "lantern-market"
LEFT, TOP = 9.75, (297 - 3 * 88.9) / 2  # the first card's corner on an A4 sheet, mm


def _fonts(pdf: Path) -> set[str]:
    """The font names a PDF's pages use, without their subset prefixes."""
    names = set()
    for page in pypdf.PdfReader(str(pdf)).pages:
        for font in page["/Resources"].get("/Font", {}).values():
            font = font.get_object()
            if "/DescendantFonts" in font:
                font = font["/DescendantFonts"][0].get_object()
            assert "/FontFile2" in font["/FontDescriptor"], f"{font['/BaseFont']} not embedded"
            names.add(str(font["/BaseFont"]).split("+")[-1])
    return names


def _xobjects(pdf: Path) -> list:
    return [name for page in pypdf.PdfReader(str(pdf)).pages
            for name in page["/Resources"].get("/XObject", {})]


def _pixel(image, x_mm, y_mm, dpi):
    """Colour at (x, y) mm from the first card's top-left corner."""
    return image.getpixel((round((LEFT + x_mm) / 25.4 * dpi), round((TOP + y_mm) / 25.4 * dpi)))


def _close(pixel, expected, tolerance=10):
    return all(abs(a - b) <= tolerance for a, b in zip(pixel, expected))


def _deck_with(tmp_path, face: str, cards: str = "  - {text: hello}", fields="text: text",
               fonts=False, icons=()) -> Path:
    if fonts:
        shutil.copytree(EXAMPLE / "fonts", tmp_path / "fonts")
    if icons:
        (tmp_path / "icons").mkdir()
        for name in icons:
            shutil.copy(EXAMPLE / "icons" / f"{name}.svg", tmp_path / "icons")
    return write_deck(tmp_path, f"""
name: own
size: poker
front: face
backs: {{plain: {{layout: back}}}}
fields: {{{fields}}}
cards:
{cards}
""", {"face": face, "back": "elements:\n  - {name: bg, kind: rect, box: card, fill: white}\n"})


# -- fonts -------------------------------------------------------------------------------

FONT_FACE = """
elements:
  - {name: bg, kind: rect, box: card, fill: white}
  - {name: body, kind: text, box: [5mm, 5mm, 53mm, 30mm], font: Gentium Basic, size: 12pt,
     text: "{text}"}
  - {name: title, kind: text, box: [5mm, 40mm, 53mm, 10mm], font: GenBasB, size: 12pt,
     text: Title}
"""


def test_a_deck_font_is_embedded_and_serves_bold_and_italic_markup(tmp_path, build):
    deck = _deck_with(tmp_path, FONT_FACE, '  - {text: "plain **bold** *italic* ***both***"}',
                      fonts=True)
    result = build(deck)
    assert not result.warnings
    assert _fonts(result.path) >= {"GentiumBasic", "GentiumBasic-Bold",
                                   "GentiumBasic-Italic", "GentiumBasic-BoldItalic"}
    assert "Helvetica" not in str(_fonts(result.path))


def test_a_font_by_file_name_full_name_and_family(tmp_path):
    face = FONT_FACE.replace("font: GenBasB", "font: Gentium Basic Bold Italic")
    deck = load_deck(_deck_with(tmp_path, face, fonts=True))
    body, title = deck.cards[0].front.elements[1:]
    assert body.fixed["font"].startswith("GenBasR~")  # the family's regular face
    assert title.fixed["font"].startswith("GenBasBI~")


def test_markup_without_the_face_for_it_is_a_warning(tmp_path, build):
    deck = _deck_with(tmp_path, FONT_FACE.replace("font: GenBasB", "font: Lato"),
                      '  - {text: "plain **bold** *italic*"}', fonts=True)
    for face in ("GenBasB", "GenBasI", "GenBasBI"):
        (tmp_path / "fonts" / f"{face}.ttf").unlink()
    warnings = sorted(str(w) for w in build(deck).warnings)
    assert warnings == [
        f"{tmp_path}/layouts/face.yaml:4:5: layout 'face', element 'body', on card 1 (text "
        f"plain **bold** *italic*): font GenBasR has no {style} face, so {mark}{style}{mark} "
        f"text prints in it; add the family's {style} TTF to the deck's fonts/ folder"
        for style, mark in (("bold", "**"), ("italic", "*"))]


def test_an_otf_with_truetype_outlines_is_a_deck_font(tmp_path, build):
    face = FONT_FACE.replace("font: Gentium Basic,", "font: Outlined,")
    deck = _deck_with(tmp_path, face, fonts=True)
    shutil.move(tmp_path / "fonts" / "GenBasR.ttf", tmp_path / "fonts" / "Outlined.otf")
    assert "GentiumBasic" in _fonts(build(deck).path)


def test_an_unknown_font_lists_the_deck_fonts(tmp_path):
    face = FONT_FACE.replace("font: GenBasB", "font: fonts/GenBasB.ttf")
    with pytest.raises(InputError) as caught:
        load_deck(_deck_with(tmp_path, face, fonts=True))
    (message,) = [str(p) for p in caught.value.problems]
    assert "font: no font named 'fonts/GenBasB.ttf'; did you mean 'GenBasB'?" in message
    assert message.startswith(f"{tmp_path}/layouts/face.yaml:6:")


def _cff_font(path: Path) -> None:
    """A tiny OpenType font with PostScript (CFF) outlines, made with fontTools."""
    from fontTools.fontBuilder import FontBuilder
    from fontTools.pens.t2CharStringPen import T2CharStringPen

    builder = FontBuilder(1000, isTTF=False)
    builder.setupGlyphOrder([".notdef", "A"])
    builder.setupCharacterMap({ord("A"): "A"})
    pen = T2CharStringPen(500, None)
    pen.moveTo((0, 0)), pen.lineTo((500, 700)), pen.lineTo((0, 700)), pen.closePath()
    glyph = pen.getCharString()
    builder.setupCFF("Cff", {"FullName": "Cff"}, {".notdef": glyph, "A": glyph}, {})
    builder.setupHorizontalMetrics({".notdef": (500, 0), "A": (500, 0)})
    builder.setupHorizontalHeader(ascent=800, descent=-200)
    builder.setupNameTable({"familyName": "Cff", "styleName": "Regular"})
    builder.setupOS2(), builder.setupPost()
    builder.save(str(path))


@pytest.mark.parametrize("name,make,words", [
    ("Broken.otf", lambda p: p.write_bytes(b"OTTO not really a font" * 20),
     ["not a readable font file", "use a TTF file"]),
    ("Broken.ttf", lambda p: p.write_bytes(b"\0\1\0\0 not really a font" * 20),
     ["not a readable TrueType font", "use a TTF file"]),
    ("Web.woff2", lambda p: p.write_bytes(b"wOF2"), ["a web font cannot be embedded"]),
])
def test_a_font_that_cannot_be_embedded_names_its_file(tmp_path, name, make, words):
    face = FONT_FACE.replace("Gentium Basic", "Lato").replace("GenBasB", Path(name).stem)
    deck = _deck_with(tmp_path, face)
    (tmp_path / "fonts").mkdir()
    make(tmp_path / "fonts" / name)
    (tmp_path / "fonts" / "OFL.txt").write_text("licence text is not a font")
    with pytest.raises(InputError) as caught:
        load_deck(deck)
    (message,) = [str(p) for p in caught.value.problems]
    assert message.startswith(f"{tmp_path}/layouts/face.yaml:")  # the layout naming it
    assert f"font file {tmp_path}/fonts/{name}: " in message
    assert all(w in message for w in words), message


def test_a_cff_opentype_font_is_embedded_with_truetype_outlines(tmp_path, build):
    """Many families ship only as OTF with PostScript (CFF) outlines; their text prints,
    embedded as a TrueType subset (FontFile2), and draws ink where the glyph is."""
    face = FONT_FACE.replace("Gentium Basic", "Cff").replace("GenBasB", "Cff")
    deck = _deck_with(tmp_path, face, '  - {text: "AAA"}')
    (tmp_path / "fonts").mkdir()
    _cff_font(tmp_path / "fonts" / "Cff.otf")
    result = build(deck)
    fonts = [font.get_object() for page in pypdf.PdfReader(result.path).pages
             for font in page["/Resources"]["/Font"].values()]
    cff = [font for font in fonts if str(font["/BaseFont"]).endswith("+Cff")]
    assert cff and "/FontFile2" in cff[0]["/FontDescriptor"]
    image = render_page(result.path, 0, 100).convert("L")
    assert image.getextrema()[0] < 80  # the glyphs, black triangles, are drawn


def test_a_font_file_no_layout_names_harms_nothing(tmp_path):
    """An unreadable or unusable file in fonts/ fails only a deck whose layouts name it."""
    deck = _deck_with(tmp_path, FONT_FACE.replace("Gentium Basic", "Lato")
                      .replace("GenBasB", "Lato-Bold"))
    (tmp_path / "fonts").mkdir()
    (tmp_path / "fonts" / "Broken.ttf").write_bytes(b"\0\1\0\0 not really a font" * 20)
    (tmp_path / "fonts" / "Web.woff2").write_bytes(b"wOF2")
    assert load_deck(deck).cards


def test_missing_glyphs_are_found_in_a_deck_font(tmp_path, build):
    deck = _deck_with(tmp_path, FONT_FACE, '  - {text: "a ♠ b"}', fonts=True)
    (warning,) = [str(w) for w in build(deck).warnings]
    assert "element 'body': font GenBasR has no glyph for '♠'" in warning


# -- SVG icons and images ----------------------------------------------------------------

def test_an_svg_icon_inline_takes_the_text_colour_and_stands_on_the_baseline(tmp_path, build):
    face = """
elements:
  - {name: bg, kind: rect, box: card, fill: white}
  - {name: line, kind: text, box: [5mm, 20mm, 50mm, 20mm], text: "{text}", size: 30pt,
     colour: "#203080", align: left}
"""
    deck = _deck_with(tmp_path, face, '  - {text: "H{sword}H{coin}H"}', icons=("sword", "coin"))
    result = build(deck)
    assert not result.warnings
    assert not _xobjects(result.path)  # vectors, no images
    image = render_page(result.path, 0, 300)
    box = tuple(round(v / 25.4 * 300) for v in (LEFT + 5, TOP + 20, LEFT + 55, TOP + 40))
    # the text's colour, not the SVG's own #222
    assert_inline_icons_on_the_baseline(ink_marks(image, box, lambda p: p[2] > p[0] + 40))


SVG_FACE = """
elements:
  - {name: bg, kind: rect, box: card, fill: white}
  - {name: art, kind: image, box: [0mm, 0mm, 63.5mm, 40mm], image: art.svg, fit: cover,
     anchor: "{anchor}"}
  - {name: coin, kind: icon, icon: coin, box: [20mm, 50mm, 20mm, 20mm], fill: "#c03030"}
"""
# A picture in two halves, green above, blue below; wider than the box is tall.
TWO_HALVES = """<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">
  <rect width="100" height="50" fill="#20a040"/><rect y="50" width="100" height="50"
  fill="#2040c0"/></svg>"""


@pytest.mark.parametrize("anchor,colour", [("top", (32, 160, 64)), ("bottom", (32, 64, 192)),
                                           ("0% 100%", (32, 64, 192))])
def test_an_svg_image_is_vector_and_cover_takes_an_anchor(tmp_path, build, anchor, colour):
    deck = _deck_with(tmp_path, SVG_FACE, f'  - {{anchor: "{anchor}"}}', fields="anchor: text",
                      icons=("coin",))
    (tmp_path / "art.svg").write_text(TWO_HALVES)
    result = build(deck)
    assert not _xobjects(result.path)
    image = render_page(result.path, 0, 100)
    # the square picture covers a 63.5 x 40 mm box: it is cropped top and bottom, and the
    # anchor decides which half shows in the middle of the box
    assert _close(_pixel(image, 31, 20, 100), colour), _pixel(image, 31, 20, 100)
    assert _close(_pixel(image, 30, 60, 100), (192, 48, 48), 20)  # a single-colour icon: fill


def test_not_an_svg_is_a_clear_error(tmp_path):
    deck = _deck_with(tmp_path, SVG_FACE, '  - {anchor: top}', fields="anchor: text",
                      icons=("coin",))
    (tmp_path / "icons" / "junk.svg").write_text("not xml at all")
    with pytest.raises(InputError) as caught:
        load_deck(deck)
    messages = sorted(str(p) for p in caught.value.problems)
    assert messages == [
        f"{tmp_path}/icons/junk.svg: not a readable SVG file; save it again as plain SVG "
        "from your drawing program"]


TEXT_ART = """<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 50">
<rect width="100" height="50" fill="#dddddd"/>
<text x="5" y="30" font-family="Gentium Basic" font-size="20" font-weight="bold">Hi</text>
<text x="50" y="30" font-family="'Fancy Unknown', serif" font-size="12">Yo</text></svg>"""
TEXT_ART_FACE = """
elements:
  - {name: art, kind: image, box: [5mm, 5mm, 53mm, 30mm], image: art.svg}
"""


def test_svg_text_prints_in_the_deck_font_of_its_family(tmp_path, build):
    """Live text from Inkscape or Illustrator: a family the deck has prints in the deck's
    face (bold here); one it has not prints in Lato, with a warning naming the SVG and
    the family, an error with --strict. svglib never looks for system fonts."""
    deck = _deck_with(tmp_path, TEXT_ART_FACE, fonts=True)
    (tmp_path / "art.svg").write_text(TEXT_ART)
    result = build(deck)
    (warning,) = [str(w) for w in result.warnings]
    assert "image 'art.svg' has text in font families 'Fancy Unknown', 'serif', none of " \
           "which the deck has a font of: it prints in Lato" in warning
    names = set()
    for page in pypdf.PdfReader(result.path).pages:
        for xobject in page["/Resources"].get("/XObject", {}).values():
            for font in xobject.get_object().get("/Resources", {}).get("/Font", {}).values():
                names.add(str(font.get_object()["/BaseFont"])[8:])
        for font in page["/Resources"].get("/Font", {}).values():
            names.add(str(font.get_object()["/BaseFont"])[8:])
    assert {"GentiumBasic-Bold", "Lato-Regular"} <= names
    code = CliRunner().invoke(main, ["validate", str(deck), "--strict"]).exit_code
    assert code == 2


def test_a_flat_icon_sits_in_text_and_an_empty_one_is_refused(tmp_path):
    """A dash (a line with no height) is an icon that sits in a line of text by its
    length; an icon whose shapes are a single point is an error naming the file, not a
    division by zero (a damaged file the fuzz test found)."""
    deck = _deck_with(tmp_path, SVG_FACE, '  - {anchor: top}', fields="anchor: text",
                      icons=("coin",))
    svg = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="{}"><path d="{}" stroke="#000"/></svg>'
    (tmp_path / "icons" / "dash.svg").write_text(svg.format("0 0 24 24", "M2 12H22"))
    loaded = load_deck(deck)
    from cardkit.assets.icons import inline_placement
    advance, _, _, side = inline_placement(loaded.cards[0].front.assets.icons["dash"], 10)
    assert advance > 0 and side > 0
    (tmp_path / "icons" / "dot.svg").write_text(svg.format("0 0 24 24", "M12 12L12 12"))
    with pytest.raises(InputError) as caught:
        load_deck(deck)
    assert sorted(str(p) for p in caught.value.problems) == [
        f"{tmp_path}/icons/dot.svg: the icon draws nothing: its shapes have no width or "
        "height; draw its shapes inside the SVG's viewBox"]


# -- colours with alpha, opacity ---------------------------------------------------------

@pytest.mark.parametrize("element", [
    'kind: rect, fill: "#ff000080"', "kind: rect, fill: red, opacity: 0.5",
    'kind: rect, fill: red, opacity: "50%"', "kind: image, image: red.png, fit: stretch, "
    "opacity: 0.5"])
def test_a_translucent_colour_or_opacity_lets_the_background_through(tmp_path, build,
                                                                      element):
    from PIL import Image
    Image.new("RGB", (10, 10), (255, 0, 0)).save(tmp_path / "red.png")
    face = f"""
elements:
  - {{name: bg, kind: rect, box: card, fill: "#0000ff"}}
  - {{name: veil, box: [10mm, 10mm, 20mm, 20mm], {element}}}
"""
    image = render_page(build(_deck_with(tmp_path, face)).path, 0, 100)
    assert _close(_pixel(image, 20, 20, 100), (128, 0, 127), 3)  # half red, half blue
    assert _close(_pixel(image, 40, 40, 100), (0, 0, 255))


def test_a_translucent_icon_is_one_shape_without_darker_overlaps(tmp_path, build):
    """The club is four circles and a stem; drawn at 50% it must be one even grey."""
    face = """
elements:
  - {name: bg, kind: rect, box: card, fill: white}
  - {name: club, kind: icon, icon: club, box: [10mm, 10mm, 40mm, 40mm], fill: black,
     opacity: 0.5}
"""
    image = render_page(build(_deck_with(tmp_path, face)).path, 0, 100)
    x0, y0 = (round(v / 25.4 * 100) for v in (LEFT + 10, TOP + 10))
    greys = [image.getpixel((x, y))[0] for x in range(x0, x0 + 157) for y in range(y0, y0 + 157)]
    inked = [g for g in greys if g < 250]
    assert len(inked) > 0.3 * len(greys)
    assert min(greys) >= 126, "parts overlap darker than the icon's grey"
    assert sum(1 for g in inked if g <= 130) > 0.8 * len(inked)  # and no holes of white


def test_opacity_out_of_range_is_refused(tmp_path):
    face = "elements:\n  - {name: bg, kind: rect, box: card, fill: red, opacity: 1.5}\n"
    with pytest.raises(InputError) as caught:
        load_deck(_deck_with(tmp_path, face))
    assert "opacity: expected a number from 0 to 1, got a number (1.5); write e.g. '0.7' " \
           "or '70%'" in str(caught.value.problems[0])


# -- the bundled example -----------------------------------------------------------------

def test_the_example_deck_builds_strictly_with_its_own_font_icons_and_art(tmp_path):
    result = CliRunner().invoke(main, ["build", str(EXAMPLE), "--strict", "--out",
                                       str(tmp_path)])
    assert result.exit_code == 0, result.output
    pdf = tmp_path / "lantern-market" / "lantern-market-pnp-a4.pdf"
    assert _fonts(pdf) == {"GentiumBasic", "GentiumBasic-Bold", "GentiumBasic-Italic",
                           "Lato-Regular"}  # Lato: the page footers
    assert not _xobjects(pdf)  # every picture is vector
    deck = load_deck(EXAMPLE / "deck.yaml")
    assert deck.total() == 21 and len(deck.cards) == 8
    lamp = next(c for c in deck.cards if c.fields["name"] == "Golden Lamp")
    assert (lamp.fields["cost"], lamp.fields["rare"], lamp.fields["swords"]) == (5, True, 0)
    assert str(lamp.where) == f"{EXAMPLE}/cards.csv:5"
