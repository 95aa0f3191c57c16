"""Bluff the Bullet, playable: poker hands changed by card abilities that may be bluffed.

The rules in brief (cardkit's wording; the rulings are in :mod:`cardkit.rules.bullet`):

* The deck holds the values in play for the player count (2: 1-4, 3: 1-5, 4: 1-6, 5: 1-7)
  in four suits, two copies each. The Fin card is shuffled with 10 random cards and that
  section goes under the rest, so Fin comes up among the last 11 cards.
* Each seat is dealt a Poker Hand (3 cards face up, 2 face down: their owner may look at
  them) and 1 Action Card. The best three face-up cards play first.
* A turn: draw up to 2 Action Cards, then play one face down stating an ability and its
  targets: crow (discard a Poker Hand card, the played card takes its place face up), cup
  (swap two Poker Hand cards) or key (look at a seat's whole Poker Hand). The card need
  not show the ability stated: that is a bluff.
* The others may call the bluff or shoot a bullet (cancel the card). A bullet is played
  face down too, so it may itself be called or shot, and it may be a bluff.
* A called card is turned up. A bluff does nothing and, at the end of the turn, its player
  discards the Poker Hand card the caller picks; a true card works and the caller
  discards the card its player picks. The discard is replaced from the deck, face down.
* Drawing Fin ends the game at once (as a discard's replacement, the next card replaces
  it first). The best Poker Hand wins; :mod:`cardkit.rules.bullet` ranks them.

A card is ``(suit, value)``; moves name it by its label ``'cup 3'``, and a Poker Hand
card by its place ``(seat, slot)`` (slots 0-2 are dealt face up, 3-4 face down). Moves:
``('play', 'cup 3', 'crow', (1, 0))`` plays the cup 3 stating crow on seat 1's slot 0;
``('play', 'key 2', 'cup', (0, 4), (1, 2))`` states a swap and
``('play', 'crow 1', 'key', 1)`` a look at seat 1's hand. The others answer ``'pass'``,
``'call'`` or ``('bullet', 'cup 5')``; after a call, ``('discard', seat, slot)`` is the
chooser naming the card to go.

>>> import random
>>> hands = [[card(f"crow {v}") for v in (1, 1, 2, 3, 4)],
...          [card(f"cup {v}") for v in (2, 2, 3, 4, 4)]]
>>> state = BulletState(hands, [[card("key 1"), card("cup 1")], [card("key 4")]],
...                     [card(f"bullet {v}") for v in (1, 4, 3)] + [FIN], random.Random(1))
>>> state.current_player()  # seat 1's face-up 2 2 3 beat seat 0's 1 1 2
1
>>> state.apply(("play", "key 4", "crow", (0, 4)))  # seat 1 drew the bullet 1 first
>>> state.apply("call")  # seat 0 calls: the key 4 shows no crow
>>> state.legal_moves()[:2], state.current_player()
([('discard', 1, 0), ('discard', 1, 1)], 0)
>>> state.apply(("discard", 1, 0))  # seat 1 loses a 2, draws the bullet 4 face down
>>> state.hands_values(), state.current_player(), state.action_labels(0)
([[1, 1, 2, 3, 4], [4, 2, 3, 4, 4]], 0, ['key 1', 'cup 1'])

The game is three modules: :mod:`.state` holds the cards, a game in progress and its
moves, :mod:`.deal` the deal and the cards a printed deck gives, and :mod:`.bots` the
card sharp's play; the rulings cardkit adds to the published rules are the game's own
(:data:`GAME`) and :mod:`cardkit.rules.bullet`'s.
"""

from __future__ import annotations

from ...rules import bullet as rules
from ...toolkit.search import SearchBot
from ...toolkit.state import Game, RandomBot
from .bots import CardSharpBot
from .deal import cards_from_deck, new_state
from .state import FIN, STANDARD, BulletState, card, label, plays

__all__ = ["FIN", "GAME", "STANDARD", "BulletState", "CardSharpBot", "card",
           "cards_from_deck", "label", "new_state", "plays"]

GAME = Game(name="bullet", title="Bluff the Bullet", players=tuple(rules.PLAYERS),
            default_players=4, new_state=new_state,
            # the search that measured best here (docs: the ablation): guided less, its
            # samples weighed by the others' claims, which bluffing decides in this game
            bots={"random": RandomBot, "heuristic": CardSharpBot,
                  "search": SearchBot.tuned(bias=4.0, trust=0.1, compare=3.0, iterations=10.0)},
            cards_from_deck=cards_from_deck,
            score_unit="hand category",  # 0 high card ... 6 five of a kind
            rulings=("A turn must play a card.",
                     "A turn's card states crow, cup or key, never bullet.",
                     "A cup swaps cards of two different hands; a swapped card keeps its "
                     "face."))
