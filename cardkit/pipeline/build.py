"""Deck file -> checked deck -> imposed pages -> PDF, as one call the CLI and tests share."""

from __future__ import annotations

import time
from dataclasses import dataclass, replace
from pathlib import Path

from ..common.atomic import atomic_path, output_root
from ..common.errors import InputError, Problem, Problems, Where
from ..common.units import to_mm
from ..deck.languages import in_language
from ..deck.loader import load_deck
from ..deck.model import Deck
from ..deck.selection import select_cards
from ..imposition.plan import plan_pages
from ..imposition.sheets import Grid, SheetError, SheetOptions
from ..render.card import BACK, FRONT, FULL_INK, CardRenderer, Report, shares_sizes
from ..render.fingerprint import with_card_ids
from ..writers.sheet_pdf import write_pdf
from .contest import check_contest, sheet_problems
from .contrast import ContrastCheck


KEEP_RESOLVED = 64  # card sides: what a few pages of the biggest grid need


@dataclass(frozen=True)
class Which:
    """Which of a deck's cards a command makes, beside the variant: ``cards``, a
    ``--cards`` selection (:func:`select_cards`); ``since``, an old version of the deck
    (only the cards that changed since, with a cover note: :func:`changed_since`);
    ``lang``, one of the deck's languages (:func:`in_language`; the commands make 'all'
    of them one at a time)."""

    cards: str = ""
    since: str = ""
    lang: str = ""


@dataclass(frozen=True)
class BuildResult:
    deck: Deck
    path: Path
    cards: int
    pages: int
    grid: Grid
    seconds: float
    warnings: tuple[Problem, ...]
    tokens: int = 0  # placed in a sheet template's token slots, copies included


def load_chosen(deck_path: Path, variant: dict | None = None, only_declared: bool = False,
                which: Which = Which(), known_ids: dict | None = None,
                each_card: bool = False) -> Deck:
    """The deck with the variant options and ``which`` cards applied, its cards' ids
    filled in (``known_ids`` as ``known`` in :class:`Prints`); ``each_card``: a missing
    translation is said for each card (:func:`in_language`). When the
    deck has problems, the cards that loaded are checked too (fitting, images, glyphs), so
    that mistakes that do not depend on each other are all reported in one run."""
    try:
        deck = load_deck(deck_path, variant, only_declared)
    except InputError as error:
        if error.deck is None:
            raise
        report = Report(error.warnings)
        _resolve_all(error.deck, CardRenderer(report, skip=error.checked))
        raise InputError(error.problems + report.problems.items, report.warnings) from None
    deck = with_card_ids(in_language(deck, which.lang, each_card), known_ids)
    if which.since:
        from .changes import changed_since

        deck = changed_since(deck, which.since, variant, only_declared, which.lang)
    return select_cards(deck, which.cards) if which.cards else deck


def check_cards(deck: Deck, strict: bool = False, bleed: float = 0.0,
                ink: str = FULL_INK, marks: bool = False,
                contrast: bool = False) -> tuple[CardRenderer, Report]:
    """Resolve every card's front and back as they will be drawn with ``bleed`` and
    ``ink``: field values, images, text fitting, glyphs, what reaches outside the card;
    with ``contrast``, each text's contrast with what lies behind it too
    (:class:`ContrastCheck`). Raises InputError on problems (and on warnings if
    strict). The renderer returned keeps every card resolved, and draws proof ``marks``
    if asked."""
    report = Report(deck.warnings)
    check = ContrastCheck(deck.size, report) if contrast else None
    renderer = CardRenderer(report, bleed, ink, marks=marks,
                            on_resolved=check.side if check else None)
    renderer.fit(deck.cards)
    if check:
        check.finish()
    verdict(report, strict)
    return renderer, report


def _resolve_all(deck: Deck, renderer: CardRenderer) -> None:
    for card in deck.cards:
        renderer.resolve(card, FRONT)
        renderer.resolve(card, BACK)


def verdict(report: Report, strict: bool) -> None:
    """Raise InputError on the problems found, and on the warnings if ``strict``."""
    report.problems.check()
    if strict and report.warnings:
        raise InputError([Problem(w.where, w.what + " (an error with --strict)", w.fix)
                          for w in report.warnings])


def offset_part(back_offset: tuple[float, float]) -> str:
    """The back offset as a file name part, in millimetres: ``offset0.5,-0.3mm``."""
    x, y = (round(to_mm(v), 3) for v in back_offset)
    return f"offset{x:g},{y:g}mm"


def output_name(deck: Deck, options: SheetOptions) -> str:
    """A file name that says what the file is: ``blofa-pnp-a4.pdf``,
    ``blofa-pnp-letter-short-bleed3mm-guides.pdf``, ``bullet-players3-pnp-a4.pdf``,
    ``blofa-pnp-a4-landscape-offset0.5,-0.3mm.pdf``. Only choices that differ from the
    defaults appear, so two builds that differ never share a name."""
    sheet = options.template.name if options.template is not None else options.sheet
    parts = [deck.name] + ([deck.variant] if deck.variant else []) + [sheet, options.paper]
    if options.orientation != "auto":
        parts.append(options.orientation)
    if options.duplex not in (None, "long"):
        parts.append(options.duplex)
    if options.bleed:
        parts.append(f"bleed{to_mm(options.bleed):g}mm")
    if any(options.back_offset or ()):
        parts.append(offset_part(options.back_offset))
    if options.guides:
        parts.append("guides")
    if options.ink != FULL_INK:
        parts.append(f"{options.ink}-ink")
    return "-".join(parts) + ".pdf"


def _template_tokens(deck: Deck, template, strict: bool) -> tuple:
    """The deck's tokens for ``template``'s token slots: (the tokens, each as the
    imposition asks for it, (their face cards, their renderer), their faces' warnings);
    InputError on their mistakes, or when the deck has none."""
    from ..deck.tokens import read_tokens
    from .tokens import drawn_tokens  # late, as component_faces

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
    from .components import component_faces  # late: it imports this module

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
        _resolve_all(deck, renderer)
        renderer.share_group_sizes()
    try:
        with atomic_path(path, under=output_root(out_dir, deck.path)) as temporary:
            write_pdf(temporary, deck, plan.pages, replace(options, bleed=plan.bleed),
                      renderer, drawn)
            check.finish()
            verdict(report, strict)
    except SheetError as exc:
        raise InputError([Problem(Where(deck_path), exc.what, exc.fix)]) from None
    return BuildResult(deck, path, deck.total(), len(plan.pages), plan.grid,
                       time.perf_counter() - started, tuple(report.warnings),
                       sum(copies for *_, copies, _ in asked))
