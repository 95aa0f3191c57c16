"""The components other than cards a deck declares (its tuck box, tokens and boards),
each made or checked as its own command does it: what ``pack``, ``watch --components``,
``validate`` and the studio call."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from .chosen import check_faces, load_chosen
from .faces import component_faces


@dataclass(frozen=True)
class Declared:
    """What :func:`make_declared` wrote: each command's result, None for a component the
    deck does not declare."""

    box: object = None  # a BoxResult
    tokens: object = None  # a TokensResult
    boards: object = None  # a BoardsResult

    @property
    def warnings(self) -> list:
        return [w for made in (self.box, self.tokens, self.boards) if made for w in made.warnings]


def make_declared(deck_path: Path, out_dir: Path, papers, strict: bool = False,
                  variant: dict | None = None, only_declared: bool = False) -> Declared:
    """The tuck box, token sheets and boards the deck at ``deck_path`` declares, each made
    as its own command makes it (``pack``, the studio and ``watch --components``)."""
    from .boards import make_boards
    from .box import make_box
    from .tokens import make_tokens

    deck = load_chosen(deck_path, variant, only_declared)
    return Declared(*(make(deck_path, out_dir, papers, strict, variant, only_declared)
                      if declared is not None else None
                      for declared, make in ((deck.box, make_box), (deck.tokens, make_tokens),
                                             (deck.boards, make_boards))))


def check_components(deck, strict: bool) -> list:
    """``cardkit validate``'s check of the deck's box, tokens and boards, those it has: their
    entries and layouts (InputError, every mistake together), then their faces as
    :func:`check_faces` checks them; gives the faces' warnings."""
    faces = component_faces(deck)
    return [warning for cards in faces for warning in check_faces(cards, strict)[1].warnings]
