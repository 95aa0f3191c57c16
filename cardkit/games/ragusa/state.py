"""Ragusa's rules of play: its cards, a round in progress (:class:`RagusaState`), the
moves a seat may make and what each does, and the showdown's best split of a hand."""

from __future__ import annotations

import copy
import functools
import itertools
import random
from collections import Counter

from ...rules import poker, ragusa
from ...toolkit.search import redeal
from ...toolkit.state import IllegalMove, State, no_record

TURNS = 5  # turns each player takes in the round
SEAT_COUNTS = ("deck_tokens_spent", "cards_sold", "trades_begun", "false_claims",
               "bluff_calls", "calls_right")  # what each seat's figures count
ANTE, PENALTY = 20, 5
SWAP_COST, BUY_COST, SWIPE_COST = 3, 5, 15
GOODS = 5
STACK = 50  # tokens a player sits down with (see RagusaState.__init__)

CARD = {str(poker.Card(r, s)): poker.Card(r, s) for s in poker.SUITS for r in poker.RANKS}
STANDARD = tuple(CARD)  # the bundled deck: 52 cards, each once
RELABELLED = {f: {name: poker.Card(ragusa.rotated_rank(card.rank, f), card.suit)
                  for name, card in CARD.items()}
              for f in poker.RANKS}  # foundation rank -> card name -> card on that scale

ACT, SELL, DISCARD, PLACE, CLAIM, ANSWER, CALL, REMOVE, OVER = (
    "act", "sell", "discard", "place", "claim", "answer", "call", "remove", "over")

# every move made once, so listing the legal moves allocates nothing
PLACES, CLAIMS, SELLS, BUYS, DISCARDS, REMOVES = (
    {c: (word, c) for c in CARD} for word in ("place", "claim", "sell", "buy", "discard",
                                               "remove"))
ANSWERS = {card: [("claim", card, "believe"), ("claim", card, "call")] for card in CARD}
SWAPS = {give: {take: ("swap", give, take) for take in CARD} for give in CARD}
TRADES = {seat: {card: ("trade", seat, card) for card in CARD}
          for seat in range(ragusa.MAX_PLAYERS)}


def deck_size(players: int) -> int:
    """Cards a round needs: 4 foundations, 5 Common Goods and 10 a player.

    >>> [deck_size(n) for n in (2, 3, 4)]
    [29, 39, 49]
    """
    return len(poker.SUITS) + GOODS + ragusa.HAND_SIZE * players


@functools.lru_cache(maxsize=8)
def claim_moves(cards: tuple[str, ...]) -> tuple[tuple, tuple]:
    """The claims a player may make, and the partner's claims with its call (see
    ``RagusaState._claim``): any card of the deck. Tuples: every game shares them."""
    return (tuple(map(CLAIMS.__getitem__, cards)),
            tuple(answer for card in cards for answer in ANSWERS[card]))


def turn_up_foundations(deck: list[str]) -> dict[str, poker.Card]:
    """Ruling (cardkit): the Foundation Cards are found by turning up the shuffled deck
    until every suit has shown a card; the first card of each suit is its foundation.

    >>> sorted(map(str, turn_up_foundations(["3H", "9H", "KS", "2C", "AD", "4C"]).values()))
    ['2C', '3H', 'AD', 'KS']
    """
    foundations: dict[str, poker.Card] = {}
    for card in deck:
        foundations.setdefault(CARD[card].suit, CARD[card])
    return foundations


def best_split(hand: list[str], suit: str, foundations: dict) -> tuple[list[str], list[str]]:
    """The five cards a player shows and the rest, as the showdown rewards them: the best
    five on the player's scale, and among equally good fives the one whose other cards
    are best (they break ties). Fewer than six cards: all shown.

    Ruling (cardkit): the showdown picks this split for every player, as no other choice
    can do better: a better shown hand always wins, and the rest only matters on a tie.

    >>> table = ragusa.parse_foundations("2H 2C 2D 2S")
    >>> best_split("9C 9D 4S 4C 3H KD".split(), "H", table)
    (['9C', '9D', '4S', '4C', 'KD'], ['3H'])
    """
    if len(hand) <= ragusa.SHOWN:
        return list(hand), []
    relabelled = RELABELLED[foundations[suit].rank]
    cards = [relabelled[card] for card in hand]
    best = ragusa.best_key(cards)
    kind, ranks = best
    if kind in (poker.STRAIGHT, poker.STRAIGHT_FLUSH):  # the high card names the run
        ranks = [14 if r == 1 else r for r in range(ranks[0] - 4, ranks[0] + 1)]
    # a best five holds only ranks its key names (and a flush one suit): try just those
    useful = [i for i, card in enumerate(cards) if card.rank in ranks]
    if kind in (poker.FLUSH, poker.STRAIGHT_FLUSH):
        suits = Counter(card.suit for card in cards)
        useful = [i for i in useful if suits[cards[i].suit] >= ragusa.SHOWN]
    fives = list(itertools.combinations(useful, ragusa.SHOWN))
    if len(fives) > 1:
        fives = [five for five in fives if ragusa.best_key([cards[i] for i in five]) == best]
    five = fives[0] if len(fives) == 1 else max(fives, key=lambda five: ragusa.best_key(
        [card for i, card in enumerate(cards) if i not in five]))
    return [hand[i] for i in five], [card for i, card in enumerate(hand) if i not in five]


class RagusaState(State):
    """One round in progress. Zones: ``deck`` (its top is the end of the list), ``goods``,
    ``foundations`` (suit -> card), ``hands``, ``table`` (seat -> card placed in the trade
    under way) and ``removed`` (cards given up for want of tokens)."""

    def __init__(self, rng: random.Random, cards, foundations: dict[str, poker.Card],
                 suits: list[str], hands: list[list[str]], goods: list[str],
                 deck: list[str]):
        """A round as ``deal`` leaves it (``cards``: every card in play), before the antes:
        each player puts 20 of their tokens into the pot.

        Ruling (cardkit): the text never says how many tokens a player brings; each sits
        down with 50, so after the ante 30 pay for deck actions and penalties."""
        self.players, self.rng = len(hands), rng
        self.foundations, self.suits, self.hands = foundations, suits, hands
        self.goods, self.deck, self.removed, self.table = goods, deck, [], {}
        self.drawn = [set(hand) for hand in hands]  # cards each seat has held
        self.played: list[set[str]] = [set() for _ in hands]  # cards gone from its hand
        self.tokens = [STACK - ANTE] * self.players
        self.pot = ANTE * self.players
        self.claims_allowed, self.answers_allowed = claim_moves(tuple(cards))
        self.foundation_names = {suit: str(card) for suit, card in foundations.items()}
        self.turn = self.active = self.mover = 0
        self.phase, self.acted, self.traded, self.partner = ACT, False, False, None
        self.claims: dict[int, str] = {}
        self.calls: dict[int, bool] = {}
        self.owed: list[int] = []  # seats that must give up a card, in order
        self.exposed = (0, 0)  # called-out claims found false, found true (public)
        self.pot_won = 0
        # per seat: tokens spent, cards sold, trades, claims and calls (the game's are sums)
        self.seat_counts = [Counter() for _ in range(self.players)]
        self.shown: list[tuple[list[str], list[str]]] = []
        self.winners: list[int] = []
        self.category = ""
        self._legal = None

    # -- reading the state ---------------------------------------------------------------

    def current_player(self) -> int:
        return self.mover

    def is_over(self) -> bool:
        return self.phase == OVER

    def legal_moves(self) -> list:
        if self._legal is None:
            self._legal = self._moves()
        return list(self._legal)  # a copy: a bot cannot change what is legal

    def _moves(self) -> list:
        hand, phase = self.hands[self.mover], self.phase
        if phase == ACT:
            return self._act_moves()
        if phase == CLAIM:
            return self.claims_allowed
        if phase == ANSWER:
            return self.answers_allowed
        if phase == CALL:
            return ["believe", "call"]
        if phase == PLACE:
            return list(map(PLACES.__getitem__, hand))
        if phase == SELL:
            return [*map(SELLS.__getitem__, hand), "stop"]
        if phase == DISCARD:
            return list(map(DISCARDS.__getitem__, hand))
        if phase == REMOVE:
            return list(map(REMOVES.__getitem__, hand))
        return []

    def _act_moves(self) -> list:
        """The start of a turn: one deck action the player can afford, or straight to the
        trade, which must follow: any card to any other player holding a card.

        Ruling (RULINGS.md, amended): the one deck action may come before or after the
        trade. After the trade, a player who has not acted takes a deck action or ends the
        turn ("end"); the turn ends by itself once both are done. A player who cannot trade
        (no card, or nobody else has one) ends the turn instead of trading. A buy needs a
        card in the deck to refill the goods, a swipe needs five, so that the new goods are
        new cards."""
        seat, hand = self.active, self.hands[self.active]
        moves = []
        if not self.traded:
            for partner in range(self.players):
                if partner != seat and self.hands[partner]:
                    moves += map(TRADES[partner].__getitem__, hand)
        if not moves:
            moves.append("end")
        if not self.acted:
            tokens, goods = self.tokens[seat], self.goods
            moves += map(SELLS.__getitem__, hand)
            if tokens >= SWAP_COST:
                for give in hand:
                    moves += map(SWAPS[give].__getitem__, goods)
            if tokens >= BUY_COST and self.deck:
                moves += map(BUYS.__getitem__, goods)
            if tokens >= SWIPE_COST and len(self.deck) >= GOODS:
                moves.append("swipe")
        return moves

    def returns(self) -> list[float]:
        """Ruling (cardkit): a game is one round; whoever takes the pot wins it, and
        players who split the pot share the win."""
        return [1 / len(self.winners) if seat in self.winners else 0.0
                for seat in range(self.players)]

    def scores(self) -> list[float]:
        """Tokens each player holds (after the pot is paid out, once the round is over)."""
        return [float(t) for t in self.tokens]

    def _give(self, seat: int, card: str) -> None:
        """``card`` leaves ``seat``'s hand (placed, sold, swapped, discarded, given up)."""
        self.hands[seat].remove(card)
        self.played[seat].add(card)

    def _gain(self, seat: int, card: str) -> None:
        """``card`` comes into ``seat``'s hand (bought, swapped, traded)."""
        self.hands[seat].append(card)
        self.drawn[seat].add(card)

    def seat_figures(self) -> list[dict]:
        """Each seat's tokens paid for deck actions, cards sold, trades begun on its
        turns, false claims, calls and right calls."""
        return [{kind: counts[kind] for kind in SEAT_COUNTS} for counts in self.seat_counts]

    def turns(self) -> int:
        """Turns taken: five each in a round."""
        return self.turn

    def card_record(self) -> list[dict]:
        """Each seat's cards: dealt or gained, gone from its hand, and held at the end."""
        return [{"drawn": sorted(drawn), "played": sorted(played), "held": sorted(set(hand))}
                for drawn, played, hand in zip(self.drawn, self.played, self.hands)]

    def determinized(self, seat: int, rng: random.Random) -> RagusaState:
        """The round as ``seat`` might believe it: the cards it has not seen (the others'
        hands and the cards they placed, the deck, the cards given up) dealt again among
        those places, and each other player's secret suit guessed as the suit of a card
        in their new hand. Departure: the cards ``seat`` gave up itself are dealt again
        too (which player gave up a card is not kept)."""
        world = copy.copy(self)
        world.hands, world.deck = [list(hand) for hand in self.hands], list(self.deck)
        world.removed, world.table, world.goods = list(self.removed), dict(self.table), \
            list(self.goods)
        world.tokens, world.suits, world.owed = list(self.tokens), list(self.suits), \
            list(self.owed)
        world.claims, world.calls = dict(self.claims), dict(self.calls)
        world.seat_counts = [Counter(counts) for counts in self.seat_counts]
        world.shown, world.winners = list(self.shown), list(self.winners)
        world.drawn, world.played = no_record(self.players)
        world.rng, world._legal = rng, None
        others = [other for other in range(self.players) if other != seat]
        places = [(world.hands[other], i) for other in others
                  for i in range(len(world.hands[other]))]
        places += [(world.table, other) for other in others if other in world.table]
        places += [(world.deck, i) for i in range(len(world.deck))]
        places += [(world.removed, i) for i in range(len(world.removed))]
        redeal(places, rng)
        for other in others:
            hand = world.hands[other]
            world.suits[other] = (CARD[hand[rng.randrange(len(hand))]].suit if hand
                                  else rng.choice(poker.SUITS))
        return world

    def observation(self, seat: int) -> dict:
        """What ``seat`` may know: its own suit, hand and card placed; everything face up;
        every seat's tokens and hand size; the claims of the trade under way; how many
        called-out claims proved false and true. Never another seat's suit or cards."""
        return {
            "seat": seat, "suit": self.suits[seat], "hand": tuple(self.hands[seat]),
            "placed": self.table.get(seat), "foundations": self.foundation_names.copy(),
            "goods": tuple(self.goods), "deck": len(self.deck), "pot": self.pot,
            "tokens": tuple(self.tokens), "hand_sizes": tuple(map(len, self.hands)),
            "turn": self.turn, "active": self.active, "phase": self.phase,
            "acted": self.acted, "traded": self.traded, "partner": self.partner, "claims": self.claims.copy(),
            "exposed": self.exposed,
        }

    def figures(self) -> dict:
        """Tokens paid for deck actions and got from sales, the pot the winners took,
        trades, calls and right calls, false claims made, the winning hand's category."""
        total = {kind: sum(counts[kind] for counts in self.seat_counts)
                 for kind in SEAT_COUNTS}
        return {"deck_tokens_spent": total["deck_tokens_spent"],
                "tokens_from_sales": total["cards_sold"], "pot_won": self.pot_won,
                "trades": total["trades_begun"], "bluff_calls": total["bluff_calls"],
                "calls_right": total["calls_right"], "false_claims": total["false_claims"],
                "winning_hand": self.category}

    # -- making moves ----------------------------------------------------------------------

    def apply(self, move) -> None:
        legal = self._legal if self._legal is not None else self._moves()
        if move not in legal:
            raise IllegalMove(f"{move!r} is not a legal move for seat {self.mover} now "
                              f"({self.phase})")
        self._legal = None
        self.moves_made += 1
        kind = move if isinstance(move, str) else move[0]
        seat = self.mover
        if kind in ("trade", "place"):
            if kind == "trade":
                self.partner = move[1]
            self._give(seat, move[-1])
            self.table[seat] = move[-1]
            self.phase = CLAIM if kind == "trade" else ANSWER
        elif kind == "claim":
            self._claim(seat, *move[1:])
        elif kind in ("believe", "call"):
            self.calls[seat] = kind == "call"
            self._settle()
        elif kind == "remove":
            self._give(seat, move[1])
            self.removed.append(move[1])
            self._next_owed()
        elif kind in ("sell", "stop"):
            self._sell(move)
        elif kind == "swap":
            self._pay(seat, SWAP_COST)
            give, take = move[1:]
            self._give(seat, give)
            self._gain(seat, take)
            self.goods[self.goods.index(take)] = give
            self._acted()
        elif kind == "buy":
            self._buy(move[1])
        elif kind == "discard":
            self._give(seat, move[1])
            self.deck.append(move[1])
            self.rng.shuffle(self.deck)
            self._acted()
        elif kind == "swipe":
            self._pay(seat, SWIPE_COST)
            fresh = [self.deck.pop() for _ in range(GOODS)]
            self.deck += self.goods
            self.rng.shuffle(self.deck)
            self.goods = fresh
            self._acted()
        else:
            self._end_turn()

    def _acted(self) -> None:
        """A deck action is done: back to the turn's start, or, after the trade, the
        turn's end (each was made once)."""
        if self.traded:
            self._end_turn()
        else:
            self.phase = ACT

    def _pay(self, seat: int, tokens: int) -> None:
        """A deck action: the player pays into the pot, once a turn."""
        self.tokens[seat] -= tokens
        self.pot += tokens
        self.seat_counts[seat]["deck_tokens_spent"] += tokens
        self.acted = True

    def _sell(self, move) -> None:
        """Selling: each card sold goes into the deck for 1 token from the pot; the deck is
        shuffled when the player stops. Ruling (cardkit): a sale is at least one card and
        may be the whole hand (the player can then no longer trade)."""
        seat = self.active
        if move == "stop":
            self.rng.shuffle(self.deck)
            self._acted()
            return
        self._give(seat, move[1])
        self.deck.append(move[1])
        self.tokens[seat] += 1
        self.pot -= 1
        self.seat_counts[seat]["cards_sold"] += 1
        self.acted, self.phase = True, SELL

    def _buy(self, good: str) -> None:
        """Buying: the good goes to the hand, the deck's top card takes its place; a
        player now holding 11 cards puts one of them back into the deck."""
        seat = self.active
        self._pay(seat, BUY_COST)
        self.goods[self.goods.index(good)] = self.deck.pop()
        self._gain(seat, good)
        if len(self.hands[seat]) > ragusa.HAND_SIZE:
            self.phase = DISCARD
        else:
            self._acted()

    def _claim(self, seat: int, claim: str, verdict: str = "") -> None:
        """The active player places and names a card first; then the partner places one,
        names it and says whether it believes the active player's claim; last, the
        active player believes or calls out the partner's.

        Ruling (cardkit): the two decide to call at once, as at a table: the partner
        decides with its claim (it would learn nothing more before the active player's
        call), and neither is told the other's choice until the trade is settled. A claim
        names one card of the deck (rank and suit) and is true when the card placed is
        that card; naming a card face up on the table is a lie anyone can see. Talk
        before the trade is not played out: the partner cannot refuse, and answers with
        a card of its choice."""
        self.claims[seat] = claim
        self.seat_counts[seat]["false_claims"] += claim != self.table[seat]
        if seat == self.active:
            self.mover, self.phase = self.partner, PLACE
        else:
            self.calls[seat] = verdict == "call"
            self.mover, self.phase = self.active, CALL

    def _settle(self) -> None:
        """Each call turns up the accused card: a false claim costs its owner 5 tokens, a
        true one costs the accuser 5. The cards change hands either way; then anyone who
        could not pay gives up a card (see ``_next_owed``)."""
        active, partner = self.active, self.partner
        for accuser, accused in ((active, partner), (partner, active)):
            if self.calls[accuser]:
                lie = self.table[accused] != self.claims[accused]
                self.seat_counts[accuser]["bluff_calls"] += 1
                self.seat_counts[accuser]["calls_right"] += lie
                self.exposed = (self.exposed[0] + lie, self.exposed[1] + (not lie))
                self._penalise(accused if lie else accuser)
        self._gain(active, self.table.pop(partner))
        self._gain(partner, self.table.pop(active))
        self.seat_counts[active]["trades_begun"] += 1
        self.claims, self.calls = {}, {}
        self._next_owed()

    def _penalise(self, seat: int) -> None:
        """Ruling (cardkit): a player with fewer than 5 tokens pays nothing and owes a card
        instead, given up after the swap from the hand holding the card just received;
        each unpaid penalty costs one card."""
        if self.tokens[seat] >= PENALTY:
            self.tokens[seat] -= PENALTY
            self.pot += PENALTY
        else:
            self.owed.append(seat)

    def _next_owed(self) -> None:
        """The next player owing a card chooses one to give up; when nobody owes one, the
        turn ends. Ruling (cardkit): a given-up card is out of play for the rest of the
        round, and a player with no card left owes nothing more."""
        while self.owed:
            seat = self.owed.pop(0)
            if self.hands[seat]:
                self.mover, self.phase = seat, REMOVE
                return
        self.traded = True
        if self.acted:
            self._end_turn()
        else:  # the deck action may still come (see _act_moves)
            self.mover, self.phase = self.active, ACT

    def _end_turn(self) -> None:
        self.turn += 1
        if self.turn == TURNS * self.players:
            self._showdown()
            return
        self.active = self.mover = self.turn % self.players
        self.phase, self.acted, self.traded, self.partner = ACT, False, False, None

    def _showdown(self) -> None:
        """Everyone shows their best five (``best_split``); the rules name the winners,
        who take the pot. Ruling (cardkit): a split pot's odd tokens go one each
        to the winners in seat order from seat 0 (the first to play)."""
        self.shown = [best_split(hand, suit, self.foundations)
                      for hand, suit in zip(self.hands, self.suits)]
        players = [{"suit": suit, "shown": [CARD[c] for c in shown],
                    "other": [CARD[c] for c in other]}
                   for suit, (shown, other) in zip(self.suits, self.shown)]
        self.winners = ragusa.winners(players, self.foundations)
        winner = players[self.winners[0]]
        key = ragusa.hand_key(winner["shown"], winner["suit"], self.foundations)
        self.category = poker.CATEGORIES[key[0]]
        self.pot_won = self.pot
        share, odd = divmod(self.pot, len(self.winners))
        for i, seat in enumerate(self.winners):
            self.tokens[seat] += share + (i < odd)
        self.pot, self.phase, self.partner = 0, OVER, None
