"""Text fitting with inline icons, icons in their own colours, and texts that share a size.

Sizes are read back from the built PDF with PDFium (the size each character is set at),
not from cardkit's own layout.
"""

from __future__ import annotations

import pypdfium2 as pdfium
import pypdfium2.raw as raw
import pytest
from click.testing import CliRunner

from cardkit.assets.fonts import string_width
from cardkit.assets.icons import inline_placement
from cardkit.cli import main
from cardkit.common.units import MM
from cardkit.deck.loader import load_deck
from cardkit.render.textfit import fit_text
from cardkit.sources.bundled import find_deck
from conftest import write_deck
from pdfgeom import shapes


def text_sizes(pdf, page_index: int) -> dict[str, set[float]]:
    """Each line of text on a page (as PDFium reads it) -> the font sizes its characters
    are set at, in points."""
    doc = pdfium.PdfDocument(str(pdf))
    try:
        text_page = doc[page_index].get_textpage()
        lines: dict[str, set[float]] = {}
        line, sizes = "", set()
        for i in range(text_page.count_chars()):
            char = text_page.get_text_range(i, 1)
            if char in "\r\n":
                if line.strip():
                    lines[line.strip()] = sizes
                line, sizes = "", set()
                continue
            line += char
            if char.strip():
                sizes.add(round(raw.FPDFText_GetFontSize(text_page.raw, i), 2))
        if line.strip():
            lines[line.strip()] = sizes
        return lines
    finally:
        doc.close()


def sizes_of(lines: dict, texts: list[str]) -> list[set[float]]:
    """The sizes of the first line of each of ``texts`` among a page's ``lines``."""
    return [next(found for line, found in lines.items() if text[:12] in line)
            for text in texts]


# -- words glued to icons -------------------------------------------------------------------

def test_a_word_glued_to_an_icon_moves_to_the_next_line_whole():
    """'4{heart}.' is one word: when it does not fit at the end of a line it starts the
    next one, and the text still fits at its full size."""
    first = fit_text("aaa bbb", "Lato", 1000, 1000, 10).lines[0].width
    width = first + 3  # room for 'aaa bbb' and a little, not for ' 4♥.'
    block = fit_text("aaa bbb 4{heart}.", "Lato", width, 100, 10, 6)
    assert block.fits and block.size == 10
    assert [[run.text for run in line.runs] for line in block.lines] == [
        ["aaa", "bbb"], ["4", "heart", "."]]
    assert all(line.width <= width for line in block.lines)


@pytest.mark.parametrize("glued", ["4{heart}.", "K{club},", "{crow}{cup}", "x{key}y"])
def test_icons_measure_as_they_are_drawn(glued):
    """A line's width is its words and spaces as drawn: the icon's advance is what the
    renderer moves the pen by (inline_placement), whatever the icon is glued to."""
    block = fit_text(f"a {glued} b", "Lato", 1000, 100, 10)
    [line] = block.lines
    drawn = sum(inline_placement(r.icon, 10)[0] for r in line.runs if r.icon)
    drawn += sum(string_width(r.text, r.font, 10) for r in line.runs if not r.icon)
    drawn += 2 * string_width(" ", "Lato", 10)
    assert line.width == pytest.approx(drawn)
    assert line.offsets[-1] + string_width("b", "Lato", 10) == pytest.approx(line.width)


def test_ragusa_rank_scale_is_set_at_its_full_size(tmp_path, build):
    """The issue's case: with icons measured as drawn, this text fits at 8.5 pt (it used
    to shrink to 7.75 pt with a quarter of its box empty)."""
    result = build(find_deck("ragusa"))
    pages = [text_sizes(result.path, i) for i in range(0, result.pages, 2)]
    lines = {line: sizes for page in pages for line, sizes in page.items()}
    [body] = [s for line, s in lines.items() if line.startswith("Normally cards rank")]
    assert body == {8.5}


# -- inline icons in their own colours ------------------------------------------------------

def test_inline_icons_take_their_own_colours(tmp_path, build):
    deck = write_deck(tmp_path, """
        name: suits
        size: poker
        front: face
        backs:
          plain: {layout: back}
        fields:
          text: text
        cards:
          - {text: "Hearts {heart} and spades {spade}"}
        """, {"face": """
        elements:
          - {name: t, kind: text, box: [5mm, 5mm, 53.5mm, 20mm], text: "{text}",
             colour: "#222222", icon_colours: {heart: "#c8102e"}}
        """, "back": """
        elements:
          - {name: bg, kind: rect, box: card, fill: white}
        """})
    result = build(deck)
    fills = [s.fill for s in shapes(result.path, 0) if s.fill and s.width < 10]
    # the heart in its own colour, the spade in the text's
    assert sorted(fills) == [(0x22, 0x22, 0x22), (0xc8, 0x10, 0x2e)]


def test_icon_colours_names_must_be_icons(tmp_path):
    deck = write_deck(tmp_path, """
        name: suits
        size: poker
        front: face
        backs:
          plain: {layout: face}
        cards:
          - {}
        """, {"face": """
        elements:
          - {name: t, kind: text, box: [5mm, 5mm, 50mm, 20mm], text: "x",
             icon_colours: {hart: red}}
        """})
    result = CliRunner().invoke(main, ["validate", str(deck)])
    assert result.exit_code == 2
    assert "no icon named 'hart'; did you mean 'heart'?" in result.output


# -- texts that share a size ----------------------------------------------------------------

TEXTS = ["Short.", "A longer text that needs two or three lines in this box.",
         "The longest text of all, which needs more lines than the others and so must "
         "shrink to fit in the box, and it sets the size for the whole group."]


def grouped_deck(folder, group: str):
    cards = "\n".join(f'  - {{text: "{text}"}}' for text in TEXTS)
    return write_deck(folder, f"""
name: group
size: poker
front: face
backs:
  plain: {{layout: back}}
fields:
  text: text
cards:
{cards}
""", {"face": f"""
elements:
  - {{name: body, kind: text, box: [6mm, 6mm, 40mm, 14mm], text: "{{text}}", size: 12pt,
     min_size: 5pt{group}}}
""", "back": """
elements:
  - {name: bg, kind: rect, box: card, fill: white}
"""})


def test_a_size_group_sets_every_text_at_the_size_of_the_longest(tmp_path, build):
    alone = [fit_text(text, "Lato", 40 * MM, 14 * MM, 12, 5).size for text in TEXTS]
    assert alone[0] == 12 and alone[2] < alone[1] < 12  # the case is worth testing

    def sizes(result):
        return sizes_of(text_sizes(result.path, 0), TEXTS)

    ungrouped = build(grouped_deck(tmp_path / "plain", ""))
    assert sizes(ungrouped) == [{size} for size in alone]
    grouped = build(grouped_deck(tmp_path / "grouped", ", size_group: body"))
    assert sizes(grouped) == [{alone[2]}] * 3
    assert not grouped.warnings


def test_blofa_rule_cards_share_one_size(build):
    """The three rule cards, side by side in a hand, read alike: one size for all."""
    path = find_deck("blofa")
    starts = [card.fields["text"].split(".")[0].replace("*", "")
              for card in load_deck(path).cards if card.front.name == "blofa-rules"]
    sizes = sizes_of(text_sizes(build(path).path, 0), starts)
    assert len(sizes) == 3 and set.union(*sizes) == sizes[0] and len(sizes[0]) == 1, sizes
