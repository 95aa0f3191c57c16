"""The cards' text checked against the rules (issue 41): validate warns of fields the
rules read that no card shows and of numbers layouts print from no field, reading rules.py
with ast, never running it."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from cardkit.cli import main

STRENGTH = """\
  - name: strength
    kind: text
    box: [61%, 84.5%, 26%, 6.5%]
    text: "3 {star}"
    colour: white
"""


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


@pytest.fixture
def starter(tmp_path, monkeypatch):
    """A deck made by cardkit new, with its rules.py: its folder."""
    monkeypatch.chdir(tmp_path)
    assert run("new", "duel").exit_code == 0
    return tmp_path / "duel"


def drop_strength(deck):
    """front-unit prints a fixed 3 where it printed the card's strength."""
    layout = deck / "layouts" / "front-unit.yaml"
    text = layout.read_text(encoding="utf-8")
    layout.write_text(text[:text.index("  - name: strength\n")] + STRENGTH, encoding="utf-8")
    return text[:text.index("  - name: strength\n")].count("\n") + 1  # the element's line


def test_the_starter_deck_shows_every_field_its_rules_read(starter):
    result = run("validate", starter)
    assert result.exit_code == 0
    assert result.output == "duel: 16 cards, 8 distinct, OK\n"


def test_a_layout_that_drops_a_field_is_warned_of_and_with_strict_refused(starter):
    line = drop_strength(starter)
    rules_line = next(i for i, text in enumerate(
        (starter / "rules.py").read_text().splitlines(), 1) if text.lstrip().startswith("fields"))
    result = run("validate", starter)
    assert result.exit_code == 0
    assert result.output.splitlines() == [
        f"warning: {starter}/rules.py:{rules_line}:55: the rules read field 'strength', which "
        "no layout prints: players cannot see what decides the game; print {strength} in a "
        "text element of the fronts (front-event, front-unit)",
        f"warning: {starter}/layouts/front-unit.yaml:{line}:5: layout front-unit, element "
        "'strength' prints 3, which comes from no field: the rules cannot read it; make it a "
        "field the rules read, and print that field",
        "duel: 16 cards, 8 distinct, OK (2 warnings)"]
    strict = run("validate", starter, "--strict")
    assert strict.exit_code == 2
    assert strict.output.count("(an error with --strict)") == 2


def test_the_rules_file_is_read_never_run(starter):
    rules = starter / "rules.py"
    ran = starter / "ran"
    rules.write_text(f"open({str(ran)!r}, 'w').close()\nraise SystemExit(5)\n"
                     + rules.read_text(), encoding="utf-8")
    drop_strength(starter)
    result = run("validate", starter)
    assert result.exit_code == 0 and "the rules read field 'strength'" in result.output
    assert not ran.exists()


def test_rules_that_do_not_parse_are_one_warning(starter):
    (starter / "rules.py").write_text("class Game(:\n    fields = {'cost': int}\n")
    result = run("validate", starter)
    assert result.exit_code == 0
    assert result.output.splitlines()[0] == (
        f"warning: {starter}/rules.py:1: the rules do not parse as Python, so the card text "
        "is not checked against them; run 'cardkit simulate' on the deck to see the mistake")
