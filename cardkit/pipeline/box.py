"""Deck -> its tuck box (:mod:`cardkit.deck.box`) -> the dieline's sheets -> a PDF on each
paper size, as one call the ``box`` command shares."""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

from ..common.atomic import atomic_path, output_root
from ..common.errors import InputError, Problem, Where
from ..deck.box import Box, read_box
from ..deck.model import Deck
from ..imposition.paper import DEFAULT_PAPERS
from ..imposition.sheets import SheetError
from ..imposition.tuckbox import box_sheets
from ..writers.box_pdf import write_box_pdf
from .chosen import check_faces, load_component


@dataclass(frozen=True)
class BoxResult:
    box: Box
    paths: tuple[Path, ...]  # one a paper size, in the order asked
    sheets: tuple[int, ...]  # how many sheets on each paper
    seconds: float
    warnings: tuple[Problem, ...]


def box_name(deck: Deck, paper: str) -> str:
    """``blofa-box-a4.pdf``; a variant is named as the sheets name it."""
    return "-".join([deck.name] + ([deck.variant] if deck.variant else [])
                    + ["box", paper]) + ".pdf"


def make_box(deck_path: Path, out_dir: Path, papers=DEFAULT_PAPERS, strict: bool = False,
             variant: dict | None = None, only_declared: bool = False) -> BoxResult:
    """Write the tuck box of the deck at ``deck_path`` into ``out_dir``/DECK/ on each of
    ``papers``. Bad input (the ``box:`` entry, a face's layout, a box too big for the
    paper) raises InputError; each file is written atomically."""
    started = time.perf_counter()
    deck, box = load_component(deck_path, read_box, variant, only_declared)
    renderer, report = check_faces([box.face_card(face) for face in box.faces], strict)
    paths, counts = [], []
    for paper in papers:
        try:
            sheets = box_sheets(box.width, box.height, box.depth, paper)
        except SheetError as error:
            where = getattr(deck.box, "where", None) or deck.size_at or Where(deck_path)
            raise InputError([Problem(where, error.what, error.fix)]) from None
        path = Path(out_dir) / deck.name / box_name(deck, paper)
        with atomic_path(path, under=output_root(out_dir, deck.path)) as temporary:
            write_box_pdf(temporary, box, sheets, renderer)
        paths.append(path)
        counts.append(len(sheets))
    return BoxResult(box, tuple(paths), tuple(counts), time.perf_counter() - started,
                     tuple(report.warnings))
