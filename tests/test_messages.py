"""What a new user met (issues 37 and 46): each mistake said once, at the place it is
written, with the right fix, and deck text printed so that it cannot drive the terminal."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from cardkit.cli import main
from conftest import write_deck

BACK = "elements:\n  - {name: bg, kind: rect, box: card, fill: white}\n"
FACE = """\
elements:
  - {name: bg, kind: rect, box: card, fill: "{ink}"}
  - {name: title, kind: text, box: [5mm, 5mm, 50mm, 10mm], text: "{name}", size: 10pt}
"""
DECK = """\
name: tiny
size: poker
front: face
backs:
  plain: {layout: back}
fields:
  name: text
  ink: {type: text, default: white}
cards:
  - {name: One}
"""


def _validate(*args, env=None):
    return CliRunner().invoke(main, ["validate", *map(str, args)], env=env)


@pytest.mark.parametrize("epoch, what", [
    ("abc", "'abc' is not a build time"),
    ("-5", "'-5' is not a build time"),
    ("1e99", "'1e99' is not a build time"),
    ("9" * 40, "'999999999999999999999999999999...' is not a build time, it is after the "
               "year 9999"),
])
def test_a_source_date_epoch_that_is_not_a_time_is_named_with_its_fix(tmp_path, epoch, what):
    deck = write_deck(tmp_path, DECK, {"face": FACE, "back": BACK})
    result = _validate(deck, env={"SOURCE_DATE_EPOCH": epoch})
    assert result.exit_code == 2, result.output
    assert result.output.splitlines()[0] == (
        f"environment variable SOURCE_DATE_EPOCH: {what}; set it to a whole number of "
        "seconds since 1970-01-01 UTC, e.g. SOURCE_DATE_EPOCH=$(git log -1 --format=%ct), "
        "or unset it")
    calibrated = CliRunner().invoke(main, ["calibrate", "--out", str(tmp_path / "o")],
                                    env={"SOURCE_DATE_EPOCH": epoch})
    assert calibrated.exit_code == 2 and "SOURCE_DATE_EPOCH" in calibrated.output
    assert not (tmp_path / "o").exists()


def test_a_blank_source_date_epoch_is_not_set(tmp_path):
    deck = write_deck(tmp_path, DECK, {"face": FACE, "back": BACK})
    assert _validate(deck, env={"SOURCE_DATE_EPOCH": " "}).exit_code == 0


@pytest.mark.parametrize("ink, severity", [("black", "warning: "), ('"\\e[2Jevil"', "")])
def test_control_characters_of_deck_text_are_printed_escaped(tmp_path, ink, severity):
    """A card named ESC [2J (clear the screen): in a warning (text on the same colour) and
    in an error (a colour that is not one), the name is shown, escaped."""
    named = f"{{name: \"\\e[2Jevil\", ink: {ink}}}"
    deck = write_deck(tmp_path, DECK.replace("{name: One}", named),
                      {"face": FACE, "back": BACK})
    result = _validate(deck)
    assert "\x1b" not in result.output
    assert result.exit_code == (0 if severity else 2)
    assert f"{severity}{deck}:10:5: card 1 (name \\x1b[2Jevil, ink " in result.output


def test_a_card_is_named_by_its_name_however_long(tmp_path):
    """Messages name a card by its name field, first, even when the deck declares it after
    others and it is longer than the short fields shown beside it (a warning said 'card 1
    (kind heist, cost 3)')."""
    deck = DECK.replace("  name: text\n", "  kind: text\n  cost: integer\n  name: text\n")
    deck = deck.replace("{name: One}", "{kind: heist, cost: 3, name: The Clockwork Heist "
                        "Master Plan, ink: '#ffffff'}")
    face = FACE.replace("50mm, 10mm], text", "5mm, 2mm], text")  # the name cannot fit
    path = write_deck(tmp_path, deck, {"face": face, "back": BACK})
    result = _validate(path)
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[0] == (
        f"warning: {path}:12:5: card 1 (name The Clockwork Heist Master Plan, kind heist), "
        "layout 'face', element 'title': text does not fit its box even at 10pt "
        "(overflow: shrink); shorten the text, enlarge the box or lower 'min_size' (or "
        "choose another 'overflow': hyphenate, break-anywhere, ellipsis)")


BACKS = """\
name: tiny
size: poker
front: face
backs:
  unit:
    layout: back
    colour: "#2a5b84"       # read as {back.colour}
    tint: "#e6eef5"
  event:
    layout: back
    colour: "#9c3d26"
    tint: "#f7e7e1"
fields:
  name: text
  ink: {type: text, default: white}
cards:
  - {name: One, back: unit}
"""


@pytest.mark.parametrize("old, new, where, then", [
    # the quote runs to the next value's, and 'tint' is met twice four lines on
    ('tint: "#e6eef5"', 'tint: "#e6eef5', "8:11", "it runs on to line 11, where the next "
     "value's quote closes it"),
    # no YAML error at all: 'tint' went missing, and 13 problems followed
    ('"#2a5b84"', '"#2a5b84', "7:13", "it runs on to line 8, where the next value's quote "
     "closes it"),
    ('{name: One, back: unit}', '{name: "One, back: unit}', "17:12",
     "the file ends before it is closed"),
])
def test_an_unclosed_quote_is_reported_where_it_opens(tmp_path, old, new, where, then):
    path = write_deck(tmp_path, BACKS.replace(old, new), {"face": FACE, "back": BACK})
    result = _validate(path)
    assert result.exit_code == 2
    assert result.output.splitlines() == [
        f"{path}:{where}: this quote is not closed on its line: {then}; add the closing "
        "quote at the end of the value (a text of several lines is written after '|')",
        f"cardkit: 1 problem in {path}"]


def test_a_wrong_colour_on_a_back_is_one_message_where_it_is_written(tmp_path):
    """'slate-blue' on a back read by three elements of two layouts was 5 problems, each
    at a card's row; it is one, at the back's colour, with the name it is close to."""
    face = """\
elements:
  - {name: bg, kind: rect, box: card, fill: "{back.colour}"}
  - {name: title, kind: text, box: [5mm, 5mm, 50mm, 10mm], text: "{name}", colour: "{back.colour}"}
"""
    back = 'elements:\n  - {name: bg, kind: rect, box: card, stroke: "{back.colour}"}\n'
    deck = BACKS.replace('"#9c3d26"', '"slate-blue"') + "  - {name: Two, back: event}\n"
    path = write_deck(tmp_path, deck, {"face": face, "back": back})
    result = _validate(path)
    assert result.output.splitlines() == [
        f"{path}:11:13: back 'event': 'slate-blue' is not a colour, which layouts read as "
        "{back.colour} for a fill; did you mean 'slateblue'?",
        f"cardkit: 1 problem in {path}"]
    path.write_text(deck.replace('"slate-blue"', "[1, 2]"))  # not one value: said once too
    assert _validate(path).output.splitlines() == [
        f"{path}:11:13: back field 'colour' must be a single value; write text or a number",
        f"cardkit: 1 problem in {path}"]


def test_a_colour_or_a_file_name_close_to_a_real_one_is_suggested(tmp_path):
    face = FACE.replace('fill: "{ink}"', "fill: Dark Green") + \
        "  - {name: art, kind: image, box: [5mm, 20mm, 20mm, 20mm], image: art/dron.svg}\n"
    path = write_deck(tmp_path, DECK, {"face": face, "back": BACK})
    (tmp_path / "art").mkdir()
    (tmp_path / "art" / "drone.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>')
    result = _validate(path)
    assert result.output.splitlines()[:2] == [
        f"{tmp_path}/layouts/face.yaml:2:45: fill: 'Dark Green' is not a colour; did you mean "
        "'darkgreen'?",
        f"{path}:10:5: card 1 (name One, ink white), layout 'face', element 'art': image "
        f"'art/dron.svg': file not found (did you mean 'drone.svg'?); put a PNG, JPG or SVG "
        f"at {tmp_path}/art/dron.svg"]


def test_a_card_s_control_characters_are_escaped_in_what_diff_lists(tmp_path):
    """Deck text reaches the terminal outside messages too: diff lists the cards by name."""
    old = write_deck(tmp_path / "old", DECK, {"face": FACE, "back": BACK})
    new = write_deck(tmp_path / "new", DECK.replace("{name: One}", '{name: "\\e[2JOne"}'),
                     {"face": FACE, "back": BACK})
    result = CliRunner().invoke(main, ["diff", str(old), str(new)])
    assert result.exit_code == 0, result.output
    assert "\x1b" not in result.output and "\\x1b[2JOne" in result.output
