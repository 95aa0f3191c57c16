"""`cardkit simulate GAME --tune --target ... --vary ...` (issue 44): a search for settings
that meet the designer's targets, the best few checked with fresh games, each changed value
moved back alone."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from cardkit.cli import main
from cardkit.playtest.tune_targets import Target, TuneError, parse_target, parse_vary
from known_games.verdicts import planted_tuning, tuning_found


def test_tune_finds_the_planted_game_s_fair_setting_and_names_both_planted_parts():
    """The planted game: seat 0's coin weighted by FIRST_BONUS 20 and two over-strong
    Dragons. The answer meets both targets in fresh games; moving the bonus back alone
    misses the seats target, moving the Dragons back alone the card target (a small
    version of `make calibrate`'s ten seeded runs)."""
    answer = planted_tuning(seed=1, trials=18, games=300, rungs=(50, 50, 100))
    best = answer["suggestions"][0]
    assert tuning_found(answer) == (True, True), best  # no target missed
    assert best["values"]["count[name=Dragon]"] == 0 and best["values"]["FIRST_BONUS"] <= 5
    assert best["changes"][1] == "Dragon x2 -> x0"
    assert best["changes"][0].startswith("FIRST_BONUS 20 -> ")
    assert {step["knob"]: step["lost"] for step in best["one_step"]} == {
        "FIRST_BONUS": ["seats"], "count[name=Dragon]": ["card-edge"]}
    assert not answer["today"]["figures"]["seats"]["met"]  # today: about 13 points off
    assert answer["today"]["figures"]["seats"]["value"] > 10


@pytest.mark.parametrize("text, target", [
    ("seats=5", Target("seats", 0.0, 5.0)), ("length=8..12", Target("length", 8.0, 12.0)),
    ("nobody=2.5", Target("nobody", 0.0, 2.5)), ("skill=10", Target("skill", 10.0, 100.0)),
    ("card-edge=5", Target("card-edge", 0.0, 5.0))])
def test_a_target_reads_as_written(text, target):
    assert parse_target(text) == target


@pytest.mark.parametrize("text, message", [
    ("seat=5", "no target 'seat'; did you mean 'seats'?"),
    ("length=12..8", "'length=12..8': 12..8 is empty (it runs backwards); write the smaller"),
    ("length=10", "'10' is not a range of lengths"),
    ("seats=lots", "'lots' is not a number of points from 0 to 100")])
def test_a_bad_target_says_how_to_write_it(text, message):
    with pytest.raises(TuneError) as error:
        parse_target(text)
    assert message in f"{error.value.what}; {error.value.fix}"


@pytest.mark.parametrize("text, message", [
    ("HAND=3", "one value, so nothing to vary"), ("HAND=6..3", "6..3 runs backwards"),
    ("players=2..4", "the player count is not tuned")])
def test_a_bad_range_says_how_to_write_it(text, message):
    with pytest.raises(TuneError, match=message):
        parse_vary(text)


@pytest.fixture
def duel(tmp_path, monkeypatch):
    from cardkit.starter import create_deck

    create_deck(tmp_path / "duel", "duel")
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.parametrize("args, message", [
    (["--target", "turns=8..12", "--vary", "HAND=2..4"],
     "cardkit: --target 'turns=8..12': no target 'turns'; use one of: seats, length, "),
    (["--target", "seats=5", "--vary", "HAND=4..2"],
     "cardkit: --vary 'HAND=4..2': 4..2 runs backwards; write the smaller number first"),
    (["--target", "seats=5", "--vary", "CARDS=2..4"],
     "cardkit: --vary 'CARDS=2..4': no bot playing takes CARDS; sweep a "
     "parameter they take, or choose --bots that take it (see 'cardkit simulate --help'), "
     "or a constant of the rules file: HAND, ROUNDS"),
    (["--target", "seats=5"], "cardkit: --tune needs --target (what to aim at) and --vary")])
def test_bad_tuning_input_exits_2_naming_the_option_the_problem_and_the_fix(duel, args,
                                                                             message):
    result = CliRunner().invoke(main, ["simulate", "duel", "--tune", *args, "--workers", "1"])
    assert result.exit_code == 2, result.output
    assert result.output.startswith(message), result.output
    assert len(result.output.splitlines()) == 1


def test_tune_on_the_starter_prints_the_suggestion_and_writes_it_first_in_the_report(
        duel, monkeypatch):
    """ROUNDS sets the length (2 x ROUNDS turns at two players): toward 8 to 12 turns from
    today's 16, the answer is ROUNDS 4 to 6, and moving it back misses the length."""
    monkeypatch.setattr("cardkit.playtest.tune.RUNGS", (10, 10, 10))  # the length is exact
    result = CliRunner().invoke(main, [
        "simulate", "duel", "--players", "2", "--tune", "--target", "length=8..12",
        "--vary", "ROUNDS=3..9", "--trials", "9", "--games", "50", "--workers", "1",
        "--report", "out"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    suggestion = next(line for line in lines if line.startswith("Suggestion 1: "))
    assert suggestion.split(": ")[1] in ("ROUNDS 8 -> 4  (meets every target)",
                                         "ROUNDS 8 -> 5  (meets every target)",
                                         "ROUNDS 8 -> 6  (meets every target)")
    assert "this part matters (length missed without it)" in result.output
    saved = json.loads((duel / "out" / "summary.json").read_text())["tune"]
    assert saved["today"]["figures"]["length"]["value"] == 16.0
    assert saved["suggestions"][0]["changes"] == [suggestion.split(": ")[1].split("  ")[0]]
    page = (duel / "out" / "report.html").read_text()
    assert page.index("Suggestion 1: ROUNDS 8 -&gt; ") < page.index("Today (ROUNDS 8)")
    assert "data:image/png;base64," in page


def test_targets_without_tune_exit_2(duel):
    result = CliRunner().invoke(main, ["simulate", "duel", "--target", "seats=5"])
    assert result.exit_code == 2
    assert result.output == ("cardkit: --target and --vary go with --tune, which plays its "
                             "own runs; give --tune with them, and leave out --sweep, "
                             "--compare, --skill, --check, --log\n")


def test_each_target_s_figure_and_the_distance_outside_the_targets():
    """A run's figures as the targets read them: the seat furthest from fair, the mean
    length, how often nobody won, search's edge over random; the distance sums each
    miss (10 - 5 seat points, 11 - 10 turns, 10 - 5% nobody, 25 - 20 skill points)."""
    from collections import Counter

    from cardkit.playtest.tune_targets import distance, figures

    summary = {"players": 2, "fair_share": 0.5, "games": 100, "decided": 90,
               "nobody_won": 0.1, "length_unit": "turns", "cards": None,
               "seats": [{"seat": 0, "share": 0.6, "share_interval": [0.55, 0.65]},
                         {"seat": 1, "share": 0.4, "share_interval": [0.35, 0.45]}]}
    skill = {"bot_shares": [{"bot": "random", "share": 0.3, "fair_share": 0.5,
                             "interval": [0.2, 0.4]},
                            {"bot": "search:iterations=25", "share": 0.7, "fair_share": 0.5,
                             "interval": [0.6, 0.8]}]}
    targets = [parse_target(text) for text in ("seats=5", "length=8..10", "nobody=5",
                                               "skill=25", "card-edge=5")]
    found = figures(targets, summary, Counter({10: 50, 12: 50}), skill)
    assert {name: round(f.value, 6) for name, f in found.items()} == {
        "seats": 10.0, "length": 11.0, "nobody": 10.0, "skill": 20.0, "card-edge": 0.0}
    assert [round(b, 6) for b in found["seats"].interval] == [5.0, 15.0]
    assert found["seats"].said.startswith("seats: seat 0 wins 60.0%, 10.0 points from a fair")
    assert found["card-edge"].said == "card edge: no card stands out beyond chance"
    assert round(distance(targets, found), 6) == 16.0


def test_a_figure_meets_its_target_only_when_its_interval_does():
    """Before: met or MISSED by the point estimate, so a setting 4 points off with an
    interval of 1 to 7 was 'met' and one 5.5 off with 3.5 to 7.5 'MISSED'."""
    from cardkit.playtest.tune_targets import Figure, verdict

    seats = Target("seats", 0.0, 5.0)
    assert [verdict(seats, Figure(v, (max(0.0, v - 3), v + 3), "")) for v in (1.0, 4.0, 5.5, 9.0)] == \
        ["met", "within chance", "within chance", "MISSED"]


def test_the_seats_figure_allows_for_the_largest_of_several_noisy_shares():
    """Four seats, each 50% with a 95% interval of 45% to 55%: the largest of three free
    shares' distances needs a wider interval than one share's (before: 5.0 points)."""
    from cardkit.playtest.tune_targets import seats_figure

    seat = {"share": 0.25, "share_interval": [0.20, 0.30]}
    four = seats_figure({"fair_share": 0.25, "players": 4,
                         "seats": [{**seat, "seat": n} for n in range(4)]})
    assert four.interval[0] == 0.0 and 6.0 < four.interval[1] < 6.3
    assert "the furthest of 4 seats" in four.said


def test_the_search_plays_each_setting_of_a_rung_from_seeds_of_its_own():
    """Before: every setting of a rung was played from one seed, whose luck shifted
    every estimate together."""
    from cardkit.playtest.tune import search
    from cardkit.playtest.tune_targets import Figure

    seeds = []

    def play(points, games, given):
        seeds.append(list(given))

    def measure(point):
        return {"seats": Figure(abs(point.values[0]), (0.0, 10.0), "")}

    knob = parse_vary("FIRST_BONUS=0..20")
    search([knob], (10,), [Target("seats", 0.0, 5.0)], 9, 1, play, measure, (10, 10, 10), 9)
    assert all(len(set(rung)) == len(rung) for rung in seeds)
    assert len({seed for rung in seeds for seed in rung}) == sum(map(len, seeds))
    assert 1 not in {seed for rung in seeds for seed in rung}  # the fresh games' seed


def test_the_distance_outside_the_targets_says_its_unit():
    from cardkit.cli.tune_run import distance_said

    assert distance_said(0.6, {"targets": [{"target": "seats"}], "length_unit": "turns"}) \
        == "0.6 points outside the targets"


def test_tune_on_the_known_game_of_one_constant_suggests_a_fair_setting_honestly_labelled():
    """FIRST_BONUS is seat 0's edge in points (0 is fair): suggestion 1 truly within 5
    points, and no setting beyond them labelled as meeting every target (a small version
    of `make calibrate`'s ten seeded runs: 10 of 10 there)."""
    from known_games.verdicts import edge_tuning, edge_tuning_right

    answer = edge_tuning(seed=3, trials=9, games=600, rungs=(40, 80, 160))
    assert edge_tuning_right(answer) == (True, 0), answer["suggestions"]
    for suggestion in answer["suggestions"]:
        figure = suggestion["figures"]["seats"]
        assert figure["verdict"] == ("MISSED" if figure["interval"][0] > 5 else "met"
                                     if figure["interval"][1] <= 5 else "within chance")


def test_the_one_step_check_compares_the_two_settings_game_by_game():
    """FIRST_BONUS 4 suggested, 6 today, toward seats within 1 point: both miss, and moving
    back to 6 puts seat 0 two points further off. Played from the same seeds, the pairs
    differ only where the weighted coin falls between the two: the paired check finds it.
    Before: the two figures' intervals were taken as independent (about 4 points wide
    together at 1,000 games) and the step was said not to matter."""
    from known_games.verdicts import edge_tuning

    answer = edge_tuning(seed=2, trials=2, games=1000, rungs=(20, 20, 20),
                         vary="FIRST_BONUS=4,6", today=6, target=1.0)
    best = answer["suggestions"][0]
    assert best["values"]["FIRST_BONUS"] == 4
    step, = best["one_step"]
    assert step["lost"] == [] and step["matters"], step


def test_a_suggestion_that_breaks_the_deck_s_contest_says_so(duel, monkeypatch):
    """Issue 58: a deck in the 18-card contest was suggested 'Scout x5 -> x6' (19 cards)
    without a word."""
    monkeypatch.setattr("cardkit.playtest.tune.RUNGS", (10, 10, 10))
    cards = duel / "duel" / "cards.csv"
    cards.write_text(cards.read_text().replace("Scout,unit,1,1,3,", "Scout,unit,1,1,5,"))
    deck = duel / "duel" / "deck.yaml"
    deck.write_text(deck.read_text().replace("  total: 16", "  total: 18")
                    .replace("size: poker", "size: poker\ncontest: bgg-18-card"))
    result = CliRunner().invoke(main, [
        "simulate", "duel", "--players", "2", "--tune", "--target", "length=1..100",
        "--vary", "count[name=Scout]=4..6", "--trials", "3", "--games", "20",
        "--workers", "1"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    first = lines.index(next(line for line in lines if line.startswith("Suggestion 1: ")))
    copies = 17 if "Scout x5 -> x4" in lines[first] else 19
    assert f"  breaks the contest: the 18-card contest asks for 18 cards; this deck would " \
           f"have {copies}" in lines[first:first + 3]
