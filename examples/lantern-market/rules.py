"""Lantern Market, playable: a night market where stall keepers buy goods and guards.

The rules as this file plays them (2 to 4 players):

- The market cards (blue backs) are shuffled into the market deck and three are turned
  up as the row. The night cards (purple backs) are shuffled into the night deck. Each
  player starts with 3 coins.
- A round: each player in turn takes two turns. A turn earns 2 coins, then buys one card
  of the row (paying its cost) or passes. What you buy goes face up to your stall; the
  row is filled again from the market deck. Buying a Spice Jar also draws the top
  market card into your hand, face down.
- Night falls after every round: the top night card is turned up. A Storm makes each
  player whose stall shows no sword (no guard) discard a good from their stall, of their
  choice. A Festival makes goods cost 1 less in the next round.
- After the fourth night the market closes. Goods in your stall and hand score: Silk Bolt
  5, Golden Lamp 4, Spice Jar 2, Lantern Oil 1; every 3 coins left score 1 more. The best
  score wins; a tie shares the win.
"""

from cardkit.toolkit import HIDDEN, OWNER, PUBLIC, Bot, CardGame

TURNS = 2  # each player's turns a round
INCOME = 2  # coins a turn
VALUES = {"Silk Bolt": 5, "Golden Lamp": 4, "Spice Jar": 2, "Lantern Oil": 1}


class Trader(Bot):
    """Buys the card worth most for its price, keeps a guard once it owns goods, and
    discards its cheapest good to a storm."""

    fair = True  # it plays from what its seat sees: the search bot may follow it

    def choose(self, observation, moves, rng):
        if moves[0][0] == "discard":
            return min(moves, key=lambda move: VALUES[move[1].name])
        me = observation["seat"]
        stall = observation["piles"]["stall"][me]
        needs_guard = not any(card.kind == "guard" for card in stall) and len(stall) >= 2

        def worth(move):
            card = move[1]
            if card.kind == "guard":
                return 3 if needs_guard else 0
            return VALUES[card.name] / max(card.cost, 1)

        buys = [move for move in moves if move[0] == "buy"]
        best = max(buys, key=worth, default=None)
        return best if best is not None and worth(best) > 0 else ("pass",)


class LanternMarket(CardGame):
    title = "Lantern Market"
    player_counts = (2, 3, 4)
    fields = {"name": str, "kind": ("good", "guard", "event"), "cost": int, "swords": int}
    bots = {"trader": Trader}

    def setup(self):
        self.market = self.pile("market deck", HIDDEN,
                                [card for card in self.cards if card.back == "market"])
        self.night = self.pile("night deck", HIDDEN,
                               [card for card in self.cards if card.back == "night"])
        self.market.shuffle()
        self.night.shuffle()
        self.row = self.pile("row", PUBLIC)
        self.market.move_top(self.row, 3)
        self.stalls = self.seat_piles("stall", PUBLIC)
        self.hands = self.seat_piles("hand", OWNER)
        self.discard = self.pile("discard", PUBLIC)
        self.public.update(coins=[3] * self.players, round=1, turn=1, discount=0,
                           storm=[])  # seats that still owe the storm a good

    def moves(self):
        if self.public["storm"]:
            return [("discard", card) for card in self.stalls[self.seat]
                    if card.kind == "good"]
        coins = self.public["coins"][self.seat] + INCOME
        return [("buy", card) for card in self.row
                if self.price(card) <= coins] + [("pass",)]

    def price(self, card):
        return max(0, card.cost - self.public["discount"]) if card.kind == "good" else card.cost

    def play(self, move):
        if move[0] == "discard":
            self.stalls[self.seat].move(move[1], self.discard)
            self.public["storm"].pop(0)
            self.after_storm()
            return
        self.public["coins"][self.seat] += INCOME
        if move[0] == "buy":
            card = move[1]
            self.public["coins"][self.seat] -= self.price(card)
            self.row.move(card, self.stalls[self.seat])
            if card.name == "Spice Jar":
                self.market.move_top(self.hands[self.seat])
            self.market.move_top(self.row, 3 - len(self.row))
        self.next_seat()
        if self.seat == 0:
            self.public["turn"] += 1
            if self.public["turn"] > TURNS:
                self.nightfall()

    def nightfall(self):
        """Turn up the night card, then start the next round (or close the market)."""
        card = self.night.draw()
        self.discard.add(card)
        self.public["discount"] = 1 if card.name == "Festival" else 0
        if card.name == "Storm":
            self.public["storm"] = [
                seat for seat in range(self.players)
                if not any(c.swords for c in self.stalls[seat])
                and any(c.kind == "good" for c in self.stalls[seat])]
        self.after_storm()

    def after_storm(self):
        """The next seat that owes the storm a good plays; else the next round begins."""
        if self.public["storm"]:
            self.seat = self.public["storm"][0]
            return
        self.seat = 0
        self.public["round"] += 1
        self.public["turn"] = 1
        if not self.night:
            self.end()

    def scores(self):
        return [sum(VALUES.get(card.name, 0) for card in [*self.stalls[seat], *self.hands[seat]])
                + self.public["coins"][seat] // 3 for seat in range(self.players)]

    def figures(self):
        return {"goods_lost_to_storms": sum(1 for card in self.discard if card.kind == "good")}

    def seat_figures(self):
        return [{"goods": sum(card.kind == "good" for card in self.stalls[seat]),
                 "guards": sum(card.kind == "guard" for card in self.stalls[seat]),
                 "coins_left": self.public["coins"][seat]} for seat in range(self.players)]
