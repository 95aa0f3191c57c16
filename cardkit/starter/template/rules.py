"""How __TITLE__ is played: a small complete game for this deck, for `cardkit simulate`.

Change it as your game changes. `cardkit simulate . --check` plays a thousand random games
and says what is wrong with the rules; `cardkit simulate .` plays many and shows who wins
and how long games last; `cardkit simulate . --log 1` shows one game move by move.

The game: 2 to 4 players. Each turn you take a coin, then draw a card, play a card from
your hand by paying its cost, or pass. A unit joins your line; an event is discarded and
scores its cost + 1. After eight rounds, your units' strength plus your event points is
your score, and the best score wins (a tie shares the win).

This file is a program: cardkit runs it only when you ask `cardkit simulate` to.
"""

from cardkit.toolkit import OWNER, PUBLIC, Bot, CardGame

ROUNDS = 8
HAND = 3  # cards dealt to each player


class Builder(Bot):
    """Plays the strongest unit it can afford, else the dearest event, else draws."""

    fair = True  # it plays from what its seat sees: the search bot may follow it

    def choose(self, observation, moves, rng):
        plays = [move for move in moves if move[0] == "play"]
        units = [move for move in plays if move[1].kind == "unit"]
        if units:
            return max(units, key=lambda move: move[1].strength)
        if plays:
            return max(plays, key=lambda move: move[1].cost)
        return ("draw",) if ("draw",) in moves else ("pass",)


class MyGame(CardGame):
    title = "__TITLE__"
    player_counts = (2, 3, 4)  # the usual number first
    fields = {"kind": ("unit", "event"), "cost": int, "strength": int}  # what the rules read
    bots = {"builder": Builder}  # 'random' is always there

    def setup(self):
        self.deck = self.pile("deck", cards=self.cards)  # face down: no one sees its cards
        self.deck.shuffle()
        self.hands = self.seat_piles("hand", OWNER)  # each player sees their own hand
        self.lines = self.seat_piles("line", PUBLIC)  # units in play: everyone sees them
        self.discard = self.pile("discard", PUBLIC)
        self.deal(self.deck, self.hands, HAND)
        self.public.update(coins=[0] * self.players, points=[0] * self.players, round=1)

    def moves(self):
        coins = self.public["coins"][self.seat] + 1  # with the coin this turn brings
        moves = [("play", card) for card in self.hands[self.seat] if card.cost <= coins]
        if self.deck:
            moves.append(("draw",))
        return moves + [("pass",)]

    def play(self, move):
        self.public["coins"][self.seat] += 1
        if move[0] == "draw":
            self.deck.move_top(self.hands[self.seat])
        elif move[0] == "play":
            card = move[1]
            self.public["coins"][self.seat] -= card.cost
            if card.kind == "unit":
                self.hands[self.seat].move(card, self.lines[self.seat])
            else:
                self.hands[self.seat].move(card, self.discard)
                self.public["points"][self.seat] += card.cost + 1
        self.next_seat()
        if self.seat == 0:  # a round is over
            self.public["round"] += 1
            if self.public["round"] > ROUNDS:
                self.end()

    def scores(self):
        return [self.public["points"][seat] + sum(card.strength for card in self.lines[seat])
                for seat in range(self.players)]

    def figures(self):
        """What the report adds up over many games, besides wins and scores."""
        return {"units_played": sum(len(line) for line in self.lines)}
