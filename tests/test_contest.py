"""Contest profiles (issue 41): a deck names its contest and validate and build check it,
one message for each rule broken, at the deck's 'contest:' line."""

from __future__ import annotations

import shutil

import pytest
from click.testing import CliRunner

from cardkit.cli import main
from cardkit.sources.bundled import DECKS_DIR
from conftest import ID_BACK, ID_FRONT, write_deck


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def contest_deck(folder, contest: str, count: int = 18, size: str = "poker",
                 extra: str = ""):
    """A deck of ``count`` copies of one card entered in ``contest`` (line 4)."""
    return write_deck(folder, f"""\
name: entry
size: {size}
front: id-front
contest: {contest}
backs:
  plain: {{layout: id-back, colour: '#ffffff'}}
fields:
  colour: colour
{extra}cards:
  - {{colour: '#ff0000', count: {count}}}
""", {"id-front": ID_FRONT, "id-back": ID_BACK})


def problems(output: str) -> list[str]:
    """The message lines of a failed run (the last line is the summary)."""
    return [line for line in output.splitlines() if "deck.yaml:" in line]


def test_blofa_keeps_to_the_18_card_contest():
    result = run("validate", "blofa")
    assert result.exit_code == 0, result.output


def test_one_card_too_many_is_one_message_naming_the_contest_line(tmp_path):
    deck = contest_deck(tmp_path, "bgg-18-card", count=19)
    result = run("validate", deck)
    assert result.exit_code == 2
    assert problems(result.output) == [
        f"{deck}:4:10: 19 cards, the 18-card contest allows 18; print 1 card fewer (a "
        "card's 'count', or its entry under 'cards:')"]


@pytest.mark.parametrize("paper, bleed, message", [
    ("a4", "3mm", "with 3 mm bleed an A4 sheet holds 8 cards, the 18-card contest asks 9 a "
                  "sheet; build with at most 2 mm bleed"),
    ("letter", "1mm", "with 1 mm bleed a Letter sheet holds 8 cards, the 18-card contest asks"
                      " 9 a sheet; build with at most 0.5 mm bleed or build on A4"),
])
def test_cards_a_sheet_come_from_the_sheets_as_built(tmp_path, paper, bleed, message):
    deck = contest_deck(tmp_path, "bgg-18-card")
    # a build with bleed of the user's own is not the entry: it is built, with a warning;
    # with --strict it is refused, as validate and pack refuse the entry's sheets
    result = run("build", deck, "--out", tmp_path / "out", "--paper", paper, "--bleed", bleed)
    assert result.exit_code == 0 and f"{deck}:4:10: {message}" in result.output
    result = run("build", deck, "--out", tmp_path / "strict", "--paper", paper, "--bleed",
                 bleed, "--strict")
    assert result.exit_code == 2
    what, fix = message.split("; ", 1)
    assert problems(result.output) == [f"{deck}:4:10: {what} (an error with --strict); {fix}"]
    assert not (tmp_path / "strict").exists()
    # at the bleed the message gives, the sheet holds 9 and the build goes through
    fitting = "2mm" if paper == "a4" else "0.5mm"
    result = run("build", deck, "--out", tmp_path / "out", "--paper", paper, "--bleed", fitting)
    assert result.exit_code == 0, result.output
    assert "9 a page" in result.output


def test_a_contest_of_the_decks_own_reports_each_rule_broken_once(tmp_path):
    deck = contest_deck(tmp_path, "{name: spring jam, cards: 18, size: poker, per_sheet: 9, "
                        "components: 4}", count=18, size="tarot",
                        extra="components: {coin: 4, pencil: 2}\n")
    result = run("validate", deck)
    assert result.exit_code == 2
    found = problems(result.output)
    assert found == [
        f"{deck}:4:10: the cards are 70 x 120 mm, the contest (spring jam) asks 63.5 x 88.9 mm;"
        " set 'size: poker'",
        f"{deck}:4:10: an A4 sheet holds 6 cards and a Letter sheet holds 5 cards, the "
        "contest (spring jam) asks 9 a sheet; use smaller cards",
        f"{deck}:4:10: the game needs 6 components besides its cards (4 coin, 2 pencil), the "
        "contest (spring jam) allows 4; list fewer under 'components:'"]


def test_the_rulebook_counts_against_a_contests_rules_pages(tmp_path):
    deck = write_deck(tmp_path, "extends: blofa\ncontest: {rules_pages: 2}\n")
    shutil.copy(DECKS_DIR / "blofa" / "rules.md", tmp_path / "rules.md")
    result = run("validate", deck)
    assert result.exit_code == 2
    assert problems(result.output) == [
        f"{deck}:2:10: the rulebook takes 3 A4 pages, the contest allows 2; shorten rules.md"]


@pytest.mark.parametrize("contest, message", [
    ("bgg-18-cards", "no contest profile 'bgg-18-cards'; did you mean 'bgg-18-card'?"),
    ("{cards: 18, sheets: 2}", "unknown key 'sheets' in contest"),
    ("{papers: [a3]}", "contest papers must be a list of a4 and letter"),
])
def test_a_contest_written_wrongly_is_told_how_to_write_it(tmp_path, contest, message):
    result = run("validate", contest_deck(tmp_path, contest))
    assert result.exit_code == 2
    assert len(problems(result.output)) == 1
    assert message in result.output


TOKENS_AND_BOARD = ("tokens:\n  - {shape: round, size: 20mm, count: 30, front: id-front, "
                    "colour: '#0000ff'}\nboards:\n  - {name: map, width: 300mm, height: 200mm, "
                    "layout: id-front, colour: '#00ff00'}\ncomponents: {coin: 10}\n")


def test_the_component_limit_counts_the_printed_tokens_and_boards(tmp_path):
    """30 tokens, a board and 10 coins are 41 components: the 9-card contest allows 24,
    and the message names each thing counted."""
    deck = contest_deck(tmp_path, "bgg-9-card", count=9, extra=TOKENS_AND_BOARD)
    result = run("validate", deck)
    assert result.exit_code == 2, result.output
    assert problems(result.output) == [
        f"{deck}:4:10: the game needs 41 components besides its cards (30 tokens, 1 board, "
        "10 coin), the 9-card contest allows 24; print fewer tokens or print fewer boards or "
        "list fewer under 'components:'"]
    fits = contest_deck(tmp_path, "bgg-9-card", count=9,
                        extra=TOKENS_AND_BOARD.replace("count: 30", "count: 13"))
    result = run("validate", fits)
    assert result.exit_code == 0, result.output  # 13 + 1 + 10 = 24


def test_a_contest_may_allow_no_tokens_or_boards(tmp_path):
    deck = contest_deck(tmp_path, "{cards: 9, tokens: false, boards: false}", count=9,
                        extra=TOKENS_AND_BOARD)
    result = run("validate", deck)
    assert result.exit_code == 2, result.output
    assert problems(result.output) == [
        f"{deck}:4:10: the deck prints 30 tokens ('tokens:'), the contest allows no tokens; "
        "leave out 'tokens:', or print them as cards",
        f"{deck}:4:10: the deck prints 1 board ('boards:'), the contest allows no boards; "
        "leave out 'boards:'"]
    result = run("validate", contest_deck(tmp_path, "{cards: 9, tokens: maybe}", count=9))
    assert result.exit_code == 2
    assert ":4:29: 'tokens' must be true or false, not text" in result.output
