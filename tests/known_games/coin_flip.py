"""Coin flip: a game of pure chance whose answer is known, for checking cardkit's verdicts.

Each seat is dealt three cards and plays one of them; then the top card of a hidden fate
pile, one card for each seat, names the winner. No seat, bot, skill or card changes who
wins, except a card whose ``boost`` is above 0 (the planted card): when fate names
another seat, the seat that was dealt it takes the win that often.
"""

from cardkit.toolkit import HIDDEN, OWNER, PUBLIC, Bot, CardGame

HAND = 3


class PlaysFirst(Bot):
    """Plays the first card of its hand: a choice that cannot matter."""

    observes = False

    def choose(self, observation, moves, rng):
        return moves[0]


class CoinFlip(CardGame):
    title = "Coin flip"
    player_counts = (4, 2, 3)
    fields = {"name": str, "kind": ("plain", "fate"), "seat": int, "boost": float}
    bots = {"heuristic": PlaysFirst}

    def setup(self):
        fate = [card for card in self.cards if card.kind == "fate"]
        self.fate = self.pile("fate", HIDDEN, [c for c in fate if c.seat < self.players])
        self.box = self.pile("box", HIDDEN, [c for c in fate if c.seat >= self.players])
        self.deck = self.pile("deck", HIDDEN, [c for c in self.cards if c.kind == "plain"])
        self.fate.shuffle()
        self.deck.shuffle()
        self.hands = self.seat_piles("hand", OWNER)
        self.deal(self.deck, self.hands, HAND)
        self.table = self.pile("table", PUBLIC)
        self.public["played"] = [None] * self.players  # each seat's card, once played

    def moves(self):
        return [("play", card) for card in self.hands[self.seat]]

    def play(self, move):
        self.hands[self.seat].move(move[1], self.table)
        self.public["played"][self.seat] = move[1]
        self.next_seat()
        if self.seat == 0:
            self.public["winner"] = self.winner()
            self.end()

    def winner(self) -> int:
        """The seat the top fate card names, unless the seat dealt a boosted card takes
        the win instead (that often)."""
        winner = self.fate.cards[-1].seat
        for seat in range(self.players):
            boost = max(card.boost for card in [*self.hands[seat], self.public["played"][seat]])
            if seat != winner and boost and self.rng.random() < boost:
                winner = seat
        return winner

    def scores(self):
        return [int(seat == self.public["winner"]) for seat in range(self.players)]


def cards(plain: int = 16, boost: float = 0.0):
    """The deck: ``plain`` cards named 'card 1'... (the first, 'Dragon', carries
    ``boost``) and a fate card for each of up to four seats."""
    from cardkit.toolkit import Card

    deck = [Card(i, {"name": "Dragon" if i == 0 else f"card {i}", "kind": "plain",
                     "seat": 0, "boost": boost if i == 0 else 0.0}) for i in range(plain)]
    return tuple(deck + [Card(plain + seat, {"name": f"fate {seat}", "kind": "fate",
                                             "seat": seat, "boost": 0.0})
                         for seat in range(4)])
