"""Deck -> its tokens (:mod:`cardkit.deck.tokens`) -> packed sheets -> a PDF on each paper
size, as one call the ``tokens`` command shares."""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

from ..common.atomic import atomic_path, output_root
from ..common.errors import InputError, Problem
from ..deck.model import Deck
from ..deck.tokens import Token, read_tokens
from ..imposition.paper import DEFAULT_PAPERS
from ..imposition.sheets import SheetError
from ..imposition.tokens import token_pages
from ..writers.token_pdf import write_token_pdf
from .chosen import check_faces, load_component
from .names import offset_part


@dataclass(frozen=True)
class TokensResult:
    deck: Deck
    paths: tuple[Path, ...]
    tokens: int  # printed, copies included
    pages: tuple[int, ...]  # on each paper, in the order asked
    seconds: float
    warnings: tuple[Problem, ...]


def drawn_tokens(deck: Deck, tokens: list[Token], strict: bool) -> tuple:
    """What drawing ``tokens`` takes: each as the imposition asks for it (shape, width,
    height, copies, double-sided); each one's (front card, back card or None); a renderer
    of their own (the cards' keeps theirs by the same numbers) with every face resolved
    and checked (:func:`check_faces`); its report."""
    cards = [(t.face_card(deck, "front"), t.face_card(deck, "back") if t.back else None)
             for t in tokens]
    renderer, report = check_faces([card for pair in cards for card in pair if card], strict)
    asked = [(t.shape, *t.extent, t.count, t.back is not None) for t in tokens]
    return asked, cards, renderer, report


def tokens_name(deck: Deck, paper: str, duplex: str = "long",
                back_offset=(0.0, 0.0)) -> str:
    """``chits-tokens-a4.pdf``; backs for short-edge duplex or moved by an offset are named
    as the card sheets name them (``chits-tokens-a4-short-offset1,0.5mm.pdf``), so that no
    such build overwrites the plain one."""
    parts = [deck.name, "tokens", paper] + (["short"] if duplex == "short" else []) \
        + ([offset_part(back_offset)] if any(back_offset) else [])
    return "-".join(parts) + ".pdf"


def make_tokens(deck_path: Path, out_dir: Path, papers=DEFAULT_PAPERS, strict: bool = False,
                variant: dict | None = None, only_declared: bool = False,
                duplex: str = "long", back_offset=(0.0, 0.0)) -> TokensResult:
    """Write the token sheets of the deck at ``deck_path`` into ``out_dir``/DECK/
    (``DECK-tokens-a4.pdf``) on each of ``papers``, backs for ``duplex`` printing moved by
    ``back_offset``; bad input raises InputError."""
    started = time.perf_counter()
    deck, tokens = load_component(deck_path, read_tokens, variant, only_declared)
    asked, cards, renderer, report = drawn_tokens(deck, tokens, strict)
    paths, counts = [], []
    for paper in papers:
        try:
            pages = token_pages(asked, paper, duplex, back_offset)
        except SheetError as error:
            where = max(tokens, key=lambda t: max(t.extent)).where  # the one too big
            raise InputError([Problem(where, error.what, error.fix)]) from None
        path = Path(out_dir) / deck.name / tokens_name(deck, paper, duplex, back_offset)
        with atomic_path(path, under=output_root(out_dir, deck.path)) as temporary:
            write_token_pdf(temporary, deck, pages, cards, renderer)
        paths.append(path)
        counts.append(len(pages))
    return TokensResult(deck, tuple(paths), sum(t.count for t in tokens), tuple(counts),
                        time.perf_counter() - started, tuple(report.warnings))
