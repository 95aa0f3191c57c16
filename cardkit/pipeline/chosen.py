"""The deck a command works on, and its faces checked before anything is drawn: the deck
loaded with the variant and the cards chosen (:func:`load_chosen`), a component read from
it (:func:`load_component`), its cards or a component's faces resolved as they will be
drawn (:func:`check_cards`, :func:`check_faces`), every problem raised together
(:func:`verdict`). Build, export, the rulebook and the components' commands all start
here."""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

from ..common.errors import InputError, Problem, Problems
from ..deck.languages import in_language
from ..deck.loader import load_deck
from ..deck.model import Deck
from ..render.card import BACK, FRONT, FULL_INK, CardRenderer, Report
from ..render.fingerprint import with_card_ids
from .contrast import ContrastCheck


class Which(NamedTuple):  # not a dataclass: one costs 1.5 ms to make at import
    """Which of a deck's cards a command makes, beside the variant: ``cards``, a
    ``--cards`` selection (:func:`select_cards`); ``since``, an old version of the deck
    (only the cards that changed since, with a cover note: :func:`changed_since`);
    ``lang``, one of the deck's languages (:func:`in_language`; the commands make 'all'
    of them one at a time)."""

    cards: str = ""
    since: str = ""
    lang: str = ""


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
        resolve_all(error.deck, CardRenderer(report, skip=error.checked))
        raise InputError(error.problems + report.problems.items, report.warnings) from None
    deck = with_card_ids(in_language(deck, which.lang, each_card), known_ids)
    if which.since:
        from .changes import changed_since  # late: only a reprint compares two versions

        deck = changed_since(deck, which.since, variant, only_declared, which.lang)
    if not which.cards:
        return deck
    from ..deck.selection import select_cards  # late: only a proof picks cards

    return select_cards(deck, which.cards)


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


def resolve_all(deck: Deck, renderer: CardRenderer) -> None:
    """Resolve every card's front and back with ``renderer``: its checks run, nothing is
    drawn."""
    for card in deck.cards:
        renderer.resolve(card, FRONT)
        renderer.resolve(card, BACK)


def verdict(report: Report, strict: bool) -> None:
    """Raise InputError on the problems found, and on the warnings if ``strict``."""
    report.problems.check()
    if strict and report.warnings:
        raise InputError([Problem(w.where, w.what + " (an error with --strict)", w.fix)
                          for w in report.warnings])


def load_component(deck_path: Path, read, variant: dict | None, only_declared: bool):
    """(deck, what ``read(deck, problems)`` gives); InputError on any problem."""
    deck = load_chosen(deck_path, variant, only_declared)
    problems = Problems()
    found = read(deck, problems)
    problems.check()
    return deck, found


def check_faces(cards, strict: bool) -> tuple[CardRenderer, Report]:
    """A renderer with every face of ``cards`` resolved (text fitted, images read); their
    problems (and warnings, if ``strict``) raise InputError."""
    report = Report()
    renderer = CardRenderer(report)
    for card in cards:
        renderer.resolve(card, FRONT)
    verdict(report, strict)
    return renderer, report
