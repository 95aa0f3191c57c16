"""A card game on piles: the class a designer's rules file extends.

A game writes four methods, in its own words: ``setup`` (make the piles, shuffle, deal),
``moves`` (what the seat to play may do now), ``play`` (do one of them) and ``scores``.
The toolkit gives the rest: seats and turn order, legality (a move must be one ``moves``
offered), the end, who won, and each seat's observation, made from the piles'
visibility, so a bot can never see a card its seat could not.

>>> import random
>>> from cardkit.toolkit import Card, HIDDEN, PUBLIC
>>> class HighCard(CardGame):
...     '''Each player draws a card, or stops; the highest single card wins.'''
...     player_counts = (2,)
...     fields = {"value": int}
...     def setup(self):
...         self.deck = self.pile("deck", HIDDEN, self.cards)
...         self.deck.shuffle()
...         self.kept = self.seat_piles("kept", PUBLIC)
...     def moves(self):
...         return ["draw", "stop"] if self.deck else ["stop"]
...     def play(self, move):
...         if move == "draw":
...             self.deck.move_top(self.kept[self.seat])
...         self.public["stopped"] = self.public.get("stopped", 0) + (move == "stop")
...         if self.public["stopped"] == 2:
...             self.end()
...         self.next_seat()
...     def scores(self):
...         return [max((c.value for c in pile), default=0) for pile in self.kept]
>>> game = HighCard(2, random.Random(3), [Card(i, {"value": i}) for i in range(1, 6)])
>>> game.legal_moves(), game.current_player()
(['draw', 'stop'], 0)
>>> game.apply("draw"); game.apply("draw"); game.apply("stop"); game.apply("stop")
>>> game.is_over(), game.scores(), game.returns()
(True, [2, 5], [0.0, 1.0])
>>> game.observation(1)["piles"]
{'deck': 3, 'kept': ((card 2,), (card 5,))}

Why one module: :class:`CardGame` is the one class a designer extends, and its parts (the
piles it keeps, legality, the runner's random loop, the samples a search plays on) read
and write the same attributes of the game; split, each part would reach into the others.
"""

from __future__ import annotations

import random
from functools import partial

from ..rules.errors import RulesError
from .kept_outside import KeptOutside
from .moves import REMEMBERED, look_of, offered_in_run, offered_once, one_copy, taking
from .search import redeal
from .state import IllegalMove, State, copied
from .zones import (BACKS, HIDDEN, OWNER, PUBLIC, CardJournal, Groups, Pile, made_pile,
                    place_of)

HOLDERS = frozenset({Pile, Groups})  # what the rules' own attributes may name


class CardGame(State):
    """A game in progress, for ``players`` seats, with chance from ``rng`` and the deck's
    printed ``cards`` (see :class:`~cardkit.toolkit.cards.Card`).

    What a subclass declares:

    - ``title``: the game's name in reports (the class name if left out);
    - ``score_unit``: what :meth:`scores` counts, for reports ("points", "coins");
    - ``player_counts``: the numbers of players the game allows, the usual one first;
    - ``fields``: each card field the rules read, with its type (``int``, ``float``,
      ``str``, ``bool``) or the values it may take (a tuple): checked on every card before
      a game is played, so a card without one is named with its file and line;
    - ``bots``: its own bots by name (``random`` is always there);
    - ``distinct_copies = True`` if identical copies of a card are to be offered as moves
      of their own (by default moves that differ only in which of them they name are
      offered once: the first; see :meth:`legal_moves`);
    - ``figures()`` and ``seat_figures()``, if it keeps figures for the report: numbers
      or words for the game, one dict of numbers a seat;
    - ``score_figures``: the seat figures that are the score or a part of it ("vp"): they
      define winning, so the report does not list them among what winners do (one equal
      to the score in every game is left out without being named);
    - ``rulings``: how the rules read a question the game's text leaves open, a sentence
      each (a paragraph "Ruling: ..." in the class's or a method's docstring is one too):
      the report lists them beside the figures they move.

    What the toolkit keeps, for the rules to read and change:

    - ``seat``: the seat to play (0 .. players-1); :meth:`next_seat` passes to the left;
    - the turns taken (:meth:`turns`) and where each card went (the per-card figures);
    - ``public``: values every seat sees (scores so far, the round, a claim made);
    - ``private[seat]``: values only that seat sees;
    - the piles made with :meth:`pile` and :meth:`seat_piles`, and the groups (piles made
      during play: sets, melds, tricks) of :meth:`groups` and :meth:`seat_groups`: every
      card is always in exactly one of them.

    The rules' own attributes may only name piles and groups (``self.deck = self.pile(...)``): a
    game that keeps any other value of its own (``self.answer = ...``, a card, a
    function) is refused with :class:`KeptOutside`, as no visibility says who sees it.
    """

    title = ""
    score_unit = "points"
    score_figures: tuple[str, ...] = ()
    rulings: tuple[str, ...] = ()
    player_counts: tuple[int, ...] = (2,)
    fields: dict = {}
    bots: dict = {}
    distinct_copies = False  # True: each identical copy of a card is a move of its own
    # the class the search's samples are of (None: this one): for a rules file, the file
    # imported again as a module of its own, which shares no module state with this game
    samples_class: type | None = None

    def __init__(self, players: int, rng: random.Random, cards, *, checking: bool = True):
        self.players, self.rng = players, rng
        self.cards = tuple(cards)
        self.offered = offered_in_run(self.cards, self.distinct_copies)
        self.seat = 0
        self.public: dict = {}
        self.private: list[dict] = [{} for _ in range(players)]
        self.piles: dict[str, Pile | list[Pile]] = {}
        self.moves_made = 0
        self.turns_taken = 0
        self.ended = False
        self._legal: tuple | None = None
        # whether each move is checked against moves() (and each list of moves for a value
        # that can change), and the rules' own attributes as the game is made and after
        # each move: the runner leaves it on for --check and a run's first games. Off, the
        # runner checks the attributes once, at the end (refuse_undeclared): reading a
        # game's __dict__ makes Python keep its attributes in a dict of their own, which
        # slows every self.x the rules read or set after (2-3 times, on Python 3.11)
        self.checking = checking
        self.journal: CardJournal | None = None  # the deal is read at once, after setup()
        self._attributes = 0  # how many the game has: one more is a value the rules keep
        self.setup()
        holders = self._holders()
        piles = _piles_in(holders)
        self.journal = CardJournal(players)
        self.journal.begin(piles)
        for holder in holders:
            holder.journal = self.journal  # groups made during play are told of it too
        if checking:
            self.refuse_undeclared(holders + piles)

    # -- what a game writes ---------------------------------------------------------------

    def setup(self) -> None:
        """Make the piles, shuffle and deal: the table before the first move."""
        raise NotImplementedError

    def moves(self) -> list:
        """The moves the seat to play may make now: values that cannot change (strings,
        numbers, cards, and tuples of them, tuples inside included: ``("meld", (a, b))``)
        that read as the move. Never empty before the end."""
        raise NotImplementedError

    def play(self, move) -> None:
        """Make ``move`` (one that :meth:`moves` offered) for the seat to play, then pass
        the turn (:meth:`next_seat`) or :meth:`end` the game. To have the same seat decide
        again (discard down to seven, choose a target), call neither: note the step in
        ``public`` (``self.public["discarding"] = True``) and let :meth:`moves` offer
        what that step allows; the seat's turn goes on until :meth:`next_seat`."""
        raise NotImplementedError

    def winners(self) -> list[int]:
        """The seats that won, once the game is over: by default those with the best
        score (a tie shares the win). Return [] when nobody wins."""
        return _best(self.scores())

    # -- what the toolkit gives -------------------------------------------------------------

    def pile(self, name: str, visibility: str = HIDDEN, cards=(), owner: int | None = None) -> Pile:
        """A new pile called ``name`` (see :mod:`cardkit.toolkit.zones` for visibility),
        holding ``cards``; the game's deck is ``self.cards``."""
        made = made_pile(name, visibility, owner, place_of(name, visibility, owner), self.rng,
                         self.journal)
        made += cards
        self._keep(name, made)
        return made

    def seat_piles(self, name: str, visibility: str = OWNER) -> list[Pile]:
        """One empty pile a seat, all called ``name``: hands, the cards in front of each
        player. ``OWNER``: each seat sees its own faces only."""
        made = [made_pile(name, visibility, seat, place_of(name, visibility, seat), self.rng,
                          self.journal) for seat in range(self.players)]
        self._keep(name, made)
        return made

    def groups(self, name: str, visibility: str = PUBLIC) -> Groups:
        """Groups called ``name``, none yet: ``groups.new()`` makes one during play (a meld
        on the table, a trick). Each group is a pile of ``visibility``, seen as any pile.

        >>> from cardkit.toolkit import Card
        >>> class Melds(CardGame):
        ...     def setup(self):
        ...         self.hands = self.seat_piles("hand")
        ...         self.hands[0].cards = list(self.cards)
        ...         self.sets = self.seat_groups("sets", PUBLIC)
        ...     def scores(self): return [len(sets) for sets in self.sets]
        >>> game = Melds(2, random.Random(1), [Card(i, {"name": n}) for i, n in enumerate("AAB")])
        >>> meld = game.sets[0].new(); game.hands[0].move_top(meld, 2)
        [B, A]
        >>> game.sets[0][-1].top, game.scores(), game.observation(1)["piles"]["sets"]
        (A, [1, 0], (((B, A),), ()))
        """
        made = Groups(name, visibility, None, self.rng)
        made.journal = self.journal
        self._keep(name, made)
        return made

    def seat_groups(self, name: str, visibility: str = PUBLIC) -> list[Groups]:
        """One :meth:`groups` a seat, all called ``name``: each player's sets, the tricks
        each has won (``HIDDEN``: face down, counted)."""
        made = [Groups(name, visibility, seat, self.rng) for seat in range(self.players)]
        for groups in made:
            groups.journal = self.journal
        self._keep(name, made)
        return made

    def _holders(self) -> list:
        """Every pile and every set of groups made with the methods above."""
        found = []
        for kept in self.piles.values():
            found.extend(kept if type(kept) is list else (kept,))  # a pile is a list too
        return found

    def _keep(self, name: str, pile) -> None:
        if name in self.piles:
            raise ValueError(f"there is a pile called {name!r} already; give each its own name")
        self.piles[name] = pile

    def deal(self, source: Pile, piles: list[Pile], count: int) -> None:
        """Deal ``count`` cards to each of ``piles`` from the top of ``source``, one at a
        time round the table, starting with the first pile.

        >>> import random
        >>> from cardkit.toolkit import Card
        >>> class Table(CardGame):  # a table with no rules yet
        ...     def setup(self): pass
        ...     def scores(self): return [0, 0]
        >>> game = Table(2, random.Random(1), [Card(i, {"name": n}) for i, n in enumerate("ABCDE")])
        >>> deck, hands = game.pile("deck", HIDDEN, game.cards), game.seat_piles("hand")
        >>> game.deal(deck, hands, 2); hands, deck
        ([hand of seat 0: [E, C], hand of seat 1: [D, B]], deck: [A])
        """
        seats = len(piles)
        taken = max(0, min(count * seats, len(source)))
        dealt = source[:len(source) - taken - 1:-1]  # in the order drawn: the top first
        del source[len(source) - taken:]
        for at, pile in enumerate(piles):  # the first pile gets the 1st, n+1st ... drawn
            cards = dealt[at::seats]
            pile += cards
            if pile.journal is not None and cards and pile.place is not source.place:
                pile.journal.flows[source.place, pile.place] += cards  # once a pile

    def next_seat(self) -> None:
        """Pass the turn to the left: the next seat, after the last seat the first."""
        self.seat = (self.seat + 1) % self.players

    def end(self) -> None:
        """End the game now: no more moves; it is scored."""
        self.ended = True

    def all_piles(self) -> list[Pile]:
        """Every pile of the game, a seat's piles in seat order, groups included."""
        return _piles_in(self._holders())

    def hidden_places(self, seat: int) -> dict:
        """The places (pile, index) whose card ``seat`` cannot see, by the back it sees
        there (a face-down card shows its back): any shuffle of the cards within a group
        changes nothing the seat may see."""
        groups: dict = {}
        for pile in self.all_piles():
            if not pile.faces_seen_by(seat):
                for i, card in enumerate(pile):
                    groups.setdefault(card.back, []).append((pile, i))
        return groups

    def determinized(self, seat: int, rng: random.Random) -> CardGame:
        """A game ``seat`` might be in: every card it cannot see dealt again at random
        among the places it cannot see that show the same back, with chance of its own
        from ``rng``. It is built from the seat's information only, never by copying the
        game: the piles (their hidden cards sorted, then dealt), ``public``, the seat's
        own ``private`` (the others' are left empty for :meth:`resample` to guess), the
        seat to play and the count of moves; the rules' own attributes may only name
        piles (:class:`KeptOutside` otherwise). Where a face-down pile holds more than
        one back, the seat knows which backs it holds, not in what order.

        >>> from cardkit.toolkit import Card, PUBLIC
        >>> class Table(CardGame):
        ...     def setup(self):
        ...         self.deck = self.pile("deck", HIDDEN, self.cards)
        ...         self.hands = self.seat_piles("hand")
        ...         self.deal(self.deck, self.hands, 1)
        ...     def scores(self): return [0, 0]
        >>> game = Table(2, random.Random(1), [Card(i, {"name": n}) for i, n in enumerate("ABCD")])
        >>> game.hands, game.deck
        ([hand of seat 0: [D], hand of seat 1: [C]], deck: [A, B])
        >>> world = game.determinized(0, random.Random(5))
        >>> world.hands[0], sorted(world.hands[1].cards + world.deck.cards)
        (hand of seat 0: [D], [A, B, C])
        """
        if type(self).resample is CardGame.resample and any(
                values for other, values in enumerate(self.private) if other != seat):
            raise RulesError(f"{type(self).__name__} keeps private values the search bot "
                             "cannot guess", "write resample(seat, rng) to give the other "
                             "seats' private values guesses, or keep secrets in piles")
        world = self._declared(type(self).samples_class or type(self), rng, seat)
        world._deal_unseen(seat, rng)
        world.resample(seat, rng)
        return world

    def declared(self, into: type[CardGame]) -> CardGame:
        """This game as its declared state alone holds it, a game of class ``into`` (the
        rules' separate copy: ``--check`` replays each move there): its piles, ``public``
        and every seat's ``private``, the seat to play, the counts of moves and turns, and
        its chance where it stands; it shares nothing that can change with this game."""
        rng = random.Random()
        rng.setstate(self.rng.getstate())
        return self._declared(into, rng, None)

    def _declared(self, into: type[CardGame], rng: random.Random, seat: int | None):
        """A game of class ``into`` made of this one's declared state, with chance from
        ``rng``; the other seats' private values left empty where ``seat`` is given."""
        copies: dict = {}  # id(pile or groups, or a group in them) -> its copy in the world
        piles: dict = {}
        for name, kept in self.piles.items():
            if type(kept) is list:
                piles[name] = [_copied(holder, rng, copies) for holder in kept]
            else:
                piles[name] = _copied(kept, rng, copies)
        world = object.__new__(into)
        world.__dict__.update(self._rules_piles(copies))
        world.players, world.rng, world.cards, world.seat = self.players, rng, self.cards, self.seat
        # the live game's memory of moves offered never reaches a bot: a sample's own
        world.offered = {} if self.journal is not None and self.offered is not None \
            else self.offered
        world.public = copied(self.public)
        world.private = [copied(values) if seat is None or other == seat else {}
                         for other, values in enumerate(self.private)]
        world.piles, world.moves_made, world.turns_taken = piles, self.moves_made, self.turns_taken
        world.ended, world._legal, world.journal = self.ended, None, None
        world.checking = self.checking
        world._attributes = len(world.__dict__) + 1
        return world

    def samples(self, seat: int):
        """``worlds`` for a searching bot (see :meth:`State.samples`): dealt from a sample
        of this game, which holds no reference to it and nothing the seat cannot know."""
        return partial(self.determinized(seat, random.Random(0)).determinized, seat)

    def _deal_unseen(self, seat: int, rng: random.Random) -> None:
        """Deal the cards ``seat`` cannot see again among their places, each back apart;
        a face-down pile of several backs is shuffled after (its order is not seen)."""
        groups = self.hidden_places(seat)
        for back in sorted(groups):  # the order dealt depends on what the seat sees only
            redeal([(pile, i) for pile, i in groups[back]], rng)
        for pile in self.all_piles():
            if pile.visibility != BACKS and not pile.faces_seen_by(seat) and len(pile) > 1 \
                    and any(card.back != pile[0].back for card in pile):
                redeal([(pile, i) for i in range(len(pile))], rng)

    def invariants(self) -> None:
        """What always holds in the game, written as ``assert`` statements (the coins add
        up, a hand holds at most seven cards): ``cardkit simulate --check`` runs it after
        every move and names the game, the moves and the line that failed. None by
        default."""

    def resample(self, seat: int, rng: random.Random) -> None:
        """In a sample made for ``seat``'s search (:meth:`determinized`), guess what
        ``seat`` cannot know besides cards: the other seats' private values, which are
        empty there. A game that keeps any writes this; cards in piles need nothing."""

    def refuse_undeclared(self, kept: list | None = None) -> None:
        """Raise :class:`KeptOutside` for an attribute of the rules' own that is not a pile
        of the game (or a list of them): a per-game value kept where no visibility says
        who sees it. ``kept``: the game's piles and groups, if known."""
        attributes = self.__dict__
        declared = set(map(id, self.piles.values()))
        for name in attributes.keys() - TOOLKIT_ATTRIBUTES:  # the usual case at once: each
            value = attributes[name]  # names a pile, groups or a list of them as made
            if id(value) not in declared or type(value) is list and not set(map(type, value)) \
                    <= HOLDERS:
                if kept is None:
                    kept = self._holders() + self.all_piles()
                self._rules_piles({id(holder): holder for holder in kept})
                break
        self._attributes = len(attributes)

    def _rules_piles(self, piles: dict) -> dict:
        """The rules' own attributes, each pile in them replaced by ``piles[id(pile)]``."""
        found = {}
        for name, value in self.__dict__.items():
            if name in TOOLKIT_ATTRIBUTES:
                continue
            kind = type(value)
            if kind in HOLDERS:
                found[name] = piles.get(id(value))
            elif kind in (list, tuple) and value and set(map(type, value)) <= HOLDERS:
                found[name] = kind(map(piles.get, map(id, value)))
                if None in found[name]:
                    found[name] = None
            if found.get(name) is None:
                raise KeptOutside(self, name, value)
        return found

    def __getstate__(self) -> dict:
        """A copy or a pickle of a game leaves out the run's memory of moves offered: it
        is the run's, shared by its games (and large); a copy starts a memory of its own."""
        state = dict(self.__dict__)
        state["offered"] = None if self.offered is None else {}
        return state

    # -- the State every player and bot sees ----------------------------------------------

    def current_player(self) -> int:
        return self.seat

    def legal_moves(self) -> list:
        """What :meth:`moves` offers, each move once by look: of moves that differ only in
        which identical copy of a card they name (two Scouts in a hand), the first is kept,
        so a random bot picks a card no more often for holding two of it
        (``distinct_copies = True`` keeps them all).

        >>> from cardkit.toolkit import Card
        >>> class Hand(CardGame):
        ...     def setup(self): self.hand = self.pile("hand", cards=self.cards)
        ...     def moves(self): return [("play", card) for card in self.hand] + ["pass"]
        ...     def scores(self): return [0, 0]
        >>> cards = [Card(i, {"name": name}) for i, name in enumerate(["Scout", "Guard", "Scout"])]
        >>> game = Hand(2, random.Random(1), cards)
        >>> game.legal_moves()
        [('play', Scout), ('play', Guard), 'pass']
        >>> [card.id for _, card in game.legal_moves()[:2]]
        [0, 1]
        """
        return list(self.offered_moves())  # a copy: a bot cannot change what is legal

    def offered_moves(self) -> tuple:
        """:meth:`legal_moves` as a tuple, not copied: for the runner, which hands a
        random choice of them to the game and nothing to a bot."""
        if self._legal is None:
            moves = () if self.ended else tuple(self.moves())
            if self.offered is None:  # no identical copies: offered as given
                if self.checking:
                    offered_once(moves, True, type(self))  # names a move that can change
                self._legal = moves
                return moves
            try:  # this runs every move: a list met before is looked up, not walked
                kept = self.offered.get(moves)
            except TypeError:  # a move that can change: offered_once names it
                offered_once(moves, False, type(self))
                raise
            if kept is None:
                kept = self._taking(moves)
            self._legal = moves if kept is True else kept(moves)
        return self._legal

    def _taking(self, moves: tuple):
        """How the moves offered are taken out of ``moves`` (hashed already; see
        :func:`~cardkit.toolkit.moves.taking`), remembered in ``self.offered``."""
        kept = taking(moves)
        if len(self.offered) < REMEMBERED:  # the lists met first are met most
            self.offered[one_copy(moves)] = kept
        return kept

    def apply(self, move) -> None:
        legal = self._legal if self._legal is not None else self.offered_moves()
        if (self.checking or self.offered is not None) and move not in legal:
            move = self._offered_as(move, legal)  # another identical copy: the one offered
        self._play_offered(move)

    def _play_offered(self, move) -> None:
        """:meth:`apply` a move of :meth:`offered_moves` as it is, unchecked (what
        :meth:`play_at_random` does a move, in its own loop)."""
        self._legal = None
        self.moves_made += 1
        seat = self.seat
        self.play(move)
        self.turns_taken += self.seat != seat or self.ended
        if self.checking and len(self.__dict__) != self._attributes:  # a value of their own
            self.refuse_undeclared()

    def play_at_random(self, picks: list, most: int) -> int:
        """Play on until the end, or until ``most`` moves are made, or a seat is offered
        none: each time the move at ``picks[seat](len(moves))`` among those offered
        (``picks``: each seat's random bot's ``randrange``), unchecked; the moves made. An
        error on the way carries ``moves_made``: the moves finished before it. For the
        runner, past a run's checked games (``checking`` off): what
        :meth:`offered_moves` and :meth:`_play_offered` do, in one loop with no call but
        the rules' own, as a game of many cheap decisions feels every step. The rules' own
        attributes are not looked at here (see ``checking``): the runner checks them once
        the game is over."""
        moves, play, offered = self.moves, self.play, self.offered
        made = 0
        try:
            for made in range(most):  # made: the moves finished
                if self.ended:
                    return made
                legal = moves()
                if offered is not None:  # each identical copy once: a list met before, looked up
                    legal = tuple(legal)
                    try:
                        kept = offered.get(legal)
                    except TypeError:  # a move that can change: offered_once names it
                        offered_once(legal, False, type(self))
                        raise
                    if kept is None:
                        kept = self._taking(legal)
                    if kept is not True:
                        legal = kept(legal)
                if not legal:
                    return made
                seat = self.seat
                self.moves_made += 1
                play(legal[picks[seat](len(legal))])
                self.turns_taken += self.seat != seat or self.ended
        except BaseException as exc:  # a timer's too
            exc.moves_made = made
            raise
        return most

    def _offered_as(self, move, legal: list):
        """The legal move that looks as ``move`` does, or IllegalMove."""
        if not self.distinct_copies:
            try:
                key = look_of(move)
                for offered in legal:
                    if look_of(offered) == key:
                        return offered
            except TypeError:
                pass
        raise IllegalMove(f"{move!r} is not a legal move for seat {self.seat}")

    def turns(self) -> int:
        """A turn is a seat's moves until another seat is to play (or the game ends)."""
        return self.turns_taken

    def is_over(self) -> bool:
        return self.ended

    def returns(self) -> list[float]:
        won = self.winners() if self.ended else []
        return [1 / len(won) if seat in won else 0.0 for seat in range(self.players)]

    def returns_of(self, scores: list) -> list[float]:
        """:meth:`returns` of a game that is over, whose :meth:`scores` are ``scores``
        (for the runner, which has asked for them already): the same shares, without
        scoring the game again where the game keeps the toolkit's winners and returns."""
        kind = type(self)
        if kind.returns is not CardGame.returns or kind.winners is not CardGame.winners:
            return self.returns()
        won = _best(scores) if self.ended else []
        return [1 / len(won) if seat in won else 0.0 for seat in range(self.players)]

    def card_record(self) -> list[dict]:
        """Each seat's cards by name: drawn, played and held at the end (see
        :class:`~cardkit.toolkit.zones.CardJournal`), for the per-card figures."""
        return self.journal.record(self.all_piles())

    def observation(self, seat: int) -> dict:
        """What ``seat`` may know: the seat to play, the public values, its private ones,
        and each pile as :meth:`~cardkit.toolkit.zones.Pile.seen_by` gives it (a seat's
        piles as a tuple, one a seat)."""
        piles = {}
        for name, pile in self.piles.items():
            piles[name] = (tuple(p.seen_by(seat) for p in pile) if type(pile) is list
                           else pile.seen_by(seat))
        return {"seat": seat, "to_play": self.seat, "public": copied(self.public),
                "private": copied(self.private[seat]), "piles": piles}


TOOLKIT_ATTRIBUTES = frozenset({"players", "rng", "cards", "offered", "seat", "public", "private", "piles",
                                "moves_made", "turns_taken", "ended", "_legal", "checking",
                                "journal", "_attributes"})  # every other attribute is the rules' own


def _best(scores) -> list[int]:
    """The seats with the best of ``scores``."""
    best = max(scores)
    return [seat for seat, score in enumerate(scores) if score == best]


def _piles_in(holders: list) -> list[Pile]:
    """The piles of ``holders`` (piles and groups), each group's piles in its place."""
    found = []
    for holder in holders:
        if type(holder) is Groups:
            found.extend(holder.groups)
        else:
            found.append(holder)
    return found


def _copied(holder, rng: random.Random, copies: dict):
    """``holder``'s copy for a sample, noted in ``copies`` with each group's copy."""
    made = copies[id(holder)] = holder.copied(rng)
    if type(holder) is Groups:
        copies.update(zip(map(id, holder.groups), made.groups))
    return made
