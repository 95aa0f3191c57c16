"""Issue 38, item 4: what ``cardkit simulate`` says means what it says. The score is not
something winners do; seats with different bots compare bots (``--rotate`` tells seats
from bots); a share names its base and moves in percentage points; ties have a line;
random play is said; the rulings are cited in words a user can follow."""

from __future__ import annotations

import csv
import json
from types import SimpleNamespace

import pytest
from click.testing import CliRunner

from cardkit.cli import main
from cardkit.cli.run_summary import summary_lines
from cardkit.playtest.report import _headline
from cardkit.playtest.rules_file import RulesFileError, load_rules
from cardkit.playtest.game_loop import Result, play_one
from cardkit.playtest.run_setup import BotSpec, Setup, seat_bots
from cardkit.playtest.summary import random_play, score_figures, summarise
from cardkit.playtest.tally import tally_of

HEURISTIC, RANDOM = BotSpec("heuristic"), BotSpec("random")


def run(*args) -> tuple[int, str]:
    outcome = CliRunner().invoke(main, [str(a) for a in args])
    return outcome.exit_code, outcome.output


def test_a_blofa_run_leaves_out_the_score_says_random_play_and_names_its_bases(tmp_path):
    code, out = run("simulate", "blofa", "--games", 40, "--workers", 1, "--report",
                    tmp_path / "r")
    assert code == 0, out
    lines = out.splitlines()
    assert lines[1] == ("  Every seat is the random bot, which picks a legal move at random: "
                        "these figures are of random play; this game also has heuristic and "
                        "search (--bots heuristic).")
    seat = next(i for i, line in enumerate(lines) if line.startswith("  seat 0 (random): won "))
    assert " of the decided games (95%: " in lines[seat] and \
        ", mean score (points) " in lines[seat]
    assert lines[seat + 4].startswith("  nobody won ") and \
        " of all games; the other " in lines[seat + 4]
    # vp is how Blófa defines winning (its rules name it as part of the score): left out
    assert not any(line.startswith("    vp: ") for line in lines)
    assert "    (left out: vp, the score or a part of it, which is how winning is defined)" \
        in lines
    summary = json.loads((tmp_path / "r" / "summary.json").read_text())
    assert summary["score_figures"] == ["vp"] and "vp" not in summary["what_winners_do"]
    assert "captures" in summary["what_winners_do"]
    with (tmp_path / "r" / "games.csv").open(newline="") as rows:
        assert "vp_3" in next(csv.reader(rows))  # games.csv keeps every seat figure
    page = (tmp_path / "r" / "report.html").read_text()
    assert "these figures are of random play; this game also has heuristic and search" in page
    assert "Left out: vp, the score or a part of it, which is how winning is defined." in page
    assert "<th>won, of the decided games</th>" in page
    assert "<th>mean score (points)</th>" in page
    assert "shared/RULINGS.md" not in page
    assert "cardkit reads it as listed below" in page


def test_a_seat_figure_equal_to_the_score_in_every_game_is_left_out():
    games = [Result(i, [1.0, 0.0], [5 + i, 2], 9,
                    seat_figures=[{"points": 5 + i, "bluffs": i % 3, "coins": 5},
                                  {"points": 2, "bluffs": 1, "coins": 2}]) for i in range(6)]
    tally = tally_of(games, 2)
    # coins equals the score in game 0 only: it stays
    assert score_figures(tally) == ["points"]
    summary = summarise(Setup("bullet", 2, 1, (RANDOM, RANDOM)), games, 1.0)
    assert list(summary["what_winners_do"]) == ["bluffs", "coins"]


def test_a_designer_names_the_score_s_seat_figures(tmp_path):
    def rules_naming(names: str):
        rules = tmp_path / names.strip("'") / "rules.py"
        rules.parent.mkdir()
        rules.write_text("from cardkit.toolkit import CardGame\n\n\nclass Race(CardGame):\n"
                         f"    score_figures = {names}\n\n    def setup(self): pass\n"
                         "    def moves(self): return ['stop']\n"
                         "    def play(self, move): self.end()\n"
                         "    def scores(self): return [0, 0]\n")
        return rules

    assert load_rules(rules_naming("'laps'")).score_figures == ("laps",)
    rules = rules_naming("3")
    with pytest.raises(RulesFileError) as error:
        load_rules(rules)
    assert (error.value.what, error.value.fix) == (
        f"{rules}: Race.score_figures is 3", "name the seat figures that are the score or a "
        "part of it, e.g. score_figures = ('vp',)")


def test_different_bots_a_seat_say_their_figures_compare_bots(tmp_path):
    code, out = run("simulate", "bullet", "--players", 2, "--bots", "heuristic", "--bots",
                    "random", "--games", 60, "--workers", 1)
    assert code == 0, out
    lines = out.splitlines()
    assert lines[1] == ("  The seats have different bots (seat 0 heuristic, seat 1 random): "
                        "these figures compare the bots, not the seats; add --rotate to move "
                        "the bots round the seats from game to game.")
    assert any(line.startswith("  Seat 0 (heuristic) wins ") for line in lines)


def test_rotated_bots_test_the_seats_and_the_bots_apart(tmp_path):
    code, out = run("simulate", "bullet", "--players", 2, "--bots", "heuristic", "--bots",
                    "random", "--rotate", "--games", 60, "--workers", 1, "--report",
                    tmp_path / "r")
    assert code == 0, out
    lines = out.splitlines()
    assert lines[1].startswith("  The bots moved round the seats from game to game")
    assert any(line.startswith("  seat 0 (bots in turn): won ") for line in lines)
    summary = json.loads((tmp_path / "r" / "summary.json").read_text())
    heuristic, random_bot = summary["bot_shares"]
    assert (heuristic["bot"], heuristic["seats"], heuristic["fair_share"]) == ("heuristic", 1,
                                                                              0.5)
    assert heuristic["share"] + random_bot["share"] == 1.0 and heuristic["share"] > 0.75
    assert heuristic["edge"].startswith("heuristic wins ") and \
        heuristic["edge"].endswith("; 2 bots tested together)")
    assert f"  bot heuristic: won {heuristic['share']:.1%} of the decided games (95%: " \
        in out
    assert f"  {heuristic['edge'][0].upper()}{heuristic['edge'][1:]}." in lines
    assert not summary["edges"]  # the seats are fair once the bots move round them
    page = (tmp_path / "r" / "report.html").read_text()
    assert "<th>bot</th><th>seats a game</th>" in page and "Heuristic wins " in page


def test_a_rotated_game_is_the_game_with_its_bots_seated_so():
    rotated = Setup("bullet", 3, 4, (HEURISTIC, RANDOM, RANDOM), rotate=True)
    assert seat_bots(rotated, 4) == (RANDOM, RANDOM, HEURISTIC)  # seat s: bot (s + 4) % 3
    for index in (0, 1, 2):
        seated = Setup("bullet", 3, 4, seat_bots(rotated, index))
        assert play_one(rotated, index) == play_one(seated, index)


def test_rotate_where_it_cannot_apply_exits_2():
    for args, message in [
            (["--rotate"], "cardkit: --rotate moves different bots round the seats, and every "
                           "seat has random; give --bots once a seat"),
            (["--bots", "heuristic", "--bots", "random", "--rotate", "--check"],
             "cardkit: --rotate moves the bots of one run round its seats; leave out "
             "--compare, --sweep, --skill and --check"),
            (["--bots", "heuristic", "--bots", "random", "--rotate", "--skill"],
             "cardkit: --rotate moves the bots of one run round its seats")]:
        code, out = run("simulate", "bullet", "--players", 2, *args)
        assert code == 2 and out.startswith(message), out


def test_ties_have_a_line_of_their_own():
    games = [Result(0, [0.5, 0.5], [3, 3], 9), Result(1, [1.0, 0.0], [4, 1], 9),
             Result(2, [0.0, 0.0], [1, 1], 9), Result(3, [0.0, 1.0], [0, 2], 9)]
    summary = summarise(Setup("bullet", 2, 1, (RANDOM, RANDOM)), games, 1.0)
    assert summary["tied"] == 0.25 and summary["nobody_won"] == 0.25
    lines = summary_lines(summary)
    assert "  nobody won 25.0% of all games; the other 3 are the decided games, a fair " \
           "share of them is 50%" in lines
    assert "  tied 25.0% of all games (several winners shared the win)" in lines
    assert "Tied 25.0% of all games: several winners shared the win." in _headline(summary)


def test_a_game_with_no_better_bot_says_so():
    assert random_play(SimpleNamespace(bots={"random": None}), (RANDOM, RANDOM)).endswith(
        "these figures are of random play; this game has no other bot.")
    assert random_play(SimpleNamespace(bots={"random": None}), (HEURISTIC, RANDOM)) is None
    assert random_play(SimpleNamespace(bots={"random": None, "heuristic": None}),
                       (RANDOM,)).startswith("The player is the random bot")
