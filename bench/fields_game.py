"""A game whose ``moves()`` reads card fields in combinations (issue 40): on the toolkit
(:class:`Pairs`), and by hand against State with each card's fields read once into lists
(:class:`HandPairs`; identical copies offered once, as the toolkit does), the baseline of
what reading ``card.cost`` costs in ``make bench``.

Each turn a seat takes a coin, then plays a pair from its hand (two cards of one kind it
can pay for together), plays one card it can pay for, draws, or passes. A pair scores both
strengths and the cheaper cost; a single card its strength. Eight rounds. Both versions
draw on chance in the same order and offer moves in the same order, so with the same seeds
they play the same games.
"""

from __future__ import annotations

from hand_starter import ROUNDS, HandStarter

from cardkit.toolkit import OWNER, PUBLIC, CardGame

HAND = 5


class Pairs(CardGame):
    """The game as a designer writes it: fields read where the rules need them."""

    player_counts = (2,)
    fields = {"kind": ("unit", "event"), "cost": int, "strength": int}

    def setup(self):
        self.deck = self.pile("deck", cards=self.cards)
        self.deck.shuffle()
        self.hands = self.seat_piles("hand", OWNER)
        self.discard = self.pile("discard", PUBLIC)
        self.deal(self.deck, self.hands, HAND)
        self.public.update(coins=[0] * self.players, points=[0] * self.players, round=1)

    def moves(self):
        coins = self.public["coins"][self.seat] + 1
        hand = self.hands[self.seat].cards
        moves = [("pair", a, b) for i, a in enumerate(hand) for b in hand[i + 1:]
                 if a.kind == b.kind and a.cost + b.cost <= coins + 1
                 and a.strength + b.strength > a.cost]
        moves += [("play", card) for card in hand if card.cost <= coins]
        if self.deck:
            moves.append(("draw",))
        return moves + [("pass",)]

    def play(self, move):
        seat, hand = self.seat, self.hands[self.seat]
        self.public["coins"][seat] += 1
        if move[0] == "draw":
            self.deck.move_top(hand)
        elif move[0] == "pair":
            a, b = move[1], move[2]
            self.public["coins"][seat] -= max(a.cost + b.cost - 1, 0)
            self.public["points"][seat] += a.strength + b.strength + min(a.cost, b.cost)
            hand.move(a, self.discard)
            hand.move(b, self.discard)
        elif move[0] == "play":
            card = move[1]
            self.public["coins"][seat] -= card.cost
            self.public["points"][seat] += card.strength
            hand.move(card, self.discard)
        self.next_seat()
        if self.seat == 0:
            self.public["round"] += 1
            if self.public["round"] > ROUNDS:
                self.end()

    def scores(self):
        return list(self.public["points"])


class HandPairs(HandStarter):
    """The same game by hand: a card is its index, its fields read once into lists (the
    starter's by-hand version, with these moves)."""

    hand_size = HAND

    def legal_moves(self):
        if self._legal is None:
            coins, hand = self.coins[self.seat] + 1, self.hands[self.seat]
            kind, cost, strength = self.kind, self.cost, self.strength
            look, seen, moves = self.look, set(), []
            for i, a in enumerate(hand):
                for b in hand[i + 1:]:
                    if kind[a] == kind[b] and cost[a] + cost[b] <= coins + 1 \
                            and strength[a] + strength[b] > cost[a] \
                            and (look[a], look[b]) not in seen:
                        seen.add((look[a], look[b]))
                        moves.append(("pair", a, b))
            for card in hand:
                if cost[card] <= coins and look[card] not in seen:
                    seen.add(look[card])
                    moves.append(("play", card))
            if self.deck:
                moves.append(("draw",))
            self._legal = [] if self.over else moves + [("pass",)]
        return list(self._legal)

    def make(self, seat, move):
        hand = self.hands[seat]
        if move[0] == "draw":
            hand.append(self.deck.pop())
        elif move[0] == "pair":
            a, b = move[1], move[2]
            self.coins[seat] -= max(self.cost[a] + self.cost[b] - 1, 0)
            self.points[seat] += self.strength[a] + self.strength[b] + min(self.cost[a],
                                                                           self.cost[b])
            hand.remove(a)
            hand.remove(b)
            self.discard += [a, b]
        elif move[0] == "play":
            card = move[1]
            self.coins[seat] -= self.cost[card]
            self.points[seat] += self.strength[card]
            hand.remove(card)
            self.discard.append(card)

    def scores(self):
        return list(self.points)
