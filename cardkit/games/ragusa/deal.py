"""Ragusa's deal (:func:`new_state`) and the cards a printed deck gives the game
(:func:`cards_from_deck`)."""

from __future__ import annotations

import random

from ...rules import poker, ragusa
from ...rules.errors import RulesError
from .state import CARD, GOODS, STANDARD, RagusaState, deck_size, turn_up_foundations


def deal(players: int, rng: random.Random, cards) -> tuple:
    """Setup: the foundations, then from the reshuffled rest one card a player (its suit
    is the player's), nine more each, and five Common Goods. Returns (foundations, suits,
    hands, goods, deck)."""
    deck = list(cards)
    rng.shuffle(deck)
    foundations = turn_up_foundations(deck)
    out = {str(card) for card in foundations.values()}
    deck = [card for card in deck if card not in out]
    rng.shuffle(deck)
    first = [deck.pop() for _ in range(players)]
    hands = [[card] + [deck.pop() for _ in range(ragusa.HAND_SIZE - 1)] for card in first]
    goods = [deck.pop() for _ in range(GOODS)]
    return foundations, [CARD[card].suit for card in first], hands, goods, deck


def new_state(players: int, rng: random.Random, cards=None) -> RagusaState:
    """Deal a round for 2-4 players from ``cards`` (``cards_from_deck``; None: the 52
    standard cards)."""
    cards = STANDARD if cards is None else cards
    if not ragusa.MIN_PLAYERS <= players <= ragusa.MAX_PLAYERS:
        raise RulesError(f"Ragusa is for 2-4 players, not {players}", "choose 2, 3 or 4")
    if len(cards) < deck_size(players):
        raise RulesError(f"the deck has {len(cards)} cards; {players} players need "
                         f"{deck_size(players)}", "add cards or play with fewer players")
    return RagusaState(rng, cards, *deal(players, rng, cards))


def cards_from_deck(cards: list[dict]) -> tuple[str, ...]:
    """A printed deck's playing cards (those with a rank and a suit; reference cards have
    neither) as the card names ``new_state`` deals. Refused: a card with only one of
    them, a rank or suit the game does not know, a joker, a suit with no card (it needs
    a foundation), fewer cards than two players need.

    Ruling (cardkit): a designer may leave cards out but not print one twice: claims and
    the showdown name cards by rank and suit, and one deck holds each card once.

    >>> cards_from_deck([{"rank": "10", "suit": "heart"}] * 2)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    cardkit.rules.errors.RulesError: the deck holds 10H 2 times; one deck holds each card ...
    """
    lacking = next((i for i, c in enumerate(cards) if "rank" not in c or "suit" not in c),
                   None)
    if lacking is not None:
        raise RulesError("it has no rank or no suit field", "Ragusa's rules read a rank "
                         "(2-10, J, Q, K, A) and a suit on each card", card=lacking)
    names = []
    for number, fields in enumerate(cards, 1):
        rank, suit = str(fields["rank"]).strip(), str(fields["suit"]).strip()
        if not rank and not suit:
            continue  # a reference card
        if rank.lower() == "joker":
            raise RulesError("the deck has a joker; Ragusa is played without",
                             "drop it: 'drop: [{rank: Joker}]'")
        try:
            card = poker.parse_card(rank + ragusa.parse_suit(suit))
        except RulesError as error:
            raise RulesError(f"rank {rank!r} and suit {suit!r} are not a playing card",
                             "give a rank 2-10, J, Q, K or A and a suit heart, diamond, spade "
                             "or club", card=number - 1) from error
        names.append(str(card))
    for name in set(names):
        if names.count(name) > 1:
            raise RulesError(f"the deck holds {name} {names.count(name)} times",
                             "one deck holds each card once: remove the copies")
    for suit in poker.SUITS:
        if not any(CARD[name].suit == suit for name in names):
            raise RulesError(f"the deck has no {poker.SUIT_NAMES[suit]}",
                             "every suit needs a card to turn up as its foundation")
    if len(names) < deck_size(ragusa.MIN_PLAYERS):
        raise RulesError(f"the deck has {len(names)} playing cards; 2 players need "
                         f"{deck_size(ragusa.MIN_PLAYERS)}", "add cards")
    return tuple(sorted(names, key=STANDARD.index))
