"""Live text in SVG art (issue 37.18): the face it prints in is read back from the PDF, per
word, by the font the PDF's text operators name for it."""

from __future__ import annotations

import pypdf

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


def test_right_to_left_svg_text_is_refused_naming_the_file_the_text_and_the_fix(tmp_path):
    """A title set in Inkscape in Hebrew printed left to right, unjoined, silently: it is
    refused like a card field in Hebrew, exit code 2, with the file, the text and the fix.
    Left-to-right text in the same file is fine."""
    from click.testing import CliRunner

    from cardkit.cli import main

    deck = _deck_with(tmp_path, FACE)
    svg = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 120"><text x="5" '
           'y="15">Market</text><text x="5" y="40">%s</text></svg>')
    (tmp_path / "art.svg").write_text(svg % "שוק הפנסים", encoding="utf-8")
    result = CliRunner().invoke(main, ["build", str(deck), "--out", str(tmp_path / "out")])
    assert result.exit_code == 2, result.output
    assert "image 'art.svg' has text in Hebrew, a right-to-left script, 'שוק הפנסים': " \
           "cardkit cannot set it yet" in result.output
    assert "convert the text to paths (Inkscape: Path > Object to Path" in result.output
    assert "Traceback" not in result.output and not (tmp_path / "out").exists()
    (tmp_path / "art.svg").write_text(svg % "سوق", encoding="utf-8")
    result = CliRunner().invoke(main, ["validate", str(deck)])
    assert result.exit_code == 2 and "has text in Arabic script" in result.output
    (tmp_path / "art.svg").write_text(svg % "Lanterns", encoding="utf-8")
    assert CliRunner().invoke(main, ["validate", str(deck)]).exit_code == 0
