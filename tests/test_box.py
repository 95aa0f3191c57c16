"""``cardkit box``: a deck's tuck box, measured from the PDF with pdfplumber (pdfminer),
which shares no code with reportlab that writes it."""

from __future__ import annotations

import pdfplumber
import pytest
from click.testing import CliRunner

from cardkit.cli import main
from componentdeck import write_deck

MM = 72 / 25.4
BORDER = 5.0  # mm: nothing printed closer to the paper's edge
CLEARANCE = 1.0  # mm: the docs' room each way around the cards
LEGEND = 10.0  # mm: the legend's band above the border

def make_deck(tmp_path, size="poker", count=40, box="box: {stock: premium}\n"):
    return write_deck(tmp_path, box, size=size, count=count)


def run_box(tmp_path, deck, *args):
    return CliRunner().invoke(main, ["box", str(deck), "--out", str(tmp_path / "out"),
                                     *args])


def folds(page):
    """The dieline's dashed lines, not the legend's sample below it: (x0, y0, x1, y1) in mm."""
    return [(line["x0"] / MM, line["y0"] / MM, line["x1"] / MM, line["y1"] / MM)
            for line in page.lines if line["dash"] and line["dash"][0]
            and line["y0"] / MM > BORDER + LEGEND]


def assert_inside_the_border(page):
    width, height = page.width / MM, page.height / MM
    for obj in page.lines + page.curves + page.rects + page.chars:
        assert obj["x0"] / MM >= BORDER - 0.01 and obj["x1"] / MM <= width - BORDER + 0.01
        top, bottom = height - obj["top"] / MM, height - obj["bottom"] / MM
        assert bottom >= BORDER - 0.01 and top <= height - BORDER + 0.01


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_fold_lines_enclose_the_stack_and_its_clearance(tmp_path, paper):
    """40 premium cards (0.32 mm) stack 12.8 mm: the sides' fold lines lie 13.8 mm apart,
    the front's and back's 64.5 mm (a 63.5 mm poker card), and they run 89.9 mm high."""
    result = run_box(tmp_path, make_deck(tmp_path), "--paper", paper)
    assert result.exit_code == 0, result.output
    assert "inside 64.5 x 89.9 x 13.8 mm, 1 sheet" in result.output
    with pdfplumber.open(tmp_path / "out" / "tiny" / f"tiny-box-{paper}.pdf") as pdf:
        assert len(pdf.pages) == 1
        page = pdf.pages[0]
        upright = sorted(x0 for x0, y0, x1, y1 in folds(page) if abs(x0 - x1) < 1e-6)
        gaps = [b - a for a, b in zip(upright, upright[1:])]
        assert gaps == pytest.approx([63.5 + CLEARANCE, 40 * 0.32 + CLEARANCE,
                                      63.5 + CLEARANCE], abs=0.01)
        heights = {round(abs(y1 - y0), 2) for x0, y0, x1, y1 in folds(page) if x0 == x1}
        assert heights == {88.9 + CLEARANCE}
        assert_inside_the_border(page)
        text = page.extract_text()
        assert "Tiny Test" in text and "40 cards" in text
        assert all(word in text for word in ("cut", "fold", "glue"))  # the legend


def test_a_box_too_big_for_one_sheet_is_split_over_two(tmp_path):
    """90 tarot cards on linen (0.35 mm): the dieline is about 215 x 216 mm, more than A4
    holds either way, so it goes on two sheets; the inside is still 32.5 mm deep."""
    deck = make_deck(tmp_path, size="tarot", count=90, box="box: {stock: linen}\n")
    result = run_box(tmp_path, deck, "--paper", "a4")
    assert result.exit_code == 0, result.output
    assert "does not fit one A4 sheet, so it is split over 2" in result.output
    with pdfplumber.open(tmp_path / "out" / "tiny" / "tiny-box-a4.pdf") as pdf:
        assert len(pdf.pages) == 2
        for page in pdf.pages:
            assert_inside_the_border(page)
            # the hinges across the panels: the lids' as wide as the box, the dust flaps'
            # as deep
            across = {round(x1 - x0, 2) for x0, y0, x1, y1 in folds(page) if y0 == y1}
            assert across == {70 + CLEARANCE, round(90 * 0.35 + CLEARANCE, 2)}
        assert "sheet 2/2" in pdf.pages[1].extract_text()


@pytest.mark.parametrize("box, size, expected", [
    ("box: {stok: linen}\n", "poker", "deck.yaml:10:7: unknown key 'stok' in box; "
                                      "did you mean 'stock'?"),
    ("box: {stock: cardboard}\n", "poker", "deck.yaml:10:14: unknown card stock 'cardboard'"),
    ("box: {stock: 5}\n", "poker", "deck.yaml:10:14: a card 5 mm thick is not card stock"),
    ("box: {stock: 1%s}\n" % ("0" * 400), "poker", "deck.yaml:10:14: a card 1000"),
    ("box: {faces: {front: nowhere}}\n", "poker", "deck.yaml:10:22: no layout named 'nowhere'"),
    ("", "{width: 200mm, height: 280mm}", "deck.yaml:4:7: the box's dieline does not fit "
                                          "A4 inside the printable border even on two"),
])
def test_a_mistake_in_the_box_exits_2_naming_its_line_and_fix(tmp_path, box, size, expected):
    result = run_box(tmp_path, make_deck(tmp_path, size=size, count=2, box=box),
                     "--paper", "a4")
    assert result.exit_code == 2, result.output
    assert expected in result.output
    assert "Traceback" not in result.output
    assert not (tmp_path / "out" / "tiny" / "tiny-box-a4.pdf").exists()


def test_validate_checks_the_box_and_the_tokens_too(tmp_path):
    """Two mistakes in two components: both said, at their lines, in one run."""
    deck = write_deck(tmp_path, "box: {stock: cardbord}\ntokens:\n"
                      "  - {shape: oval, size: 20mm, front: reference}\n")
    result = CliRunner().invoke(main, ["validate", str(deck)])
    assert result.exit_code == 2, result.output
    assert "deck.yaml:10:14: unknown card stock 'cardbord'" in result.output
    assert "deck.yaml:12:13: 'shape' cannot be 'oval'" in result.output
    # build refuses the deck file validate refuses (the fuzz test found `box: true` built)
    built = CliRunner().invoke(main, ["build", str(deck), "--out", str(tmp_path / "out")])
    assert built.exit_code == 2 and "unknown card stock 'cardbord'" in built.output
    assert not (tmp_path / "out").exists()
