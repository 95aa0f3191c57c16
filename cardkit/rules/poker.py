"""Standard five-card poker ranking, fast enough to rank millions of hands.

Ranks run 2..14 (14 is the ace). Categories, lowest first: high card, pair, two pair,
three of a kind, straight, flush, full house, four of a kind, straight flush (ace-high:
royal flush). The ace also plays low in the straight A-2-3-4-5, whose high card is the 5.
Within a category, hands compare their ranks grouped by how often they appear, then by
rank, highest first ("full house, 6s over 5s" beats "full house, 4s over 7s").

Every one of the 7,462 distinct hands gets a strength (higher is better) in two tables
built at import, looked up with the Cactus Kev encoding of a card as one integer.

>>> describe(parse_hand("6S 6H 6D 5C 5S"))
'full house, 6s over 5s'
>>> strength(parse_hand("6S 6H 6D 5C 5S")) > strength(parse_hand("4S 4H 4D 7C 7S"))
True
"""

from __future__ import annotations

import itertools
from collections import Counter
from typing import NamedTuple

from .errors import RulesError

CATEGORIES = ("high card", "pair", "two pair", "three of a kind", "straight", "flush",
              "full house", "four of a kind", "straight flush")
HIGH_CARD, PAIR, TWO_PAIR, THREE, STRAIGHT, FLUSH, FULL_HOUSE, FOUR, STRAIGHT_FLUSH = range(9)
RANKS = range(2, 15)
RANK_NAMES = {**{r: str(r) for r in range(2, 11)}, 11: "J", 12: "Q", 13: "K", 14: "A"}
RANK_LETTERS = {"T": 10, "J": 11, "Q": 12, "K": 13, "A": 14}
SUITS = "SHDC"  # spades, hearts, diamonds, clubs
SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
PRIMES = {r: p for r, p in zip(RANKS, (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41))}


class Card(NamedTuple):
    rank: int  # 2..14
    suit: str  # one of SUITS

    def __str__(self) -> str:
        return RANK_NAMES[self.rank] + self.suit


def parse_card(text: str) -> Card:
    """'10H', 'TH', 'qs' -> Card.

    >>> parse_card('10h'), parse_card('AS').rank
    (Card(rank=10, suit='H'), 14)
    """
    word = text.strip().upper()
    rank, suit = word[:-1], word[-1:]
    if suit not in SUITS or not rank:
        raise RulesError(f"'{text}' is not a card",
                         "write a rank (2-10, J, Q, K, A) and a suit (S, H, D, C), e.g. 'KH'")
    if rank in RANK_LETTERS:
        return Card(RANK_LETTERS[rank], suit)
    if rank in {str(n) for n in range(2, 11)}:
        return Card(int(rank), suit)
    raise RulesError(f"'{text}' has no rank {rank!r}", "ranks are 2-10, J, Q, K and A")


def parse_hand(text: str, size: int | None = 5, distinct: bool = True) -> list[Card]:
    """Cards separated by spaces. A single deck holds each card once, so a repeated card is
    refused unless ``distinct`` is False."""
    cards = [parse_card(word) for word in text.split()]
    if size is not None and len(cards) != size:
        raise RulesError(f"'{text}' has {len(cards)} cards, not {size}",
                         f"write {size} cards separated by spaces")
    if distinct:
        repeated = [str(c) for c, n in Counter(cards).items() if n > 1]
        if repeated:
            raise RulesError(f"'{text}' holds {', '.join(repeated)} twice; one deck has each "
                             "card once", "check the cards")
    return cards


def encode(card: Card) -> int:
    """One integer per card: rank bit (bits 16-28), suit bit (12-15), rank prime (0-7)."""
    return (1 << (card.rank - 2 + 16)) | (1 << (8 + 4 + SUITS.index(card.suit))) | \
        PRIMES[card.rank]


def straight_high(ranks) -> int:
    """The high card of a straight, or 0 if the five ranks are not one.

    >>> straight_high([14, 2, 3, 4, 5]), straight_high([10, 11, 12, 13, 14]), straight_high([2, 2, 3, 4, 5])
    (5, 14, 0)
    """
    distinct = sorted(set(ranks))
    if len(distinct) != 5:
        return 0
    if distinct[-1] - distinct[0] == 4:
        return distinct[-1]
    if distinct == [2, 3, 4, 5, 14]:
        return 5  # the ace plays low
    return 0


def by_count(ranks) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Ranks ordered by how often they appear, then by rank, highest first, and the counts.

    >>> by_count([5, 6, 5, 6, 6])
    ((6, 5), (3, 2))
    """
    groups = sorted(((n, r) for r, n in Counter(ranks).items()), reverse=True)
    return tuple(r for _, r in groups), tuple(n for n, _ in groups)


def hand_key(ranks, flush: bool) -> tuple:
    """(category, tie-break ranks): comparing keys compares hands."""
    ordered, counts = by_count(ranks)
    high = straight_high(ranks)
    if high and flush:
        return STRAIGHT_FLUSH, (high,)
    shapes = {(4, 1): FOUR, (3, 2): FULL_HOUSE, (3, 1, 1): THREE, (2, 2, 1): TWO_PAIR,
              (2, 1, 1, 1): PAIR}
    if counts in ((4, 1), (3, 2)):
        return shapes[counts], ordered
    if flush:
        return FLUSH, ordered
    if high:
        return STRAIGHT, (high,)
    return shapes.get(counts, HIGH_CARD), ordered


def _tables():
    keys = {}
    for ranks in itertools.combinations_with_replacement(RANKS, 5):
        if max(Counter(ranks).values()) > 4:
            continue
        keys[("unsuited", ranks)] = hand_key(ranks, False)
        if len(set(ranks)) == 5:
            keys[("flush", ranks)] = hand_key(ranks, True)
    order = {key: i for i, key in enumerate(sorted(set(keys.values())), 1)}
    flush, unsuited = {}, {}
    for (kind, ranks), key in keys.items():
        if kind == "flush":
            flush[sum(1 << (r - 2) for r in ranks)] = order[key]
        else:
            product = 1
            for r in ranks:
                product *= PRIMES[r]
            unsuited[product] = order[key]
    return flush, unsuited, {v: k for k, v in order.items()}


FLUSH_TABLE, UNSUITED_TABLE, KEY_OF_STRENGTH = _tables()


def score(a: int, b: int, c: int, d: int, e: int) -> int:
    """Strength of five encoded cards, 1 (7-5-4-3-2) to 7462 (royal flush)."""
    if a & b & c & d & e & 0xF000:
        return FLUSH_TABLE[(a | b | c | d | e) >> 16]
    return UNSUITED_TABLE[(a & 0xFF) * (b & 0xFF) * (c & 0xFF) * (d & 0xFF) * (e & 0xFF)]


def strength(cards) -> int:
    """Strength of five cards (higher is better)."""
    return score(*(encode(card) for card in cards))


def plural(rank: int) -> str:
    return RANK_NAMES[rank] + "s"


def describe_key(key: tuple) -> str:
    """Words for a hand key: 'full house, 6s over 5s', 'pair of 9s, A K 7 kickers'."""
    kind, ranks = key
    names = [RANK_NAMES[r] for r in ranks]
    if kind == STRAIGHT_FLUSH:
        return "royal flush" if ranks[0] == 14 else f"straight flush, {names[0]} high"
    if kind == FOUR:
        return f"four of a kind, {plural(ranks[0])}"
    if kind == FULL_HOUSE:
        return f"full house, {plural(ranks[0])} over {plural(ranks[1])}"
    if kind == FLUSH:
        return f"flush, {' '.join(names)}"
    if kind == STRAIGHT:
        return f"straight, {names[0]} high"
    if kind == THREE:
        return f"three of a kind, {plural(ranks[0])}"
    if kind == TWO_PAIR:
        return f"two pair, {plural(ranks[0])} and {plural(ranks[1])}, {names[2]} kicker"
    if kind == PAIR:
        return f"pair of {plural(ranks[0])}, {' '.join(names[1:])} kickers"
    return f"high card, {' '.join(names)}"


def describe(cards) -> str:
    return describe_key(KEY_OF_STRENGTH[strength(cards)])


DECK_SUITS = {"S": "spade", "H": "heart", "D": "diamond", "C": "club"}  # as decks name them


def standard_deck_problems(cards: list[dict]) -> list[str]:
    """Whether a deck's cards (their fields) hold the 52 standard cards exactly once."""
    playing = Counter((c.get("rank"), c.get("suit")) for c in cards if c.get("suit"))
    wanted = Counter((RANK_NAMES[r], s) for r in RANKS for s in DECK_SUITS.values())
    if playing == wanted:
        return []
    missing = sorted(f"{r} {s}" for r, s in wanted - playing)
    extra = sorted(f"{r} {s}" for r, s in playing - wanted)
    return [f"the rules need the 52 standard cards once each; missing: "
            f"{', '.join(missing) or 'none'}; extra: {', '.join(extra) or 'none'}"]
