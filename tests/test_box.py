"""``cardkit box``: a deck's tuck box, measured from the PDF with pdfplumber (pdfminer),
which shares no code with reportlab that writes it."""

from __future__ import annotations

import pdfplumber
import pytest
from click.testing import CliRunner

from cardkit.cli import main
from componentdeck import write_deck
from pdfgeom import render_page, shapes

MM = 72 / 25.4
BORDER = 5.0  # mm: nothing printed closer to the paper's edge
CLEARANCE = 1.0  # mm: the docs' room each way around the cards
FOLDS = 0.6  # mm: the box's own 0.3 mm stock, twice, that a side's folds and the lid take
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
    """40 premium cards (0.32 mm) stack 12.8 mm: the sides' fold lines lie 13.8 mm apart
    and 0.6 mm for the box's stock at the folds, the front's and back's 64.5 mm (a 63.5 mm
    poker card), and they run 89.9 mm high."""
    result = run_box(tmp_path, make_deck(tmp_path), "--paper", paper)
    assert result.exit_code == 0, result.output
    assert "inside 64.5 x 89.9 x 13.8 mm, 1 sheet" in result.output
    with pdfplumber.open(tmp_path / "out" / "tiny" / f"tiny-box-{paper}.pdf") as pdf:
        assert len(pdf.pages) == 1
        page = pdf.pages[0]
        upright = sorted(x0 for x0, y0, x1, y1 in folds(page) if abs(x0 - x1) < 1e-6)
        gaps = [b - a for a, b in zip(upright, upright[1:])]
        assert gaps == pytest.approx([63.5 + CLEARANCE, 40 * 0.32 + CLEARANCE + FOLDS,
                                      63.5 + CLEARANCE], abs=0.01)
        heights = {round(abs(y1 - y0), 2) for x0, y0, x1, y1 in folds(page) if x0 == x1}
        assert heights == {88.9 + CLEARANCE}
        assert_inside_the_border(page)
        text = page.extract_text()
        assert "Tiny Test" in text and "40 cards" in text
        assert all(word in text for word in ("cut", "fold", "glue"))  # the legend


def test_a_box_too_big_for_one_sheet_is_split_over_two(tmp_path):
    """90 tarot cards on linen (0.35 mm): the dieline is about 215 x 216 mm, more than A4
    holds either way, so it goes on two sheets; the inside is still 32.5 mm deep (its folds
    33.1 mm apart)."""
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
            assert across == {70 + CLEARANCE, round(90 * 0.35 + CLEARANCE + FOLDS, 2)}
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


def upright_folds(page):
    """The fold lines between the panels, left to right: (x, bottom, top) in mm."""
    return sorted((x0, min(y0, y1), max(y0, y1)) for x0, y0, x1, y1 in folds(page)
                  if abs(x0 - x1) < 1e-6)


COLOURS = {"front": (200, 30, 30), "back": (30, 30, 200), "side": (30, 160, 30),
           "top": (220, 200, 0)}


def test_box_art_runs_2mm_past_every_cut_edge_and_under_its_neighbours(tmp_path):
    """Each face a colour of its own, its background a bleed rect: rendered at 10 px a
    millimetre, 1.5 mm outside every cut edge of a printed face is that face's colour
    (a cut 0.2 mm off shows art, not paper), 3 mm outside is paper, and on either side of
    a fold between two faces each face shows its own colour to the fold."""
    layouts = {f"my-{face}": "elements:\n  - {name: bg, kind: rect, box: card, bleed: true, "
               'fill: "#%02x%02x%02x"}\n' % rgb for face, rgb in COLOURS.items()}
    faces = ", ".join(f"{face}: my-{face}" for face in COLOURS)
    deck = write_deck(tmp_path, "box: {stock: premium, faces: {%s}}\n" % faces, count=40,
                      layouts=layouts)
    result = run_box(tmp_path, deck, "--paper", "a4")
    assert result.exit_code == 0, result.output
    pdf_path = tmp_path / "out" / "tiny" / "tiny-box-a4.pdf"
    with pdfplumber.open(pdf_path) as pdf:
        page = pdf.pages[0]
        height = page.height / MM
        (glue, y0, y1), (side1, _, _), (front, _, _), (side2, _, _) = upright_folds(page)
        right = max(line["x1"] for line in page.curves + page.lines
                    if not line.get("dash") or not line["dash"][0]) / MM  # the cut's edge
        assert_inside_the_border(page)
    image = render_page(pdf_path, 0, dpi=254)

    def colour(x, y):
        return image.getpixel((round(x * 10), round((height - y) * 10)))

    def near(rgb, face):
        return all(abs(a - b) <= 12 for a, b in zip(rgb, COLOURS[face]))

    middle = (y0 + y1) / 2
    depth = 40 * 0.32 + CLEARANCE + FOLDS
    lid = y1 + depth / 2
    for out in (0.5, 1.5):
        assert near(colour((glue + side1) / 2, y0 - out), "back")  # the back's foot
        assert near(colour(glue - out, lid), "top")  # the lid's two cut edges
        assert near(colour(side1 + out, lid), "top")
        assert near(colour(front + 10, y1 + out), "front")  # the front's top, by the notch
        assert near(colour(right + out, middle), "side")  # the last side's free edge
    assert colour(right + 3, middle) == (255, 255, 255)
    assert colour(front + 10, y1 + 3) != COLOURS["front"]
    for fold, left, right_face in ((side1, "back", "side"), (front, "side", "front"),
                                   (side2, "front", "side")):
        for gap in (0.3, 1.5):
            assert near(colour(fold - gap, middle), left), (fold, left)
            assert near(colour(fold + gap, middle), right_face), (fold, right_face)


def glue_flaps(path):
    """The shaded glue areas above the legend: (left, right) in mm."""
    return [(shape.left, shape.right) for shape in shapes(path, 0)
            if shape.fill == (200, 200, 200) and shape.bottom > BORDER + LEGEND]


@pytest.mark.parametrize("count, stock, glue_side, depth", [
    (18, "standard", "left", 18 * 0.30 + CLEARANCE + FOLDS),  # Blófa: behind the side
    (9, "standard", "right", 9 * 0.30 + CLEARANCE + FOLDS + 0.3),  # on the side, to the back
])
def test_the_glue_flap_fits_behind_the_side_or_goes_behind_the_back(tmp_path, count, stock,
                                                                     glue_side, depth):
    """Folded, the flap on the back's edge lies behind the last side: at most the side's
    depth less 1 mm, so that it does not reach the front and the box squares up. A thin
    deck's side is too shallow for a 5 mm flap: the flap goes on the last side's free edge
    instead, 8 mm wide, glued behind the back, whose stock the depth allows for too."""
    deck = make_deck(tmp_path, count=count, box="box: {stock: %s}\n" % stock)
    result = run_box(tmp_path, deck, "--paper", "a4")
    assert result.exit_code == 0, result.output
    path = tmp_path / "out" / "tiny" / "tiny-box-a4.pdf"
    with pdfplumber.open(path) as pdf:
        xs = [x for x, _, _ in upright_folds(pdf.pages[0])]
    (left, right), = glue_flaps(path)
    sides = [xs[2] - xs[1], xs[-1] - xs[-2]] if glue_side == "left" else [xs[1] - xs[0]]
    assert sides[0] == pytest.approx(depth, abs=0.01)
    if glue_side == "left":
        assert right == pytest.approx(xs[0], abs=0.3)  # folds on the back's left edge
        assert 5 <= right - left <= depth - 1 + 0.01
    else:
        assert left == pytest.approx(xs[-1], abs=0.3)  # folds on the last side's edge
        assert right - left == pytest.approx(8, abs=0.3)
        assert xs[-1] - xs[-2] == pytest.approx(depth, abs=0.01)


@pytest.mark.parametrize("count, words", [(1, "1 card"), (2, "2 cards")])
def test_the_default_faces_count_the_cards_in_words(tmp_path, count, words):
    """The front, the back and the legend say "1 card" for a one-card deck, never "1 cards"."""
    deck = make_deck(tmp_path, count=count)
    result = run_box(tmp_path, deck, "--paper", "a4")
    assert result.exit_code == 0, result.output
    with pdfplumber.open(tmp_path / "out" / "tiny" / "tiny-box-a4.pdf") as pdf:
        text = " ".join(page.extract_text() for page in pdf.pages)
    assert text.count(words) == 3 and "1 cards" not in text
