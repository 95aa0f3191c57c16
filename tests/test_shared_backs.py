"""Backs that print the same are one back (issue 58): fronts coloured by kind with the
layout's styles (``style: "{kind}"``) and one back, or two back designs that print alike,
are counted, exported and listed as one back, as players see them."""

from __future__ import annotations

import json
import re

import pypdf
from click.testing import CliRunner

from cardkit.cli import main
from conftest import write_deck

FACE = """\
styles:                     # the recipe: a style a kind, picked by the card's kind
  creature: {fill: "#2a7b44"}
  rules: {fill: "#9c3d26"}
elements:
  - {name: bg, kind: rect, box: card, bleed: true, style: "{kind}"}
  - {name: title, kind: text, box: [5mm, 5mm, 50mm, 10mm], text: "{name}", colour: white}
"""
BACK = """\
elements:
  - {name: bg, kind: rect, box: card, bleed: true, fill: "{back.colour}"}
"""


def deck(folder, rules_colour="#1f5fa8"):
    """Two back designs, 'creature' and 'rules'; they print the same unless
    ``rules_colour`` differs."""
    path = write_deck(folder, f"""\
name: shared
size: poker
front: face
backs:
  creature: {{layout: back, colour: "#1f5fa8"}}
  rules: {{layout: back, colour: "{rules_colour}"}}
fields:
  name: text
  kind: text
cards:
  - {{name: Fox, kind: creature, back: creature, count: 2}}
  - {{name: Setup, kind: rules, back: rules}}
  - {{name: Owl, kind: creature, back: creature}}
""", {"face": FACE, "back": BACK})
    (folder / "rules.md").write_text("# Shared\n\n{components}\n", encoding="utf-8")
    return path


def run(*args) -> str:
    result = CliRunner().invoke(main, [str(a) for a in args])
    assert result.exit_code == 0, result.output
    return result.output


def rulebook_lines(folder) -> list[str]:
    run("rulebook", folder, "--out", folder / "out", "--paper", "a4")
    text = pypdf.PdfReader(folder / "out/shared/shared-rules-a4.pdf").pages[0].extract_text()
    return [line.strip(" •–-") for line in text.splitlines() if "card" in line or "back" in line]


def test_the_rulebook_counts_backs_by_how_they_print(tmp_path):
    deck(tmp_path)
    # it said '3 with the creature back', '1 with the rules back' of backs alike
    assert rulebook_lines(tmp_path) == ["4 cards, poker size (63.5 × 88.9 mm)"]
    deck(tmp_path, rules_colour="#c03030")
    assert rulebook_lines(tmp_path) == ["4 cards, poker size (63.5 × 88.9 mm)",
                                        "3 with the creature back", "1 with the rules back"]


def test_tabletop_simulator_gets_one_sheet_and_one_back_for_backs_alike(tmp_path):
    deck(tmp_path)
    run("export", tmp_path, "--to", "tts", "--out", tmp_path / "out")
    folder = tmp_path / "out/shared/shared-tts"
    assert sorted(p.name for p in folder.iterdir()) == ["back-creature.png", "shared.json",
                                                        "sheet-1.png"]
    saved = json.loads((folder / "shared.json").read_text(encoding="utf-8"))
    decks = saved["ObjectStates"][0]["CustomDeck"]
    assert len(decks) == 1 and next(iter(decks.values()))["BackURL"].endswith(
        "back-creature.png")


def test_the_entry_lists_one_back_for_backs_alike(tmp_path):
    deck(tmp_path)
    run("pack", tmp_path, "--out", tmp_path / "out", "--base-url", "https://example.org/")
    text = (tmp_path / "out/shared/shared-entry/shared-components-and-changes.txt") \
        .read_text(encoding="utf-8")
    assert re.search(r"- 4 cards, poker size \(63.5 x 88.9 mm\)\n(?!  - )", text), text
    assert "with the" not in text
