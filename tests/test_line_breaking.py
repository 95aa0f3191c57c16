"""Lines broken by the rules of the text's language (issue 43): soft hyphens, a dictionary's
hyphens for words too long for a line, breaks after a dash or a slash, none before
punctuation or at a no-break space; and what a text that does not fit does (``overflow``).
Asserted on the lines laid out, and on a built card read back with PDFium."""

from __future__ import annotations

import pdfplumber
import pyphen
import pypdfium2 as pdfium
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from cardkit.assets.fonts import string_width
from cardkit.cli import main
from cardkit.common.units import MM
from cardkit.deck.languages import in_language
from cardkit.deck.loader import load_deck
from cardkit.render.card import FRONT, CardRenderer, Report
from cardkit.render.hyphenation import patterns
from cardkit.render.textfit import fit_text
from conftest import write_deck


def lines_of(block) -> list[str]:
    """Each line's text as drawn."""
    return ["".join(" " * run.space_before + run.text for run in line.runs)
            for line in block.lines]


def width_of(text: str, size: float = 10) -> float:
    return string_width(text, "Lato", size)


# -- the rules, one by one ------------------------------------------------------------------

def test_a_soft_hyphen_is_invisible_unless_the_line_breaks_there():
    text = "Der Schwarm\xadangriff"
    wide = fit_text(text, "Lato", 100 * MM, 50 * MM, 10)
    assert lines_of(wide) == ["Der Schwarmangriff"]
    narrow = fit_text(text, "Lato", width_of("Der Schwarm-") + 0.5, 50 * MM, 10)
    assert lines_of(narrow) == ["Der Schwarm-", "angriff"]
    assert narrow.fits and narrow.lines[0].width == pytest.approx(width_of("Der Schwarm-"))


def test_a_word_too_long_for_a_line_is_hyphenated_by_the_languages_dictionary():
    word = "Schwarmangriffsverteidigung"
    width = width_of("Schwarmangriffs-") + 0.5
    block = fit_text(word, "Lato", width, 50 * MM, 10, language="de")
    assert block.fits and block.size == 10
    assert lines_of(block) == ["Schwarmangriffs-", "verteidigung"]
    # where it broke is one of the German dictionary's places (pyphen: Schwarm-an-griffs-
    # ver-tei-di-gung)
    assert patterns("de").points(word) == (7, 9, 15, 18, 21, 23)
    unhyphenated = fit_text(word, "Lato", width, 50 * MM, 10)  # no language: no dictionary
    assert not unhyphenated.fits and lines_of(unhyphenated) == [word]


@pytest.mark.parametrize("language, words", [
    ("pl", ["Niebezpieczeństwo", "natychmiastowo", "przeciwnik", "odrzuca"]),
    ("fr", ["défaussez", "extraordinairement", "maintenant", "Attaque"])])
def test_hyphenation_points_are_pyphens(language, words):
    """cardkit reads pyphen's dictionaries its own way (for speed): the same places."""
    theirs = pyphen.Pyphen(lang=language)
    assert [patterns(language).points(word) for word in words] == \
        [tuple(theirs.positions(word)) for word in words]


def test_the_dictionary_waits_until_shrinking_cannot_help():
    """A title that fits at a smaller size shrinks as before; only what cannot fit even at
    min_size is hyphenated, at the largest size at which it then fits."""
    word = "Schwarmangriff"
    width = width_of(word, 9)
    shrunk = fit_text(word, "Lato", width + 0.1, 50 * MM, 10, 8, language="de")
    assert lines_of(shrunk) == [word] and shrunk.size == 9
    hyphenated = fit_text(word, "Lato", width_of(word, 8) - 1, 50 * MM, 10, 8, language="de")
    assert hyphenated.fits and hyphenated.size == 10
    assert [line[-1] for line in lines_of(hyphenated)[:-1]] == ["-"]


def test_lines_break_after_a_slash_or_a_dash_without_a_hyphen_added():
    block = fit_text("tauschen und/oder Feuer-Eis", "Lato", width_of("tauschen und/") + 0.1,
                     50 * MM, 10)
    assert lines_of(block) == ["tauschen und/", "oder Feuer-", "Eis"]
    minus = fit_text("Gain -2 gold", "Lato", width_of("Gain -") + 0.5, 50 * MM, 10)
    assert "-2" in " ".join(lines_of(minus)).split()  # a leading minus is no place to break


def test_no_line_starts_with_punctuation_a_space_parts_from_its_word():
    text = "Attaque éclair ! Piochez"
    width = width_of("Attaque éclair") + 0.5  # room for the words, not for ' !'
    block = fit_text(text, "Lato", width, 50 * MM, 10)
    assert lines_of(block) == ["Attaque", "éclair !", "Piochez"]


def test_a_no_break_space_keeps_a_number_with_its_unit():
    text = "Gagnez 10\xa0PO"
    block = fit_text(text, "Lato", width_of("Gagnez 10") + 0.5, 50 * MM, 10)
    assert lines_of(block) == ["Gagnez", "10\xa0PO"]


# -- overflow --------------------------------------------------------------------------------

LONG = "one two three four five six seven eight nine ten eleven twelve thirteen"


def test_overflow_ellipsis_keeps_the_lines_that_fit_and_ends_in_an_ellipsis():
    height = 2 * 12 + 1  # two lines of 10pt at 1.2
    block = fit_text(LONG, "Lato", 25 * MM, height, 10, overflow="ellipsis")
    assert block.fits and block.cut and len(block.lines) == 2
    assert lines_of(block)[-1].endswith("\u2026")
    assert all(line.width <= 25 * MM + 1e-6 for line in block.lines)
    assert not fit_text(LONG, "Lato", 25 * MM, height, 10).fits  # shrink: it overflows


def test_overflow_break_anywhere_breaks_a_word_between_letters():
    word = "Xyzzyplughfrobozz"
    width = width_of("Xyzzyplu") + 0.3
    block = fit_text(word, "Lato", width, 50 * MM, 10, overflow="break-anywhere")
    assert block.fits and "".join(lines_of(block)) == word and len(block.lines) > 1
    assert all(line.width <= width for line in block.lines)


def test_overflow_hyphenate_hyphenates_line_ends_before_shrinking():
    text = "Die Verteidigung hält"
    width = max(width_of("Die Vertei-"), width_of("digung hält")) + 0.5
    hyphenated = fit_text(text, "Lato", width, 2 * 12 + 1, 10, 6, language="de",
                          overflow="hyphenate")
    assert hyphenated.size == 10 and lines_of(hyphenated) == ["Die Vertei-", "digung hält"]
    shrunk = fit_text(text, "Lato", width, 2 * 12 + 1, 10, 6, language="de")
    assert shrunk.size < 10 and not any(line.endswith("-") for line in lines_of(shrunk))


# -- on cards: the deck's languages, turning it off, failing --------------------------------

DECK = """\
name: words
size: poker
front: face
languages: [de, fr, pl]
{extra}backs:
  plain: {{layout: face}}
fields: {{text: text}}
cards:
  - text: "Der Schwarmangriffsverteidigungsmechanismus wirkt sofort."
    text_fr: "Attaque éclair ! Gagnez 10\\u00a0PO, puis défaussez-vous d’une carte."
    text_pl: "Niebezpieczeństwo: przeciwnik odrzuca natychmiastowo dwie karty."
"""
FACE = """\
elements:
  - name: body
    kind: text
    box: [10mm, 10mm, 22mm, 60mm]
    text: "{{text}}"
    size: 10pt
    align: left
{extra}"""


def body_lines(tmp_path, lang: str, deck_extra: str = "", face_extra: str = ""):
    path = write_deck(tmp_path, DECK.format(extra=deck_extra),
                      {"face": FACE.format(extra=face_extra)})
    deck = in_language(load_deck(path), lang)
    report = Report()
    [item] = CardRenderer(report).resolve(deck.cards[0], FRONT)
    return item.text, report


def test_a_german_card_breaks_its_long_compound_by_the_german_dictionary(tmp_path):
    block, report = body_lines(tmp_path, "de")
    lines = lines_of(block)
    assert block.fits and not report.warnings, report.warnings
    hyphenated = [line for line in lines if line.endswith("-")]
    assert len(hyphenated) >= 2
    joined = "".join(line[:-1] if line.endswith("-") else line + " " for line in lines)
    assert joined.strip() == "Der Schwarmangriffsverteidigungsmechanismus wirkt sofort."
    german = patterns("de").points("Schwarmangriffsverteidigungsmechanismus")
    word, at = "Schwarmangriffsverteidigungsmechanismus", 0
    for line in lines[1:]:  # each hyphen is at one of the dictionary's places
        if at < len(word) and line.endswith("-"):
            at += len(line) - 1
            assert at in german


def test_a_french_card_keeps_punctuation_and_units_with_their_words(tmp_path):
    block, report = body_lines(tmp_path, "fr")
    lines = lines_of(block)
    assert block.fits and not report.warnings, report.warnings
    assert not any(line.startswith(("!", "PO", ",")) for line in lines)
    assert any("10\xa0PO" in line for line in lines)


def test_a_polish_card_is_hyphenated_by_the_polish_dictionary(tmp_path):
    block, _ = body_lines(tmp_path, "pl")
    lines = lines_of(block)
    polish = pyphen.Pyphen(lang="pl")
    broken = [line for line in lines if line.endswith("-")]
    assert broken, lines
    for line in broken:  # the part before the hyphen ends where Polish may break
        word = line.split()[-1][:-1]
        whole = next(w for w in ("Niebezpieczeństwo:", "natychmiastowo") if w.startswith(word))
        assert len(word) in polish.positions(whole.rstrip(":"))


def test_hyphenation_is_turned_off_by_the_element_or_the_deck(tmp_path):
    off = "    hyphenate: false\n"
    for deck_extra, face_extra in (("", off), ("hyphenate: false\n", "")):
        block, report = body_lines(tmp_path / str(len(deck_extra)), "de", deck_extra,
                                   face_extra)
        assert not any(line.endswith("-") for line in lines_of(block))
        assert not block.fits
        assert "(overflow: shrink)" in report.warnings[0].what


def test_overflow_fail_stops_the_build_naming_card_field_and_fix(tmp_path):
    path = write_deck(tmp_path, DECK.format(extra="hyphenate: false\n"),
                      {"face": FACE.format(extra="    overflow: fail\n")})
    result = CliRunner().invoke(main, ["build", str(path), "--out", str(tmp_path / "o"),
                                       "--lang", "de"])
    assert result.exit_code == 2, result.output
    assert "card 1" in result.output and "element 'body'" in result.output
    assert "the text (field 'text') does not fit its box even at 10pt" in result.output
    assert "shorten the text on this card" in result.output
    assert "Traceback" not in result.output


def test_a_deck_title_no_font_has_is_refused_not_printed_blank_in_the_footers(tmp_path):
    """A title in Arabic with no font for it (Lato has no Arabic letters, the deck brings
    none) would print as nothing in every sheet's footer: refused at the title's line, by
    build and validate, naming the letters and the fix."""
    path = write_deck(tmp_path, DECK.format(extra="title: سوق الفوانيس\n"),
                      {"face": FACE.format(extra="")})
    for command in (["validate", str(path)], ["build", str(path), "--out",
                                              str(tmp_path / "out")]):
        result = CliRunner().invoke(main, command)
        assert result.exit_code == 2, result.output
        said = " ".join(result.output.split())
        assert "deck.yaml:5:8: the deck's title has letters ('سوقالفني') that neither " \
            "Lato nor any font in the deck's fonts/ folder has" in said, result.output
        assert "add a font with them (a TTF file) to the deck's fonts/ folder" in said
    assert not (tmp_path / "out").exists()


# -- drawn -----------------------------------------------------------------------------------

def test_the_german_card_prints_its_hyphens_and_no_soft_hyphen(tmp_path):
    path = write_deck(tmp_path, DECK.format(extra="").replace("Schwarmangriffs",
                                                              "Schwarm\u00adangriffs"),
                      {"face": FACE.format(extra="")})
    out = tmp_path / "o"
    result = CliRunner().invoke(main, ["build", str(path), "--out", str(out), "--lang", "de"])
    assert result.exit_code == 0, result.output
    [pdf] = out.rglob("*-de-pnp-a4.pdf")
    doc = pdfium.PdfDocument(str(pdf))
    try:
        text = doc[0].get_textpage().get_text_range()
    finally:
        doc.close()
    # PDFium reads a hyphen that ends a line as U+FFFE and joins the word back
    assert "Schwarman\ufffegriffsverteidi\ufffegungsmecha\ufffenismus wirkt" in text
    assert "\u00ad" not in text  # the soft hyphen, where the line does not break there


def test_a_soft_hyphen_is_no_glyph_a_font_must_have(tmp_path, monkeypatch):
    """Only its hyphen prints: a font without a glyph for U+00AD is no warning."""
    import cardkit.render.cardtext as cardtext
    lacking = []
    monkeypatch.setattr(cardtext, "missing_chars", lambda face, text: lacking.append(text)
                        or "\u00ad" * ("\u00ad" in text))
    path = write_deck(tmp_path, DECK.format(extra="").replace(
        "Schwarmangriffs", "Schwarm\u00adangriffs"), {"face": FACE.format(extra="")})
    deck = in_language(load_deck(path), "de")
    report = Report()
    CardRenderer(report).resolve(deck.cards[0], FRONT)
    assert lacking and not report.warnings


def test_break_anywhere_puts_no_hyphen_into_a_code_on_the_printed_card(tmp_path, build):
    """A code too long for its box, on a card in English: the English dictionary found
    'ABCDEFGHIJ' a word and printed 'Z9AB-'; read back from the PDF, the code's lines
    join to it exactly, with no hyphen, each line inside the box."""
    code = "Z9ABCDEFGHIJKLMNOPQR"
    path = write_deck(tmp_path, DECK.replace("languages: [de, fr, pl]", "languages: [en]")
                      .format(extra="").split("  - text:")[0] + f"  - text: {code}\n",
                      {"face": FACE.replace("22mm", "14mm").format(
                          extra="    min_size: 10pt\n    overflow: break-anywhere\n")})
    result = build(path)
    with pdfplumber.open(result.path) as pdf:
        words = pdf.pages[0].extract_text().split()
    words = words[:words.index("words")]  # the card's, not the footer's ('words · fronts')
    assert "".join(words) == code and len(words) > 1, words


@settings(max_examples=400, deadline=None)
@given(st.text(st.sampled_from(" \t\x0b\x1c-/!?:;.,)]%«»aZ9(\xa0\xad\u2013é"), max_size=12))
def test_ascii_text_is_told_plain_as_the_full_pattern_tells_it(text):
    """Plain words (lines break at spaces alone) are told apart in ASCII text by a pattern
    found from its punctuation; it answers as the full pattern, which also knows no-break
    spaces, soft hyphens, dashes, guillemets and CJK, does."""
    import re

    from cardkit.render.textfit import _NOT_PLAIN, _plain_words

    assert _plain_words(text) == (re.search(_NOT_PLAIN, text) is None)
