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


def component_faces(deck) -> list[list]:
    """The faces of the deck's box, tokens and boards, a list a component it has, as cards
    to draw; InputError with every mistake in their entries and layouts together. ``build``
    checks them so (a deck file ``validate`` refuses is never built), without drawing."""
    from ..deck.boards import read_boards
    from ..deck.box import read_box
    from ..deck.tokens import read_tokens

    problems = Problems()
    faces = []  # one list a component: each is drawn by a renderer of its own
    if deck.box is not None:
        box = read_box(deck, problems)
        faces.append([box.face_card(face) for face in box.faces] if box else [])
    if deck.tokens is not None:
        faces.append([card for token in read_tokens(deck, problems)
                      for card in (token.face_card(deck, "front"),
                                   token.back and token.face_card(deck, "back")) if card])
    if deck.boards is not None:
        faces.append([board.card(deck, number)
                      for number, board in enumerate(read_boards(deck, problems), 1)])
    problems.check()
    return faces


def check_components(deck, strict: bool) -> list:
    """``cardkit validate``'s check of the deck's box, tokens and boards, those it has: their
    entries and layouts (InputError, every mistake together), then their faces as
    :func:`check_faces` checks them; gives the faces' warnings."""
    faces = component_faces(deck)
    return [warning for cards in faces for warning in check_faces(cards, strict)[1].warnings]
