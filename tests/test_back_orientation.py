"""Every sheet, paper, orientation and duplex edge gives a card the same back-to-front
relation as an export: hold the cut card front up, turn it over about its own vertical
axis, and its back is upright. Checked by content, with a back that is not the same
turned round: a red bar along the top of its left half.

The printed sheet is turned over as a printer turns it (about its long or short edge; a
gutterfold sheet about the fold), the back page is laid behind the front page, each card
is cut out where its front is (found by its colour), turned upright by the bar along its
front's top, and turned over.
"""

from __future__ import annotations

import pytest
from PIL import Image, ImageOps

from cardkit.imposition.sheets import mirrors_columns
from conftest import hex_colour, write_deck
from pdfgeom import page_count, page_sizes, render_page, shapes

DPI = 60
FRONT = """
elements:
  - {name: bg, kind: rect, box: card, bleed: true, fill: "{colour}"}
  - {name: top, kind: rect, box: [0%, 0%, 100%, 12%], fill: "#000000"}
"""
BACK = """
elements:
  - {name: bg, kind: rect, box: card, bleed: true, fill: "#ffffff"}
  - {name: mark, kind: rect, box: [0%, 0%, 50%, 12%], fill: "#ff0000"}
"""


def light(i: int) -> tuple[int, int, int]:
    """A light colour per card: far from the front's black bar and the back's red one."""
    return (120 + 15 * i, 200, 230)


def arrow_deck(folder, count: int = 8):
    cards = "\n".join(f"  - {{colour: '{hex_colour(light(i))}'}}" for i in range(count))
    return write_deck(folder, f"name: arrows\nsize: poker\nfront: front\nbacks:\n"
                              f"  b: {{layout: back}}\nfields:\n  colour: colour\ncards:\n"
                              f"{cards}\n", {"front": FRONT, "back": BACK})


def _crop(image: Image.Image, shape, page_height_mm: float, bleed: float) -> Image.Image:
    """The card's trim: its background's rectangle less the bleed it runs into."""
    px = DPI / 25.4
    return image.crop((round((shape.left + bleed) * px),
                       round((page_height_mm - shape.top + bleed) * px),
                       round((shape.right - bleed) * px),
                       round((page_height_mm - shape.bottom - bleed) * px)))


def _upright(front: Image.Image) -> int:
    """The quarter turns (counter-clockwise, as PIL rotates) that put the front's black
    bar at the top."""
    for turns in range(4):
        turned = front.rotate(90 * turns, expand=True).convert("L")
        band = turned.crop((turned.width // 10, turned.height // 20, turned.width * 9 // 10,
                            turned.height // 10))
        if band.getextrema()[1] < 40:  # black across, inside any bleed the card has
            return turns
    raise AssertionError("no black bar along any edge of the front")


def _seen_backs(pdf, fronts: int, backs: int, turn_over, bleed=0.0) -> list[Image.Image]:
    """Each card's back as seen when the cut card is held front up and turned over about
    its own vertical axis."""
    width_mm, height_mm = page_sizes(pdf)[fronts]
    front_page = render_page(pdf, fronts, DPI).convert("RGB")
    behind = turn_over(render_page(pdf, backs, DPI).convert("RGB"))
    colours = {light(i) for i in range(8)}
    seen = []
    for shape in shapes(pdf, fronts):
        if shape.fill in colours and shape.width > 30 and shape.height > 30:
            front = _crop(front_page, shape, height_mm, bleed)
            turns = _upright(front)
            through = _crop(behind, shape, height_mm, bleed).rotate(90 * turns, expand=True)
            seen.append(ImageOps.mirror(through))
    return seen


def _red_top_left(back: Image.Image) -> bool:
    w, h = back.size
    def red(box):
        r, g, b = back.crop(box).resize((1, 1)).getpixel((0, 0))
        return r > 180 and g < 90 and b < 90
    return red((w // 8, h // 20, w * 3 // 8, h // 10)) and \
        not red((w * 5 // 8, h // 20, w * 7 // 8, h // 10)) and \
        not red((w // 8, h * 9 // 10, w * 3 // 8, h * 19 // 20))


CASES = [(paper, orientation, duplex, bleed)
         for paper in ("a4", "letter") for orientation in ("portrait", "landscape")
         for duplex in ("long", "short") for bleed in (0.0, 3.0)]


@pytest.mark.parametrize("paper, orientation, duplex, bleed", CASES,
                         ids=["-".join(map(str, case)) for case in CASES])
def test_pnp_backs_are_upright_behind_their_fronts(tmp_path, build, paper, orientation,
                                                   duplex, bleed):
    result = build(arrow_deck(tmp_path / "deck"), paper=paper, orientation=orientation,
                   duplex=duplex, bleed_mm=bleed)
    pdf = result.path
    width, height = page_sizes(pdf)[0]
    columns = mirrors_columns(duplex, width, height)
    turn_over = ImageOps.mirror if columns else ImageOps.flip
    seen = []
    for fronts in range(0, page_count(pdf), 2):
        seen += _seen_backs(pdf, fronts, fronts + 1, turn_over, bleed)
    assert len(seen) == 8
    assert all(_red_top_left(back) for back in seen)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_gutterfold_backs_are_upright_behind_their_fronts(tmp_path, build, paper):
    """The fold turns the back half over onto the front half about the fold line."""
    result = build(arrow_deck(tmp_path / "deck"), sheet="gutterfold", paper=paper)
    pdf = result.path
    seen = []
    for page in range(page_count(pdf)):
        seen += _seen_backs(pdf, page, page, ImageOps.mirror)
    assert len(seen) == 8
    assert all(_red_top_left(back) for back in seen)
