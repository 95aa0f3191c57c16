"""Text in boxes: wrapping, shrink-to-fit, markup, and warnings for what does not fit."""

from __future__ import annotations

from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st
from pypdf import PdfReader

from cardkit.assets.fonts import string_width
from cardkit.cli import main
from cardkit.common.units import MM
from cardkit.render.textfit import fit_text
from cardkit.render.textmarkup import words
from conftest import harfbuzz_width, write_deck

LONG = ("Play one or two cards face down and announce a total that is one or two more "
        "than the last one. ") * 3


def test_wrapped_lines_stay_inside_the_box():
    block = fit_text(LONG, "Lato", 40 * MM, 200 * MM, 9.0)
    assert block.fits and block.size == 9.0 and len(block.lines) > 3
    for line in block.lines:
        text = " ".join(run.text for run in line.runs)
        assert string_width(text, "Lato", 9.0) <= 40 * MM + 0.01


def line_width(text: str, font: str, size: float) -> float:
    return sum(harfbuzz_width(word, font, size) for word in text.split(" ")) + \
        text.count(" ") * harfbuzz_width(" ", font, size)


def greedy_lines(text: str, font: str, size: float, width: float) -> list[str]:
    """The oracle: each line takes words while HarfBuzz measures the line as no wider
    than ``width`` (each word shaped, as a line is drawn: no kerning across a space) (a hair's tolerance for rounding), and at least one word. A word
    of punctuation stays with the word before it, with the space between them."""
    lines: list[str] = []
    glued: list[str] = []
    for word in text.split():
        if glued and word[0] in ".,":
            glued[-1] += " " + word
        else:
            glued.append(word)
    for word in glued:
        longer = f"{lines[-1]} {word}" if lines else word
        if lines and line_width(longer, font, size) <= width * (1 + 1e-9):
            lines[-1] = longer
        else:
            lines.append(word)
    return lines


WORDS = st.lists(st.text("abcdefghijklmnopqrstuvwxyzMW.,", min_size=1, max_size=12),
                 min_size=1, max_size=40)


@settings(max_examples=300, deadline=None)
@given(WORDS, st.sampled_from(["Lato", "Lato-Black"]), st.sampled_from([6.0, 8.5, 9.25, 14.0]),
       st.floats(10, 300), st.integers(0, 39))
def test_plain_text_wraps_as_a_greedy_wrap_measured_line_by_line(words, font, size, width,
                                                                   exact):
    """Also when the box is exactly as wide as a line's words: that line fits."""
    text = " ".join(words)
    if exact < len(words):  # a box exactly as wide as the first words
        width = line_width(" ".join(words[:exact + 1]), font, size)
    block = fit_text(text, font, width, 10_000.0, size)
    assert [line_text(line) for line in block.lines] == greedy_lines(text, font, size, width)


def line_text(line) -> str:
    """A laid-out line's text as drawn."""
    return "".join(" " * run.space_before + run.text for run in line.runs)


def test_text_shrinks_to_fit_but_not_below_its_minimum():
    block = fit_text(LONG, "Lato", 40 * MM, 30 * MM, 12.0, 5.0)
    assert block.fits and 5.0 <= block.size < 12.0
    assert block.height <= 30 * MM
    bigger = fit_text(LONG, "Lato", 40 * MM, 30 * MM, block.size + 0.25, 5.0)
    assert bigger.size == block.size  # the largest size that fits was chosen
    too_small_a_box = fit_text(LONG, "Lato", 40 * MM, 5 * MM, 12.0, 8.0)
    assert not too_small_a_box.fits and too_small_a_box.size == 8.0


def test_markup_switches_faces():
    runs = words("Winner **+1 VP**, *loser* -1", "Lato")
    assert [(r.text, r.font) for r in runs] == [
        ("Winner", "Lato"), ("+1", "Lato-Bold"), ("VP", "Lato-Bold"), (",", "Lato"),
        ("loser", "Lato-Italic"), ("-1", "Lato")]
    assert [r.space_before for r in runs] == [False, True, True, False, True, True]


def _deck(tmp_path, text, extra=""):
    return write_deck(tmp_path, f"""
name: words
size: poker
front: face
backs: {{plain: {{layout: face}}}}
fields: {{text: text}}
cards:
  - text: "{text}"
""", {"face": f"""
elements:
  - {{name: body, kind: text, box: [5mm, 5mm, 30mm, 8mm], text: "{{text}}", size: 10pt{extra}}}
"""})


def test_text_that_does_not_fit_warns_naming_card_and_element(tmp_path):
    path = _deck(tmp_path, "far too many words for such a tiny box " * 3, ", min_size: 8pt")
    result = CliRunner().invoke(main, ["build", str(path), "--out", str(tmp_path / "o")])
    assert result.exit_code == 0
    assert "warning: " in result.output
    assert "card 1 (text far" not in result.output  # long values are not quoted in labels
    assert "element 'body': text does not fit its box even at 8pt" in result.output
    strict = CliRunner().invoke(main, ["build", str(path), "--out", str(tmp_path / "s"),
                                       "--strict"])
    assert strict.exit_code == 2
    assert "text does not fit its box even at 8pt (overflow: shrink) (an error with " \
        "--strict)" in strict.output
    assert not (tmp_path / "s").exists()


def test_a_character_the_font_lacks_is_a_warning_not_a_silent_box(tmp_path):
    path = _deck(tmp_path, "Ace of ♠")
    result = CliRunner().invoke(main, ["validate", str(path)])
    assert result.exit_code == 0
    assert "element 'body': font Lato has no glyph for '♠'" in result.output
    assert CliRunner().invoke(main, ["validate", str(path), "--strict"]).exit_code == 2


def test_accented_text_is_written_as_text(tmp_path, build):
    path = build(_deck(tmp_path, "Blófa Ñandú")).path
    assert "Blófa Ñandú" in PdfReader(str(path)).pages[0].extract_text()
