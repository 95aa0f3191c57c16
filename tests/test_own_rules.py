"""A designer's own game (issue 27): rules in a Python file beside the deck, played by
``cardkit simulate``, checked by ``--check`` and shown move by move by ``--log``.

Each defect the checker looks for is put into a small working game (``BASE``) on purpose,
one at a time, and must be found with its exact message; the working game, the starter's
and lantern-market's must pass. A rules file is a program: no command but ``simulate``
may import it.
"""

from __future__ import annotations

import contextlib
import os
import random
import re
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

import cardkit.pipeline.watch
from cardkit.cli import main
from cardkit.playtest.rules_file import load_rules
from cardkit.playtest.run_setup import BotSpec, Setup
from cardkit.playtest.runner import play_many
from cardkit.starter import create_deck
from cardkit.toolkit import HIDDEN, OWNER, PUBLIC, Card, Pile

ROOT = Path(__file__).resolve().parent.parent
LANTERN = ROOT / "examples" / "lantern-market"

# A small game on the starter deck: draw a card or play one from your hand, scoring its
# cost; the game ends when the deck and both hands are empty.
BASE = '''from cardkit.toolkit import HIDDEN, OWNER, PUBLIC, CardGame, IllegalMove


class Duel(CardGame):
    player_counts = (2,)
    fields = {"cost": int}

    def setup(self):
        self.deck = self.pile("deck", HIDDEN, self.cards)
        self.deck.shuffle()
        self.hands = self.seat_piles("hand", OWNER)
        self.table = self.pile("table", PUBLIC)
        self.deal(self.deck, self.hands, 2)
        self.public["points"] = [0, 0]

    def moves(self):
        moves = [("play", card) for card in self.hands[self.seat]]
        if self.deck:
            moves.append(("draw",))
        return moves or [("pass",)]

    def play(self, move):
        if move[0] == "draw":
            self.deck.move_top(self.hands[self.seat])
        elif move[0] == "play":
            self.hands[self.seat].move(move[1], self.table)
            self.public["points"][self.seat] += move[1].cost
        if not self.deck and not any(self.hands):
            self.end()
        self.next_seat()

    def scores(self):
        return self.public["points"]
'''

# defect -> (the change to BASE that makes it, the checker's first line after the rules path)
DEFECTS = {
    "no legal move": (
        ('        return moves or [("pass",)]', "        return moves"),
        "game 1 (seed 1), after 25 moves: seat 1 has no legal move, but the game is not "
        "over; offer a move on every turn (a pass), or end the game"),
    "a legal move refused": (
        ('        elif move[0] == "play":\n', '        elif move[0] == "play":\n'
         '            if move[1].cost > 3:\n'
         '                raise IllegalMove(f"{move[1]} costs too much")\n'),
        "game 0 (seed 1), after 4 moves: apply refuses play Knight, a move legal_moves "
        "offered seat 0: Knight costs too much; offer only the moves that can be made"),
    "no end": (
        ("            self.end()\n", "            pass\n"),
        "game 0 (seed 1), after 10001 moves: the game did not end within 10,000 moves; make "
        "sure every game ends: a last round, an empty deck"),
    "a card vanishes": (
        ("            self.deck.move_top(self.hands[self.seat])", "            self.deck.draw()"),
        "game 0 (seed 1), after 3 moves: Knight is in no pile; a card must always be in a "
        "pile: move it to another (a discard pile, a pile of cards out of the game) instead "
        "of taking it away"),
    "a card doubles": (
        ("            self.hands[self.seat].move(move[1], self.table)",
         "            self.table.add(move[1])"),
        "game 0 (seed 1), after 1 move: Supplies is in two places: pile 'hand' of seat 0 and "
        "pile 'table' (rules.py:26 put it in the second); move cards from pile to pile (pile.move, pile.move_top) instead of "
        "adding a card that is still elsewhere"),
    "a leak through the observation": (
        ("    def scores(self):", "    def observation(self, seat):\n"
         "        seen = super().observation(seat)\n"
         "        seen['next'] = self.deck.top.cost if self.deck else None\n"
         "        return seen\n\n    def scores(self):"),
        "game 0 (seed 1), before the first move: seat 0's observation changes when the cards "
        "it cannot see are shuffled: its 'next' shows something of a hidden card; let "
        "observation() show only what the piles' visibility allows"),
    "a leak through a public value": (
        ("        self.next_seat()\n",
         "        self.next_seat()\n        self.public['next'] = self.deck.top\n"),
        "game 0 (seed 1), after 1 move: seat 0 can see Knight, which is face down to it, in "
        "public['next']; keep hidden cards out of public values and moves: a move may "
        "name a card only its seat can see"),
    "a leak through the moves": (
        ('            moves.append(("draw",))', '            moves.append(("draw", self.deck.top))'),
        "game 0 (seed 1), before the first move: seat 0 can see Knight, which is face down "
        "to it, in its moves; keep hidden cards out of public values and moves: a move may "
        "name a card only its seat can see"),
    "returns that do not add up": (
        ("    def scores(self):", "    def returns(self):\n        return [1.0, 1.0]\n\n"
         "    def scores(self):"),
        "game 0 (seed 1), after 28 moves: the returns [1.0, 1.0] do not add up; give one "
        "number a seat (2), each from 0 to 1, together 1 (the win, shared by a tie) or 0 "
        "(nobody won)"),
    "an error in the rules": (
        ('            self.public["points"][self.seat] += move[1].cost',
         '            self.public["points"][self.seat] += move[1].cost\n'
         '            if len(self.table) == 5:\n'
         '                raise KeyError("the table is full")'),
        "game 0 (seed 1), after 8 moves: seat 0's move 'play Scout' raised KeyError: 'the "
        "table is full'; fix the error in your rules"),
    "a field the deck does not have": (
        ('            self.public["points"][self.seat] += move[1].cost',
         '            self.public["points"][self.seat] += move[1].costs'),
        "game 0 (seed 1), before the first move: seat 0's move 'play Supplies' raised "
        "AttributeError: card Supplies has no field 'costs' (its fields: name, kind, cost, "
        "strength, text); fix the error in your rules"),
}


def _deck(tmp_path: Path, rules: str | None = BASE, name: str = "duel") -> Path:
    """The starter deck in ``tmp_path/name`` with ``rules`` as its rules.py."""
    folder = tmp_path / name
    create_deck(folder, name)
    if rules is not None:  # a game of its own: the starter's rules examples do not fit it
        (folder / "rules.py").write_text(rules)
        (folder / "examples.yaml").unlink()
    return folder


def _run(folder: Path, *args: str):
    """``cardkit simulate`` run in the deck's parent folder, in this process (a fresh
    interpreter cost a second of CPU time a run): (exit code, stdout, stderr). A process
    reads a rules file once, by its path: give each version of a file a folder of its own."""
    with contextlib.chdir(folder.parent):
        done = CliRunner().invoke(main, ["simulate", folder.name, *args])
    return done.exit_code, done.stdout, done.stderr


@pytest.mark.parametrize("defect", sorted(DEFECTS))
def test_the_checker_finds_each_defect_with_its_message(tmp_path, defect):
    (old, new), message = DEFECTS[defect]
    assert old in BASE
    folder = _deck(tmp_path, BASE.replace(old, new))
    code, out, err = _run(folder, "--check")
    assert (code, out) == (2, "")
    lines = err.splitlines()
    assert lines[0] == f"cardkit: {folder / 'rules.py'}: {message}"
    game = re.match(r"game (\d+)", message).group(1)
    assert lines[-1] == f"see the game: cardkit simulate duel --players 2 --seed 1 --log {game}"
    if defect in ("an error in the rules", "a legal move refused"):
        # the traceback of the designer's own file, not of cardkit
        assert f'File "{folder / "rules.py"}", line ' in err
        assert "cardkit/playtest" not in err


def test_the_base_game_passes_and_the_log_replays_what_the_checker_found(tmp_path):
    folder = _deck(tmp_path)
    code, out, err = _run(folder, "--check", "--games", "300")
    assert (code, err) == (0, "")
    assert out.startswith("duel: 300 random games, 2 players, seed 1: no mistake found\n")
    (old, new), _ = DEFECTS["no legal move"]
    folder = _deck(tmp_path / "changed", BASE.replace(old, new))
    _, _, checked = _run(folder, "--check")
    found = re.findall(r"^  \d+\. (seat \d: .*)$", checked, re.M)
    code, out, err = _run(folder, "--seed", "1", "--log", "1")
    logged = re.findall(r"^\d+\. (seat \d) sees .*\n   and plays (.*)$", out, re.M)
    assert [f"{seat}: {move}" for seat, move in logged] == found and len(found) == 25
    assert (code, err.splitlines()[0]) == (2, (
        f"cardkit: {folder / 'rules.py'}: game 1 (seed 1), after 25 moves: seat 1 has no "
        "legal move, but the game is not over; offer a move on every turn (a pass), or end "
        "the game"))


def test_an_error_in_the_rules_during_a_simulation_names_the_game_not_cardkit(tmp_path):
    (old, new), _ = DEFECTS["an error in the rules"]
    folder = _deck(tmp_path, BASE.replace(old, new))
    for workers in ("1", "2"):
        code, out, err = _run(folder, "--games", "20", "--workers", workers)
        assert (code, out) == (2, "")
        assert err.splitlines()[0] == (
            f"cardkit: {folder / 'rules.py'}: game 0 (seed 1), after 8 moves: KeyError: 'the "
            "table is full'; see the game with --seed 1 --log 0")
        assert f'File "{folder / "rules.py"}", line 29, in play' in err
        assert "internal error" not in err


# games the checker plays of each example: `make fuzz` plays thousands, make test a few
# hundred (a thousand took a tenth of the suite's time)
CHECKED_GAMES = int(os.environ.get("CARDKIT_CHECK_GAMES", "200"))


def test_the_starter_and_lantern_market_pass_the_checker_over_many_games(tmp_path):
    starter = _deck(tmp_path, rules=None, name="my-game")
    for folder, players in ((starter, 2), (LANTERN, 3)):
        code, out, err = _run(folder, "--check", "--games", str(CHECKED_GAMES),
                              "--players", str(players))
        assert (code, err) == (0, "")
        assert f"{CHECKED_GAMES:,} random games, {players} players, seed 1: no mistake found" \
            in out
        assert "every card in one pile, nothing seen that the piles hide" in out


def test_fixed_seed_results_are_the_same_with_one_worker_or_two():
    rules = load_rules(LANTERN / "rules.py")
    from cardkit.deck.loader import load_deck

    cards = rules.cards_from_deck(load_deck(LANTERN / "deck.yaml").for_rules())
    setup = Setup("lantern-market", 3, 7, (BotSpec("trader"), BotSpec("random"),
                                           BotSpec("random")), cards,
                  str(LANTERN / "rules.py"))
    one, two = play_many(setup, 120, workers=1), play_many(setup, 120, workers=2)
    assert [(r.returns, r.scores, r.length, r.figures) for r in one] == \
        [(r.returns, r.scores, r.length, r.figures) for r in two]
    assert len({tuple(r.scores) for r in one}) > 20  # different games, not one repeated


MARKER = '''from pathlib import Path
Path(__file__).with_name("imported").write_text("the rules were run")
raise SystemExit("a deck's rules file must not be run by this command")
'''


def test_no_command_but_simulate_imports_a_rules_file(tmp_path, monkeypatch):
    folder = _deck(tmp_path, MARKER)
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    for args in (["build", "duel"], ["validate", "duel"], ["export", "duel", "--to", "png",
                 "--dpi", "72"], ["export", "duel", "--to", "tts"], ["preview", "duel",
                 "--cards", "1"], ["list"]):
        result = runner.invoke(main, args)
        assert result.exit_code == 0, (args, result.output)
        assert not (folder / "imported").exists(), args

    def one_build(path, out, rebuild):  # what a watch does first, without waiting
        rebuild([])

    monkeypatch.setattr(cardkit.pipeline.watch, "watch", one_build)
    result = runner.invoke(main, ["watch", "duel"])
    assert result.exit_code == 0, result.output
    assert not (folder / "imported").exists()
    code, _, err = _run(folder, "--games", "5")  # the one command that runs it
    assert (folder / "imported").read_text() == "the rules were run"
    assert code == 2 and "the rules fail as they are read" in err


@pytest.mark.parametrize("rules, args, message", [
    ("from cardkit.toolkit import CardGame\n", [],
     "{rules}: defines no game; write one class that extends CardGame: 'from cardkit.toolkit "
     "import CardGame' then 'class MyGame(CardGame):'"),
    ("from cardkit.toolkit import CardGame\nclass A(CardGame):\n    def setup(self): pass\n",
     [], "{rules}: class A has no moves(), play(), scores(); a game writes setup(), moves(), "
     "play(move) and scores(); see docs/own-game.md, 'Simulate your own game'"),
    ("def f(:\n    pass\n", [], "{rules}:1:7: invalid syntax; fix the Python syntax on that "
     "line"),
    (BASE.replace('fields = {"cost": int}', 'fields = {"cost": int, "power": int}'), [],
     "duel/cards.csv:2: card 1 (name Scout, kind unit): it has no power; the rules in "
     "rules.py read each card's 'power' field: give every card a whole number"),
    (BASE.replace('fields = {"cost": int}', 'fields = {"kind": ("unit", "spell")}'), [],
     "duel/cards.csv:6: card 5 (name Rally, kind event): its kind is 'event'; the rules in "
     "rules.py read each card's 'kind' field: give every card one of: unit, spell"),
    (BASE.replace('fields = {"cost": int}', 'fields = {"cost": int}\n    rulings = "ties share"'),
     [], "{rules}: Duel.rulings is 'ties share'; give a sentence for each ruling, e.g. "
     "rulings = ('A tie shares the win.',)"),
    (BASE, ["--players", "3"], "cardkit: Duel is for 2 players, not 3; choose --players 2"),
    (BASE, ["--bots", "clever"],
     "cardkit: duel has no bot 'clever'; use one of: random, search"),
    (BASE.replace("    def scores(self):", "    def seat_figures(self):\n"
                  "        return [{'played': 'many'}] * self.players\n\n"
                  "    def scores(self):"), [],
     "{rules}: game 0 (seed 1), after 28 moves: seat_figures() gave [{{'played': 'many'}}, {{'played': 'many'}}]; return one "
     "dict of numbers a seat (2 here), e.g. [{{'bought': 3, 'bluffs': 1}}, {{'bought': 2, "
     "'bluffs': 0}}]"),
    (None, [], "cardkit: duel: no rules.py beside deck.yaml; write the game's rules in "
     "rules.py ('cardkit new' makes a deck with one; docs/own-game.md, 'Simulate your own "
     "game', shows how)"),
])
def test_a_rules_file_or_deck_that_cannot_be_played_gets_one_message(tmp_path, rules, args,
                                                                      message):
    folder = _deck(tmp_path, rules)
    if rules is None:
        (folder / "rules.py").unlink()
    code, out, err = _run(folder, *args)
    expected = message.format(rules=f"cardkit: {folder / 'rules.py'}")
    assert (code, out, err.splitlines()[0]) == (2, "", expected)
    assert "Traceback" not in err and len(err.splitlines()) <= 2


def test_a_name_that_is_neither_a_game_nor_a_deck_says_so(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["simulate", "blofb"])
    assert result.exit_code == 2
    assert result.output == (
        "cardkit: 'blofb' is neither a game cardkit ships (blofa, bullet, ragusa, rise-up, "
        "shapes) nor a deck; give your deck's folder or YAML file, with the game's rules in "
        "rules.py beside it; did you mean 'blofa'?\n")


def test_the_log_shows_what_the_seat_to_play_saw_and_how_the_game_ended(tmp_path):
    folder = _deck(tmp_path, rules=None, name="my-game")
    code, out, err = _run(folder, "--log", "0", "--bots", "builder", "--bots", "random")
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == "my-game: game 0, seed 1, 2 players (builder, random)"
    # seat 0 sees its own hand and only the size of seat 1's
    assert re.fullmatch(r"1\. seat 0 sees deck 10, hand \[\w+, \w+, \w+\] \| 3, line \[\] \| "
                        r"\[\], discard \[\], coins \[0, 0\], points \[0, 0\], round 1",
                        lines[1]), lines[1]
    assert lines[2].startswith("   and plays ")
    assert re.fullmatch(r"over after 16 moves \(16 turns\): scores \[\d+, \d+\]; (seat \d won|seats 0, 1 "
                        r"share the win)", lines[-1]), lines[-1]
    assert len(lines) == 1 + 2 * 16 + 1


# -- the toolkit ---------------------------------------------------------------------------

OPERATIONS = st.lists(st.tuples(st.sampled_from(["move_top", "move", "move_all", "shuffle",
                                                 "add_bottom"]),
                                st.integers(0, 3), st.integers(0, 3), st.integers(0, 40)),
                      max_size=60)


@settings(max_examples=150, deadline=None)
@given(OPERATIONS, st.integers(0, 30))
def test_moving_cards_between_piles_never_loses_or_doubles_one(operations, size):
    """Oracle: a plain count of every card, after any sequence of the piles' moves."""
    cards = [Card(i, {"name": f"c{i}"}) for i in range(size)]
    piles = [Pile("deck", HIDDEN, cards, rng=random.Random(1)),
             Pile("hand", OWNER, owner=0, rng=random.Random(2)),
             Pile("table", PUBLIC, rng=random.Random(3)), Pile("out", HIDDEN)]
    for operation, a, b, n in operations:
        source, target = piles[a], piles[b]
        if operation == "move_top":
            source.move_top(target, n % 4)
        elif operation == "move" and source.cards:
            source.move(source.cards[n % len(source)], target)
        elif operation == "move_all" and source is not target:
            source.move_all(target)
        elif operation == "shuffle" and source.rng:
            source.shuffle()
        elif operation == "add_bottom" and source.cards and source is not target:
            target.add(source.draw(), bottom=True)
    held = sorted(card.id for pile in piles for card in pile)
    assert held == list(range(size))


def test_a_seat_sees_a_pile_as_its_visibility_says():
    """Hand-worked: what each seat sees of each kind of pile."""
    a, b = Card(0, {"name": "Ace"}, back="red"), Card(1, {"name": "Two"}, back="blue")
    expected = {  # visibility, owner -> (what seat 0 sees, what seat 1 sees)
        (HIDDEN, None): (2, 2),
        (OWNER, 0): ((a, b), 2),
        ("backs", 0): ((a, b), ("red", "blue")),
        ("backs", None): (("red", "blue"), ("red", "blue")),
        (PUBLIC, None): ((a, b), (a, b)),
    }
    for (visibility, owner), seen in expected.items():
        pile = Pile("p", visibility, [a, b], owner=owner)
        assert (pile.seen_by(0), pile.seen_by(1)) == seen, visibility


def test_lantern_market_scores_as_its_rules_say():
    """Hand-worked: stalls and hands set by hand, scored by the rules' table."""
    rules = load_rules(LANTERN / "rules.py")
    from cardkit.deck.loader import load_deck

    cards = rules.cards_from_deck(load_deck(LANTERN / "deck.yaml").for_rules())
    state = rules.new_state(2, random.Random(1), cards)
    by_name = {}
    for card in cards:
        by_name.setdefault(card.name, []).append(card)
    for pile in state.all_piles():
        pile.cards.clear()
    state.stalls[0].cards += [by_name["Silk Bolt"][0], by_name["Lantern Oil"][0],
                              by_name["Night Watch"][0]]
    state.hands[0].cards.append(by_name["Spice Jar"][0])
    state.stalls[1].cards += [by_name["Golden Lamp"][0], by_name["Captain"][0]]
    state.public["coins"] = [5, 9]
    # seat 0: 5 + 1 + 0 (a guard) + 2 (in hand) + 5 // 3; seat 1: 4 + 0 + 9 // 3
    assert state.scores() == [9, 7]


def test_the_starter_s_game_on_the_toolkit_plays_as_the_same_game_written_by_hand(tmp_path):
    """Oracle: bench/hand_starter.py, the starter's rules written again without the
    toolkit, plays the same games from the same seeds (2 to 4 players)."""
    sys.path.insert(0, str(ROOT / "bench"))
    try:
        from hand_starter import HandStarter
    finally:
        sys.path.remove(str(ROOT / "bench"))
    folder = _deck(tmp_path, rules=None, name="my-game")
    game = load_rules(folder / "rules.py")
    from cardkit.deck.loader import load_deck

    deck = load_deck(folder / "deck.yaml")
    copies, cards = deck.copies(), game.cards_from_deck(deck.for_rules())
    for players in (2, 3, 4):
        for index in range(150):
            states = [make(players, random.Random(f"{players}:{index}"), cards)
                      for make in (game.new_state, HandStarter)]
            choice = random.Random(index)
            while not states[0].is_over():
                legal = [state.legal_moves() for state in states]
                assert [_read(move, str) for move in legal[0]] == \
                    [_read(move, lambda c: copies[c].fields["name"]) for move in legal[1]]
                pick = choice.randrange(len(legal[0]))
                for state, moves in zip(states, legal):
                    state.apply(moves[pick])
            assert states[1].is_over()
            assert states[0].scores() == states[1].scores()
            assert states[0].returns() == states[1].returns()


def _read(move, name_of) -> str:
    """A move as words, its cards by name: ('play', <card 5>) -> 'play Scout'."""
    return " ".join([move[0], *(name_of(card) for card in move[1:])])


# a designer's mistake -> (the change to BASE that makes it, --workers, what the message says)
MISTAKES = {
    "scores() gives text": (
        ('        return self.public["points"]', '        return ["a lot", 0]'), "1",
        "scores() gave ['a lot', 0]; return one number a seat (2 here), e.g. [12, 9]"),
    "scores() gives a 400-digit number": (
        ('        return self.public["points"]', '        return [10 ** 400, 0]'), "1",
        "scores() gave [1000000000"),
    "figures() gives a list": (
        ("    def scores(self):", "    def figures(self):\n        return [1, 2]\n\n"
         "    def scores(self):"), "1",
        "figures() gave [1, 2]; return a dict of numbers or words, e.g. {'captures': 3, "
        "'ending': 'deck empty'}"),
    "figures that cannot be pickled": (
        ("    def scores(self):", "    def figures(self):\n        return {'last': lambda: 0}"
         "\n\n    def scores(self):"), "2", "figures() gave {'last': <function Duel.figures."),
    "a worker that dies": (
        ('        if move[0] == "draw":', '        import os\n        os._exit(3)\n'
         '        if move[0] == "draw":'), "2",
        # the pool may have reaped the worker, or ended it, before its exit code was read
        re.compile(r"the worker process playing it ended( \((exit code 3|killed by signal "
                   r"\d+)\))? before the game did; look for os\._exit\(\)")),
    "sys.exit(0) in play()": (
        ('        if move[0] == "draw":', '        import sys\n        sys.exit(0)\n'
         '        if move[0] == "draw":'), "1", "the rules called exit(0); end a game with "
        "self.end()"),
}


@pytest.mark.parametrize("mistake", sorted(MISTAKES))
def test_a_designer_s_mistake_in_a_run_exits_2_naming_the_game(tmp_path, mistake):
    (old, new), workers, message = MISTAKES[mistake]
    assert old in BASE
    folder = _deck(tmp_path, BASE.replace(old, new))
    # 60 games: two batches, so that --workers 2 plays them in worker processes
    outcome = CliRunner().invoke(main, ["simulate", str(folder), "--games", "60",
                                        "--workers", workers])
    assert outcome.exit_code == 2, outcome.output
    first = outcome.output.splitlines()[0]
    assert re.match(rf"cardkit: {re.escape(str(folder / 'rules.py'))}: game (0|50) "
                    r"\(seed 1\)(, after \d+ moves)?: ", first), first
    assert message.search(first) if isinstance(message, re.Pattern) else message in first
    assert "internal error" not in outcome.output


def test_a_designer_s_rulings_are_listed_in_the_report(tmp_path):
    """The game's ``rulings`` and each docstring paragraph beginning "Ruling:" reach
    summary.json and the report, which says they are the rules file's."""
    import json

    rules = BASE.replace('    fields = {"cost": int}\n', '    fields = {"cost": int}\n'
                         '    rulings = ("A played card scores its cost at once.",)\n')
    rules = rules.replace("    def scores(self):\n", "    def scores(self):\n"
                          '        """Ruling: a tie on points shares\n        the win."""\n')
    folder = _deck(tmp_path, rules)
    code, _, err = _run(folder, "--games", "20", "--workers", "1", "--report",
                        str(tmp_path / "r"))
    assert code == 0, err
    said = ["A played card scores its cost at once.", "A tie on points shares the win."]
    assert json.loads((tmp_path / "r" / "summary.json").read_text())["rulings"] == said
    page = (tmp_path / "r" / "report.html").read_text()
    assert "your rules file reads it as listed below" in page
    assert all(f"<li>{ruling}</li>" in page for ruling in said)
