"""The deck's printed cards as a game's rules take them, for ``simulate`` and its
``--compare``, ``--sweep`` and ``--tune``: the cards (after a change a sweep or a tune
makes), whether a game can be dealt from them, and what a change breaks of the deck's
contest and composition. Bad input exits 2, naming the deck or the card."""

from __future__ import annotations

import sys

from ..common.errors import InputError
from ..sources.bundled import find_deck
from .output import EXIT_BAD_INPUT, named, report_input_error
from .run_end import refuse, rules_failed


def dealable(rules, players: int, seed: int, cards, deck_file, rules_path) -> None:
    """Exit 2 if a game cannot be dealt from these cards (fewer rule cards than players...),
    naming the deck; a designer's setup that fails shows their traceback."""
    import random

    from ..playtest.rules_file import RulesFileError, kept_outside
    from ..rules.errors import RulesError
    from ..toolkit.kept_outside import KeptOutside

    try:
        rules.new_state(players, random.Random(seed), cards)
    except KeptOutside as error:
        rules_failed(kept_outside(error, rules_path))
    except RulesError as error:
        refuse(f"{rules.title} cannot be dealt for {players} players"
                + (f" from {deck_file}" if deck_file else "") + f": {error.what}", error.fix)
    except (Exception, SystemExit) as error:  # exit() in setup() is a mistake too
        if rules_path is None:
            raise
        rules_failed(RulesFileError(f"{rules_path}: setting up a game failed",
                                     "fix the error in your rules",
                                     _traceback(error, rules_path)))


def _traceback(error: Exception, path) -> str:
    from ..playtest.rules_file import designer_traceback

    return designer_traceback(error, path)


def deck_cards(rules, deck_file: str, change=None, why: str = ""):
    """The deck's name, and the game's cards from its printed copies (after ``change``,
    which a ``why`` sweep makes); bad input exits 2, naming the card and where it is
    written."""
    from ..common.errors import Problem, Where
    from ..deck.loader import load_deck
    from ..rules.errors import RulesError

    try:
        deck = load_deck(find_deck(deck_file))
    except InputError as error:
        report_input_error(error, f"in {deck_file}")
        sys.exit(EXIT_BAD_INPUT)
    copies = deck.copies()
    fields = deck.for_rules()
    try:
        return deck.name, rules.cards_from_deck(change(fields) if change else fields)
    except RulesError as error:
        if change is not None:  # the changed deck's cards are not where the file has them
            problem = Problem(Where(deck.path), f"with --sweep {why}: {error.what}",
                              error.fix)
        elif error.card is None:
            problem = Problem(Where(deck.path), error.what, error.fix)
        else:  # the card, where it is written, in the designer's words
            card = copies[error.card]
            problem = Problem(card.where, f"{card.label()}: {error.what}", error.fix)
        report_input_error(InputError([problem]), f"in {named(deck_file)} for {rules.title}")
        sys.exit(EXIT_BAD_INPUT)


def broken_by(deck_file: str, change) -> list[str]:
    """What the deck's copies after ``change`` break of its contest's number of cards and
    its ``composition:`` (:func:`~cardkit.playtest.sweep.broken_promises`). The deck has
    loaded before (:func:`deck_cards`)."""
    from ..deck.loader import load_deck
    from ..playtest.sweep import broken_promises

    deck = load_deck(find_deck(deck_file))
    return broken_promises(deck, change(deck.for_rules()))
