"""The search's samples run on the declared state only (issue 57): a guess-the-hidden-card
game whose rules keep the answer outside the piles and values they declare, in each place
a designer's code could, and a search that is right no more often than chance.

An honest player of the game is right half the time. Each place is played for GAMES
games; at chance the number right is Binomial(GAMES, 1/2), and a count outside
[LOW, HIGH] is called a leak: over the PLACES places together that is a false alarm at
most FALSE_ALARM of the time (a two-sided exact binomial bound, Bonferroni over places).
"""

from __future__ import annotations

import math
import sys

import pytest

from cardkit.playtest.run_setup import BotSpec, Setup
from cardkit.playtest.runner import play_many
from test_peek import CARDS, GUESS, SETUP_END, _rules, _simulated

READ = "self.mystery.top.id % 2\n        self.end()"  # what play() compares the guess with
TRUTH = "self.mystery.top.id % 2"

# place -> (module-level lines, what setup adds to keep the answer there, how play reads it)
PLACES = {
    "a module global": ("ANSWER = 0\n", f"        global ANSWER\n        ANSWER = {TRUTH}\n",
                        "ANSWER"),
    "a class attribute": ("", f"        type(self).answer = {TRUTH}\n", "getattr(type(self), 'answer', 0)"),
    "a closure": ("def _box():\n    kept = [0]\n\n    def put(value):\n        kept[0] = value\n\n"
                  "    return put, lambda: kept[0]\n\n\nPUT, GET = _box()\n",
                  f"        PUT({TRUTH})\n", "GET()"),
    "a default argument": ("def remember(value=None, kept={}):\n    if value is not None:\n"
                           "        kept['answer'] = value\n    return kept.get('answer', 0)\n",
                           f"        remember({TRUTH})\n", "remember()"),
    "a module attribute": ("import sys\n", f"        setattr(sys.modules[__name__], 'answer', "
                           f"{TRUTH})\n", "getattr(sys.modules[__name__], 'answer', 0)"),
    "a function attribute": ("", f"        type(self).play.answer = {TRUTH}\n",
                             "getattr(type(self).play, 'answer', 0)"),
}
GAMES = 40
FALSE_ALARM = 0.001


def _bounds(games: int, alarm: float) -> tuple[int, int]:
    """The counts right that chance (p = 1/2) leaves each side with at most alarm / 2."""
    tail = 0.0
    for low in range(games + 1):
        tail += math.comb(games, low) / 2 ** games
        if tail > alarm / 2:
            return low, games - low
    raise AssertionError


LOW, HIGH = _bounds(GAMES, FALSE_ALARM / len(PLACES))


def hiding(place: str) -> str:
    """GUESS with its answer kept in ``place`` too, and read from there."""
    top, kept, read = PLACES[place]
    rules = GUESS.replace("from cardkit.toolkit", top + "from cardkit.toolkit", 1)
    rules = rules.replace(SETUP_END, SETUP_END + kept)
    return rules.replace("int(move[1] == " + TRUTH + ")", f"int(move[1] == {read})")


def _right(path, games: int, bot: str = "search") -> float:
    """How many of ``games`` the search (20 samples a move: plenty for two moves) got right."""
    params = (("iterations", 20.0),) if bot == "search" else ()
    setup = Setup("guess", 1, 1, (BotSpec(bot, params),), CARDS, str(path))
    return sum(result.scores[0] for result in play_many(setup, games))


def test_the_bounds_are_what_chance_allows():
    assert (LOW, HIGH) == (8, 32)  # P(X <= 7) = 2.1e-5 <= 0.001 / 6 / 2
    assert all(hiding(place) != GUESS for place in PLACES)


@pytest.mark.parametrize("place", sorted(PLACES))
def test_a_search_is_right_by_chance_only_whatever_the_rules_keep_outside(tmp_path, place):
    """Before: the samples ran the real game's module, class and functions and read the
    answer there: right in 40 of 40 games."""
    path = _rules(tmp_path, hiding(place))
    right = _right(path, GAMES)
    assert LOW <= right <= HIGH, (place, right)


# places a process shares with every copy of the rules: the search cannot be kept from
# them, so the checker, and a simulation with a search bot before it plays, names them
SHARED = {
    "sys.modules": ("import sys\n", f"        sys.modules['guess_answer'] = {TRUTH}\n",
                    "sys.modules.get('guess_answer', 0)"),
    "os.environ": ("import os\n", f"        os.environ['GUESS_ANSWER'] = str({TRUTH})\n",
                   "int(os.environ.get('GUESS_ANSWER', '0'))"),
}
NAMED = {"a module global": "module global ANSWER", "a class attribute": "Guess.answer",
         "a closure": "GET() (its closure)", "a default argument": "remember",
         "a module attribute": "module global answer",
         "a function attribute": "Guess.play() (an attribute set on it)",
         "sys.modules": "sys.modules['guess_answer']", "os.environ": "os.environ['GUESS_ANSWER']"}


@pytest.fixture
def shared_places(monkeypatch):
    """sys.modules and os.environ as they were after the test, whatever the rules set."""
    monkeypatch.setitem(sys.modules, "guess_answer", None)
    monkeypatch.setenv("GUESS_ANSWER", "")
    PLACES.update(SHARED)
    yield
    for place in SHARED:
        PLACES.pop(place)


@pytest.mark.parametrize("place", sorted(NAMED))
def test_check_names_each_place_the_rules_keep_the_answer(tmp_path, shared_places, place):
    """Before: --check found 2 of these 8 (a class attribute and a default argument, which
    it saw change); a module global, closure, module or function attribute, sys.modules
    and os.environ passed."""
    _, result = _simulated(tmp_path, hiding(place), "--check", "--games", "20")
    assert result.exit_code == 2, result.output
    assert f"the rules keep a value of the game in {NAMED[place]}" in result.output


@pytest.mark.parametrize("place", sorted(NAMED))
def test_a_simulation_with_a_search_bot_names_the_place_first(tmp_path, shared_places, place):
    """Before: a plain simulate with a search bot said nothing, and the search was right
    in every game."""
    _, result = _simulated(tmp_path, hiding(place), "--bots", "search:iterations=5",
                           "--games", "4")
    assert result.exit_code == 2, result.output
    assert f"the rules keep a value of the game in {NAMED[place]}" in result.output
    assert "see the game: cardkit simulate" in result.output


def test_the_honest_guess_game_is_replayed_and_simulated_with_a_search(tmp_path):
    _, checked = _simulated(tmp_path, GUESS, "--check", "--games", "30")
    assert checked.exit_code == 0, checked.output
    assert "replayed: 30 games move by move in a separate copy of the rules" in checked.output
    _, result = _simulated(tmp_path / "again", GUESS, "--bots", "search:iterations=5",
                           "--games", "4")
    assert result.exit_code == 0, result.output


def test_the_card_class_cannot_be_given_the_answer(tmp_path):
    """Before: ``Card.answer = ...`` in setup reached every sample (Card is shared)."""
    rules = GUESS.replace(SETUP_END, SETUP_END + f"        Card.answer = {TRUTH}\n")
    _, result = _simulated(tmp_path, rules, "--games", "2")
    assert result.exit_code == 2, result.output
    assert "the Card class cannot be changed (here 'answer')" in result.output


DEBUG = '''

class Debug(Bot):
    """A designer's debugging aid: reads the answer off the game it is played in."""

    def choose(self, observation, moves, rng):
        frame = sys._getframe(1)
        while frame is not None:
            for value in list(frame.f_locals.values()):
                if type(value).__name__ == "Guess" and value.journal is not None:
                    return ("guess", value.mystery.top.id % 2)
            frame = frame.f_back
        return moves[0]


class Steady(Bot):
    """Always guesses 0."""

    fair = FAIR

    def choose(self, observation, moves, rng):
        return moves[0]
'''


def _with_bots(fair: bool) -> str:
    rules = GUESS.replace("from cardkit.toolkit", "import sys\n\nfrom cardkit.toolkit", 1)
    rules = rules.replace("\n\nclass Guess(CardGame):", DEBUG.replace("FAIR", str(fair))
                          + "\n\nclass Guess(CardGame):")
    return rules.replace('bots = {"peek": Peek, "vandal": Vandal}',
                         'bots = {"debug": Debug, "steady": Steady}')


@pytest.mark.parametrize("fair", [True, False])
def test_the_search_follows_a_bot_marked_fair_never_simply_the_first(tmp_path, fair):
    """Before: the search followed ``debug``, the first bot in the file, which reads the
    live game off the call stack: right in 40 of 40 games. Now it follows the bot marked
    fair (``steady``), or none."""
    path = _rules(tmp_path, _with_bots(fair))
    assert _right(path, 4, "debug") == 4  # the debugging aid does read the answer
    right = _right(path, GAMES)
    assert LOW <= right <= HIGH, right
    from cardkit.playtest.rules_file import load_rules

    search = load_rules(path).bots["search"](bots={})
    assert (type(search.guide).__name__ if search.guide else None) == \
        ("Steady" if fair else None)
