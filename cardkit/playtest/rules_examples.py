"""A designer's rules examples: positions of their game written in ``examples.yaml`` beside
the rules, with the moves the rules must offer there and what moves must lead to.
``cardkit simulate GAME --check`` runs them before its random games and names the file and
line of one that does not hold: the mistakes no generic check can see (a forbidden move
offered, a bonus not scored).

    examples:
      - name: with an empty hand a seat can only draw
        players: 2
        seat: 0
        piles:                        # by the names the rules give their piles
          deck: [Scout, Knight]       # a pile: its cards, top last
          hand: [[], [Guard]]         # a pile each seat has: one list a seat
        public: {points: [0, 0]}
        legal: [draw]                 # exactly these moves, as --log writes them
      - name: a played card scores its cost
        piles: {deck: [Scout], hand: [[Knight], []]}
        public: {points: [0, 0]}
        not legal: [draw Knight]
        play: [play Knight]           # made in turn, each by the seat to play
        expect: {public: {points: [3, 0]}, seat: 1, over: false}

Groups (``self.groups``, ``self.seat_groups``) are written as a list of groups, each a
list of cards (``melds: [[Scout, Guard], [Knight]]``; one such list a seat for a seat's
groups: ``tricks: [[[Scout, Guard]], []]``); an example that does not name them starts
with none.

Cards are named as the figures name them (a card's ``card_name``, else its ``name``);
cards an example does not place are out of its game. ``expect`` may hold ``scores``,
``public`` (the values given), ``seat`` (to play), ``over`` and ``winners``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path

from ..common.errors import Problems, Where, did_you_mean
from ..rules.examples import plain, read_examples
from ..sources.yamlfile import Map
from ..toolkit import CardGame
from ..toolkit.zones import Groups
from .game_text import shown

EXAMPLES_FILE = "examples.yaml"
KEYS = ("name", "players", "seat", "piles", "public", "private", "legal", "not legal",
        "play", "expect")
EXPECTED = ("scores", "public", "seat", "over", "winners")
# what the rules compute each expected value in: their method a failing example names
EXPECTED_FROM = {"scores": "scores", "public": "play", "seat": "play", "over": "play",
                 "winners": "winners"}


@dataclass(frozen=True)
class Failed:
    """An example that does not hold: where it is written, what the rules did instead."""

    where: Where
    what: str


def run_examples(game, cards, path: Path) -> tuple[int, Failed | None]:
    """Run the examples in ``path`` on ``game`` (a designer's, from its rules file) with
    the deck's ``cards``: how many held, and the first that did not (None: all held).
    Raises InputError, with file:line, for an example that cannot be read."""
    problems = Problems()
    held = 0
    for example in read_examples(path):
        failed = _run_one(game, cards, example, problems)
        problems.check()
        if failed:
            return held, failed
        held += 1
    return held, None


def _run_one(game, cards, example, problems: Problems) -> Failed | None:
    if not isinstance(example, Map) or not isinstance(example.get("name"), str):
        problems.add(getattr(example, "where", None), "an example is a mapping with a name",
                     "begin it with 'name: what it shows'")
        return None
    unknown = [key for key in example if key not in KEYS]
    if unknown:
        problems.add(example.key_at(unknown[0]), f"example '{example['name']}' has "
                     f"'{unknown[0]}'", did_you_mean(unknown[0], KEYS))
        return None
    state = _position(game, cards, example, problems)
    if state is None:
        return None
    name = example["name"]
    offered = [shown(move) for move in state.legal_moves()]
    if "legal" in example and sorted(map(str, example["legal"])) != sorted(offered):
        return Failed(example.at("legal"), f"example '{name}': the rules offer "
                      f"{_listed(offered)}, not {_listed(example['legal'])}"
                      + _rules_line(state, "moves"))
    for move in example.get("not legal", ()):
        if str(move) in offered:
            return Failed(example.at("not legal"), f"example '{name}': the rules offer "
                          f"'{move}', which the example says is not legal"
                          + _rules_line(state, "moves"))
    for index, text in enumerate(example.get("play", ())):
        legal = {shown(move): move for move in state.legal_moves()}
        if str(text) not in legal:
            return Failed(example["play"].at(index), f"example '{name}': '{text}' is not a "
                          f"legal move here; the rules offer {_listed(legal)}"
                          + _rules_line(state, "moves"))
        state.apply(legal[str(text)])
    return _expected(state, example, name, problems)


def _position(game, cards, example: Map, problems: Problems):
    """The example's position: a game set up as the rules do, then its piles emptied and
    filled with the cards the example names, its public and private values and seat."""
    players = example.get("players", game.default_players)
    if players not in game.players:
        problems.add(example.at("players"), f"example '{example['name']}' is for {players} "
                     "players", "give a number of players the game allows")
        return None
    state = game.new_state(players, random.Random(0), cards)
    left: dict = {}  # title -> the deck's cards of that name not placed yet
    for card in cards:
        left.setdefault(str(card), []).append(card)
    for kept in state.piles.values():
        for holder in kept if type(kept) is list else [kept]:
            holder.groups.clear() if isinstance(holder, Groups) else holder.cards.clear()
    written = example.get("piles") or Map()
    for name, cards_written in written.items():
        if name not in state.piles:
            problems.add(written.key_at(name), f"the game has no pile '{name}'",
                         did_you_mean(name, state.piles))
            return None
        kept = state.piles[name]
        lists = cards_written if type(kept) is list else [cards_written]
        holders = kept if type(kept) is list else [kept]
        if not _written_as(lists, len(holders), isinstance(holders[0], Groups)):
            problems.add(written.at(name), f"{'groups' if isinstance(holders[0], Groups) else 'pile'} "
                         f"'{name}' is written as {plain(cards_written)}",
                         _how_written(kept, holders[0], players))
            return None
        for holder, titles in zip(holders, lists):
            piles = [holder.new() for _ in titles] if isinstance(holder, Groups) else [holder]
            for pile, group in zip(piles, titles if isinstance(holder, Groups) else [titles]):
                for title in map(str, group):
                    if not left.get(title):
                        problems.add(written.at(name), f"pile '{name}': no card '{title}' is "
                                     "left in the deck", did_you_mean(title, left))
                        return None
                    pile.cards.append(left[title].pop())
    state.public.update(plain(example.get("public") or {}))
    for seat, values in enumerate(plain(example.get("private") or [])):
        state.private[seat].update(values)
    state.seat = example.get("seat", 0)
    state._legal = None
    return state


def _written_as(lists, holders: int, groups: bool) -> bool:
    """Whether ``lists`` gives one list of cards a pile (a list of such lists, one a group,
    for groups), ``holders`` of them."""
    return isinstance(lists, list) and len(lists) == holders and all(
        isinstance(each, list) and (not groups or all(isinstance(g, list) for g in each))
        for each in lists)


def _how_written(kept, holder, players: int) -> str:
    """How to write the cards of ``kept`` (a pile or groups, or one a seat)."""
    one = ("a list of groups, each a list of cards, top last ([[Scout, Guard], [Knight]])"
           if isinstance(holder, Groups) else "a list of cards, top last")
    return f"give one list for each of the {players} seats, each {one}" \
        if type(kept) is list else f"give {one}"


def _expected(state, example: Map, name: str, problems: Problems) -> Failed | None:
    expect = example.get("expect") or Map()
    for key, wanted in expect.items():
        if key not in EXPECTED:
            problems.add(expect.key_at(key), f"example '{name}' expects '{key}'",
                         did_you_mean(key, EXPECTED))
            return None
        wanted = plain(wanted)
        found = {"scores": state.scores, "seat": state.current_player, "over": state.is_over,
                 "winners": state.winners}[key]() if key != "public" else \
            {k: plain(state.public.get(k)) for k in wanted}
        if found != wanted and not (key == "scores" and list(found) == wanted):
            return Failed(expect.at(key), f"example '{name}': {key} is {found}, not {wanted}"
                          + _rules_line(state, EXPECTED_FROM[key]))
    return None


def _rules_line(state, method: str) -> str:
    """Where the rules give what an example found: ' (rules.py:49, moves())'."""
    if method == "winners" and type(state).winners is CardGame.winners:
        method = "scores"  # the best score wins, as the toolkit reads it
    code = getattr(type(state), method).__code__
    return f" ({Path(code.co_filename).name}:{code.co_firstlineno}, {method}())"


def _listed(moves) -> str:
    return ", ".join(f"'{move}'" for move in moves) or "no move"
