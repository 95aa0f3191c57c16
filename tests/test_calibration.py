"""The calibration sheet, printed by a simulated duplex printer that shifts the back side:
the reading taken from the rendered sheet is the --back-offset that puts every back exactly
behind its front.

The simulation follows the paper, not cardkit: the back page is rendered, shifted as the
printer shifts it, turned over about the edge the paper flips on, and laid under the front
as seen against the light. The reading comes from where the red line falls against the
numbers printed on the front scale (their positions read from the PDF's text)."""

from __future__ import annotations

import re

import pytest
from click.testing import CliRunner
from PIL import Image, ImageChops, ImageOps

from cardkit.cli import main
from conftest import card_colour, id_deck
from pdfgeom import chars, page_sizes, render_page
from test_sheets_pdf import approx, cards_on

DPI = 300
PX = 25.4 / DPI  # millimetres a pixel

# (paper, duplex, orientation) -> whether turning the sheet over swaps its columns (else its
# rows): a portrait page turns about its long edge like a book page, a landscape page about
# the same physical edge, which is then its top.
CASES = {("a4", "long", "portrait"): True, ("a4", "short", "portrait"): False,
         ("letter", "long", "landscape"): False, ("letter", "short", "landscape"): True}
PRINTER_SHIFT_PX = (14, -9)  # the back lands 1.19 mm right and 0.76 mm up, seen from the back


def calibration_sheet(tmp_path, paper, duplex, orientation, offset=None):
    args = ["calibrate", "--paper", paper, "--duplex", duplex, "--orientation", orientation,
            "--out", str(tmp_path)]
    if offset:
        args += ["--back-offset", f"{offset[0]:.4f},{offset[1]:.4f}"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    return next((tmp_path / "calibration").glob("*.pdf"))


def seen_against_the_light(path, columns_swap):
    """The front with the shifted back showing through it."""
    front, back = render_page(path, 0, DPI), render_page(path, 1, DPI)
    printed = Image.new("RGB", back.size, "white")
    printed.paste(back, PRINTER_SHIFT_PX)
    turned = ImageOps.mirror(printed) if columns_swap else ImageOps.flip(printed)
    return ImageChops.multiply(front, turned)


def red_lines(image):
    """Centres (x, y) in pixels of the vertical and of the horizontal red line."""
    red, green, _ = image.split()
    mask = ImageChops.subtract(red, green).point(lambda v: 255 if v > 120 else 0)
    found = []
    for vertical in (True, False):
        profile = list(mask.resize((mask.width, 1) if vertical else (1, mask.height),
                                   Image.BOX).tobytes())
        peak = max(profile)
        strong = [(i, v) for i, v in enumerate(profile) if v > peak / 2]
        centre = sum(i * v for i, v in strong) / sum(v for _, v in strong)
        band = mask.crop((round(centre) - 4, 0, round(centre) + 5, mask.height) if vertical
                         else (0, round(centre) - 4, mask.width, round(centre) + 5))
        across = list(band.resize((1, band.height) if vertical else (band.width, 1),
                                  Image.BOX).tobytes())
        start, end = longest_run([v > 0 for v in across])  # the line, not one crossing it
        along = (start + end) / 2
        found.append((centre + 0.5, along) if vertical else (along, centre + 0.5))
    return found


def longest_run(flags) -> tuple[int, int]:
    """(first, last + 1) of the longest run of true flags."""
    best, start = (0, 0), None
    for i, flag in enumerate(list(flags) + [False]):
        if flag and start is None:
            start = i
        elif not flag and start is not None:
            best = max(best, (start, i), key=lambda run: run[1] - run[0])
            start = None
    return best


def number_labels(path):
    """(value, x, y) in mm of every number printed on the front, the position being the
    middle of its digits' ink. Characters join into a number when they share a line (by
    the font's line box) and nearly touch."""
    ink, lines = chars(path, 0), chars(path, 0, loose=True)
    assert [c.text for c in ink] == [c.text for c in lines]
    labels, word = [], []
    for char, line in list(zip(ink, lines)) + [(None, None)]:
        number_char = char is not None and re.fullmatch(r"[-\d]", char.text)
        if word and (not number_char or char.left - word[-1][0].right > 0.3
                     or abs(line.bottom - word[-1][1].bottom) > 0.1):
            text = "".join(c.text for c, _ in word)
            digits = [c for c, _ in word if c.text.isdigit()]
            if re.fullmatch(r"-?\d+", text):
                labels.append((int(text), (digits[0].left + digits[-1].right) / 2,
                               (min(c.bottom for c in digits) + max(c.top for c in digits)) / 2))
            word = []
        if number_char:
            word.append((char, line))
    return labels


def read_scale(labels, pointer_mm, vertical_line):
    """The value under the red line: a straight line through the positions of the numbers
    printed next to it (within 12 mm)."""
    px, py = pointer_mm
    near = [(v, x if vertical_line else y) for v, x, y in labels
            if abs(x - px) <= 12 and abs(y - py) <= 12]
    assert len(near) >= 9, near
    n = len(near)
    mean_p = sum(p for _, p in near) / n
    mean_v = sum(v for v, _ in near) / n
    slope = (sum((p - mean_p) * (v - mean_v) for v, p in near)
             / sum((p - mean_p) ** 2 for _, p in near))
    return mean_v + slope * ((px if vertical_line else py) - mean_p)


def readings(path, columns_swap):
    image = seen_against_the_light(path, columns_swap)
    _, height = page_sizes(path)[0]
    labels = number_labels(path)
    values = []
    for (x, y), vertical in zip(red_lines(image), (True, False)):
        values.append(read_scale(labels, (x * PX, height - y * PX), vertical))
    return tuple(values)


@pytest.mark.parametrize("case", sorted(CASES))
def test_the_reading_is_the_back_offset_that_corrects_the_printer(tmp_path, build, case):
    paper, duplex, orientation = case
    columns_swap = CASES[case]
    shift_right, shift_down = (v * PX for v in PRINTER_SHIFT_PX)
    x, y = readings(calibration_sheet(tmp_path / "cal", *case), columns_swap)
    # moving the backs against the printer's shift: left by its right shift, up by its down
    assert x == pytest.approx(-shift_right, abs=0.05)
    assert y == pytest.approx(-shift_down, abs=0.05)

    # Build with the reading and print on the same printer: every back lands behind its front.
    for offset, aligned in (((0.0, 0.0), False), ((x, y), True)):
        path = build(id_deck(tmp_path / f"deck{offset}", 8), paper=paper, duplex=duplex,
                     orientation=orientation, offset_mm=offset).path
        width, height = page_sizes(path)[0]
        fronts, backs = cards_on(path, 0), cards_on(path, 1)
        for i in range(8):
            front, back = fronts[card_colour(i)], backs[card_colour(i)]
            left, bottom = back.left + shift_right, back.bottom - shift_down  # as printed
            right, top = left + back.width, bottom + back.height
            if columns_swap:
                left, right = width - right, width - left
            else:
                bottom, top = height - top, height - bottom
            assert (approx(left, front.left) and approx(bottom, front.bottom)) == aligned


def test_a_sheet_printed_with_the_right_offset_reads_zero(tmp_path):
    case = ("a4", "long", "portrait")
    first = readings(calibration_sheet(tmp_path / "first", *case), CASES[case])
    again = readings(calibration_sheet(tmp_path / "again", *case, offset=first), CASES[case])
    assert again == pytest.approx((0, 0), abs=0.1)  # two readings' errors add up
