"""Rise Up, the solitaire roguelike, as a playable state machine.

The player's joker fights through three stages, each a 3x3 grid of face-down rooms. Entering
a room costs abilities (face-up cards) whose strength must reach the room's; the room's cards
then become abilities. Winning the room that holds the stage's ace clears the stage; clearing
the third wins the game. Strength, fights, stage sizes and the joker's steps come from
:mod:`cardkit.rules.rise_up`, so the simulator and ``cardkit check`` share one reading.

Cards are named as in poker ('5H', '10D', 'AS'); a designer's deck holding a card twice names
the second copy '5H#2'. Rooms are (row, column), 1-3 each, row 1 first. A move is one of:

- ``("heart", card)``: draw the top card of the unused pile as a new ability;
- ``("diamond", card, room)``: turn a face-down card of ``room`` face up;
- ``("spade", card, room, victim)``: remove ``victim`` (a face-up card, or ``"?"`` for a
  face-down one) from play;
- ``("club", card, room, victim, to)``: move ``victim`` from ``room`` to room ``to``;
- ``("room", room)``: choose the room to enter next; then
- ``("invest", card)``: set an ability aside for it, as often as wanted; then
- ``"fight"``: enter the room with the abilities set aside.

>>> import random
>>> state = new_state(1, random.Random(7))
>>> state.stage, [len(room) for room in state.rooms], len(state.abilities)
(1, [1, 1, 1, 2, 2, 2, 3, 3, 3], 4)
>>> sorted(move for move in state.legal_moves() if move[0] == "room")
[('room', (1, 1)), ('room', (1, 2)), ('room', (1, 3))]
"""

from __future__ import annotations

import copy
import random
from functools import lru_cache
from math import ceil

from ..rules.errors import RulesError
from ..rules.poker import DECK_SUITS, RANK_LETTERS, RANK_NAMES, RANKS, SUITS, Card
from ..rules.rise_up import (invested_strength, joker_move_legal, parse_card, removal_loses,
                             room_strength, stage_setup, strength, wins)
from ..toolkit.search import SearchBot, redeal
from ..toolkit.state import Bot, Game, IllegalMove, RandomBot, State

ROOMS = tuple((row, col) for row in (1, 2, 3) for col in (1, 2, 3))  # index 0..8, row 1 first
OUTSIDE = 9  # the joker's place beside row 1 before it enters the grid
NEIGHBOURS = tuple(tuple(j for j in range(9) if joker_move_legal(None if i == OUTSIDE
                                                                  else ROOMS[i], ROOMS[j]))
                   for i in range(10))
STANDARD_CARDS = tuple(RANK_NAMES[rank] + suit for suit in SUITS for rank in RANKS)
WIN = "cleared all three stages"
LOST_FIGHT = "a room stronger than the investment"
LOST_ACE = "removed the stage's ace"
SUIT_FIGURES = {"H": "hearts_used", "D": "diamonds_used", "S": "spades_used", "C": "clubs_used"}


@lru_cache(maxsize=None)
def card_of(name: str) -> Card:
    """The rules' card for a name, a second copy's '#2' dropped: card_of('5H#2') is 5H."""
    return parse_card(name.partition("#")[0])


@lru_cache(maxsize=None)
def power(name: str) -> int:
    """A card's strength (A = 1 ... K = 13)."""
    return strength(card_of(name))


def is_ace(name: str) -> bool:
    return card_of(name).rank == RANK_LETTERS["A"]


class RiseUpState(State):
    """One game of Rise Up. Every card is in exactly one place: the unused ``pile``, the
    ``aces`` not dealt yet, a room of ``rooms``, the ``abilities`` or ``out`` of play.

    Ruling (cardkit): walking through rooms already emptied costs nothing and reveals
    nothing, so the joker goes in one move to any non-empty room next to the empty rooms it
    can reach (:meth:`reachable`): the same games as step by step, without endless walks.
    """

    def __init__(self, rng, cards):
        self.players, self.rng, self.moves_made = 1, rng, 0
        self.aces = [card for card in cards if is_ace(card)]
        self.pile = [card for card in cards if not is_ace(card)]
        rng.shuffle(self.aces)
        self.rooms: list[list[str]] = [[] for _ in ROOMS]
        self.face_up: set[str] = set()  # the grid's face-up cards
        self.abilities: list[str] = []
        self.used: set[str] = set()  # abilities whose suit power has been used (turned)
        self.out: list[str] = []  # invested and removed cards
        self.stage, self.stage_ace, self.joker = 0, "", OUTSIDE
        self.target: int | None = None  # the room chosen to enter next
        self.invested: list[str] = []
        self.result = ""  # WIN, LOST_FIGHT or LOST_ACE once over
        self.rooms_won, self.short_deals = 0, 0
        self.fights = 0  # rooms entered, the last one lost included
        self.powers_used = dict.fromkeys(SUIT_FIGURES, 0)
        self.drawn: set[str] = set()  # the card record: every card that was an ability
        self.played: set[str] = set()  # abilities whose power was used, or invested
        self._legal: list | None = None
        self._set_up(1)

    # -- setup --------------------------------------------------------------------------

    def _set_up(self, stage: int) -> None:
        """Deal stage ``stage`` (sizes from :func:`stage_setup`): shuffle the drawn cards with
        a random ace not dealt yet, deal the grid row 1 first, draw the new abilities; stage 1
        also adds a random ace to the abilities. The joker goes back beside row 1.

        Ruling (cardkit): a new stage's deck is every card that is not an ability (the unused
        pile, the old grid, the invested and removed cards) but the aces, shuffled: the text
        needs 90 draws from 48 cards, so the cards must come back.
        Ruling (cardkit): abilities carried into a new stage are turned back (unused, full
        strength); an ace ability once used stays used, as the text says it is once a game.
        Ruling (cardkit): when the deck runs short, the grid is dealt first and the last rooms
        get fewer cards, then fewer new abilities are drawn (counted in ``short_deals``).
        """
        setup = stage_setup(stage)
        self.stage, self.joker = stage, OUTSIDE
        leftovers = self.out + [card for room in self.rooms for card in room]
        self.out = [card for card in leftovers if is_ace(card)]
        self.pile += [card for card in leftovers if not is_ace(card)]
        self.rng.shuffle(self.pile)
        short = len(self.pile) < setup["drawn"] + setup["abilities"]
        self.short_deals += short
        grid = self._draw(setup["drawn"])
        self.stage_ace = self.aces.pop()
        grid.append(self.stage_ace)
        self.rng.shuffle(grid)
        self.face_up.clear()
        for i, size in enumerate(size for size in setup["per_room"] for _ in range(3)):
            self.rooms[i], grid = grid[:size], grid[size:]
        self.used = {card for card in self.used if is_ace(card)}
        self._gain(self._draw(setup["abilities"]))
        if setup["ace_ability"]:
            self._gain([self.aces.pop()])

    def _draw(self, n: int) -> list[str]:
        """The top ``n`` cards of the unused pile, or all it has."""
        drawn = self.pile[max(0, len(self.pile) - n):]
        del self.pile[max(0, len(self.pile) - n):]
        return drawn

    def _gain(self, cards: list[str]) -> None:
        """``cards`` become abilities."""
        self.abilities += cards
        self.drawn.update(cards)

    # -- what the player may do ---------------------------------------------------------

    def current_player(self) -> int:
        return 0

    def is_over(self) -> bool:
        return bool(self.result)

    def reachable(self) -> list[int]:
        """The non-empty rooms the joker can enter: next to its room, or to an empty room it
        can walk to (from beside row 1: any room of row 1)."""
        seen, todo, found = {self.joker}, [self.joker], []
        while todo:
            for room in NEIGHBOURS[todo.pop()]:
                if room not in seen:
                    seen.add(room)
                    (found if self.rooms[room] else todo).append(room)
        return sorted(found)

    def victims(self, i: int) -> list[str]:
        """What a spade or a club can take from room ``i``: each face-up card by name, and
        "?" for one of the face-down cards (all alike to the player)."""
        up = [card for card in self.rooms[i] if card in self.face_up]
        return up + ["?"] if len(up) < len(self.rooms[i]) else up

    def legal_moves(self) -> list:
        if self._legal is None:
            self._legal = [] if self.result else self._moves()
        return list(self._legal)  # a copy: a bot cannot change what is legal

    def _moves(self) -> list:
        """Choosing a room starts the entry: from then on only investing and fighting.

        Ruling (cardkit): a spade removes and a club moves a card of the grid (never an
        ability); a club may move a card to any other room but the joker's; hearts need a
        card left in the unused pile. A fight may be started with any investment, even none.
        """
        if self.target is not None:
            return [("invest", card) for card in self.abilities
                    if card not in self.invested] + ["fight"]
        moves: list = [("room", ROOMS[i]) for i in self.reachable()]
        unused = [card for card in self.abilities if card not in self.used]
        if not unused:
            return moves
        taken = [(i, victim) for i in range(9) for victim in self.victims(i)]
        open_rooms = [j for j in range(9) if j != self.joker]  # where a club may put a card
        for card in unused:
            suit = card_of(card).suit
            if suit == "H":
                moves += [("heart", card)] if self.pile else []
            elif suit == "D":
                moves += [("diamond", card, ROOMS[i]) for i, victim in taken if victim == "?"]
            elif suit == "S":
                moves += [("spade", card, ROOMS[i], victim) for i, victim in taken]
            else:
                moves += [("club", card, ROOMS[i], victim, ROOMS[j]) for i, victim in taken
                          for j in open_rooms if j != i]
        return moves

    # -- making a move ------------------------------------------------------------------

    def apply(self, move) -> None:
        legal = self._legal if self._legal is not None else self.legal_moves()
        if self.result or move not in legal:  # the cached list: a copy a move costs time
            raise IllegalMove(f"{move} is not a legal move now")
        self._legal = None
        self.moves_made += 1
        if move == "fight":
            self._fight()
        elif move[0] == "room":
            self.target = ROOMS.index(move[1])
        elif move[0] == "invest":
            self.invested.append(move[1])
            self.played.add(move[1])
        else:
            self._use_power(*move)

    def _use_power(self, suit_name, card, room=None, victim=None, to=None) -> None:
        """Turn ``card`` (used: it counts 1 less from now on) and do what its suit does.

        Hearts: the top card of the unused pile becomes an ability. Diamonds: a face-down
        card of the room turns face up. Spades: the card leaves play; removing the stage's
        ace loses the game. Clubs: the card goes to room ``to``, face up or down as it was.
        """
        self.used.add(card)
        self.played.add(card)
        self.powers_used[card_of(card).suit] += 1
        if suit_name == "heart":
            self._gain([self.pile.pop()])
            return
        cards = self.rooms[ROOMS.index(room)]
        hidden = [c for c in cards if c not in self.face_up]
        if suit_name == "diamond":
            self.face_up.add(hidden[0])
            return
        taken = hidden[0] if victim == "?" else victim
        cards.remove(taken)
        if suit_name == "club":
            self.rooms[ROOMS.index(to)].append(taken)
            return
        self.face_up.discard(taken)
        self.out.append(taken)
        if removal_loses(card_of(taken), card_of(self.stage_ace)):
            self.result = LOST_ACE

    def _fight(self) -> None:
        """Enter the chosen room. Invested strength reaching the room's wins it: the invested
        abilities leave play, the room's cards become (unused) abilities and the joker stands
        there; if the stage's ace was among them the stage is cleared. Falling short loses."""
        i, cards = self.target, self.rooms[self.target]
        self.fights += 1
        mine = invested_strength([(card_of(c), c in self.used) for c in self.invested])
        if not wins(mine, room_strength(card_of(c) for c in cards)):
            self.result = LOST_FIGHT
            return
        for card in self.invested:
            self.abilities.remove(card)
            self.used.discard(card)
        self.out += self.invested
        self._gain(cards)
        self.face_up.difference_update(cards)
        self.rooms[i], self.joker, self.target, self.invested = [], i, None, []
        self.rooms_won += 1
        if self.stage_ace in cards:
            if self.stage == 3:
                self.result = WIN
            else:
                self._set_up(self.stage + 1)

    # -- the end and what the player sees ------------------------------------------------

    def returns(self) -> list[float]:
        return [1.0 if self.result == WIN else 0.0]

    def scores(self) -> list[float]:
        """The rooms won over the whole game."""
        return [float(self.rooms_won)]

    def turns(self) -> int:
        """A turn ends with entering a room (the powers used, the room chosen, the
        investment and the fight), so turns are the rooms entered."""
        return self.fights

    def card_record(self) -> list[dict]:
        """The player's cards by name (a second copy's '#2' dropped): ``drawn`` became
        abilities (dealt, drawn by a heart, won in a room), ``played`` had their power
        used or were invested in a fight, ``held`` are the abilities at the end."""
        def names(cards) -> list[str]:
            return sorted({card.partition("#")[0] for card in cards})
        return [{"drawn": names(self.drawn), "played": names(self.played),
                 "held": names(self.abilities)}]

    def determinized(self, seat: int, rng: random.Random) -> RiseUpState:
        """The game as the player might believe it: the face-down cards of the grid and the
        unused pile dealt again among those places, the stage's ace (while face down) in
        a random face-down place of the grid, and which ace it is drawn again with the
        aces not dealt yet."""
        world = copy.copy(self)
        world.rooms = [list(room) for room in self.rooms]
        world.pile, world.aces = list(self.pile), list(self.aces)
        world.abilities, world.out = list(self.abilities), list(self.out)
        world.invested, world.face_up, world.used = list(self.invested), set(self.face_up), \
            set(self.used)
        world.powers_used = dict(self.powers_used)
        world.drawn, world.played = set(self.drawn), set(self.played)
        world.rng, world._legal = rng, None
        down = [(room, i) for room in world.rooms for i, card in enumerate(room)
                if card not in self.face_up]
        ace = next((place for place in down if place[0][place[1]] == self.stage_ace), None)
        redeal([place for place in down if place is not ace]
               + [(world.pile, i) for i in range(len(world.pile))], rng)
        if ace is not None:  # the ace may lie in any face-down place of the grid
            room, i = down[rng.randrange(len(down))]
            ace[0][ace[1]], room[i] = room[i], ace[0][ace[1]]
            aces = [(room, i)] + [(world.aces, j) for j in range(len(world.aces))]
            redeal(aces, rng)
            world.stage_ace = room[i]
        else:
            redeal([(world.aces, j) for j in range(len(world.aces))], rng)
        return world

    def observation(self, seat: int = 0) -> dict:
        """All that is face up (abilities, revealed grid cards, cards out of play), how many
        cards lie face down in each room and in the pile, and their total strength (which the
        player can work out from the cards seen)."""
        up = [tuple(c for c in room if c in self.face_up) for room in self.rooms]
        hidden = [c for room in self.rooms for c in room if c not in self.face_up] + self.pile
        return {"stage": self.stage,
                "abilities": tuple((card, card in self.used) for card in self.abilities),
                "rooms": tuple((seen, len(room) - len(seen))
                               for seen, room in zip(up, self.rooms)),
                "joker": None if self.joker == OUTSIDE else ROOMS[self.joker],
                "target": None if self.target is None else ROOMS[self.target],
                "invested": tuple(self.invested),
                "pile": len(self.pile), "out": tuple(self.out),
                "hidden_cards": len(hidden), "hidden_strength": sum(map(power, hidden))}

    def figures(self) -> dict[str, float | int | str]:
        """Stage reached, rooms won, suit powers used, short deals and how the game ended."""
        return {"stage": self.stage, "rooms_won": self.rooms_won,
                **{SUIT_FIGURES[suit]: n for suit, n in self.powers_used.items()},
                "short_deals": self.short_deals, "end": self.result}


# -- decks --------------------------------------------------------------------------------

def new_state(players: int, rng, cards=None) -> RiseUpState:
    """A new game for one player; ``cards`` are card names (None: the 52 standard cards)."""
    if players != 1:
        raise RulesError(f"Rise Up is played by one player, not {players}", "use 1 player")
    return RiseUpState(rng, list(STANDARD_CARDS if cards is None else cards))


def cards_from_deck(cards: list[dict]) -> list[str]:
    """A printed deck's playing cards as names ('5H', a second copy '5H#2'). Cards with
    neither rank nor suit (the reference cards) are skipped. The deck needs a joker (the
    player's piece), four aces (three stages and the first stage's ability) and 20 other
    cards (the first stage's grid and abilities).

    >>> cards_from_deck([{"rank": "5", "suit": "heart"}] * 2 + [{"rank": "A", "suit": "club"}])
    Traceback (most recent call last):
    ...
    cardkit.rules.errors.RulesError: the deck has no joker; add one joker: it is the player's piece
    """
    suits = {name: letter for letter, name in DECK_SUITS.items()}
    ranks = {name: rank for rank, name in RANK_NAMES.items()}
    names, jokers = [], 0
    for number, card in enumerate(cards, 1):
        rank, suit = card.get("rank", ""), card.get("suit", "")
        if rank == "Joker":
            jokers += 1
        elif rank or suit:
            if rank not in ranks or suit not in suits:
                raise RulesError(f"rank {rank!r} and suit {suit!r} are not a playing card",
                                 "give every playing card a rank (A, 2-10, J, Q, K) and a suit"
                                 " (heart, diamond, spade, club)", card=number - 1)
            name = RANK_NAMES[ranks[rank]] + suits[suit]
            copy = sum(n.partition("#")[0] == name for n in names) + 1
            names.append(name if copy == 1 else f"{name}#{copy}")
    aces = sum(map(is_ace, names))
    if not jokers:
        raise RulesError("the deck has no joker", "add one joker: it is the player's piece")
    if aces < 4:
        raise RulesError(f"the deck has {aces} aces", "Rise Up needs 4: one for each stage "
                         "and the first stage's ability")
    if len(names) - aces < 20:
        raise RulesError(f"the deck has {len(names) - aces} cards that are not aces",
                         "the first stage alone deals 17 into the grid and 3 abilities: "
                         "give it 20 at least")
    # in the bundled deck's order, whatever the file's: the same cards, the same games
    return sorted(names, key=lambda name: STANDARD_CARDS.index(name.partition("#")[0])
                  * 100 + int(name.partition("#")[2] or 1))


# -- bots ---------------------------------------------------------------------------------

class DelverBot(Bot):
    """A careful delver: goes for the ace when it can see it, else for the cheapest room it
    can reach; before entering uses its suit powers on that room, then pays what the room
    should cost, a face-down card counted at the average strength of the unseen cards.

    - ``margin`` (4.0): strength added per face-down card of the room, as a safety.
    - ``greedy`` (1.0): at 0.5 or more, invest the smallest total that reaches the need;
      below, invest the strongest abilities first.
    - ``use_abilities`` (1.0): the chance of using a helpful suit power before entering.
    - ``spade_risk`` (0.03): the highest chance of hitting the stage's ace accepted when
      removing a face-down card blind.
    """

    fair = True  # plays from its observation alone: the search follows it

    PARAMS = {"margin": 4.0, "greedy": 1.0, "use_abilities": 1.0, "spade_risk": 0.03}
    RANGES = {"margin": (0.0, 13.0)}  # strength a face-down card may add: a king's at most

    def choose(self, observation, moves, rng):
        if observation["target"] is not None:
            return self._invest(observation)
        target = self._target(observation, moves)
        if rng.random() < self.params["use_abilities"]:
            legal = set(moves)
            for move in self._powers(observation, target):
                if move in legal:
                    return move
        return "room", target

    def _need(self, obs, room) -> int:
        up, down = obs["rooms"][ROOMS.index(room)]
        mean = obs["hidden_strength"] / obs["hidden_cards"] if obs["hidden_cards"] else 0
        return ceil(sum(map(power, up)) + down * (mean + self.params["margin"]))

    def _target(self, obs, moves):
        rooms = [move[1] for move in moves if move[0] == "room"]
        ace = _ace_room(obs)
        if ace is None:
            return min(rooms, key=lambda room: self._need(obs, room))
        return min(rooms, key=lambda room: (abs(room[0] - ace[0]) + abs(room[1] - ace[1]),
                                            self._need(obs, room)))

    def _powers(self, obs, target):
        """Suit powers worth using before entering ``target``, best first: bring the ace
        into it, look into it, take its strongest card out, draw. A once-a-game ace is
        used only when no other card has the suit."""
        first: dict[str, str] = {}
        for card, used in sorted(obs["abilities"], key=lambda ability: is_ace(ability[0])):
            if not used:
                first.setdefault(card_of(card).suit, card)
        club, diamond, spade, heart = (first.get(suit) for suit in "CDSH")
        up, down = obs["rooms"][ROOMS.index(target)]
        strongest = max((c for c in up if not is_ace(c)), key=power, default=None)
        ace = _ace_room(obs)
        if club and ace not in (None, target):
            yield "club", club, ace, next(filter(is_ace, obs["rooms"][ROOMS.index(ace)][0])), \
                target
        if diamond and down:
            yield "diamond", diamond, target
        if spade and strongest:
            yield "spade", spade, target, strongest
        if club and strongest:
            away = [room for room in ROOMS if room not in (target, obs["joker"], ace)]
            yield "club", club, target, strongest, away[-1]
        if spade and down and ace is None and \
                sum(n for _, n in obs["rooms"]) * self.params["spade_risk"] >= 1:
            yield "spade", spade, target, "?"
        if heart:
            yield "heart", heart

    def _invest(self, obs):
        """The next ability to set aside for the chosen room, or "fight" once enough is."""
        values = {card: power(card) - used for card, used in obs["abilities"]}
        need = self._need(obs, obs["target"]) - sum(values[c] for c in obs["invested"])
        free = [(values[c], c) for c, _ in obs["abilities"]
                if c not in obs["invested"] and values[c] > 0]
        if need <= 0 or not free:
            return "fight"
        if sum(v for v, _ in free) <= need:
            return "invest", free[0][1]
        if self.params["greedy"] >= 0.5:
            return "invest", _cheapest_cover(free, need)[0]
        return "invest", max(free)[1]


def _ace_room(obs):
    """The room where the stage's ace lies face up, if it does."""
    return next((room for room, (up, _) in zip(ROOMS, obs["rooms"]) if any(map(is_ace, up))),
                None)


def _cheapest_cover(free: list[tuple[int, str]], need: int) -> list[str]:
    """The cards whose values add up to the least total reaching ``need`` (subset sum).

    >>> _cheapest_cover([(9, "9S"), (5, "5H"), (4, "4C"), (2, "2D")], 6)
    ['4C', '2D']
    """
    best: dict[int, list[str]] = {0: []}
    for value, card in free:
        for total, chosen in list(best.items()):
            if total < need and total + value not in best:
                best[total + value] = chosen + [card]
    return best[min(total for total in best if total >= need)]


GAME = Game(name="rise-up", title="Rise Up", players=(1,), default_players=1,
            new_state=new_state,
            # the search at 100 samples a move plays a game within 2 s on one core (docs)
            bots={"random": RandomBot, "heuristic": DelverBot,
                  "search": SearchBot.tuned(iterations=100.0)},
            cards_from_deck=cards_from_deck, score_unit="rooms won",
            rulings=("Cards come back each stage (the text needs more draws than the deck "
                     "holds).",
                     "Abilities are turned back unused at each new stage, but a used ace "
                     "stays used."))
