"""Trick Taking with the shape cards (Tim Volpe, PIGSquad Summer Slow Jam 2016), playable.

The rules, in cardkit's words:

- 81 shape cards: each of the 27 fronts (shape x number x fill) with a left arrow, a right
  arrow or a blank back. They are shuffled into a face-up deck and two are dealt beside it,
  so three cards are on offer: those two and the deck's top card.
- Each player is dealt one of the 9 rule cards, a secret objective.
- A turn: take one of the three cards on offer (the deck fills the gap), then you may lock
  in one triplet from your hand, face up in front of you. The hand limit is 7: holding 8,
  you must lock one in.
- When every shape card has been taken, each player may lock in more triplets.
- Scoring: a triplet scores, per property (shape, number, fill), 1 when all three agree and 2
  when all three differ (0-6 in all). A triplet whose three backs show the same arrow is
  scored by the neighbour the arrow points to. A met objective scores its points for its
  owner. The highest total wins; tied players share the win.

Scoring, arrows and objectives are :mod:`cardkit.rules.shapes`, shared with ``cardkit check``.

>>> import random
>>> state = new_state(2, random.Random(7))
>>> state.legal_moves()
[('take', 3 clear triangles), ('take', 3 clear squares), ('take', 1 solid circle)]
>>> state.apply(("take", Front("square", 3, "clear")))
>>> state.observation(0)["hand"], state.current_player()
((3 clear squares,), 1)

Why one module: the game and its bots (the heuristic and the scorer, one setting apart) are
read together: a bot's worth of a triplet is the game's scoring less its arrow rule, and a
designer who reads how shapes is played finds how it is played well beside it.
"""

from __future__ import annotations

import copy
import random
from bisect import bisect_right
from functools import lru_cache
from itertools import combinations
from typing import NamedTuple

from cardkit.toolkit.search import SearchBot, redeal
from cardkit.toolkit.state import Bot, Game, IllegalMove, RandomBot, State, no_record
from cardkit.rules.errors import RulesError
from cardkit.rules.shapes import (BACKS, OBJECTIVES, PROPERTIES, Card, Objective,
                                  check_seats, destination, meets, parse_condition,
                                  score_triplet)

HAND_LIMIT = 7
OFFERED = 3  # the two cards dealt beside the deck and the deck's top card
TAKE, LOCK, FINAL, OVER = "take", "lock", "final", "over"  # phases


class Front(NamedTuple):
    """A shape card as the players see it until scoring: its face, not its back."""
    shape: str
    number: int
    fill: str

    def __repr__(self) -> str:  # as the card reads: 2 striped circles
        return f"{self.number} {self.fill} {self.shape}{'s' * (self.number != 1)}"


def front(card: Card) -> Front:
    return Front(card.shape, card.number, card.fill)


class Composition(NamedTuple):
    """What new_state deals: the shape cards (with their backs) and the rule cards."""
    cards: tuple[Card, ...]
    objectives: tuple[Objective, ...]


STANDARD = Composition(tuple(Card(s, n, f, b) for s in PROPERTIES["shape"]
                             for n in PROPERTIES["number"] for f in PROPERTIES["fill"]
                             for b in BACKS), OBJECTIVES)


def arrow_odds(cards) -> dict[Front, tuple[int, int, int]]:
    """Front -> (copies, left arrows, right arrows) in the deck: public, as the deck is.

    >>> arrow_odds(STANDARD.cards)[Front("circle", 1, "clear")]
    (3, 1, 1)
    """
    odds: dict[Front, list[int]] = {}
    for card in cards:
        count = odds.setdefault(front(card), [0, 0, 0])
        count[0] += 1
        count[1] += card.back == "left"
        count[2] += card.back == "right"
    return {face: tuple(count) for face, count in odds.items()}


@lru_cache(maxsize=8)
def _faces(cards: tuple[Card, ...]) -> tuple[tuple[Front, ...], dict, tuple[str, ...]]:
    """Each card's front, the deck's arrow odds and each card's name in the per-card
    figures (worked out once per deck)."""
    return tuple(map(front, cards)), arrow_odds(cards), tuple(map(str, cards))


def pass_chance(triplet, odds) -> float:
    """The chance that a triplet of these fronts shows one arrow on all three backs, for a
    player who has not seen them: copies of a front are taken without regard to their
    backs, so the chance is that of drawing the triplet's copies of each front at random
    from that front's copies. With one copy of each front per back, a triplet holding a
    front twice never passes.

    >>> odds = arrow_odds(STANDARD.cards)
    >>> pass_chance((Front("circle", 1, "clear"), Front("circle", 2, "clear"),
    ...              Front("circle", 3, "clear")), odds) == 2 / 27
    True
    >>> pass_chance((Front("circle", 1, "clear"),) * 2 + (Front("circle", 3, "clear"),), odds)
    0.0
    """
    left = right = 1.0
    for i, face in enumerate(triplet):
        copies, lefts, rights = odds[face]
        drawn = triplet[:i].count(face)  # copies of this front already drawn
        left *= max(lefts - drawn, 0) / (copies - drawn)
        right *= max(rights - drawn, 0) / (copies - drawn)
    return left + right


class ShapesState(State):
    """One game. Cards are numbers 0.. into ``cards``; the deck's top is its last card.

    Ruling (cardkit): nobody sees a shape card's back before the final scoring, the owner
    included: the text forbids looking while choosing, and its scoring is where the backs
    are first looked at (the designer's arrows are meant to pass points "without realizing
    it"). Moves therefore name fronts only.
    Ruling (cardkit): which hands hold which fronts is public: every card is taken face up
    in view of the table. The rule cards stay secret.
    Ruling (cardkit): seat 0 goes first (the text lets the players choose).
    Decision: a designer's deck seats at most as many players as it has rule cards.
    """

    def __init__(self, players: int, rng: random.Random, composition: Composition):
        check_seats(players)
        if players > len(composition.objectives):
            raise RulesError(f"{players} players need {players} rule cards, the deck has "
                             f"{len(composition.objectives)}",
                             "print more rule cards or seat fewer players")
        self.players, self.rng = players, rng
        self.cards = composition.cards
        self.fronts, self.odds, self.names = _faces(composition.cards)
        objectives = list(composition.objectives)
        rng.shuffle(objectives)
        self.objectives = objectives[:players]
        self.all_objectives = tuple(composition.objectives)
        self.deck = list(range(len(self.cards)))
        rng.shuffle(self.deck)
        self.offer = [self.deck.pop() for _ in range(min(OFFERED, len(self.deck)))]
        self.hands: list[list[int]] = [[] for _ in range(players)]  # ordered by front
        self.triplets: list[list[tuple[int, int, int]]] = [[] for _ in range(players)]
        # what the table sees of them: their fronts, in the same order
        self.hand_fronts: list[tuple[Front, ...]] = [()] * players
        self.triplet_fronts: list[tuple[tuple[Front, ...], ...]] = [()] * players
        # the card record: the cards each seat took, and those it locked in
        self.drawn: list[set[int]] = [set() for _ in range(players)]
        self.played: list[set[int]] = [set() for _ in range(players)]
        self.seat, self.phase = 0, TAKE
        self.final_left = 0  # seats still to have their final lock-ins
        self.takes = 0  # cards taken: a turn each
        self._moves: list | None = None
        self._scores: list[int] | None = None
        self.moves_made = 0

    def current_player(self) -> int:
        return self.seat

    def is_over(self) -> bool:
        return self.phase == OVER

    def legal_moves(self) -> list:
        """Take: ('take', front) for each front on offer. Lock: ('lock', (3 fronts)) for each
        triplet in the hand, and 'pass' unless the hand is over the limit."""
        if self._moves is None:
            if self.phase == TAKE:
                self._moves = [("take", face) for face in
                               dict.fromkeys([self.fronts[c] for c in self.offer])]
            elif self.phase == OVER:
                self._moves = []
            else:
                hand = self.hand_fronts[self.seat]
                self._moves = [("lock", t) for t in dict.fromkeys(combinations(hand, 3))]
                if len(hand) <= HAND_LIMIT:
                    self._moves.append("pass")
        return list(self._moves)  # a copy: a bot cannot change what is legal

    def apply(self, move) -> None:
        """Ruling (cardkit): a player who takes a card and then holds fewer than 3 has no
        lock-in to decide, and the turn passes; during play at most one triplet is locked
        in a turn (the text says "a triplet"), at the end as many as the player wants."""
        if move not in self.legal_moves():
            raise IllegalMove(f"{move} is not a legal move now; legal: "
                              f"{', '.join(map(str, self.legal_moves()))}")
        self._moves = None
        self.moves_made += 1
        hand = self.hands[self.seat]
        if move == "pass":
            self._end_turn()
        elif move[0] == "take":
            self._take(move[1])
            if not self.offer:
                self._begin_final()
            elif len(hand) < 3:
                self._end_turn()
            else:
                self.phase = LOCK
        else:
            self._lock(move[1])
            if self.phase == LOCK or len(hand) < 3:
                self._end_turn()

    def _take(self, face: Front) -> None:
        """Ruling (cardkit): the copy taken is the first on offer with that front (which
        one it is cannot matter to a player who sees no backs). When the deck runs out,
        fewer than three cards are on offer."""
        slot = [self.fronts[c] for c in self.offer].index(face)
        card = self.offer.pop(slot)
        if self.deck:
            self.offer.insert(slot, self.deck.pop())
        faces = self.hand_fronts[self.seat]
        at = bisect_right(faces, face)  # the hand stays ordered by front
        self.hand_fronts[self.seat] = faces[:at] + (face,) + faces[at:]
        self.hands[self.seat].insert(at, card)
        self.drawn[self.seat].add(card)
        self.takes += 1

    def _lock(self, triplet: tuple[Front, Front, Front]) -> None:
        """Lock in the hand's first copy of each front named."""
        hand, faces = self.hands[self.seat], list(self.hand_fronts[self.seat])
        cards = []
        for face in triplet:
            at = faces.index(face)
            cards.append(hand.pop(at))
            del faces[at]
        self.hand_fronts[self.seat] = tuple(faces)
        self.triplets[self.seat].append(tuple(cards))
        self.played[self.seat].update(cards)
        self.triplet_fronts[self.seat] += (triplet,)

    def _begin_final(self) -> None:
        """Ruling (cardkit): once the last card is taken, the player who took it and then
        each other player in turn order lock in as many triplets as they like, one at a
        time, then pass (8 cards must still come down to 7). Cards left in hand score
        nothing."""
        self.phase, self.final_left = FINAL, self.players
        self._next_final(self.seat)

    def _end_turn(self) -> None:
        if self.phase == FINAL:
            self.final_left -= 1
            self._next_final((self.seat + 1) % self.players)
        else:
            self.seat, self.phase = (self.seat + 1) % self.players, TAKE

    def _next_final(self, seat: int) -> None:
        """The next seat, from ``seat`` on, that still has final lock-ins and 3 cards."""
        while self.final_left:
            if len(self.hands[seat]) >= 3:
                self.seat = seat
                return
            self.final_left -= 1
            seat = (seat + 1) % self.players
        self.phase = OVER

    def triplet_cards(self, seat: int) -> list[list[Card]]:
        """The seat's locked-in triplets, backs and all (for the scoring)."""
        return [[self.cards[c] for c in t] for t in self.triplets[seat]]

    def scores(self) -> list[float]:
        """Triplet points go where the arrows send them; a met objective scores for its
        owner, counting every triplet the owner locked in. Before the end: so far."""
        if self.phase != OVER:
            return self._points()
        if self._scores is None:
            self._scores = self._points()
        return list(self._scores)

    def _points(self) -> list[int]:
        points = [0] * self.players
        for seat in range(self.players):
            for triplet in self.triplet_cards(seat):
                points[destination(triplet, seat, self.players)] += score_triplet(triplet)
            if self.objective_met(seat):
                points[seat] += self.objectives[seat].points
        return points

    def objective_met(self, seat: int) -> bool:
        return meets(self.objectives[seat].condition, self.triplet_cards(seat))[0]

    def returns(self) -> list[float]:
        scores = self.scores()
        winners = [seat for seat, s in enumerate(scores) if s == max(scores)]
        return [1 / len(winners) if seat in winners else 0.0 for seat in range(self.players)]

    def seat_figures(self) -> list[dict]:
        """Each seat's triplets locked in, their points, those its arrows passed to a
        neighbour, cards left in its hand, and whether it met its objective (1 or 0)."""
        found = []
        for seat in range(self.players):
            triplets = self.triplet_cards(seat)
            found.append({
                "triplets": len(triplets),
                "triplet_points": sum(map(score_triplet, triplets)),
                "arrow_passes": sum(destination(t, seat, self.players) != seat
                                    for t in triplets),
                "cards_left": len(self.hands[seat]),
                "objective_met": int(self.objective_met(seat))})
        return found

    def turns(self) -> int:
        """A turn takes a card (and may lock in a triplet); the final lock-ins once the
        cards are gone are not turns."""
        return self.takes

    def card_record(self) -> list[dict]:
        """Each seat's cards by name ('2 striped circles (left back)'; a rule card by
        its title): ``drawn`` it took (and its rule card, dealt), ``played`` it locked in,
        ``held`` in its hand or its triplets at the end (and its rule card)."""
        def names(cards) -> set[str]:
            return {self.names[c] for c in cards}
        record = []
        for seat in range(self.players):
            objective = {objective_name(self.objectives[seat])}
            kept = [c for t in self.triplets[seat] for c in t] + self.hands[seat]
            record.append({"drawn": sorted(names(self.drawn[seat]) | objective),
                           "played": sorted(names(self.played[seat])),
                           "held": sorted(names(kept) | objective)})
        return record

    def determinized(self, seat: int, rng: random.Random) -> ShapesState:
        """The game as ``seat`` might believe it: no back is seen, so cards of the same
        front trade places anywhere (hands, triplets, offer, deck); the deck's order is
        drawn again; the other seats' rule cards are drawn from those it does not hold."""
        world = copy.copy(self)
        world.hands, world.offer, world.deck = [list(h) for h in self.hands], list(self.offer), \
            list(self.deck)
        world.hand_fronts, world.triplet_fronts = list(self.hand_fronts), \
            list(self.triplet_fronts)
        triplets = [[list(t) for t in held] for held in self.triplets]
        world.rng, world._moves, world._scores = rng, None, None
        world.drawn, world.played = no_record(self.players)
        places = [(held, i) for held in (*world.hands, world.offer, world.deck, *(
            t for mine in triplets for t in mine)) for i in range(len(held))]
        redeal(places, rng, group=lambda card: self.fronts[card])
        redeal([(world.deck, i) for i in range(len(world.deck))], rng)
        world.triplets = [[tuple(t) for t in mine] for mine in triplets]
        pool = list(self.all_objectives)
        pool.remove(self.objectives[seat])
        rng.shuffle(pool)
        world.objectives = [self.objectives[s] if s == seat else pool.pop()
                            for s in range(self.players)]
        return world

    def observation(self, seat: int) -> dict:
        """The seat's own rule card and everything face up: the offer, every hand's and
        every triplet's fronts (taken and locked in view of all), the cards left in the
        deck, and the deck's arrows per front (``arrow_odds``, shared: read only). No
        backs, no other rule card."""
        fronts = self.fronts
        return {"seat": seat, "players": self.players, "phase": self.phase,
                "objective": self.objectives[seat], "hand": self.hand_fronts[seat],
                "offer": tuple([fronts[c] for c in self.offer]), "deck": len(self.deck),
                "hands": tuple(self.hand_fronts), "triplets": tuple(self.triplet_fronts),
                "arrows": dict(self.odds)}  # a copy: the game's stays

    def figures(self) -> dict[str, float | int | str]:
        """Triplets locked in, their mean score (left out of a game without any), triplets
        an arrow passed to a neighbour, and objectives met."""
        seats = self.seat_figures()  # the game's figures are the seats' added up
        figures = {"triplets": sum(seat["triplets"] for seat in seats),
                   "arrow_passes": sum(seat["arrow_passes"] for seat in seats),
                   "objectives_met": sum(seat["objective_met"] for seat in seats)}
        if figures["triplets"]:
            figures["mean_triplet_score"] = sum(seat["triplet_points"] for seat in seats) \
                / figures["triplets"]
        return figures


def objective_name(objective: Objective) -> str:
    """A rule card's name in the per-card figures: its title, else its condition.

    >>> objective_name(Objective("Hoarder", "4+ triplets", 3))
    'rule card: Hoarder'
    """
    return f"rule card: {objective.title or objective.condition}"


def new_state(players: int, rng: random.Random, cards: Composition | None = None) -> ShapesState:
    """A new game: the rule cards and the shape deck shuffled, one rule card each, three
    shape cards on offer. ``cards`` is a designer's deck from :func:`cards_from_deck`."""
    return ShapesState(players, rng, STANDARD if cards is None else cards)


def cards_from_deck(cards: list[dict]) -> Composition:
    """A printed deck -> the composition to deal. A card with a left, right or blank back
    is a shape card and needs a shape, a number (a whole number) and a fill; a card with a
    condition is a rule card and needs points. Other cards (a reference card) are not
    dealt.

    >>> cards_from_deck([{"shape": "circle", "number": 2, "fill": "clear", "back": "left"},
    ...                  {"title": "Hoarder", "condition": "4+ triplets", "points": 3,
    ...                   "back": "objective"}])  # doctest: +NORMALIZE_WHITESPACE
    Composition(cards=(Card(shape='circle', number=2, fill='clear', back='left'),),
                objectives=(Objective(title='Hoarder', condition='4+ triplets', points=3),))
    >>> cards_from_deck([{"shape": "circle", "fill": "clear", "back": "blank"}])
    ... # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    cardkit.rules.errors.RulesError: this shape card has no number; give every ...
    """
    shape_cards, objectives = [], []
    for i, card in enumerate(cards, 1):
        if card.get("back") in BACKS:
            for prop in PROPERTIES:
                if card.get(prop) in (None, ""):
                    raise RulesError(f"this shape card has no {prop}", "give every shape "
                                     "card a shape, a number (1, 2, 3...) and a fill",
                                     card=i - 1)
            if type(card["number"]) is not int:
                raise RulesError(f"its number {card['number']!r} is not a whole number",
                                 "a number is a whole number of shapes: 1, 2, 3...",
                                 card=i - 1)
            shape_cards.append(Card(str(card["shape"]), card["number"], str(card["fill"]),
                                    card["back"]))
        elif card.get("condition"):
            parse_condition(card["condition"])
            points = card.get("points")
            if type(points) is not int or points < 0:
                raise RulesError(f"rule card '{card.get('title') or i}' has "
                                 + ("no points" if points in (None, "") else
                                    f"points {points!r}, not a whole number"),
                                 "give each rule card the points it scores, e.g. 3",
                                 card=i - 1)
            objectives.append(Objective(str(card.get("title") or ""), card["condition"],
                                        points))
    if not shape_cards:
        raise RulesError("the deck has no shape cards", "give cards a left, right or blank "
                         "back and a shape, a number and a fill")
    if not objectives:
        raise RulesError("the deck has no rule cards", "each player is dealt one: give "
                         "cards a 'condition' and 'points'")
    # in the bundled deck's order, whatever the file's: the same cards, the same games
    known = {objective: i for i, objective in enumerate(OBJECTIVES)}
    return Composition(tuple(sorted(shape_cards, key=_standard_order)),
                       tuple(sorted(objectives, key=lambda o: (known.get(o, len(known)), o))))


def _standard_order(card: Card) -> tuple:
    """Where a card stands in STANDARD's order; a shape, number or fill it does not know
    comes after the ones it knows, by its name."""
    return tuple((PROPERTIES[prop].index(value), "") if value in PROPERTIES[prop]
                 else (len(PROPERTIES[prop]), str(value))
                 for prop, value in zip(("shape", "number", "fill"), card[:3])) + \
        (BACKS.index(card.back),)


@lru_cache(maxsize=64)
def _condition(text: str) -> tuple[int, tuple]:
    """An objective's condition: how many triplets, and what each needs (a tuple, so that
    :func:`_fits` can keep its answers)."""
    count, needs = parse_condition(text)
    return count, tuple(needs)

_WANTED = {"same": 1, "different": 3}  # kinds of a property among three cards


@lru_cache(maxsize=65536)  # a few thousand triplets of fronts, a few conditions
def _fits(triplet, needs) -> bool:
    return all(len({getattr(c, prop) for c in triplet}) == _WANTED[how] for prop, how in needs)


class GreedyBot(Bot):
    """A set-collector: takes the card that makes its best triplet, locks in good ones.

    A triplet of fronts is worth its score, less the arrow risk (``arrows`` x the chance
    its backs all show one arrow x its score, twice: the points lost and the neighbour's
    gain), plus, when it fits the bot's unmet rule card, ``objective`` x the card's points
    shared over the fitting triplets still needed.

    - ``threshold`` (5): during play, lock in the best triplet once its worth reaches this
      (holding 8 it always locks the best); at the end it locks every triplet worth more
      than 0.
    - ``objective`` (1): weight of its rule card; 0 ignores it.
    - ``arrows`` (1): weight of the arrow risk; 0 ignores the arrows, 1 counts the expected
      cost of a pass, more is warier.

    Taking, it rates each card on offer by the best triplet it makes with two hand cards;
    ties (and hands under two cards) choose at random.
    """

    fair = True  # plays from its observation alone: the search follows it

    PARAMS = {"threshold": 5.0, "objective": 1.0, "arrows": 1.0}
    RANGES = {"threshold": (0.0, 100.0), "objective": (0.0, 100.0), "arrows": (0.0, 100.0)}

    # (a deck's arrow odds, risk) -> {triplet -> worth without objective}: kept from game to
    # game, as a deck's triplets are worth the same in every game. Keyed by the odds'
    # contents: each observation hands over its own copy of them
    _worths: dict = {}

    def worth(self, observation: dict):
        """A function: triplet of fronts -> its worth to the observing seat, as above."""
        odds, objective = observation["arrows"], observation["objective"]
        risk = 2 * self.params["arrows"]
        memo = self._worths.setdefault((tuple(odds.items()), risk), {})
        count, needs = _condition(objective.condition)
        have = sum(_fits(t, needs) for t in observation["triplets"][observation["seat"]])
        bonus = self.params["objective"] * objective.points / (count - have) \
            if have < count else 0.0

        def worth(triplet) -> float:
            value = memo.get(triplet)
            if value is None:
                value = memo[triplet] = score_triplet(triplet) * (
                    1 - risk * pass_chance(triplet, odds))
            return value + bonus if bonus and _fits(triplet, needs) else value
        return worth

    def choose(self, observation, moves, rng):
        worth = self.worth(observation)
        if moves[0][0] == "take":
            # a take decision weighs every pair of hand cards with each front on offer: up
            # to 84 triplets, the bot's main cost (each a lookup once seen in any game)
            pairs = list(combinations(observation["hand"], 2))
            values = [max(map(worth, [(a, b, m[1]) for a, b in pairs]), default=0.0)
                      for m in moves]
            best = max(values)
            return rng.choice([m for m, v in zip(moves, values) if v == best])
        value, move = max((worth(m[1]), m) for m in moves if m != "pass")
        if "pass" not in moves:
            return move
        if observation["phase"] == LOCK:
            return move if value >= self.params["threshold"] else "pass"
        return move if value > 0 else "pass"


class ScorerBot(GreedyBot):
    """The set-collector weighing its rule card half (``objective`` 0.5): it beats the
    heuristic rotated round the seats (31% of 1,500 games, fair 25%; docs)."""

    PARAMS = {**GreedyBot.PARAMS, "objective": 0.5}


GAME = Game(name="shapes", title="Trick Taking (shape cards)",
            players=tuple(range(2, len(OBJECTIVES) + 1)), default_players=4,
            new_state=new_state,
            # the search at 20 samples a move, guided by the scorer: 2 s a game at most
            bots={"random": RandomBot, "heuristic": GreedyBot, "scorer": ScorerBot,
                  "search": SearchBot.tuned(iterations=20.0, guide="scorer")},
            cards_from_deck=cards_from_deck, score_unit="points",
            rulings=("Nobody sees a shape card's back before the final scoring, its owner "
                     "included; every hand's fronts are public.",
                     "Seat 0 starts; with 81 shape cards at 4 players seat 0 takes one card "
                     "more than the last seat: an edge of the game's, shown in the seat "
                     "figures."))
