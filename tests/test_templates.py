"""``cardkit build --template``: cards and tokens laid out by a sheet template's slots,
measured from the PDF with pdfplumber (pdfminer), which shares no code with reportlab that
writes it, and from its page rasterised by PDFium."""

from __future__ import annotations

import math

import numpy
import pdfplumber
import pypdfium2 as pdfium
import pytest
from click.testing import CliRunner

from cardkit.cli import main
from componentdeck import write_deck
from test_tokens import cut_outlines

MM = 72 / 25.4
TOLERANCE = 0.05  # mm
LAYOUTS = {
    "red": "elements:\n  - {name: bg, kind: rect, box: card, fill: '#ff0000'}\n",
    "blue": "elements:\n  - {name: bg, kind: rect, box: card, fill: '#0000ff'}\n",
    "chit": "elements:\n  - {name: bg, kind: rect, box: card, bleed: true, fill: '#00ff00'}\n",
    "chit-back": "elements:\n  - {name: bg, kind: rect, box: card, bleed: true, "
                 "fill: '#ffff00'}\n",
}
TOKENS = """tokens:
  - {shape: round, size: 25mm, count: 2, front: chit, back: chit-back}
  - {shape: square, size: 20mm, front: chit}
  - {shape: hex, size: 30mm, front: chit, back: chit-back}
"""


def filled(page, colour):
    """(left, top from the page's top, width, height) in mm of the rectangles of a colour."""
    return sorted((round(r["x0"] / MM, 2), round(r["top"] / MM, 2), round(r["width"] / MM, 2),
                   round(r["height"] / MM, 2))
                  for r in page.rects if r["fill"] and r["non_stroking_color"] == colour)


def build(tmp_path, deck, template):
    return CliRunner().invoke(main, ["build", str(deck), "--template", str(template),
                                     "--out", str(tmp_path / "out")])


def test_avery_l7160_labels_each_get_a_sticker_at_its_place(tmp_path):
    """25 stickers of 63.5 x 38.1 mm fill the 21 labels of a first sheet (3 x 7, 7.25 mm
    and 15.15 mm from the corner, 66 mm apart across) and 4 of a second; no cut guides."""
    deck = write_deck(tmp_path, "", size="{width: 63.5mm, height: 38.1mm}", count=25,
                      layouts=LAYOUTS, front="red", back="blue")
    result = build(tmp_path, deck, "avery-l7160")
    assert result.exit_code == 0, result.output
    with pdfplumber.open(tmp_path / "out" / "tiny" / "tiny-avery-l7160-a4.pdf") as pdf:
        assert len(pdf.pages) == 2
        expected = sorted((round(7.25 + c * 66, 2), round(15.15 + r * 38.1, 2), 63.5, 38.1)
                          for r in range(7) for c in range(3))
        found = filled(pdf.pages[0], (1.0, 0.0, 0.0))
        assert len(found) == 21
        for a, b in zip(found, expected):
            assert all(abs(x - y) <= TOLERANCE for x, y in zip(a, b)), (a, b)
        assert len(filled(pdf.pages[1], (1.0, 0.0, 0.0))) == 4
        assert not [line for line in pdf.pages[0].lines if line["stroking_color"] == (0, 0, 0)]


def test_a_duplex_template_puts_each_back_behind_its_front(tmp_path):
    """One slot upright and one turned: on the page of backs (long-edge duplex, portrait)
    each back is at x' = W - x - w, as the automatic grid's backs are."""
    template = tmp_path / "two.yaml"
    template.write_text("paper: a4\nduplex: true\nslots:\n"
                        "  - {x: 10mm, y: 12mm, width: 63.5mm, height: 88.9mm}\n"
                        "  - {x: 90mm, y: 20mm, width: 88.9mm, height: 63.5mm, rotation: 90}\n")
    deck = write_deck(tmp_path, "", count=2, layouts=LAYOUTS, front="red", back="blue")
    result = build(tmp_path, deck, template)
    assert result.exit_code == 0, result.output
    with pdfplumber.open(tmp_path / "out" / "tiny" / "tiny-two-a4.pdf") as pdf:
        assert len(pdf.pages) == 2
        fronts = filled(pdf.pages[0], (1.0, 0.0, 0.0))
        assert fronts == [(10.0, 12.0, 63.5, 88.9), (90.0, 20.0, 88.9, 63.5)]
        backs = filled(pdf.pages[1], (0.0, 0.0, 1.0))
        assert backs == sorted((round(210 - x - w, 2), y, w, h) for x, y, w, h in fronts)
        assert pdf.pages[0].lines  # cut guides, this template having them


def test_a_mistake_in_a_template_exits_2_naming_its_line(tmp_path):
    template = tmp_path / "bad.yaml"
    template.write_text("paper: a4\nslots:\n"
                        "  - {x: 10mm, y: 12mm, widht: 63.5mm, height: 88.9mm}\n")
    result = build(tmp_path, write_deck(tmp_path, ""), template)
    assert result.exit_code == 2, result.output
    assert "bad.yaml:3:24: unknown key 'widht' in a slot; did you mean 'width'?" \
        in result.output
    assert "1 problem" in result.output


def mixed_slots():
    """The slots of templates/cards-and-tokens.yaml, worked out here from its numbers:
    (kind, left, top, width, height) in mm from the paper's top-left corner."""
    cards = [("card", 9.75 + c * 63.5, 10 + r * 88.9, 63.5, 88.9)
             for r in range(2) for c in range(3)]
    hex_width = 30 * 2 / math.sqrt(3)
    tokens = [("round", 8.5 + c * 28, 196.8, 25, 25) for c in range(7)] + \
        [("square", 14.5 + c * 23, 225.8, 20, 20) for c in range(8)] + \
        [("hex", 12.3975 + c * (hex_width + 3), 249.8, hex_width, 30) for c in range(5)]
    return cards, tokens


def outline_fits(kind, points, slot):
    """Whether a cut outline measured from the PDF lies on its slot's shape within 0.05 mm:
    a round one every sampled point on the circle, a square or hex one each corner."""
    _, left, top, width, height = slot
    cx, cy = left + width / 2, top + height / 2
    if kind == "round":
        return max(abs(math.dist((cx, cy), p) - width / 2) for p in points) <= TOLERANCE
    if kind == 6:
        corners = [(cx + width / 2 * math.cos(math.radians(a)),
                    cy + width / 2 * math.sin(math.radians(a))) for a in range(0, 360, 60)]
    else:
        corners = [(left, top), (left + width, top), (left, top + height),
                   (left + width, top + height)]
    return all(min(math.dist(c, p) for p in points) <= TOLERANCE for c in corners) and \
        len(set(points)) == len(corners)


def test_a_mixed_template_cuts_cards_and_tokens_at_their_slots_with_backs_behind(tmp_path):
    """templates/cards-and-tokens: six poker cards and, in the slots of their shapes, two
    round tokens, a square and a hex; each card's trim and each token's cut outline within
    0.05 mm of its slot, measured from the PDF; on the page of backs each card's and each
    double-sided token's at the mirror place of its front (x' = 210 - x - w), the
    single-sided square without one."""
    deck = write_deck(tmp_path, TOKENS, count=6, layouts=LAYOUTS, front="red", back="blue")
    result = build(tmp_path, deck, "cards-and-tokens")
    assert result.exit_code == 0, result.output
    assert "tiny: 6 cards, 4 tokens, 2 pages (A4 portrait, 6 a page)" in result.output
    cards, tokens = mixed_slots()
    used = [tokens[0], tokens[1], tokens[7], tokens[15]]
    with pdfplumber.open(tmp_path / "out" / "tiny" / "tiny-cards-and-tokens-a4.pdf") as pdf:
        assert len(pdf.pages) == 2
        fronts, backs = pdf.pages
        expected = sorted((round(x, 2), round(y, 2), w, h) for _, x, y, w, h in cards)
        mirrored = sorted((round(210 - x - w, 2), y, w, h) for x, y, w, h in expected)
        for found, want in ((filled(fronts, (1.0, 0.0, 0.0)), expected),
                            (filled(backs, (0.0, 0.0, 1.0)), mirrored)):
            assert len(found) == 6
            for a, b in zip(found, want):
                assert all(abs(x - y) <= TOLERANCE for x, y in zip(a, b)), (a, b)
        for page, slots in ((fronts, used),
                            (backs, [(k, 210 - x - w, y, w, h) for k, x, y, w, h in used
                                     if k != "square"])):
            outlines = cut_outlines(page)
            assert len(outlines) == len(slots)
            for slot in slots:
                assert [o for o in outlines if outline_fits(*o, slot)], slot
        # each token's face (green) and back (yellow) drawn at its outline, 1 mm bleed round
        assert len(filled(fronts, (0.0, 1.0, 0.0))) == 4
        assert sorted(filled(backs, (1.0, 1.0, 0.0))) == sorted(
            (round(210 - x - w - 1, 2), round(y - 1, 2), round(w + 2, 2), round(h + 2, 2))
            for k, x, y, w, h in used if k != "square")


def labels_rasterised(tmp_path, deck, template: str, paper: str, bleed_mm: int, dpi: int):
    """The deck built on ``template`` with ``bleed_mm`` of bleed, its first page rasterised
    at ``dpi`` by PDFium: an array of RGB pixels, rows from the top."""
    result = CliRunner().invoke(main, ["build", str(deck), "--template", template, "--bleed",
                                       f"{bleed_mm}mm", "--out", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    pdf = pdfium.PdfDocument(tmp_path / "out" / "tiny" /
                             f"tiny-{template}-{paper}-bleed{bleed_mm}mm.pdf")
    try:
        return numpy.asarray(pdf[0].render(scale=dpi / 72).to_pil().convert("RGB")).astype(int)
    finally:
        pdf.close()


def test_avery_5160_keeps_every_label_s_ink_inside_it_and_out_of_the_5_mm_border(tmp_path):
    """Letter, 30 labels of 2.625 x 1 in whose outer columns start 4.76 mm from the edge:
    rasterised at 150 dpi, the outer 5 mm of the page is blank, each label's red lies 0.5 mm
    inside it (to a pixel), and nothing but the footer lies outside the labels."""
    deck = write_deck(tmp_path, "", size="{width: 2.625in, height: 1in}", count=30,
                      layouts={"red": LAYOUTS["red"].replace("box: card,",
                                                             "box: card, bleed: true,")},
                      front="red", back="red")
    pixels = labels_rasterised(tmp_path, deck, "avery-5160", "letter", 2, 150)
    per_mm = 150 / 25.4
    ink = (pixels < 250).any(axis=2)
    near, far_x, far_y = (math.floor(5 * per_mm), math.ceil((215.9 - 5) * per_mm),
                          math.ceil((279.4 - 5) * per_mm))  # whole pixels in the border
    assert not ink[:near].any() and not ink[far_y:].any()
    assert not ink[:, :near].any() and not ink[:, far_x:].any()
    red = (pixels[:, :, 0] > 200) & (pixels[:, :, 1] < 60) & (pixels[:, :, 2] < 60)
    outside = ink.copy()
    for row in range(10):
        for column in range(3):
            left, top = 4.7625 + column * (66.675 + 3.175), 12.7 + row * 25.4
            x1, y1 = round(left * per_mm), round(top * per_mm)
            x2, y2 = round((left + 66.675) * per_mm), round((top + 25.4) * per_mm)
            ys, xs = numpy.nonzero(red[y1:y2, x1:x2])
            measured = (x1 + xs.min(), y1 + ys.min(), x1 + xs.max() + 1, y1 + ys.max() + 1)
            inset = [(left + 0.5) * per_mm, (top + 0.5) * per_mm,
                     (left + 66.675 - 0.5) * per_mm, (top + 25.4 - 0.5) * per_mm]
            assert all(abs(a - b) <= 1 for a, b in zip(measured, inset)), (row, column)
            outside[y1:y2, x1:x2] = False
    ys, _ = numpy.nonzero(outside)
    assert len(ys) and ys.min() > (12.7 + 254) * per_mm  # the footer, below the labels


@pytest.mark.parametrize("template, expected", [
    ("paper: a4\nslots:\n  - {component: tokenz, x: 10mm, y: 10mm, width: 25mm, "
     "height: 25mm}\n",
     "bad.yaml:3:17: 'component' cannot be 'tokenz'; did you mean 'tokens'?"),
    ("paper: a4\nslots:\n  - {component: tokens, shape: round, x: 10mm, y: 10mm, "
     "width: 30mm, height: 25mm}\n",
     "bad.yaml:3:64: a round token slot 25 mm high must be 25.00 mm wide, not 30 mm; "
     "give 'width: 25.00mm'"),
    ("paper: a4\nslots:\n  - {component: tokens, x: 10mm, y: 10mm, width: 25mm, "
     "height: 25mm}\n",
     "bad.yaml:3:5: a token slot has no 'shape'; add 'shape: round', 'square' or 'hex'"),
    ("paper: a4\nslots:\n  - {shape: hex, x: 10mm, y: 10mm, width: 63.5mm, "
     "height: 88.9mm}\n",
     "bad.yaml:3:6: a card slot has no shape; add 'component: tokens' for a token slot, or "
     "leave 'shape' out"),
    ("paper: a4\nslots:\n  - {x: 10mm, y: 10mm, width: 63.5mm, height: 88.9mm}\n"
     "  - {component: tokens, shape: round, x: 5.5mm, y: 200mm, width: 25mm, "
     "height: 25mm}\n",
     "bad.yaml:4:5: a slot reaches 0.50 mm into the 5 mm printable border of A4; move it "
     "inside: a token's art reaches 1 mm past its outline"),
    ("paper: letter\nguides: false\nslots:\n  - {x: 4.7625mm, y: 12.7mm, width: 63.5mm, "
     "height: 88.9mm}\n",
     "bad.yaml:4:5: a slot reaches 0.24 mm into the 5 mm printable border of Letter; move "
     "it inside, or keep the ink inside the label with 'inset: 0.24mm' or more"),
    ("paper: a4\nslots:\n  - {x: 10mm, y: 10mm, width: 63.5mm, height: 88.9mm}\n"
     "  - {component: tokens, shape: round, x: 10mm, y: 200mm, width: 20mm, "
     "height: 20mm}\n",
     "deck.yaml:11:5: a round token 25 mm across has no slot in sheet template bad, whose "
     "token slots are round 20 mm; give the token one of those sizes, or print it on a "
     "token sheet ('cardkit tokens')"),
    ("paper: a4\nslots:\n  - {x: 10mm, y: 10mm, width: 63.5mm, height: 88.9mm}\n"
     "  - {component: tokens, shape: round, x: 10mm, y: 101mm, width: 25mm, "
     "height: 25mm}\n",
     "bad.yaml:4:5: a cut guide of the cards runs into this token slot; move it at least "
     "6 mm from the cards, clear of their crop marks"),
])
def test_a_mistake_in_a_mixed_or_label_template_exits_2_with_its_place_and_fix(
        tmp_path, template, expected):
    path = tmp_path / "bad.yaml"
    path.write_text(template)
    deck = write_deck(tmp_path, "tokens:\n  - {shape: round, size: 25mm, front: chit}\n",
                      layouts=LAYOUTS)
    result = build(tmp_path, deck, path)
    assert result.exit_code == 2, result.output
    assert f"{tmp_path}/{expected}" in result.output  # the place named once, at the start
    assert "1 problem" in result.output and "Traceback" not in result.output


def test_a_template_with_token_slots_refuses_a_deck_without_tokens(tmp_path):
    result = build(tmp_path, write_deck(tmp_path, ""), "cards-and-tokens")
    assert result.exit_code == 2, result.output
    assert f"{tmp_path}/deck.yaml: sheet template cards-and-tokens has token slots, and the " \
        "deck has no tokens; add a 'tokens:' list (see README, 'Tokens'), or use a template " \
        "without token slots" in result.output


def test_round_stickers_cut_already_print_their_art_without_outlines(tmp_path):
    """A template without guides (round labels cut already): each token's art, no outline."""
    template = tmp_path / "stickers.yaml"
    template.write_text("paper: a4\nguides: false\nslots:\n"
                        "  - {x: 10mm, y: 12mm, width: 63.5mm, height: 88.9mm}\n"
                        "  - {component: tokens, shape: round, x: 100mm, y: 20mm, width: 25mm,"
                        " height: 25mm}\n")
    deck = write_deck(tmp_path, TOKENS.split("  - {shape: square")[0], layouts=LAYOUTS,
                      front="red", back="blue")
    result = build(tmp_path, deck, template)
    assert result.exit_code == 0, result.output
    with pdfplumber.open(tmp_path / "out" / "tiny" / "tiny-stickers-a4.pdf") as pdf:
        assert len(pdf.pages) == 2  # two copies of the token, one slot
        for page in pdf.pages:
            assert filled(page, (0.0, 1.0, 0.0)) == [(99.0, 19.0, 27.0, 27.0)]
            assert not cut_outlines(page) and not page.lines


def test_avery_l7160_with_bleed_keeps_each_label_s_colour_off_its_neighbours(tmp_path):
    """21 labels in a checkerboard of red and blue, built with --bleed 3mm: rasterised at
    10 px a millimetre, each label (rows butted, columns 2.5 mm apart) holds its own colour
    alone up to its edges; its bleed fills half of the gap to the next column, and at the
    sheet's outside edges as much of 3 mm as the 5 mm printable border leaves (2.25 mm at
    the sides, the whole 3 mm above the top row)."""
    colours = {"red": (255, 0, 0), "blue": (0, 0, 255)}
    layouts = {name: "elements:\n  - {name: bg, kind: rect, box: card, bleed: true, "
               "fill: '#%02x%02x%02x'}\n" % rgb for name, rgb in colours.items()}
    def colour_of(i):
        return "red" if (i // 3 + i % 3) % 2 == 0 else "blue"
    cards = "".join(f"  - {{title: '{i}', layout: {colour_of(i)}}}\n" for i in range(21))
    deck = write_deck(tmp_path, "", size="{width: 63.5mm, height: 38.1mm}", layouts=layouts,
                      front="red", back="blue")
    deck.write_text(deck.read_text().replace("  - {title: A, count: 1}\n", cards))
    pixels = labels_rasterised(tmp_path, deck, "avery-l7160", "a4", 3, 254)

    def at(x, y):  # mm from the top-left corner
        return tuple(pixels[round(y * 10), round(x * 10)])

    for i in range(21):
        row, column = divmod(i, 3)
        left, top = 7.25 + column * 66, 15.15 + row * 38.1
        own = colours[colour_of(i)]
        label = pixels[round((top + 0.2) * 10):round((top + 38.1 - 0.2) * 10),
                       round((left + 0.2) * 10):round((left + 63.5 - 0.2) * 10)]
        assert (label == own).all(axis=2).mean() > 0.999, (i, "a neighbour's colour inside")
        middle = top + 19
        if column < 2:
            assert at(left + 63.5 + 1.0, middle) == own  # half the 2.5 mm gap
        if column > 0:
            assert at(left - 1.0, middle) == own
        if column == 0:
            assert at(left - 2.0, middle) == own and at(left - 2.5, middle) == (255,) * 3
        if column == 2:
            assert at(left + 63.5 + 2.0, middle) == own
        if row == 0:
            assert at(left + 30, top - 2.8) == own and at(left + 30, top - 3.3) == (255,) * 3
