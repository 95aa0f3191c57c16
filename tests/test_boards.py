"""``cardkit board``: a board larger than the paper, whole and in tiles that overlap. The
tiles are rasterised with PDFium and put back together after the overlap, as a designer
would glue them, and compared with the whole board."""

from __future__ import annotations

import numpy as np
import pdfplumber
import pypdfium2 as pdfium
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


def raster(path, page_index):
    """The page at one pixel a millimetre, as an array (rows from the top)."""
    document = pdfium.PdfDocument(str(path))
    try:
        return np.asarray(document[page_index].render(scale=1 / MM).to_pil().convert("RGB"),
                          dtype=int)
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
    whole = raster(folder / "boardy-board-main.pdf", 0)
    assert whole.shape[:2] in ((300, 500), (300, 501))  # PDFium rounds the size up
    whole = whole[:300, :500]
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
