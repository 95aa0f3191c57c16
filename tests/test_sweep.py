"""`cardkit simulate GAME --sweep WHAT=VALUES` (issue 29): a full run at each value, one
table, the fairest value named."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner

from cardkit.cli import main
from cardkit.playtest.sweep import Sweep, SweepError, parse, with_count


def run(*args):
    outcome = CliRunner().invoke(main, [str(a) for a in args])
    return outcome.exit_code, outcome.output


@pytest.mark.parametrize("text, sweep", [
    ("players=2..4", Sweep("players", None, (2, 3, 4))),
    ("players=3,5", Sweep("players", None, (3, 5))),
    ("count[name=Dragon]=0..2", Sweep("count", ("count", (("name", "Dragon"),)), (0, 1, 2))),
    ("count[kind=unit]=4", Sweep("count", ("count", (("kind", "unit"),)), (4,))),
    ("count[red 5]=1", Sweep("count", ("count", (("card_name", "red 5"),)), (1,))),
    ("each[colour=red,value=5]=1,3",
     Sweep("count", ("each", (("colour", "red"), ("value", "5"))), (1, 3))),
    ("bluff_rate=0,0.25", Sweep("param", "bluff_rate", (0.0, 0.25)))])
def test_a_sweep_reads_as_written(text, sweep):
    assert parse(text) == sweep


@pytest.mark.parametrize("text, message", [
    ("players", "no values"), ("players=1..3", "1 is not a usable player count"),
    ("count[]=1..2", "names no card"), ("count[a=1,b]=1", "names no card"),
    ("bluff_rate=low", "are not numbers"),
    ("players=2..99", "98 values"), ("bad name=1", "nor a bot parameter")])
def test_a_sweep_that_cannot_be_read_says_how_to_write_it(text, message):
    with pytest.raises(SweepError, match=message):
        parse(text)


@pytest.mark.parametrize("text, message", [
    ("players=5..2", "5..2 runs backwards; write the smaller number first, e.g. 2..5"),
    ("players=a..b", "'a..b' is not a player count range or list; give whole numbers"),
    ("nosuch=1..2", "no bot playing takes nosuch (they take aggression, bluff_rate, "
                    "call_threshold); sweep a parameter they take"),
    ("players=", "no values; write WHAT=VALUES"),
    ("players=2..999999999999", "999,999,999,998 values; sweep at most 50 values"),
    ("count[name=Dragon]=0..10000000000", "10,000,000,001 values; sweep at most 50"),
    ("count[name=Dragon=1", "count[name=Dragon=1 names no card; write count[FIELD=VALUE]"),
    ("players=2.5", "'2.5' is not a player count range or list")])
def test_a_bad_sweep_exits_2_naming_the_option_its_value_and_the_fix(text, message):
    """Each at once (a huge range is counted, never built), one line, no traceback."""
    code, out = run("simulate", "bullet", "--bots", "heuristic", "--games", 10,
                    "--sweep", text)
    assert code == 2, out
    assert out == f"cardkit: --sweep {text!r}: {message}" + out.split(message, 1)[1]
    assert out.count("\n") == 1 and "Traceback" not in out


def test_with_count_keeps_the_other_cards_in_their_places():
    deck = [{"name": "A"}, {"name": "D", "cost": 5}, {"name": "B"}, {"name": "D", "cost": 5}]
    assert with_count(deck, ("count", (("name", "D"),)), 0) == [{"name": "A"}, {"name": "B"}]
    assert with_count(deck, ("count", (("cost", "5"),)), 1) == [
        {"name": "A"}, {"name": "D", "cost": 5}, {"name": "B"}]


LANTERN = Path(__file__).resolve().parent.parent / "examples" / "lantern-market"


def _lantern_counts(key, count, card_name=None) -> Counter:
    from cardkit.deck.loader import load_deck

    fields = load_deck(LANTERN / "deck.yaml").for_rules()
    if card_name:
        fields = [{**copy, "card_name": card_name.format(**copy)} for copy in fields]
    return Counter(copy["name"] for copy in with_count(fields, key, count))


def test_a_selector_chooses_by_several_fields_by_card_name_or_every_matching_card():
    """Lantern Market holds 3 Silk Bolts, 4 Spice Jars, 5 Lantern Oils and a Golden Lamp
    (the goods), 3 Night Watches, a Captain, 2 Storms and 2 Festivals. The old sweep put
    count[kind=good]=2 as two Silk Bolts and no other good."""
    others = {"Night Watch": 3, "Captain": 1, "Storm": 2, "Festival": 2}
    every_good = {"Silk Bolt": 2, "Spice Jar": 2, "Lantern Oil": 2, "Golden Lamp": 2}
    assert _lantern_counts(("each", (("kind", "good"),)), 2) == Counter(
        {**every_good, **others})
    assert _lantern_counts(("count", (("kind", "good"), ("cost", "5"))), 3) == Counter(
        {"Silk Bolt": 3, "Spice Jar": 4, "Lantern Oil": 5, "Golden Lamp": 3, **others})
    assert _lantern_counts(("count", (("card_name", "Spice Jar (good)"),)), 1,
                           "{name} ({kind})")["Spice Jar"] == 1
    with pytest.raises(SweepError) as refused:
        _lantern_counts(("count", (("kind", "good"),)), 2)
    assert (refused.value.what, refused.value.fix) == (
        "count[kind=good] matches 4 different cards (Golden Lamp, Lantern Oil, Silk Bolt, "
        "Spice Jar)", "choose one (count[name=Golden Lamp]), or give each of them that many "
        "copies with each[kind=good]")


def test_a_sweep_of_players_has_a_row_a_count_and_names_the_fairest(tmp_path):
    code, out = run("simulate", "bullet", "--sweep", "players=2..3", "--games", 100,
                    "--workers", 1, "--report", tmp_path / "r")
    assert code == 0, out
    lines = out.splitlines()
    assert lines[0] == "bullet: sweep of players, 100 games a point, seed 1"
    assert lines[1].startswith("  players=2: seats ") and lines[2].startswith("  players=3:")
    assert "fair share" in lines[3] and "players=" in lines[3]
    # a share moves in percentage points; how often nobody won is of all games
    assert "percentage points from fair), nobody won 0.0% of all games, " in lines[1]
    assert "percentage points from a fair share." in lines[3]
    saved = json.loads((tmp_path / "r" / "summary.json").read_text())
    assert [point["summary"]["players"] for point in saved["points"]] == [2, 3]
    page = (tmp_path / "r" / "report.html").read_text()
    assert "a sweep of players" in page
    header, *rows = _table(page)
    assert header == ["players", "seat 0", "seat 1", "seat 2", "nobody won, of all games",
                      "turns"]
    assert [len(row) for row in rows] == [len(header)] * 2  # no seat 2 at 2 players: empty
    assert rows[0][3] == "" and rows[1][3].endswith("%")
    assert [row[4] for row in rows] == [f"{point['summary']['nobody_won']:.1%}"
                                        for point in saved["points"]]


def _table(page: str) -> list[list[str]]:
    """The page's first table, a list of cells a row (header first)."""
    from html.parser import HTMLParser

    rows: list[list[str]] = []

    class Table(HTMLParser):
        cell = None

        def handle_starttag(self, tag, attrs):
            if tag == "tr":
                rows.append([])
            elif tag in ("td", "th"):
                self.cell = ""

        def handle_endtag(self, tag):
            if tag in ("td", "th"):
                rows[-1].append(self.cell.strip())
                self.cell = None

        def handle_data(self, data):
            if self.cell is not None:
                self.cell += data

    Table().feed(page[page.index("<table>"):page.index("</table>")])
    return rows


def test_a_sweep_of_whole_numbers_is_plotted_on_whole_numbers(monkeypatch):
    """players=2..5: no tick at 2.5 players."""
    from cardkit.playtest import report_runs

    drawn = []
    monkeypatch.setattr(report_runs, "png", lambda figure: drawn.append(figure) or "")
    seats = [{"share": 0.5}] * 2
    report_runs._sweep_plot({"sweep": "players=2..5", "points": [
        {"value": value, "summary": {"seats": seats, "fair_share": 0.5}} for value in (2, 3, 4, 5)]})
    ticks = [tick for tick in drawn[0].axes[0].get_xticks() if 2 <= tick <= 5]
    assert ticks == [2, 3, 4, 5]


def test_a_sweep_of_a_card_s_count_plays_decks_with_that_many(tmp_path):
    from cardkit.starter import create_deck

    create_deck(tmp_path / "duel", "duel")
    code, out = run("simulate", tmp_path / "duel", "--sweep", "count[name=Archer]=0..2",
                    "--games", 200, "--workers", 1, "--report", tmp_path / "r")
    assert code == 0, out
    saved = json.loads((tmp_path / "r" / "summary.json").read_text())
    drawn = [{card["card"]: card["drawn"]["seat_games"] for card in point["summary"]["cards"]}
             .get("Archer", 0) for point in saved["points"]]
    assert drawn[0] == 0 and 0 < drawn[1] < drawn[2]  # none, then more with more copies


def test_a_sweep_says_which_counts_break_the_deck_s_contest_and_composition(tmp_path):
    """Issue 58: a deck entered in the 18-card contest, which promises 16 cards and 8 units,
    swept over the Archer's copies: each count but today's breaks what the deck promises,
    and the contest only where the deck keeps it today (18 cards)."""
    from cardkit.starter import create_deck

    create_deck(tmp_path / "duel", "duel")
    deck = tmp_path / "duel" / "deck.yaml"
    deck.write_text(deck.read_text().replace("  total: 16", "  total: 16\n  kind: {unit: 9, "
                                             "event: 7}"))
    code, out = run("simulate", tmp_path / "duel", "--sweep", "count[name=Archer]=1..3",
                    "--games", 10, "--workers", 1)
    assert code == 0, out
    lines = {line.split(":")[0].strip(): line for line in out.splitlines()
             if line.startswith("  count[")}
    assert lines["count[name=Archer]=1"].endswith(
        "; breaks the deck's composition: 15 cards (it promises 16); breaks the deck's "
        "composition: 8 cards with kind unit (it promises 9)")
    assert "breaks" not in lines["count[name=Archer]=2"]
    assert "with kind unit (it promises 9)" in lines["count[name=Archer]=3"]
    assert "contest" not in out  # the deck is entered in none
    cards = tmp_path / "duel" / "cards.csv"
    cards.write_text(cards.read_text().replace("Scout,unit,1,1,3,", "Scout,unit,1,1,5,"))
    deck.write_text(deck.read_text().replace("  total: 16", "  total: 18")
                    .replace("unit: 9", "unit: 11").replace("size: poker", "size: poker\n"
                                                            "contest: bgg-18-card"))
    code, out = run("simulate", tmp_path / "duel", "--sweep", "count[name=Archer]=2,3",
                    "--games", 10, "--workers", 1)
    assert code == 0, out
    assert "count[name=Archer]=3: " in out and "; breaks the 18-card contest: 19 cards (it asks " \
        "for 18); breaks the deck's composition: 19 cards (it promises 18)" in out
    assert out.count("breaks") == 3  # the third: 12 units where it promises 11


@pytest.mark.parametrize("args, message", [
    (["bullet", "--sweep", "players=2..9"], "Bluff the Bullet is not for 6 players"),
    (["blofa", "--sweep", "bluff_rate=0,1"], "no bot playing takes bluff_rate"),
    (["blofa", "--sweep", "players=4", "--skill"], "--sweep plays its own runs")])
def test_a_sweep_that_cannot_be_played_exits_2(args, message):
    code, out = run("simulate", *args)
    assert code == 2 and message in out


def test_a_sweep_varies_a_constant_of_the_rules_file(tmp_path, monkeypatch):
    """The starter's rules name ROUNDS = 8; each round every seat takes one turn, so a
    two-player game lasts 2 x ROUNDS turns at each point."""
    from cardkit.starter import create_deck

    create_deck(tmp_path / "duel", "duel")
    assert "\nROUNDS = 8\n" in (tmp_path / "duel" / "rules.py").read_text()
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["simulate", "duel", "--sweep", "ROUNDS=2..3",
                                       "--games", "50", "--workers", "1"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == "duel: sweep of ROUNDS, 50 games a point, seed 1"
    assert lines[1].startswith("  ROUNDS=2: ") and lines[1].endswith(", 4.0 turns")
    assert lines[2].startswith("  ROUNDS=3: ") and lines[2].endswith(", 6.0 turns")
    wrong = CliRunner().invoke(main, ["simulate", "duel", "--sweep", "ROUNDS=2.5",
                                      "--games", "50", "--workers", "1"])
    assert wrong.exit_code == 2
    assert "ROUNDS is a whole number in the rules (8), not 2.5; sweep whole numbers" in \
        wrong.output


def test_a_sweep_s_last_line_names_the_values_beyond_chance(tmp_path, monkeypatch):
    """Issue 56, item 6: the builder against random play wins far more than half at every
    ROUNDS (a known answer: seat 0 is off a fair share); the last line named only the
    fairest value."""
    from cardkit.starter import create_deck

    create_deck(tmp_path / "duel", "duel")
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["simulate", "duel", "--sweep", "ROUNDS=4..5",
                                       "--games", "200", "--workers", "1", "--bots", "builder",
                                       "--bots", "random"])
    assert result.exit_code == 0, result.output
    last = result.output.splitlines()[-1]
    assert last.startswith("Fairest: ROUNDS=")
    assert last.endswith("; a seat is off a fair share beyond chance at ROUNDS=4, 5 (each "
                         "value's seats tested together)."), last
