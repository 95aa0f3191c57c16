"""A game with planted imbalances and a known fair setting, for checking ``--tune``.

Two seats are each dealt two cards and play one; a coin names the winner, but seat 0 wins
it FIRST_BONUS percentage points more often than seat 1 (the planted first-seat bonus),
and a seat dealt a Dragon when the other was not takes the win half the time (the planted
over-strong card). The fair setting: FIRST_BONUS 0 and no Dragon.
"""

from cardkit.toolkit import HIDDEN, OWNER, PUBLIC, CardGame

FIRST_BONUS = 20  # points seat 0's coin is weighted by
HAND = 2


class Planted(CardGame):
    title = "Planted"
    player_counts = (2,)
    fields = {"name": str}

    def setup(self):
        self.deck = self.pile("deck", HIDDEN, self.cards)
        self.deck.shuffle()
        self.hands = self.seat_piles("hand", OWNER)
        self.deal(self.deck, self.hands, HAND)
        self.table = self.pile("table", PUBLIC)
        self.public["dragons"] = [any(c.name == "Dragon" for c in hand) for hand in self.hands]

    def moves(self):
        return [("play", card) for card in self.hands[self.seat]]

    def play(self, move):
        self.hands[self.seat].move(move[1], self.table)
        self.next_seat()
        if self.seat == 0:
            winner = 0 if self.rng.random() < 0.5 + FIRST_BONUS / 100 else 1
            dragons = self.public["dragons"]
            if dragons[0] != dragons[1] and self.rng.random() < 0.5:
                winner = dragons.index(True)
            self.public["winner"] = winner
            self.end()

    def scores(self):
        return [int(seat == self.public["winner"]) for seat in range(self.players)]


def cards(dragons: int = 2, plain: int = 12):
    """``plain`` cards and ``dragons`` Dragons."""
    from cardkit.toolkit import Card

    return tuple(Card(i, {"name": "Dragon" if i < dragons else f"card {i}"})
                 for i in range(dragons + plain))
