"""The words every page writes of its own (sheet and token footers, the box's legend and
faces, a board's footers and page map, the rulebook's footers) are set as cards' texts
are (issue 61): in the font's kerning, a Hebrew or Arabic deck title right to left and
joined, in the first of the deck's fonts that has its letters.

Checked from the built PDFs: pdfplumber (pdfminer) for where each character stands,
fontTools for the font's own kerning, PDFium for the text read back and searched.

A deck's words put into a line of the page's own (a title before its version) are an
isolate: ordered on their own, the line's words keeping theirs; the order is checked
against the Rust unicode-bidi (python-bidi's ``get_display``), which has isolates.
"""

from __future__ import annotations

import shutil
import unicodedata
from pathlib import Path

import pdfplumber
import pypdf
import pypdfium2 as pdfium
import pytest
from bidi import get_display
from click.testing import CliRunner
from fontTools.ttLib import TTFont
from hypothesis import given, settings
from hypothesis import strategies as st

from cardkit.assets.shaping import ISOLATE_MARKS, levels, visual_order
from cardkit.cli import main
from conftest import RIGHT_TO_LEFT_FONT, font_file, harfbuzz_forms, write_deck
from test_scripts import DECK, FACE, FONT, built_with_font, gpos_kerning, rows
from test_stamps import run, versioned

LANTERN = Path(__file__).resolve().parents[1] / "examples" / "lantern-market"
HEBREW = "שוק הפנסים"
ARABIC = "سوق الفوانيس"
# each surface: the command that writes it, and the file its page of the title is in
SURFACES = {
    "sheet footer": (["build"], "lantern-market-pnp-a4.pdf", 0),
    "token footer": (["tokens"], "lantern-market-tokens-a4.pdf", 0),
    "box legend and faces": (["box"], "lantern-market-box-a4.pdf", 0),
    "board page map": (["board"], "lantern-market-board-street-a4.pdf", 0),
    "board footer": (["board"], "lantern-market-board-street-a4.pdf", 1),
    "rulebook footer": (["rulebook"], "lantern-market-rules-a4.pdf", 0),
}


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """The lantern-market example titled ``title``, with DejaVu Sans (Hebrew, Arabic) in
    its fonts/ folder, built by every command that writes its title: surface -> (PDF,
    page number)."""
    made: dict[str, dict] = {}

    def build(title: str) -> dict[str, tuple[Path, int]]:
        if title in made:
            return made[title]
        folder = tmp_path_factory.mktemp("deck") / "lantern-market"
        shutil.copytree(LANTERN, folder)
        deck = folder / "deck.yaml"
        deck.write_text(deck.read_text(encoding="utf-8").replace(
            "title: Lantern Market", f'title: "{title}"'), encoding="utf-8")
        (folder / "fonts").mkdir(exist_ok=True)
        shutil.copy(RIGHT_TO_LEFT_FONT, folder / "fonts")
        (folder / "rules.md").write_text("# Rules\n\nDraw a card.\n", encoding="utf-8")
        out = folder.parent / "out"
        for command in {tuple(command) for command, _, _ in SURFACES.values()}:
            result = CliRunner().invoke(main, [*command, str(folder), "--out", str(out)])
            assert result.exit_code == 0, result.output
            assert "no glyph" not in result.output, result.output
        made[title] = {surface: (next(out.rglob(name)), page)
                       for surface, (_, name, page) in SURFACES.items()}
        return made[title]

    return build


def lines_with(pdf: Path, page: int, letters: str) -> list[list[dict]]:
    """The lines of a page set the right way up (not turned, as a box's lid is) that have
    any of ``letters``, each line's characters left to right as pdfplumber places them."""
    with pdfplumber.open(pdf) as document:
        chars = [char for char in document.pages[page].chars
                 if char["upright"] and char["matrix"][0] > 0]
    lines: dict[int, list] = {}
    for char in chars:  # by its baseline (its top is its font's ascent above it)
        lines.setdefault(-round(char["matrix"][5]), []).append(char)
    return [sorted(line, key=lambda c: c["x0"]) for _, line in sorted(lines.items())
            if any(char["text"].strip() and char["text"] in letters for char in line)]


def searches(pdf: Path, page: int, phrase: str) -> bool:
    document = pdfium.PdfDocument(str(pdf))
    try:
        return document[page].get_textpage().search(phrase).get_next() is not None
    finally:
        document.close()


@pytest.mark.parametrize("surface", SURFACES)
def test_a_hebrew_title_reads_from_the_right_on_every_surface(built, surface):
    pdf, page = built(HEBREW)[surface]
    lines = lines_with(pdf, page, HEBREW)
    assert lines, f"no Hebrew on the {surface}"
    for line in lines:
        hebrew = "".join(char["text"] for char in line if char["text"] in HEBREW + " ")
        # left to right on the page: the title's last letter first, its first rightmost,
        # and each letter drawn in Hebrew's font (Lato has none)
        assert hebrew.strip() == HEBREW[::-1], (surface, hebrew)
        assert all("DejaVu" in char["fontname"] for char in line
                   if char["text"].strip() and char["text"] in HEBREW)
    assert searches(pdf, page, HEBREW)


@pytest.mark.parametrize("surface", ["sheet footer", "box legend and faces", "rulebook footer"])
def test_an_arabic_title_is_joined_and_reads_as_written(built, surface):
    pdf, page = built(ARABIC)[surface]
    [line, *_] = lines_with(pdf, page, "\ufe8d\ufe8e\ufedf\ufee0\ufe9f" + ARABIC)
    # DejaVu maps its joined forms to Unicode's presentation forms: the glyphs drawn, left
    # to right, are HarfBuzz's for the title's words, the last word leftmost
    expected = " ".join(harfbuzz_forms(word, RIGHT_TO_LEFT_FONT.stem)
                        for word in ARABIC.split()[::-1])
    drawn = "".join(char["text"] for char in line if "DejaVu" in char["fontname"]).strip()
    assert drawn == expected
    assert drawn != ARABIC[::-1]  # joined, not the letters on their own
    assert searches(pdf, page, ARABIC)


@pytest.mark.parametrize("surface", ["sheet footer", "token footer", "box legend and faces",
                                     "board page map", "board footer"])
def test_to_and_av_in_a_title_are_kerned_by_the_fonts_own_value(built, surface):
    pdf, page = built("To AV Torch")[surface]
    checked = 0
    with pdfplumber.open(pdf) as document:
        chars = [c for c in document.pages[page].chars if c["upright"]]
    # (the rulebook's footer is in the deck's body font, Gentium Basic, which has no kerning)
    font = TTFont(font_file("Lato"))
    cmap, upem = font.getBestCmap(), font["head"].unitsPerEm
    drawn = [c for c in chars if c["fontname"].endswith("+Lato-Regular")]
    for left, right in (("T", "o"), ("A", "V")):
        kern = gpos_kerning(font, cmap[ord(left)], cmap[ord(right)])
        advance = font["hmtx"][cmap[ord(left)]][0]
        for a, b in zip(drawn, drawn[1:]):
            if (a["text"], b["text"]) != (left, right) or a["top"] != b["top"]:
                continue
            assert kern < 0
            size = a["size"]
            assert b["x0"] - a["x0"] == pytest.approx((advance + kern) * size / upem,
                                                      abs=0.01), (surface, left, right)
            checked += 1
    assert checked >= 2, surface


@pytest.mark.parametrize("title", [HEBREW, ARABIC])
def test_pdfminer_and_pypdf_read_a_right_to_left_title_each_in_its_own_way(built, title):
    """A right-to-left phrase in a left-to-right line is marked with the words it stands
    for (/ActualText), which PDFium reads (the tests above search it). pdfminer and pypdf
    share no code with PDFium and ignore /ActualText; from the glyphs' own characters
    (their ToUnicode) each reads the footer's title as it says it does:

    - pypdf puts a run of right-to-left letters back in the order written itself: it
      reads the title as written (Arabic in its joined forms, which NFKC turns back into
      the letters);
    - pdfminer (pdfplumber) reorders nothing: it reads the letters in the order they are
      drawn, left to right, the title's last letter first; the bidirectional algorithm
      (python-bidi) turns its line back into the title as written."""
    pdf, page = built(title)["sheet footer"]

    def footer(text: str) -> str:
        [line] = [line for line in text.splitlines() if "print at 100%" in line]
        return unicodedata.normalize("NFKC", line)

    read_by_pypdf = footer(pypdf.PdfReader(pdf).pages[page].extract_text())
    assert title in read_by_pypdf
    with pdfplumber.open(pdf) as document:
        read_by_pdfminer = footer(document.pages[page].extract_text())
    assert read_by_pdfminer.startswith(title[::-1] + " · version 1.0 · ")
    assert get_display(read_by_pdfminer, base_dir="L").startswith(title + " · version")


NUMBERED = "7 פלאים"  # a title that starts with a number, as '7 Wonders' does


@pytest.mark.parametrize("surface", SURFACES)
def test_a_hebrew_title_keeps_its_number_on_every_surface(built, surface):
    """The title is ordered on its own, right to left as its first letter says: its
    number, first, is read first from the right, left of its Hebrew on the page (it
    stood right of it, read after the Hebrew, in the line's left-to-right order)."""
    pdf, page = built(NUMBERED)[surface]
    lines = lines_with(pdf, page, "פלאים")
    assert lines, f"no Hebrew on the {surface}"
    for line in lines:
        drawn = "".join(char["text"] for char in line)
        assert "םיאלפ 7" in drawn, (surface, drawn)


def test_the_changes_heading_keeps_a_hebrew_titles_version_after_its_colon(tmp_path):
    """'שוק הפנסים: 1.0 -> 1.1' on the changes sheet was drawn '1.1 <- 1.0 :שוק הפנסים'
    (the whole line right to left: the versions read before the title): the title is
    an isolate, the line's words left to right after it. pdfplumber places the glyphs."""
    decks = []
    for name, version in (("old", "1.0"), ("new", "1.1")):
        deck = versioned(tmp_path / name, version)
        yaml = deck / "deck.yaml"
        yaml.write_text(yaml.read_text(encoding="utf-8").replace(
            "title: Lantern Market", f'title: "{HEBREW}"'), encoding="utf-8")
        (deck / "fonts").mkdir(exist_ok=True)
        shutil.copy(RIGHT_TO_LEFT_FONT, deck / "fonts")
        decks.append(deck)
    run("diff", *decks, "--sheet", tmp_path / "changes.pdf")
    [heading, *_] = lines_with(tmp_path / "changes.pdf", 0, HEBREW)
    assert "".join(char["text"] for char in heading) == HEBREW[::-1] + ": 1.0 -> 1.1"
    # the title's letters left of the colon, each in the font that has them
    assert all("DejaVu" in char["fontname"] for char in heading[:len(HEBREW)])
    # PDFium reads a line right to left when it has more runs of right-to-left letters
    # than of Latin ones (this one has two and none): it reads the line printed as the
    # same line written right to left, the title as written (docs/playtest-rounds.md)
    document = pdfium.PdfDocument(str(tmp_path / "changes.pdf"))
    try:
        read = document[0].get_textpage().get_text_range().splitlines()[0]
    finally:
        document.close()
    assert read == "1.1 <- 1.0 :" + HEBREW


# Latin and Hebrew letters, digits, separators and the isolates' marks; no brackets (the
# oracle mirrors them, and cardkit mirrors them as it shapes)
BIDI_TEXT = st.text(alphabet="abשת12 .:-" + ISOLATE_MARKS, min_size=1, max_size=14)


@settings(max_examples=400, deadline=None)
@given(BIDI_TEXT, st.booleans())
def test_isolates_order_a_line_as_the_rust_unicode_bidi_does(text, rtl):
    """The levels cardkit gives a line with isolates (python-bidi's Python algorithm
    has none) put its characters in the order the Rust unicode-bidi does. The line ends
    in a letter of its direction: trailing spaces go to the paragraph's level (rule L1),
    which the Rust one applies and a line's drawing has no need of."""
    text += "ת" if rtl else "b"
    ours = "".join(text[i] for i in visual_order(levels(text, rtl)))
    theirs = get_display(text, base_dir="R" if rtl else "L")
    unmarked = str.maketrans("", "", ISOLATE_MARKS)
    assert ours.translate(unmarked) == theirs.translate(unmarked)


def test_a_cards_right_to_left_line_with_isolates_is_ordered_by_them(tmp_path):
    """Card text with isolate marks in a Hebrew line stopped the build with an internal
    error (python-bidi's Python algorithm asserts on them), or named the marks as
    characters the font has no glyph for: the line is ordered as the Rust unicode-bidi
    orders it, the marks drawing nothing."""
    title = "לפיד \u2066Torch 12\u2069 ישן"
    deck = write_deck(tmp_path, DECK.format(title=title),
                      {"face": FACE.format(font=FONT, align="start")})
    pdf, said = built_with_font(tmp_path, deck, RIGHT_TO_LEFT_FONT, "en")
    assert "warning" not in said
    [line] = [line for line in rows(pdf) if any(char["text"] == "T" for char in line)]
    expected = get_display(title).translate(str.maketrans("", "", ISOLATE_MARKS))
    assert "".join(char["text"] for char in line) == expected
    assert expected.index("Torch 12") > expected.index("ןשי")  # the isolate in its place
