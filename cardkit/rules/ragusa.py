"""Ragusa: Trade 'Em. Poker hands on a rank scale that starts at your suit's foundation.

Ruling: a player whose suit's Foundation Card has rank f counts every card of rank r, of any
suit, as the standard rank ((r - f) mod 13) + 2: the foundation itself is their 2 and the
rank just below it their ace. Hands are then ranked as in standard poker on those ranks
(the ace-equivalent also plays low in A-2-3-4-5); suits matter only for flushes.

>>> foundations = parse_foundations("4H 7C 9D QS")
>>> card_value(parse_card("KC"), "H", foundations)  # the seed's worked example
11
"""

from __future__ import annotations

from . import poker
from .errors import RulesError
from .poker import RANK_NAMES, SUIT_NAMES, Card, parse_card, parse_hand

MIN_PLAYERS, MAX_PLAYERS = 2, 4
HAND_SIZE, SHOWN = 10, 5
SUIT_WORDS = {**{name: s for s, name in SUIT_NAMES.items()},
              **{name[:-1]: s for s, name in SUIT_NAMES.items()}, **{s: s for s in SUIT_NAMES}}


def parse_suit(word: str) -> str:
    """'hearts', 'heart' or 'H' -> 'H'."""
    suit = SUIT_WORDS.get(str(word).strip().lower(), SUIT_WORDS.get(str(word).strip().upper()))
    if suit is None:
        raise RulesError(f"'{word}' is not a suit", "write hearts, spades, diamonds or clubs")
    return suit


def parse_foundations(text) -> dict[str, Card]:
    """The four Foundation Cards, one of each suit: suit -> card."""
    cards = parse_hand(text if isinstance(text, str) else " ".join(text), size=4)
    by_suit = {card.suit: card for card in cards}
    if len(by_suit) != 4:
        raise RulesError("the foundations must be one card of each suit",
                         "write four cards, e.g. '4H 7C 9D QS'")
    return by_suit


def rotated_rank(rank: int, foundation: int) -> int:
    """Standard rank (2..14) of a card of ``rank`` on the scale starting at ``foundation``.

    >>> [RANK_NAMES[rotated_rank(r, 4)] for r in (4, 5, 13, 14, 2, 3)]
    ['2', '3', 'J', 'Q', 'K', 'A']
    """
    return (rank - foundation) % 13 + 2


def card_value(card: Card, suit: str, foundations: dict[str, Card]) -> int:
    """What ``card`` counts as for a player of ``suit``."""
    return rotated_rank(card.rank, foundations[suit].rank)


def rotated(cards, suit: str, foundations) -> list[Card]:
    """The cards relabelled onto a player's scale (suits unchanged)."""
    foundation = foundations[suit].rank
    return [Card(rotated_rank(c.rank, foundation), c.suit) for c in cards]


def strength(cards, suit: str, foundations) -> int:
    """Poker strength of five cards for a player of ``suit`` (higher is better)."""
    return poker.strength(rotated(cards, suit, foundations))


WHEEL = (1 << 14) | (0b1111 << 2)  # A-2-3-4-5 as a bit mask of ranks


def straight_top(mask: int) -> int:
    """The high card of the best straight among the ranks in ``mask`` (bit r for rank r),
    or 0.

    >>> straight_top(sum(1 << r for r in (2, 3, 4, 5, 14))), straight_top(0b11111 << 9)
    (5, 13)
    """
    for high in range(14, 5, -1):
        window = 0b11111 << (high - 4)
        if mask & window == window:
            return high
    return 5 if mask & WHEEL == WHEEL else 0


def best_key(cards) -> tuple:
    """(category, tie-break ranks) of the best five of ``cards`` (already on the player's
    scale), or of all of them when there are five or fewer; equal to poker's key for
    exactly five cards. Straights and flushes need five cards.

    >>> best_key(parse_hand("9C 9D 4S 4C 9H KD 2C", size=7))
    (6, (9, 4))
    >>> best_key(parse_hand("9C 9D 4S", size=3))
    (1, (9, 4))
    """
    counts: dict[int, int] = {}
    suits: dict[str, list[int]] = {}
    for rank, suit in cards:
        counts[rank] = counts.get(rank, 0) + 1
        suits.setdefault(suit, []).append(rank)
    if not counts:
        return poker.HIGH_CARD, ()
    flushes = [sorted(ranks, reverse=True) for ranks in suits.values() if len(ranks) >= 5]
    high = max((straight_top(sum(1 << r for r in ranks)) for ranks in flushes), default=0)
    if high:
        return poker.STRAIGHT_FLUSH, (high,)
    most, top = max((n, r) for r, n in counts.items())
    rest = sorted((r for r in counts if r != top), reverse=True)
    pairs = [r for r in rest if counts[r] >= 2]
    if most == 4:
        return poker.FOUR, (top, *rest[:1])
    if most == 3 and pairs:
        return poker.FULL_HOUSE, (top, pairs[0])
    if flushes:
        return poker.FLUSH, tuple(max(ranks[:5] for ranks in flushes))
    high = straight_top(sum(1 << r for r in counts))
    if high:
        return poker.STRAIGHT, (high,)
    if most == 3:
        return poker.THREE, (top, *rest[:2])
    if most == 2 and pairs:
        kicker = [r for r in rest if r != pairs[0]][:1]
        return poker.TWO_PAIR, (top, pairs[0], *kicker)
    if most == 2:
        return poker.PAIR, (top, *rest[:3])
    return poker.HIGH_CARD, (top, *rest[:4])


def hand_key(cards, suit: str, foundations) -> tuple:
    """(category, tie-break ranks) of ``cards`` on a player's scale: comparing keys compares
    hands. Five cards are ranked as in poker; more cards by their best five.

    Ruling (cardkit): a player left with fewer than five cards (sold or given up) shows
    them all. Fewer than five cards make no straight and no flush, and a missing card
    counts below every rank, so such a hand loses to the same hand with kickers.

    >>> table = parse_foundations("2H 2C 2D 2S")
    >>> hand_key(parse_hand("9C 9D 4S", size=3), "H", table) < hand_key(
    ...     parse_hand("9S 9H 4C 3D", size=4), "H", table)
    True
    """
    relabelled = rotated(cards, suit, foundations)
    if len(relabelled) == SHOWN:
        return poker.KEY_OF_STRENGTH[poker.strength(relabelled)]
    return best_key(relabelled)


def describe(cards, suit: str, foundations) -> str:
    """'two pair, Js and 5s, 9 kicker' in the player's own ranks; a hand of fewer than
    five cards names its category and ranks.

    >>> describe(parse_hand("9C 9D 4S", size=3), "H", parse_foundations("2H 2C 2D 2S"))
    'pair from only 3 cards: 9 9 4'
    """
    if len(cards) == SHOWN:
        return poker.describe(rotated(cards, suit, foundations))
    if not cards:
        return "no cards"
    kind, _ = hand_key(cards, suit, foundations)
    ranks = sorted((c.rank for c in rotated(cards, suit, foundations)), reverse=True)
    ranks.sort(key=ranks.count, reverse=True)
    return (f"{poker.CATEGORIES[kind]} from only {len(cards)} card{'s' * (len(cards) > 1)}: "
            + " ".join(RANK_NAMES[r] for r in ranks))


def rotation_table(foundation: int) -> dict[int, int]:
    """Encoded card -> encoded relabelled card, for ranking many hands fast."""
    return {poker.encode(Card(r, s)): poker.encode(Card(rotated_rank(r, foundation), s))
            for r in poker.RANKS for s in poker.SUITS}


def check_situation(players: list[dict], foundations: dict[str, Card]) -> None:
    """Refuse players' cards that cannot be on the table together. At most 4 players (4
    foundations, 5 common goods and 10 cards each must fit in 52); a player holds at most 10
    cards; and as one deck holds each card once, no card is in two places: a Foundation
    Card stays on the table all round, so no player holds it, and no two players hold the
    same card. A lone player (one hand, one card) is a situation too.

    >>> table = parse_foundations("4H 7C 9D QS")
    >>> clubs = {"suit": "C", "shown": parse_hand("KC KD 2S 7C 9H")}
    >>> check_situation([clubs], table)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    cardkit.rules.errors.RulesError: 7C is both a foundation card on the table and player 0's; ...
    """
    if len(players) > MAX_PLAYERS:
        raise RulesError(f"Ragusa is for 2-4 players, not {len(players)}",
                         "4 foundations, 5 common goods and 10 cards a player must fit in 52")
    seen = {card: "a foundation card on the table" for card in foundations.values()}
    for i, player in enumerate(players):
        cards = player["shown"] + player.get("other", [])
        if len(cards) > HAND_SIZE:
            raise RulesError(f"player {i} has {len(cards)} cards, more than {HAND_SIZE}",
                             "a player holds 10 cards: 5 shown and 5 other")
        for card in cards:
            if seen.get(card) == f"player {i}'s":
                raise RulesError(f"{card} is named twice in player {i}'s cards",
                                 "one deck holds each card once")
            if card in seen:
                fix = ("Foundation Cards stay on the table all round: choose another card"
                       if card in foundations.values() else "one deck holds each card once")
                raise RulesError(f"{card} is both {seen[card]} and player {i}'s", fix)
            seen[card] = f"player {i}'s"


def winners(players: list[dict], foundations: dict[str, Card]) -> list[int]:
    """The seats that take the pot. Each player: {'suit', 'shown': 5 cards, 'other': the
    rest}.

    Ruling: the best shown hand wins the pot. Players still tied compare their other cards
    (five, or fewer for a player who holds fewer than ten) the same way; players tied on
    those too split the pot. Ruling (cardkit): a player holding fewer than five cards shows
    them all and has no other cards (see ``hand_key``).
    """
    if len(players) < MIN_PLAYERS:
        raise RulesError(f"a showdown needs 2-4 players, not {len(players)}",
                         "give every player's suit and shown cards")
    check_situation(players, foundations)
    for player in players:
        if len(player["shown"]) != SHOWN and (len(player["shown"]) > SHOWN
                                               or player.get("other")):
            raise RulesError("each player shows 5 cards", "list the 5 cards shown (all of "
                             "them for a player who holds fewer than 5)")
    tied = _best(players, "shown", range(len(players)), foundations)
    if len(tied) == 1:
        return tied
    if any("other" not in players[i] for i in tied):
        raise RulesError(f"players {tied} tie on their shown cards",
                         "give each tied player's 'other' 5 cards")
    return _best(players, "other", tied, foundations)


def _best(players, part: str, seats, foundations) -> list[int]:
    keys = {i: hand_key(players[i][part], players[i]["suit"], foundations) for i in seats}
    best = max(keys.values())
    return [i for i in seats if keys[i] == best]


def showdown(players: list[dict], foundations: dict[str, Card]) -> tuple[list[int], str]:
    """The winning seats (``winners``) and why, in each player's own ranks."""
    won = winners(players, foundations)
    reasons = [f"player {i} ({SUIT_NAMES[players[i]['suit']]}): "
               f"{describe(players[i]['shown'], players[i]['suit'], foundations)}"
               for i in range(len(players))]
    tied = _best(players, "shown", range(len(players)), foundations)
    if len(tied) > 1:
        reasons.append("tie broken on the other five: " + "; ".join(
            f"player {i}: {describe(players[i]['other'], players[i]['suit'], foundations)}"
            for i in tied))
    if len(won) > 1:
        reasons.append("still tied: they split the pot")
    return won, "; ".join(reasons)


# -- examples: situation -> (result, reason in words) ------------------------------------

def _foundations(situation):
    return parse_foundations(situation["foundations"])


def example_value(situation):
    foundations = _foundations(situation)
    card, suit = parse_card(str(situation["card"])), parse_suit(situation["suit"])
    check_situation([{"suit": suit, "shown": [card]}], foundations)
    value = card_value(card, suit, foundations)
    return {"value": value}, (f"{card} counts as {RANK_NAMES[value]} ({value}) on the "
                              f"{SUIT_NAMES[suit]} scale from {foundations[suit]}")


def example_hand(situation):
    foundations = _foundations(situation)
    suit = parse_suit(situation["suit"])
    cards = parse_hand(str(situation["cards"]))
    check_situation([{"suit": suit, "shown": cards}], foundations)
    words = describe(cards, suit, foundations)
    key = poker.KEY_OF_STRENGTH[strength(cards, suit, foundations)]
    return {"category": poker.CATEGORIES[key[0]]}, f"{words} on the {SUIT_NAMES[suit]} scale"


def example_showdown(situation):
    foundations = _foundations(situation)
    players = []
    for seat in situation["players"]:
        player = {"suit": parse_suit(seat["suit"]), "shown": parse_hand(str(seat["shown"]))}
        if "other" in seat:
            player["other"] = parse_hand(str(seat["other"]))
        players.append(player)
    winners, reason = showdown(players, foundations)
    result = {"winner": winners[0]} if len(winners) == 1 else {"split": winners}
    return result, reason


EXAMPLES = {"value": example_value, "hand": example_hand, "showdown": example_showdown}


def check_deck(cards: list[dict]) -> list[str]:
    """The deck the rules assume: the 52 standard cards, no jokers (reference cards aside)."""
    problems = poker.standard_deck_problems(cards)
    if any(c.get("rank") == "Joker" for c in cards):
        problems.append("Ragusa is played without jokers, but the deck has one")
    return problems
