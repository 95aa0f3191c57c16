"""``cardkit board``: a board larger than the paper, whole and in tiles that overlap. The
tiles are rasterised with PDFium and put back together after the overlap, as a designer
would glue them, and compared with the whole board."""

from __future__ import annotations

import numpy as np
import pdfplumber
import pypdf
import pypdfium2 as pdfium
import pytest
from click.testing import CliRunner

from cardkit.cli import main
from componentdeck import write_deck

MM = 72 / 25.4
BORDER, OVERLAP = 5, 10  # mm
# A4 landscape: the art's room inside the border, above the tile's 7 mm footer
ROOM_W, ROOM_H = 297 - 2 * BORDER, 210 - 2 * BORDER - 7

BOARD = "  - {name: main, width: 500mm, height: 300mm, layout: map}\n"
MAP = """\
elements:
  - {name: bg, kind: rect, box: card, fill: "#204060"}
  - {name: lake, kind: ellipse, box: [30%, 20%, 45%, 60%], fill: "#e0c060"}
  - {name: road, kind: rect, box: [0%, 45%, 100%, 8%], fill: "#c03030"}
  - {name: tower, kind: rect, box: [53%, 5%, 4%, 85%], fill: "#30a040"}
"""


def make_deck(tmp_path, boards=BOARD):
    return write_deck(tmp_path, "boards:\n" + boards, name="boardy", title="Boardy",
                      layouts={"map": MAP})


def raster(path, page_index, crop=0):
    """The page at one pixel a millimetre, as an array (rows from the top), less ``crop``
    mm round it."""
    document = pdfium.PdfDocument(str(path))
    try:  # a hair under 1 px a mm: 506.0001 px would round up to 507, stretching the page
        page = document[page_index].render(scale=(1 - 1e-5) / MM, crop=(crop * MM,) * 4)
        return np.asarray(page.to_pil().convert("RGB"), dtype=int)
    finally:
        document.close()


def rebuilt(path, columns, rows, width, height, shift=0):
    """The board put together from its tiles (pages 2...): from each, what shows once the
    next tiles lie over its strips."""
    board = np.zeros((height, width, 3), dtype=int)
    for row in range(rows):
        for column in range(columns):
            tile = raster(path, 1 + row * columns + column)
            x, y = column * (ROOM_W - OVERLAP), row * (ROOM_H - OVERLAP)
            w = min(ROOM_W - OVERLAP if column < columns - 1 else ROOM_W, width - x)
            h = min(ROOM_H - OVERLAP if row < rows - 1 else ROOM_H, height - y)
            part = tile[BORDER:BORDER + h, BORDER:BORDER + w]
            x += shift  # a tile glued ``shift`` mm off, for the check that this test can fail
            part = part[:, :width - x]
            board[y:y + h, x:x + part.shape[1]] = part
    return board


def differing(a, b) -> float:
    """The share of pixels whose colour differs by more than antialiasing does, but for
    the pixels next to a seam: the dashed line lies against it in the strip the next tile
    covers, and PDFium widens a line that thin to a whole pixel."""
    apart = np.abs(a - b).max(axis=2) > 48
    for x in range(ROOM_W - OVERLAP, a.shape[1], ROOM_W - OVERLAP):
        apart[:, x - 1] = False
    for y in range(ROOM_H - OVERLAP, a.shape[0], ROOM_H - OVERLAP):
        apart[y - 1, :] = False
    return float(apart.mean())


def test_the_tiles_rebuild_the_whole_board(tmp_path):
    """A 500 x 300 mm board goes on 2 x 2 landscape A4 tiles (fewer than 3 x 2 portrait);
    glued after their 10 mm overlaps they match the whole board, where a tile placed 1 mm
    off would not."""
    result = CliRunner().invoke(main, ["board", str(make_deck(tmp_path)), "--out",
                                       str(tmp_path / "out"), "--paper", "a4"])
    assert result.exit_code == 0, result.output
    assert "4 tiles on A4" in result.output
    folder = tmp_path / "out" / "boardy"
    whole = raster(folder / "boardy-board-main.pdf", 0, crop=3)  # less its 3 mm bleed
    assert whole.shape[:2] == (300, 500)
    tiles = folder / "boardy-board-main-a4.pdf"
    with pdfplumber.open(tiles) as pdf:
        assert len(pdf.pages) == 5
        assert [round(p.width / MM) for p in pdf.pages] == [297] * 5  # landscape
        page_map = pdf.pages[0].extract_text()
        assert "page map" in page_map and "B2 (page 5)" in page_map
        assert "A2 goes over here" in pdf.pages[1].extract_text()  # and B1, turned
    board = rebuilt(tiles, 2, 2, 500, 300)
    assert differing(board, whole) < 0.002  # measured 0.00075: antialiased edges
    assert differing(rebuilt(tiles, 2, 2, 500, 300, shift=1), whole) > 0.005  # measured 0.0083


def test_a_board_mistake_exits_2_naming_its_line(tmp_path):
    deck = make_deck(tmp_path, "  - {name: main, width: 20mm, height: 300mm, layout: map}\n")
    result = CliRunner().invoke(main, ["board", str(deck), "--out", str(tmp_path / "out")])
    assert result.exit_code == 2, result.output
    assert "deck.yaml:11:25: a board 20 mm wide is out of range; give 50 to 2000 mm" \
        in result.output


def test_the_whole_board_has_3mm_bleed_and_a_trim_box_for_a_print_shop(tmp_path):
    """The board's page is 3 mm larger each way than the board: pypdf reads its TrimBox at
    the board (500 x 300 mm, 3 mm in) and its BleedBox at the page; PDFium finds the
    background, a bleed element, on every edge of the page, and the road (not one) ending at
    the trim."""
    deck = make_deck(tmp_path)
    layouts = tmp_path / "layouts" / "map.yaml"
    layouts.write_text(MAP.replace("box: card,", "box: card, bleed: true,"))
    result = CliRunner().invoke(main, ["board", str(deck), "--out", str(tmp_path / "out"),
                                       "--paper", "a4"])
    assert result.exit_code == 0, result.output
    path = tmp_path / "out" / "boardy" / "boardy-board-main.pdf"
    page = pypdf.PdfReader(path).pages[0]
    boxes = {name: [float(v) / MM for v in getattr(page, name)]
             for name in ("mediabox", "bleedbox", "trimbox")}
    assert boxes["mediabox"] == pytest.approx([0, 0, 506, 306], abs=0.01)
    assert boxes["bleedbox"] == pytest.approx([0, 0, 506, 306], abs=0.01)
    assert boxes["trimbox"] == pytest.approx([3, 3, 503, 303], abs=0.01)
    image = raster(path, 0)[:306, :506]
    background = np.array([0x20, 0x40, 0x60])
    for edge in (image[0, 10:-10], image[305, 10:-10], image[10:-10, 0], image[10:-10, 505]):
        assert (np.abs(edge - background).max(axis=1) <= 8).all()
    road_row = 3 + round(300 * 0.49)  # the road, 45% to 53% down the board, not bleeding
    assert (np.abs(image[road_row, 1] - background).max() <= 8)
    assert (np.abs(image[road_row, 4] - [0xc0, 0x30, 0x30]).max() <= 8)
