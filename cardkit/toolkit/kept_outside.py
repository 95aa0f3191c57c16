"""A value a designer's game keeps outside the places that have a visibility (piles,
``public``, ``private``): the toolkit refuses it, since no one could say which seats see
it, and a search's sample would carry its true value."""

from __future__ import annotations

from ..rules.errors import RulesError
from .cards import Card


class KeptOutside(RulesError):
    """A game keeps a value of its own (``self.answer = ...``) outside the places with a
    visibility (piles, ``public``, ``private``): no one can say which seats see it, and a
    sample of what a seat may believe would carry its true value. ``attribute`` names it."""

    def __init__(self, game, attribute: str, value):
        self.attribute = attribute
        shown = f"card {value!r}" if isinstance(value, Card) else \
            f"{type(value).__name__} {_short(value)}"
        super().__init__(f"{type(game).__name__} keeps self.{attribute} ({shown}), a "
                         "value of the game in no pile, public or private, so no visibility "
                         "says which seats may see it",
                         "keep it in a pile, in self.public (every seat sees it) or in "
                         "self.private[seat] (that seat only); a value that is the same in "
                         "every game goes on the class (ROUNDS = 4)")


def _short(value) -> str:
    shown = repr(value)
    return shown if len(shown) <= 40 else shown[:40] + "…"
