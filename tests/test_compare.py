"""`cardkit simulate GAME --compare DECK` (issues 29 and 38): two decks, the same seeds and
bots, and what changes between them beyond chance, each figure's interval from the games
paired by seed.

The oracles are not cardkit's code: numpy's arithmetic on the games' own arrays (the
paired t interval of the differences; the delta method written out; a bootstrap), and
simulated comparisons whose truth is known (no change at all)."""

from __future__ import annotations

import csv
import json
import re
import shutil

import numpy as np
import pytest
from click.testing import CliRunner

from cardkit.cli import main
from cardkit.playtest.compare import Pairs, compare, pairing
from cardkit.playtest.game_loop import Result
from cardkit.playtest.stats import Z95
from cardkit.sources.bundled import find_deck

SUMMARY = {"players": 4, "length_unit": "turns", "score_unit": "points", "figures": {"captures": {"kind": "number"}}}


def _games(rng, games: int, alike: float, players: int = 4, shift: float = 0.0):
    """Paired games as arrays: each pair plays out the same with probability ``alike``
    (the same deal), else B's game is drawn on its own from the same game (``shift``
    more captures in B). Outcomes: a seat wins, two seats tie (half each), or nobody."""
    def one_deck(extra=0.0):
        who = rng.integers(0, players + 2, games)  # players + 1: a tie, players: nobody
        returns = np.zeros((games, players))
        returns[np.arange(games), np.minimum(who, players - 1)] = who < players
        tie = who == players + 1
        returns[tie, :2] = 0.5 if players > 1 else 1.0  # alone, a tie is a win
        return returns, rng.poisson(20, games), rng.poisson(0.6 + extra, games)

    a, b = one_deck(), one_deck(shift)
    same = rng.random(games) < alike
    b = tuple(np.where(same.reshape(-1, *[1] * (x.ndim - 1)), x_a, x) for x_a, x in zip(a, b))
    return a, b


def _results(returns, lengths, captures) -> list[Result]:
    """Results from arrays; a game with no capture does not have the figure at all."""
    return [Result(i, r, [10 * share for share in r], 0, {"captures": c} if c else {}, None,
                   n) for i, (r, n, c) in enumerate(zip(returns.tolist(), lengths.tolist(),
                                                          captures.tolist()))]


def _compared(a, b, players: int = 4, summary=SUMMARY) -> dict:
    pairs = Pairs(players)
    pairs.add(_results(*a), _results(*b))
    return compare({**summary, "players": players}, {**summary, "players": players}, pairs)


def _share_error(w_a, d_a, w_b, d_b) -> float:
    """The delta method for the difference of two paired ratios sum(w)/sum(d), in numpy:
    each game's influence (w - R·d) / mean(d) on each deck's ratio, differenced a pair."""
    def influence(w, d):
        return (w - w.sum() / d.sum() * d) / d.mean()
    return np.std(influence(w_b, d_b) - influence(w_a, d_a), ddof=1) / np.sqrt(len(w_a))


@pytest.mark.parametrize("players", [4, 1])
def test_each_row_s_interval_is_numpy_s_paired_interval_of_the_games(players):
    """Means: the paired normal interval of the per-game differences. Shares: the delta
    method on the paired ratios, which a bootstrap of the pairs agrees with."""
    rng = np.random.default_rng(38)
    (ret_a, len_a, cap_a), (ret_b, len_b, cap_b) = _games(rng, 600, 0.6, players)
    rows = {row["what"]: row for row in _compared((ret_a, len_a, cap_a), (ret_b, len_b, cap_b),
                                                  players)["rows"]}

    def assert_interval(row, change, error):
        assert row["change"] == pytest.approx(change, abs=1e-12)
        assert row["interval"] == pytest.approx([change - Z95 * error, change + Z95 * error],
                                                abs=1e-12)

    score = "the player's mean score" if players == 1 else "seat 0 mean score"
    for what, x_a, x_b in [("length", len_a, len_b), ("captures", cap_a, cap_b),
                           (score, 10 * ret_a[:, 0], 10 * ret_b[:, 0])] + (
            [("nobody wins", ~ret_a.any(1), ~ret_b.any(1))] if players > 1 else []):
        diff = x_b.astype(float) - x_a
        assert_interval(rows[what], diff.mean(), np.std(diff, ddof=1) / np.sqrt(len(diff)))
    d_a, d_b = (np.ones(len(ret_a)),) * 2 if players == 1 else (ret_a.any(1) * 1.0,
                                                                 ret_b.any(1) * 1.0)
    for seat in range(players):
        row = rows["the player wins" if players == 1 else f"seat {seat} wins"]
        w_a, w_b = ret_a[:, seat], ret_b[:, seat]
        error = _share_error(w_a, d_a, w_b, d_b)
        assert_interval(row, w_b.sum() / d_b.sum() - w_a.sum() / d_a.sum(), error)
        drawn = rng.integers(0, len(w_a), (2000, len(w_a)))  # the pairs resampled
        boot = (w_b[drawn].sum(1) / d_b[drawn].sum(1) - w_a[drawn].sum(1) / d_a[drawn].sum(1))
        assert np.std(boot) == pytest.approx(error, rel=0.1)


def test_no_change_is_found_at_most_at_the_stated_rate_however_alike_the_pairs():
    """400 comparisons of paired games where B plays as A does (60% of pairs the same
    game, the rest drawn alike): each row's 95% interval leaves 0 out in at most 5% of
    them (within a binomial bound), and so does the verdict; with pairs this alike the
    intervals are narrower than two separate runs would give."""
    from scipy.stats import binom  # here: it takes two seconds to load, in every worker

    rng = np.random.default_rng(2)
    runs, most = 400, int(binom.ppf(0.999, 400, 0.05))
    comparisons = [_compared(*_games(rng, 100, 0.6)) for _ in range(runs)]
    for index, row in enumerate(comparisons[0]["rows"]):
        alarms = sum(c["rows"][index]["significant"] for c in comparisons)
        assert alarms <= most, f"{row['what']}: {alarms} of {runs}"
    assert sum(c["verdict"].startswith("B changes") for c in comparisons) <= most
    assert np.median([c["paired"]["relative_width"] for c in comparisons]) < 0.75


def test_decks_that_deal_differently_are_said_to_and_stay_honest():
    """Pairs that share nothing: the intervals are as wide as two separate runs', and the
    sentence says the decks deal differently."""
    a, b = _games(np.random.default_rng(5), 2000, 0.0)
    comparison = _compared(a, b)
    assert comparison["paired"]["relative_width"] == pytest.approx(1.0, abs=0.08)
    assert "the decks deal differently" in pairing(comparison)
    assert comparison["verdict"].startswith("Nothing changes")


def _played_out(args, folder):
    outcome = CliRunner().invoke(main, ["simulate", "blofa", "--games", "200", "--workers",
                                        "1", "--report", str(folder), *args])
    assert outcome.exit_code == 0, outcome.output
    return outcome.output.splitlines()


def test_a_deck_compared_with_a_copy_of_itself_changes_nothing(tmp_path, monkeypatch):
    """The same seeds, bots and cards play the very same games: every change is 0, and so
    is every interval's width (two separate runs would give blofa's seat 0 +-10 points)."""
    shutil.copytree(find_deck("blofa").parent, tmp_path / "my-blofa")
    monkeypatch.chdir(tmp_path)
    lines = _played_out(["--compare", "my-blofa"], "r")
    assert lines[0] == ("blofa: 200 games each, 4 players, seed 1; A bundled deck, "
                        "B my-blofa")
    assert lines[1].startswith("  seat 0 wins: ")
    assert lines[1].endswith(", +0.0 percentage points (95%: +0.0 to +0.0)")
    assert lines[10] == "  length: 22.05 -> 22.05, +0.00 turns (95%: +0.00 to +0.00)"
    assert "Paired by seed: all 200 games played out the same, so every change is exactly " \
        "0." in lines
    assert "Nothing changes beyond what chance explains with these games (15 figures tested " \
        "together)." in lines
    saved = json.loads((tmp_path / "r" / "summary.json").read_text())
    assert all(row["change"] == 0 and row["interval"] == [0, 0]
               for row in saved["comparison"]["rows"])
    assert saved["comparison"]["paired"] == {"games": 200, "alike": 200, "relative_width": 0.0}
    assert saved["A"]["deck_name"] == "bundled deck" and saved["B"]["deck_name"] == "my-blofa"
    with (tmp_path / "r" / "games.csv").open() as rows:
        table = list(csv.DictReader(rows))
    assert [row["deck"] for row in table].count("B") == 200 and len(table) == 400
    page = (tmp_path / "r" / "report.html").read_text()
    assert "<h1>Blófa Cards: two decks compared</h1>" in page
    assert "paired by seed" in page and "all 200 games played out the same" in page
    assert "data:image/png;base64," in page


def test_a_real_change_is_found_with_intervals_narrower_than_separate_runs_give(tmp_path,
                                                                               monkeypatch):
    """A fourth rule card in Blófa (a blue 2 made a 0: the same number of blue cards, so
    the same seed deals the same places): more captures and eliminations. Paired, 200
    games find both, with every figure tested together; the intervals two separate runs
    give (Welch's, as before) are wider on the same games, and with them the verdict said
    nothing changes."""
    deck = tmp_path / "fourth-rule-card"
    shutil.copytree(find_deck("blofa").parent, deck)
    text = (deck / "deck.yaml").read_text()
    (deck / "deck.yaml").write_text(
        text.replace("{value: 2, count: 4}", "{value: 2, count: 3}\n      - {value: 0}")
        .replace("value: {0: 3, 1: 5, 2: 4", "value: {0: 4, 1: 5, 2: 3"))
    monkeypatch.chdir(tmp_path)
    lines = _played_out(["--compare", deck.name], "r")
    assert any(line.startswith("Paired by seed: ") and "the decks deal the same games" in line
               for line in lines), lines
    assert "B changes, beyond what chance explains (15 figures tested together): " \
        "seat 1 mean score +0.69 points; seat 3 mean score +0.60 points; captures +0.17; " \
        "eliminations +0.14." in lines
    with (tmp_path / "r" / "games.csv").open() as rows:
        table = list(csv.DictReader(rows))
    for what in ("captures", "eliminations"):
        a, b = (np.array([float(row[what] or 0) for row in table if row["deck"] == deck_of])
                for deck_of in "AB")
        paired = Z95 * np.std(b - a, ddof=1) / np.sqrt(len(a))
        apart = Z95 * np.sqrt(a.var(ddof=1) / len(a) + b.var(ddof=1) / len(b))
        shown = next(line for line in lines if line.startswith(f"  {what}: "))
        low, high = map(float, re.search(r"95%: (\S+) to (\S+)\)", shown).groups())
        assert (high - low) / 2 == pytest.approx(paired, abs=0.006)
        assert paired < 0.8 * apart, (what, paired, apart)
        assert low > 0


def test_compare_with_a_deck_the_game_cannot_use_exits_2(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    outcome = CliRunner().invoke(main, ["simulate", "blofa", "--compare", "no-such-deck"])
    assert outcome.exit_code == 2 and "no-such-deck" in outcome.output
    outcome = CliRunner().invoke(main, ["simulate", "blofa", "--compare", "blofa", "--skill"])
    assert outcome.exit_code == 2
    assert "--compare plays two decks side by side" in outcome.output


def test_a_deck_with_rules_of_its_own_plays_them_as_a_rule_variant(tmp_path, monkeypatch):
    """B, a copy of the starter whose events score nothing, plays its own rules.py (the
    old --compare played A's rules on both, and found nothing): the seats' shares move
    beyond chance, and the pairing line says B's rules are why the games differ."""
    from cardkit.starter import create_deck

    create_deck(tmp_path / "duel", "duel")
    shutil.copytree(tmp_path / "duel", tmp_path / "duel2")
    rules = tmp_path / "duel2" / "rules.py"
    text = rules.read_text()
    assert "+= card.cost + 1" in text
    rules.write_text(text.replace("+= card.cost + 1", "+= 0"))
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["simulate", "duel", "--compare", "duel2", "--games",
                                       "400", "--workers", "1", "--bots", "builder",
                                       "--bots", "random"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[1] == "  B plays its own rules, duel2/rules.py: a rule variant"
    assert lines[-1].startswith("B changes, beyond what chance explains (7 figures tested "
                                "together): seat 0 wins -")
    assert "B's rules play the same seeds to other games" in lines[-2]
    assert any(line.startswith("  seat 0 mean score: ") and line.endswith("beyond chance")
               for line in lines), lines  # events that score nothing: fewer points
    same = CliRunner().invoke(main, ["simulate", "duel", "--compare", "duel", "--games",
                                     "50", "--workers", "1"])
    assert "rule variant" not in same.output
    rules.write_text(text)  # a copy of A's rules file, unchanged: the same rules
    copy = CliRunner().invoke(main, ["simulate", "duel", "--compare", "duel2", "--games",
                                     "50", "--workers", "1"])
    assert copy.exit_code == 0, copy.output
    assert "rule variant" not in copy.output
    assert "all 50 games played out the same" in copy.output
