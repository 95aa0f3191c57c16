"""Bluff the Bullet's deal (:func:`new_state`) and the cards a printed deck gives the game
(:func:`cards_from_deck`)."""

from __future__ import annotations

import random

from ...rules import bullet as rules
from ...rules.errors import RulesError
from .state import BOTTOM, FIN, SLOTS, STANDARD, BulletState


def new_state(players: int, rng: random.Random,
              cards: tuple | None = None) -> BulletState:
    """Deal a game from ``cards`` ((suit, value) pairs from :func:`cards_from_deck`; None:
    the bundled deck), keeping the values in play for ``players``: 10 random cards and Fin
    shuffled under the rest, then each seat (from the dealer's left) dealt 5 Poker Hand
    cards and 1 Action Card from the top.

    >>> [len(new_state(n, random.Random(0)).cards) for n in (2, 3, 4, 5)]  # with Fin
    [33, 41, 49, 57]
    """
    allowed = rules.values_in_play(players)
    in_play = [c for c in (cards or STANDARD) if c[1] in allowed]
    needed = players * (SLOTS + 1) + BOTTOM
    if len(in_play) < needed:
        raise RulesError(f"the deck has {len(in_play)} cards of values {allowed[0]}-"
                         f"{allowed[-1]} for {players} players",
                         f"the deal and the Fin section need at least {needed}")
    rng.shuffle(in_play)
    bottom = in_play[:BOTTOM] + [FIN]
    rng.shuffle(bottom)
    deck = in_play[BOTTOM:] + bottom  # top card first
    dealt = SLOTS + 1  # a seat's Poker Hand and its first Action Card
    hands = [deck[dealt * s:dealt * s + SLOTS] for s in range(players)]
    action = [[deck[dealt * s + SLOTS]] for s in range(players)]
    return BulletState(hands, action, deck[dealt * players:], rng)


def cards_from_deck(cards: list[dict]) -> tuple:
    """A printed deck (one dict a copy) -> its number cards as sorted (suit, value) pairs.
    Number cards are those with a value; reference cards are left out; the deck must hold
    exactly one Fin card (kind 'fin').

    >>> cards_from_deck([{"kind": "number", "suit": "cup", "value": 2},
    ...                  {"kind": "fin", "value": None}, {"kind": "reference"}])
    (('cup', 2),)
    """
    numbers, fins = [], 0
    for index, printed in enumerate(cards):
        value = printed.get("value")
        if printed.get("kind") == "fin":
            fins += 1
        elif value is not None and value != "":
            if type(value) is not int or value not in rules.VALUES:
                raise RulesError(f"its value {value!r} is not one of the game's",
                                 "values are whole numbers 1-7", card=index)
            if printed.get("suit") not in rules.SUITS:
                suit = printed.get("suit")
                raise RulesError("it has a value but no suit" if suit in (None, "") else
                                 f"its suit {suit!r} is not one of the game's",
                                 "give every number card a suit field: crow, cup, key or "
                                 "bullet", card=index)
            numbers.append((printed["suit"], value))
    if fins != 1:
        raise RulesError(f"the deck has {fins} Fin cards",
                         "the rules need exactly one card of kind 'fin'")
    if not numbers:
        raise RulesError("the deck has no number cards", "give cards a suit and a value")
    return tuple(sorted(numbers))

