"""Ragusa: Trade 'Em, played: five turns of forced trades with bluffs, deck actions paid in
tokens, then a poker showdown where each player ranks cards on their own secret scale.

The round, as cardkit plays it (hand ranking: ``cardkit.rules.ragusa``):

* Setup: one card of each suit is turned up as that suit's Foundation Card and stays out
  all round. Each player is dealt one card, whose suit is their secret suit, then nine
  more; five Common Goods are turned up; everyone antes 20 tokens into the pot.
* Turns: seat 0 first, then to the left, five turns each. On a turn a player must trade
  with another player, and may take one deck action, before the trade or after it.
* A trade: the player picks a partner and places a card face down, naming a card; the
  partner does the same. Each believes or calls out the other, neither seeing the
  other's choice. A called-out card is turned up: a false claim costs its owner 5
  tokens, a true one costs the accuser 5. The two cards change hands either way. A player
  who cannot pay 5 gives up a card of their choice from their hand instead.
* Deck actions: sell any number of cards into the deck for 1 token each from the pot;
  swap a card with a Common Good for 3; buy a Common Good for 5 (the deck's top card
  replaces it; holding 11, put one back); swipe all five Common Goods for 15.
* Showdown: everyone shows their best five; the best hand on its owner's scale takes the
  pot; tied players compare their other cards; still tied, they split it.

Moves: ``("sell", card)`` (repeat to sell more) then ``"stop"``, ``("swap", give, take)``,
``("buy", good)`` then ``("discard", card)`` when holding 11, ``"swipe"``; ``("trade",
seat, card)`` and ``("claim", card)``; the partner's ``("place", card)`` and ``("claim",
card, "believe")`` or ``("claim", card, "call")``; then the player's ``"believe"`` or
``"call"``; ``("remove", card)`` for a penalty not paid; ``"end"`` only when nobody can
trade. Cards are written as in the rules: ``"KH"``, ``"10S"``.

>>> import random
>>> state = new_state(3, random.Random(7))
>>> len(state.hands[0]), len(state.goods), state.pot, state.tokens
(10, 5, 60, [30, 30, 30])

The game is three modules: :mod:`.state` holds the cards, a round in progress and its
moves, :mod:`.deal` the deal and the cards a printed deck gives, and :mod:`.bots` the
trader's play; the rulings cardkit adds to the published rules are the game's own
(:data:`GAME`) and :mod:`cardkit.rules.ragusa`'s.
"""

from __future__ import annotations

from ...toolkit.search import SearchBot
from ...toolkit.state import Game, RandomBot
from .bots import Trader
from .deal import cards_from_deck, new_state
from .state import CARD, STACK, STANDARD, TURNS, RagusaState, best_split

__all__ = ["CARD", "GAME", "STACK", "STANDARD", "TURNS", "RagusaState", "Trader",
           "best_split", "cards_from_deck", "new_state"]

# Three players by default: with four, only 3 cards are left in the deck, so nobody can
# swipe until someone sells.
GAME = Game(name="ragusa", title="Ragusa: Trade 'Em", players=(2, 3, 4), default_players=3,
            new_state=new_state,
            # paired rollouts, 4 samples a move, leaving the trader only for a move 2
            # standard errors better: a fair share rotated, 0.8 s a game (docs)
            bots={"random": RandomBot, "heuristic": Trader,
                  "search": SearchBot.tuned(compare=2.0, iterations=4.0, sure=2.0)},
            cards_from_deck=cards_from_deck, score_unit="tokens",
            rulings=("Each player starts with 50 tokens and antes 20; a game is one round, "
                     "won by whoever takes the pot.",
                     "A claim names one exact card; calls are simultaneous.",
                     "A sale may be the whole hand; a player without cards cannot trade.",
                     "The one deck action may come before or after the trade (amended)."))
