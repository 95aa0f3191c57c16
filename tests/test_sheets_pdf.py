"""Geometry of built sheets, measured from the PDF with PDFium (not reportlab)."""

from __future__ import annotations

import pytest
from pypdf import PdfReader

from cardkit.bundled import bundled_decks
from cardkit.model import SIZE_PRESETS_MM
from conftest import card_colour, id_deck
from pdfgeom import page_sizes, render_page, shapes

TOLERANCE = 0.1  # mm
A4, LETTER = (210.0, 297.0), (215.9, 279.4)


def cards_on(path, page_index):
    """Card colour -> its background Shape (the largest filled shape of that colour)."""
    found = {}
    for shape in shapes(path, page_index):
        if shape.fill and not shape.stroked:
            best = found.get(shape.fill)
            if best is None or shape.width * shape.height > best.width * best.height:
                found[shape.fill] = shape
    return found


def crop_marks(path, page_index):
    return [s for s in shapes(path, page_index)
            if s.stroked and s.fill is None and (s.width < 0.5 or s.height < 0.5)]


def approx(a, b):
    return abs(a - b) <= TOLERANCE


@pytest.mark.parametrize("paper,size", [("a4", A4), ("letter", LETTER)])
def test_pnp_grid_puts_every_card_at_its_exact_trim(tmp_path, build, paper, size):
    result = build(id_deck(tmp_path / "deck", 12), paper=paper)
    path = result.path
    assert page_sizes(path) == [pytest.approx(size, abs=0.01)] * 4
    assert result.pages == 4
    width, height = 63.5, 88.9
    left = (size[0] - 3 * width) / 2
    top = (size[1] + 3 * height) / 2
    for i in range(12):
        page, slot = divmod(i, 9)
        row, col = divmod(slot, 3)
        front = cards_on(path, 2 * page)[card_colour(i)]
        assert approx(front.width, width) and approx(front.height, height)
        assert approx(front.left, left + col * width)
        assert approx(front.top, top - row * height)


@pytest.mark.parametrize("duplex", ["long", "short"])
def test_backs_are_exactly_behind_their_fronts(tmp_path, build, duplex):
    path = build(id_deck(tmp_path / "deck", 9), duplex=duplex).path
    fronts, backs = cards_on(path, 0), cards_on(path, 1)
    for i in range(9):
        front, back = fronts[card_colour(i)], backs[card_colour(i)]
        if duplex == "long":  # flipped around the vertical axis
            assert approx(back.left, A4[0] - front.right)
            assert approx(back.bottom, front.bottom)
        else:  # flipped around the horizontal axis
            assert approx(back.left, front.left)
            assert approx(back.bottom, A4[1] - front.top)
        assert approx(back.width, front.width) and approx(back.height, front.height)


def test_back_offset_moves_backs_right_and_down(tmp_path, build):
    plain = build(id_deck(tmp_path / "a", 3)).path
    moved = build(id_deck(tmp_path / "b", 3), offset_mm=(1.0, 0.5)).path
    for i in range(3):
        before, after = cards_on(plain, 1)[card_colour(i)], cards_on(moved, 1)[card_colour(i)]
        assert approx(after.left - before.left, 1.0)
        assert approx(after.bottom - before.bottom, -0.5)
        assert cards_on(moved, 0)[card_colour(i)] == cards_on(plain, 0)[card_colour(i)]


def test_crop_marks_mark_every_trim_corner_outside_the_cards(tmp_path, build):
    path = build(id_deck(tmp_path / "deck", 9)).path
    cards = list(cards_on(path, 0).values())
    marks = crop_marks(path, 0)
    assert marks
    for card in cards:
        for x in (card.left, card.right):
            above = [m for m in marks if m.width < 0.5 and approx(m.centre[0], x)
                     and m.bottom >= max(c.top for c in cards)]
            below = [m for m in marks if m.width < 0.5 and approx(m.centre[0], x)
                     and m.top <= min(c.bottom for c in cards)]
            assert above and below, f"no vertical crop mark at x={x:.2f} mm"
        for y in (card.bottom, card.top):
            left = [m for m in marks if m.height < 0.5 and approx(m.centre[1], y)
                    and m.right <= min(c.left for c in cards)]
            right = [m for m in marks if m.height < 0.5 and approx(m.centre[1], y)
                     and m.left >= max(c.right for c in cards)]
            assert left and right, f"no horizontal crop mark at y={y:.2f} mm"
    for mark in marks:  # never on a card
        for card in cards:
            overlap_x = min(mark.right, card.right) - max(mark.left, card.left)
            overlap_y = min(mark.top, card.top) - max(mark.bottom, card.bottom)
            assert overlap_x <= TOLERANCE or overlap_y <= TOLERANCE
        assert 0 < mark.left and mark.right < A4[0] and 0 < mark.bottom and mark.top < A4[1]


def test_bleed_extends_backgrounds_and_separates_cards(tmp_path, build):
    path = build(id_deck(tmp_path / "deck", 4), bleed_mm=3).path
    fronts = cards_on(path, 0)
    for i in range(4):
        card = fronts[card_colour(i)]
        assert approx(card.width, 63.5 + 6) and approx(card.height, 88.9 + 6)
    first, second = fronts[card_colour(0)], fronts[card_colour(1)]
    assert approx(second.left, first.right)  # bleed areas touch, trims are 6 mm apart
    reader = PdfReader(str(path))
    trim, bleed = reader.pages[0].trimbox, reader.pages[0].bleedbox
    mm = 72 / 25.4
    assert approx((float(bleed.left) - float(trim.left)) / mm, -3)
    assert approx((float(trim.right) - float(trim.left)) / mm, 2 * 63.5 + 6)


def test_trim_box_surrounds_the_cards(tmp_path, build):
    path = build(id_deck(tmp_path / "deck", 9)).path
    box = PdfReader(str(path)).pages[0].trimbox
    mm = 72 / 25.4
    assert approx(float(box.left) / mm, 9.75) and approx(float(box.right) / mm, 200.25)
    assert approx(float(box.bottom) / mm, (297 - 3 * 88.9) / 2)


def test_gutterfold_puts_each_back_mirrored_across_the_fold(tmp_path, build):
    path = build(id_deck(tmp_path / "deck", 4), sheet="gutterfold").path
    width, height = page_sizes(path)[0]
    assert (width, height) == pytest.approx((297, 210), abs=0.01)
    fold = width / 2
    placed = {}
    for shape in shapes(path, 0):
        if shape.fill and not shape.stroked and approx(shape.width, 63.5):
            placed.setdefault(shape.fill, []).append(shape)
    assert len(placed) == 4
    for i in range(4):
        front, back = sorted(placed[card_colour(i)], key=lambda s: s.left)
        assert front.right <= fold and back.left >= fold
        assert approx(back.left - fold, fold - front.right)
        assert approx(back.bottom, front.bottom)
    fold_lines = [s for s in shapes(path, 0) if s.stroked and approx(s.centre[0], fold)
                  and s.width < 0.5 and s.height > 150]
    assert fold_lines


@pytest.mark.parametrize("size,per_page", [("poker", 9), ("bridge", 9), ("mini-euro", 12),
                                           ("mini-american", 16), ("tarot", 4), ("square", 6)])
def test_other_card_sizes_get_as_many_a_page_as_fit(tmp_path, build, size, per_page):
    result = build(id_deck(tmp_path / "deck", per_page + 1, size))
    assert result.pages == 4
    width, height = SIZE_PRESETS_MM[size]
    fronts = cards_on(result.path, 0)
    assert len(fronts) == per_page
    for card in fronts.values():
        assert approx(card.width, width) and approx(card.height, height)


def test_every_font_is_embedded_and_helvetica_is_never_named(tmp_path, build):
    path = build(bundled_decks()["blofa"]).path
    reader = PdfReader(str(path))
    names = set()
    for page in reader.pages:
        fonts = page["/Resources"].get_object().get("/Font", {})
        for ref in fonts.values():
            font = ref.get_object()
            names.add(str(font["/BaseFont"]))
            descendants = font.get("/DescendantFonts")
            descriptor = (descendants[0].get_object() if descendants else font)["/FontDescriptor"]
            assert "/FontFile2" in descriptor.get_object(), f"{font['/BaseFont']} not embedded"
    assert {n.split("+")[-1] for n in names} >= {"Lato-Regular", "Lato-Bold", "Lato-Black"}
    assert b"Helvetica" not in path.read_bytes()


def test_blue_and_yellow_backs_print_in_their_colours(tmp_path, build):
    path = build(bundled_decks()["blofa"]).path
    # Page 2 holds the first 9 cards' backs: all blue. Page 4 the last 9: all yellow.
    # Sample the middle of the back's disc in the top-left slot (long-edge mirrored).
    dpi = 50
    x_mm, y_mm = 9.75 + 63.5 / 2, (297 - 3 * 88.9) / 2 + 88.9 * 0.5
    for page, expected in ((1, (0x1F, 0x5F, 0xA8)), (3, (0xE3, 0xA8, 0x00))):
        image = render_page(path, page, dpi)
        pixel = image.getpixel((round(x_mm / 25.4 * dpi), round(y_mm / 25.4 * dpi)))
        assert all(abs(a - b) <= 6 for a, b in zip(pixel, expected)), (page, pixel)
