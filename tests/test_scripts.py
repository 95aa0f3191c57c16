"""Text in every script, set as a typesetter sets it (issue 61): the font's kerning,
Hebrew and Arabic right to left with Arabic letters joined, and the page still
reading as the text written.

Checked from the built PDF with libraries that share no code with the shaper (HarfBuzz,
through reportlab): pdfplumber (pdfminer) for where each character stands, fontTools for
the font's own kerning and the outlines of the glyphs embedded, PDFium for the text read
back and searched. HarfBuzz itself is the oracle only for which glyphs an Arabic word takes.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pdfplumber
import pypdfium2 as pdfium
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from click.testing import CliRunner
from fontTools.pens.recordingPen import DecomposingRecordingPen
from fontTools.ttLib import TTFont
from pdfminer.converter import PDFLayoutAnalyzer
from pdfminer.pdfinterp import PDFPageInterpreter, PDFResourceManager
from pdfminer.pdfpage import PDFPage
from pypdf import PdfReader

from cardkit.cli import main
from cardkit.common.units import MM
from conftest import (CJK_FONT, KOREAN_FONT, RIGHT_TO_LEFT_FONT, font_file, harfbuzz_glyphs,
                      write_deck)

FONT = RIGHT_TO_LEFT_FONT.stem

DECK = """\
name: scripts
size: poker
front: face
languages: [en, he, ar]
backs:
  plain: {{layout: face}}
fields: {{title: text, text: text}}
cards:
  - title: "{title}"
    title_he: "לפיד"
    title_ar: "مشعل"
    text: "Draw two cards (then discard one). Costs 3 gold."
    text_he: "שלפו שני קלפים (ואז השליכו אחד). עולה 3 זהב, כמו Torch."
    text_ar: "اسحب بطاقتين ثم تخلص من واحدة. الكلفة 3 ذهب، مثل Torch."
"""
FACE = """\
elements:
  - {{name: title, kind: text, box: [5mm, 5mm, 53mm, 12mm], text: "{{title}}", size: 11pt,
     align: {align}, font: {font}}}
  - {{name: body, kind: text, box: [5mm, 20mm, 53mm, 40mm], text: "{{text}}", size: 11pt,
     align: {align}, font: {font}}}
"""


def build(tmp_path, lang: str = "en", title: str = "To", font: str = FONT,
          align: str = "start"):
    """The first page of the deck built in ``lang``."""
    path = write_deck(tmp_path, DECK.format(title=title),
                      {"face": FACE.format(font=font, align=align)})
    return built_with_font(tmp_path, path, RIGHT_TO_LEFT_FONT, lang)[0]


def built_with_font(tmp_path, path, font_file, lang):
    """The first PDF of the deck at ``path`` built in ``lang`` with ``font_file`` in its
    fonts folder, and what the build said."""
    (tmp_path / "fonts").mkdir(exist_ok=True)
    shutil.copy(font_file, tmp_path / "fonts")
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["build", str(path), "--out", str(out), "--lang", lang])
    assert result.exit_code == 0, result.output
    [pdf] = out.rglob(f"*-{lang}-pnp-a4.pdf")
    return pdf, result.output


def rows(pdf) -> list[list[dict]]:
    """The characters of the first page, by line (top to bottom), each line left to right,
    as pdfplumber places them."""
    with pdfplumber.open(pdf) as document:
        chars = document.pages[0].chars
    lines: dict[int, list] = {}
    for char in chars:
        lines.setdefault(round(char["top"]), []).append(char)
    return [sorted(line, key=lambda c: c["x0"]) for _, line in sorted(lines.items())]


def gpos_kerning(font: TTFont, left: str, right: str) -> int:
    """The x-advance adjustment the font's 'kern' feature makes between two glyphs, in
    font units, read from its GPOS pair positioning with fontTools."""
    gpos = font["GPOS"].table
    lookups = {index for record in gpos.FeatureList.FeatureRecord
               if record.FeatureTag == "kern" for index in record.Feature.LookupListIndex}
    for index in sorted(lookups):
        for table in gpos.LookupList.Lookup[index].SubTable:
            table = getattr(table, "ExtSubTable", table)
            if getattr(table, "LookupType", 2) != 2 or left not in table.Coverage.glyphs:
                continue
            if table.Format == 1:
                pairs = table.PairSet[table.Coverage.glyphs.index(left)].PairValueRecord
                for pair in pairs:
                    if pair.SecondGlyph == right:
                        return getattr(pair.Value1, "XAdvance", 0) or 0
            else:
                first = table.ClassDef1.classDefs.get(left, 0)
                second = table.ClassDef2.classDefs.get(right, 0)
                value = table.Class1Record[first].Class2Record[second].Value1
                if value is not None and getattr(value, "XAdvance", 0):
                    return value.XAdvance
    return 0


def test_to_in_lato_is_kerned_by_the_fonts_own_value(tmp_path):
    pdf = build(tmp_path, title="To", font="Lato", align="left")
    [t, o] = rows(pdf)[0]
    assert (t["text"], o["text"]) == ("T", "o") and t["size"] == pytest.approx(11)
    lato = TTFont(font_file("Lato"))
    cmap = lato.getBestCmap()
    kern = gpos_kerning(lato, cmap[ord("T")], cmap[ord("o")])
    advance = lato["hmtx"][cmap[ord("T")]][0]
    upem = lato["head"].unitsPerEm
    assert kern < 0 and -kern * 11 / upem > 0.2 * MM  # the 0.2-0.5 mm, so worth it
    assert o["x0"] - t["x0"] == pytest.approx((advance + kern) * 11 / upem, abs=0.01)


def test_ligatures_are_drawn_and_read_as_written_in_every_reader(tmp_path):
    """Kerning moves glyphs; the font's ligatures (Lato's 'ffi', 'tt') join letters into one
    glyph, which reads back as its letters: in PDFium (which reads /ActualText) and in
    pdfminer (which reads only the fonts' ToUnicode maps, where reportlab's map read
    'wri\ue000en' for 'written')."""
    pdf = build(tmp_path, title="Office written To", font="Lato", align="left")
    glyphs = rows(pdf)[0]
    assert "".join(char["text"] for char in glyphs) == "Office written To"
    # one glyph for 'ffi', one for 'tt': three fewer glyphs than letters
    assert len(glyphs) == len("Office written To") - 2 - 1
    assert [char["text"] for char in glyphs[:4]] == ["O", "ffi", "c", "e"]
    document = pdfium.PdfDocument(str(pdf))
    try:
        page = document[0].get_textpage()
        assert page.get_text_range().startswith("Office written To")
        assert page.search("written").get_next() is not None
        assert page.search("Office").get_next() is not None
    finally:
        document.close()


def test_a_hebrew_word_reads_from_the_right(tmp_path):
    pdf = build(tmp_path, "he")
    title, first, second = rows(pdf)[:3]
    # left to right on the page: the word's last letter first, its first letter rightmost
    assert "".join(char["text"] for char in title) == "לפיד"[::-1]
    line = "".join(char["text"] for char in first)
    # the words of the line in reading order, right to left
    assert line.split()[::-1][:3] == ["שלפו"[::-1], "שני"[::-1], "קלפים"[::-1]]
    # '(ואז': the bracket that opens before the word, to its right, drawn mirrored
    assert "זאו)" in line.split()
    # an English word in Hebrew text reads left to right, the full stop at the line's left
    assert "".join(char["text"] for char in second).startswith(".Torch ")


def test_right_to_left_text_is_set_against_the_right_edge(tmp_path):
    pdf = build(tmp_path, "he")
    title, first, second = rows(pdf)[:3]
    right = max(char["x1"] for char in first)
    assert max(char["x1"] for char in title) == pytest.approx(right, abs=0.6)
    assert max(char["x1"] for char in second) == pytest.approx(right, abs=0.6)
    left = rows(build(tmp_path / "left", "he", align="left"))
    assert min(char["x0"] for char in left[0]) < min(char["x0"] for char in title) - 20
    assert max(char["x1"] for char in left[0]) < right - 20


def embedded_outlines(pdf) -> dict[str, dict[str, list]]:
    """Each embedded font subset's glyph outlines by character code: subset name -> {code
    (a one-character string) -> the outline, its components decomposed}."""
    found = {}
    for page in PdfReader(pdf).pages:
        for font in page["/Resources"]["/Font"].values():
            font = font.get_object()
            descriptor = font["/FontDescriptor"].get_object()
            data = descriptor["/FontFile2"].get_object().get_data()
            subset = TTFont(__import__("io").BytesIO(data))
            glyphs = subset.getGlyphSet()
            outlines = {}
            for table in subset["cmap"].tables:
                for code, name in table.cmap.items():
                    pen = DecomposingRecordingPen(glyphs)
                    glyphs[name].draw(pen)
                    outlines[chr(code & 0xFF)] = pen.value
            found[str(font["/BaseFont"])[1:]] = outlines
    return found


class _Codes(PDFLayoutAnalyzer):
    """pdfminer's reading of a page, keeping each character's code in its font."""

    def __init__(self, manager):
        super().__init__(manager)
        self.drawn: list[tuple[str, int, float]] = []  # (font, code, x)

    def render_char(self, matrix, font, fontsize, scaling, rise, cid, ncs, graphicstate):
        self.drawn.append((font.fontname, cid, matrix[4], matrix[5]))
        return super().render_char(matrix, font, fontsize, scaling, rise, cid, ncs,
                                   graphicstate)


def test_arabic_letters_are_drawn_in_harfbuzzs_joined_forms(tmp_path):
    import uharfbuzz

    pdf = build(tmp_path, "ar")
    manager = PDFResourceManager()
    reader = _Codes(manager)
    with open(pdf, "rb") as file:
        page = next(PDFPage.get_pages(file))
        PDFPageInterpreter(manager, reader).process_page(page)
    top = max(y for _, _, _, y in reader.drawn)
    title = sorted((x, font, code) for font, code, x, y in reader.drawn if y == top)
    outlines = embedded_outlines(pdf)
    drawn = [outlines[font][chr(code)] for _, font, code in title]
    # HarfBuzz's own glyphs for the word, left to right, from the font file
    original = TTFont(RIGHT_TO_LEFT_FONT)
    face = uharfbuzz.Face(RIGHT_TO_LEFT_FONT.read_bytes())
    buffer = uharfbuzz.Buffer()
    buffer.add_str("مشعل")
    buffer.guess_segment_properties()
    uharfbuzz.shape(uharfbuzz.Font(face), buffer, {})
    order = original.getGlyphOrder()
    names = [order[info.codepoint] for info in buffer.glyph_infos]
    glyphs = original.getGlyphSet()

    def outline(name):
        pen = DecomposingRecordingPen(glyphs)
        glyphs[name].draw(pen)
        return pen.value

    assert drawn == [outline(name) for name in names]
    # and they are joined forms, not the letters' isolated ones
    isolated = [outline(original.getBestCmap()[ord(letter)]) for letter in "مشعل"[::-1]]
    assert sum(a != b for a, b in zip(drawn, isolated)) >= 3


@pytest.mark.parametrize("lang, words", [
    ("he", ["לפיד", "שלפו שני קלפים", "(ואז", "כמו Torch."]),
    ("ar", ["مشعل", "اسحب بطاقتين", "الكلفة 3", "مثل"])])
def test_right_to_left_text_reads_and_searches_as_written(tmp_path, lang, words):
    pdf = build(tmp_path, lang)
    document = pdfium.PdfDocument(str(pdf))
    try:
        page = document[0].get_textpage()
        for phrase in words:
            assert page.search(phrase).get_next() is not None, (phrase, page.get_text_range())
    finally:
        document.close()


def test_punctuation_after_a_joined_arabic_word_reads_after_it(tmp_path):
    """'واحدة.' and 'ذهب،' read '.واحدة' and '،ذهب' in PDFium: the word's joined letters
    were marked with the letters they stand for (/ActualText) together with the stop or
    comma drawn beside them, and PDFium read the mark's punctuation at its other end. The
    punctuation is drawn outside the mark; the glyphs stand where they stood: pdfminer's
    line, its presentation forms made letters again (NFKC), is the written line laid out
    right to left by python-bidi's get_display."""
    import unicodedata

    from bidi import get_display

    written = "واحدة. الكلفة 3 ذهب، مثل"
    pdf = build(tmp_path, "ar")
    document = pdfium.PdfDocument(str(pdf))
    try:
        read = document[0].get_textpage().get_text_range()
    finally:
        document.close()
    assert written in read.splitlines(), read
    drawn = ["".join(char["text"] for char in line) for line in rows(pdf)]
    assert get_display(written, base_dir="R") in [unicodedata.normalize("NFKC", line)
                                                  for line in drawn]


@pytest.mark.parametrize("lang", ["he", "ar"])
def test_the_every_script_cards_right_to_left_paragraph_reads_as_written(tmp_path, lang):
    """PDFium read the bundled card's last line 'זהב, כמו Lantern.' as ' כמו ,זהבLantern.'
    (and its Arabic twin likewise): a line with more Hebrew words than Latin ones was
    tagged as a right-to-left phrase in a left-to-right line by its letters (Latin ones the
    more), but PDFium reads a line right to left when it has more runs of right-to-left
    letters, and misplaced the comma the tag held. Each line of the paragraph, joined,
    is the deck's text as written."""
    import yaml

    example = Path(__file__).resolve().parents[1] / "examples" / "every-script"
    shutil.copytree(example, tmp_path / "deck")
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["build", str(tmp_path / "deck" / "deck.yaml"),
                                       "--out", str(out), "--lang", lang])
    assert result.exit_code == 0, result.output
    [pdf] = out.rglob(f"*-{lang}-pnp-a4.pdf")
    written = yaml.safe_load((example / "deck.yaml").read_text(encoding="utf-8"))[
        "cards"][0][f"text_{lang}"]
    document = pdfium.PdfDocument(str(pdf))
    try:
        lines = document[0].get_textpage().get_text_range().splitlines()
    finally:
        document.close()
    assert " ".join(lines[1:-1]) == written, lines


def test_right_to_left_languages_are_accepted(tmp_path):
    path = write_deck(tmp_path, DECK.format(title="To").replace(
        "[en, he, ar]", "[en, he, ar, fa]\nmissing_translation: original"),
        {"face": FACE.format(font=FONT, align="start")})
    (tmp_path / "fonts").mkdir()
    shutil.copy(RIGHT_TO_LEFT_FONT, tmp_path / "fonts")
    result = CliRunner().invoke(main, ["validate", str(path)])
    assert result.exit_code == 0, result.output
    assert "cannot set" not in result.output


def test_a_font_without_hebrew_letters_is_named(tmp_path):
    path = write_deck(tmp_path, DECK.format(title="To"),
                      {"face": FACE.format(font="Lato", align="start")})
    result = CliRunner().invoke(main, ["build", str(path), "--out", str(tmp_path / "o"),
                                       "--lang", "he"])
    assert "font Lato has no glyph for 'לפיד'" in result.output


# -- Chinese, Japanese, Korean ---------------------------------------------------------------

CJK_DECK = """\
name: cjk
size: poker
front: face
languages: [ja, zh, ko]
missing_translation: original
backs:
  plain: {{layout: face}}
fields: {{text: text}}
cards:
  - text: "{text}"
    text_zh: "抽两张牌，然后弃一张。「牌堆」用完时，洗混弃牌堆。"
"""
CJK_FACE = """\
elements:
  - {{name: body, kind: text, box: [5mm, 20mm, {width}, {height}], text: "{{text}}",
     size: 11pt, align: left, valign: top, font: {font}{extra}}}
"""
JAPANESE = "カードを二枚引き、一枚を捨てる。「山札」が尽きたら、捨て札を混ぜて新しい山札にする。"


def build_cjk(tmp_path, lang="ja", text=JAPANESE, width="30mm", height="40mm",
              font=CJK_FONT.stem, extra=""):
    path = write_deck(tmp_path, CJK_DECK.format(text=text),
                      {"face": CJK_FACE.format(width=width, height=height, font=font,
                                               extra=extra)})
    return built_with_font(tmp_path, path, CJK_FONT, lang)


@pytest.mark.parametrize("lang, text", [("ja", JAPANESE),
                                        ("zh", "抽两张牌，然后弃一张。「牌堆」用完时，洗混弃牌堆。")])
def test_cjk_text_breaks_between_characters_inside_its_box(tmp_path, lang, text):
    pdf, output = build_cjk(tmp_path, lang)
    assert "warning" not in output
    lines = [line for line in rows(pdf) if line[0]["size"] == pytest.approx(11)]
    assert len(lines) >= 4
    read = ["".join(char["text"] for char in line) for line in lines]
    assert "".join(read) == text  # every character, in order, none lost or added
    left = min(char["x0"] for line in lines for char in line)
    for line in lines:  # each line inside the 30 mm box
        assert max(char["x1"] for char in line) <= left + 30 * MM + 0.01
    # the kinsoku rules: no line starts with a closing mark or a full stop, none ends with
    # an opening bracket
    assert not any(line[0] in "。、」，" for line in read[1:]), read
    assert not any(line[-1] == "「" for line in read), read


def test_cjk_text_shrinks_and_overflows_as_latin_text_does(tmp_path):
    text = JAPANESE * 2
    shrunk, output = build_cjk(tmp_path / "shrunk", text=text, height="25mm",
                               extra=", min_size: 6pt")
    assert "warning" not in output
    sizes = {round(line[0]["size"], 2) for line in rows(shrunk)[:-1]}
    assert len(sizes) == 1 and 6 <= sizes.pop() < 11
    _, output = build_cjk(tmp_path / "over", text=text * 3, height="25mm",
                          extra=", min_size: 8pt")
    assert "text does not fit its box even at 8pt" in output


def test_cjk_languages_are_accepted_and_a_font_without_their_letters_is_named(tmp_path):
    path = write_deck(tmp_path, CJK_DECK.format(text=JAPANESE),
                      {"face": CJK_FACE.format(width="30mm", height="40mm", font="Lato",
                                               extra="")})
    result = CliRunner().invoke(main, ["validate", str(path)])
    assert "cannot set" not in result.output
    assert "font Lato has no glyph for 'カ" in result.output


KOREAN = "카드를 두 장 뽑고, 한 장을 버린다. 「더미」가 다 떨어지면, 버린 카드를 섞어 새 더미를 만든다."


def test_korean_text_is_set_in_its_syllables_and_breaks_inside_its_box(tmp_path):
    """Hangul shapes to one glyph a syllable (the font's own, read back with fontTools) and
    breaks by the Unicode rules between syllables, as Japanese does; no line starts with a
    closing mark."""
    path = write_deck(tmp_path, CJK_DECK.format(text=KOREAN),
                      {"face": CJK_FACE.format(width="30mm", height="40mm",
                                               font=KOREAN_FONT.stem, extra="")})
    pdf, output = built_with_font(tmp_path, path, KOREAN_FONT, "ko")  # the original text
    assert "no glyph" not in output and "does not fit" not in output
    lines = [line for line in rows(pdf) if line[0]["size"] == pytest.approx(11)]
    read = ["".join(char["text"] for char in line) for line in lines]
    assert len(lines) >= 3, read
    assert "".join(read).replace(" ", "") == KOREAN.replace(" ", "")  # none lost or added
    font = TTFont(KOREAN_FONT)
    cmap, upem = font.getBestCmap(), font["head"].unitsPerEm
    for line in lines:  # each syllable one glyph, advanced by the font's own width
        for a, b in zip(line, line[1:]):
            assert len(a["text"]) == 1
            if a["text"] == " ":
                continue  # a space's advance
            assert b["x0"] - a["x0"] == pytest.approx(
                font["hmtx"][cmap[ord(a["text"])]][0] * 11 / upem, abs=0.01)
    left = min(char["x0"] for line in lines for char in line)
    for line in lines:
        assert max(char["x1"] for char in line) <= left + 30 * MM + 0.01
    assert not any(line[0] in "。、」，,." for line in read[1:]), read
    # a font without Hangul is named, with the letters it lacks
    path = write_deck(tmp_path / "droid", CJK_DECK.format(text=KOREAN),
                      {"face": CJK_FACE.format(width="30mm", height="40mm",
                                               font=CJK_FONT.stem, extra="")})
    (tmp_path / "droid" / "fonts").mkdir()
    shutil.copy(CJK_FONT, tmp_path / "droid" / "fonts")
    result = CliRunner().invoke(main, ["validate", str(path)])
    assert result.exit_code == 0, result.output
    assert "font DroidSansFallback-CJK has no glyph for '카드를두장" in result.output


@settings(max_examples=150, deadline=None)
@given(st.text("かなカナ山札枚引。、「」ー", min_size=1, max_size=60), st.floats(12, 80))
def test_no_cjk_line_starts_with_a_closing_mark_nor_ends_with_an_opening_one(text, width):
    from cardkit.render.textfit import fit_text

    block = fit_text(text, "Lato", width, 10_000.0, 10)
    lines = ["".join(run.text for run in line.runs) for line in block.lines]
    assert "".join(lines) == text
    for line in lines[1:]:
        assert line[0] not in "。、」ー", lines
    for line in lines[:-1]:
        assert line[-1] != "「", lines


def test_an_icon_in_hebrew_text_stands_between_its_words_right_to_left(tmp_path):
    path = write_deck(tmp_path, DECK.format(title="To").replace(
        'text_he: "שלפו שני קלפים (ואז', 'text_he: "שלפו שני קלפים {star} (ואז'),
        {"face": FACE.format(font=FONT, align="start")})
    pdf, _ = built_with_font(tmp_path, path, RIGHT_TO_LEFT_FONT, "he")
    line = rows(pdf)[1]
    with pdfplumber.open(pdf) as document:
        page = document.pages[0]
        shapes = [shape for shape in page.curves + page.rects
                  if line[0]["top"] - 2 < shape["top"] < line[0]["bottom"]]
    [star] = shapes
    text = "".join(char["text"] for char in line)
    words = text.split()
    # reading from the right: 'קלפים' (read as drawn: reversed), then the star, then '(ואז'
    cards = text.index("קלפים"[::-1])
    then = text.index("זאו)")
    assert then < cards
    assert line[then + 3]["x1"] <= star["x0"] and star["x1"] <= line[cards]["x0"], words


# Latin text of the lines a card draws: printable ASCII (the fast path's) with Latin-1 and
# Latin Extended-A letters among it (the shaped path's), several spaces and none
LATIN_LINE = st.text(st.characters(min_codepoint=32, max_codepoint=0x17F,
                                   blacklist_categories=("Cc", "Cf")), max_size=30)


def _written(lines, fast: bool, parts: bool = True) -> tuple[str, tuple[float, float],
                                                              list[bool]]:
    """The PDF code of a text object after writing ``lines`` (string, font, whether it ends
    its line) as cardkit writes a card's lines, and where its cursor ends; ``fast``
    False writes every line the shaped way (each word shaped, its kerning written), True
    lets printable ASCII take its fast path. Also whether each line took it, and with
    ``parts`` each part a line with a ligature word is written in."""
    import io
    from unittest import mock

    from reportlab.pdfgen.canvas import Canvas

    from cardkit.assets.fonts import register
    from cardkit.render import textpaint

    canvas = Canvas(io.BytesIO())
    text = canvas.beginText(20, 700)
    text.setLeading(13)
    taken, font_now = [], None
    real = textpaint._written_ascii

    def written_ascii(*args):
        taken.append(fast and real(*args))
        return taken[-1]

    with mock.patch.object(textpaint, "_written_ascii", written_ascii):
        lines_taken = []
        for string, font, last in lines:
            if font != font_now:
                text.setFont(register(font), 10.5, 13)
                font_now = font
            start = len(taken)
            textpaint._write(text, string, font, last)
            lines_taken.append(taken[start])  # the line's own, not its parts'
    return text.getCode(), text.getCursor(), taken if parts else lines_taken


@settings(max_examples=150, deadline=None)
@example([("", "Lato", False), (" tt", "Lato-Black", False), ("0", "Lato", False)])  # parts
@given(st.lists(st.tuples(LATIN_LINE, st.sampled_from(["Lato", "Lato-Black"]), st.booleans()),
                min_size=1, max_size=8))
def test_ascii_lines_are_written_as_the_shaped_path_writes_them(lines):
    """Lines of printable ASCII are written from each word's kerned part of the TJ array,
    made once; the PDF's code is byte for byte what shaping each line writes."""
    fast, cursor, taken = _written(lines, fast=True, parts=False)
    shaped, shaped_cursor, _ = _written(lines, fast=False)
    assert fast == shaped
    assert cursor == shaped_cursor
    for i, ((string, font, _), went) in enumerate(zip(lines, taken)):
        used_before = any(other == font for _, other, _ in lines[:i])
        # a word with a ligature ('ff', 'tt') draws a glyph that is not an ASCII character
        joined = any(harfbuzz_glyphs(word, font) < len(word) for word in string.split())
        if string and string.isascii() and used_before and not joined:
            assert went, string  # its font set up by a line before


def test_accented_words_are_written_from_their_part_kept_for_the_document():
    """A word of other letters ('Blófa', the footer's '·') is written from its part of the
    TJ array, made once in each document with the codes reportlab gave its letters there:
    the code is byte for byte what shaping each line writes, in a document where the
    letters come first in the line, and in one where they were given codes before."""
    lines = [("Play", "Lato", True), ("Blófa · café à deux", "Lato", True),
             ("Tôt · Blófa", "Lato", False), ("ÿ naïve · Blófa", "Lato", True)]
    fast, cursor, taken = _written(lines, fast=True)
    shaped, shaped_cursor, _ = _written(lines, fast=False)
    assert (fast, cursor) == (shaped, shaped_cursor)
    assert taken == [False, True, True, True]
    # '·' by the code this document gave it (the third letter it met), not by its own
    assert "fa \\002 ca" in fast and "\\267" not in fast


def test_words_with_a_ligature_are_written_from_their_part_kept_for_the_document():
    """A word Lato draws with a ligature ('until': 't' and 'i' joined into a glyph of no
    character of its own; 'Office': 'ffi') is written from its part of the TJ array made
    once in each document, in an array of its own marked with its letters (/ActualText):
    the code is byte for byte what shaping each line writes, with such a word first, last,
    alone, twice, among accented words and just after the font is set. A line that does
    not end there (its cursor moved word by word) and a font's first line take the long
    way."""
    lines = [("Play", "Lato", True), ("Draw until the end", "Lato", True),
             ("until you win", "Lato", True), ("wait until", "Lato", True),
             ("until until", "Lato", True), ("Blófa until · café", "Lato", True),
             ("Office", "Lato-Black", True), ("until the Office", "Lato", True),
             ("until now", "Lato", False), ("Office hours", "Lato-Black", True)]
    fast, cursor, taken = _written(lines, fast=True)
    shaped, shaped_cursor, _ = _written(lines, fast=False)
    assert (fast, cursor) == (shaped, shaped_cursor)
    # 'until now' (not the line's end) is written in parts: 'until' the long way
    assert taken == [False, True, True, True, True, True, False, True, False, False, True,
                     True]
    assert fast.count("/ActualText <FEFF0075006E00740069006C>") == 8  # 'until'


class _Forgetful(dict):
    """A table of the fonts' ASCII words that never finds one by ``[]``: a paragraph's next
    lines are then written as its first is."""

    def __getitem__(self, key):
        raise KeyError(key)


def _set(lines: list[str], font: str, xs: list[float], fast: bool) -> tuple[str, list]:
    """The page's code after :func:`set_text` drew a paragraph of ``lines`` (each one plain
    run, starting at the x of ``xs``) twice, its words met the first time; ``fast`` False
    writes every line the shaped way. Also the lines each time wrote through ``_write``."""
    import contextlib
    import io
    from unittest import mock

    from reportlab.lib.colors import HexColor
    from reportlab.pdfgen.canvas import Canvas

    from cardkit.assets.fonts import register
    from cardkit.render import textpaint
    from cardkit.render.textfit import Line, TextBlock
    from cardkit.render.textmarkup import Run

    font = register(font)
    block = TextBlock(10.5, 13.0, tuple(Line((Run(line, font, False),), (0.0,), 50.0)
                                        for line in lines), 8.0, 2.0, True)
    canvas, written, depth = Canvas(io.BytesIO()), [], 0
    real = textpaint._write

    def write(text, string, *args, **kwargs):  # a line's parts are written through it too
        nonlocal depth
        if not depth:
            written[-1].append(string)
        depth += 1
        try:
            return real(text, string, *args, **kwargs)
        finally:
            depth -= 1

    with contextlib.ExitStack() as patches:
        patches.enter_context(mock.patch.object(textpaint, "_write", write))
        # the words met first here, whatever this process drew before
        patches.enter_context(mock.patch.object(textpaint, "_ASCII_WORDS",
                                                {} if fast else _Forgetful()))
        if not fast:
            patches.enter_context(mock.patch.object(textpaint, "_written_ascii",
                                                    lambda *args: False))
        for top in (700.0, 400.0):
            written.append([])
            origins = [(x, top - 13.0 * i) for i, x in enumerate(xs)]
            textpaint.set_text(canvas, block, origins, HexColor("#222222"))
    return " ".join(canvas._code), written


@settings(max_examples=100, deadline=None)
@given(st.lists(LATIN_LINE, min_size=1, max_size=6),
       st.sampled_from(["Lato", "Lato-Black"]), st.booleans())
def test_a_paragraphs_lines_are_written_as_the_shaped_path_writes_them(lines, font, centred):
    """A paragraph's lines, its next lines of ASCII words met before among them, are
    written byte for byte as shaping each line writes them, left-aligned lines and lines
    each starting elsewhere (centred) alike."""
    xs = [20.0 + (7.5 * i if centred else 0.0) for i in range(len(lines))]
    assert _set(lines, font, xs, fast=True)[0] == _set(lines, font, xs, fast=False)[0]


def test_a_paragraphs_lines_are_written_without_a_call():
    """A plain paragraph's lines of ASCII words met before (most lines of most cards) are
    each written as one string from the words' parts, not through ``_write``, its first
    line too once the font is set up in the document; a line with a word not drawn as
    written ('until', whose 'ti' Lato joins) takes the way such a line takes."""
    lines = ["Draw a card", "then play it", "at once.", "Wait until", "the end."]
    code, written = _set(lines, "Lato", [20.0] * len(lines), fast=True)
    assert written == [lines, ["Wait until"]]
    assert code == _set(lines, "Lato", [20.0] * len(lines), fast=False)[0]


def test_kerning_is_written_in_ascii_lines():
    """The fast path keeps the font's kerning, by the font's own values (read with
    fontTools): 'o' moves back under the 'T', 'V' under the 'A'."""
    code, _, taken = _written([("To Vote", "Lato", False), ("To AV", "Lato", True)], True)
    assert taken == [False, True]  # the first line sets the font up the shaped way
    lato = TTFont(font_file("Lato"))
    cmap, upem = lato.getBestCmap(), lato["head"].unitsPerEm

    def back(left: str, right: str) -> str:  # thousandths of the size, as TJ says it
        return f"{-gpos_kerning(lato, cmap[ord(left)], cmap[ord(right)]) * 1000 / upem:g}"

    assert back("T", "o") != "0" and back("A", "V") != "0"
    assert code.endswith(f" [(T) {back('T', 'o')} (o A) {back('A', 'V')} (V)] TJ T* ET"), code
