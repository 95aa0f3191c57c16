"""The JSON Schemas editors read for deck and layout files: they are valid, every bundled
file passes, their keys are the loaders' keys, and a mistake the loader refuses is marked
while an unusual file the loader accepts passes."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml
from jsonschema import Draft202012Validator

from cardkit.assets.icons import SHADINGS
from cardkit.common.errors import InputError
from cardkit.common.units import parse_length
from cardkit.deck.layout import LAYOUT_KEYS, LAYOUT_NAME, STRUCTURE
from cardkit.deck.card_reader import CARD_KEYS, FIELD_TYPES, GROUP_KEYS, SHEET_KEYS
from cardkit.deck.loader import DECK_KEYS, NAME, load_deck
from cardkit.deck.model import SIZE_PRESETS_MM
from cardkit.deck.properties import KINDS, PARSERS, REQUIRED, STYLE_KEYS
from cardkit.deck.schema import (CHOICES, DECK_KEY_HELP, ENTRY_KEY_HELP, LAYOUT_KEY_HELP,
                                 PROPERTY_HELP, deck_schema, layout_schema)
from cardkit.pipeline.build import check_cards
from cardkit.sources.checks import parse_colour
from conftest import write_deck
from test_bad_input import BACK, FACE

ROOT = Path(__file__).resolve().parent.parent
DECK, LAYOUT = deck_schema(), layout_schema()
ELEMENT = LAYOUT["$defs"]["element"]
DECK_FILES = sorted(ROOT.glob("decks/*/deck.yaml")) + sorted(ROOT.glob("examples/*/deck.yaml"))
LAYOUT_FILES = sorted(ROOT.glob("layouts/*.yaml")) + \
    sorted(ROOT.glob("examples/*/layouts/*.yaml"))


def schema_errors(schema: dict, data) -> list[str]:
    """What the schema finds wrong with ``data``, as 'path: message' lines."""
    return [f"{'/'.join(map(str, e.absolute_path))}: {e.message}"
            for e in Draft202012Validator(schema).iter_errors(data)]


def test_the_schemas_are_valid_json_schema_and_json():
    for schema in (DECK, LAYOUT):
        Draft202012Validator.check_schema(schema)
        assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
        assert schema["title"] and schema["description"]
        assert json.loads(json.dumps(schema)) == schema


@pytest.mark.parametrize("path", DECK_FILES + LAYOUT_FILES,
                         ids=lambda path: str(path.relative_to(ROOT)))
def test_every_bundled_file_passes(path):
    schema = DECK if path.name == "deck.yaml" else LAYOUT
    assert schema_errors(schema, yaml.safe_load(path.read_text(encoding="utf-8"))) == []


def test_the_deck_keys_are_the_loaders():
    assert list(DECK["properties"]) == list(DECK_KEYS) == list(DECK_KEY_HELP)
    entry = DECK["$defs"]["entry"]["properties"]
    assert set(entry) == set(CARD_KEYS + GROUP_KEYS + SHEET_KEYS) == set(ENTRY_KEY_HELP)
    field_type, _ = DECK["properties"]["fields"]["additionalProperties"]["anyOf"]
    assert field_type["enum"] == list(FIELD_TYPES)
    preset, _ = DECK["properties"]["size"]["anyOf"]
    assert preset["enum"] == list(SIZE_PRESETS_MM)


def test_the_layout_keys_are_the_loaders():
    assert list(LAYOUT["properties"]) == list(LAYOUT_KEYS) == list(LAYOUT_KEY_HELP)
    assert set(ELEMENT["properties"]) == set(STRUCTURE) | set(STYLE_KEYS) == set(PROPERTY_HELP)
    assert ELEMENT["properties"]["kind"]["enum"] == list(KINDS)
    style = LAYOUT["properties"]["styles"]["additionalProperties"]
    assert set(style["properties"]) == set(STYLE_KEYS)
    rules = {rule["if"]["properties"]["kind"]["const"]: rule["then"] for rule in ELEMENT["allOf"]}
    assert set(rules) == set(KINDS)
    for kind, then in rules.items():
        assert set(then["propertyNames"]["enum"]) == {*STRUCTURE, *KINDS[kind], "show"}
        assert set(then["required"]) == {*REQUIRED.get(kind, ()),
                                         *({"points"} if kind == "polygon" else set())}


def test_every_key_has_a_description():
    entry = DECK["$defs"]["entry"]["properties"]
    for properties in (DECK["properties"], entry, LAYOUT["properties"], ELEMENT["properties"]):
        assert all(len(p["description"]) > 15 for p in properties.values())


@pytest.mark.parametrize("key", [*CHOICES, "shading"])
def test_fixed_choices_are_the_loaders(key):
    with pytest.raises(ValueError) as refused:
        PARSERS[key]("zzzz")
    listed = re.search(r"use one of: (.*)", str(refused.value)).group(1).split(", ")
    choices, _ = ELEMENT["properties"][key]["anyOf"]
    assert sorted(choices["enum"]) == sorted(listed)
    assert key != "shading" or choices["enum"] == list(SHADINGS)


# (schema of the value, the loader's check, values; exact: the schema refuses all the loader
# refuses, not only the ones a pattern can tell)
PATTERNS = [
    ("length", parse_length, ["3mm", " 2.5 cm ", ".5in", "-1pt", "12", "3px", "50%", "mm"],
     True),
    ("boxLength", lambda v: parse_length(v, percent_of=1.0),
     ["3mm", "-2mm", "50%", "12.5 %", "50", "%", "1e3mm"], True),
    ("colour", parse_colour, ["#1f5fa8", "#FFF", "#ffffff80", "#fffa", " navy ", "Navy",
                              "none", "#ffffffz0", "#12345", "red!", ""], False),
    ("name", lambda v: bool(NAME.match(str(v))),
     ["tiny", "my-deck_2", "0", 2048, "My Deck", "-deck", "deck.v2", "a" * 65], True),
    ("layout", lambda v: bool(LAYOUT_NAME.match(v)),
     ["face", "cards/big.front", "blófa-front", "../face", "/face", "a//b", "face{x}"], True),
    ("anchor", PARSERS["anchor"], ["top", "Bottom  Right", "centre", "50% 20%", "-10%",
                                   "middle", "top 50%", "top left right", ""], True),
    ("opacity", PARSERS["opacity"], [0, 0.7, 1, "70%", "100%", "0.5", 1.5, "101%"], True),
    ("size", PARSERS["size"], ["9pt", "3mm", "12", 12, "-2pt", "0pt"], False),
]


def _value_schema(which: str) -> dict:
    """The schema of one value, with the $defs it refers to."""
    places = {"name": (DECK, DECK["properties"]["name"]),
              "layout": (DECK, DECK["properties"]["backs"]["additionalProperties"]
                         ["properties"]["layout"])}
    schema, value = places.get(which, (LAYOUT, ELEMENT["properties"].get(which)))
    return {"$defs": schema["$defs"], **(value or {"$ref": f"#/$defs/{which}"})}


@pytest.mark.parametrize("which,check,values,exact", PATTERNS, ids=[p[0] for p in PATTERNS])
def test_patterns_pass_what_the_loader_accepts(which, check, values, exact):
    validator = Draft202012Validator(_value_schema(which))
    for value in values:
        try:
            accepted = check(value) is not False
        except ValueError:
            accepted = False
        if accepted or exact:
            assert validator.is_valid(value) == accepted, value


BASE = {
    "deck": """\
name: tiny
title: Tiny
size: poker
front: face
backs:
  blue: {layout: back, colour: "#1f5fa8"}
  red: {layout: back, colour: "#c03030"}
back: blue
fields:
  value: integer
  text: {type: text, default: ""}
cards:
  - {value: 1, count: 2}
  - {value: 2, back: red}
""",
    "face": FACE,
    "back": BACK,
}


def _write(tmp_path, changes) -> tuple[Path, dict]:
    """The base deck with ``changes`` ((file, old text, new text), ...) made, written to
    ``tmp_path``: the deck's path and each file's data as the schemas see it."""
    texts = dict(BASE)
    for which, old, new in changes:
        assert old in texts[which], f"{old!r} is not in the base {which}"
        texts[which] = texts[which].replace(old, new, 1)
    path = write_deck(tmp_path, texts["deck"], {"face": texts["face"], "back": texts["back"]})
    return path, {which: yaml.safe_load(text) for which, text in texts.items()}


def _errors(data: dict) -> dict:
    return {which: schema_errors(DECK if which == "deck" else LAYOUT, value)
            for which, value in data.items()}


TEXT = "size: 12pt"
MISTAKES = [  # (what, file, old, new)
    ("unknown deck key", "deck", "title: Tiny", "titel: Tiny"),
    ("unknown field type", "deck", "value: integer", "value: integr"),
    ("deck name not simple", "deck", "name: tiny", "name: Tiny Deck"),
    ("unknown size", "deck", "size: poker", "size: pokr"),
    ("size without a unit", "deck", "size: poker", "size: {width: 63.5, height: 88mm}"),
    ("count zero", "deck", "count: 2", "count: 0"),
    ("a reserved field name", "deck", "  value: integer\n", "  value: integer\n  count: text\n"),
    ("default of the wrong type", "deck", 'text: {type: text, default: ""}',
     "text: {type: integer, default: none}"),
    ("back without a layout", "deck", 'red: {layout: back, colour: "#c03030"}', "red: {}"),
    ("group of two kinds", "deck", "{value: 2, back: red}",
     "{value: 2, back: red, from: cards.csv, cards: []}"),
    ("layout name as a path", "deck", "front: face", "front: ../face"),
    ("misspelt text property", "face", TEXT, "fnot: Lato"),
    ("align middle", "face", TEXT, TEXT + "\n    align: middle"),
    ("a rect's property on text", "face", TEXT, TEXT + "\n    fill: red"),
    ("font size without a unit", "face", TEXT, "size: 12"),
    ("rotate 45", "face", TEXT, TEXT + "\n    rotate: 45"),
    ("text without text", "face", '    text: "{value}"\n', ""),
    ("box without a unit", "face", "[5mm, 5mm, 20mm, 10mm]", "[5mm, 5, 20mm, 10mm]"),
    ("negative box width", "face", "[5mm, 5mm, 20mm, 10mm]", "[5mm, 5mm, -20mm, 10mm]"),
    ("unknown style key", "face", "elements:", "styles:\n  big: {colur: red}\nelements:"),
    ("unknown layout key", "face", "elements:", "safty: 2mm\nelements:"),
    ("opacity above 1", "face", "fill: white", "fill: white\n    opacity: 1.5"),
    ("bad colour", "face", "fill: white", "fill: '#ffffffz0'"),
    ("polygon without points", "back", "kind: rect", "kind: polygon"),
]


@pytest.mark.parametrize("what,which,old,new", MISTAKES, ids=[m[0] for m in MISTAKES])
def test_a_mistake_is_marked_and_refused(tmp_path, what, which, old, new):
    path, data = _write(tmp_path, [(which, old, new)])
    errors = _errors(data)
    assert errors[which], f"the schema passes {what}"
    assert not any(errors[other] for other in errors if other != which), errors
    with pytest.raises(InputError):
        load_deck(path)


UNUSUAL = [  # (what, changes)
    ("font size from a field", [("deck", "  value: integer\n",
                                 "  value: integer\n  big: {type: text, default: 14pt}\n"),
                                ("face", TEXT, 'size: "{big}"')]),
    ("choices from fields", [("deck", "  value: integer\n",
                              "  value: integer\n  side: {type: text, default: left}\n"),
                             ("face", TEXT, TEXT + '\n    align: "{side}"\n    rotate: 180')]),
    ("opacity as a percentage, shown by a field", [
        ("face", "fill: white", 'fill: "#FFFFFF80"\n    opacity: 70%\n    show: "{value}"')]),
    ("box as a mapping in %", [("face", "box: card", "box: {x: 0%, y: -5%, width: 100%, "
                                                     "height: 110%}\n    bleed: yes")]),
    ("front from a field", [("deck", "front: face", 'front: "{look}"'),
                            ("deck", "  value: integer\n", "  value: integer\n  look: text\n"),
                            ("deck", "count: 2}", "count: 2, look: face}"),
                            ("deck", "back: red}", "back: red, look: face}")]),
    ("numbers as text", [("deck", "name: tiny\ntitle: Tiny", "name: 2048\ntitle: 1.0"),
                         ("face", "name: bg", "name: 7")]),
    ("custom size, flag default no", [
        ("deck", "size: poker", "size: {width: 70mm, height: 7cm}"),
        ("deck", "  value: integer\n", "  value: integer\n  rare: {type: flag, default: no}\n")]),
    ("a field named sheet, no from", [("deck", "  value: integer\n",
                                       "  value: integer\n  sheet: {type: text, default: a}\n"),
                                      ("deck", "{value: 1, count: 2}",
                                       "{value: 1, count: 2, sheet: b}")]),
    ("one group instead of a list", [("deck", "cards:\n  - {value: 1, count: 2}\n  - "
                                      "{value: 2, back: red}\n",
                                      "cards: {value: 3, product: {back: [blue, red]}}\n")]),
    ("extending layout changes elements by name", [
        ("back", "elements:", "extends: face\nelements:\n  - {name: value, show: false}"),
        ("back", "kind: rect, box: card, ", "")]),
    ("polygon and style from a field", [("back", "kind: rect", "kind: polygon, points: "
                                         "[[50%, 0%], [100%, 100%], [0mm, 100%]], "
                                         'style: "{back}"'),
                                        ("back", "elements:", "styles:\n  blue: {opacity: 1}\n"
                                         "  red: {stroke: navy}\nelements:")]),
]


@pytest.mark.parametrize("what,changes", UNUSUAL, ids=[u[0] for u in UNUSUAL])
def test_an_unusual_file_the_loader_accepts_passes(tmp_path, what, changes):
    path, data = _write(tmp_path, changes)
    check_cards(load_deck(path))
    assert _errors(data) == {"deck": [], "face": [], "back": []}
