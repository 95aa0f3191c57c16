"""Deck -> its boards (:mod:`cardkit.deck.boards`) -> for each board, a whole-size PDF and
its tiles on each paper size, as one call the ``board`` command shares."""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

from ..common.atomic import atomic_path, output_root
from ..common.errors import Problem
from ..deck.model import Deck
from ..deck.boards import read_boards
from ..imposition.boards import tile_board
from ..imposition.paper import DEFAULT_PAPERS
from ..writers.board_pdf import write_board_tiles, write_whole_board
from .chosen import check_faces, load_component


@dataclass(frozen=True)
class BoardsResult:
    deck: Deck
    made: tuple  # (board name, whole PDF, ((paper, tiles PDF, tiles), ...)), one a board
    seconds: float
    warnings: tuple[Problem, ...]


def make_boards(deck_path: Path, out_dir: Path, papers=DEFAULT_PAPERS, strict: bool = False,
                variant: dict | None = None, only_declared: bool = False) -> BoardsResult:
    """Write each board of the deck at ``deck_path`` into ``out_dir``/DECK/ whole
    (``DECK-board-NAME.pdf``) and tiled on each of ``papers`` (``...-NAME-a4.pdf``)."""
    started = time.perf_counter()
    deck, boards = load_component(deck_path, read_boards, variant, only_declared)
    cards = [board.card(deck, number) for number, board in enumerate(boards, 1)]
    renderer, report = check_faces(cards, strict)
    made = []
    folder, root = Path(out_dir) / deck.name, output_root(out_dir, deck.path)
    for board, card in zip(boards, cards):
        whole = folder / f"{deck.name}-board-{board.name}.pdf"
        with atomic_path(whole, under=root) as temporary:
            write_whole_board(temporary, deck, board, card, renderer)
        tiled = []
        for paper in papers:
            plan = tile_board(board.width, board.height, paper)
            path = folder / f"{deck.name}-board-{board.name}-{paper}.pdf"
            with atomic_path(path, under=root) as temporary:
                write_board_tiles(temporary, deck, board, card, renderer, plan, paper)
            tiled.append((paper, path, len(plan.tiles)))
        made.append((board.name, whole, tuple(tiled)))
    return BoardsResult(deck, tuple(made), time.perf_counter() - started,
                        tuple(report.warnings))
