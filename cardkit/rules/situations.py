"""What every game's situation check shares: counting named cards against the deck.

A situation (hands, a room, a table) can only happen if it names no card more often than
the deck holds it. Each game module's ``check_situation`` builds its own message from
:func:`over_supply`; nothing here knows a game.

>>> over_supply(["5H", "KS", "5H"], lambda card: 1)
('5H', 2, 1)
>>> over_supply([1, 1, 2], {1: 2, 2: 1}.get) is None
True
"""

from __future__ import annotations

from collections import Counter
from typing import Callable, Hashable, Iterable

NUMBER_WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven",
                8: "eight", 9: "nine"}


def over_supply(named: Iterable[Hashable],
                copies: Callable[[Hashable], int | None]) -> tuple | None:
    """The first card (in the order named) that is named more often than the deck holds
    it, as (card, times named, copies in the deck); None when every card fits. A card the
    deck does not hold at all (``copies`` gives 0 or None) counts as over supply too."""
    counts = Counter(named)
    for card, times in counts.items():
        held = copies(card) or 0
        if times > held:
            return card, times, held
    return None


def times(n: int) -> str:
    """'once', 'twice', '3 times'.

    >>> [times(n) for n in (1, 2, 9)]
    ['once', 'twice', '9 times']
    """
    return {1: "once", 2: "twice"}.get(n, f"{n} times")


def number(n: int) -> str:
    """A small count in words ('one', 'eight'), larger ones in digits.

    >>> number(1), number(8), number(12)
    ('one', 'eight', '12')
    """
    return NUMBER_WORDS.get(n, str(n))
