"""A table of broken decks and layouts, and the message each must give:
file:line:col, what is wrong, and what to write instead."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from cardkit.cli import main
from cardkit.common.errors import InputError
from cardkit.deck.loader import load_deck
from cardkit.pipeline.build import check_cards
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
     ["'whit' is not a colour", "did you mean 'white'?"]),
    ("unknown font", "face", "size: 12pt", "font: Comic", "10:11",
     ["font: no font named 'Comic'", "Lato", "the deck's fonts/ folder"]),
    ("unknown field in layout", "face", '"{value}"', '"{valeu}"', "6:5",
     ["reads '{valeu}'", "neither a field of card 1", "did you mean '{value}'?"]),
    ("extends itself", "face", "elements:", "extends: face\nelements:", "1:10",
     ["layout 'face' extends itself"]),
    ("font size without unit", "face", "size: 12pt", "size: 12", "10:11",
     ["size: '12' has no unit", "write a size with its unit, e.g. '12pt'"]),
    ("icon typo in a layout text", "face", '"{value}"', '"{value} {hart}"', "6:5",
     ["reads '{hart}', which is neither a field of card 1", "did you mean '{heart}'?",
      "literal braces are written {{ and }}"]),
    ("unknown icon", "face", "kind: rect\n    box: card",
     "kind: icon\n    icon: hart\n    box: card",
     "4:11", ["icon: no icon named 'hart'", "did you mean 'heart'?", "icons/ folder"]),
    ("colour with a bad alpha", "face", "fill: white", "fill: '#ffffffz0'", "5:11",
     ["'#ffffffz0' is not a colour", "'#rrggbbaa'"]),
    ("bad anchor", "face", "fill: white", "fill: white\n    anchor: middle", "6:5",
     ["unknown key 'anchor' in element 'bg' (rect)"]),
    ("merge key of a list", "deck", "{value: 3, back: red}", "{<<: [1], value: 3, back: red}",
     "19:6", ["'<<' must name a mapping"]),
    ("spreadsheet missing", "deck", "  - {value: 3, back: red}", "  - {from: nope.csv}", "",
     ["nope.csv: file not found; check the path (it is relative to the deck file)"]),
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
    if position:
        assert matching[0].startswith(f"{changed}:{position}"), matching[0]
    if name != "composition":  # that case changes two counts
        assert len(messages) == 1, f"one mistake, one message: {messages}"


def test_a_bad_colour_of_a_back_is_reported_where_the_back_gives_it(tmp_path):
    deck_path, _ = _write(tmp_path, "deck", '"#c03030"', "crimsn")
    with pytest.raises(InputError) as caught:
        check_cards(load_deck(deck_path))
    assert [str(p) for p in caught.value.problems] == [
        f"{deck_path}:7:31: back 'red': 'crimsn' is not a colour, which layouts read as "
        "{back.colour} for a fill; did you mean 'crimson'?"]


def test_a_bad_value_from_a_field_names_the_card_and_element(tmp_path):
    deck_path, _ = _write(tmp_path, "deck", "text: {type: text, default: \"\"}",
                          "text: {type: text, default: \"\"}\n  ink: {type: text, default: "
                          "'#ffffff'}")
    deck_path.write_text(deck_path.read_text().replace("{value: 2}", "{value: 2, ink: blak}"))
    (tmp_path / "layouts" / "face.yaml").write_text(FACE.replace("fill: white",
                                                                 'fill: "{ink}"'))
    with pytest.raises(InputError) as caught:
        check_cards(load_deck(deck_path))
    assert [str(p) for p in caught.value.problems] == [
        f"{deck_path}:19:9: card 2 (value 2, ink blak), layout 'face', element 'bg': fill: "
        "'blak' is not a colour; did you mean 'black'? (the value comes from '{ink}')"]


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


@pytest.mark.parametrize("raw, where, what", [
    (b"name: d\ntitle: \"caf\xc3\xa9 \xe9t\xe9\"\n", "2:14", "not UTF-8 text (invalid "
     "continuation byte)"),  # Latin-1, after a UTF-8 letter: the column counts letters
    (b"name: d\n\x07: 1\n", "2:1", "character '\\x07' is not allowed in YAML"),
])
def test_a_deck_file_that_is_not_yaml_text_names_the_place(tmp_path, raw, where, what):
    path = tmp_path / "deck.yaml"
    path.write_bytes(raw)
    with pytest.raises(InputError) as caught:
        load_deck(path)
    assert [str(p) for p in caught.value.problems] == [f"{path}:{where}: {what}; " + (
        "save the file as UTF-8" if "UTF" in what else "remove it or save the file as plain "
        "text")]


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


def _problems(tmp_path, face, cards="  - {value: 1, back: blue, text: hi}", strict=False):
    deck = DECK.replace(DECK[DECK.index("cards:"):], "cards:\n" + cards + "\n")
    deck = deck.replace("composition:\n  total: 4\n  back: {blue: 3, red: 1}\n", "")
    path = write_deck(tmp_path, deck, {"face": face, "back": BACK})
    try:
        _, report = check_cards(load_deck(path), strict)
    except InputError as error:
        return [str(p) for p in error.problems]
    return [f"warning: {w}" for w in report.warnings]


TEXT_FACE = """\
elements:
  - {name: bg, kind: rect, box: card, fill: white}
  - {name: body, kind: text, box: [5mm, 20mm, 50mm, 20mm], text: "{text}", size: 10pt}
"""


def test_a_typo_in_an_icon_name_in_card_text_is_an_error_with_a_suggestion(tmp_path):
    messages = _problems(tmp_path, TEXT_FACE, '  - {value: 1, back: blue, text: "Gain {hart}"}')
    assert messages == [
        f"{tmp_path}/deck.yaml:12:5: card 1 (value 1, text Gain {{hart}}), layout 'face', "
        "element 'body': '{hart}' in the text is neither a field nor an icon; did you mean "
        "'{heart}'? (literal braces are written {{ and }})"]


def test_a_field_in_card_text_says_that_card_text_reads_icons_only(tmp_path):
    messages = _problems(tmp_path, TEXT_FACE, '  - {value: 1, back: blue, text: "Gain {value}"}')
    assert messages == [
        f"{tmp_path}/deck.yaml:12:5: card 1 (value 1, text Gain {{value}}), layout 'face', "
        "element 'body': '{value}' in the card's text: card text can show icons, but not "
        "fields such as 'value'; read the field in the layout's text instead (text: \"... "
        "{value}\"), or write literal braces as {{ and }}"]


@pytest.mark.parametrize("icon,fix", [
    ("honey", "rename the field or the icon (icons/honey.svg)"),
    ("key", "rename the field (the icon is built in)")])
def test_a_field_with_an_icon_s_name_is_a_warning_saying_which_wins(tmp_path, icon, fix):
    """In a layout {honey} is the field; in card text it is the icon. Say so."""
    (tmp_path / "icons").mkdir()
    (tmp_path / "icons" / "honey.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="9" '
        'height="9"/></svg>')
    _problems(tmp_path, TEXT_FACE, f'  - {{value: 1, back: blue, text: "Gain {{{icon}}}", '
                                   f'{icon}: 2}}')
    deck = tmp_path / "deck.yaml"
    deck.write_text(deck.read_text().replace("fields:\n", f"fields:\n  {icon}: integer\n"))
    _, report = check_cards(load_deck(deck))
    assert [str(w).split("layout ", 1)[1] for w in report.warnings] == [
        f"'face', element 'body': '{{{icon}}}' is both a field and an icon: card text draws "
        f"the icon, a layout's text shows the field; {fix} so that '{{{icon}}}' means one "
        "thing"]


def test_literal_braces_and_icons_in_card_text_are_fine(tmp_path):
    assert _problems(tmp_path, TEXT_FACE,
                     '  - {value: 1, back: blue, text: "{{hart}} {heart} {{x}}"}') == []


@pytest.mark.parametrize("element,words,in_layout", [
    ("{name: t, kind: text, box: [50mm, 40mm, 30mm, 10mm], text: EVENT, size: 20pt}",
     "element 't', on card 1 (value 1, text hi): reaches outside the card (right) and is cut "
     "off there; move or shrink its box", True),
    ("{name: t, kind: rect, box: [50mm, 40mm, 30mm, 10mm], fill: red}",
     "element 't', on card 1 (value 1, text hi): reaches outside the card (right) and is cut "
     "off there; move or shrink its box, or give it 'bleed: true' if it is meant to run off "
     "the edge", True),
    ("{name: t, kind: text, box: [1mm, 40mm, 30mm, 10mm], text: EVENT, align: left}",
     "element 't', on card 1 (value 1, text hi): text lies within 3 mm of the trim, where "
     "cutting may clip it; move its box inside the safe area (see it with --guides)", True),
    ("{name: t, kind: icon, icon: star, box: [20mm, 1mm, 10mm, 10mm]}",
     "element 't', on card 1 (value 1, text hi): the icon lies within 3 mm of the trim, where "
     "cutting may clip it; move its box inside the safe area (see it with --guides)", True),
    ("{name: t, kind: rect, box: [-5mm, 0mm, 30mm, 10mm], bleed: true, fill: red}",
     "element 't', on card 1 (value 1, text hi): reaches outside the bleed (left) and is cut "
     "off there; move or shrink its box", True),
    ("{name: t, kind: text, box: [5mm, 40mm, 30mm, 10mm], text: x, size: 8pt, min_size: 9pt}",
     "element 't', on card 1 (value 1, text hi): min_size 9pt is larger than size 8pt; make "
     "min_size the smaller one", True),
    ("{name: t, kind: text, box: [5mm, 40mm, 50mm, 10mm], text: 'a **bold move', size: 8pt}",
     "element 't': '**' starts bold text that is not closed; add the closing '**'", False),
])
def test_layout_mistakes_are_warnings_and_errors_with_strict(tmp_path, element, words,
                                                             in_layout):
    """A mistake in the layout points at the element; one in a card's text at the card."""
    face = "elements:\n  - " + element + "\n"
    (warning,) = _problems(tmp_path, face)
    place = f"{tmp_path}/layouts/face.yaml:2:5: layout 'face', " if in_layout else \
        f"{tmp_path}/deck.yaml:12:5: card 1 (value 1, text hi), layout 'face', "
    assert warning == f"warning: {place}{words}", warning
    (error,) = _problems(tmp_path, face, strict=True)
    what, fix = words.split("; ", 1)
    assert error == f"{place}{what} (an error with --strict); {fix}"


def test_a_bleed_element_may_reach_into_an_eighth_of_an_inch_of_bleed(tmp_path):
    face = "elements:\n  - {name: t, kind: rect, box: [-3mm, -3mm, 69.5mm, 94.9mm], " \
           "bleed: true, fill: red}\n"
    assert _problems(tmp_path, face) == []


def test_an_image_under_300_dpi_says_its_resolution(tmp_path):
    from PIL import Image
    Image.new("RGB", (200, 100), (200, 0, 0)).save(tmp_path / "small.png")
    face = "elements:\n  - {name: art, kind: image, image: small.png, " \
           "box: [10mm, 10mm, 40mm, 20mm]}\n"
    (warning,) = _problems(tmp_path, face)
    assert "element 'art': image 'small.png' prints at 127 dpi (its 200 x 100 px over " \
           "40.0 x 20.0 mm), under the 300 dpi print needs; use an image of at least " \
           "472 x 236 px, or SVG" in warning
    Image.new("RGB", (480, 240), (200, 0, 0)).save(tmp_path / "small.png")
    (tmp_path / "cardkit-project.txt").touch()  # lets the deck in again/ read ../
    assert _problems(tmp_path / "again", face.replace("small.png", "../small.png")) == []


def test_a_wrong_field_type_is_one_message_not_one_per_card(tmp_path):
    deck = DECK.replace("value: integer", "value: interger")
    with pytest.raises(InputError) as caught:
        load_deck(write_deck(tmp_path, deck, {"face": FACE, "back": BACK}))
    messages = [str(p) for p in caught.value.problems]
    assert messages == [f"{tmp_path}/deck.yaml:9:10: field 'value' has unknown type "
                        "'interger'; did you mean 'integer'?"]


def test_a_typo_in_a_group_default_is_one_message_with_a_count(tmp_path):
    deck = DECK.replace("  - back: blue\n", "  - back: bleu\n")
    with pytest.raises(InputError) as caught:
        load_deck(write_deck(tmp_path, deck, {"face": FACE, "back": BACK}))
    assert [str(p) for p in caught.value.problems] == [
        f"{tmp_path}/deck.yaml:15:11: no back design named 'bleu' (and 1 more card); "
        "did you mean 'blue'?"]


def test_shading_is_for_built_in_icons_only(tmp_path):
    (tmp_path / "icons").mkdir()
    (tmp_path / "icons" / "dot.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><circle cx="5" cy="5" '
        'r="4"/></svg>')
    face = "elements:\n  - {name: d, kind: icon, icon: dot, shading: striped, " \
           "box: [10mm, 10mm, 10mm, 10mm]}\n"
    (error,) = _problems(tmp_path, face)
    assert "element 'd': shading 'striped' works on the built-in icons only; draw the " \
           "shading into the SVG, or use 'shading: solid'" in error


def test_fill_on_an_icon_of_several_colours_is_a_hint(tmp_path):
    """A two-colour SVG keeps its own colours, as it should; the 'fill' the layout gives
    it did nothing, without a word (issue 58). A one-colour icon takes the fill."""
    (tmp_path / "icons").mkdir()
    (tmp_path / "icons" / "flag.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="10" '
        'height="5" fill="#c00000"/><rect y="5" width="10" height="5" fill="#0000c0"/></svg>')
    (tmp_path / "icons" / "dot.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><circle cx="5" cy="5" '
        'r="4"/></svg>')
    face = "elements:\n  - {name: f, kind: icon, icon: flag, fill: '#00aa00', " \
           "box: [10mm, 10mm, 10mm, 10mm]}\n  - {name: d, kind: icon, icon: dot, " \
           "fill: '#00aa00', box: [30mm, 10mm, 10mm, 10mm]}\n  - {name: g, kind: icon, " \
           "icon: flag, box: [10mm, 30mm, 10mm, 10mm]}\n"
    (warning,) = _problems(tmp_path, face)
    assert warning.startswith(f"warning: {tmp_path}/layouts/face.yaml:2:5: layout 'face', "
                              "element 'f', on card 1")
    assert warning.endswith("icon 'flag' is drawn in its own colours (its SVG "
                            "has more than one), so 'fill' does not colour it; draw the icon "
                            "in one colour for 'fill' to colour it, or leave 'fill' out to "
                            "keep its colours")


def test_yaml_merge_keys_share_card_values(tmp_path):
    cards = "  - &one {value: 1, back: blue, text: shared}\n  - {<<: *one, value: 2}\n" \
            "  - <<: [{value: 3, back: red}, *one]\n"
    deck = DECK.replace(DECK[DECK.index("cards:"):], "cards:\n" + cards)
    deck = deck.replace("composition:\n  total: 4\n  back: {blue: 3, red: 1}\n", "")
    loaded = load_deck(write_deck(tmp_path, deck, {"face": FACE, "back": BACK}))
    assert [(c.fields["value"], c.back.name, c.fields["text"]) for c in loaded.cards] == \
        [(1, "blue", "shared"), (2, "blue", "shared"), (3, "red", "shared")]


def test_units_on_the_command_line(tmp_path):
    path = write_deck(tmp_path, DECK, {"face": FACE, "back": BACK})
    runner = CliRunner()
    result = runner.invoke(main, ["build", str(path), "--bleed", "0.125in", "--out",
                                  str(tmp_path / "o")])
    assert result.exit_code == 0 and "bleed3.175mm" in result.output
    for bad in ("nan", "3cm", "-1"):
        result = runner.invoke(main, ["build", str(path), "--bleed", bad])
        assert result.exit_code == 2 and "Invalid value for '--bleed'" in result.output


def test_a_back_shared_by_cards_reports_each_card_that_has_it(tmp_path):
    """A back that reads only its design's fields is resolved once for all the cards with
    it; what is wrong with it still counts every such card (2 distinct blue, 1 red)."""
    back = BACK + '  - {name: word, kind: text, box: [5mm, 5mm, 10mm, 3mm], size: 12pt,\n' \
                  '     text: "a back text far too long for its box"}\n'
    path = write_deck(tmp_path, DECK, {"face": FACE, "back": back})
    _, report = check_cards(load_deck(path))
    found = sorted(str(w) for w in report.warnings)
    assert len(found) == 2 and "does not fit its box" in found[0] and "cut off" in found[1]
    assert all("card 1 (value 1)" in w and "(and 2 more cards)" in w for w in found)


def test_a_back_that_reads_a_card_field_is_drawn_for_each_card(tmp_path):
    back = BACK + '  - {name: word, kind: text, box: [5mm, 5mm, 40mm, 10mm], text: "{value}"}\n'
    path = write_deck(tmp_path, DECK, {"face": FACE, "back": back})
    renderer, _ = check_cards(load_deck(path))
    deck = load_deck(path)
    texts = [renderer.resolve(card, "back")[1].props["text"] for card in deck.cards]
    assert texts == ["1", "2", "3"]


# -- wording (issue 24, item 12) ----------------------------------------------------------

def _extending_deck(folder, element: str):
    """Three fronts and a back, all extending one base layout with ``element``."""
    layouts = {"base": f"elements:\n  - {element}\n"}
    layouts.update({name: "extends: base\n" for name in ("a", "b", "c")})
    return write_deck(folder, """
        name: words
        size: poker
        front: a
        backs: {plain: {layout: base}}
        fields: {name: text}
        cards:
          - {name: One}
          - {name: Two, layout: b}
          - {name: Three, layout: c}
        """.replace("\n        ", "\n"), layouts)


def test_a_mistake_in_a_base_layout_counts_the_layouts_not_cards(tmp_path):
    deck = _extending_deck(tmp_path, '{name: t, kind: text, box: card, text: "{name}", '
                                     'font: Nofont}')
    result = CliRunner().invoke(main, ["validate", str(deck)])
    assert result.exit_code == 2
    assert "no font named 'Nofont' (and 3 more layouts)" in result.output


def test_a_card_is_named_without_doubled_parentheses(tmp_path):
    deck = _extending_deck(tmp_path, '{name: t, kind: text, box: card, text: "{nmae}"}')
    result = CliRunner().invoke(main, ["validate", str(deck)])
    assert "reads '{nmae}', which is neither a field of card 1 (name One) nor an icon" \
        in result.output
    assert "))" not in result.output


def test_one_card_is_one_card(tmp_path):
    deck = _extending_deck(tmp_path, '{name: t, kind: text, box: card, text: "{name}"}')
    deck.write_text(deck.read_text().replace("  - {name: Two, layout: b}\n", "")
                    .replace("  - {name: Three, layout: c}\n", ""))
    result = CliRunner().invoke(main, ["validate", str(deck)])
    assert result.output == "words: 1 card, 1 distinct, OK\n"


def test_a_deck_given_as_dot_is_named_by_its_folder(tmp_path, monkeypatch):
    deck = _extending_deck(tmp_path, '{name: t, kind: text, box: card, text: "{nmae}"}')
    monkeypatch.chdir(deck.parent)
    result = CliRunner().invoke(main, ["validate", "."])
    assert result.output.endswith(f"cardkit: 1 problem in {deck.parent}\n")


def test_a_chosen_card_in_a_one_card_pdf_says_cards_once(tmp_path):
    from cardkit.sources.bundled import find_deck

    result = CliRunner().invoke(main, ["export", str(find_deck("blofa")), "--for",
                                       "drivethru", "--cards", "3", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert [p.name for p in (tmp_path / "blofa").iterdir()] == ["blofa-cards3-drivethru.pdf"]


# -- every independent mistake in one run (issue 24, item 8) ------------------------------

SEVEN_DECK = """\
name: seven
size: poker
front: face
backs: {plain: {layout: art-back}}
fields: {name: text, cost: integer, text: {type: text, default: ""}}
composition: {total: 3}
cards:
  from: cards.csv
"""
SEVEN_CARDS = """\
name,cost,count,text,colour
Bee,2,1,Gain {hony}.,red
Wasp,two,1,Sting.,blue
Ant,1,3.5,March.,green
Moth,1,1,"This text is much too long for its little box, far too long, ever so long.",x
"""
SEVEN_LAYOUTS = {
    "face": """\
elements:
  - {name: title, kind: text, box: [5mm, 5mm, 50mm, 10mm], text: "{name} {be}"}
  - {name: cost, kind: text, box: [5mm, 20mm, 50mm, 8mm], text: "{cost}", font: Nofont}
  - {name: body, kind: text, box: [5mm, 30mm, 20mm, 5mm], text: "{text}", min_size: 9pt}
""",
    "art-back": "elements:\n  - {name: art, kind: image, box: card, image: missing.png}\n",
}


def test_seven_independent_mistakes_are_reported_in_one_run_each_once(tmp_path):
    """The audit's deck: an unknown column, a word in an integer column, 3.5 as a count,
    a missing font, {be} in a layout, {hony} in a cell, text that overflows, and a missing
    art file took four runs. A problem stops only what depends on it: the broken rows are
    not checked further and the deck's composition is not counted without them."""
    deck = write_deck(tmp_path, SEVEN_DECK, SEVEN_LAYOUTS)
    (tmp_path / "cards.csv").write_text(SEVEN_CARDS)
    result = CliRunner().invoke(main, ["validate", str(deck)])
    assert result.exit_code == 2
    lines = result.output.replace(f"{tmp_path}/", "").splitlines()
    expected = [
        ("warning: cards.csv:5:", "element 'body': text does not fit its box"),
        ("cards.csv:1:", "unknown column 'colour'"),
        ("layouts/face.yaml:3:", "font: no font named 'Nofont'"),
        ("layouts/face.yaml:2:", "reads '{be}', which is neither a field"),
        ("cards.csv:3:", "column 'cost': 'two' is not a whole number"),
        ("cards.csv:4:", "column 'count': '3.5' is not a whole number"),
        ("cards.csv:2:", "'{hony}' in the text is neither a field nor an icon"),
        ("cards.csv:2:", "image 'missing.png': file not found (and 1 more card)"),
    ]
    for start, words in expected:
        found = [line for line in lines if start in line and words in line]
        assert len(found) == 1, (start, words, lines)
    assert lines[-1] == "cardkit: 7 problems in deck.yaml"
    assert len(lines) == 9


def test_build_reports_the_same_problems_as_validate(tmp_path):
    deck = write_deck(tmp_path, SEVEN_DECK, SEVEN_LAYOUTS)
    (tmp_path / "cards.csv").write_text(SEVEN_CARDS)
    checked = CliRunner().invoke(main, ["validate", str(deck)])
    built = CliRunner().invoke(main, ["build", str(deck), "--out", str(tmp_path / "out")])
    assert built.exit_code == 2
    assert built.output.splitlines()[:-1] == checked.output.splitlines()[:-1]
    assert not (tmp_path / "out").exists()
