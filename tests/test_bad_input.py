"""A table of broken decks and layouts, and the message each must give:
file:line:col, what is wrong, and what to write instead."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from cardkit.build import check_cards
from cardkit.cli import main
from cardkit.deck import load_deck
from cardkit.errors import InputError
from conftest import write_deck

DECK = """\
name: tiny
title: Tiny
size: poker
front: face
backs:
  blue: {layout: back, colour: "#1f5fa8"}
  red: {layout: back, colour: "#c03030"}
fields:
  value: integer
  text: {type: text, default: ""}
composition:
  total: 4
  back: {blue: 3, red: 1}
cards:
  - back: blue
    cards:
      - {value: 1, count: 2}
      - {value: 2}
  - {value: 3, back: red}
"""

FACE = """\
elements:
  - name: bg
    kind: rect
    box: card
    fill: white
  - name: value
    kind: text
    box: [5mm, 5mm, 20mm, 10mm]
    text: "{value}"
    size: 12pt
"""

BACK = """\
elements:
  - {name: bg, kind: rect, box: card, fill: "{back.colour}"}
"""

# (description, file to change, old text, new text, expected "line:col", words the message has)
CASES = [
    ("broken YAML", "deck", "title: Tiny", "title: [Tiny", "3:5",
     ["not valid YAML", "while parsing a flow sequence at line 2, column 8", "quotes"]),
    ("unknown key", "deck", "title: Tiny", "titel: Tiny", "2:1",
     ["unknown key 'titel' in the deck", "did you mean 'title'?"]),
    ("unknown card key", "deck", "{value: 2}", "{value: 2, cout: 3}", "18:20",
     ["unknown key 'cout' in card", "did you mean 'count'?"]),
    ("undeclared field", "deck", "{value: 2}", "{value: 2, colour: red}", "18:20",
     ["unknown key 'colour' in card", "declare it under 'fields:'"]),
    ("count not a number", "deck", "count: 2", "count: two", "17:27",
     ["count must be a whole number, not text ('two')", "count: 3"]),
    ("count zero", "deck", "count: 2", "count: 0", "17:27",
     ["count is 0 but must be between 1 and", "remove the card"]),
    ("missing field", "deck", "{value: 2}", "{text: hi}", "18:9", ["this card has no 'value'"]),
    ("wrong field type", "deck", "{value: 2}", "{value: two}", "18:17",
     ["'value' must be a whole number, not text ('two')"]),
    ("length without unit", "deck", "size: poker", "size: {width: 63.5, height: 88mm}", "3:15",
     ["'63.5' has no unit", "'63.5mm'"]),
    ("unknown size", "deck", "size: poker", "size: pokr", "3:7",
     ["unknown card size 'pokr'", "did you mean 'poker'?"]),
    ("missing layout", "deck", "front: face", "front: fcae", "4:8",
     ["no layout named 'fcae'", "did you mean 'face'?"]),
    ("missing back", "deck", "{value: 3, back: red}", "{value: 3, back: rde}", "19:22",
     ["no back design named 'rde'", "did you mean 'red'?"]),
    ("composition", "deck", "blue: 3, red: 1", "blue: 2, red: 2", "13:16",
     ["the deck promises 2 cards with back blue but has 3"]),
    ("total", "deck", "total: 4", "total: 5", "12:10", ["the deck promises 5 cards but has 4"]),
    ("object tag", "deck", "title: Tiny", "title: !!python/object/apply:os.system [ls]", "2:8",
     ["unsupported YAML tag"]),
    ("duplicate key", "deck", "title: Tiny", "title: Tiny\ntitle: Other", "3:1",
     ["duplicate key 'title'"]),
    ("missing name", "deck", "name: tiny\n", "", "1:1", ["the deck has no 'name'", "add 'name:'"]),
    ("bad field type", "deck", "value: integer", "value: interger", "9:10",
     ["unknown type 'interger'", "did you mean 'integer'?"]),
    ("unknown element kind", "face", "kind: rect", "kind: rectangle", "3:11",
     ["unknown kind 'rectangle'", "did you mean 'rect'?"]),
    ("box without unit", "face", "[5mm, 5mm, 20mm, 10mm]", "[5mm, 5, 20mm, 10mm]", "8:16",
     ["box y: '5' has no unit"]),
    ("unknown element key", "face", "size: 12pt", "sise: 12pt", "10:5",
     ["unknown key 'sise'", "did you mean 'size'?"]),
    ("bad colour", "face", "fill: white", "fill: whit", "5:11",
     ["'whit' is not a colour", "'#rrggbb'"]),
    ("unknown font", "face", "size: 12pt", "font: Comic", "10:11",
     ["font: no font named 'Comic'", "Lato", "the deck's fonts/ folder"]),
    ("unknown field in layout", "face", '"{value}"', '"{valeu}"', "6:5",
     ["reads '{valeu}'", "neither a field of the card", "did you mean '{value}'?"]),
    ("extends itself", "face", "elements:", "extends: face\nelements:", "1:10",
     ["layout 'face' extends itself"]),
]


def _write(tmp_path, which, old, new):
    texts = {"deck": DECK, "face": FACE, "back": BACK}
    assert old in texts[which], f"test case does not match the base {which}"
    texts[which] = texts[which].replace(old, new, 1)
    path = write_deck(tmp_path, texts["deck"], {"face": texts["face"], "back": texts["back"]})
    return path, tmp_path / ("deck.yaml" if which == "deck" else f"layouts/{which}.yaml")


def test_the_base_deck_is_valid(tmp_path):
    deck = load_deck(write_deck(tmp_path, DECK, {"face": FACE, "back": BACK}))
    assert deck.total() == 4
    assert [c.fields["value"] for c in deck.copies()] == [1, 1, 2, 3]


@pytest.mark.parametrize("name,which,old,new,position,words", CASES, ids=[c[0] for c in CASES])
def test_bad_input_is_reported_with_its_place_and_a_fix(tmp_path, name, which, old, new,
                                                         position, words):
    deck_path, changed = _write(tmp_path, which, old, new)
    with pytest.raises(InputError) as caught:
        check_cards(load_deck(deck_path))
    messages = [str(p) for p in caught.value.problems]
    matching = [m for m in messages if all(w in m for w in words)]
    assert matching, f"no message with {words}: {messages}"
    assert matching[0].startswith(f"{changed}:{position}"), matching[0]


def test_a_bad_value_from_a_field_names_the_card_and_element(tmp_path):
    deck_path, _ = _write(tmp_path, "deck", '"#c03030"', "crimsn")
    with pytest.raises(InputError) as caught:
        check_cards(load_deck(deck_path))
    (message,) = [str(p) for p in caught.value.problems]
    assert message.startswith(f"{deck_path}:19:5: card 3 (value 3")
    assert "element 'bg': fill: 'crimsn' is not a colour; write '#rrggbb'" in message


def test_every_problem_is_reported_in_one_run(tmp_path):
    text = DECK.replace("titl", "tilt").replace("count: 2", "count: -1").replace(
        "{value: 2}", "{valeu: 2}")
    with pytest.raises(InputError) as caught:
        load_deck(write_deck(tmp_path, text, {"face": FACE, "back": BACK}))
    assert len(caught.value.problems) >= 3


def test_cli_exits_2_with_clean_messages_and_no_traceback(tmp_path):
    deck_path, _ = _write(tmp_path, "deck", "{value: 2}", "{value: 2, cout: 3}")
    result = CliRunner().invoke(main, ["build", str(deck_path), "--out", str(tmp_path / "o")])
    assert result.exit_code == 2
    assert "Traceback" not in result.output
    assert f"{deck_path}:18:20: unknown key 'cout' in card; did you mean 'count'?" \
        in result.output
    assert "nothing was written" in result.output
    assert not (tmp_path / "o").exists()


def test_missing_image_is_a_clear_error(tmp_path):
    face = FACE + "  - {name: art, kind: image, box: [0mm, 0mm, 10mm, 10mm], image: art.png}\n"
    path = write_deck(tmp_path, DECK, {"face": face, "back": BACK})
    with pytest.raises(InputError) as caught:
        check_cards(load_deck(path))
    message = str(caught.value.problems[0])
    assert "element 'art': image 'art.png': file not found" in message
    assert "put a PNG, JPG or SVG at" in message


def test_missing_file_and_unknown_deck_name(tmp_path):
    runner = CliRunner()
    result = runner.invoke(main, ["validate", str(tmp_path / "nope.yaml")])
    assert result.exit_code == 2 and "nope.yaml: file not found" in result.output
    result = runner.invoke(main, ["validate", "blof"])
    assert result.exit_code == 2 and "did you mean 'blofa'?" in result.output


def test_a_field_read_through_a_style_must_exist(tmp_path):
    face = 'styles:\n  ink: {fill: "{nope}"}\nelements:\n' \
           '  - {name: bg, kind: rect, box: card, style: ink}\n'
    path = write_deck(tmp_path, DECK, {"face": face, "back": BACK})
    with pytest.raises(InputError) as caught:
        load_deck(path)
    (message,) = [str(p) for p in caught.value.problems]
    assert message.startswith(f"{tmp_path}/layouts/face.yaml:4:5: element 'bg' of layout "
                              "'face' reads '{nope}'")
