"""Version stamps (issue 31): the deck's version on the printed pages, in the PDFs'
metadata and in the exports, read back from the files."""

from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path

from click.testing import CliRunner
from pypdf import PdfReader

from cardkit.cli import main

ROOT = Path(__file__).resolve().parent.parent


def versioned(tmp_path, version: str | None) -> Path:
    """A copy of Lantern Market with ``version`` (None: no version line)."""
    deck = tmp_path / "lantern-market"
    shutil.copytree(ROOT / "examples" / "lantern-market", deck)
    text = (deck / "deck.yaml").read_text()
    line = 'version: "1.0"\n'
    assert line in text
    (deck / "deck.yaml").write_text(text.replace(line, "" if version is None else
                                                 f'version: "{version}"\n'))
    return deck


def run(*args, code: int = 0) -> str:
    """What ``cardkit ARGS`` prints, checking that it exits with ``code``."""
    outcome = CliRunner().invoke(main, [str(a) for a in args])
    assert outcome.exit_code == code, outcome.output
    return outcome.output


def test_the_version_is_on_every_page_and_in_the_metadata(tmp_path):
    deck = versioned(tmp_path, "0.3-playtest")
    run("build", deck, "--out", tmp_path / "out")
    pdf = PdfReader(next((tmp_path / "out").glob("**/*.pdf")))
    assert pdf.metadata.subject == "Lantern Market, version 0.3-playtest"
    for page in pdf.pages:
        assert "Lantern Market · version 0.3-playtest · " in page.extract_text()


def test_exports_carry_the_version(tmp_path):
    deck = versioned(tmp_path, "2")
    run("export", deck, "--to", "tts", "--out", tmp_path / "tts")
    saved = json.loads(next((tmp_path / "tts").glob("**/*.json")).read_text())
    assert saved["ObjectStates"][0]["Description"] == \
        "Lantern Market, version 2, made with cardkit"
    run("export", deck, "--for", "tgc", "--out", tmp_path / "tgc")
    with next((tmp_path / "tgc").glob("**/manifest.csv")).open(newline="") as rows:
        assert {row["version"] for row in csv.DictReader(rows)} == {"2"}


def test_a_deck_without_a_version_prints_no_stamp(tmp_path):
    deck = versioned(tmp_path, None)
    run("build", deck, "--out", tmp_path / "out")
    pdf = PdfReader(next((tmp_path / "out").glob("**/*.pdf")))
    assert pdf.metadata.subject == "Lantern Market"
    assert "version" not in pdf.pages[0].extract_text()


def test_layouts_read_the_deck_s_title_version_and_date(tmp_path, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1764028800")  # 2025-11-25, for the same build
    deck = versioned(tmp_path, "0.4")
    back = deck / "layouts" / "market-back.yaml"
    back.write_text(back.read_text() + "  - {name: stamp, kind: text, box: [8mm, 80mm, 47.5mm,"
                    " 4mm], size: 5pt, colour: \"{back.ink}\", text: \"{deck.title} "
                    "{deck.version} · {deck.date}\"}\n")
    run("build", deck, "--out", tmp_path / "out")
    pdf = PdfReader(next((tmp_path / "out").glob("**/*.pdf")))
    backs = pdf.pages[1].extract_text()
    assert backs.count("Lantern Market 0.4 · 2025-11-25") == 9  # each back of the sheet
    unknown = CliRunner().invoke(main, ["build", str(deck), "--out", str(tmp_path / "o2")])
    assert unknown.exit_code == 0
    back.write_text(back.read_text().replace("{deck.date}", "{deck.colour}"))
    wrong = CliRunner().invoke(main, ["build", str(deck), "--out", str(tmp_path / "o3")])
    assert wrong.exit_code == 2 and "'{deck.colour}'" in wrong.output


def card_ids(deck: Path) -> dict[str, str]:
    """Each card's printed ``{card.id}``, by name, as the built PDF shows it."""
    from cardkit.pipeline.build import load_chosen

    return {card.fields["name"]: card.stamps["card.id"]
            for card in load_chosen(deck / "deck.yaml").cards}


def test_a_card_s_id_is_printed_and_changes_exactly_when_the_card_does(tmp_path):
    deck = versioned(tmp_path, "1.0")
    run("build", deck, "--out", tmp_path / "out")
    pdf = PdfReader(next((tmp_path / "out").glob("**/*.pdf")))
    first = card_ids(deck)
    assert len(set(first.values())) == 8 and all(
        len(found) == 7 and int(found, 16) >= 0 for found in first.values())
    assert f"1.0 · {first['Silk Bolt']}" in pdf.pages[0].extract_text()

    # a new version number, or another day, changes what the stamp says, not the id
    deck_yaml = deck / "deck.yaml"
    deck_yaml.write_text(deck_yaml.read_text().replace('version: "1.0"', 'version: "1.1"'))
    assert card_ids(deck) == first

    # one card's words: that card only
    cards = deck / "cards.csv"
    cards.write_text(cards.read_text().replace("Cheap and bright.", "Cheap and warm."))
    second = card_ids(deck)
    assert {name for name in first if first[name] != second[name]} == {"Lantern Oil"}

    # the art file the good cards read (bytes only, no field changes): the cards showing it
    art = deck / "art" / "stall.svg"
    art.write_text(art.read_text().replace("#", "#0", 1).replace("#0", "#", 1)
                   .replace("</svg>", '<circle cx="1" cy="1" r="1" fill="#000"/></svg>'))
    third = card_ids(deck)
    assert {name for name in first if second[name] != third[name]} == \
        {"Silk Bolt", "Spice Jar", "Lantern Oil", "Golden Lamp", "Festival"}

    # the back's layout: every card with that back (the night cards keep theirs, as the
    # layout is the same: only the market back's colour changes)
    deck_yaml.write_text(deck_yaml.read_text().replace('colour: "#20324a"', 'colour: "#20324b"'))
    fourth = card_ids(deck)
    assert {name for name in first if third[name] != fourth[name]} == \
        {"Silk Bolt", "Spice Jar", "Lantern Oil", "Golden Lamp", "Night Watch", "Captain"}


def test_a_pdf_is_dated_the_day_it_is_built(tmp_path, monkeypatch):
    import datetime

    deck = versioned(tmp_path, "1.0")
    run("build", deck, "--out", tmp_path / "today", "--cards", "1")  # one card: the date
    made = PdfReader(next((tmp_path / "today").glob("**/*.pdf"))).metadata.creation_date
    assert abs(made.replace(tzinfo=None) - datetime.datetime.now()) < datetime.timedelta(
        hours=1)  # not reportlab's fixed 1 January 2000
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1764028800")  # a reproducible build's date
    run("export", deck, "--for", "drivethru", "--out", tmp_path / "then", "--cards", "1")
    made = PdfReader(next((tmp_path / "then").glob("**/*.pdf"))).metadata.creation_date
    assert made.date() == datetime.date(2025, 11, 25)
