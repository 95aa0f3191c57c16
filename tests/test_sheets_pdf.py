"""Geometry of built sheets, measured from the PDF with PDFium and pypdf (not reportlab):
cards, backs, cutting guides and footers against the 5 mm printable border."""

from __future__ import annotations

import io

import pytest
from pypdf import PdfReader

from cardkit.deck.model import SIZE_PRESETS_MM
from cardkit.sources.bundled import bundled_decks
from cardkit.writers import sheet_pdf
from conftest import ID_BACK, card_colour, id_deck, write_deck
from pdfgeom import chars, page_count, page_sizes, render_page, shapes

TOLERANCE = 0.1  # mm
A4, LETTER = (210.0, 297.0), (215.9, 279.4)
PAPER_SIZES = {"a4": A4, "letter": LETTER}
BORDER = 5.0  # the printable border, mm
POKER = (63.5, 88.9)


def cards_on(path, page_index):
    """Card colour -> its background Shape (the largest filled shape of that colour)."""
    found = {}
    for shape in shapes(path, page_index):
        if shape.fill and not shape.stroked:
            best = found.get(shape.fill)
            if best is None or shape.width * shape.height > best.width * best.height:
                found[shape.fill] = shape
    return found


def guides_on(path, page_index):
    """Cutting guides: black hairline segments (the fold line is grey and dashed)."""
    return [s for s in shapes(path, page_index)
            if s.stroke == (0, 0, 0) and s.fill is None and (s.width < 0.5 or s.height < 0.5)]


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


# Cards a page for poker cards, worked out by hand: a card's trim stays 5 mm inside the
# paper (every cut line needs a guide there); the margins on one axis hold the footer (5 mm
# + a 2.2 mm line + 1 mm, beyond the bleed); portrait unless landscape holds more.
# A4 3 mm: 3 columns need 202.5 of 200 mm, so landscape 4 x 2. Letter 1.5 mm: 3 rows need
# 272.7 of 269.4 mm, so landscape 4 x 2. Letter 3 mm: landscape holds only 3 x 2, portrait
# 3 x 2 upright and, in the 85.6 mm left below them, 2 cards on their side.
POKER_PER_PAGE = {("a4", 0): 9, ("a4", 1.5): 9, ("a4", 3): 8,
                  ("letter", 0): 9, ("letter", 1.5): 8, ("letter", 3): 8}


def long_edge_mirrors_columns(width, height):
    """Turning a sheet about its long edge: a portrait page's columns swap sides, a
    landscape page's rows do."""
    return height > width


def assert_guides_and_footer(path, page_index, cards, bleed, label):
    """Every cut line of ``cards`` (trim Shapes) has a guide at least 3 mm long at both
    ends of the grid, 5 mm or more inside the paper; no guide lies on a card except along
    one of its edges; the footer lies 5 mm or more inside the paper and says what it must."""
    width, height = page_sizes(path)[page_index]
    guides = guides_on(path, page_index)
    for g in guides:
        assert max(g.width, g.height) >= 3 - TOLERANCE, g
        assert g.left >= BORDER - TOLERANCE and g.bottom >= BORDER - TOLERANCE, g
        assert g.right <= width - BORDER + TOLERANCE and g.top <= height - BORDER + TOLERANCE
        for c in cards:
            inside = (min(g.right, c.right) - max(g.left, c.left) > TOLERANCE
                      and min(g.top, c.top) - max(g.bottom, c.bottom) > TOLERANCE)
            on_edge = (approx(g.centre[0], c.left) or approx(g.centre[0], c.right)
                       if g.width < 0.5 else
                       approx(g.centre[1], c.bottom) or approx(g.centre[1], c.top))
            assert not inside or on_edge, f"guide {g} on card {c}"
    upright = [c for c in cards if c.height > c.width]
    for block in (upright, [c for c in cards if c not in upright]):  # cut one after the other
        if not block:
            continue
        top, bottom = max(c.top for c in block), min(c.bottom for c in block)
        left, right = min(c.left for c in block), max(c.right for c in block)
        for x in {round(v, 2) for c in block for v in (c.left, c.right)}:
            along = [g for g in guides if g.width < 0.5 and abs(g.centre[0] - x) <= TOLERANCE]
            assert any(g.top >= top - 5 for g in along), f"no guide above the cut x={x}"
            assert any(g.bottom <= bottom + 5 for g in along), f"no guide below the cut x={x}"
        for y in {round(v, 2) for c in block for v in (c.bottom, c.top)}:
            along = [g for g in guides if g.height < 0.5 and abs(g.centre[1] - y) <= TOLERANCE]
            assert any(g.left <= left + 5 for g in along), f"no guide left of the cut y={y}"
            assert any(g.right >= right - 5 for g in along), f"no guide right of the cut y={y}"
    assert_footer(path, page_index, (min(c.left for c in cards) - bleed,
                                     min(c.bottom for c in cards) - bleed,
                                     max(c.right for c in cards) + bleed,
                                     max(c.top for c in cards) + bleed), label)


def assert_footer(path, page_index, cards_box, label, title="ids"):
    """The characters outside the cards' box are the footer: all 5 mm or more inside the
    paper, naming the deck, the page and 'print at 100%'."""
    width, height = page_sizes(path)[page_index]
    x1, y1, x2, y2 = cards_box
    footer = [c for c in chars(path, page_index)
              if c.right <= x1 or c.left >= x2 or c.top <= y1 or c.bottom >= y2]
    text = "".join(c.text for c in footer)
    assert "printat100%" in text and label.replace(" ", "") in text, text
    assert text.startswith(title.replace(" ", "")[:3]), text
    for c in footer:
        assert c.left >= BORDER and c.bottom >= BORDER, c
        assert c.right <= width - BORDER and c.top <= height - BORDER, c


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("bleed", [0, 1.5, 3])
@pytest.mark.parametrize("duplex", ["long", "short"])
def test_pnp_sheets_keep_guides_and_footer_inside_the_printable_border(
        tmp_path, build, paper, bleed, duplex):
    per_page = POKER_PER_PAGE[paper, bleed]
    result = build(id_deck(tmp_path / "deck", per_page + 1), paper=paper, bleed_mm=bleed,
                   duplex=duplex)
    path = result.path
    width, height = page_sizes(path)[0]
    assert sorted((width, height)) == pytest.approx(PAPER_SIZES[paper], abs=0.01)
    assert page_count(path) == 4
    for page in range(4):
        found = {c: s for c, s in cards_on(path, page).items() if c != (255, 255, 255)}
        assert len(found) == (per_page if page < 2 else 1)
        trims = []
        for card in found.values():  # the background reaches the bleed; the trim is inside
            size = sorted((card.width - 2 * bleed, card.height - 2 * bleed))
            assert size == pytest.approx(POKER, abs=TOLERANCE)  # upright or on its side
            assert card.left >= -TOLERANCE and card.right <= width + TOLERANCE
            assert card.bottom >= -TOLERANCE and card.top <= height + TOLERANCE
            trims.append(type(card)(card.left + bleed, card.bottom + bleed, card.right - bleed,
                                    card.top - bleed, card.fill, False))
        for trim in trims:  # inside the printable border
            assert min(trim.left, trim.bottom, width - trim.right,
                       height - trim.top) >= BORDER - TOLERANCE
        label = f"{'fronts' if page % 2 == 0 else 'backs'} {page // 2 + 1}/2"
        assert_guides_and_footer(path, page, trims, bleed, label)
    fronts, backs = cards_on(path, 0), cards_on(path, 1)
    columns = long_edge_mirrors_columns(width, height) == (duplex == "long")
    for colour, front in fronts.items():
        back = backs[colour]
        if columns:
            assert approx(back.left, width - front.right) and approx(back.bottom, front.bottom)
        else:
            assert approx(back.left, front.left) and approx(back.bottom, height - front.top)


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("bleed", [0, 3])
def test_gutterfold_sheets_keep_guides_and_footer_inside_the_printable_border(
        tmp_path, build, paper, bleed):
    result = build(id_deck(tmp_path / "deck", 5), paper=paper, bleed_mm=bleed,
                   sheet="gutterfold")
    path = result.path
    for page in range(result.pages):
        # without --bleed, gutterfold cards still run up to 1.5 mm past their trims
        cards = [s for s in shapes(path, page) if s.fill and not s.stroked and
                 POKER[0] + 2 * bleed - 0.01 <= s.width <= POKER[0] + max(2 * bleed, 3) + 0.01]
        grown = (cards[0].width - POKER[0]) / 2
        assert bleed == 0 or approx(grown, bleed)
        trims = [type(s)(s.left + grown, s.bottom + grown, s.right - grown, s.top - grown,
                         s.fill, False) for s in cards]
        assert trims
        assert_guides_and_footer(path, page, trims, grown, f"sheet {page + 1}/{result.pages}")


@pytest.mark.parametrize("name", sorted(bundled_decks()))
@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("bleed", [0, 3])
def test_every_page_of_every_bundled_deck_has_its_footer_inside_the_border(
        tmp_path, build, name, paper, bleed):
    result = build(bundled_decks()[name], paper=paper, bleed_mm=bleed)
    if name == "blofa" and bleed:  # its contest asks 9 a sheet, which 3 mm bleed breaks
        assert any("the 18-card contest asks 9 a sheet" in w.what for w in result.warnings)
    reader = PdfReader(str(result.path))
    mm = 72 / 25.4
    assert result.grid.per_page >= (9 if bleed == 0 else 8)
    for index, page in enumerate(reader.pages):
        box = [float(v) / mm for v in page.bleedbox]
        label = f"{'fronts' if index % 2 == 0 else 'backs'} {index // 2 + 1}/{result.pages // 2}"
        assert_footer(result.path, index, box, label, result.deck.title)


def test_bleed_extends_backgrounds_and_separates_cards(tmp_path, build):
    path = build(id_deck(tmp_path / "deck", 4), bleed_mm=3, orientation="portrait").path
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
    for shape in shapes(path, 0):  # each card's background, 1.5 mm past its trim
        if shape.fill and not shape.stroked and approx(shape.width, 63.5 + 3):
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


# Worked by hand for A4 (200 x 287 mm inside the border; 8.2 mm from the edge on the
# footer's axis): bridge 5 x 2 landscape beats 3 x 3; mini-american 7 x 3 landscape fills
# exactly 287 mm; tarot: landscape 4 x 1 leaves 73.6 mm below for 2 cards on their side;
# square ties, so portrait.
@pytest.mark.parametrize("size,per_page", [("poker", 9), ("bridge", 10), ("mini-euro", 16),
                                           ("mini-american", 21), ("tarot", 6), ("square", 8)])
def test_other_card_sizes_get_as_many_a_page_as_fit(tmp_path, build, size, per_page):
    result = build(id_deck(tmp_path / "deck", per_page + 1, size))
    assert result.pages == 4
    width, height = SIZE_PRESETS_MM[size]
    fronts = cards_on(result.path, 0)
    assert len(fronts) == per_page
    for card in fronts.values():  # upright, or on its side in a strip
        assert sorted((card.width, card.height)) == pytest.approx(sorted((width, height)),
                                                                  abs=TOLERANCE)


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
    # Sample the back's disc in the top-left slot (long-edge mirrored), 19 mm right of
    # its centre, clear of the centre mark and its rules.
    dpi = 50
    x_mm, y_mm = 9.75 + 63.5 / 2 + 19, (297 - 3 * 88.9) / 2 + 88.9 * 0.5
    for page, expected in ((1, (0x1F, 0x5F, 0xA8)), (3, (0xE3, 0xA8, 0x00))):
        image = render_page(path, page, dpi)
        pixel = image.getpixel((round(x_mm / 25.4 * dpi), round(y_mm / 25.4 * dpi)))
        assert all(abs(a - b) <= 6 for a, b in zip(pixel, expected)), (page, pixel)




def test_the_pdf_reaches_its_file_in_parts_as_it_is_formatted(tmp_path, build, monkeypatch):
    """A save never holds the whole PDF in memory: reportlab on its own formats all of it
    into one string (twice the file's size at its peak) and writes that at once."""
    writes = []

    class RecordedFile(io.FileIO):
        def write(self, data):
            writes.append(len(data))
            return super().write(data)

    def recorded_open(path, mode="r", *args, **kwargs):
        assert mode == "wb"
        return RecordedFile(path, "wb")

    monkeypatch.setattr(sheet_pdf, "open", recorded_open, raising=False)
    path = build(id_deck(tmp_path, 450)).path
    assert page_count(path) == 100
    assert sum(writes) == path.stat().st_size
    assert max(writes) < path.stat().st_size / 5  # the largest: the font subset


def test_ink_reaching_outside_a_card_is_cut_at_its_edge(tmp_path, build):
    """A card is drawn clipped to its trim (and bleed): a box past the edge, a thick
    stroke on the edge, text that overflows its box are cut there. Measured on the
    rendered page beside each card (one reason each), where there is only paper."""
    layouts = {"id-back": ID_BACK, **{name: "elements:\n  - " + element for name, element in {
        "past-left": '{name: e, kind: rect, box: [-6mm, 10mm, 20mm, 10mm], fill: "#ff0000"}',
        "stroke": '{name: e, kind: rect, box: card, stroke: "#00ff00", stroke_width: 10pt}',
        "overflow": '{name: e, kind: text, box: [10mm, 60mm, 20mm, 10mm], size: 12pt, '
                    'min_size: 12pt, text: "{text}", colour: "#0000ff"}'}.items()}}
    deck = write_deck(tmp_path / "deck", """
        name: reach
        size: poker
        backs:
          plain: {layout: id-back, colour: '#ffffff'}
        fields: {text: text, colour: colour}
        cards:
          - {back: plain, colour: "#ffffff", text: "-", layout: past-left}
          - {back: plain, colour: "#ffffff", text: "-", layout: stroke}
          - {back: plain, colour: "#ffffff", layout: overflow,
             text: "word word word word word word word word word word word word word"}
        """, layouts)
    result = build(deck)
    assert [warning.what.split(": ")[-1] for warning in result.warnings
            if "cut off" in warning.what] == ["reaches outside the card (left) and is cut off "
                                              "there", "reaches outside the card (bottom) and "
                                              "is cut off there"]
    dpi = 300
    image = render_page(result.path, 0, dpi)
    left, top = (A4[0] - 3 * POKER[0]) / 2, (A4[1] - 3 * POKER[1]) / 2

    def pixel(x_mm, y_mm):
        return image.getpixel((round(x_mm * dpi / 25.4), round(y_mm * dpi / 25.4)))

    assert pixel(left + 5, top + 15) == (255, 0, 0)  # the red box, inside the card
    assert pixel(left - 3, top + 15) == (255, 255, 255)  # ... and past its left edge
    second = left + POKER[0]
    assert pixel(second + 30, top + 0.8) == (0, 255, 0)  # the stroke's inner half
    assert pixel(second + 30, top - 0.8) == (255, 255, 255)  # its outer half, cut
    third = left + 2 * POKER[0]
    inside = [pixel(third + 12 + i * 0.5, top + 62 + j) for i in range(30) for j in range(4)]
    below = [pixel(third + 12 + i * 0.5, top + POKER[1] + 1 + j)
             for i in range(30) for j in range(4)]  # where the overflowing lines would be
    assert (255, 255, 255) in inside and len(set(inside)) > 1  # text on the card
    assert set(below) == {(255, 255, 255)}


def test_a_card_leaves_no_opacity_colour_or_width_to_the_next(tmp_path, build):
    """Cards whose ink lies inside them are drawn without a clip (and without saving the
    graphics state): the next card still prints exactly its own colours."""
    deck = write_deck(tmp_path / "deck", """
        name: leaks
        size: poker
        backs:
          plain: {layout: id-back, colour: '#ffffff'}
        fields: {colour: colour}
        cards:
          - {back: plain, colour: "#ffffff", layout: faint}
          - {back: plain, colour: "#ffffff", layout: solid}
        """, {"id-back": ID_BACK,
              "faint": """
        elements:
          - {name: a, kind: rect, box: [10mm, 10mm, 40mm, 60mm], fill: "#ff0000",
             stroke: "#0000ff", stroke_width: 6pt, opacity: 0.3}
          - {name: b, kind: text, box: [10mm, 75mm, 40mm, 8mm], text: "faint",
             colour: "#00ff00", opacity: 0.2}
        """, "solid": """
        elements:
          - {name: a, kind: rect, box: [10mm, 10mm, 40mm, 60mm], fill: "#ff0000"}
          - {name: b, kind: ellipse, box: [20mm, 75mm, 20mm, 8mm], fill: "#00a000"}
        """})
    result = build(deck)
    dpi = 150
    image = render_page(result.path, 0, dpi)
    left, top = (A4[0] - 3 * POKER[0]) / 2, (A4[1] - 3 * POKER[1]) / 2

    def pixel(x_mm, y_mm):
        return image.getpixel((round(x_mm * dpi / 25.4), round(y_mm * dpi / 25.4)))

    faint = pixel(left + 30, top + 40)
    assert faint != (255, 0, 0) and faint[0] == 255  # a pale red
    second = left + POKER[0]
    assert pixel(second + 30, top + 40) == (255, 0, 0)
    assert pixel(second + 10.5, top + 40) == (255, 0, 0)  # no stroke left over
    assert pixel(second + 30, top + 79) == (0, 160, 0)


@pytest.mark.parametrize("sheet", ["pnp", "gutterfold"])
def test_a_part_filled_last_page_has_its_footer_where_a_full_page_has_it(tmp_path, build,
                                                                          sheet):
    """11 cards: the last page holds 2. Its footer's line sits where the first page's
    does, not in the middle of the empty space below the cards (measured from the glyphs
    PDFium finds: the footer is the only text on an id-deck page)."""
    result = build(id_deck(tmp_path / "deck", 11), sheet=sheet)
    pdf = result.path
    last = page_count(pdf) - 1
    first_line = chars(pdf, 0, loose=True)
    last_line = chars(pdf, last, loose=True)
    assert first_line and last_line
    assert min(c.bottom for c in last_line) == pytest.approx(
        min(c.bottom for c in first_line), abs=0.01)
    assert min(c.left for c in last_line) == pytest.approx(
        min(c.left for c in first_line), abs=1.0)  # the label's length differs a little


def _subset_names(pdf) -> set[str]:
    names = set()
    for page in PdfReader(pdf).pages:
        for font in page["/Resources"].get("/Font", {}).values():
            font = font.get_object()
            names.add(str(font["/BaseFont"]))
            assert font["/FontDescriptor"]["/FontName"] == font["/BaseFont"]
    return names


def test_font_subsets_carry_tags_of_their_own(tmp_path, build):
    """A subset's tag (the six letters before '+') depends on what it holds: two files
    with different subsets of Lato never share a name (reportlab tagged each font's first
    subset AAAAAA+ in every file), and the same build gives the same names."""
    blofa = build(bundled_decks()["blofa"])
    ids = build(id_deck(tmp_path / "deck", 3))
    again = build(bundled_decks()["blofa"])
    first, second = _subset_names(blofa.path), _subset_names(ids.path)
    assert first == _subset_names(again.path)
    tags = [name[1:7] for name in first | second]
    assert all(name[7] == "+" for name in first | second)
    assert len(set(tags)) == len(tags) and "AAAAAA" not in tags
    regular = {name for name in first | second if name.endswith("+Lato-Regular")}
    assert len(regular) == 2  # the two files' Lato-Regular subsets differ, and so do names


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_gutterfold_cards_without_bleed_do_not_touch(tmp_path, build, paper):
    """Cards that touched showed the neighbour's colour after a slightly-off cut. Without
    a bleed of the build's, each card's background runs past its trim into a gap (1.5 mm
    on each side where the sheet has room), and the sheet holds as many cards as before."""
    result = build(id_deck(tmp_path / "deck", 8), sheet="gutterfold", paper=paper)
    fronts = sorted((s for s in shapes(result.path, 0) if s.fill == card_colour(0) or
                     s.fill in {card_colour(i) for i in range(8)}), key=lambda s: s.left)
    widths = {round(s.width, 2) for s in fronts}
    assert len(widths) == 1 and 63.5 + 1.0 <= widths.pop() <= 63.5 + 3.0
    lefts = sorted({round(s.left, 2) for s in fronts if s.right < page_sizes(result.path)[0][0] / 2})
    assert len(lefts) == 2 and lefts[1] - lefts[0] >= 63.5 + 2.0  # a gap between the trims
    assert result.grid.per_page == 4


def test_every_sheet_asks_the_print_dialog_for_actual_size(tmp_path):
    """Print dialogs default to 'fit to page', which shrinks every card: each PDF cardkit
    prints from (card sheets, tuck box, tokens, board tiles and whole, calibration) says
    /ViewerPreferences << /PrintScaling /None >>, read back with pypdf."""
    from click.testing import CliRunner

    from cardkit.cli import main
    from componentdeck import write_deck as component_deck

    deck = component_deck(tmp_path, "box: {stock: standard}\ntokens:\n"
                          "  - {shape: round, size: 20mm, front: plain}\n"
                          "boards:\n  - {name: map, width: 300mm, height: 200mm, "
                          "layout: plain}\n", layouts={"plain": "elements:\n  - {name: bg, "
                                                       "kind: rect, box: card, fill: red}\n"})
    out = tmp_path / "out"
    for command in (["build", deck], ["box", deck], ["tokens", deck], ["board", deck],
                    ["calibrate"]):
        result = CliRunner().invoke(main, [*map(str, command), "--out", str(out), "--paper",
                                           "a4"])
        assert result.exit_code == 0, (command, result.output)
    made = sorted(out.rglob("*.pdf"))
    assert len(made) == 6, made  # sheets, box, tokens, board whole and tiled, calibration
    for path in made:
        catalog = PdfReader(path).trailer["/Root"]
        assert catalog["/ViewerPreferences"]["/PrintScaling"] == "/None", path.name
