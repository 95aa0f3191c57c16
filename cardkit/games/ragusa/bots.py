"""Ragusa's own bot, the careful :class:`Trader`, and how it values a hand on its seat's
scale (:func:`key_value`, :func:`worst`)."""

from __future__ import annotations

import functools

from ...rules import poker, ragusa
from ...toolkit.state import Bot
from .state import (ANSWER, ANSWERS, BUY_COST, CALL, CARD, CLAIM, CLAIMS, DISCARD, PLACE,
                    RELABELLED, REMOVE, SELL, SWAP_COST, TRADES)


def key_value(key: tuple) -> float:
    """A hand key as one number: the category, plus each tie-break rank in base 15 after
    the point, so one rank of the leading card is worth 1/15.

    >>> round(key_value((1, (9, 14, 5, 3))), 3)  # a pair of 9s
    1.664
    """
    return key[0] + sum(rank / 15 ** (i + 1) for i, rank in enumerate(key[1]))


class Trader(Bot):
    """A careful trader. It gives away (and gives up, or puts back) the card whose loss
    hurts its best five least; names that card truly except when bluffing (then it names
    a card it cannot see); calls out a claim of a card it holds or sees face up, and any
    claim when the share of called-out claims so far found false (counting one false and
    one true to begin with) reaches its call threshold; before trading, swaps its
    least-missed card for a Common Good or buys one when that raises its best five
    enough. It picks trade partners at random, and never sells or swipes.

    Parameters: ``bluff_rate`` (0.2) the chance of naming another card than the one
    placed; ``call_threshold`` (0.6) the call threshold; ``greed`` (0.2) the least rise in
    the best five's value (``key_value``: a category is 1, a rank of the leading card
    1/15) that a swap or a buy must bring.
    """

    fair = True  # plays from its observation alone: the search follows it

    PARAMS = {"bluff_rate": 0.2, "call_threshold": 0.6, "greed": 0.2}
    RANGES = {"greed": (0.0, 100.0)}

    def choose(self, observation, moves, rng):
        phase = observation["phase"]
        if phase in (PLACE, DISCARD, REMOVE):  # the card it misses least
            return (phase, worst(observation, [move[1] for move in moves]))
        if phase in (CLAIM, ANSWER):
            claim = observation["placed"]
            if rng.random() < self.params["bluff_rate"]:
                lies = sorted({move[1] for move in moves} - seen(observation))
                claim = lies[rng.randrange(len(lies))]
            if phase == CLAIM:
                return CLAIMS[claim]
            return ANSWERS[claim][self._doubts(observation)]
        if phase == CALL:
            return "call" if self._doubts(observation) else "believe"
        if phase == SELL:
            return "stop"
        action = None if observation["acted"] else self._deck_action(observation, moves)
        if action:
            return action
        if moves[0] == "end":
            return "end"
        give = worst(observation, list(observation["hand"]))
        partners = sorted({move[1] for move in moves if move[0] == "trade"})
        return TRADES[partners[rng.randrange(len(partners))]][give]

    def _doubts(self, observation) -> bool:
        active = observation["active"]
        partner = observation["partner"] if observation["seat"] == active else active
        if observation["claims"][partner] in seen(observation):
            return True
        lies, truths = observation["exposed"]
        return (lies + 1) / (lies + truths + 2) >= self.params["call_threshold"]

    def _deck_action(self, observation, moves):
        """Swapping the card it misses least for a Common Good, or buying one (with room
        in its hand): the move that most raises its best five, if by ``greed`` or more;
        between equal hands the cheaper."""
        value, hand = valuer(observation), list(observation["hand"])
        now, give = value(hand), worst(observation, hand) if hand else None
        best, choice = None, None
        for move in moves:
            if move[0] == "swap" and move[1] == give:
                gain = (value([c for c in hand if c != give] + [move[2]]) - now, -SWAP_COST)
            elif move[0] == "buy" and len(hand) < ragusa.HAND_SIZE:
                gain = (value(hand + [move[1]]) - now, -BUY_COST)
            else:
                continue
            if best is None or gain > best:
                best, choice = gain, move
        return choice if best and best[0] >= self.params["greed"] else None


def seen(observation) -> set[str]:
    """The cards the observing seat knows are not in the other player's hand: its own,
    the one it placed, and those face up."""
    return {*observation["hand"], observation["placed"], *observation["goods"],
            *observation["foundations"].values()}


def scale(observation) -> dict[str, poker.Card]:
    """The observing seat's scale: card name -> the card relabelled (rules' ruling)."""
    return RELABELLED[CARD[observation["foundations"][observation["suit"]]].rank]


def valuer(observation):
    """The ``key_value`` of a set of cards' best five on the observing seat's scale."""
    rank = CARD[observation["foundations"][observation["suit"]]].rank
    return lambda cards: _value_of(rank, tuple(sorted(cards)))


@functools.lru_cache(maxsize=200_000)  # a hand less one card, asked again and again
def _value_of(foundation_rank: int, cards: tuple[str, ...]) -> int:
    relabelled = RELABELLED[foundation_rank]
    return key_value(ragusa.best_key([relabelled[card] for card in cards]))


def worst(observation, candidates: list[str]) -> str:
    """The candidate whose loss leaves the observing seat the best hand; on a tie, the
    lowest on its scale."""
    value, hand, relabelled = valuer(observation), observation["hand"], scale(observation)
    return max(candidates, key=lambda card: (value([c for c in hand if c != card]),
                                             -relabelled[card].rank))

