"""A trick-taking game (issue 56): on the toolkit (:class:`Tricks`, a rules file as a
designer writes one), and in plain Python with a card as its index (:class:`PlainTricks`),
the baseline of ``make bench``'s trick-taking figures.

Four players (three to five), a deck of four suits of ranks 1-9. Each of three hands: the
deck is shuffled and eight cards dealt to each player; the next card is turned up and its
suit is trumps. Each player in turn from the leader bids how many tricks they will take (0
to 8). Then eight tricks: the leader leads any card, the others follow the led suit if
they can, else play any card; the highest trump wins the trick, else the highest card of
the led suit, and its winner leads the next. A player who takes as many tricks as they bid
scores 10 and one a trick; any other, one a trick. The tricks and every other card go back
into the deck, and the seat after the hand's first leader leads the next. The best total
after three hands wins.

Both versions draw on chance in the same order and offer moves in the same order, so with
the same seeds they play the same games (tests/test_own_game.py checks it).
"""

from __future__ import annotations

from cardkit.toolkit import HIDDEN, OWNER, PUBLIC, CardGame

HANDS, HAND = 3, 8  # hands a game, cards a player
SUITS = ("stars", "moons", "suns", "waves")


def deck() -> list[dict]:
    """The printed cards: one of each rank 1-9 in each suit."""
    return [{"name": f"{rank}-{suit}", "suit": suit, "rank": rank}
            for suit in SUITS for rank in range(1, 10)]


class Tricks(CardGame):
    """The game as a designer writes it, in the game's words."""

    title = "Tricks"
    player_counts = (4, 3, 5)
    fields = {"suit": SUITS, "rank": int}

    def setup(self):
        self.deck = self.pile("deck", HIDDEN, self.cards)
        self.hands = self.seat_piles("hand", OWNER)
        self.trumps = self.pile("trumps", PUBLIC)  # the card turned up
        self.trick = self.pile("trick", PUBLIC)  # the cards played to this trick, in order
        self.won = self.seat_groups("tricks", HIDDEN)  # each seat's tricks, face down
        self.public.update(hand=1, leader=0, points=[0] * self.players)
        self.deal_hand()

    def deal_hand(self):
        self.deck.shuffle()
        self.deal(self.deck, self.hands, HAND)
        self.deck.move_top(self.trumps)
        self.public.update(bids=[None] * self.players, taken=[0] * self.players, led=None)
        self.seat = self.public["leader"]

    def moves(self):
        if self.public["bids"][self.seat] is None:
            return [("bid", tricks) for tricks in range(HAND + 1)]
        hand = self.hands[self.seat]
        led = self.public["led"]
        following = [card for card in hand if card.suit == led]
        return [("play", card) for card in following or hand]

    def play(self, move):
        if move[0] == "bid":
            self.public["bids"][self.seat] = move[1]
            self.next_seat()
            return
        card = move[1]
        if not self.trick:
            self.public["led"] = card.suit
        self.hands[self.seat].move(card, self.trick)
        self.next_seat()
        if len(self.trick) == self.players:
            self.take_trick()

    def take_trick(self):
        """The highest trump wins, else the highest card of the led suit; the winner leads."""
        trumps, led = self.trumps.top.suit, self.public["led"]
        best = max(self.trick, key=lambda card: (card.suit == trumps, card.suit == led, card.rank))
        winner = (self.seat + self.trick.cards.index(best)) % self.players
        self.trick.move_all(self.won[winner].new())
        self.public["taken"][winner] += 1
        self.public["led"] = None
        self.seat = winner
        if not self.hands[winner]:
            self.score_hand()

    def score_hand(self):
        for seat, (bid, taken) in enumerate(zip(self.public["bids"], self.public["taken"])):
            self.public["points"][seat] += taken + (10 if bid == taken else 0)
        for tricks in self.won:
            tricks.move_all(self.deck)
        self.trumps.move_all(self.deck)
        self.public["hand"] += 1
        if self.public["hand"] > HANDS:
            self.end()
            return
        self.public["leader"] = (self.public["leader"] + 1) % self.players
        self.deal_hand()

    def scores(self):
        return list(self.public["points"])


class PlainTricks:
    """The same game in plain Python: a card is its index into lists of suits and ranks,
    the legal moves those :class:`Tricks` offers, in the same order."""

    def __init__(self, players, rng, cards):
        self.players, self.rng = players, rng
        self.suit = [card["suit"] for card in cards]
        self.rank = [card["rank"] for card in cards]
        self.deck = list(range(len(cards)))
        self.hands = [[] for _ in range(players)]
        self.won = [[] for _ in range(players)]  # each seat's tricks, each a list
        self.trumps, self.trick = [], []
        self.hand, self.leader, self.points, self.over = 1, 0, [0] * players, False
        self.deal_hand()

    def deal_hand(self):
        self.rng.shuffle(self.deck)
        for _ in range(HAND):
            for hand in self.hands:
                hand.append(self.deck.pop())
        self.trumps.append(self.deck.pop())
        self.bids, self.taken, self.led = [None] * self.players, [0] * self.players, None
        self.seat = self.leader

    def legal_moves(self):
        if self.bids[self.seat] is None:
            return [("bid", tricks) for tricks in range(HAND + 1)]
        hand, suit = self.hands[self.seat], self.suit
        following = [card for card in hand if suit[card] == self.led]
        return [("play", card) for card in following or hand]

    def apply(self, move):
        seat = self.seat
        self.seat = (seat + 1) % self.players
        if move[0] == "bid":
            self.bids[seat] = move[1]
            return
        card = move[1]
        if not self.trick:
            self.led = self.suit[card]
        self.hands[seat].remove(card)
        self.trick.append(card)
        if len(self.trick) == self.players:
            self.take_trick()

    def take_trick(self):
        trumps, led, suit, rank = self.suit[self.trumps[-1]], self.led, self.suit, self.rank
        best = max(self.trick, key=lambda c: (suit[c] == trumps, suit[c] == led, rank[c]))
        winner = (self.seat + self.trick.index(best)) % self.players
        self.won[winner].append(self.trick)
        self.trick = []
        self.taken[winner] += 1
        self.led, self.seat = None, winner
        if not self.hands[winner]:
            self.score_hand()

    def score_hand(self):
        for seat in range(self.players):
            self.points[seat] += self.taken[seat] + (10 if self.bids[seat] == self.taken[seat] else 0)
        for tricks in self.won:
            for trick in tricks:
                self.deck += trick
            tricks.clear()
        self.deck += self.trumps
        self.trumps.clear()
        self.hand += 1
        if self.hand > HANDS:
            self.over = True
            return
        self.leader = (self.leader + 1) % self.players
        self.deal_hand()

    def scores(self):
        return list(self.points)


def play_plain(players: int, seed, index: int, cards) -> list:
    """Game ``index`` of a run with seed ``seed`` in plain Python, each seat choosing at
    random as the runner's random bot does with the same chance: its scores."""
    import random

    game = PlainTricks(players, random.Random(f"{seed}:{index}"), cards)
    rngs = [random.Random(f"{seed}:{index}:{seat}") for seat in range(players)]
    while not game.over:
        moves = game.legal_moves()
        game.apply(moves[rngs[game.seat].randrange(len(moves))])
    return game.scores()
