"""Property tests: whatever YAML a designer writes, cardkit gives a deck or a clean error
naming a place in the file, never a traceback."""

from __future__ import annotations

import yaml
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from cardkit.common.errors import InputError
from cardkit.common.errors import Where
from cardkit.deck.loader import load_deck
from cardkit.pipeline.build import check_cards
from cardkit.sources.yamlfile import merged, parse_yaml
from conftest import write_deck
from test_bad_input import BACK, DECK, FACE

SETTINGS = settings(max_examples=150, deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture])

scalars = st.one_of(st.none(), st.booleans(), st.integers(-10**6, 10**6),
                    st.floats(allow_nan=False, allow_infinity=False),
                    st.text(max_size=12), st.sampled_from(["poker", "blue", "red", "face",
                                                          "back", "63mm", "5%", "#fff", "{value}",
                                                          "standard", "deck.yaml", "{crow}"]))
keys = st.one_of(st.sampled_from(["name", "size", "front", "backs", "cards", "count", "value",
                                  "back", "layout", "fields", "composition", "text", "total",
                                  "product", "variants", "extends", "drop"]),
                 st.text(max_size=8))
documents = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(keys, inner, max_size=5)), max_leaves=25)


def load_or_error(path):
    """The deck (with every card resolved), or the InputError; anything else fails the test."""
    try:
        deck = load_deck(path)
        check_cards(deck)
        return deck
    except InputError as error:
        assert error.problems
        for problem in error.problems:  # each names a file of this deck, and what is wrong
            assert str(problem.where.file).startswith(str(path.parent))
            assert problem.what
        return error


@SETTINGS
@given(st.text(max_size=200))
@example("<<")  # found by hypothesis: a lone merge key resolved to no constructor
def test_any_text_parses_or_gives_a_clean_error(text):
    try:
        parse_yaml(text, "deck.yaml")
    except InputError as error:
        assert all(str(p).startswith("deck.yaml") for p in error.problems)


@SETTINGS
@given(documents)
def test_any_yaml_document_gives_a_deck_or_a_clean_error(tmp_path_factory, document):
    folder = tmp_path_factory.mktemp("deck")
    path = write_deck(folder, yaml.safe_dump(document, allow_unicode=True),
                      {"face": FACE, "back": BACK})
    load_or_error(path)


def _paths(node, prefix=()):
    """Every path to a value inside a parsed document."""
    yield prefix
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _paths(value, prefix + (key,))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _paths(value, prefix + (index,))


def _changed(text: str, path: tuple, replacement) -> str:
    """The YAML ``text`` with the value at ``path`` replaced (or deleted)."""
    document = yaml.safe_load(text)
    parent = document
    for step in path[:-1]:
        parent = parent[step]
    if replacement == "<delete>":
        del parent[path[-1]]
    else:
        parent[path[-1]] = replacement
    return yaml.safe_dump(document, allow_unicode=True)


DECK_PATHS = [p for p in _paths(yaml.safe_load(DECK)) if p]
LAYOUT_PATHS = [p for p in _paths(yaml.safe_load(FACE)) if p]
changes = st.one_of(documents, st.just("<delete>"))


@SETTINGS
@given(st.sampled_from(DECK_PATHS), changes)
def test_a_valid_deck_with_any_one_value_changed_still_loads_or_explains(
        tmp_path_factory, path, replacement):
    folder = tmp_path_factory.mktemp("deck")
    result = load_or_error(write_deck(folder, _changed(DECK, path, replacement),
                                      {"face": FACE, "back": BACK}))
    if not isinstance(result, InputError):
        assert result.total() >= 1
        assert all(card.count >= 1 for card in result.cards)


@SETTINGS
@given(st.sampled_from(LAYOUT_PATHS), changes)
def test_a_layout_with_any_one_value_changed_still_loads_or_explains(
        tmp_path_factory, path, replacement):
    folder = tmp_path_factory.mktemp("deck")
    load_or_error(write_deck(folder, DECK, {"face": _changed(FACE, path, replacement),
                                            "back": BACK}))


def _entries(built, node):
    """(built map, key node, value node) for every mapping entry, walking the built value
    and PyYAML's node tree side by side."""
    if isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            yield built, key, value
            yield from _entries(built[key.value], value)
    elif isinstance(node, yaml.SequenceNode):
        for item, child in zip(built, node.value):
            yield from _entries(item, child)


@SETTINGS
@given(documents, st.booleans())
@example({"\x85": None}, False)  # NEL, a line break to YAML: a quoted key over two lines
@example("\x85{", False)  # a quoted text over two lines, the second line '{': no open quote
@example("\x1f" * 40 + "{", True)  # folded by yaml.dump with an escaped line break
@example({"\n{": None}, False)  # a quoted key whose second line is '{': no open quote
def test_every_entry_knows_where_its_key_and_value_are_written(document, flow):
    """Positions packed in a Map read back as PyYAML's own composer marks them (the
    oracle: yaml.compose, which cardkit's loader does not use)."""
    text = yaml.safe_dump({"top": document}, default_flow_style=flow, allow_unicode=True)
    entries = list(_entries(parse_yaml(text, "deck.yaml"), yaml.compose(text)))
    assert len(entries) >= 1
    for built, key, value in entries:
        assert str(built.key_at(key.value)) == \
            f"deck.yaml:{key.start_mark.line + 1}:{key.start_mark.column + 1}"
        assert str(built.at(key.value)) == \
            f"deck.yaml:{value.start_mark.line + 1}:{value.start_mark.column + 1}"


def test_merged_entries_keep_their_own_files():
    base = parse_yaml("a: 1\nb: 2\n", "base.yaml")
    over = parse_yaml("\n\nb: 3\nc: 4\n", "over.yaml")
    result = merged(base, over)
    assert result == {"a": 1, "b": 3, "c": 4}
    assert [str(result.at(key)) for key in "abc"] == \
        ["base.yaml:1:4", "over.yaml:3:4", "over.yaml:4:4"]
    assert str(result.key_at("a")) == "base.yaml:1:1"
    assert str(result.at("missing")) == "over.yaml:3:1"


def test_a_position_too_far_to_pack_is_kept_whole():
    far = Where("deck.yaml", 2**26, 3)
    mapping = parse_yaml("a: 1\n", "deck.yaml")
    mapping._set_place("a", far, Where("deck.yaml", 5, 2**27))
    assert mapping.key_at("a") == far and mapping.at("a") == Where("deck.yaml", 5, 2**27)
