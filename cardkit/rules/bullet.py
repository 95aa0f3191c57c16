"""Bluff the Bullet: poker hands of values 1-7, abilities, bluffs and the starting player.

Ruling: hands are exactly the seven listed categories, best first: five of a kind, four of
a kind, full house, three of a kind, two pair, pair, high card. There are no straights or
flushes: 2-3-4-5-6 is a high card hand (which is why the text's "straight" tie-break reads
like a high-card one). Suits never count.

Ruling: hands of one category compare their values ordered by how often they appear, then
by value, highest first; identical orders tie.

>>> describe(parse_values("6 6 6 5 5"))
'full house, 6s over 5s'
>>> compare([parse_values("6 6 6 5 5"), parse_values("4 4 4 7 7")])
[0]
"""

from __future__ import annotations

import itertools
from collections import Counter

from .errors import RulesError
from .poker import by_count
from .situations import number, over_supply

VALUES = range(1, 8)
SUITS = ("crow", "cup", "key", "bullet")
ABILITIES = {"crow": "discard", "cup": "swap", "key": "look", "bullet": "cancel"}
COPIES = 2  # of each suit and value
PER_VALUE = len(SUITS) * COPIES  # 8 cards of each value
CATEGORIES = ("high card", "pair", "two pair", "three of a kind", "full house",
              "four of a kind", "five of a kind")
SHAPES = {(5,): 6, (4, 1): 5, (3, 2): 4, (3, 1, 1): 3, (2, 2, 1): 2, (2, 1, 1, 1): 1,
          (3,): 3, (2, 1): 1}  # the last two: three face-up cards
PRIMES = {v: p for v, p in zip(VALUES, (2, 3, 5, 7, 11, 13, 17))}
PLAYERS = range(2, 6)


def values_in_play(players: int) -> range:
    """Ruling: 2 players use values 1-4, 3 use 1-5, 4 use 1-6, 5 use 1-7."""
    if players not in PLAYERS:
        raise RulesError(f"Bluff the Bullet is for 2-5 players, not {players}",
                         "choose 2, 3, 4 or 5 players")
    return range(1, players + 3)


def parse_values(text, players: int = 5, size: int | None = 5) -> list[int]:
    """'6 6 6 5 5' -> [6, 6, 6, 5, 5], checked against the values in play."""
    words = str(text).split()
    allowed = values_in_play(players)
    values = []
    for word in words:
        if word not in {str(value) for value in allowed}:  # '²' and '٣' are digits too
            raise RulesError(f"'{word}' is not a card value with {players} players",
                             f"values run {allowed[0]}-{allowed[-1]}")
        values.append(int(word))
    if size is not None and len(values) != size:
        raise RulesError(f"'{text}' has {len(values)} cards, not {size}",
                         f"write {size} values separated by spaces")
    return values


def check_situation(hands, players: int = 5) -> None:
    """Refuse hands that cannot be on the table together. Each player holds one hand, so
    there are no more hands than ``players``; and all the hands come from one deck, which
    holds each value in play PER_VALUE times (4 suits x 2 copies), counted across every
    hand, not within one.

    >>> check_situation([[1, 1, 1, 1, 1], [1, 1, 1, 1, 2]])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    cardkit.rules.errors.RulesError: the hands hold nine 1s together; ...
    """
    allowed = values_in_play(players)
    if len(hands) > players:
        raise RulesError(f"{len(hands)} hands with {players} players",
                         f"each player holds one hand: give at most {players} hands, or "
                         "more players")
    for value in (v for hand in hands for v in hand):
        if value not in allowed:
            raise RulesError(f"'{value}' is not a card value with {players} players",
                             f"values run {allowed[0]}-{allowed[-1]}")
    over = over_supply((v for hand in hands for v in hand), lambda value: PER_VALUE)
    if over:
        value, named, held = over
        where = "the hand holds" if len(hands) == 1 else "the hands hold"
        raise RulesError(f"{where} {number(named)} {value}s"
                         + (" together" if len(hands) > 1 else ""),
                         f"the deck has {number(held)} of each value (4 suits x 2 copies)")


def hand_key(values) -> tuple:
    """(category, values by count then value): comparing keys compares hands."""
    ordered, counts = by_count(values)
    return SHAPES.get(counts, 0), ordered


def _plural(value: int) -> str:
    return f"{value}s"


def describe(values) -> str:
    category, ordered = hand_key(values)
    name = CATEGORIES[category]
    if category == 4:
        return f"{name}, {_plural(ordered[0])} over {_plural(ordered[1])}"
    if category == 2:
        return f"{name}, {_plural(ordered[0])} and {_plural(ordered[1])}, {ordered[2]} kicker"
    if category in (1, 3, 5, 6):
        words, rest = f"{name}, {_plural(ordered[0])}", ordered[1:]
        if rest:
            words += ", " + " ".join(map(str, rest)) + (" kicker" if len(rest) == 1
                                                        else " kickers")
        return words
    return f"{name}, {' '.join(str(v) for v in ordered)}"


def compare(hands) -> list[int]:
    """The indexes of the best hands (more than one when they tie)."""
    keys = [hand_key(h) for h in hands]
    best = max(keys)
    return [i for i, k in enumerate(keys) if k == best]


def _table():
    keys = {}
    for values in itertools.combinations_with_replacement(VALUES, 5):
        product = 1
        for v in values:
            product *= PRIMES[v]
        keys[product] = hand_key(values)
    order = {k: i for i, k in enumerate(sorted(set(keys.values())), 1)}
    return {product: order[key] for product, key in keys.items()}


STRENGTH = _table()  # product of the five values' primes -> strength, higher is better


def score(a: int, b: int, c: int, d: int, e: int) -> int:
    """Strength of five values given as their primes (:data:`PRIMES`)."""
    return STRENGTH[a * b * c * d * e]


def starting_player(face_up: list[list[int]], dealer: int) -> int:
    """Ruling: the best three face-up cards start, ranked like hands; among tied players,
    the first of them clockwise from the dealer's left (seat dealer + 1, then + 2...)."""
    players = len(face_up)
    if not 0 <= dealer < players:
        raise RulesError(f"there is no seat {dealer} among {players} players",
                         f"seats are 0-{players - 1}")
    keys = [hand_key(cards) for cards in face_up]
    best = max(keys)
    for step in range(1, players + 1):
        seat = (dealer + step) % players
        if keys[seat] == best:
            return seat
    raise AssertionError("unreachable: some seat holds the best key")


def deck_counts(players: int) -> dict:
    """The cards in play for a player count: each value in play, 4 suits, 2 copies; the Fin
    card and the 5 reference cards always."""
    values = values_in_play(players)
    return {"number cards": len(values) * len(SUITS) * COPIES, "values": list(values),
            "fin": 1, "reference": 5}


def called_bluff(stated: str, played: str, player: int, caller: int,
                 replacement: str = "card") -> dict:
    """Outcome of calling a bluff on ``player``'s card.

    The card is revealed. If its suit's ability is not the one stated, it was a bluff: it
    has no effect, and at the end of the turn the bluffer discards a Poker Hand card the
    caller chooses. If it matches, it takes effect and the caller discards a Poker Hand card
    the accused chooses. The discarded card is replaced from the deck, face down; if that
    replacement is Fin, the next card replaces it and the game ends at once.
    """
    for suit in (stated, played):
        if suit not in ABILITIES:
            raise RulesError(f"'{suit}' is not a suit", "suits are crow, cup, key and bullet")
    if player == caller:
        raise RulesError("a player cannot call their own bluff", "name another caller")
    bluff = stated != played
    return {"bluff": bluff, "effect": not bluff,
            "discards": player if bluff else caller, "chooses": caller if bluff else player,
            "game_ends": replacement == "fin"}


# -- examples ---------------------------------------------------------------------------

def example_hand(situation):
    players = situation.get("players", 5)
    values = parse_values(situation["cards"], players)
    check_situation([values], players)
    return {"category": CATEGORIES[hand_key(values)[0]]}, describe(values)


def example_compare(situation):
    players = situation.get("players", 5)
    hands = [parse_values(h, players) for h in situation["hands"]]
    check_situation(hands, players)
    best = compare(hands)
    words = [describe(h) for h in hands]
    if len(best) > 1:
        return {"tie": best}, " ties with ".join(words[i] for i in best)
    others = [words[i] for i in range(len(hands)) if i != best[0]]
    return {"winner": best[0]}, f"{words[best[0]]}, beats {', '.join(others)}"


def example_start(situation):
    players = situation.get("players", 5)
    face_up = [parse_values(h, players, size=3) for h in situation["face_up"]]
    check_situation(face_up, players)
    seat = starting_player(face_up, situation["dealer"])
    return {"starts": seat}, (f"seat {seat} starts with {describe(face_up[seat])} "
                              f"(dealer: seat {situation['dealer']})")


def example_deck(situation):
    counts = deck_counts(situation["players"])
    return counts, (f"{situation['players']} players: values {counts['values'][0]}-"
                    f"{counts['values'][-1]}, {counts['number cards']} number cards, "
                    "Fin and 5 reference cards")


def example_bluff(situation):
    outcome = called_bluff(situation["stated"], situation["played"], situation["player"],
                           situation["caller"], situation.get("replacement", "card"))
    what = "a bluff: no effect" if outcome["bluff"] else "true: it takes effect"
    reason = (f"stated {situation['stated']}, played {situation['played']}: {what}; seat "
              f"{outcome['discards']} discards the card seat {outcome['chooses']} chooses")
    if outcome["game_ends"]:
        reason += "; Fin comes up as the replacement, so the game ends"
    return outcome, reason


EXAMPLES = {"hand": example_hand, "compare": example_compare, "start": example_start,
            "deck": example_deck, "bluff": example_bluff}


def check_deck(cards: list[dict]) -> list[str]:
    """The deck the rules assume: 4 suits x values 1-7 x 2, the Fin card, 5 references."""
    numbers = Counter((c.get("suit"), c.get("value")) for c in cards if c.get("value"))
    wanted = Counter({(s, v): COPIES for s in SUITS for v in VALUES})
    problems = []
    if numbers != wanted:
        problems.append("the rules need every suit and value 1-7 twice; the deck differs in "
                        + ", ".join(f"{s} {v}" for s, v in sorted((numbers - wanted) +
                                                                   (wanted - numbers))))
    kinds = Counter(c.get("kind") for c in cards if not c.get("value"))
    if kinds != {"fin": 1, "reference": 5}:
        problems.append(f"the rules need one Fin card and 5 reference cards, not {dict(kinds)}")
    return problems
