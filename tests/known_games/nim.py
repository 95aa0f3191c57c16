"""Nim: a game of pure skill whose answer is known, for checking cardkit's skill verdict.

Fifteen stones lie open on the table; in turn each player takes one, two or three of
them, and whoever takes the last stone wins. The player to move wins with best play
unless the stones left are a multiple of four.
"""

from cardkit.toolkit import PUBLIC, Bot, CardGame


class LeavesFours(Bot):
    """Best play: leaves a multiple of four stones when it can, else takes one."""

    def choose(self, observation, moves, rng):
        left = observation["piles"]["heap"]
        best = [move for move in moves if (len(left) - move[1]) % 4 == 0]
        return best[0] if best else moves[0]


class Nim(CardGame):
    title = "Nim"
    player_counts = (2,)
    fields = {"name": str}
    bots = {"heuristic": LeavesFours}

    def setup(self):
        self.heap = self.pile("heap", PUBLIC, self.cards)
        self.taken = self.seat_piles("taken", PUBLIC)

    def moves(self):
        return [("take", n) for n in (1, 2, 3) if n <= len(self.heap)]

    def play(self, move):
        self.heap.move_top(self.taken[self.seat], move[1])
        if not self.heap:
            self.public["last"] = self.seat
            self.end()
        self.next_seat()

    def scores(self):
        return [int(seat == self.public["last"]) for seat in range(self.players)]


def cards(stones: int = 15):
    from cardkit.toolkit import Card

    return tuple(Card(i, {"name": "stone"}) for i in range(stones))
