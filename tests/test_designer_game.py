"""A designer's game on the toolkit (issue 40): card fields read at attribute speed, groups
of cards made during play, identical copies offered once, and the messages a designer
meets (player counts, private values leaking, a game that does not end)."""

from __future__ import annotations

import inspect
import pickle
import random
from pathlib import Path

from click.testing import CliRunner

from cardkit.cli import main
from cardkit.deck.loader import load_deck
from cardkit.playtest import game_loop
from cardkit.playtest.rules_file import load_rules
from cardkit.playtest.run_setup import BotSpec, Setup
from cardkit.starter import create_deck
from cardkit.toolkit import PUBLIC, Card, CardGame

from test_own_rules import BASE as DUEL  # a small game on the starter deck


def test_a_card_field_is_a_plain_attribute_and_still_cannot_be_changed():
    scout = Card(0, {"name": "Scout", "cost": 1, "flavor text": "eager", "title": "x"},
                 back="unit")
    # a slot of the card's class: read without a call to __getattr__ (683,000 calls in
    # 100 games of the game)
    assert type(inspect.getattr_static(scout, "cost")).__name__ == "member_descriptor"
    assert (scout.cost, scout["flavor text"], scout.title, scout.back) == (1, "eager", "Scout",
                                                                            "unit")
    # a copy is one object: equal to itself only, by Python's own identity (no call)
    same = Card(0, {"name": "Scout", "cost": 1, "flavor text": "eager", "title": "x"},
                back="unit")
    twin = Card(1, {"name": "Scout", "cost": 1, "flavor text": "eager", "title": "x"},
                back="unit")
    assert isinstance(scout, Card) and same is scout and twin != scout
    assert "__eq__" not in vars(Card) and "__hash__" not in vars(Card)
    assert len({scout, same, twin}) == 2 and twin.look == scout.look
    for change in (lambda: setattr(scout, "cost", 5), lambda: delattr(scout, "cost")):
        try:
            change()
            raise AssertionError("a card was changed")
        except AttributeError as refused:
            assert "cannot be changed" in str(refused)
    again = pickle.loads(pickle.dumps(scout))
    assert again is scout  # unpickled in another process's memory, the same card again


def _simulated(tmp_path: Path, rules: str, *args: str):
    """``cardkit simulate`` of ``rules`` on the starter deck, in this process."""
    folder = tmp_path / "duel"
    create_deck(folder, "duel")
    (folder / "rules.py").write_text(rules)
    (folder / "examples.yaml").unlink()  # the starter's: of its own game
    return folder, CliRunner().invoke(main, ["simulate", str(folder), *args])


def test_the_player_count_message_names_every_count_allowed_whatever_their_order(tmp_path):
    """player_counts = (4, 3, 5), the usual count first, was 'for 4-5 players'."""
    rules = DUEL.replace("player_counts = (2,)", "player_counts = (4, 3, 5)")
    _, result = _simulated(tmp_path, rules, "--players", "2")
    assert (result.exit_code, result.output) == (
        2, "cardkit: Duel is for 3-5 players, not 2; choose --players 3 to 5\n")


def test_check_names_a_hidden_card_kept_in_a_seat_s_private_values(tmp_path):
    """The check looked in public and the moves only, and said the game hid nothing."""
    rules = DUEL.replace('        self.public["points"] = [0, 0]\n',
                         '        self.public["points"] = [0, 0]\n'
                         '        self.private[0]["next"] = self.deck.top\n')
    _, result = _simulated(tmp_path, rules, "--check", "--games", "2")
    assert result.exit_code == 2, result.output
    assert result.output.splitlines()[0].endswith(
        "game 0 (seed 1), before the first move: seat 0 can see Knight, which is face down "
        "to it, in private[0]['next']; keep in private[0] only cards seat 0 can see; a card "
        "it should know of but not show goes in a pile it owns (OWNER)")


def test_a_game_that_does_not_end_is_told_what_check_finds_in_it(tmp_path, monkeypatch):
    """A doubled card kept the game going: plain simulate said only 'did not end'."""
    monkeypatch.setattr(game_loop, "MAX_MOVES", 3000)  # 100,000 in a run: the test is quicker
    rules = DUEL.replace("            self.hands[self.seat].move(move[1], self.table)",
                         "            self.table.add(move[1])")
    folder, result = _simulated(tmp_path, rules, "--games", "1")
    assert result.exit_code == 2, result.output
    assert result.output.splitlines()[0] == (
        f"cardkit: {folder / 'rules.py'}: game 0 (seed 1), after 3000 moves: the game did "
        "not end within 3,000 moves; --check finds in this game with random moves, after "
        "1 move: Supplies is in two places: pile 'hand' of seat 0 and pile 'table' "
        "(rules.py:26 put it in the second); move cards from pile to pile (pile.move, pile.move_top) instead of adding a card that "
        "is still elsewhere")


def _hand_game(cards, **declared):
    class Hand(CardGame):
        locals().update(declared)

        def setup(self):
            self.hand = self.pile("hand", PUBLIC, self.cards)
            self.table = self.pile("table", PUBLIC)

        def moves(self):
            return [("play", card) for card in self.hand] + [("meld", tuple(self.hand.cards))]

        def play(self, move):
            for card in move[1:] if move[0] == "play" else move[1]:
                self.hand.move(card, self.table)
            self.end()

        def scores(self):
            return [len(self.table), 0]

    return Hand(2, random.Random(1), cards)


def test_identical_copies_are_offered_once_and_either_plays_as_the_one_offered():
    scout, guard, twin = (Card(0, {"name": "Scout"}), Card(1, {"name": "Guard"}),
                          Card(2, {"name": "Scout"}))
    game = _hand_game([scout, guard, twin])
    legal = game.legal_moves()
    assert legal == [("play", scout), ("play", guard), ("meld", (scout, guard, twin))]
    assert scout.look == twin.look != guard.look
    game.apply(("play", twin))  # the twin is not offered; it plays as the Scout offered
    assert game.table.cards == [scout]
    every = _hand_game([scout, guard, twin], distinct_copies=True)
    assert [move[1] for move in every.legal_moves()[:3]] == [scout, guard, twin]


def test_a_move_that_holds_a_list_is_refused_naming_the_line_and_the_fix(tmp_path):
    rules = DUEL.replace('moves = [("play", card) for card in self.hands[self.seat]]',
                         'moves = [("play", [card]) for card in self.hands[self.seat]]')
    folder, result = _simulated(tmp_path, rules, "--games", "1")
    assert (result.exit_code, result.output) == (2, (
        f"cardkit: {folder / 'rules.py'}: game 0 (seed 1), after 0 moves: Duel.moves() "
        "(line 16) offered ('play', [Supplies]), which holds a list: a move must be a value "
        "that cannot change; make it a tuple: ('play', card), ('meld', (card, card))\n"))


# Sets on the starter deck: draw, lay two cards of a kind from your hand as a new set, or
# add one of that kind to your most recent set; each set laid puts the deck's top card
# face down among the tricks.
SETS = DUEL.replace('''        self.public["points"] = [0, 0]
''', '''        self.public["points"] = [0, 0]
        self.sets = self.seat_groups("sets", PUBLIC)
        self.tricks = self.groups("tricks", HIDDEN)
''').replace(
    '''        moves = [("play", card) for card in self.hands[self.seat]]''',
    '''        hand, sets = self.hands[self.seat], self.sets[self.seat]
        moves = [("lay", (a, b))
                 for i, a in enumerate(hand) for b in hand.cards[i + 1:]
                 if a.kind == b.kind]
        if sets:
            moves += [("add", card) for card in hand if card.kind == sets[-1].top.kind]''').replace(
    '''        elif move[0] == "play":
            self.hands[self.seat].move(move[1], self.table)
            self.public["points"][self.seat] += move[1].cost''', '''        elif move[0] == "lay":
            laid = self.sets[self.seat].new()
            for card in move[1]:
                self.hands[self.seat].move(card, laid)
            if self.deck:
                self.deck.move_top(self.tricks.new())
        elif move[0] == "add":
            self.hands[self.seat].move(move[1], self.sets[self.seat][-1])
        self.public["points"][self.seat] = sum(map(len, self.sets[self.seat]))''').replace(
    "if not self.deck and not any(self.hands):", "if not self.deck:").replace(
    'fields = {"cost": int}', 'fields = {"kind": ("unit", "event")}')


def test_groups_made_during_play_are_piles_every_seat_sees_as_their_visibility_says(tmp_path):
    folder = tmp_path / "sets"
    create_deck(folder, "sets")
    (folder / "rules.py").write_text(SETS)
    (folder / "examples.yaml").unlink()  # the starter's: of its own game
    result = CliRunner().invoke(main, ["simulate", str(folder), "--check", "--games", "30"])
    assert result.exit_code == 0, result.output
    game = load_rules(folder / "rules.py")
    cards = game.cards_from_deck(load_deck(folder / "deck.yaml").for_rules())
    state = game.new_state(2, random.Random(4), cards)
    while not len(state.tricks):
        state.apply(state.legal_moves()[0])
    laid = state.sets[state.seat - 1]
    assert len(laid) == 1 and len(laid[-1]) == 2 and len(state.tricks[0]) == 1
    seen = state.observation(0)["piles"]
    assert seen["sets"] == tuple(tuple(tuple(g.cards) for g in sets) for sets in state.sets)
    assert seen["tricks"] == (1,)  # face down: counted, not seen
    world = state.determinized(0, random.Random(1))
    assert list(world.sets[1 - state.seat][-1]) == list(laid[-1])  # seen: kept (piles: `is`)
    assert world.tricks is not state.tricks and world.tricks[0] is not state.tricks[0]
    assert world.piles["tricks"] is world.tricks
    unseen = sorted(state.tricks[0].cards + state.deck.cards + state.hands[1].cards)
    assert sorted(world.tricks[0].cards + world.deck.cards + world.hands[1].cards) == unseen
    world.tricks.new()  # the sample's groups grow apart from the game's
    assert (len(world.tricks), len(state.tricks)) == (2, 1)


def _bench_module(name: str):
    import importlib
    import sys

    bench = str(Path(__file__).resolve().parent.parent / "bench")
    sys.path.insert(0, bench)
    try:
        return importlib.import_module(name)
    finally:
        sys.path.remove(bench)


def test_the_trick_taking_game_through_the_runner_plays_as_its_plain_python_twin():
    """Issue 56: make bench's trick-taking game (bench/tricks_game.py) through the runner,
    random bots, and the same game written in plain Python with a card as an index, play
    the same games from the same seeds, score for score; both sides of the checked
    games and the rest (game_loop.CHECKED_GAMES) alike."""
    tricks = _bench_module("tricks_game")
    path = Path(tricks.__file__)
    printed = tricks.deck()
    cards = load_rules(path).cards_from_deck(printed)
    setup = Setup("tricks", 4, 7, (BotSpec("random"),) * 4, cards, str(path))
    for index in (*range(12), game_loop.CHECKED_GAMES, game_loop.CHECKED_GAMES + 1):
        result = game_loop.play_one(setup, index)
        assert result.scores == tricks.play_plain(4, 7, index, printed)
        assert result.moves == 4 * (1 + tricks.HAND) * tricks.HANDS  # a bid and 8 cards


def test_a_deck_without_identical_copies_offers_the_moves_as_given_and_checks_the_first_games():
    """No two cards look the same: moves() is offered as it is, with no look-up of copies
    (the run keeps no memory of lists of moves); a move outside them is refused while the
    game checks its moves (a run's first games, --check), and later plays unchecked."""
    cards = [Card(i, {"name": name}) for i, name in enumerate(["Scout", "Guard", "Archer"])]
    game = _hand_game(cards)
    moves = game.legal_moves()
    assert game.offered is None and moves == [("play", cards[0]), ("play", cards[1]),
                                              ("play", cards[2]),
                                              ("meld", tuple(cards))]
    try:
        game.apply(("play", Card(5, {"name": "Knight"})))
    except Exception as error:
        assert "is not a legal move for seat 0" in str(error)
    else:
        raise AssertionError("an illegal move was played in a checked game")
    twins = _hand_game([Card(0, {"name": "Scout"}), Card(1, {"name": "Scout"})])
    assert twins.offered == {}  # copies: offered once, through the run's memory


def test_a_run_checks_the_moves_of_its_first_games_only(monkeypatch):
    """The run's first CHECKED_GAMES games check every move against moves(); later games
    play without that check (the bench's 2x, issue 56); --check checks every game."""
    from dataclasses import replace

    tricks = _bench_module("tricks_game")
    path = Path(tricks.__file__)
    game = load_rules(path)
    setup = Setup("tricks", 4, 1, (BotSpec("random"),) * 4,
                         game.cards_from_deck(tricks.deck()), str(path))
    made = []

    def recording(*args, **options):
        made.append(game.new_state(*args, **options))
        return made[-1]

    monkeypatch.setattr(game_loop, "game_of", lambda _: replace(game, new_state=recording))
    game_loop.play_one(setup, game_loop.CHECKED_GAMES - 1)
    game_loop.play_one(setup, game_loop.CHECKED_GAMES)
    assert [state.checking for state in made] == [True, False]


def test_the_changelog_says_how_to_update_a_rules_file_the_toolkit_now_refuses(tmp_path):
    """Issue 56, item 3: 'self.stats = ...' ran last version and is refused now; the
    refusal says what to do, and CHANGELOG.md (in the docs as 'Changes, version by
    version', linked where the toolkit's rules are) says what changed and how to update."""
    root = Path(__file__).resolve().parent.parent
    rules = DUEL.replace('        self.public["points"] = [0, 0]\n',
                         '        self.public["points"] = [0, 0]\n        self.stats = {}\n')
    _, result = _simulated(tmp_path, rules, "--games", "1")
    assert result.exit_code == 2 and "keeps self.stats (dict {})" in result.output
    unreleased = (root / "CHANGELOG.md").read_text().split("## [Unreleased]")[1].split(
        "\n## [")[0]
    entry = next(item for item in unreleased.split("\n- ") if "self.stats" in item)
    assert entry.startswith("Toolkit: ") and "**To update:**" in entry
    assert 'self.public["stats"]' in entry and "ROUNDS = 4" in entry
    assert "```{include} ../CHANGELOG.md" in (root / "docs" / "changelog.md").read_text()
    assert "[Changes, version by version](changelog.md)" in " ".join(
        (root / "docs" / "own-game.md").read_text().split())


def test_random_bots_past_the_checked_games_are_played_by_the_runner_itself(monkeypatch):
    """Issue 56's speed: once a run's first games have checked every move, a game of the
    toolkit's random bots copies no list of moves for a bot, asks no bot and looks no move
    up among those offered; it plays the same game as a random bot asked move by move.
    The checked games still apply every move through apply() (legality checked)."""
    from cardkit.toolkit import RandomBot

    tricks = _bench_module("tricks_game")
    path = Path(tricks.__file__)
    game = load_rules(path)
    cards = game.cards_from_deck(tricks.deck())
    setup = Setup("tricks", 4, 3, (BotSpec("random"),) * 4, cards, str(path))
    calls = {"legal_moves": 0, "choose": 0, "apply": 0}

    def counted(name, method):
        def call(*args):
            calls[name] += 1
            return method(*args)
        return call

    monkeypatch.setattr(CardGame, "legal_moves", counted("legal_moves", CardGame.legal_moves))
    monkeypatch.setattr(CardGame, "apply", counted("apply", CardGame.apply))
    monkeypatch.setattr(RandomBot, "choose", counted("choose", RandomBot.choose))
    played = game_loop.play_one(setup, game_loop.CHECKED_GAMES)
    assert calls == {"legal_moves": 0, "choose": 0, "apply": 0}
    checked = game_loop.play_one(setup, game_loop.CHECKED_GAMES - 1)
    assert calls["apply"] == checked.moves and calls["legal_moves"] == 0
    for index, result in ((game_loop.CHECKED_GAMES, played), (game_loop.CHECKED_GAMES - 1, checked)):
        state = game.new_state(4, random.Random(f"3:{index}"), cards)
        bots, rngs = RandomBot(), [random.Random(f"3:{index}:{seat}") for seat in range(4)]
        while not state.is_over():
            seat = state.current_player()
            state.apply(bots.choose(None, state.legal_moves(), rngs[seat]))
        assert (state.scores(), state.moves_made) == (result.scores, result.moves)


def test_identical_copies_share_one_look():
    """A look is compared for every card of every new list of moves: identical copies
    hold the same string, so that comparing two is one pointer."""
    scout, twin = Card(0, {"name": "Scout", "cost": 1}), Card(1, {"cost": 1, "name": "Scout"})
    assert scout.look is twin.look and scout.look is not Card(2, {"name": "Guard"}).look
