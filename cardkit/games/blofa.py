"""Blófa Cards, playable: four players bluff about the sums of face-down cards.

The rules in brief (cardkit's wording; the rulings are in :mod:`cardkit.rules.blofa`):

* 18 cards. Blue backs are even (0 x3, the rule cards; 2 x4; 4 x2), yellow backs odd
  (1 x5, 3 x3, 5 x1). Each seat is dealt 2 blue and 2 yellow cards; what is left of each
  colour is that colour's draw pile.
* A trick: the dealer lays 1 or 2 cards face down and declares their sum as 1 or 2. Then
  each seat in turn passes (draws a card), plays 1 or 2 cards declaring the last
  declaration + 1 or + 2, or challenges the last declarer. Any declaration may be a lie.
* A challenge or three passes in a row end the trick. Its winner keeps one of the last
  three cards laid (a rule card kept is captured instead), the other cards go back to
  their colour's pile, the piles are shuffled, and the winner deals the next trick.
* The game ends when every rule card is captured, the dealer has no card, or four tricks
  in a row capture none. Captures score, holders of a rule card are eliminated, the best
  of the rest wins (a tie: nobody).

A card is its value; its back is its parity (even blue, odd yellow). Moves read as:
``("play", (0, 2), 3)`` lays a 0, then a 2 on top, declaring 3; ``("pass", "blue")``
passes and draws a blue card; ``"challenge"`` flips the last play; ``("keep", 0)`` is
the trick winner keeping a card of the last three (a 0 is captured).

>>> import random
>>> state = BlofaState([[0, 2, 1, 3], [4, 2, 1, 1], [0, 2, 5, 1], [0, 4, 3, 3]],
...                    [[2], [1]], random.Random(1))
>>> state.apply(("play", (0, 2), 2))  # seat 0 opens with the truth
>>> state.apply("challenge")  # seat 1 challenges and is wrong: seat 0 +1, seat 1 -1
>>> state.vp, state.current_player(), state.legal_moves()
([1, -1, 0, 0], 0, [('keep', 0), ('keep', 2)])
>>> state.apply(("keep", 0))  # seat 0 captures a rule card
>>> state.captured_by, state.current_player()
([0], 0)
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from itertools import permutations

from ..rules import blofa as rules
from ..rules.errors import RulesError
from ..toolkit.search import SearchBot, redeal
from ..toolkit.state import Bot, Game, IllegalMove, RandomBot, State, no_record

COLOURS = ("blue", "yellow")  # index = a value's parity
RULE_CARD = 0  # the rule cards are the 0s
DEALT = 2  # cards of each colour dealt to each seat
LAST_CARDS = 3  # the trick's winner keeps one of this many last-laid cards
DRY_TRICKS = 4  # tricks in a row without a capture that end the game
END_CAPTURED = "every rule card captured"
END_NO_CARD = "the dealer has no card"
END_DRY = f"{DRY_TRICKS} tricks in a row without a capture"


class BlofaState(State):
    """A game in progress. ``hands`` are the four seats' cards, ``piles`` the blue and the
    yellow draw piles (drawn from the end), ``deck`` the composition {value: copies}.

    Ruling (cardkit): seat 0 is the youngest player and deals the first trick.
    Ruling (cardkit): the colour of every held card is public (its back shows), so an
    observation counts each hand's blue and yellow cards.
    """

    players = rules.PLAYERS

    def __init__(self, hands: list[list[int]], piles: list[list[int]], rng: random.Random,
                 deck: dict[int, int] | None = None):
        self.rng = rng
        self.deck = dict(deck or rules.DISTRIBUTION)
        self.rule_cards = self.deck.get(RULE_CARD, 0)
        self.hands = [list(hand) for hand in hands]
        self.piles = [list(pile) for pile in piles]
        self.drawn = [set(hand) for hand in hands]  # card values each seat has held
        self.played: list[set[int]] = [set() for _ in hands]
        self.laid: list[int] = []  # this trick's cards, in the order laid
        self.plays: list[tuple[int, tuple[int, ...], int]] = []  # (seat, cards, declared)
        self.passes = 0  # passes since the last play
        self.last_draw: int | None = None  # colour the trick's last passer drew
        self.revealed: tuple[int, ...] = ()  # cards flipped by this trick's challenge
        self.winner: int | None = None  # the trick's winner, while choosing a card
        self.dealer = self.to_move = 0
        self.vp = [0] * self.players
        self.captured_by: list[int] = []  # the capturer of each captured rule card
        self.dry = 0  # tricks in a row without a capture
        self.tricks = 0
        # per seat: plays, lies, passes, challenges (the game's are their sums)
        self.acts = [Counter() for _ in hands]
        self.end: str | None = None
        self.moves_made = 0
        self.keeps = 0  # trick winners' keeps: part of the turn that won the trick
        self._moves: list | None = None

    # -- the moves -----------------------------------------------------------------------

    def current_player(self) -> int:
        return self.to_move

    def legal_moves(self) -> list:
        """The trick's winner keeps one of the last three cards laid. Otherwise: plays of
        1 or 2 cards declaring the last declaration + 1 or + 2 (1 or 2 to open), and, once
        the trick is open, a pass and a challenge. A pass draws from either pile for the
        trick's first passer, from the other pile than the last passer's after that; it
        is not a move when that pile is empty.

        Ruling (cardkit): "the last player" of the pile rule is the trick's last passer,
        even with plays in between; a first passer with one empty pile draws from the other.
        Ruling (cardkit): two cards are laid one after the other, in the order the move
        names them; that order decides which are the last three cards of the trick.
        """
        if self._moves is None:
            self._moves = ([] if self.end is not None else self._keeps()
                           if self.winner is not None else self._turn_moves())
        return list(self._moves)  # a copy: a bot cannot change what is legal

    def _keeps(self) -> list:
        """Ruling (cardkit): a trick of fewer than three cards offers all of them."""
        return [("keep", value) for value in sorted(set(self.laid[-LAST_CARDS:]))]

    def _turn_moves(self) -> list:
        base = self.plays[-1][2] if self.plays else 0
        moves = [("play", cards, declared) for cards in lays(self.hands[self.to_move])
                 for declared in (base + 1, base + 2)]
        if self.plays:
            pile_choice = (0, 1) if self.last_draw is None else (1 - self.last_draw,)
            moves += [("pass", COLOURS[c]) for c in pile_choice if self.piles[c]]
            moves.append("challenge")
        return moves

    def apply(self, move) -> None:
        if move not in self.legal_moves():
            raise IllegalMove(f"{move!r} is not a legal move for seat {self.to_move}")
        self._moves = None
        self.moves_made += 1
        if move == "challenge":
            self._challenge()
        elif move[0] == "play":
            self._play(move[1], move[2])
        elif move[0] == "pass":
            self._pass(COLOURS.index(move[1]))
        else:
            self.keeps += 1
            self._keep(move[1])

    def _next(self) -> None:
        self.to_move = (self.to_move + 1) % self.players

    def _play(self, cards: tuple[int, ...], declared: int) -> None:
        hand = self.hands[self.to_move]
        for card in cards:
            hand.remove(card)
        self.played[self.to_move].update(cards)
        acts = self.acts[self.to_move]
        acts["plays"] += 1
        acts["lies"] += sum(cards) != declared
        self.laid += cards
        self.plays.append((self.to_move, cards, declared))
        self.passes = 0
        self._next()

    def _pass(self, colour: int) -> None:
        """Draw; the third pass in a row gives the last declarer the trick and 1 VP."""
        card = self.piles[colour].pop()
        self.hands[self.to_move].append(card)
        self.drawn[self.to_move].add(card)
        self.last_draw = colour
        self.passes += 1
        self.acts[self.to_move]["passes"] += 1
        if self.passes == 3:
            self._settle(rules.three_passes(self.plays[-1][0]))
        else:
            self._next()

    def _challenge(self) -> None:
        """Flip the last play: a lie wins the clash for the challenger, the truth for the
        declarer; the clash winner gets 1 VP and the trick, the loser loses 1 VP."""
        declarer, cards, declared = self.plays[-1]
        outcome = rules.clash(sum(cards), declared, declarer, self.to_move)
        self.acts[self.to_move]["challenges"] += 1
        self.acts[self.to_move]["challenges_right"] += outcome["lie"]
        self.revealed = cards
        self._settle(outcome)

    def _settle(self, outcome: dict) -> None:
        for seat, points in outcome["vp"].items():
            self.vp[seat] += points
        self.tricks += 1
        self.winner = self.to_move = outcome["winner"]

    def _keep(self, card: int) -> None:
        """The winner keeps ``card`` (a rule card is captured: it leaves the game), the
        rest of the trick goes back to its colour's pile, both piles are shuffled and the
        winner deals next. Then the game may end.

        Ruling (cardkit): the end conditions are checked once the trick is settled; if two
        hold at once, the text's order names the end: captures, no card, dry tricks.
        """
        winner = self.winner
        self.laid.remove(card)
        if card == RULE_CARD:
            self.captured_by.append(winner)
            self.dry = 0
        else:
            self.hands[winner].append(card)
            self.drawn[winner].add(card)
            self.dry += 1
        for laid in self.laid:
            self.piles[laid & 1].append(laid)
        for pile in self.piles:
            self.rng.shuffle(pile)
        self.laid, self.plays, self.passes, self.last_draw = [], [], 0, None
        self.revealed, self.winner = (), None
        self.dealer = self.to_move = winner
        if len(self.captured_by) == self.rule_cards:
            self.end = END_CAPTURED
        elif not self.hands[winner]:
            self.end = END_NO_CARD
        elif self.dry == DRY_TRICKS:
            self.end = END_DRY

    # -- the end -------------------------------------------------------------------------

    def is_over(self) -> bool:
        return self.end is not None

    def final(self) -> dict:
        """:func:`cardkit.rules.blofa.final_scores` of the game so far: captures score,
        each rule card still in a hand eliminates its holder."""
        holding = [seat for seat, hand in enumerate(self.hands)
                   for card in hand if card == RULE_CARD]
        return rules.final_scores(self.vp, self.captured_by, holding, self.rule_cards)

    def returns(self) -> list[float]:
        winner = self.final()["winner"]
        return [float(seat == winner) for seat in range(self.players)]

    def scores(self) -> list[float]:
        return [float(score) for score in self.final()["scores"]]

    def figures(self) -> dict:
        return {"captures": len(self.captured_by),
                "eliminations": len(self.final()["eliminated"]),
                "tricks": self.tricks, "challenges": self.challenges,
                "challenges_right": self.challenges_right, "end": self.end}

    @property
    def challenges(self) -> int:
        """Challenges made so far, by every seat."""
        return sum(acts["challenges"] for acts in self.acts)

    @property
    def challenges_right(self) -> int:
        """Challenges that flipped a lie."""
        return sum(acts["challenges_right"] for acts in self.acts)

    def seat_figures(self) -> list[dict]:
        """Each seat's rule cards captured, VP, plays and lies among them (a declared sum
        that is not the cards'), passes, challenges and right ones."""
        return [{"captures": self.captured_by.count(seat), "vp": self.vp[seat],
                 **{kind: acts[kind] for kind in ("plays", "lies", "passes", "challenges",
                                                  "challenges_right")}}
                for seat, acts in enumerate(self.acts)]

    def turns(self) -> int:
        """Each play, pass or challenge is a seat's turn; keeping a card is not."""
        return self.moves_made - self.keeps

    def card_record(self) -> list[dict]:
        """Each seat's cards by value: held at some time (dealt, drawn, or kept from a
        trick), played, and held at the end."""
        return [{"drawn": sorted(map(card_name, drawn)),
                 "played": sorted(map(card_name, played)),
                 "held": sorted(set(map(card_name, hand)))}
                for drawn, played, hand in zip(self.drawn, self.played, self.hands)]

    def determinized(self, seat: int, rng: random.Random) -> BlofaState:
        """The game as ``seat`` might believe it: every card it has not seen (the others'
        hands, the piles, the others' unrevealed cards of this trick) dealt again among
        those places, each colour apart (a card's back shows its colour)."""
        world = copy.copy(self)
        world.hands = [list(hand) for hand in self.hands]
        world.piles = [list(pile) for pile in self.piles]
        world.laid, world.vp = list(self.laid), list(self.vp)
        world.captured_by = list(self.captured_by)
        world.drawn, world.played = no_record(self.players)
        world.acts = [Counter(acts) for acts in self.acts]
        world.rng, world._moves = rng, None
        seen = set()  # indexes of this trick's cards the seat has seen
        start = 0
        for who, cards, _ in self.plays:
            if who == seat:
                seen.update(range(start, start + len(cards)))
            start += len(cards)
        if self.revealed:
            seen.update(range(len(self.laid) - len(self.revealed), len(self.laid)))
        if self.winner == seat:
            seen.update(range(max(0, len(self.laid) - LAST_CARDS), len(self.laid)))
        places = [(hand, i) for other, hand in enumerate(world.hands) if other != seat
                  for i in range(len(hand))]
        places += [(pile, i) for pile in world.piles for i in range(len(pile))]
        places += [(world.laid, i) for i in range(len(world.laid)) if i not in seen]
        redeal(places, rng, group=lambda value: value & 1)
        start, world.plays = 0, []
        for who, cards, declared in self.plays:  # the plays hold the cards laid
            world.plays.append((who, tuple(world.laid[start:start + len(cards)]), declared))
            start += len(cards)
        return world

    def lies(self, seat: int) -> int:
        """The others' plays of this trick whose cards do not add up to their declaration
        (a challenged play is shown, and the same in every sample)."""
        return sum(sum(cards) != declared for who, cards, declared in self.plays
                   if who != seat)

    # -- what a seat sees ----------------------------------------------------------------

    def observation(self, seat: int) -> dict:
        """The seat's hand and its own cards laid this trick; for everyone: the backs in
        each hand, the piles' sizes, each play's seat, backs and declaration, passes in a
        row, the pile a pass must use (None: either), cards flipped by a challenge, VP,
        captures and the deck's composition. The trick's winner also sees the cards it
        may keep."""
        return {
            "seat": seat,
            "hand": tuple(sorted(self.hands[seat])),
            "mine": tuple(card for who, cards, _ in self.plays if who == seat
                          for card in cards),
            "backs": tuple(map(backs, self.hands)),
            "piles": (len(self.piles[0]), len(self.piles[1])),
            "plays": tuple((who, tuple(COLOURS[c & 1] for c in cards), declared)
                           for who, cards, declared in self.plays),
            "passes": self.passes,
            "pass_from": None if self.last_draw is None else COLOURS[1 - self.last_draw],
            "revealed": self.revealed,
            "keep_from": (tuple(sorted(self.laid[-LAST_CARDS:]))
                          if self.winner == seat else ()),
            "dealer": self.dealer, "vp": tuple(self.vp),
            "captured_by": tuple(self.captured_by), "dry": self.dry,
            "deck": dict(self.deck),  # a copy: a bot cannot change the game's
        }


def backs(hand: list[int]) -> tuple[int, int]:
    """How many blue and how many yellow cards a hand holds.

    >>> backs([0, 3, 4])
    (2, 1)
    """
    yellow = len([card for card in hand if card & 1])
    return len(hand) - yellow, yellow


def lays(hand: list[int]) -> list[tuple[int, ...]]:
    """The distinct ways to lay 1 or 2 cards from a hand, in laying order.

    >>> lays([2, 0, 2])
    [(0,), (2,), (0, 2), (2, 0), (2, 2)]
    """
    values = sorted(set(hand))
    pairs = list(permutations(values, 2))
    pairs += [(v, v) for v in values if hand.count(v) > 1]
    return [(v,) for v in values] + sorted(pairs)


def card_name(value: int) -> str:
    """A card as the per-card figures name it: its value and colour.

    >>> card_name(0), card_name(5)
    ('rule card (0, blue)', '5 (yellow)')
    """
    colour = COLOURS[value & 1]
    return f"rule card (0, {colour})" if value == RULE_CARD else f"{value} ({colour})"


def new_state(players: int, rng: random.Random,
              cards: dict[int, int] | None = None) -> BlofaState:
    """Deal a game: each colour shuffled apart, 2 of each to every seat, the rest of each
    colour face down as its draw pile. ``cards`` is a composition {value: copies} from
    :func:`cards_from_deck` (None: the bundled deck's)."""
    if players != rules.PLAYERS:
        raise RulesError(f"Blófa is for {rules.PLAYERS} players, not {players}",
                         f"play with {rules.PLAYERS}")
    deck = playable(cards or rules.DISTRIBUTION)
    colours = [[], []]
    for value, copies in sorted(deck.items()):
        colours[value & 1] += [value] * copies
    for colour in colours:
        rng.shuffle(colour)
    hands = [colours[0][DEALT * s:DEALT * s + DEALT] + colours[1][DEALT * s:DEALT * s + DEALT]
             for s in range(players)]
    piles = [colour[DEALT * players:] for colour in colours]
    return BlofaState(hands, piles, rng, deck)


def cards_from_deck(cards: list[dict]) -> dict[int, int]:
    """A printed deck (one dict a copy) -> its composition {value: copies}, refused when a
    card has no whole-number ``value`` or a back that is not its value's colour (blue
    even, yellow odd: the backs are the game's clue), or when :func:`playable` refuses it.

    >>> cards_from_deck([{"value": v, "back": "yellow" if v % 2 else "blue"}
    ...                  for v in [0] * 3 + [2] * 5 + [1] * 8])
    {0: 3, 2: 5, 1: 8}
    """
    counts: Counter = Counter()
    for index, card in enumerate(cards):
        value = card.get("value")
        if isinstance(value, bool) or not isinstance(value, int):
            raise RulesError("it has no value" if value in (None, "") else
                             f"its value {value!r} is not a whole number", "Blófa's rules "
                             "read each card's 'value' field: give every card a whole number "
                             "from 0 to 5", card=index)
        if card.get("back") != COLOURS[value & 1]:
            raise RulesError(f"a {value} has a {card.get('back')!r} back",
                             "blue backs are for even values, yellow for odd", card=index)
        counts[value] += 1
    return playable(dict(counts))


def playable(deck: dict[int, int]) -> dict[int, int]:
    """The composition itself, if a game can be dealt from it: at least 8 cards of each
    colour (2 for each seat) and at least one rule card.

    >>> playable({0: 3, 2: 5, 1: 7})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    cardkit.rules.errors.RulesError: the deck has 7 yellow cards; the deal needs at least 8
    """
    for parity, colour in enumerate(COLOURS):
        held = sum(n for value, n in deck.items() if value & 1 == parity)
        if held < DEALT * rules.PLAYERS:
            raise RulesError(f"the deck has {held} {colour} cards",
                             f"the deal needs at least {DEALT * rules.PLAYERS}")
    if not deck.get(RULE_CARD):
        raise RulesError("the deck has no rule card", "add at least one blue 0")
    return dict(deck)


# -- bots ---------------------------------------------------------------------------------

def truth_chance(observation: dict) -> float:
    """The chance that the last play's cards add up to its declaration, if they were any
    unseen cards of their colours: the deck less this seat's hand, its own cards laid this
    trick and the captured rule cards.

    >>> obs = {"deck": {0: 3, 1: 5, 2: 4, 3: 3, 4: 2, 5: 1}, "hand": (1, 1, 3, 5),
    ...        "mine": (), "captured_by": (), "plays": ((0, ("yellow",), 3),)}
    >>> truth_chance(obs)  # five unseen yellows, two of them 3s
    0.4
    """
    unseen = Counter(observation["deck"])
    unseen.subtract(observation["hand"] + observation["mine"])
    unseen[RULE_CARD] -= len(observation["captured_by"])
    _, backs, declared = observation["plays"][-1]
    pools = [[(v, n) for v, n in unseen.items() if n > 0 and COLOURS[v & 1] == back]
             for back in backs]
    sizes = [sum(n for _, n in pool) for pool in pools]
    if len(backs) == 1:
        return sum(n for v, n in pools[0] if v == declared) / max(sizes[0], 1)
    same = backs[0] == backs[1]
    hits = sum(n * (m - (same and v == w)) for v, n in pools[0] for w, m in pools[1]
               if v + w == declared)
    return hits / max(sizes[0] * (sizes[1] - same), 1)


class BluffBot(Bot):
    """A player who tells the truth when it can, sheds rule cards, bluffs now and then and
    calls declarations that the cards it cannot see would rarely make.

    * ``call_threshold``: challenge when :func:`truth_chance` of the last play is below it.
    * ``pass_preference``: the chance of passing (when allowed) although a true play exists.
    * ``bluff_rate``: the chance of lying when no true play exists or none is wanted;
      otherwise it passes, or challenges when it may not pass (a dealer always lies).

    Plays laying the most rule cards come first; a lie prefers a declaration whose parity
    matches the backs laid. A pass draws yellow when it may (the rule cards are blue). The
    trick's winner captures a rule card when offered one, else keeps a 1 or 2 to open the
    next trick truthfully, else its highest card.
    """

    fair = True  # plays from its observation alone: the search follows it

    PARAMS = {"bluff_rate": 0.2, "call_threshold": 0.15, "pass_preference": 0.1}

    def choose(self, observation, moves, rng):
        if moves[0][0] == "keep":
            return max(moves, key=lambda m: (m[1] == RULE_CARD, m[1] in (1, 2), m[1]))
        if "challenge" in moves and truth_chance(observation) < self.params["call_threshold"]:
            return "challenge"
        passes = [m for m in moves if m[0] == "pass"]
        plays = [m for m in moves if m[0] == "play"]
        truths = [m for m in plays if sum(m[1]) == m[2]]
        if truths and not (passes and rng.random() < self.params["pass_preference"]):
            return _best(truths, rng)
        lies = [m for m in plays if sum(m[1]) != m[2]]
        opening = "challenge" not in moves
        if lies and (opening or rng.random() < self.params["bluff_rate"]):
            return _best(lies, rng)
        return passes[-1] if passes else "challenge"  # yellow when both piles are allowed


def _best(plays: list, rng: random.Random):
    """The plays laying the most rule cards, then with the parity the backs suggest, then
    the lowest declaration; one of them at random."""
    def key(move):
        _, cards, declared = move
        return (cards.count(RULE_CARD), sum(cards) % 2 == declared % 2, -declared)
    top = max(map(key, plays))
    best = [m for m in plays if key(m) == top]
    return best[rng.randrange(len(best))]


GAME = Game(name="blofa", title="Blófa Cards", players=(rules.PLAYERS,),
            default_players=rules.PLAYERS, new_state=new_state,
            # the search compares its guide's move with 4 others by 24 paired rollouts of
            # the guide: more than a fair share against it, in 0.7 s a game (docs)
            bots={"random": RandomBot, "heuristic": BluffBot,
                  "search": SearchBot.tuned(compare=4.0, iterations=24.0)},
            cards_from_deck=cards_from_deck, score_unit="points", score_figures=("vp",),
            rulings=("Seat 0 deals first.",
                     "The colour of every held card is public (bots may read it).",
                     "'The last player' of the pass rule is the trick's last passer."))
