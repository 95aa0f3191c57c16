"""Write a board (:mod:`cardkit.deck.boards`) as one whole-size page for a print shop, and
as tiles (:mod:`cardkit.imposition.boards`) on A4 or Letter after a page map: each tile
its part of the board, a dashed line where the next tile's edge goes, that tile's name in
the strip they share, and a footer naming the tile."""

from __future__ import annotations

from pathlib import Path

from reportlab.lib import colors
from reportlab.pdfgen.canvas import Canvas

from ..assets.fonts import DEFAULT_FONT, register
from ..assets.shaping import isolated
from ..common.units import MM
from ..deck.boards import Board
from ..deck.model import Deck
from ..imposition.boards import OVERLAP, Tile, TilePlan, column_name
from ..imposition.paper import PAPER_NAMES, PRINTABLE_BORDER
from ..render.card import FRONT, CardRenderer
from ..render.textpaint import line_width, set_line
from .metadata import describe
from .sheet_parts import FOOTER_SIZE, LABEL_COLOUR, draw_scaled

MARK_COLOUR = colors.HexColor("#e0008c")  # seen on any art
MARK_WIDTH = 0.5  # points
MAP_MARGIN = 20 * MM
WHOLE_BLEED = 3 * MM  # round the whole board, as board printers ask (1/8 in)


def write_whole_board(path: Path, deck: Deck, board: Board, card, renderer) -> None:
    """The board on one page of its own size and :data:`WHOLE_BLEED` round it, as board
    printers ask: its bleed elements run to the page's edge, its TrimBox and BleedBox say
    where it is cut and how far its art runs."""
    width, height = board.width + 2 * WHOLE_BLEED, board.height + 2 * WHOLE_BLEED
    canvas = Canvas(str(path), pagesize=(width, height),
                    initialFontName=register(DEFAULT_FONT), invariant=1, pageCompression=1)
    describe(canvas, deck, f"board {board.name}")
    canvas.setTrimBox([WHOLE_BLEED, WHOLE_BLEED, WHOLE_BLEED + board.width,
                       WHOLE_BLEED + board.height])
    canvas.setBleedBox([0, 0, width, height])
    renderer.draw(canvas, card, FRONT, WHOLE_BLEED, WHOLE_BLEED, board.width, board.height,
                  WHOLE_BLEED)
    canvas.showPage()
    canvas.save()


def write_board_tiles(path: Path, deck: Deck, board: Board, card, renderer: CardRenderer,
                      plan: TilePlan, paper: str) -> None:
    """The page map, then each tile on its page."""
    canvas = Canvas(str(path), pagesize=(plan.page_width, plan.page_height),
                    initialFontName=register(DEFAULT_FONT), invariant=1, pageCompression=1)
    describe(canvas, deck, f"board {board.name}")
    _page_map(canvas, deck, board, card, renderer, plan, paper)
    for number, tile in enumerate(plan.tiles, 1):
        canvas.saveState()
        clip = canvas.beginPath()
        clip.rect(tile.page_x, tile.page_y, tile.width, tile.height)
        canvas.clipPath(clip, stroke=0, fill=0)
        renderer.draw(canvas, card, FRONT, tile.page_x - tile.x, tile.page_y - tile.y,
                      board.width, board.height)
        canvas.restoreState()
        _marks(canvas, tile, plan)
        _footer(canvas, plan, f"{isolated(deck.title)} · board {isolated(board.name)} · tile "
                f"{tile.name} (page {number + 1}/{len(plan.tiles) + 1}) · print at 100%", deck.fonts)
        canvas.showPage()
    canvas.save()


def _marks(canvas, tile: Tile, plan: TilePlan) -> None:
    """In each strip the tile shares with the next one: a dashed line where that tile's
    edge goes, and its name."""
    canvas.saveState()
    canvas.setStrokeColor(MARK_COLOUR)
    canvas.setFillColor(MARK_COLOUR)
    canvas.setLineWidth(MARK_WIDTH)
    canvas.setDash(3, 2)
    canvas.setFont(DEFAULT_FONT, 8)
    x0, y0 = tile.page_x - tile.x, tile.page_y - tile.y  # the board's origin on the page
    edge = MARK_WIDTH / 2  # the line's near side is where the next tile's edge goes
    if tile.next_x is not None:
        x = x0 + tile.next_x + edge
        canvas.line(x, tile.page_y, x, tile.page_y + tile.height)
        _name(canvas, x + OVERLAP / 2, tile.page_y + tile.height / 2, 90,
              f"{column_name(tile.column + 1)}{tile.row + 1} goes over here")
    if tile.next_y is not None:
        y = y0 + tile.next_y - edge
        canvas.line(tile.page_x, y, tile.page_x + tile.width, y)
        _name(canvas, tile.page_x + tile.width / 2, y - OVERLAP / 2, 0,
              f"{column_name(tile.column)}{tile.row + 2} goes over here")
    canvas.restoreState()


def _name(canvas, x, y, angle, text) -> None:
    canvas.saveState()
    canvas.translate(x, y)
    canvas.rotate(angle)
    set_line(canvas, 0, -3, text, "centre")
    canvas.restoreState()


def _footer(canvas, plan: TilePlan, text: str, fallbacks: tuple[str, ...]) -> None:
    size = min(FOOTER_SIZE, FOOTER_SIZE * (plan.page_width - 2 * PRINTABLE_BORDER)
               / line_width(text, DEFAULT_FONT, FOOTER_SIZE, fallbacks))
    canvas.setFillColor(LABEL_COLOUR)
    canvas.setFont(DEFAULT_FONT, size)
    set_line(canvas, plan.page_width / 2, PRINTABLE_BORDER + 1 * MM, text, "centre", fallbacks)


def _page_map(canvas, deck, board, card, renderer, plan: TilePlan, paper: str) -> None:
    """The board small, with each tile's part outlined and named: which page goes where."""
    width, height = plan.page_width, plan.page_height
    canvas.setFillColor(colors.black)
    canvas.setFont(DEFAULT_FONT, 12)
    set_line(canvas, MAP_MARGIN, height - MAP_MARGIN,
             f"{isolated(deck.title)}: board {isolated(board.name)}, {board.width / MM:.0f} x "
             f"{board.height / MM:.0f} mm on {len(plan.tiles)} "
             f"{PAPER_NAMES[paper]} pages (page map)", fallbacks=deck.fonts)
    canvas.setFont(DEFAULT_FONT, 9)
    set_line(canvas, MAP_MARGIN, height - MAP_MARGIN - 14,
             f"Neighbouring tiles share a {OVERLAP / MM:.0f} mm strip. Trim each tile's"
             " top and left edges at its art and lay it on the dashed line.")
    room_w, room_h = width - 2 * MAP_MARGIN, height - 2 * MAP_MARGIN - 30
    scale = min(room_w / board.width, room_h / board.height)
    x0 = (width - board.width * scale) / 2
    y0 = MAP_MARGIN + (room_h - board.height * scale) / 2
    draw_scaled(canvas, renderer, card, FRONT, x0, y0, scale, board.width, board.height)
    canvas.setStrokeColor(MARK_COLOUR)
    canvas.setFillColor(MARK_COLOUR)
    canvas.setLineWidth(1)
    canvas.setFont(DEFAULT_FONT, 14)
    for number, tile in enumerate(plan.tiles, 2):
        canvas.rect(x0 + tile.x * scale, y0 + tile.y * scale, tile.width * scale,
                    tile.height * scale, stroke=1, fill=0)
        set_line(canvas, x0 + (tile.x + tile.width / 2) * scale,
                 y0 + (tile.y + tile.height / 2) * scale, f"{tile.name} (page {number})",
                 "centre")
    canvas.showPage()
