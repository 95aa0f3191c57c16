"""Trick Taking, the shape cards: scoring triplets, arrows, and secret objectives.

A shape card has three properties, shape (circle, triangle, square), number (1, 2, 3) and
fill (clear, striped, solid), and a back: a left arrow, a right arrow or blank.

>>> score_triplet([Card("circle", 1, "clear"), Card("circle", 2, "striped"),
...                Card("circle", 3, "solid")])
5
"""

from __future__ import annotations

import re
from collections import Counter
from typing import NamedTuple

from .errors import RulesError
from .situations import over_supply, times

PROPERTIES = {"shape": ("circle", "triangle", "square"), "number": (1, 2, 3),
              "fill": ("clear", "striped", "solid")}
BACKS = ("left", "right", "blank")
SAME, DIFFERENT = 1, 2  # points a property scores when all three cards agree or all differ


class Card(NamedTuple):
    shape: str
    number: int
    fill: str
    back: str = "blank"

    def __str__(self) -> str:
        return f"{self.number} {self.fill} {self.shape}{'s' * (self.number > 1)} " \
               f"({self.back} back)"


def parse_card(text) -> Card:
    """'circle 1 clear left' (the back is optional and then blank; words in any order).
    A card has one of each property: a second shape, number, fill or back is refused.

    >>> parse_card("left 2 striped square")
    Card(shape='square', number=2, fill='striped', back='left')
    >>> parse_card("circle triangle 1 clear")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    cardkit.rules.errors.RulesError: 'circle triangle 1 clear' names two shapes, 'circle' and 'triangle'; ...
    """
    words = str(text).split()
    found, said = {}, {}
    for word in words:
        key = "back" if word in BACKS else None
        for prop, options in PROPERTIES.items():
            if word in map(str, options):
                key = prop
        if key is None:
            raise RulesError(f"'{word}' in '{text}' is not a shape, number, fill or back",
                             "write e.g. 'circle 2 striped left'")
        if key in found:
            raise RulesError(f"'{text}' names two {key}s, '{said[key]}' and '{word}'",
                             "a card has one shape, one number, one fill and at most one "
                             "back")
        found[key], said[key] = (int(word) if key == "number" else word), word
    missing = [p for p in PROPERTIES if p not in found]
    if missing:
        raise RulesError(f"'{text}' has no {', '.join(missing)}",
                         "write a shape, a number and a fill, e.g. 'circle 2 striped'")
    return Card(found["shape"], found["number"], found["fill"], found.get("back", "blank"))


class Objective(NamedTuple):
    """A secret rule card: ``points`` for its owner when ``condition`` holds at the end."""
    title: str
    condition: str  # as :func:`parse_condition` reads it
    points: int


# Decision (the original rule cards are lost): cardkit's own 9 objectives, as printed by the
# bundled deck (decks/shapes/deck.yaml).
OBJECTIVES = (
    Objective("Variety Show", "2+ triplets: shape different", 3),
    Objective("True to Form", "2+ triplets: shape same", 3),
    Objective("Count Off", "2+ triplets: number different", 3),
    Objective("Seeing Triple", "2+ triplets: number same", 3),
    Objective("Full Spectrum", "2+ triplets: fill different", 3),
    Objective("Dress Code", "2+ triplets: fill same", 3),
    Objective("Perfect Mix", "1+ triplets: shape different, number different, fill different",
              5),
    Objective("Lookalikes", "1+ triplets: shape same, number same", 4),
    Objective("Hoarder", "4+ triplets", 3),
)
MAX_PLAYERS = len(OBJECTIVES)  # one secret rule card each


def check_seats(players: int, owner: int | None = None) -> None:
    """Decision: 2-9 players, as each is dealt one of the 9 rule cards; ``owner`` is a seat."""
    if not 2 <= players <= MAX_PLAYERS:
        raise RulesError(f"the game is for 2-{MAX_PLAYERS} players, not {players}",
                         f"each player gets one of the {MAX_PLAYERS} rule cards; give 2-"
                         f"{MAX_PLAYERS} players")
    if owner is not None and not 0 <= owner < players:
        raise RulesError(f"seat {owner} is not at a table of {players}",
                         f"seats are 0-{players - 1}")


def check_situation(triplets, players: int | None = None) -> None:
    """Refuse triplets that cannot be locked in together: each is 3 cards, and the 81 shape
    cards hold each front once with each back (left, right, blank), so no card is named
    twice across all the triplets. With ``players``, the seat count too (:func:`check_seats`).

    >>> check_situation([[parse_card("circle 1 clear left")] * 3])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    cardkit.rules.errors.RulesError: 'circle 1 clear left' is named 3 times; ...
    """
    if players is not None:
        check_seats(players)
    for triplet in triplets:
        _triplet(triplet)
    over = over_supply((card for triplet in triplets for card in triplet), lambda card: 1)
    if over:
        card = over[0]
        raise RulesError(f"'{card.shape} {card.number} {card.fill} {card.back}' is named "
                         f"{times(over[1])}", "the deck has each front once with each back "
                         "(left, right, blank; a card without a back is the blank one): give "
                         "the copies different backs")


def _triplet(cards) -> list[Card]:
    if len(cards) != 3:
        raise RulesError(f"a triplet is 3 cards, not {len(cards)}", "give three cards")
    return list(cards)


def property_points(cards, prop: str) -> int:
    """Ruling: all three the same scores 1, all three different 2, otherwise 0."""
    kinds = len({getattr(c, prop) for c in cards})
    return SAME if kinds == 1 else DIFFERENT if kinds == 3 else 0


def score_triplet(cards) -> int:
    """0-6 points: the sum over shape, number and fill."""
    cards = _triplet(cards)
    return sum(property_points(cards, prop) for prop in PROPERTIES)


def destination(cards, owner: int, players: int) -> int:
    """Ruling: a triplet whose three backs show the same arrow is scored by the neighbour
    it points to: left is the next seat, right the previous one. Blank or mixed backs: the
    owner scores it."""
    check_seats(players, owner)
    backs = {c.back for c in _triplet(cards)}
    if backs == {"left"}:
        return (owner + 1) % players
    if backs == {"right"}:
        return (owner - 1) % players
    return owner


_CONDITION = re.compile(r"^\s*([0-9]{1,2})\+\s*triplets?\s*(?::\s*(.+))?$")


def parse_condition(text: str) -> tuple[int, list[tuple[str, str]]]:
    """'2+ triplets: shape different' -> (2, [('shape', 'different')]).

    >>> parse_condition("1+ triplets: shape same, number same")
    (1, [('shape', 'same'), ('number', 'same')])
    """
    match = _CONDITION.match(str(text))
    if not match:
        raise RulesError(f"'{text}' is not an objective condition",
                         "write 'N+ triplets' and optionally ': property same|different, ...'")
    needs = []
    for part in (match.group(2) or "").split(","):
        if not part.strip():
            continue
        words = part.split()
        if len(words) != 2 or words[0] not in PROPERTIES or words[1] not in ("same",
                                                                             "different"):
            raise RulesError(f"'{part.strip()}' in '{text}' is not 'property same|different'",
                             "properties are shape, number and fill")
        needs.append((words[0], words[1]))
    return int(match.group(1)), needs


def meets(condition: str, triplets: list) -> tuple[bool, int]:
    """Whether a player's locked triplets meet an objective, and how many triplets count.

    Decision (the original rule cards are lost): objectives count the triplets the player
    locked in, including those their arrows pass to a neighbour."""
    count, needs = parse_condition(condition)
    wanted = {"same": 1, "different": 3}
    matching = sum(all(len({getattr(c, prop) for c in t}) == wanted[how] for prop, how in needs)
                   for t in triplets)
    return matching >= count, matching


def final_scores(players: list[dict]) -> dict:
    """Each player: {'triplets': [[3 cards], ...], optionally 'objective': condition and
    'points'}. Every triplet scores for whoever its arrows send it to; objectives met add
    their points to their owner. The highest total wins (ties share the win).

    >>> final_scores([{"objective": "1+ triplets", "points": 3}, {}])
    {'scores': [0, 0], 'winners': [0, 1]}
    """
    n = len(players)
    check_situation([t for p in players for t in p.get("triplets", [])], n)
    scores = [0] * n
    for owner, player in enumerate(players):
        triplets = player.get("triplets", [])
        for triplet in triplets:
            scores[destination(triplet, owner, n)] += score_triplet(triplet)
        if player.get("objective") and meets(player["objective"], triplets)[0]:
            scores[owner] += player.get("points", 0)
    best = max(scores)
    return {"scores": scores, "winners": [i for i, s in enumerate(scores) if s == best]}


# -- examples ---------------------------------------------------------------------------

def _cards(raw) -> list[Card]:
    return [parse_card(c) for c in raw]


def example_triplet(situation):
    cards = _cards(situation["cards"])
    check_situation([cards])
    parts = ", ".join(f"{p} {property_points(cards, p)}" for p in PROPERTIES)
    return {"points": score_triplet(cards)}, f"{parts}: {score_triplet(cards)} points"


def example_arrows(situation):
    cards = _cards(situation["cards"])
    check_situation([cards], situation["players"])
    seat = destination(cards, situation["owner"], situation["players"])
    backs = ", ".join(c.back for c in cards)
    return {"scored_by": seat}, f"backs {backs}: seat {seat} scores it"


def example_objective(situation):
    triplets = [_cards(t) for t in situation["triplets"]]
    check_situation(triplets)
    met, count = meets(situation["condition"], triplets)
    return {"met": met}, f"{count} triplet{'s' * (count != 1)} fit '{situation['condition']}'"


def example_table(situation):
    players = [{"triplets": [_cards(t) for t in p.get("triplets", [])],
                "objective": p.get("objective"), "points": p.get("points", 0)}
               for p in situation["players"]]
    outcome = final_scores(players)
    return outcome, f"scores {outcome['scores']}"


EXAMPLES = {"triplet": example_triplet, "arrows": example_arrows,
            "objective": example_objective, "table": example_table}


def check_deck(cards: list[dict]) -> list[str]:
    """The deck the rules assume: 27 fronts x 3 backs, and 9 objectives that parse."""
    problems = []
    fronts = Counter((c.get("shape"), c.get("number"), c.get("fill"), c.get("back"))
                     for c in cards if c.get("shape"))
    wanted = Counter({(s, n, f, b): 1 for s in PROPERTIES["shape"]
                      for n in PROPERTIES["number"] for f in PROPERTIES["fill"] for b in BACKS})
    if fronts != wanted:
        problems.append("the rules need each of the 27 fronts once with each of the 3 backs")
    objectives = [c for c in cards if c.get("condition")]
    if len(objectives) != 9:
        problems.append(f"the rules need 9 rule cards, the deck has {len(objectives)}")
    for card in objectives:
        try:
            parse_condition(card["condition"])
        except RulesError as error:
            problems.append(f"rule card '{card.get('title')}': {error}")
    return problems
