"""Styled spans (issue 43): a deck's named text styles, set inline as ``{keyword: Strike}``,
nesting with bold, italic, icons and each other, in any language; what the PDF shows is
read back with PDFium (each character's size and colour)."""

from __future__ import annotations

import ctypes
from pathlib import Path

import pypdfium2 as pdfium
import pypdfium2.raw as raw
from click.testing import CliRunner

from cardkit.assets.catalog import BUNDLED, TextStyle
from cardkit.assets.fonts import string_width
from cardkit.cli import main
from cardkit.deck.languages import in_language
from cardkit.deck.loader import load_deck
from cardkit.deck.properties import KINDS
from cardkit.render.paint import Resolved, translucent
from cardkit.render.textfit import fit_text
from cardkit.render.textmarkup import words
from cardkit.sources.checks import parse_colour
from conftest import write_deck

ROOT = Path(__file__).resolve().parent.parent
RED = (168, 67, 42)
STYLES = BUNDLED.styled({
    "keyword": TextStyle(colour="red", case="upper", scale=0.8),
    "aside": TextStyle(font="Lato-Italic", scale=0.5)})


def test_a_span_sets_its_words_in_the_style():
    runs = words("Then {keyword: strike twice} now", "Lato", STYLES)
    assert [(r.text, r.style is not None) for r in runs] == [
        ("Then", False), ("STRIKE", True), ("TWICE", True), ("now", False)]
    assert runs[1].unit_width() == string_width("STRIKE", "Lato", 1000) * 0.8


def test_spans_nest_with_bold_italic_icons_and_each_other():
    runs = words("{keyword: **Storm** {heart} and {aside: calm}}", "Lato", STYLES)
    storm, heart, _, calm = runs
    assert (storm.text, storm.font, storm.style.scale) == ("STORM", "Lato-Bold", 0.8)
    assert heart.icon is not None and heart.style.colour == "red"
    # the inner span: its own font and size within the outer one's colour and case
    assert (calm.text, calm.font, calm.style.colour) == ("CALM", "Lato-Italic", "red")
    assert calm.style.scale == 0.8 * 0.5


def test_a_span_in_a_translucent_colour_makes_its_text_translucent():
    """As PDF/X output must know, to flatten it (a PDF/X-1a file holds no transparency)."""
    assets = BUNDLED.styled({"faint": TextStyle(colour=parse_colour("#ff000080")),
                                           "red": TextStyle(colour=parse_colour("red"))})
    props = dict(KINDS["text"])
    for text, clear in (("a {faint: b}", True), ("a {red: b}", False), ("a b", False)):
        block = fit_text(text, "Lato", 500, 100, 10, assets=assets)
        assert translucent(Resolved(None, props, text=block)) is clear, text


def test_a_styled_line_is_measured_as_drawn():
    block = fit_text("a {keyword: bc} d", "Lato", 500, 100, 10, assets=STYLES)
    [line] = block.lines
    space = string_width(" ", "Lato", 10)
    expected = string_width("a", "Lato", 10) + space * (1 + 0.8) + \
        string_width("BC", "Lato", 8) + string_width("d", "Lato", 10)
    assert line.width == expected


DECK = """\
name: styled
size: poker
front: face
languages: [en, de]
styles:
  keyword: {{colour: "#a8432a", size: 80%, case: upper}}
backs:
  plain: {{layout: face}}
fields: {{text: text}}
cards:
  - text: "{text}"
    text_de: "{text_de}"
"""
FACE = """\
elements:
  - {name: body, kind: text, box: [5mm, 10mm, 53mm, 40mm], text: "{text}", size: 10pt}
"""


def build(tmp_path, text="Then {keyword: strike}.", text_de="Dann {keyword: zuschlagen}.",
          *args):
    path = write_deck(tmp_path, DECK.format(text=text, text_de=text_de), {"face": FACE})
    out = tmp_path / "out"
    return CliRunner().invoke(main, ["build", str(path), "--out", str(out), *args]), out


def characters(pdf: Path) -> list[tuple[str, float, tuple]]:
    """Each character of the first page's text: (it, its size, its fill colour)."""
    doc = pdfium.PdfDocument(str(pdf))
    try:
        page = doc[0].get_textpage()
        found = []
        for i in range(page.count_chars()):
            rgba = [ctypes.c_uint() for _ in range(4)]
            raw.FPDFText_GetFillColor(page.raw, i, *(ctypes.byref(c) for c in rgba))
            found.append((page.get_text_range(i, 1),
                          round(raw.FPDFText_GetFontSize(page.raw, i), 2),
                          tuple(c.value for c in rgba[:3])))
        return found
    finally:
        doc.close()


def test_a_styled_span_prints_in_its_colour_size_and_case_in_every_language(tmp_path):
    result, out = build(tmp_path, "Then {keyword: strike}.", "Dann {keyword: zuschlagen}.",
                        "--lang", "all")
    assert result.exit_code == 0, result.output
    for lang, word, plain in (("en", "STRIKE", "Then"), ("de", "ZUSCHLAGEN", "Dann")):
        chars = characters(next(out.rglob(f"*-{lang}-pnp-a4.pdf")))
        text = "".join(c for c, _, _ in chars)
        start = text.index(word)
        styled = chars[start:start + len(word)]
        assert {(size, colour) for _, size, colour in styled} == {(8.0, RED)}
        before = chars[text.index(plain)]
        assert (before[1], before[2]) == (10.0, (0, 0, 0))
        full_stop = chars[start + len(word)]
        assert full_stop[0] == "." and full_stop[1:] == (10.0, (0, 0, 0))


def test_an_unknown_style_is_one_message_naming_it_with_the_fix(tmp_path):
    result, _ = build(tmp_path, "Then {keywrd: strike}.")
    assert result.exit_code == 2
    assert "'{keywrd: ...}' in the text sets words in text style 'keywrd', which the deck " \
        "does not have; did you mean 'keyword'?" in result.output
    assert "cardkit: 1 problem in" in result.output
    result, _ = build(tmp_path / "icon", "Then {keyword}.")
    assert result.exit_code == 2
    assert "'{keyword}' in the text names a text style, not an icon; write the words to " \
        "set in it after a colon: '{keyword: Strike}'" in result.output


def test_a_style_the_deck_cannot_use_is_reported_where_it_is_written(tmp_path):
    path = write_deck(tmp_path, DECK.format(text="x", text_de="y").replace(
        "size: 80%", "size: 120%"), {"face": FACE})
    result = CliRunner().invoke(main, ["validate", str(path)])
    assert result.exit_code == 2
    assert "deck.yaml:6:" in result.output
    assert "style 'keyword': size: '120%' is not a percentage from 50% to 100%" in \
        result.output


def test_every_kind_of_card_in_the_example_deck_has_a_styled_span():
    deck = load_deck(ROOT / "examples" / "lantern-market" / "deck.yaml")
    assert set(deck.cards[0].front.assets.text_styles) == {"keyword"}
    for lang in ("en", "de"):
        cards = in_language(deck, lang).cards
        styled = {original.fields["kind"] for original, card in zip(deck.cards, cards)
                  if "{keyword:" in card.fields["text"]}
        assert styled == {card.fields["kind"] for card in deck.cards} == \
            {"good", "guard", "event"}
