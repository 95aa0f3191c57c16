"""Piles: where every card of a game is, in order, and who may see its face.

A pile is a deck, a hand, a discard pile, a market row, the cards in front of a seat. Its
``visibility`` says who sees the faces of its cards; everyone else sees no more than the
pile lets them, and a seat's observation is made from that alone:

- ``HIDDEN``: no one sees the faces; everyone sees how many cards there are (a draw deck).
- ``OWNER``: the owning seat sees the faces, the others how many (a hand held close).
- ``BACKS``: the owner sees the faces; everyone else sees each card's back, in order (a
  hand whose backs tell something, or an unowned face-down row).
- ``PUBLIC``: everyone sees the faces (a discard pile, a market, cards in play).

The top of a pile is its last card. Cards only move from pile to pile, so a game never
loses or doubles one (the rules checker counts them).

>>> from cardkit.toolkit.cards import Card
>>> deck = Pile("deck", HIDDEN, [Card(i, {"name": n}) for i, n in enumerate("ABCD")])
>>> hand = Pile("hand", OWNER, owner=0)
>>> deck.move_top(hand, 2)
[D, C]
>>> deck.top, len(deck), list(hand)
(B, 2, [D, C])
>>> hand.seen_by(0), hand.seen_by(1), deck.seen_by(0)
((D, C), 2, 2)
"""

from __future__ import annotations

import random
from collections import defaultdict
from operator import attrgetter

from .cards import Card

HIDDEN, OWNER, BACKS, PUBLIC = "hidden", "owner", "backs", "public"
VISIBILITIES = (HIDDEN, OWNER, BACKS, PUBLIC)


class Pile(list):
    """Cards in order, the top last, with who may see their faces (see the module). A pile
    is a list of its cards: ``len(pile)``, ``for card in pile``, ``if pile:``,
    ``card in pile`` and ``pile[-1]`` are Python's own list operations, as fast as on any
    list. Move cards with the methods below, which tell the card journal where they went;
    a list method (``append``, ``pop``) changes the pile without telling it.

    Two piles are two places: ``==`` between piles is ``is`` (a pile equals itself only,
    and ``hands.index(hand)`` finds that hand), and a pile can be a dict key. Against a
    plain list it compares the cards: ``pile == [scout]``; ``list(a) == list(b)`` compares
    two piles' cards. ``pile.cards`` is the pile itself, a list (earlier versions kept it
    apart).

    >>> hand, line = Pile("hand", OWNER, owner=0), Pile("line", PUBLIC, owner=0)
    >>> hand == line, hand == [], hand.cards is hand, [hand, line].index(line)
    (False, True, True, 1)
    """

    __slots__ = ("name", "visibility", "owner", "rng", "journal", "place")
    __hash__ = object.__hash__  # a place: hashed by identity, as it compares with piles

    def __init__(self, name: str, visibility: str = HIDDEN, cards=(), owner: int | None = None,
                 rng: random.Random | None = None):
        self.place = place_of(name, visibility, owner)  # what a CardJournal reads
        list.__init__(self, cards)
        self.name, self.visibility, self.owner = name, visibility, owner
        self.rng = rng  # the game's chance, for shuffle()
        self.journal: CardJournal | None = None  # the game's, told of every card added

    def __eq__(self, other):
        return self is other if isinstance(other, Pile) else list.__eq__(self, other)

    def __ne__(self, other):
        return self is not other if isinstance(other, Pile) else list.__ne__(self, other)

    @property
    def cards(self) -> list:
        """The pile's cards, top last: the pile itself (setting it replaces them)."""
        return self

    @cards.setter
    def cards(self, cards) -> None:
        self[:] = cards

    def __repr__(self) -> str:
        return (f"{self.name}{'' if self.owner is None else f' of seat {self.owner}'}: "
                f"{list.__repr__(self)}")

    @property
    def top(self):
        """The top card, or None when the pile is empty."""
        return self[-1] if self else None

    def shuffle(self) -> None:
        """Shuffle the pile with the game's chance (the same seed, the same order)."""
        cards = self[:]  # a plain list: shuffle() indexes it at list speed, a pile's half
        self.rng.shuffle(cards)
        self[:] = cards

    def add(self, card, bottom: bool = False) -> None:
        """Put ``card`` on top (or at the bottom). The card must come from another pile:
        use :meth:`move` or :meth:`move_top`, which take it out of its pile.

        >>> deck, discard = _piles()
        >>> discard.add(deck.draw(), bottom=True); discard.add(deck.draw()); discard
        discard: [D, C]
        """
        if bottom:
            self.insert(0, card)
        else:
            self.append(card)
        if self.journal is not None:  # from the pile draw() took it off, if it did
            self.journal.moved((card,), self.journal.taken.pop(card, NOWHERE), self.place)

    def draw(self):
        """Take the top card off and return it (then :meth:`add` it to another pile).

        >>> deck, _ = _piles()
        >>> deck.draw(), deck
        (D, deck: [A, B, C])
        """
        if not self:
            raise IndexError(f"draw from pile {self.name!r}, which is empty; check "
                             "len(pile) first, or offer no move that draws from it")
        card = self.pop()
        if self.journal is not None:  # where it comes from, for add()
            self.journal.taken[card] = self.place
        return card

    def move(self, card, to: Pile, bottom: bool = False):
        """Move ``card`` from this pile onto ``to`` (at its bottom if asked); returns it.

        >>> deck, discard = _piles()
        >>> deck.move(deck[1], discard), deck, discard
        (B, deck: [A, C, D], discard: [B])
        """
        try:
            self.remove(card)
        except ValueError:
            raise ValueError(f"{card!r} is not in pile {self.name!r}") from None
        if bottom:
            to.insert(0, card)
        else:
            to.append(card)
        # add()'s work, without its call: this runs every move; within one pile, or among
        # piles of no seat (one place), the journal has nothing to note
        if to.journal is not None and to.place is not self.place:
            to.journal.flows[self.place, to.place].append(card)
        return card

    def move_top(self, to: Pile, count: int = 1) -> list:
        """Move the top ``count`` cards, one at a time, onto ``to``; returns them, in the
        order moved. Fewer when this pile runs out."""
        moved = self[:-count - 1:-1] if count > 0 else []  # the top first
        del self[len(self) - len(moved):]
        to += moved
        if to.journal is not None and to.place is not self.place:  # moved()'s, inline
            to.journal.flows[self.place, to.place] += moved
        return moved

    def move_all(self, to: Pile) -> None:
        """Move every card onto ``to``, keeping their order (a discard pile becoming the
        deck: shuffle it after).

        >>> deck, discard = _piles()
        >>> deck.move_all(discard); len(deck), discard
        (0, discard: [A, B, C, D])
        """
        to += self
        if to.journal is not None and to.place is not self.place:  # moved()'s, inline
            to.journal.flows[self.place, to.place] += self
        self.clear()

    def copied(self, rng: random.Random | None) -> Pile:
        """A copy for a game's sample: the same cards (they never change) in a list of its
        own, the sample's chance ``rng``, and no record of cards."""
        made = made_pile(self.name, self.visibility, self.owner, self.place, rng, None)
        made += self
        return made

    def __deepcopy__(self, memo) -> Pile:
        memo[id(self)] = made = self.copied(memo.get(id(self.rng), self.rng))
        return made

    def faces_seen_by(self, seat: int) -> bool:
        """Whether ``seat`` sees the faces of this pile's cards."""
        return self.visibility == PUBLIC or (self.owner == seat and self.visibility != HIDDEN)

    def seen_by(self, seat: int):
        """What ``seat`` sees of this pile: its cards (a tuple), their backs (a tuple of
        back names), or how many there are (an int)."""
        if self.faces_seen_by(seat):
            return tuple(self)
        if self.visibility == BACKS:
            return tuple(card.back for card in self)
        return len(self)


class Groups:
    """Piles made during play, in the order made: the sets in front of a player, the melds
    on the table, the tricks a seat has won. Each group is a :class:`Pile` with the
    groups' name, visibility and owner; :meth:`new` adds one.

    >>> sets = Groups("sets", PUBLIC, owner=0)
    >>> hand = Pile("hand", OWNER, [Card(i, {"name": n}) for i, n in enumerate("AABC")], owner=0)
    >>> first = sets.new(); hand.move_top(first, 2)
    [C, B]
    >>> second = sets.new(); hand.move_top(second, 2)
    [A, A]
    >>> len(sets), sets[-1].top, sets
    (2, A, sets of seat 0: [[C, B], [A, A]])
    >>> sets.seen_by(1)
    ((C, B), (A, A))
    """

    __slots__ = ("name", "visibility", "owner", "groups", "rng", "journal", "empty")

    def __init__(self, name: str, visibility: str = HIDDEN, owner: int | None = None,
                 rng: random.Random | None = None):
        self.empty = Pile(name, visibility, (), owner)  # a group's pattern; a pile's refusals
        self.name, self.visibility, self.owner = name, visibility, owner
        self.groups: list[Pile] = []
        self.rng = rng
        self.journal: CardJournal | None = None

    def new(self) -> Pile:
        """A new empty group, after the others (``groups[-1]`` is the most recent)."""
        empty = self.empty  # checked when the groups were made
        made = made_pile(empty.name, empty.visibility, empty.owner, empty.place, self.rng,
                         self.journal)
        self.groups.append(made)
        return made

    def remove(self, group: Pile) -> None:
        """Take ``group`` away once it is empty (a meld broken up, a trick handed back):
        its cards must have moved to another pile first, so that none is lost.

        >>> sets = Groups("sets", PUBLIC)
        >>> first = sets.new(); Pile("hand", PUBLIC, [Card(0, {"name": "A"})]).move_top(first)
        [A]
        >>> sets.remove(first)
        Traceback (most recent call last):
        ValueError: a group of 'sets' still holds [A]: move its cards to another pile before removing it
        >>> first.move_top(Pile("discard", PUBLIC)); sets.remove(first); len(sets)
        [A]
        0
        """
        if group:
            raise ValueError(f"a group of {self.name!r} still holds {list(group)}: move its "
                             "cards to another pile before removing it")
        try:
            self.groups.remove(group)
        except ValueError:
            raise ValueError(f"that group is not one of {self.name!r}") from None

    def move_all(self, to: Pile) -> None:
        """Move every group's cards onto ``to``, group after group, each in its order, and
        remove the groups (the tricks of a hand gathered into the deck)."""
        for group in self.groups:
            group.move_all(to)
        self.groups.clear()

    def __len__(self) -> int:
        return len(self.groups)

    def __iter__(self):
        return iter(self.groups)

    def __getitem__(self, index):
        return self.groups[index]

    def __repr__(self) -> str:
        return (f"{self.name}{'' if self.owner is None else f' of seat {self.owner}'}: "
                f"{[list(group) for group in self.groups]}")

    def copied(self, rng: random.Random | None) -> Groups:
        """A copy for a game's sample (see :meth:`Pile.copied`)."""
        made = Groups.__new__(Groups)
        made.name, made.visibility, made.owner = self.name, self.visibility, self.owner
        made.empty = self.empty
        made.groups, made.rng, made.journal = [g.copied(rng) for g in self.groups], rng, None
        return made

    def __deepcopy__(self, memo) -> Groups:
        memo[id(self)] = made = self.copied(memo.get(id(self.rng), self.rng))
        return made

    def seen_by(self, seat: int) -> tuple:
        """What ``seat`` sees: each group as :meth:`Pile.seen_by` gives it, in order."""
        return tuple(group.seen_by(seat) for group in self.groups)


class CardJournal:
    """Which cards each seat drew, played and held: the per-card figures of a report.

    A seat *draws* a card when it comes into one of the seat's piles (a hand, the cards in
    front of it) from a pile not the seat's; it *plays* a card when the card leaves the
    seat's private piles (``OWNER``, ``BACKS``: a hand) for any other pile, its own table
    included; it *holds* what its piles hold at the end.

    >>> journal = CardJournal(2)
    >>> deck, hand = Pile("deck"), Pile("hand", OWNER, owner=1)
    >>> line, table = Pile("line", PUBLIC, owner=1), Pile("table", PUBLIC)
    >>> for pile in (deck, hand, line, table): pile.journal = journal
    >>> deck.cards = [Card(i, {"name": n}) for i, n in enumerate(["Scout", "Guard", "Rally"])]
    >>> rally, guard, scout = deck.move_top(hand, 3)
    >>> played = [hand.move(guard, line), hand.move(rally, table)]
    >>> {what: sorted(names) for what, names in journal.record([deck, hand, line, table])[1].items()}
    {'drawn': ['Guard', 'Rally', 'Scout'], 'played': ['Guard', 'Rally'], 'held': ['Guard', 'Scout']}
    """

    __slots__ = ("drawn", "played", "taken", "flows")

    def __init__(self, players: int):
        # each seat's cards by name (title), as record() gives them: a card is named as it
        # is sorted in, not put in a set of cards to be named again at the end
        self.drawn: list[set[str]] = [set() for _ in range(players)]
        self.played: list[set[str]] = [set() for _ in range(players)]
        # a card draw() took off a pile -> that pile's place, until add() puts it down
        self.taken: dict = {}
        # (place before, place after) -> the cards that went so: a move adds its cards to
        # one list, and the end sorts out each way cards went once, not each move
        self.flows: defaultdict[tuple, list] = defaultdict(list)

    def begin(self, piles) -> None:
        """The table once it is dealt: each pile is told of this journal, and a seat has
        drawn what its piles hold (moves made before, in the deal, are forgotten)."""
        self.flows.clear()
        self.taken.clear()
        for pile in piles:
            pile.journal = self
            if pile.owner is not None:
                self.drawn[pile.owner].update(map(_TITLE, pile))

    def moved(self, cards, before: tuple, place: tuple) -> None:
        """``cards`` went from a pile whose place is ``before`` into one whose ``place`` is
        (owner or None, private?): one call for all the cards a pile moves at once. The
        piles say where the cards were, so no card's place is kept or looked up;
        :meth:`record` sorts the moves out."""
        if before is not place:  # else within one pile, or among piles of no seat
            self.flows[before, place].extend(cards)

    def record(self, piles) -> list[dict]:
        """Each seat's cards by name, as sets: drawn, played, held now (once a game is
        over: the sets are the journal's own, and it keeps no more record)."""
        drawn, played = self.drawn, self.played
        for (before, place), cards in self.flows.items():
            seat, owner = place[0], before[0]
            if before[1] and owner is not None and not (place[1] and seat == owner):
                played[owner].update(map(_TITLE, cards))
            if seat is not None and seat != owner:
                drawn[seat].update(map(_TITLE, cards))
        self.flows.clear()
        held: list[set[str]] = [set() for _ in drawn]
        for pile in piles:
            if pile.owner is not None:
                held[pile.owner].update(map(_TITLE, pile))
        return [{"drawn": d, "played": p, "held": h} for d, p, h in zip(drawn, played, held)]


NOWHERE = (None, False)  # a card in no seat's pile, before it is dealt


def place_of(name: str, visibility: str, owner: int | None) -> tuple:
    """The place of a pile called ``name`` (owner or None, private?), what a CardJournal
    reads, once its visibility and owner are checked: ValueError for a wrong one. Piles of
    no seat share one place, so that a card going from one to another (deck to discard)
    is passed over at once."""
    if visibility not in VISIBILITIES:
        raise ValueError(f"pile {name!r}: visibility {visibility!r} is not one of "
                         f"{', '.join(VISIBILITIES)}")
    if visibility == OWNER and owner is None:
        raise ValueError(f"pile {name!r} is seen by its owner only but has no owner; "
                         "make it with seat_piles(), or give it an owner")
    private = visibility in (OWNER, BACKS)
    return NOWHERE if owner is None and not private else (owner, private)


def made_pile(name: str, visibility: str, owner: int | None, place: tuple, rng, journal
              ) -> Pile:
    """A new empty pile of a ``place`` already checked (:func:`place_of`): what
    ``Pile(...)`` makes, in half the time (a game makes its piles, each game)."""
    made = _NEW_LIST(Pile)
    made.name, made.visibility, made.owner, made.place = name, visibility, owner, place
    made.rng, made.journal = rng, journal
    return made


_NEW_LIST = list.__new__
_TITLE = attrgetter("title")


def _piles() -> tuple[Pile, Pile]:
    """For the examples: a deck of four cards A-D (D on top) and an empty discard pile."""
    return (Pile("deck", HIDDEN, [Card(i, {"name": n}) for i, n in enumerate("ABCD")]),
            Pile("discard", PUBLIC))
