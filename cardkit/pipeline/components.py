"""What the commands for components other than cards share: the deck loaded and its
component read (its mistakes raised together), and the faces checked before anything is
drawn, as a build checks its cards."""

from __future__ import annotations

from pathlib import Path

from ..common.errors import Problems
from ..render.card import FRONT, CardRenderer, Report
from .build import load_chosen, verdict


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
