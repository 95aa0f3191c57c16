"""Rise Up, the solitaire roguelike: strength, fights, stage setup and the joker's moves.

>>> fight(invested=[(parse_card("5H"), False), (parse_card("KS"), True)],
...       room=[parse_card("7C"), parse_card("9D")])["win"]
True
"""

from __future__ import annotations

from .errors import RulesError
from .poker import RANK_LETTERS, SUIT_NAMES, Card, standard_deck_problems
from .poker import parse_card as parse_poker_card
from .situations import over_supply, times

STAGES = (1, 2, 3)
ABILITIES = {"H": "draw a card from the unused pile", "D": "reveal a face-down card",
             "S": "remove a card from play", "C": "move a card to another room"}


def parse_card(text: str) -> Card:
    """A card as in poker ('5H', 'KS', 'AD'); its rank is kept, aces as 14."""
    return parse_poker_card(text)


def strength(card: Card) -> int:
    """Ruling: A = 1, 2-10 as printed, J = 11, Q = 12, K = 13."""
    return 1 if card.rank == RANK_LETTERS["A"] else card.rank


def room_strength(cards) -> int:
    """A room's strength is the sum of its cards."""
    return sum(strength(c) for c in cards)


def invested_strength(abilities) -> int:
    """Ruling: the sum of the invested abilities, each one already used counting 1 less."""
    return sum(strength(card) - (1 if used else 0) for card, used in abilities)


def check_situation(invested, room) -> None:
    """Refuse a fight that cannot happen. Rise Up uses one standard deck whose joker is the
    player's piece, so every card named (an ability invested or a card of the room) is one
    of the 52 and exists once: none may be named twice. Decision: a room holds at most one
    ace, since the stage's ace is the only ace dealt into the grid.

    >>> check_situation([(parse_card("5H"), False)], [parse_card("5H")])
    Traceback (most recent call last):
    ...
    cardkit.rules.errors.RulesError: '5H' is named twice; each card of the deck exists once
    """
    cards = [card for card, _ in invested] + list(room)
    over = over_supply(cards, lambda card: 1)
    if over:
        raise RulesError(f"'{over[0]}' is named {times(over[1])}",
                         "each card of the deck exists once")
    aces = [str(card) for card in room if card.rank == RANK_LETTERS["A"]]
    if len(aces) > 1:
        raise RulesError(f"the room holds {len(aces)} aces ({', '.join(aces)})",
                         "only the stage's ace is dealt into the grid, so a room has one "
                         "ace at most")


def wins(invested: int, room: int) -> bool:
    """Ruling: invested strength equal to or above the room's wins it; below loses the game.

    >>> wins(8, 8), wins(7, 8)
    (True, False)
    """
    return invested >= room


def fight(invested, room) -> dict:
    """The outcome of investing ``invested`` against ``room`` (:func:`wins`), once the
    situation is checked (:func:`check_situation`)."""
    check_situation(invested, room)
    mine, theirs = invested_strength(invested), room_strength(room)
    return {"invested": mine, "room": theirs, "win": wins(mine, theirs)}


def stage_setup(stage: int) -> dict:
    """Ruling: stage n draws 17 + 9(n - 1) cards and adds the stage's ace; row r of the 3x3
    grid (r = 1..3, first row first) holds n + r - 1 cards a room; the setup draws n + 2 new
    abilities, and stage 1 also gets one random ace as an ability."""
    if stage not in STAGES:
        raise RulesError(f"there is no stage {stage}", "stages are 1, 2 and 3")
    drawn = 17 + 9 * (stage - 1)
    rows = [stage + r - 1 for r in (1, 2, 3)]
    assert drawn + 1 == 3 * sum(rows)  # every drawn card and the ace fill the grid
    return {"drawn": drawn, "grid": drawn + 1, "per_room": rows, "abilities": stage + 2,
            "ace_ability": stage == 1}


def joker_move_legal(start, target) -> bool:
    """Ruling: the joker starts outside the grid next to row 1 (``start`` None) and may
    enter any room of row 1; after that it moves one room up, down, left or right."""
    for room in (target,) if start is None else (start, target):
        if len(room) != 2 or not all(1 <= x <= 3 for x in room):
            raise RulesError(f"{list(room)} is not a room", "rooms are [row, column], 1-3 each")
    if start is None:
        return target[0] == 1
    return abs(start[0] - target[0]) + abs(start[1] - target[1]) == 1


def removal_loses(card: Card, stage_ace: Card) -> bool:
    """Removing the stage's ace with a spade ability loses the game."""
    if stage_ace.rank != RANK_LETTERS["A"]:
        raise RulesError(f"the stage's ace '{stage_ace}' is not an ace",
                         "name an ace: AS, AH, AD or AC")
    return card == stage_ace


# -- examples ---------------------------------------------------------------------------

def parse_abilities(raw):
    """['5H', 'KS used'] -> [(card, used)]."""
    found = []
    for item in raw:
        words = str(item).split()
        if not words or words[1:] not in ([], ["used"]):
            raise RulesError(f"'{item}' is not an ability", "write a card, e.g. '5H' or "
                             "'5H used'")
        found.append((parse_card(words[0]), words[1:] == ["used"]))
    return found


def example_fight(situation):
    outcome = fight(parse_abilities(situation["invested"]),
                    [parse_card(c) for c in situation["room"]])
    verdict = "wins the room" if outcome["win"] else "loses the game"
    return outcome, f"invested {outcome['invested']} against {outcome['room']}: {verdict}"


def example_stage(situation):
    setup = stage_setup(situation["stage"])
    return setup, (f"stage {situation['stage']}: draw {setup['drawn']} + the ace, rows of "
                   f"{'/'.join(map(str, setup['per_room']))} cards a room, "
                   f"{setup['abilities']} new abilities"
                   + (" and a random ace" if setup["ace_ability"] else ""))


def example_move(situation):
    start = situation.get("from")
    legal = joker_move_legal(tuple(start) if start else None, tuple(situation["to"]))
    where = "from beside row 1" if not start else f"from {list(start)}"
    return {"legal": legal}, f"joker {where} to {list(situation['to'])}: " \
                             f"{'legal' if legal else 'not a legal move'}"


def example_strength(situation):
    card = parse_card(situation["card"])
    suit = SUIT_NAMES[card.suit]
    return {"strength": strength(card)}, (f"{card} has strength {strength(card)}; as an "
                                          f"ability ({suit}) it lets you "
                                          f"{ABILITIES[card.suit]}")


def example_remove(situation):
    lost = removal_loses(parse_card(situation["card"]), parse_card(situation["ace"]))
    return {"lost": lost}, "the stage's ace is removed: you lose" if lost else \
        "another card is removed: play goes on"


EXAMPLES = {"fight": example_fight, "stage": example_stage, "move": example_move,
            "strength": example_strength, "remove": example_remove}


def check_deck(cards: list[dict]) -> list[str]:
    """The deck the rules assume: the 52 standard cards and one joker."""
    problems = standard_deck_problems(cards)
    jokers = sum(c.get("rank") == "Joker" for c in cards)
    if jokers != 1:
        problems.append(f"Rise Up uses one joker, the deck has {jokers}")
    return problems
