"""Bluff the Bullet's rules of play: its cards, a game in progress
(:class:`BulletState`), the moves a seat may make and what each does."""

from __future__ import annotations

import copy
import random
from collections import Counter
from functools import cache

from ...rules import bullet as rules
from ...toolkit.search import redeal
from ...toolkit.state import IllegalMove, State, no_record

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

