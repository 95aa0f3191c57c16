"""Fuzzing: every bundled deck and layout, mutated at random (keys deleted, values swapped
for other types, huge, non-finite, deeply nested or odd ones), must still end with exit 0
or with exit 2 and a message: never an internal error (exit 1), never a crash.

``make test`` runs forty examples; ``make fuzz`` a few thousand
(CARDKIT_FUZZ_EXAMPLES sets the number). Runs are in-process, so they are fast.
"""

from __future__ import annotations

import copy
import math
import os
import shutil
import time
from functools import lru_cache
from pathlib import Path

import yaml
from click.testing import CliRunner
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st

from cardkit.cli import main
from cardkit.deck.loader import load_deck
from cardkit.sources.bundled import LAYOUTS_DIR, bundled_decks
from cardkit.sources.files import ROOT

EXAMPLES = int(os.environ.get("CARDKIT_FUZZ_EXAMPLES", "12"))
DECKS = {**bundled_decks(), "lantern-market": ROOT / "examples" / "lantern-market" / "deck.yaml"}


def _deep(depth: int):
    value = "x"
    for _ in range(depth):
        value = [value]
    return value


ODD_VALUES = st.one_of(
    st.sampled_from([
        None, True, False, 0, -1, 1, 10 ** 400, -10 ** 30, math.inf, -math.inf, math.nan,
        1e308, "", " ", "x" * 5000, "{", "}", "{nope}", "{{", "**", "*", "../../etc/passwd",
        "/etc/passwd", "/dev/zero", "%", "-5mm", "1e308mm", "0mm", "0.01mm", "200%", "²",
        "\u202e", "\x00", "card", "#zzzzzz", "#fff", "red", "nan", ".inf", "9" * 400 + "mm",
        [], {}, [[]], {"a": {}}, ["a", 1, None]]),
    st.integers(), st.floats(), st.text(max_size=40),
    st.integers(90, 140).map(_deep),
)


@lru_cache(maxsize=None)
def _layouts_of(deck: Path) -> tuple[Path, ...]:
    """The layout files a deck draws with, the layouts they extend included."""
    loaded = load_deck(deck)
    found = {c.front.path for c in loaded.cards} | {c.back.layout.path for c in loaded.cards}
    todo = list(found)
    while todo:
        parent = yaml.safe_load(todo.pop().read_text(encoding="utf-8")).get("extends")
        for folder in (deck.parent / "layouts", LAYOUTS_DIR):
            path = folder / f"{parent}.yaml"
            if parent and path.is_file() and path not in found:
                found.add(path)
                todo.append(path)
                break
    return tuple(sorted(found))


@lru_cache(maxsize=None)
def _targets() -> tuple[tuple[str, Path, Path], ...]:
    """(deck name, deck file, file to mutate): every deck file and every layout it draws
    with. Found when the test first runs, not at import: loading every bundled deck took
    about a second of CPU in each of the suite's workers, also those that never run it."""
    return tuple([(name, deck, deck) for name, deck in DECKS.items()] +
                 [(name, deck, layout) for name, deck in DECKS.items()
                  for layout in _layouts_of(deck)])


def _slots(tree) -> list:
    """Every (path, container, key) in a YAML tree: where a mutation can land."""
    found = []

    def walk(node, path):
        items = node.items() if isinstance(node, dict) else \
            enumerate(node) if isinstance(node, list) else ()
        for key, value in list(items):
            found.append((f"{path}/{key}", node, key))
            walk(value, f"{path}/{key}")

    walk(tree, "")
    return found


def _mutate(data, tree) -> None:
    """One random change to ``tree``, in place."""
    slots = _slots(tree)
    if not slots:
        return
    path, container, key = slots[data.draw(st.integers(0, len(slots) - 1), label="slot")]
    how = data.draw(st.sampled_from(["delete", "replace", "wrap", "text", "add", "repeat"]),
                    label=f"how to change {path}")
    value = container[key]
    if how == "delete":
        del container[key]
    elif how == "replace":
        container[key] = data.draw(ODD_VALUES, label="value")
    elif how == "wrap":
        container[key] = data.draw(st.sampled_from([[value], {"x": value}]), label="wrapped")
    elif how == "text":
        container[key] = str(value)
    elif how == "add" and isinstance(container, dict):
        name = data.draw(st.sampled_from(["surprise", "count", "extends", "layout", "box",
                                          "image", "font", "size", "cards", "from"]),
                         label="key")
        container[name] = data.draw(ODD_VALUES, label="added")
    elif how == "repeat" and isinstance(container, list):
        container.extend([value] * data.draw(st.integers(1, 40), label="copies"))


@settings(max_examples=EXAMPLES, deadline=None, derandomize="CI" in os.environ,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_a_mutated_bundled_deck_exits_0_or_2(tmp_path_factory, data):
    targets = _targets()
    name, deck, target = targets[data.draw(st.integers(0, len(targets) - 1), label="target")]
    note(f"mutating {target}")
    work = tmp_path_factory.getbasetemp() / "fuzz" / name
    if not work.exists():
        shutil.copytree(deck.parent, work)
    tree = yaml.safe_load(target.read_text(encoding="utf-8"))
    mutated = copy.deepcopy(tree)
    for _ in range(data.draw(st.integers(1, 3), label="changes")):
        _mutate(data, mutated)
    written = work / target.relative_to(deck.parent) if target.is_relative_to(deck.parent) \
        else work / "layouts" / target.name  # overrides the bundled layout of that name
    original = written.read_bytes() if written.exists() else None
    written.parent.mkdir(exist_ok=True)
    written.write_text(yaml.safe_dump(mutated, allow_unicode=True, width=10 ** 6),
                       encoding="utf-8")
    try:
        started = time.process_time()  # CPU time: a busy machine does not fail it
        checked = CliRunner().invoke(main, ["validate", str(work / "deck.yaml")])
        built = CliRunner().invoke(main, ["build", str(work / "deck.yaml"), "--out",
                                          str(work.parent / "out")])
        assert time.process_time() - started < 10
    finally:
        if original is None:
            written.unlink()
        else:
            written.write_bytes(original)
    for outcome in (checked, built):
        assert outcome.exit_code in (0, 2), outcome.output
        assert "internal error" not in outcome.output
        if outcome.exit_code == 2:
            assert outcome.output.strip(), "exit 2 without a message"
    assert built.exit_code == checked.exit_code, \
        f"validate said {checked.exit_code}, build {built.exit_code}: {built.output}"
