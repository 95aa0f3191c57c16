"""Issue 56, item 1: the toolkit made faster keeps its games. A fixed seed plays the very
games it played before (recorded from the code before the change), checked games and
unchecked ones; a pile is a list that still tells piles apart; a finished game is scored
once; an error past the checked games says how far the game got."""

from __future__ import annotations

import hashlib
import importlib
import json
import random
from pathlib import Path

import pytest

from cardkit.deck.loader import load_deck
from cardkit.playtest.game_loop import CHECKED_GAMES, play_one
from cardkit.playtest.rules_file import RulesFileError, load_rules
from cardkit.playtest.run_setup import BotSpec, Setup, game_of
from cardkit.starter import create_deck
from cardkit.toolkit import OWNER, PUBLIC, Card, Pile

BENCH = Path(__file__).resolve().parent.parent / "bench"

# sha256 of games 0-119 (seed 1, random bots) of each game, as the runner played them
# before issue 56's speed work (the code of commit 5fb124d): scores, returns, moves,
# turns, figures and each seat's cards drawn, played and held
RECORDED = {
    "starter": "03541875fe6313eb7d34e4120a30ab7b95a18742c895dd3b16dadcf2e1562440",
    "pairs": "830fd018e69475925b60cc003f9801365ae795c7f4f09bac9589095c2538dbe7",
    "tricks": "60d86638ad90ff93e14cfe6c34bf0a1ef8a5d8ba4694460f2b9bde88764d101c",
}


def _setups(tmp_path: Path, monkeypatch) -> dict:
    """The bench's three games (bench/toolkit_bench.py), as Setups of seed 1 (bench/ on
    the path, as the bench has it: Pairs imports the starter's plain version)."""
    monkeypatch.syspath_prepend(str(BENCH))
    starter = tmp_path / "starter"
    create_deck(starter, "starter")
    cards = load_rules(starter / "rules.py").cards_from_deck(
        load_deck(starter / "deck.yaml").for_rules())
    tricks = importlib.import_module("tricks_game")
    dealt = load_rules(BENCH / "tricks_game.py").cards_from_deck(tricks.deck())
    bot = BotSpec("random")
    return {"starter": Setup("starter", 2, 1, (bot,) * 2, cards,
                                    str(starter / "rules.py")),
            "pairs": Setup("pairs", 2, 1, (bot,) * 2, cards,
                                  str(BENCH / "fields_game.py")),
            "tricks": Setup("tricks", 4, 1, (bot,) * 4, dealt,
                                   str(BENCH / "tricks_game.py"))}


def test_a_fixed_seed_plays_the_games_it_played_before_the_toolkit_got_faster(tmp_path,
                                                                              monkeypatch):
    for name, setup in _setups(tmp_path, monkeypatch).items():
        played = [play_one(setup, index) for index in range(120)]
        assert any(r.index >= CHECKED_GAMES for r in played)  # unchecked ones too
        shown = json.dumps([[r.scores, r.returns, r.moves, r.turns, r.figures,
                             [{what: sorted(names) for what, names in seat.items()}
                              for seat in r.cards]] for r in played])
        assert hashlib.sha256(shown.encode()).hexdigest() == RECORDED[name], name


def test_a_pile_is_a_list_of_its_cards_and_piles_are_told_apart():
    scout, guard = Card(0, {"name": "Scout"}), Card(1, {"name": "Guard"})
    hands = [Pile("hand", OWNER, owner=0), Pile("hand", OWNER, owner=1)]
    line = Pile("line", PUBLIC, [scout, guard], owner=0)
    # list speed: no Python-level __len__, __iter__ or __contains__ between a rule and them
    for method in ("__len__", "__iter__", "__contains__", "__getitem__", "__bool__"):
        assert getattr(Pile, method, None) is getattr(list, method, None), method
    assert isinstance(line, list) and len(line) == 2 and list(line) == [scout, guard]
    assert line[-1] is guard is line.top and scout in line and not hands[0]
    # two empty hands are two places: the second is found as itself, not as the first
    assert hands[0] != hands[1] and hands.index(hands[1]) == 1 and hands[1] in hands
    assert len({hands[0], hands[1], line}) == 3  # a dict key, by identity
    assert line == [scout, guard] and hands[0] == [] and line.cards is line
    hands[1].cards = [guard]
    assert hands[1] == [guard] and repr(hands[1]) == "hand of seat 1: [Guard]"


def test_a_finished_game_is_scored_once(tmp_path, monkeypatch):
    """returns() asked scores() again: the runner's shares come from the scores given."""
    setup = _setups(tmp_path, monkeypatch)["starter"]
    game = game_of(setup)
    kind = type(game.new_state(2, random.Random(1), setup.cards))
    scored = []
    monkeypatch.setattr(kind, "scores", lambda self, scores=kind.scores: (
        scored.append(1), scores(self))[1])
    for index in (0, CHECKED_GAMES):
        scored.clear()
        result = play_one(setup, index)
        assert len(scored) == 1
        best = max(result.scores)
        won = [seat for seat, score in enumerate(result.scores) if score == best]
        assert result.returns == [1 / len(won) if seat in won else 0.0 for seat in range(2)]


@pytest.mark.parametrize("past_the_checked", [False, True])
def test_an_error_in_the_rules_says_how_many_moves_the_game_made(tmp_path, monkeypatch,
                                                                 past_the_checked):
    """The toolkit's own loop (games past the checked ones) counts as the checked one:
    the moves finished before the error."""
    setup = _setups(tmp_path, monkeypatch)["tricks"]
    rules = (BENCH / "tricks_game.py").read_text().replace(
        "        card = move[1]\n        if not self.trick:",
        "        card = move[1]\n        if self.moves_made == 23:\n"
        "            raise KeyError('the 23rd move')\n        if not self.trick:")
    (tmp_path / "tricks.py").write_text(rules)
    setup = Setup("tricks", 4, 1, setup.bots, setup.cards, str(tmp_path / "tricks.py"))
    index = CHECKED_GAMES + 3 if past_the_checked else 3
    with pytest.raises(RulesFileError) as raised:
        play_one(setup, index)
    assert f"game {index} (seed 1), after 22 moves: KeyError: 'the 23rd move'" in \
        raised.value.what


def _keeps_a_dict(state) -> bool:
    """Whether Python keeps ``state``'s attributes in a dict of their own, as it does from
    the first time anything reads its ``__dict__`` (``gc.get_referents`` gives the dict
    then; before, the attributes' values one by one)."""
    import gc

    return any(type(found) is dict and "players" in found for found in gc.get_referents(state))


def test_past_the_checked_games_a_game_keeps_its_attributes_out_of_a_dict(tmp_path,
                                                                          monkeypatch):
    """Reading a game's ``__dict__`` (the check that the rules keep only declared state)
    makes Python keep its attributes in a dict, which slows every ``self.x`` of the rules
    after it two to three times: past a run's checked games that check waits for the end
    of the game. A checked game still checks as it is made (and after each move)."""
    from cardkit.playtest import game_loop

    seen = []
    scored = game_loop._game_result

    def scoring(state, *args):
        seen.append((state.checking, _keeps_a_dict(state)))
        return scored(state, *args)

    monkeypatch.setattr(game_loop, "_game_result", scoring)
    for setup in _setups(tmp_path, monkeypatch).values():
        seen.clear()
        play_one(setup, 0)
        play_one(setup, CHECKED_GAMES)
        assert seen == [(True, True), (False, False)], setup.game


def test_a_value_kept_during_play_past_the_checked_games_stops_the_run(tmp_path, monkeypatch):
    """The check at the end of an unchecked game refuses what the check after each move
    of a checked game refuses, with the same message (file, line, attribute)."""
    setup = _setups(tmp_path, monkeypatch)["tricks"]
    rules = (BENCH / "tricks_game.py").read_text().replace(
        "        card = move[1]\n",
        "        card = move[1]\n        if self.moves_made == 30:\n"
        "            self.last = card\n")
    path = tmp_path / "tricks.py"
    path.write_text(rules)
    line = rules[:rules.index("self.last = card")].count("\n") + 1
    for index in (3, CHECKED_GAMES + 3):
        changed = Setup("tricks", 4, 1, setup.bots, setup.cards, str(path))
        with pytest.raises(RulesFileError) as raised:
            play_one(changed, index)
        assert raised.value.what.startswith(f"{path}:{line}: Tricks keeps self.last (card "), \
            raised.value.what


@pytest.mark.parametrize("method", ["scores", "returns", "figures", "seat_figures"])
def test_a_finished_game_s_outcome_is_checked_as_before(method):
    """The outcome checks at list speed take and refuse what the plain definition does
    (written again here: one number a seat, finite, no flag; figures of numbers or
    words by name; a seat's figures of numbers)."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from cardkit.playtest.rules_file import BadOutcome, check_outcome

    def number(value):
        if not isinstance(value, (int, float)) or isinstance(value, bool):
            return False
        try:
            return float("-inf") < float(value) < float("inf")
        except OverflowError:  # an int past the floats
            return False

    def fits(found, players):
        if method in ("scores", "returns"):
            return isinstance(found, (list, tuple)) and len(found) == players and \
                all(map(number, found))
        if method == "figures":
            return isinstance(found, dict) and all(
                isinstance(k, str) and (isinstance(v, str) or number(v)) for k, v in found.items())
        return found is None or isinstance(found, (list, tuple)) and len(found) == players \
            and all(isinstance(seat, dict) and all(isinstance(k, str) and number(v)
                                                   for k, v in seat.items()) for seat in found)

    values = st.one_of(st.integers(-10 ** 400, 10 ** 400), st.floats(), st.booleans(),
                       st.text(max_size=3), st.none())
    found = st.one_of(st.lists(values, max_size=4), st.tuples(values, values),
                      st.dictionaries(st.one_of(st.text(max_size=3), st.integers()), values,
                                      max_size=3),
                      st.lists(st.dictionaries(st.text(max_size=3), values, max_size=2),
                               max_size=3), values)

    @settings(max_examples=400, deadline=None)
    @given(found=found, players=st.integers(1, 4))
    def agrees(found, players):
        try:
            check_outcome(method, found, players)
            taken = True
        except BadOutcome:
            taken = False
        assert taken == fits(found, players), (found, players)

    agrees()
