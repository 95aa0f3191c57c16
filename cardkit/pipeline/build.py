"""Deck file -> checked deck -> imposed pages -> PDF, as one call the CLI and tests share."""

from __future__ import annotations

import time
from pathlib import Path
from typing import NamedTuple

from ..common.atomic import atomic_path, output_root
from ..common.errors import InputError, Problem, Problems, Where
from ..deck.model import Deck
from ..imposition.plan import plan_pages
from ..imposition.sheets import Grid, SheetError, SheetOptions
from ..render.card import CardRenderer, Report, shares_sizes
from ..writers.sheet_pdf import write_pdf
from .chosen import Which, check_cards, load_chosen, resolve_all, verdict
from .contest import check_contest, sheet_problems
from .contrast import ContrastCheck
from .faces import component_faces
from .names import output_name


KEEP_RESOLVED = 64  # card sides: what a few pages of the biggest grid need


class BuildResult(NamedTuple):  # not a dataclass: one costs 1.5 ms to make at import
    """What a build wrote and found: the deck, the PDF's path, its cards, pages and
    grid, how long it took, its warnings and the tokens placed."""

    deck: Deck
    path: Path
    cards: int
    pages: int
    grid: Grid
    seconds: float
    warnings: tuple[Problem, ...]
    tokens: int = 0  # placed in a sheet template's token slots, copies included


def _template_tokens(deck: Deck, template, strict: bool) -> tuple:
    """The deck's tokens for ``template``'s token slots: (the tokens, each as the
    imposition asks for it, (their face cards, their renderer), their faces' warnings);
    InputError on their mistakes, or when the deck has none."""
    from ..deck.tokens import read_tokens
    from .tokens import drawn_tokens  # late, as the token reader: few decks have tokens

    if deck.tokens is None:
        raise InputError([Problem(Where(deck.path), f"sheet template {template.name} has "
                                  "token slots, and the deck has no tokens",
                                  "add a 'tokens:' list (see README, 'Tokens'), or use a "
                                  "template without token slots")])
    problems = Problems()
    tokens = read_tokens(deck, problems)
    problems.check()
    asked, cards, renderer, report = drawn_tokens(deck, tokens, strict)
    return tokens, asked, (cards, renderer), tuple(report.warnings)


def build_deck(deck_path: Path, out_dir: Path, options: SheetOptions,
               strict: bool = False, variant: dict | None = None,
               only_declared: bool = False, which: Which = Which()) -> BuildResult:
    """Build one deck's PDF; ``variant`` and ``only_declared`` as in :func:`load_deck`,
    ``which`` as in :func:`load_chosen`."""
    started = time.perf_counter()
    deck = load_chosen(deck_path, variant, only_declared, which)
    # a variant, a --cards choice or a reprint is not the entry: its count is its own
    check_contest(deck_path, deck, options, sheets=False,
                  whole=not (deck.variant or which.cards or which.since))
    component_faces(deck)  # the deck file's box, tokens and boards: refused as validate does
    path = Path(out_dir) / deck.name / output_name(deck, options)
    tokens, asked, drawn, warnings = [], [], None, ()
    if options.template is not None and options.template.has_tokens:
        tokens, asked, drawn, warnings = _template_tokens(deck, options.template, strict)
    try:
        plan = plan_pages(deck.total(), deck.size.width, deck.size.height, options, asked)
    except SheetError as exc:
        check_cards(deck, strict, options.bleed, options.ink)  # the cards' problems first
        where = exc.where or (tokens[exc.token].where if exc.token is not None
                              else Where(deck_path))
        raise InputError([Problem(where, exc.what, exc.fix)]) from None
    report = Report(deck.warnings + warnings + tuple(sheet_problems(deck, options)))
    # Cards are resolved as their pages are drawn and dropped soon after, so memory stays
    # flat however big the deck; the file is kept only if the cards hold no problems.
    # Each text's contrast is measured as its side is resolved, once per distinct backdrop
    check = ContrastCheck(deck.size, report)
    renderer = CardRenderer(report, options.bleed, options.ink, keep=KEEP_RESOLVED,
                            marks=options.guides, on_resolved=check.side)
    if shares_sizes(deck):  # every text of a size group must be fitted before any is drawn
        resolve_all(deck, renderer)
        renderer.share_group_sizes()
    try:
        with atomic_path(path, under=output_root(out_dir, deck.path)) as temporary:
            write_pdf(temporary, deck, plan.pages, options._replace(bleed=plan.bleed),
                      renderer, drawn)
            check.finish()
            verdict(report, strict)
    except SheetError as exc:
        raise InputError([Problem(Where(deck_path), exc.what, exc.fix)]) from None
    return BuildResult(deck, path, deck.total(), len(plan.pages), plan.grid,
                       time.perf_counter() - started, tuple(report.warnings),
                       sum(copies for *_, copies, _ in asked))
