"""`cardkit simulate GAME --compare DECK` (issue 29): two decks, the same seeds and bots,
and what changes between them beyond chance."""

from __future__ import annotations

import csv
import json
import shutil

import pytest
from click.testing import CliRunner

from cardkit.cli import main
from cardkit.playtest.compare import compare, share_difference
from cardkit.playtest.runner import BotSpec, Result, Setup
from cardkit.playtest.summary import summarise
from cardkit.sources.bundled import find_deck


# Newcombe (1998), "Interval estimation for the difference between independent
# proportions", Statistics in Medicine 17, table II, method 10: published to 4 places.
@pytest.mark.parametrize("a, b, low, high", [
    ((48, 80), (56, 70), 0.0524, 0.3339), ((3, 10), (9, 10), 0.1705, 0.8090),
    ((2, 7), (6, 7), 0.0582, 0.8062), ((0, 29), (5, 56), -0.0381, 0.1926)])
def test_a_share_s_change_has_newcombe_s_interval(a, b, low, high):
    change, *interval = share_difference(*a, *b)
    assert change == pytest.approx(b[0] / b[1] - a[0] / a[1])
    assert [round(x, 4) for x in interval] == [low, high]


def _run(outcomes, lengths):
    setup = Setup("blofa", 4, 1, (BotSpec("random"),) * 4)
    results = [Result(i, list(r), [0.0] * 4, n) for i, (r, n) in
               enumerate(zip(outcomes, lengths))]
    return summarise(setup, results, 1.0), results


def test_a_change_beyond_chance_is_named_and_the_rest_are_not():
    """A: seat 0 wins 48 of 80 decided games; B: 56 of 70 (table II's first case), the
    other wins spread alike, lengths the same: only seat 0's share moves."""
    def outcomes(wins, decided, undecided):
        """Seat 0 wins ``wins``; the other decided games go to seats 1, 2, 3 in turn."""
        others = [[0.0] + [float(s == 1 + i % 3) for s in (1, 2, 3)]
                  for i in range(decided - wins)]
        return [[1.0, 0.0, 0.0, 0.0]] * wins + others + [[0.0] * 4] * undecided
    a = _run(outcomes(48, 80, 20), [30] * 100)
    b = _run(outcomes(56, 70, 30), [30] * 100)
    comparison = compare(a[0], b[0], a[1], b[1])
    rows = {row["what"]: row for row in comparison["rows"]}
    assert rows["seat 0 wins"]["significant"]
    assert [round(x, 4) for x in rows["seat 0 wins"]["interval"]] == [0.0524, 0.3339]
    assert rows["length"]["change"] == 0 and not rows["length"]["significant"]
    assert comparison["verdict"].startswith(
        "B changes, beyond what chance explains (6 figures tested together): seat 0 wins "
        "+20.0 points")
    assert "length" not in comparison["verdict"]


def test_a_deck_compared_with_a_copy_of_itself_changes_nothing(tmp_path, monkeypatch):
    """The same seeds, bots and cards play the very same games: every change is 0."""
    shutil.copytree(find_deck("blofa").parent, tmp_path / "my-blofa")
    monkeypatch.chdir(tmp_path)
    outcome = CliRunner().invoke(main, ["simulate", "blofa", "--compare", "my-blofa",
                                        "--games", "200", "--workers", "1", "--report", "r"])
    assert outcome.exit_code == 0, outcome.output
    lines = outcome.output.splitlines()
    assert lines[0] == ("blofa: 200 games each, 4 players, seed 1; A bundled deck, "
                        "B my-blofa")
    assert lines[1].startswith("  seat 0 wins: ") and "+0.0 points" in lines[1]
    assert "Nothing changes beyond what chance explains with these games (11 figures tested " \
        "together)." in lines
    saved = json.loads((tmp_path / "r" / "summary.json").read_text())
    assert all(row["change"] == 0 for row in saved["comparison"]["rows"])
    assert saved["A"]["deck_name"] == "bundled deck" and saved["B"]["deck_name"] == "my-blofa"
    with (tmp_path / "r" / "games.csv").open() as rows:
        table = list(csv.DictReader(rows))
    assert [row["deck"] for row in table].count("B") == 200 and len(table) == 400
    page = (tmp_path / "r" / "report.html").read_text()
    assert "<h1>Blófa Cards: two decks compared</h1>" in page
    assert "data:image/png;base64," in page


def test_compare_with_a_deck_the_game_cannot_use_exits_2(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    outcome = CliRunner().invoke(main, ["simulate", "blofa", "--compare", "no-such-deck"])
    assert outcome.exit_code == 2 and "no-such-deck" in outcome.output
    outcome = CliRunner().invoke(main, ["simulate", "blofa", "--compare", "blofa", "--skill"])
    assert outcome.exit_code == 2
    assert "--compare plays two decks side by side" in outcome.output
