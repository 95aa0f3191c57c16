"""What changed between two versions of a deck (issue 31): ``cardkit diff``, its contact
sheet, and reprints of only what changed (``--changed-since``), read back from the files.
The expected changes are the edits each test makes by hand."""

from __future__ import annotations

import csv
import re
import subprocess
import textwrap
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pypdf import PdfReader

from cardkit.deck.loader import load_deck
from cardkit.pipeline.changes import compare

from test_stamps import run, versioned

# the edits: one card's text, one card's cost (a printed field), a count, a card renamed
# (the old one removed, a new one added), and the version
EDITS = [("Cheap and bright.", "Cheap and warm."),
         ("Spice Jar,good,market,2,,stall,no,4", "Spice Jar,good,market,2,,stall,no,3"),
         ("Captain,guard,market,4,2", "Captain,guard,market,5,2"),
         ("Festival,event,night,0,,stall,no,2,Goods cost 1 {coin} less this round.",
          "Night Fair,event,night,0,,stall,no,2,Every good costs 1 {coin} less.")]


def edited(deck: Path) -> Path:
    """``deck`` with :data:`EDITS` made, as version 1.1 (its composition follows)."""
    cards = deck / "cards.csv"
    text = cards.read_text()
    for old, new in EDITS:
        assert old in text
        text = text.replace(old, new)
    cards.write_text(text)
    deck_yaml = deck / "deck.yaml"
    deck_yaml.write_text(deck_yaml.read_text().replace('version: "1.0"', 'version: "1.1"')
                         .replace("total: 21", "total: 20").replace("market: 17", "market: 16")
                         .replace("good: 13", "good: 12"))
    return deck


@pytest.fixture
def two_versions(tmp_path):
    old = versioned(tmp_path / "old", "1.0")
    new = edited(versioned(tmp_path / "new", "1.0"))
    return old, new


def lines_of(output: str) -> list[list[str]]:
    """The words of each card's line (not of the changed fields' lines below it)."""
    return [line.split() for line in output.splitlines()
            if line.startswith("  ") and not line.startswith("   ")]


def test_diff_names_each_change_by_what_prints(two_versions):
    old, new = two_versions
    output = run("diff", old, new)
    assert output.splitlines()[0] == "Lantern Market: 1.0 -> 1.1"
    found = {(words[0], " ".join(w for w in words[1:3] if not w.startswith("x"))):
             " ".join(words) for words in lines_of(output)}
    assert set(found) == {("count", "Spice Jar"), ("changed", "Lantern Oil"),
                          ("changed", "Captain"), ("added", "Night Fair"),
                          ("removed", "Festival"),
                          ("changed", "tuck box")}  # its front says 20 cards, not 21
    assert "x4 -> x3" in found[("count", "Spice Jar")]
    assert found[("changed", "Lantern Oil")].endswith("front: text; fields: text")
    assert found[("changed", "Captain")].endswith("front: cost; fields: cost")
    # the words that changed, under their card, as git's word diff marks them
    lines = output.splitlines()
    oil = next(i for i, line in enumerate(lines) if "Lantern Oil" in line)
    captain = next(i for i, line in enumerate(lines) if "Captain" in line)
    assert lines[oil + 1] == "             text: *Cheap and [-bright.*-] {+warm.*+} Score 1 {coin}."
    assert lines[captain + 1] == "             cost: [-4-] {+5+}"
    assert output.splitlines()[-1] == ("2 changed, 1 added, 1 removed, 1 in another number; "
                                       "4 unchanged. To print: 8 cards; to pull: 9. "
                                       "Components: 1 changed.")


def test_a_new_version_number_alone_changes_no_card(tmp_path):
    old = versioned(tmp_path / "old", "1.0")
    new = versioned(tmp_path / "new", "2.0")
    output = run("diff", old, new)
    assert lines_of(output) == []
    assert "0 changed, 0 added, 0 removed, 0 in another number; 8 unchanged" in output
    run("build", new, "--changed-since", old, "--out", tmp_path / "out", code=2)


def test_a_back_that_changed_marks_every_card_with_it(tmp_path):
    old = versioned(tmp_path / "old", "1.0")
    new = versioned(tmp_path / "new", "1.0")
    deck_yaml = new / "deck.yaml"
    deck_yaml.write_text(deck_yaml.read_text().replace('colour: "#20324a"', 'colour: "#000000"'))
    changes = compare(load_deck(old / "deck.yaml"), load_deck(new / "deck.yaml"))
    assert {change.name: change.sides for change in changes.cards} == {
        name: ("back",) for name in ("Silk Bolt", "Spice Jar", "Lantern Oil", "Golden Lamp",
                                     "Night Watch", "Captain")}
    assert changes.backs == (("market", "changed"),)
    assert "  back     market: changed" in run("diff", old, new)


def test_the_box_tokens_and_boards_are_compared_by_what_they_print(tmp_path):
    """A token whose layout prints differently, a board taken away and one added are
    named after the cards; a version number alone changes none of them (the test above)."""
    old = versioned(tmp_path / "old", "1.0")
    new = versioned(tmp_path / "new", "1.0")
    deck_yaml = new / "deck.yaml"
    deck_yaml.write_text(deck_yaml.read_text()
                         .replace('colour: "#7a1f1f"', 'colour: "#000000"')  # token 4
                         .replace("{name: street,", "{name: square,"))
    changes = compare(load_deck(old / "deck.yaml"), load_deck(new / "deck.yaml"))
    assert changes.cards == () and changes.components == (
        ("token 4", "changed"), ("board square", "added"), ("board street", "removed"))
    output = run("diff", old, new)
    assert output.splitlines()[1:] == [
        "  changed  token 4", "  added    board square", "  removed  board street",
        "0 changed, 0 added, 0 removed, 0 in another number; 8 unchanged. To print: 0 cards; "
        "to pull: 0. Components: 1 changed, 1 added, 1 removed."]


def git(folder: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(folder), "-c", "user.name=t", "-c", "user.email=t@t",
                    *args], check=True, capture_output=True)


def test_diff_against_a_git_revision_of_the_deck_s_folder(tmp_path, two_versions):
    old, _ = two_versions
    repository = tmp_path / "repo"
    deck = versioned(repository / "games", "1.0")
    git(repository, "init", "-q")
    git(repository, "add", ".")
    git(repository, "commit", "-qm", "1.0")
    git(repository, "tag", "v1.0")
    edited(deck)
    by_folder = run("diff", old, _)
    by_revision = run("diff", "v1.0", deck)
    assert by_revision.splitlines()[0] == "Lantern Market: v1.0 -> 1.1 (was 1.0)"
    assert by_revision.splitlines()[1:] == by_folder.splitlines()[1:]
    wrong = run("diff", "v0.9", deck, code=2)
    assert "v0.9: is neither a folder, a deck file nor a git revision" in wrong
    # an option in a revision's place is no revision (git archive would take it as one)
    hostile = run("diff", "--", "--output=/tmp/owned", deck, code=2)
    assert "is neither" in hostile and not Path("/tmp/owned").exists()
    alone = versioned(tmp_path / "alone", "1.0")
    assert "is neither" in run("diff", "HEAD", alone, code=2)
    # a link out of the repository is left out of the checkout, not a failure; a mistake
    # in the old version is named as git names its file
    (repository / "outside").symlink_to("/etc/hostname")
    deck_yaml = deck / "deck.yaml"
    good = deck_yaml.read_text()
    deck_yaml.write_text(good.replace("author:", "autor:"))
    git(repository, "add", ".")
    git(repository, "commit", "-qm", "a typo")
    deck_yaml.write_text(good)
    typo = run("diff", "HEAD", deck, code=2)
    assert "HEAD:games/lantern-market/deck.yaml:6:1: unknown key 'autor'" in typo


def test_the_changes_sheet_shows_old_beside_new(two_versions, tmp_path):
    old, new = two_versions
    said = run("diff", old, new, "--sheet", tmp_path / "changes.pdf")
    # named as its option's help names it: a contact sheet is export's, of every card
    assert said.splitlines()[-1] == f"changes sheet -> {tmp_path / 'changes.pdf'}"
    pdf = PdfReader(tmp_path / "changes.pdf")
    assert len(pdf.pages) == 1
    text = pdf.pages[0].extract_text()
    for said in ("Lantern Market: 1.0 -> 1.1", "Lantern Oil", "Night Fair", "Festival",
                 "fields: text", "before", "now", "4 -> 3 copies"):
        assert said in text
    # the cards, and the words of the field that changed (struck through, underlined)
    assert text.count("Cheap and warm") == 1 and text.count("Cheap and bright.") == 1
    assert "text: *Cheap and bright.* warm.* Score 1" in " ".join(text.split())
    assert "cost: 4 5" in " ".join(text.split())
    run("diff", old, new, "--sheet", tmp_path / "changes.png")
    from PIL import Image

    with Image.open(tmp_path / "changes.png") as image:
        assert image.size == (2480, 3508)  # A4 at 300 dpi: the cards' text can be read


def card_counts(page_text: str, names) -> dict[str, int]:
    return {name: page_text.count(name) for name in names}


def test_a_reprint_holds_only_what_changed_after_a_cover_note(two_versions, tmp_path):
    old, new = two_versions
    output = run("build", new, "--changed-since", old, "--out", tmp_path / "out")
    assert "8 cards, 2 pages after a cover note" in output
    pdf_path = tmp_path / "out" / "lantern-market" / \
        "lantern-market-changes-since-1.0-pnp-a4.pdf"
    pdf = PdfReader(pdf_path)
    assert len(pdf.pages) == 4  # the note, its blank back, fronts, backs
    cover = pdf.pages[0].extract_text()
    assert cover.startswith("Lantern Market: the cards that changed since 1.0 (now version 1.1)")
    assert textwrap.dedent("""\
        Take out of your printed deck (9 cards):
        1 fewer Spice Jar, 4 -> 3
        5 x Lantern Oil, replaced by the new print
        1 x Captain, replaced by the new print
        2 x Festival, no longer in the deck
        Put in the cards printed here (8):
        5 x Lantern Oil, replacing the 5 taken out
        1 x Captain, replacing the 1 taken out
        2 x Night Fair, a new card""") in "\n".join(
        line.strip() for line in cover.splitlines() if line.strip())
    assert pdf.pages[1].extract_text().strip() == ""
    names = ("Lantern Oil", "Captain", "Night Fair", "Spice Jar", "Festival", "Silk Bolt")
    assert card_counts(pdf.pages[2].extract_text(), names) == {
        "Lantern Oil": 5, "Captain": 1, "Night Fair": 2, "Spice Jar": 0, "Festival": 0,
        "Silk Bolt": 0}
    folded = run("build", new, "--changed-since", old, "--sheet", "gutterfold", "--out",
                 tmp_path / "fold")
    assert "after a cover note" in folded
    assert len(PdfReader(next((tmp_path / "fold").glob("**/*.pdf"))).pages) == 1 + 2


def test_the_cover_note_tells_extra_copies_from_replacements(tmp_path):
    before = [("Ant", "Small.", 1, ""), ("Bee", "Busy.", 4, "")]
    after = [("Ant", "Smaller.", 1, ""), ("Bee", "Busy.", 5, ""), ("Cat", "New.", 2, "")]
    changes = compare(load_deck(small_deck(tmp_path / "old", before)),
                      load_deck(small_deck(tmp_path / "new", after)))
    assert changes.cover_note()[2:] == [
        "Take out of your printed deck (1 card):",
        "    1 x Ant, replaced by the new print",
        "",
        "Put in the cards printed here (4):",
        "    1 x Ant, replacing the 1 taken out",
        "    1 more Bee, 4 -> 5",
        "    2 x Cat, a new card"]


def test_an_export_of_what_changed_counts_its_copies(two_versions, tmp_path):
    old, new = two_versions
    run("export", new, "--changed-since", old, "--for", "tgc", "--out", tmp_path / "out")
    folder = tmp_path / "out" / "lantern-market" / "lantern-market-changes-since-1.0-png-tgc"
    with (folder / "manifest.csv").open(newline="") as rows:
        counts = {row["name"]: int(row["count"]) for row in csv.DictReader(rows)
                  if row["side"] == "front"}
    assert counts == {"Lantern Oil": 5, "Captain": 1, "Night Fair": 2}
    note = folder.with_name(folder.name + "-cover-note.txt").read_text()
    assert "    2 x Festival" in note and "    2 x Night Fair" in note


# A property: random edits of a small deck, and the statuses the edits must give
SMALL_DECK = """\
name: small
size: poker
front: plain
backs: {plain: {layout: back}}
fields: {name: text, text: text, note: {type: text, default: ""}}
cards:
"""
PLAIN = """\
elements:
  - {name: title, kind: text, box: [5mm, 5mm, 53mm, 10mm], text: "{name}"}
  - {name: text, kind: text, box: [5mm, 20mm, 53mm, 40mm], text: "{text}"}
"""
BACK = "elements:\n  - {name: bg, kind: rect, box: card, fill: '#223344'}\n"
EDIT = st.sampled_from(["same", "text", "count", "removed", "renamed", "note"])


def small_deck(folder: Path, cards: list[tuple]) -> Path:
    folder.mkdir(parents=True)
    (folder / "layouts").mkdir()
    (folder / "layouts" / "plain.yaml").write_text(PLAIN)
    (folder / "layouts" / "back.yaml").write_text(BACK)
    entries = "".join(f"  - {{name: {name}, text: '{text}', count: {count}, note: '{note}'}}\n"
                      for name, text, count, note in cards)
    (folder / "deck.yaml").write_text(SMALL_DECK + entries)
    return folder / "deck.yaml"


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(EDIT, min_size=2, max_size=6), st.integers(0, 2))
def test_random_edits_give_the_statuses_they_should(tmp_path_factory, edits, added):
    folder = tmp_path_factory.mktemp("small")
    # 'note' is a field no layout prints: a change to it is data only
    before = [(f"Card{i}", f"Words {i}", 1 + i % 3, "") for i in range(len(edits))]
    after, expected = [], {}
    for (name, text, count, note), edit in zip(before, edits):
        if edit == "text":
            after.append((name, text + " more", count, note))
            expected[name] = "changed"
        elif edit == "count":
            after.append((name, text, count + 1, note))
            expected[name] = "count"
        elif edit == "renamed":
            after.append((name + "b", text, count, note))
            expected[name], expected[name + "b"] = "removed", "added"
        elif edit == "removed":
            expected[name] = "removed"
        elif edit == "note":
            after.append((name, text, count, "rules only"))
            expected[name] = "data"
        else:
            after.append((name, text, count, note))
    for i in range(added):
        after.append((f"New{i}", "Fresh", 2, ""))
        expected[f"New{i}"] = "added"
    if not after:
        return
    changes = compare(load_deck(small_deck(folder / "old", before)),
                      load_deck(small_deck(folder / "new", after)))
    assert {change.name: change.status for change in changes.cards} == expected
    assert changes.unchanged == edits.count("same")
    counts_before = {name: count for name, _, count, _ in before}
    counts_after = {name: count for name, _, count, _ in after}
    # a count only grows here: nothing of it to pull, its one extra copy to print
    assert sum(change.to_pull for change in changes.cards) == sum(
        counts_before[name] for name, status in expected.items()
        if status in ("changed", "removed"))
    assert sum(change.to_print for change in changes.cards) == sum(
        counts_after[name] if status in ("changed", "added") else 1
        for name, status in expected.items() if status not in ("removed", "data"))


def test_the_starter_deck_s_round_of_prints_as_its_readme_says(tmp_path):
    run("new", tmp_path / "my-game")
    deck = tmp_path / "my-game"
    git(deck, "init", "-q")
    git(deck, "add", ".")
    git(deck, "commit", "-qm", "first prints")
    git(deck, "tag", "v0.1")
    cards = deck / "cards.csv"
    cards.write_text(cards.read_text().replace("Draw two cards.", "Draw three cards."))
    (deck / "deck.yaml").write_text((deck / "deck.yaml").read_text().replace(
        'version: "0.1"', 'version: "0.2"'))
    output = run("diff", "v0.1", deck)
    assert output.splitlines()[0] == "My Game: v0.1 -> 0.2 (was 0.1)"
    assert [words[:3] for words in lines_of(output)] == [["changed", "Supplies", "x2"]]
    run("build", deck, "--changed-since", "v0.1", "--out", tmp_path / "out")
    pdf = PdfReader(tmp_path / "out" / "my-game" / "my-game-changes-since-v0.1-pnp-a4.pdf")
    assert "2 x Supplies" in pdf.pages[0].extract_text()
    fronts = pdf.pages[2].extract_text()
    assert fronts.count("Draw three cards.") == 2 and "Scout" not in fronts
    # the new version beside each card's id
    assert len(re.findall(r"0\.2 · [0-9a-f]{7}\n", fronts)) == 2


def test_a_version_not_raised_is_said_once(tmp_path):
    old = versioned(tmp_path / "old", "0.1")
    new = versioned(tmp_path / "new", "0.1")
    cards = new / "cards.csv"
    cards.write_text(cards.read_text().replace("Cheap and bright.", "Cheap and warm."))
    assert run("diff", old, new).splitlines()[0] == "Lantern Market: 0.1 -> now (0.1 in both)"
