"""The starter deck's game (cardkit/starter/template/rules.py) written by hand against
:class:`~cardkit.toolkit.state.State`, without the toolkit's piles: the baseline of the
toolkit's cost in ``make bench``, and a second implementation the tests compare the
toolkit version with, game for game.

It offers identical copies once, as the toolkit does, and draws on its chance in the same
order as the toolkit version (one shuffle of the deck, cards dealt one at a time round the
table, moves offered in the same order), so with the same seeds both play the same games.
"""

from __future__ import annotations

from cardkit.toolkit.state import IllegalMove, State

ROUNDS, HAND = 8, 3


class HandStarter(State):
    hand_size = HAND  # cards dealt to each player

    def __init__(self, players, rng, cards):
        self.players, self.rng = players, rng
        self.kind = [card.kind for card in cards]
        self.cost = [card.cost for card in cards]
        self.strength = [card.strength for card in cards]
        looks = {}  # identical copies are offered once, as the toolkit does: the first
        self.look = [looks.setdefault(card.look, len(looks)) for card in cards]
        self.deck = list(range(len(cards)))  # a card is its index
        rng.shuffle(self.deck)
        self.hands = [[] for _ in range(players)]
        for _ in range(self.hand_size):
            for hand in self.hands:
                hand.append(self.deck.pop())
        self.lines = [[] for _ in range(players)]
        self.discard = []
        self.coins, self.points = [0] * players, [0] * players
        self.round, self.seat, self.over, self.moves_made = 1, 0, False, 0
        self._legal = None

    def current_player(self):
        return self.seat

    def legal_moves(self):
        if self._legal is None:
            coins = self.coins[self.seat] + 1
            seen, moves = set(), []
            for card in self.hands[self.seat]:
                if self.cost[card] <= coins and self.look[card] not in seen:
                    seen.add(self.look[card])
                    moves.append(("play", card))
            if self.deck:
                moves.append(("draw",))
            self._legal = [] if self.over else moves + [("pass",)]
        return list(self._legal)

    def apply(self, move):
        if move not in self.legal_moves():
            raise IllegalMove(f"{move!r}")
        self._legal = None
        self.moves_made += 1
        seat = self.seat
        self.coins[seat] += 1
        self.make(seat, move)
        self.seat = (seat + 1) % self.players
        if self.seat == 0:
            self.round += 1
            if self.round > ROUNDS:
                self.over = True

    def make(self, seat, move):
        """The move's own part of a turn: after the coin, before the turn passes."""
        if move[0] == "draw":
            self.hands[seat].append(self.deck.pop())
        elif move[0] == "play":
            card = move[1]
            self.coins[seat] -= self.cost[card]
            self.hands[seat].remove(card)
            if self.kind[card] == "unit":
                self.lines[seat].append(card)
            else:
                self.discard.append(card)
                self.points[seat] += self.cost[card] + 1

    def is_over(self):
        return self.over

    def scores(self):
        return [self.points[seat] + sum(self.strength[card] for card in self.lines[seat])
                for seat in range(self.players)]

    def returns(self):
        scores = self.scores()
        won = [seat for seat, score in enumerate(scores) if score == max(scores)]
        return [1 / len(won) if seat in won else 0.0 for seat in range(self.players)]

    def observation(self, seat):
        return {"hand": list(self.hands[seat]), "lines": [list(line) for line in self.lines],
                "deck": len(self.deck), "coins": list(self.coins), "points": list(self.points)}
