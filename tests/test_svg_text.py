"""Live text in SVG art (issue 37.18): the face it prints in is read back from the PDF, per
word, by the font the PDF's text operators name for it."""

from __future__ import annotations

import shutil

import pypdf
import pytest

from test_own_game import _deck_with

ART = """<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 120">
<text x="5" y="15" font-family="Gentium Basic" font-weight="700">Heavy</text>
<text x="5" y="30" font-family="Gentium Basic" font-weight="500">Plain</text>
<text x="5" y="45" font-family="Gentium Basic" style="font-style: oblique">Slant</text>
<text x="5" y="60" font-family="Gentium Basic" font-weight="800" font-style="italic">Both</text>
<text x="5" y="75" font-family="Helvetica, 'Gentium Basic', serif">Listed</text>
<g font-family="Gentium Basic" font-weight="bolder"><text x="5" y="90">Inherited</text></g>
<text x="5" y="105">Bare</text></svg>"""
FACE = """
elements:
  - {name: art, kind: image, box: [5mm, 5mm, 53mm, 32mm], image: art.svg}
"""


def _faces(pdf) -> dict[str, str]:
    """Each word the PDF shows -> the font (without its subset prefix) it is set in."""
    faces = {}

    def seen(text, cm, tm, font, size):
        if text.strip() and font is not None:
            faces[text.strip()] = str(font["/BaseFont"]).split("+")[-1]

    for page in pypdf.PdfReader(str(pdf)).pages:
        page.extract_text(visitor_text=seen)
    return faces


def test_svg_text_takes_numeric_weights_slants_and_the_first_family_the_deck_has(tmp_path,
                                                                                  build):
    """Illustrator writes font-weight="700": it printed in the regular face, silently; a
    family list fell back to Lato at its first family; text naming no family was reported
    as 'Helvetica'."""
    deck = _deck_with(tmp_path, FACE, fonts=True)
    (tmp_path / "art.svg").write_text(ART)
    result = build(deck)
    faces = _faces(result.path)
    assert {word: faces.get(word) for word in (
        "Heavy", "Plain", "Slant", "Both", "Listed", "Inherited", "Bare")} == {
        "Heavy": "GentiumBasic-Bold", "Plain": "GentiumBasic", "Slant": "GentiumBasic-Italic",
        "Both": "GentiumBasic-BoldItalic", "Listed": "GentiumBasic",
        "Inherited": "GentiumBasic-Bold", "Bare": "Lato-Regular"}
    (warning,) = [str(w) for w in result.warnings]
    assert "image 'art.svg' has text that names no font family: it prints in Lato; name " \
           "one of the deck's fonts' families in the SVG (font-family), or turn the text " \
           "into paths" in warning
    assert "Helvetica" not in warning


def test_bold_svg_text_in_a_family_with_no_bold_face_is_a_warning(tmp_path, build):
    """Weight 700 in a family the deck has only the regular file of prints in the regular
    face: said, as for **bold** in a layout's text."""
    deck = _deck_with(tmp_path, FACE, fonts=True)
    for name in ("GenBasB.ttf", "GenBasBI.ttf"):
        (tmp_path / "fonts" / name).unlink()
    (tmp_path / "art.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 120"><text x="5" y="15" '
        'font-family="Gentium Basic" font-weight="700">Heavy</text></svg>')
    result = build(deck)
    assert _faces(result.path)["Heavy"] == "GentiumBasic"
    (warning,) = [str(w) for w in result.warnings]
    assert "image 'art.svg' has bold text in font family 'Gentium Basic', which has no bold " \
           "face: it prints in the family's face as it is; add the family's bold TTF to the " \
           "deck's fonts/ folder" in warning


RIGHT_TO_LEFT_ART = """<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 120"
 font-family="DejaVu Sans" font-size="12">
<text x="5" y="15">Market</text>
<text x="195" y="40" text-anchor="end">שוק הפנסים</text>
<text x="100" y="70" text-anchor="middle">سوق الفوانيس</text>
<rect x="195" y="80" width="1" height="4"/><rect x="100" y="80" width="1" height="4"/></svg>"""


def test_right_to_left_svg_text_is_set_right_to_left_joined_and_reads_as_written(tmp_path,
                                                                                build):
    """A title set in Inkscape in Hebrew printed left to right, Arabic unjoined (it was
    refused): SVG text is shaped as a card's text is, read back from the PDF with
    pdfplumber (where each letter stands) and PDFium (the text read and searched)."""
    import pdfplumber
    import pypdfium2 as pdfium

    from conftest import RIGHT_TO_LEFT_FONT, harfbuzz_forms

    deck = _deck_with(tmp_path, FACE, fonts=True)
    shutil.copy(RIGHT_TO_LEFT_FONT, tmp_path / "fonts")
    (tmp_path / "art.svg").write_text(RIGHT_TO_LEFT_ART, encoding="utf-8")
    result = build(deck)
    assert not result.warnings
    with pdfplumber.open(result.path) as document:
        chars = [c for c in document.pages[0].chars if "DejaVu" in c["fontname"]]
        # the marks at x 195 and 100 of the drawing: where the texts' anchors are
        end, centre = sorted(rect["x0"] for rect in document.pages[0].rects
                             if rect["width"] < 1)[::-1]
    market, hebrew, arabic = _by_line(chars)
    assert "".join(c["text"] for c in market) == "Market"
    # the first letter rightmost, the text's end at its anchor: 195 of the drawing's 200
    assert "".join(c["text"] for c in hebrew) == "שוק הפנסים"[::-1]
    assert hebrew[-1]["x1"] == pytest.approx(end, abs=0.2)
    # Arabic in its joined forms (the font's presentation forms), not its letters alone
    drawn = "".join(c["text"] for c in arabic)
    assert drawn.split() == [harfbuzz_forms(word, RIGHT_TO_LEFT_FONT.stem)
                             for word in "سوق الفوانيس".split()[::-1]]
    assert drawn.replace(" ", "") != "سوقالفوانيس"[::-1]
    middle = (min(c["x0"] for c in arabic) + max(c["x1"] for c in arabic)) / 2
    assert middle == pytest.approx(centre, abs=0.2)
    document = pdfium.PdfDocument(str(result.path))
    try:
        page = document[0].get_textpage()
        for phrase in ("Market", "שוק הפנסים", "سوق الفوانيس"):
            assert page.search(phrase).get_next() is not None, page.get_text_range()
    finally:
        document.close()


ICON_FACE = """
elements:
  - {name: bg, kind: rect, box: card, fill: white}
  - {name: badge, kind: icon, icon: badge, box: [5mm, 5mm, 50mm, 50mm]}
  - {name: line, kind: text, box: [5mm, 60mm, 53mm, 20mm], text: "{text}", size: 14pt}
"""
BADGE = """<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">
<circle cx="50" cy="50" r="48" fill="#c03030"/>
<text x="50" y="45" font-family="Lato" font-size="24" text-anchor="middle"
 fill="#ffffff">AVTo</text>
<text x="50" y="72" font-family="DejaVu Sans" font-size="14" text-anchor="middle"
 fill="#ffffff">שוק הפנסים</text></svg>"""


def test_an_svg_icons_text_is_kerned_and_set_right_to_left_as_an_svg_pictures_is(tmp_path,
                                                                                 build):
    """An icon's live text (an element's icon, and the same icon inline in a card's text)
    was drawn by reportlab in Lato whatever its family: unkerned, Hebrew left to right in
    a font without its letters. It is set as an SVG picture's text is: in the deck's font
    of its family, kerned by the font's own value (fontTools reads it from the font), a
    Hebrew phrase's first letter rightmost (pdfplumber reads where each letter stands)."""
    import pdfplumber
    from fontTools.ttLib import TTFont

    from conftest import RIGHT_TO_LEFT_FONT, font_file
    from test_scripts import gpos_kerning

    deck = _deck_with(tmp_path, ICON_FACE, '  - {text: "Go {badge} now"}', fonts=True)
    shutil.copy(RIGHT_TO_LEFT_FONT, tmp_path / "fonts")
    (tmp_path / "icons").mkdir()
    (tmp_path / "icons" / "badge.svg").write_text(BADGE, encoding="utf-8")
    result = build(deck)
    assert not result.warnings
    with pdfplumber.open(result.path) as document:
        chars = [c for c in document.pages[0].chars if c["size"] != 6]  # not the footer
    lato = TTFont(font_file("Lato"))
    cmap, upem = lato.getBestCmap(), lato["head"].unitsPerEm
    sizes, hebrew_lines = set(), 0
    for line in _by_line(chars):
        text = "".join(c["text"] for c in line)
        if "AVTo" in text:
            a, v, t, o = line[text.index("AVTo"):][:4]
            assert all(c["fontname"].endswith("+Lato-Regular") for c in (a, v, t, o))
            for left, right in ((a, v), (t, o)):
                glyph = cmap[ord(left["text"])]
                kern = gpos_kerning(lato, glyph, cmap[ord(right["text"])])
                assert kern < 0
                assert right["x0"] - left["x0"] == pytest.approx(
                    (lato["hmtx"][glyph][0] + kern) * left["size"] / upem, abs=0.01)
            sizes.add(round(a["size"], 1))
        elif any(c["text"] in "שוק" for c in line):
            hebrew = "".join(c["text"] for c in line if "DejaVu" in c["fontname"])
            assert hebrew == "שוק הפנסים"[::-1]
            hebrew_lines += 1
    assert len(sizes) == 2 and hebrew_lines == 2  # the element's icon and the inline one


def _by_line(chars) -> list[list[dict]]:
    """``chars`` in lines (by their top), each left to right."""
    lines: dict[int, list] = {}
    for char in chars:
        lines.setdefault(round(char["top"]), []).append(char)
    return [sorted(line, key=lambda c: c["x0"]) for _, line in sorted(lines.items())]


FALLBACK_BADGE = """<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">
<circle cx="50" cy="50" r="48" fill="#c03030"/>
<text x="50" y="40" font-family="Gentium Book" font-size="24" text-anchor="middle"
 fill="#ffffff">Wager</text>
<text x="50" y="70" font-family="'Gentium Book'" font-size="14" text-anchor="middle"
 fill="#ffffff">Twice</text></svg>"""


def test_an_svg_icons_text_in_a_family_the_deck_lacks_is_one_warning(tmp_path, build):
    """An icon's text asking for a family the deck has no font of printed in Lato with
    no word said (an SVG picture's was a warning): it is one warning, however many texts,
    elements and cards show the icon, naming the icon's file, the family and Lato, with
    the fix; the text is in Lato in the PDF (pypdf reads the font of each word), and
    --strict refuses it."""
    from cardkit.cli import main
    from click.testing import CliRunner

    deck = _deck_with(tmp_path, ICON_FACE, '  - {text: "Go {badge} now"}\n'
                      '  - {text: "Two {badge}"}', fonts=True)
    (tmp_path / "icons").mkdir()
    (tmp_path / "icons" / "badge.svg").write_text(FALLBACK_BADGE, encoding="utf-8")
    result = build(deck)
    assert [str(w) for w in result.warnings] == [
        f"{tmp_path / 'icons' / 'badge.svg'}: icon 'badge' has text in font family "
        "'Gentium Book', which the deck has no font of: it prints in Lato; put the family's "
        "TTF or OTF in the deck's fonts/ folder, or turn the text into paths (Inkscape: "
        "Path > Object to Path)"]
    faces = _faces(result.path)
    assert (faces["Wager"], faces["Twice"]) == ("Lato-Regular", "Lato-Regular")
    run = CliRunner().invoke(main, ["validate", str(deck), "--strict"])
    assert run.exit_code == 2 and "icon 'badge' has text in font family 'Gentium Book'" \
        in run.output
