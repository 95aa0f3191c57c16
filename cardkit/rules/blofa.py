"""Blófa Cards: declarations, challenges and the final count, for 4 players.

Seats are 0-3 in turn order; play passes to the left, the next seat. The player across
from seat i is i + 2 (mod 4); the player on its right is the previous seat, i - 1.

>>> challenge([4], declared=2, declarer=0, challenger=1)["winner"]
1
"""

from __future__ import annotations

from collections import Counter

from .errors import RulesError
from .situations import number, over_supply, times

PLAYERS = 4
RULE_CARDS = 3
DISTRIBUTION = {0: 3, 1: 5, 2: 4, 3: 3, 4: 2, 5: 1}  # value -> copies
BACKS = {"blue": (0, 2, 4), "yellow": (1, 3, 5)}  # blue backs are even, yellow odd
CAPTURE_POINTS = {"capturer": 6, "across": 4, "right": 2}
MAX_DECLARED = 2 * sum(DISTRIBUTION.values())  # 18 plays of one card, each declaring +2


def across(seat: int) -> int:
    return (seat + 2) % PLAYERS


def right_of(seat: int) -> int:
    """The player on a seat's right: the previous seat in turn order."""
    return (seat - 1) % PLAYERS


def _seat(seat, what="seat") -> int:
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < PLAYERS:
        raise RulesError(f"{what} {seat!r} is not a seat", "seats are 0, 1, 2 and 3")
    return seat


def declarations_legal(declared: list[int]) -> tuple[bool, str]:
    """Ruling: a trick opens with a declaration of 1 or 2; each later one is the last
    plus 1 or plus 2. Whether the cards add up does not matter here: lies are legal.
    A trick of more than 18 plays cannot happen (see :func:`check_situation`)."""
    if len(declared) > MAX_DECLARED // 2:
        raise RulesError(f"{len(declared)} declarations in one trick cannot happen",
                         f"each play takes a card of the 18 until the trick ends, so a "
                         f"trick has at most {MAX_DECLARED // 2} declarations")
    last = 0
    for i, value in enumerate(declared):
        if value - last not in (1, 2):
            wanted = "1 or 2" if i == 0 else f"{last + 1} or {last + 2}"
            return False, f"declaration {i + 1} is {value}, but must be {wanted}"
        last = value
    return True, "each declaration is 1 or 2 more than the last"


def parse_played(words) -> list[int]:
    """'4', '0 2' or ['0', '2'] -> the values played; digits only, 0-5 checked later."""
    words = words.split() if isinstance(words, str) else [str(w) for w in words]
    for word in words:
        if not (word.isascii() and word.isdigit()) or len(word) > 3:
            raise RulesError(f"'{word[:12]}' is not a card value", "write values 0-5")
    return [int(word) for word in words]


def _copies() -> str:
    return ", ".join(f"{number(n)} {v}{'s' * (n > 1)}" for v, n in DISTRIBUTION.items())


def check_situation(played: list[int], declared: int | None = None) -> None:
    """Refuse a play that cannot happen. A play is 1 or 2 cards of values 0-5, and the 18
    cards hold each value as often as DISTRIBUTION says, so two 5s cannot be played. A
    declaration is at least 1 (a trick opens with 1 or 2 and each next one is higher).
    Decision: it is at most MAX_DECLARED, 36: the cards played in a trick stay in it, so a
    trick has at most 18 plays, each declaring at most 2 more than the last.

    >>> check_situation([5, 5], declared=10)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    cardkit.rules.errors.RulesError: 5 is played twice, but the deck has one 5; ...
    >>> check_situation([4], declared=0)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    cardkit.rules.errors.RulesError: a declared sum of 0 cannot happen; ...
    """
    if not 1 <= len(played) <= 2:
        raise RulesError(f"a play is 1 or 2 cards, not {len(played)}", "play 1 or 2 cards")
    for value in played:
        if value not in DISTRIBUTION:
            raise RulesError(f"{value} is not a Blófa card", "values run 0-5")
    over = over_supply(played, DISTRIBUTION.get)
    if over:
        value, named, held = over
        raise RulesError(f"{value} is played {times(named)}, but the deck has "
                         f"{number(held)} {value}", f"the 18 cards are {_copies()}")
    if declared is not None and declared < 1:
        raise RulesError(f"a declared sum of {declared} cannot happen",
                         "a trick opens with a declaration of 1 or 2 and each next one "
                         "is higher")
    if declared is not None and declared > MAX_DECLARED:
        raise RulesError(f"a declared sum of {declared} cannot happen",
                         f"a trick has at most 18 plays, each declaring 1 or 2 more than "
                         f"the last, so declarations stop at {MAX_DECLARED}")


def challenge(played: list[int], declared: int, declarer: int, challenger: int) -> dict:
    """Ruling: a challenge is right when the played cards' sum differs from the declared
    sum. The clash winner (the challenger if right, else the declarer) gets +1 VP and the
    trick; the loser gets -1 VP. The situation is checked first (:func:`check_situation`)."""
    check_situation(played, declared)
    _seat(declarer, "declarer")
    if _seat(challenger, "challenger") == declarer:
        raise RulesError("the declarer cannot challenge themselves", "name another seat")
    return clash(sum(played), declared, declarer, challenger)


def clash(total: int, declared: int, declarer: int, challenger: int) -> dict:
    """The clash once the challenged cards are flipped, from their total, unchecked (the
    simulator's path; :func:`challenge` checks the situation first).

    >>> clash(3, declared=3, declarer=2, challenger=0)
    {'lie': False, 'winner': 2, 'vp': {2: 1, 0: -1}}
    """
    lie = total != declared
    winner, loser = (challenger, declarer) if lie else (declarer, challenger)
    return {"lie": lie, "winner": winner, "vp": {winner: 1, loser: -1}}


def three_passes(declarer: int) -> dict:
    """Three passes in a row: the declarer gets +1 VP and the trick."""
    return {"winner": _seat(declarer, "declarer"), "vp": {declarer: 1}}


def final_scores(vp: list[int], captured_by: list[int], holding: list[int],
                 rule_cards: int = RULE_CARDS) -> dict:
    """Ruling: per captured rule card the capturer gets +6, the player across +4 and the
    capturer's right neighbour +2. Then anyone still holding a rule card is eliminated.
    The highest score among the rest wins; a tie for highest means nobody wins.
    ``rule_cards`` is how many the deck holds (a designer's deck may change it)."""
    if len(vp) != PLAYERS:
        raise RulesError(f"Blófa has 4 players, not {len(vp)}", "give 4 VP totals")
    for seat in captured_by + holding:
        _seat(seat)
    if len(captured_by) + len(holding) > rule_cards:
        raise RulesError(f"{len(captured_by)} captured and {len(holding)} held rule cards "
                         f"make more than {rule_cards}",
                         f"there are only {number(rule_cards)} rule cards")
    scores = list(vp)
    for seat in captured_by:
        scores[seat] += CAPTURE_POINTS["capturer"]
        scores[across(seat)] += CAPTURE_POINTS["across"]
        scores[right_of(seat)] += CAPTURE_POINTS["right"]
    eliminated = sorted(set(holding))
    remaining = [s for s in range(PLAYERS) if s not in eliminated]
    best = max((scores[s] for s in remaining), default=None)
    leaders = [s for s in remaining if scores[s] == best]
    winner = leaders[0] if len(leaders) == 1 else None
    return {"scores": scores, "eliminated": eliminated, "winner": winner}


# -- examples ---------------------------------------------------------------------------

def example_declarations(situation):
    legal, reason = declarations_legal(list(situation["declared"]))
    return {"legal": legal}, reason


def example_challenge(situation):
    outcome = challenge(list(situation["played"]), situation["declared"],
                        situation["declarer"], situation["challenger"])
    total = sum(situation["played"])
    truth = (f"the cards add up to {total}, not {situation['declared']}: a lie"
             if outcome["lie"] else f"the cards add up to {total}: the truth")
    reason = (f"{truth}; seat {outcome['winner']} wins the clash and the trick, "
              + ", ".join(f"seat {s} {v:+d} VP" for s, v in outcome["vp"].items()))
    return outcome, reason


def example_passes(situation):
    outcome = three_passes(situation["declarer"])
    return outcome, f"three passes: seat {outcome['winner']} wins the trick and +1 VP"


def example_end(situation):
    outcome = final_scores(list(situation["vp"]), list(situation.get("captured_by", [])),
                           list(situation.get("holding", [])))
    words = f"scores {outcome['scores']}"
    if outcome["eliminated"]:
        words += f"; seats {outcome['eliminated']} still hold a rule card and are out"
    words += (f"; seat {outcome['winner']} wins" if outcome["winner"] is not None
              else "; a tie for the highest score: nobody wins")
    return outcome, words


EXAMPLES = {"declarations": example_declarations, "challenge": example_challenge,
            "passes": example_passes, "end": example_end}


def check_deck(cards: list[dict]) -> list[str]:
    """The deck the rules assume: 18 cards, values per DISTRIBUTION, even ones blue."""
    problems = []
    values = Counter(c.get("value") for c in cards)
    if values != Counter(DISTRIBUTION):
        problems.append(f"the rules need values {DISTRIBUTION}, the deck has {dict(values)}")
    for card in cards:
        if card.get("value") not in BACKS.get(card.get("back"), ()):
            problems.append(f"a {card.get('value')} has a {card.get('back')} back; blue "
                            "backs are for even values, yellow for odd")
    return problems
