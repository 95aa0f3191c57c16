"""What a move may be, and how the moves a game gives are offered.

A move is a value that cannot change: a string, a number, a card, or a tuple of them,
tuples inside included (``("meld", (card, card))``). Two copies of a card with the same
fields and back look the same to a player, so moves that differ only in which copy they
name are offered once, the first (a random bot does not pick a card twice as often for
holding two of it); a game with ``distinct_copies = True`` offers them all.

>>> from cardkit.toolkit.cards import Card
>>> scout, guard, twin = Card(0, {"name": "Scout"}), Card(1, {"name": "Guard"}), Card(2, {"name": "Scout"})
>>> offered_once((("play", scout), ("play", guard), ("play", twin), "pass"), False, object)
(('play', Scout), ('play', Guard), 'pass')
"""

from __future__ import annotations

from functools import lru_cache
from operator import itemgetter

from ..rules.errors import RulesError
from .cards import Card

REMEMBERED = 20_000  # lists of moves a run remembers the moves offered of (a few MB)


@lru_cache(maxsize=64)
def offered_in_run(cards: tuple, distinct_copies: bool) -> dict | None:
    """The memory the games of a run share (their deck is the same tuple): each list of
    moves ``moves()`` gave -> how the moves offered are taken out of it (:func:`taking`). A run meets the same lists again and
    again (a hand, a few coins), and looking one up costs less than walking it. None where
    no two cards of the deck look the same (or every copy is offered): then every list is
    offered as ``moves()`` gives it, with nothing to look up (a deck of playing cards).

    >>> from cardkit.toolkit.cards import Card
    >>> offered_in_run((Card(0, {"name": "Scout"}), Card(1, {"name": "Guard"})), False) is None
    True
    >>> offered_in_run((Card(0, {"name": "Scout"}), Card(1, {"name": "Scout"})), False)
    {}
    """
    if distinct_copies or len({card.look for card in cards}) == len(cards):
        return None
    return {}


def offered_once(moves: tuple, distinct_copies: bool, game: type, hashed: bool = False) -> tuple:
    """``moves`` each once by look (all of them if ``distinct_copies``); RulesError naming
    ``game``'s moves() and its line if one of them could change (``hashed``: they were
    hashed already, so none can)."""
    if not hashed:
        try:
            hash(moves)
        except TypeError:  # a list, a dict: it could change after it is offered
            wrong = next(move for move in moves if _changeable(move))
            raise RulesError(f"{game.__name__}.moves() (line "
                             f"{game.moves.__code__.co_firstlineno}) offered {wrong!r}, which "
                             f"holds a {_changeable(wrong)}: a move must be a value that "
                             "cannot change", "make it a tuple: ('play', card), "
                             "('meld', (card, card))") from None
    if distinct_copies:
        return moves
    return tuple(moves[at] for at in _firsts(moves))


def taking(moves: tuple):
    """How the moves offered are taken out of a list of moves that looks as ``moves``
    (hashed already) does, each identical copy once: True when every move is offered,
    else a function of the list. The run remembers it for a list met again, and takes
    the moves out of the list met now (the first one met lies cold in memory).

    >>> from cardkit.toolkit.cards import Card
    >>> scout, twin = Card(0, {"name": "Scout"}), Card(1, {"name": "Scout"})
    >>> taking((("play", scout), "pass"))
    True
    >>> taking((("play", scout), ("play", twin), "pass"))((("play", twin), ("play", scout), "pass"))
    (('play', Scout), 'pass')
    """
    firsts = _firsts(moves)
    if len(firsts) == len(moves):
        return True
    return itemgetter(*firsts) if len(firsts) > 1 else lambda given: (given[firsts[0]],)


def one_copy(moves: tuple) -> tuple:
    """``moves`` (hashed already) made of one copy of each move, the same in every list
    the run remembers: a list met again is compared with moves that many lists share,
    which stay at hand in the processor's cache, not with copies strewn in memory."""
    if len(_COPIES) >= REMEMBERED:
        return moves
    return tuple([_COPIES.setdefault(move, move) for move in moves])


def _firsts(moves: tuple) -> list[int]:
    """The places in ``moves`` of the first move of each look."""
    looks: set = set()
    firsts = []
    for at, move in enumerate(moves):
        look = _LOOKS.get(move)  # a move is a value: the same move has the same look
        if look is None:
            look = look_of(move)
            if len(_LOOKS) < REMEMBERED:
                _LOOKS[move] = look
        if look not in looks:
            looks.add(look)
            firsts.append(at)
    return firsts


_LOOKS: dict = {}  # each move met in this process -> its look (a few MB at most)
_COPIES: dict = {}  # each move in the lists remembered -> the one copy they hold


def look_of(move):
    """What a player sees of ``move``: each card in it by its look, tuples all the way down."""
    if type(move) is tuple:  # a card in it without a call: this runs for each new list
        return tuple([look_of(part) if type(part) is tuple else
                      part.look if isinstance(part, Card) else part for part in move])
    return move.look if isinstance(move, Card) else move


def _changeable(move) -> str:
    """The kind of the first part of ``move`` that can change: 'list', 'dict'."""
    if type(move) is tuple:
        for part in move:
            found = _changeable(part)
            if found:
                return found
        return ""
    try:
        hash(move)
        return ""
    except TypeError:
        return type(move).__name__
