"""Bluff the Bullet, playable: poker hands changed by card abilities that may be bluffed.

Why one module: a game's state, its moves and its bots stay together; the module is what
a reader opens to learn how cardkit plays the game, and the bots read the state's
internals that no other module should.

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
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from functools import cache

from ..rules import bullet as rules
from ..rules.errors import RulesError
from ..toolkit.search import SearchBot, redeal
from ..toolkit.state import Bot, Game, IllegalMove, RandomBot, State, no_record

FIN = ("fin", 0)  # the Fin card
SLOTS = 5  # Poker Hand cards a seat holds
FACE_UP = 3  # of them dealt face up (slots 0-2)
ACTION = 2  # Action Cards a seat draws up to at the start of its turn
BOTTOM = 10  # random cards shuffled with Fin under the rest of the deck
STANDARD = tuple(sorted((suit, value) for suit in rules.SUITS for value in rules.VALUES
                        for _ in range(rules.COPIES)))


def card(name: str) -> tuple[str, int]:
    """'cup 3' -> ('cup', 3); 'Fin' -> FIN.

    >>> card("cup 3"), card("Fin") == FIN
    (('cup', 3), True)
    """
    if name == "Fin":
        return FIN
    suit, value = name.split()
    return suit, int(value)


@cache
def label(of: tuple[str, int]) -> str:
    """The card's name in moves: ('cup', 3) -> 'cup 3'."""
    return "Fin" if of == FIN else f"{of[0]} {of[1]}"


SEAT_COUNTS = ("bluffs", "bluffs_succeeded", "bullets", "calls", "calls_right")


class BulletState(State):
    """A game in progress. Cards are ids into ``cards``; ``deck`` is drawn from its end;
    ``hands[seat]`` holds 5 ids, ``shown[seat]`` what the table sees of them (the card if
    face up, else None: a tuple, replaced when it changes, so observations share it);
    ``action`` holds the Action Cards; ``known[seat]`` the ids of cards that seat has seen
    in another seat's face-down slots (by a key, or by a swap of its own card).

    ``chain`` is this turn's card, then the bullets shot at it, each on the one before:
    ``(seat, id, stated, targets)``. ``caller`` is the seat that called the top card.

    Ruling (cardkit): the dealer is the last seat, so seat 0 is at the dealer's left and
    wins a tie for the best face-up cards.
    """

    def __init__(self, hands: list[list], action: list[list], deck: list,
                 rng: random.Random):
        """``hands``: each seat's Poker Hand, face-up cards first; ``action``: each seat's
        Action Cards; ``deck``: top card first, FIN where the Fin card lies. The best
        face-up cards start and draw up to two."""
        self.players = len(hands)
        self.rng = rng
        self.cards = [c for hand in hands for c in hand] + [c for cs in action for c in cs] \
            + list(deck)
        self.labels = list(map(label, self.cards))
        self.fin = self.cards.index(FIN)
        self.suit_counts = Counter([suit for suit, _ in self.cards])
        del self.suit_counts[FIN[0]]
        ids = iter(range(len(self.cards)))
        self.hands = [[next(ids) for _ in hand] for hand in hands]
        self.shown = [tuple(self.cards[c] if slot < FACE_UP else None
                            for slot, c in enumerate(hand)) for hand in self.hands]
        self.action = [[next(ids) for _ in cs] for cs in action]
        self.deck = list(ids)[::-1]
        self.discard: list[int] = []
        self.known: list[set[int]] = [set() for _ in hands]
        # the card record: ids each seat has had in its hands, and Action Cards it played
        self.drawn = [set(h) | set(a) for h, a in zip(self.hands, self.action)]
        self.played: list[set[int]] = [set() for _ in hands]
        self.record = [(0, 0)] * self.players  # per seat: cards played, bluffs among them
        self.chain: list[tuple] = []
        self.caller: int | None = None
        self.asking: list[int] = []  # seats still to answer the top card, next last
        self.penalty: tuple[int, int] | None = None  # (seat discarding, seat choosing)
        self.fin_drawn = ""  # how Fin came up: 'turn draw' or 'penalty draw'
        # each seat's bluffs, calls, bullets...: the game's figures are their sums
        self.seat_counts = [dict.fromkeys(SEAT_COUNTS, 0) for _ in hands]
        self.moves_made = 0
        self.turns_begun = 1  # the turns begun (drawing Fin ends one before its card)
        self._moves: list | None = None
        self.turn = rules.starting_player(
            [[self.cards[c][1] for c in hand[:FACE_UP]] for hand in self.hands],
            dealer=self.players - 1)
        self._draw_to_two()

    # -- the moves -----------------------------------------------------------------------

    def current_player(self) -> int:
        if self.penalty:
            return self.penalty[1]
        return self.asking[-1] if self.asking else self.turn

    def legal_moves(self) -> list:
        """The seat to play: each Action Card stating crow, cup or key on any target.
        A seat answering a card: pass, call, or a bullet with any Action Card. A seat
        choosing a discard: any of the penalised seat's 5 slots.

        Ruling (cardkit): a turn must play a card (the text offers no pass).
        Ruling (cardkit): a turn's card states crow, cup or key: a bullet cancels a card
        just played and on one's own turn there is none. A bullet card may still be played
        on one's turn, stating another ability (a bluff).
        Ruling (cardkit): a cup swaps cards of two different hands (a swap within one
        hand changes nothing), and a key looks at another seat's hand (a seat may always
        look at its own).
        """
        if self._moves is None:
            self._moves = self._find_moves()
        return list(self._moves)  # a copy: a bot cannot change what is legal

    def _find_moves(self) -> list:
        if self.fin_drawn:
            return []
        if self.penalty:
            seat = self.penalty[0]
            return [("discard", seat, slot) for slot in range(SLOTS)]
        if self.asking:
            held = self.action[self.asking[-1]]
            return ["pass", "call"] + [("bullet", name) for name in
                                       dict.fromkeys(self.labels[c] for c in held)]
        moves = []
        for name in dict.fromkeys(self._labels(self.action[self.turn])):
            moves += plays(self.players, self.turn, name)[0]
        return moves

    def apply(self, move) -> None:
        if not self._is_legal(move):
            raise IllegalMove(f"{move!r} is not a legal move for seat "
                              f"{self.current_player()}")
        self._moves = None
        self.moves_made += 1
        if self.penalty:
            self._discard(move[1], move[2])
        elif move == "pass":
            self.asking.pop()
            if not self.asking:
                self._resolve()
        elif move == "call":
            self.caller = self.asking[-1]
            self._resolve()
        elif move[0] == "bullet":
            self._play(self.asking[-1], move[1], "bullet", ())
        else:
            self._play(self.turn, move[1], move[2], move[3:])

    def _is_legal(self, move) -> bool:
        """Membership in the legal moves; a turn's hundreds of plays are looked up in the
        cached set of the card's plays."""
        if self.fin_drawn or self.penalty or self.asking:
            return move in self.legal_moves()
        try:
            return (move[0] == "play" and move[1] in self._labels(self.action[self.turn])
                    and move in plays(self.players, self.turn, move[1])[1])
        except (TypeError, IndexError, KeyError):
            return False

    def _labels(self, ids: list[int]) -> list[str]:
        return [self.labels[c] for c in ids]

    def _play(self, seat: int, name: str, stated: str, targets: tuple) -> None:
        """Lay the named Action Card face down on the chain; every other seat may answer
        it, in turn order from the player's left.

        Ruling (cardkit): the answers are asked in turn order from the player's left (so
        the turn's player answers a bullet on its card like anyone else); the first call
        or bullet is the card's only answer (one bullet per card, and a called card is
        settled at once). If everyone passes, the card stands.
        """
        held = self.action[seat]
        chosen = next(c for c in held if self.labels[c] == name)
        held.remove(chosen)
        self.played[seat].add(chosen)
        self.chain.append((seat, chosen, stated, targets))
        self.asking = [(seat + step) % self.players for step in range(self.players - 1, 0, -1)]

    def _resolve(self) -> None:
        """Settle the chain. The top card works unless it was called and is a bluff; each
        card below works unless the (bullet) card on it works. This turn's card, if it
        works, takes effect; the played cards are discarded face up (a crow that worked is
        in a hand instead). A call leaves a penalty to choose.
        """
        chain, top = self.chain, len(self.chain) - 1
        top_works = True
        if self.caller is not None:
            seat, chosen, stated, _ = chain[top]
            outcome = rules.called_bluff(stated, self.cards[chosen][0], seat, self.caller)
            top_works = outcome["effect"]
            self.penalty = (outcome["discards"], outcome["chooses"])
            mine = self.seat_counts[self.caller]
            mine["calls"] += 1
            mine["calls_right"] += outcome["bluff"]
        # each bullet that works cancels the card below it
        works = [top_works != ((top - level) % 2 == 1) for level in range(top + 1)]
        seat, chosen, stated, targets = chain[0]
        if works[0]:
            getattr(self, "_" + stated)(seat, chosen, *targets)
        for level, (seat, chosen, stated, _) in enumerate(chain):
            bluff = self.cards[chosen][0] != stated
            played, bluffs = self.record[seat]
            self.record[seat] = (played + 1, bluffs + bluff)
            succeeded, bullet = bluff and works[level], stated == "bullet"
            mine = self.seat_counts[seat]
            mine["bluffs"] += bluff
            mine["bluffs_succeeded"] += succeeded
            mine["bullets"] += bullet
            if not (level == 0 and works[0] and stated == "crow"):
                self.discard.append(chosen)
        self.asking = []
        if not self.penalty:
            self._next_turn()

    def _crow(self, seat: int, chosen: int, target: tuple[int, int]) -> None:
        """Discard the target card; the played card takes its place, face up."""
        owner, slot = target
        self.discard.append(self.hands[owner][slot])
        self._place(owner, slot, chosen, True)

    def _cup(self, seat: int, chosen: int, first: tuple[int, int],
             second: tuple[int, int]) -> None:
        """Swap two Poker Hand cards.

        Ruling (cardkit): a swapped card keeps its face: a face-down card stays face down
        in its new hand (whose owner may look at it), and its old owner still knows it.
        """
        (a, i), (b, j) = first, second
        x, y = self.hands[a][i], self.hands[b][j]
        x_up, y_up = self.shown[a][i] is not None, self.shown[b][j] is not None
        self.known[a].add(x)
        self.known[b].add(y)
        self._place(a, i, y, y_up)
        self._place(b, j, x, x_up)

    def _key(self, seat: int, chosen: int, target: int) -> None:
        """The player sees every card of the target's Poker Hand."""
        self.known[seat].update(self.hands[target])

    def _discard(self, seat: int, slot: int) -> None:
        """The penalty: the chosen card is discarded and replaced by the top card, face
        down; if that is Fin, the next card replaces it (the discards are shuffled into a
        new deck if none is left) and the game ends."""
        self.discard.append(self.hands[seat][slot])
        drawn = self.deck.pop()
        if drawn == self.fin:
            self.fin_drawn = "penalty draw"
            if not self.deck:
                self.deck, self.discard = self.discard, []
                self.rng.shuffle(self.deck)
            drawn = self.deck.pop()
        self._place(seat, slot, drawn, False)
        if not self.fin_drawn:
            self._next_turn()

    def _place(self, seat: int, slot: int, placed: int, up: bool) -> None:
        self.hands[seat][slot] = placed
        self.drawn[seat].add(placed)
        row = list(self.shown[seat])
        row[slot] = self.cards[placed] if up else None
        self.shown[seat] = tuple(row)

    def _next_turn(self) -> None:
        self.chain, self.caller, self.penalty = [], None, None
        self.turn = (self.turn + 1) % self.players
        self.turns_begun += 1
        self._draw_to_two()

    def _draw_to_two(self) -> None:
        """Draw up to two Action Cards; drawing Fin ends the game at once."""
        held = self.action[self.turn]
        while len(held) < ACTION:
            drawn = self.deck.pop()
            if drawn == self.fin:
                self.fin_drawn = "turn draw"
                return
            held.append(drawn)
            self.drawn[self.turn].add(drawn)

    # -- the end -------------------------------------------------------------------------

    def is_over(self) -> bool:
        return bool(self.fin_drawn)

    def hands_values(self) -> list[list[int]]:
        """Each seat's Poker Hand as values (what the showdown compares)."""
        return [[self.cards[c][1] for c in hand] for hand in self.hands]

    def action_labels(self, seat: int) -> list[str]:
        return self._labels(self.action[seat])

    def returns(self) -> list[float]:
        """The best Poker Hand wins; tied best hands share the win."""
        best = rules.compare(self.hands_values())
        return [1 / len(best) if seat in best else 0.0 for seat in range(self.players)]

    def scores(self) -> list[float]:
        """Each seat's showdown category: 0 high card, 1 pair ... 6 five of a kind."""
        return [float(rules.hand_key(values)[0]) for values in self.hands_values()]

    def figures(self) -> dict:
        """The winning hand's category; bluffs made (turn cards and bullets whose card
        is not the stated suit) and those that took effect (neither caught nor shot);
        calls and right calls; bullets fired; and whether Fin came up as a penalty's
        replacement (else at a turn's draw: drawing Fin is the only way the game ends)."""
        values = self.hands_values()
        winner = rules.compare(values)[0]
        return {"winning_hand": rules.CATEGORIES[rules.hand_key(values[winner])[0]],
                **{kind: sum(counts[kind] for counts in self.seat_counts)
                   for kind in SEAT_COUNTS},
                "fin_on_penalty": int(self.fin_drawn == "penalty draw")}

    def seat_figures(self) -> list[dict]:
        """Each seat's cards played, bluffs and those that took effect, bullets shot,
        calls and right calls."""
        return [{"cards_played": played, **counts}
                for (played, _), counts in zip(self.record, self.seat_counts)]

    def turns(self) -> int:
        """A turn is a seat's draw, its card and everything answering it; the turn that
        draws Fin counts."""
        return self.turns_begun

    def card_record(self) -> list[dict]:
        """Each seat's cards by label: ``drawn`` came into its Poker Hand or its Action
        Cards (dealt, drawn, crowed or swapped in, a penalty's replacement), ``played``
        are the Action Cards it laid (turn cards and bullets, bluffs included), ``held``
        its Poker Hand and Action Cards at the end."""
        labels = self.labels
        return [{"drawn": sorted({labels[c] for c in drawn}),
                 "played": sorted({labels[c] for c in played}),
                 "held": sorted({labels[c] for c in hand + action})}
                for drawn, played, hand, action in zip(self.drawn, self.played, self.hands,
                                                       self.action)]

    # -- what a seat sees ----------------------------------------------------------------

    def determinized(self, seat: int, rng: random.Random) -> BulletState:
        """The game as ``seat`` might believe it: the cards it has not seen (the others'
        face-down and Action Cards, the deck, the others' unsettled chain cards) dealt
        again among those places, and Fin moved to a random place of the deck's bottom
        section (the last 11 cards, where it was shuffled in)."""
        world = copy.copy(self)
        world.cards = list(self.cards)
        world.hands, world.action = [list(h) for h in self.hands], [list(a) for a in self.action]
        world.shown, world.deck, world.discard = list(self.shown), list(self.deck), \
            list(self.discard)
        world.known, world.record = [set(k) for k in self.known], list(self.record)
        world.drawn, world.played = no_record(self.players)
        world.chain, world.asking = list(self.chain), list(self.asking)
        world.seat_counts = [dict(counts) for counts in self.seat_counts]
        world.rng, world._moves = rng, None
        hidden = [c for c in self.deck if c != self.fin]
        if not self.fin_drawn:
            known = self.known[seat]
            for owner in range(self.players):
                if owner != seat:
                    hidden += [c for c, up in zip(self.hands[owner], self.shown[owner])
                               if up is None and c not in known] + self.action[owner]
            if self.penalty is None:  # a settled chain is face up
                hidden += [c for who, c, _, _ in self.chain if who != seat]
        redeal([(world.cards, c) for c in hidden], rng)
        world.labels = list(map(label, world.cards))
        if self.fin in world.deck:
            at, bottom = world.deck.index(self.fin), min(BOTTOM + 1, len(world.deck))
            to = rng.randrange(bottom)  # the deck's bottom is the start of the list
            world.deck[at], world.deck[to] = world.deck[to], world.deck[at]
        return world

    def lies(self, seat: int) -> int:
        """The others' cards of this turn's chain that do not show the ability stated
        (bluffs), while the chain is face down."""
        if self.penalty is not None or self.fin_drawn:
            return 0  # a settled chain is face up: the same in every sample
        return sum(self.cards[c][0] != stated for who, c, stated, _ in self.chain
                   if who != seat)

    def observation(self, seat: int) -> dict:
        """What ``seat`` may know. ``hands``: every Poker Hand card that is face up, its
        own, or seen (None for the others); ``shown``: what the whole table sees (the
        face-up cards). Its Action Cards and the others' counts; the deck's size and the
        discards; this turn's chain (its own cards, and every card once the chain is
        settled); each seat's record of cards played and bluffs shown (every played card
        ends face up); the suits in play. At the end every hand is shown."""
        cards, known, over = self.cards, self.known[seat], bool(self.fin_drawn)
        hands = []
        for owner, (hand, shown) in enumerate(zip(self.hands, self.shown)):
            if owner == seat or over:
                hands.append(tuple(map(cards.__getitem__, hand)))
            elif known:
                hands.append(tuple([cards[c] if c in known else up
                                    for c, up in zip(hand, shown)]))
            else:
                hands.append(shown)
        settled = over or self.penalty is not None
        return {
            "seat": seat, "players": self.players, "turn": self.turn,
            "hands": tuple(hands), "shown": tuple(self.shown),
            "action": tuple(map(cards.__getitem__, self.action[seat])),
            "action_counts": tuple(map(len, self.action)),
            "deck": len(self.deck),
            "discard": tuple(map(cards.__getitem__, self.discard)),
            "chain": tuple((who, stated, targets,
                            cards[c] if who == seat or settled else None)
                           for who, c, stated, targets in self.chain),
            "penalty": self.penalty,
            "record": tuple(self.record),
            "suits": Counter(self.suit_counts),  # a copy: the game's stays
        }


_PLAYS: dict = {}


def plays(players: int, seat: int, name: str) -> tuple[list, frozenset]:
    """Every play of the card ``name`` on ``seat``'s turn, as a list and as a set (built
    once per player count, seat and card: the same few hundred moves come up every turn).

    >>> moves, _ = plays(2, 0, "cup 3")
    >>> len(moves)  # 10 crows, 25 swaps, 1 look
    36
    >>> moves[0], moves[-1]
    (('play', 'cup 3', 'crow', (0, 0)), ('play', 'cup 3', 'key', 1))
    """
    key = (players, seat, name)
    if key not in _PLAYS:
        places = [(s, slot) for s in range(players) for slot in range(SLOTS)]
        moves = [("play", name, "crow", place) for place in places]
        moves += [("play", name, "cup", a, b) for a in places for b in places if a[0] < b[0]]
        moves += [("play", name, "key", s) for s in range(players) if s != seat]
        _PLAYS[key] = (moves, frozenset(moves))
    return _PLAYS[key]


def new_state(players: int, rng: random.Random,
              cards: tuple | None = None) -> BulletState:
    """Deal a game from ``cards`` ((suit, value) pairs from :func:`cards_from_deck`; None:
    the bundled deck), keeping the values in play for ``players``: 10 random cards and Fin
    shuffled under the rest, then each seat (from the dealer's left) dealt 5 Poker Hand
    cards and 1 Action Card from the top.

    >>> [len(new_state(n, random.Random(0)).cards) for n in (2, 3, 4, 5)]  # with Fin
    [33, 41, 49, 57]
    """
    allowed = rules.values_in_play(players)
    in_play = [c for c in (cards or STANDARD) if c[1] in allowed]
    needed = players * (SLOTS + 1) + BOTTOM
    if len(in_play) < needed:
        raise RulesError(f"the deck has {len(in_play)} cards of values {allowed[0]}-"
                         f"{allowed[-1]} for {players} players",
                         f"the deal and the Fin section need at least {needed}")
    rng.shuffle(in_play)
    bottom = in_play[:BOTTOM] + [FIN]
    rng.shuffle(bottom)
    deck = in_play[BOTTOM:] + bottom  # top card first
    dealt = SLOTS + 1  # a seat's Poker Hand and its first Action Card
    hands = [deck[dealt * s:dealt * s + SLOTS] for s in range(players)]
    action = [[deck[dealt * s + SLOTS]] for s in range(players)]
    return BulletState(hands, action, deck[dealt * players:], rng)


def cards_from_deck(cards: list[dict]) -> tuple:
    """A printed deck (one dict a copy) -> its number cards as sorted (suit, value) pairs.
    Number cards are those with a value; reference cards are left out; the deck must hold
    exactly one Fin card (kind 'fin').

    >>> cards_from_deck([{"kind": "number", "suit": "cup", "value": 2},
    ...                  {"kind": "fin", "value": None}, {"kind": "reference"}])
    (('cup', 2),)
    """
    numbers, fins = [], 0
    for index, printed in enumerate(cards):
        value = printed.get("value")
        if printed.get("kind") == "fin":
            fins += 1
        elif value is not None and value != "":
            if type(value) is not int or value not in rules.VALUES:
                raise RulesError(f"its value {value!r} is not one of the game's",
                                 "values are whole numbers 1-7", card=index)
            if printed.get("suit") not in rules.SUITS:
                suit = printed.get("suit")
                raise RulesError("it has a value but no suit" if suit in (None, "") else
                                 f"its suit {suit!r} is not one of the game's",
                                 "give every number card a suit field: crow, cup, key or "
                                 "bullet", card=index)
            numbers.append((printed["suit"], value))
    if fins != 1:
        raise RulesError(f"the deck has {fins} Fin cards",
                         "the rules need exactly one card of kind 'fin'")
    if not numbers:
        raise RulesError("the deck has no number cards", "give cards a suit and a value")
    return tuple(sorted(numbers))


# -- bots ---------------------------------------------------------------------------------

@cache
def power(values: tuple[int, ...]) -> int:
    """A bot's rough measure of a hand, in the categories' order: 10 x the sum of the
    squared group sizes (five of a kind 250 ... high card 50), plus the value of the
    biggest group. 0 is an unknown card, counted as a card of its own.

    >>> power((6, 6, 6, 5, 5)), power((6, 6, 0, 0, 1)), power((7, 5, 4, 2, 1))
    (136, 76, 57)
    """
    counts = [0] * 8
    for value in values:
        counts[value] += 1
    unknown, counts[0] = counts[0], 0
    top = max(range(8), key=lambda v: (counts[v], v))
    return 10 * (sum(c * c for c in counts) + unknown) + top


def _values(hand: tuple) -> tuple[int, ...]:
    """A hand as an observation shows it -> its values, 0 for a card not seen."""
    return tuple(c[1] if c else 0 for c in hand)


def _with(values: tuple[int, ...], slot: int, value: int) -> tuple[int, ...]:
    return values[:slot] + (value,) + values[slot + 1:]


def stake_of(obs: dict, claim: tuple) -> int:
    """What a turn's card would do to the observing seat, in :func:`power` points: its
    own card +10; a crow or cup on its hand, the change to it (an unknown card counted
    as a card of its own; no change counts -1); a claimant's crow or cup on its own
    hand -3 (it helps a rival); a look at its hand -2; anything else 0.

    >>> mine = (("cup", 2), ("crow", 2), ("key", 5), ("cup", 1), ("key", 3))
    >>> obs = {"seat": 0, "hands": (mine, (("cup", 5), None, None, None, None))}
    >>> stake_of(obs, (1, "cup", ((0, 0), (1, 0)), None))  # 2s for 5s: it gains
    3
    >>> stake_of(obs, (1, "crow", ((0, 1),), None))  # breaks its pair of 2s
    -17
    """
    me, hands = obs["seat"], obs["hands"]
    seat, stated, targets, _ = claim
    if seat == me:
        return 10
    if stated == "key":
        return -2 if targets[0] == me else 0
    values = _values(hands[me])
    for (owner, slot), (other, there) in zip(targets, targets[::-1]):
        if owner == me:
            incoming = hands[other][there] if stated == "cup" else None
            return (power(_with(values, slot, incoming[1] if incoming else 0))
                    - power(values)) or -1
    return -3 if any(owner == seat for owner, _ in targets) else 0


class CardSharpBot(Bot):
    """A tavern card sharp: builds its own hand with crows and swaps, breaks up the
    leader's (the opponent whose known cards look best), looks at hands it cannot see,
    calls claims its card counting doubts, and shoots claims that hurt it.

    * ``bluff_rate``: the chance of making the best play when it needs a bluff (a card
      that does not show the stated ability) rather than the best true play; also scales
      the chance of shooting with a card that is no bullet.
    * ``call_threshold``: call a claim that does not help it when the estimated chance of
      a bluff reaches this: the share of unseen cards not of the stated suit, over the
      cards the claimant held, blended with the claimant's record of bluffs shown.
    * ``aggression``: the chance of shooting a claim that hurts it with a bullet it holds.

    A penalty it chooses takes the card that leaves the victim's known cards weakest.
    """

    fair = True  # plays from its observation alone: the search follows it

    PARAMS = {"bluff_rate": 0.3, "call_threshold": 0.6, "aggression": 0.7}

    def choose(self, observation, moves, rng):
        if moves[0] == "pass":
            return self._answer(observation, moves, rng)
        if moves[0][0] == "discard":
            return self._penalty(observation, moves, rng)
        return self._turn(observation, moves, rng)

    def _turn(self, obs, moves, rng):
        """Value every play with :func:`power`: what arrives in its own hand (gain) and
        in the leader's (loss); a look is worth 2 a card it has not seen."""
        me, hands, players = obs["seat"], obs["hands"], obs["players"]
        values = [_values(hand) for hand in hands]
        leader = max((s for s in range(players) if s != me), key=lambda s: power(values[s]))
        change = [None] * players  # seat -> slot -> arriving value -> points for this bot
        for seat, sign in ((me, 1), (leader, -1)):
            before = power(values[seat])
            change[seat] = [[sign * (power(_with(values[seat], i, v)) - before)
                             for v in range(8)] for i in range(SLOTS)]
        held = {label(c): c for c in obs["action"]}

        def worth(move) -> int:
            ability = move[2]
            if ability == "key":
                return 2 * hands[move[3]].count(None)
            (a, i) = move[3]
            if ability == "crow":  # the played card arrives
                return change[a][i][held[move[1]][1]] if change[a] else 0
            (b, j) = move[4]  # a swap: each card arrives where the other was
            return ((change[a][i][values[b][j]] if change[a] else 0)
                    + (change[b][j][values[a][i]] if change[b] else 0))

        scored = [(worth(m), m) for m in moves]
        honest = [(w, m) for w, m in scored if held[m[1]][0] == m[2]]
        if honest and not rng.random() < self.params["bluff_rate"]:
            scored = honest
        top = max(w for w, _ in scored)
        best = [m for w, m in scored if w == top]
        return best[rng.randrange(len(best))]

    def _answer(self, obs, moves, rng):
        """Pass on a claim that helps it; call one that does not when a bluff looks
        likely; shoot one that hurts it, a real bullet (its lowest) before another card."""
        chain = obs["chain"]
        stake = stake_of(obs, chain[0]) * (-1) ** (len(chain) - 1)
        if stake > 0:
            return "pass"
        if bluff_chance(obs) >= self.params["call_threshold"]:
            return "call"
        shots = sorted(moves[2:], key=lambda m: (card(m[1])[0] != "bullet", card(m[1])[1]))
        if stake < 0 and shots:
            odds = self.params["aggression"]
            if card(shots[0][1])[0] != "bullet":
                odds *= self.params["bluff_rate"]
            if rng.random() < odds:
                return shots[0]
        return "pass"

    @staticmethod
    def _penalty(obs, moves, rng):
        values = _values(obs["hands"][moves[0][1]])
        if not any(values):
            return moves[rng.randrange(len(moves))]
        return min(moves, key=lambda m: (power(_with(values, m[2], 0)), -values[m[2]]))


def bluff_chance(obs: dict) -> float:
    """The chance that the top card of the chain is a bluff, as this seat can tell: the
    chance that none of the cards its player held (2 on its turn, else its Action Cards
    and this one) shows the stated suit, drawing from the cards this seat has not seen;
    blended with the player's record (2 imaginary plays at that chance, plus the cards
    it has played and the bluffs among them). 1 when no card of the suit is unseen.

    >>> obs = {"chain": ((1, "crow", ((0, 0),), None),), "suits": {"crow": 2, "cup": 2},
    ...        "hands": (), "action": (("cup", 1),), "discard": (("crow", 3),),
    ...        "action_counts": (1, 1), "record": ((0, 0), (2, 2))}
    >>> round(bluff_chance(obs), 3)  # 1 crow of 2 unseen cards, held 2: 0.25; and 2 of 2
    0.625
    """
    seat, stated = obs["chain"][-1][:2]
    seen = Counter(c[0] for c in obs["action"] + obs["discard"])
    seen.update(c[0] for hand in obs["hands"] for c in hand if c)
    seen.update(c[3][0] for c in obs["chain"] if c[3])
    unseen = obs["suits"][stated] - seen[stated]
    if unseen <= 0:
        return 1.0
    share = unseen / (sum(obs["suits"].values()) - sum(seen.values()))
    held = ACTION if len(obs["chain"]) == 1 else obs["action_counts"][seat] + 1
    played, bluffs = obs["record"][seat]
    return (2 * (1 - share) ** held + bluffs) / (2 + played)


GAME = Game(name="bullet", title="Bluff the Bullet", players=tuple(rules.PLAYERS),
            default_players=4, new_state=new_state,
            # the search that measured best here (docs: the ablation): guided less, its
            # samples weighed by the others' claims, which bluffing decides in this game
            bots={"random": RandomBot, "heuristic": CardSharpBot,
                  "search": SearchBot.tuned(bias=4.0, trust=0.1)},
            cards_from_deck=cards_from_deck,
            score_unit="hand category",  # 0 high card ... 6 five of a kind
            rulings=("A turn must play a card.",
                     "A turn's card states crow, cup or key, never bullet.",
                     "A cup swaps cards of two different hands; a swapped card keeps its "
                     "face."))
