"""The shape cards' corner indices, read back from the built PDF with PDFium: on each of
the 27 fronts, the top-left corner shows the card's number over a small copy of its shape
in its fill, the bottom-right corner shows the same turned 180 degrees, and the index stays
out of the cut band and clear of the big shapes."""

from __future__ import annotations

from dataclasses import dataclass

import pypdfium2 as pdfium
import pytest
from PIL import Image, ImageChops, ImageStat

from cardkit.imposition.plan import plan_pages
from cardkit.imposition.sheets import SheetOptions
from cardkit.pipeline.build import Which, build_deck
from cardkit.sources.bundled import bundled_decks
from pdfgeom import MM, chars, shapes

DPI = 150
SCALE = DPI / 72  # pixels a point
CARD = (63.5, 88.9)  # poker, mm
# The top-left index's region on the card, (left, top, right, bottom) in mm from the card's
# top-left corner: inside the frame's inner edge (4.2 mm), left of the big shapes (22.5 mm).
INDEX = (4.6, 4.6, 15.0, 23.0)
INDEX_ICON = (4.6, 13.2, 15.0, 23.0)  # the part of it below the number
GUTTER = (15.0, 4.6, 20.0, CARD[1] - 4.6)  # between the index column and the big shapes
INK = (0x2b, 0x2f, 0x6b)  # the shape cards' colour
WHITE = (255, 255, 255)  # the fronts' background
CUT_BAND = 3.5  # mm from the trim that nothing on a front may come nearer than


@dataclass
class Front:
    """One shape card's front as printed: its fields, its rendered trim (greyscale, one
    pixel a 1/150 in), and the characters and the bounds of the paths PDFium finds on it
    (a stroke's bounds include its width), in mm from its top-left."""

    shape: str
    number: int
    fill: str
    image: Image.Image
    chars: list[tuple[str, float, float, float, float]]  # text, left, top, right, bottom
    marks: list[tuple[float, float, float, float]]  # every drawn path but the background

    def crop(self, region, margin: int = 0) -> Image.Image:
        """The pixels of a region (mm from the card's top-left), ``margin`` px wider on
        each side; its size depends only on the region's size, so crops compare."""
        left, top = round(region[0] * MM * SCALE), round(region[1] * MM * SCALE)
        width = round((region[2] - region[0]) * MM * SCALE)
        height = round((region[3] - region[1]) * MM * SCALE)
        return self.image.crop((left - margin, top - margin, left + width + margin,
                                top + height + margin))

    def text_in(self, region) -> str:
        """The characters whose boxes lie inside a region, in reading order."""
        left, top, right, bottom = region
        return "".join(c[0] for c in self.chars if left <= c[1] and c[3] <= right
                       and top <= c[2] and c[4] <= bottom)


def turned(region):
    """A region of the card mirrored through the card's centre."""
    left, top, right, bottom = region
    return (CARD[0] - right, CARD[1] - bottom, CARD[0] - left, CARD[1] - top)


@pytest.fixture(scope="module")
def fronts(tmp_path_factory) -> list[Front]:
    """The 27 distinct fronts (cards 1-27: every shape x number x fill, with the left
    arrow back), built on A4 and rendered at 150 dpi."""
    options = SheetOptions()
    result = build_deck(bundled_decks()["shapes"], tmp_path_factory.mktemp("shapes"), options,
                        which=Which(cards="1-27"))
    copies = result.deck.copies()
    plan = plan_pages(len(copies), result.deck.size.width, result.deck.size.height, options)
    found = []
    for page_index, page in enumerate(plan.pages):
        if not page.slots or page.slots[0].side != "front":
            continue
        on_page = chars(result.path, page_index)
        paths = shapes(result.path, page_index)
        for slot in page.slots:
            assert slot.turned == 0
            top = slot.y + slot.height  # points from the page's foot
            mine = [(c.text, c.left - slot.x / MM, top / MM - c.top, c.right - slot.x / MM,
                     top / MM - c.bottom) for c in on_page
                    if _inside(slot, c.left, c.bottom, c.right, c.top)]
            marks = [(s.left - slot.x / MM, top / MM - s.top, s.right - slot.x / MM,
                      top / MM - s.bottom) for s in paths
                     if s.fill != WHITE and _inside(slot, s.left, s.bottom, s.right, s.top)]
            fields = copies[slot.index].fields
            found.append(Front(fields["shape"], fields["number"], fields["fill"],
                               render_card(result.path, page_index, slot), mine, marks))
    return found


def render_card(path, page_index: int, slot) -> Image.Image:
    """A card's trim rendered alone, greyscale, its corners on pixel corners, so the two
    ends of a card that is the same turned 180 degrees render alike to the pixel."""
    document = pdfium.PdfDocument(str(path))
    try:
        page = document[page_index]
        page.set_cropbox(slot.x, slot.y, slot.x + slot.width, slot.y + slot.height)
        # PDFium keeps the box in 32-bit floats, so its width may come out a hair over the
        # card's and round up to one pixel more, stretching the card: render a hair smaller.
        image = page.render(scale=SCALE * (1 - 1e-6), grayscale=True).to_pil()
        assert image.size == (round(slot.width * SCALE), round(slot.height * SCALE))
        return image
    finally:
        document.close()


def _inside(slot, left: float, bottom: float, right: float, top: float) -> bool:
    """Whether bounds in mm from the page's lower-left corner lie on a slot's card."""
    return slot.x / MM - 0.01 <= left and right <= (slot.x + slot.width) / MM + 0.01 and \
        slot.y / MM - 0.01 <= bottom and top <= (slot.y + slot.height) / MM + 0.01


def darkness(image: Image.Image) -> float:
    """How much of a greyscale region is inked, 0 (white) to 1 (all the shapes' colour)."""
    ink = 0.299 * INK[0] + 0.587 * INK[1] + 0.114 * INK[2]
    return (255 - ImageStat.Stat(image).mean[0]) / (255 - ink)


def ink_box(image: Image.Image) -> tuple[int, int, int, int]:
    """The bounds (left, top, right, bottom) of the inked pixels of a region."""
    box = image.point(lambda v: 255 if v < 160 else 0).getbbox()
    assert box is not None, "no ink in the region"
    return box


def part(image, box, fractions) -> Image.Image:
    """A part of ``box`` (pixels) given as fractions (left, top, right, bottom) of it."""
    left, top, right, bottom = box
    width, height = right - left, bottom - top
    return image.crop((round(left + fractions[0] * width), round(top + fractions[1] * height),
                       round(left + fractions[2] * width), round(top + fractions[3] * height)))


def index_shape(image: Image.Image) -> str:
    """Which shape the index icon is, from where its outline reaches the corners of its
    bounds: a square fills all four, an upright triangle the two at its foot, a circle
    none."""
    box = ink_box(image)
    top_left = darkness(part(image, box, (0, 0, 0.08, 0.08)))
    foot_left = darkness(part(image, box, (0, 0.92, 0.08, 1)))
    if top_left > 0.4:
        return "square"
    return "triangle" if foot_left > 0.4 else "circle"


def index_fill(image: Image.Image) -> str:
    """The index icon's fill, from how much of a patch inside its outline is inked (the
    patch lies inside a circle, an upright triangle and a square alike)."""
    inside = darkness(part(image, ink_box(image), (0.4, 0.55, 0.6, 0.8)))
    if inside < 0.1:
        return "clear"
    return "solid" if inside > 0.85 else "striped"


def mismatch(first: Image.Image, second: Image.Image, margin: int) -> float:
    """The mean difference (0-255) of ``first`` and the best-aligned window of ``second``,
    which has ``margin`` more pixels on each side: rounding a region's edges to pixels may
    shift a card's two corners by a pixel against each other."""
    width, height = first.size
    return min(ImageStat.Stat(ImageChops.difference(
        first, second.crop((dx, dy, dx + width, dy + height)))).mean[0]
        for dx in range(2 * margin + 1) for dy in range(2 * margin + 1))


def test_the_sample_is_every_shape_number_and_fill(fronts):
    assert sorted((f.shape, f.number, f.fill) for f in fronts) == sorted(
        (shape, number, fill) for shape in ("circle", "triangle", "square")
        for number in (1, 2, 3) for fill in ("clear", "striped", "solid"))


def test_the_top_left_index_shows_the_number(fronts):
    for front in fronts:
        assert front.text_in(INDEX) == str(front.number), (front.shape, front.number)


def test_the_bottom_right_index_shows_the_number_too(fronts):
    for front in fronts:
        assert front.text_in(turned(INDEX)) == str(front.number), (front.shape, front.number)


def test_the_index_icon_is_the_cards_shape_in_the_cards_fill(fronts):
    for front in fronts:
        icon = front.crop(INDEX_ICON)
        assert (index_shape(icon), index_fill(icon)) == (front.shape, front.fill), \
            (front.shape, front.number, front.fill)


def test_the_bottom_right_index_is_the_top_left_one_turned(fronts):
    by_face = {(f.shape, f.number, f.fill): f for f in fronts}
    for front in fronts:
        top_left = front.crop(INDEX)
        bottom_right = front.crop(turned(INDEX), margin=1)
        assert mismatch(top_left, bottom_right.rotate(180), 1) < 1, (front.shape, front.number)
        # not merely alike: unturned, the corners differ (the number sits at the other end)
        assert mismatch(top_left, bottom_right, 1) > 20, (front.shape, front.number)
        # and the comparison tells numbers apart: a card of another number, the closest
        # lookalike, does not pass for this one (they differ by 4 or more)
        for number in {1, 2, 3} - {front.number}:
            other = by_face[front.shape, number, front.fill].crop(turned(INDEX), margin=1)
            assert mismatch(top_left, other.rotate(180), 1) > 3, (front.shape, front.number)


def test_nothing_on_a_front_comes_near_the_trim(fronts):
    """The frame, the indices and the big shapes all keep 3.5 mm from the trim, so a cut
    that drifts by 1.5 mm still leaves them whole and about even."""
    for front in fronts:
        assert front.marks, (front.shape, front.number)
        for left, top, right, bottom in front.marks:
            assert min(left, top, CARD[0] - right, CARD[1] - bottom) >= CUT_BAND
        for _, left, top, right, bottom in front.chars:
            assert min(left, top, CARD[0] - right, CARD[1] - bottom) >= CUT_BAND


def test_the_index_column_is_clear_of_the_big_shapes(fronts):
    for front in fronts:
        assert darkness(front.crop(GUTTER)) < 0.005, (front.shape, front.number)
        assert darkness(front.crop(turned(GUTTER))) < 0.005, (front.shape, front.number)
