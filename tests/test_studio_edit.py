"""The studio edits the deck (issue 59): one value written back into the file a card came
from, only that value, only through the studio's guard, never over a newer file."""

from __future__ import annotations

import csv
import io
import os
import shutil
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from cardkit.deck.loader import load_deck
from cardkit.common.errors import InputError
from cardkit.sources.rewrite import NotRewritten, replace_csv_cell, replace_yaml_value
from cardkit.studio import edits
from cardkit.studio.images import Studio
from cardkit.studio.server import make_app

ROOT = Path(__file__).resolve().parent.parent
LANTERN = ROOT / "examples" / "lantern-market"
SPICE = "Spice Jar,good,market,2,,stall,no,4,\"When you buy it, draw a card.\""


@pytest.fixture
def lantern(tmp_path) -> Path:
    shutil.copytree(LANTERN, tmp_path / "lantern-market")
    return tmp_path / "lantern-market"


def client_of(studio: Studio, base="http://127.0.0.1:8719", **given) -> TestClient:
    return TestClient(make_app(studio, **given), base_url=base)


def token_of(client: TestClient) -> str:
    page = client.get("/").text
    return page.split('name="cardkit-token" content="')[1].split('"')[0]


def posted(client, card, field, value, version=None, token=None, headers=(), **more):
    """An edit as the page sends it (its token and the file's version unless given)."""
    if version is None:
        state = client.get("/api/deck").json()
        version = state["files"].get(state["cards"][card - 1]["edit"]["file"], "")
    return client.post("/api/edit", json={"card": card, "field": field, "value": value,
                                          "version": version, **more},
                       headers={"X-Cardkit-Token": token_of(client) if token is None
                                else token, **dict(headers)})


# -- the CSV cell, only that cell ---------------------------------------------------------

CELL = st.text(alphabet=st.sampled_from(list('ab ,;"\r\n\tüx1')), max_size=8)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.lists(CELL, min_size=3, max_size=3), min_size=1, max_size=5),
       st.sampled_from(["\n", "\r\n"]), st.sampled_from([",", ";", "\t"]),
       st.data(), CELL, st.booleans())
def test_a_csv_edit_changes_that_cell_and_no_other_byte(rows, ending, separator, data,
                                                         value, quote_all):
    """The file is written cell by cell here, so each cell's bytes are known; after the
    edit every byte before and after the cell's is the same, and the file reads as
    before but for that cell."""
    header = ["name", "text", "cost"]
    text, spans, line = "", {}, 1
    quoting = csv.QUOTE_ALL if quote_all else csv.QUOTE_MINIMAL
    for number, cells in enumerate([header] + rows):
        starts = line
        for index, cell in enumerate(cells):
            out = io.StringIO()
            csv.writer(out, delimiter=separator, quoting=quoting,
                       lineterminator="\r\n").writerow([cell])
            written = out.getvalue()[:-2] if cell or quote_all else ""
            if index:
                text += separator
            spans[number, index] = (len(text.encode()), len((text + written).encode()))
            text += written
            line += written.count("\n") + written.count("\r") - written.count("\r\n")
        text += ending
        spans[number] = starts
        line += 1
    old = text.encode()
    row = data.draw(st.integers(1, len(rows)))
    column = data.draw(st.integers(0, 2))
    new = replace_csv_cell(old, separator, spans[row], header[column], value)
    start, end = spans[row, column]
    assert new[:start] == old[:start]
    assert new[len(new) - (len(old) - end):] == old[end:]
    read = list(csv.reader(io.StringIO(new.decode(), newline=""), delimiter=separator))
    expected = [header] + [list(cells) for cells in rows]
    expected[row][column] = value
    assert read == expected


def test_a_csv_edit_keeps_the_byte_order_mark_and_a_short_row():
    old = "\ufeffname,cost\r\nA,1\r\nB\r\n".encode()
    assert replace_csv_cell(old, ",", 3, "cost", "2") == "\ufeffname,cost\r\nA,1\r\nB,2\r\n".encode()
    with pytest.raises(NotRewritten, match="no column 'kind'"):
        replace_csv_cell(old, ",", 2, "kind", "x")


# -- YAML: only that value ------------------------------------------------------------------

DECK_CARDS = """\
cards:
  # the heroes
  - name: Ada   # the first
    power: 3
    text: "Draw, then **discard**."
  - {name: Bo, power: 1, text: plain}
  - name: Cy
    power: 2
    text: |
      Two
      lines
"""


@pytest.mark.parametrize("line, col, key, value, expected", [
    (3, 5, "name", "Ada Lovelace", "  - name: Ada Lovelace   # the first\n"),
    (3, 5, "power", 7, "    power: 7\n"),
    (3, 5, "text", 'Say "no", then stop', '    text: "Say \\"no\\", then stop"\n'),
    (6, 5, "text", "a, b", '  - {name: Bo, power: 1, text: "a, b"}\n'),
    (7, 5, "text", "One line", '    text: "One line"\n'),
])
def test_a_yaml_edit_keeps_comments_order_and_every_other_line(line, col, key, value,
                                                               expected):
    new = replace_yaml_value(DECK_CARDS.encode(), line, col, key, value).decode()
    old_lines, new_lines = DECK_CARDS.splitlines(True), new.splitlines(True)
    changed = [(a, b) for a, b in zip(old_lines, new_lines) if a != b]
    assert [b for _, b in changed] == [expected]
    if key != "text" or line != 7:
        assert len(new_lines) == len(old_lines)
    else:  # the block's two lines became one: everything after it stays
        assert new_lines[-1:] == [expected] and old_lines[:8] == new_lines[:8]


def test_a_yaml_value_shared_through_an_anchor_is_not_changed():
    """The card and the one that repeats it by an alias would both change."""
    text = "cards:\n  - &a {name: A, power: 2}\n  - *a\n"
    with pytest.raises(NotRewritten, match="more of the file than that value"):
        replace_yaml_value(text.encode(), 2, 5, "power", 5)
    text = "base: &p 2\ncards:\n  - {name: A, power: *p}\n"  # an alias as the value
    with pytest.raises(NotRewritten, match="an alias"):
        replace_yaml_value(text.encode(), 3, 5, "power", 5)


# -- the endpoint and its guard ----------------------------------------------------------------

def test_an_edit_reaches_cards_csv_in_that_cell_only(lantern):
    cards = lantern / "cards.csv"
    before = cards.read_bytes()
    client = client_of(Studio(lantern / "deck.yaml"))
    answer = posted(client, 2, "text", 'Draw two, "then" rest.')
    assert answer.status_code == 200 and answer.json()["saved"]
    assert cards.read_bytes() == before.replace(
        b'"When you buy it, draw a card."', b'"Draw two, ""then"" rest."')
    assert posted(client, 2, "cost", "5").json()["saved"]  # its new version was told
    assert b"Spice Jar,good,market,5,," in cards.read_bytes()


def test_a_wrong_value_gets_validates_message_at_the_field(lantern):
    client = client_of(Studio(lantern / "deck.yaml"))
    cards = lantern / "cards.csv"
    before = cards.read_bytes()
    answer = posted(client, 2, "cost", "four")
    assert answer.status_code == 422 and cards.read_bytes() == before
    problem = answer.json()["problem"]
    cards.write_bytes(before.replace(b"Spice Jar,good,market,2,", b"Spice Jar,good,market,four,"))
    with pytest.raises(InputError) as validated:
        load_deck(lantern / "deck.yaml")
    said = validated.value.problems[0]
    assert (problem["what"], problem["fix"]) == (said.what, said.fix)
    assert problem["where"] == str(said.where) and problem["where"].endswith("cards.csv:3")


def test_an_emptied_cell_is_the_fields_default_unless_it_has_none(lantern):
    client = client_of(Studio(lantern / "deck.yaml"))
    cards = lantern / "cards.csv"
    before = cards.read_bytes()
    assert posted(client, 5, "swords", "").json()["saved"]
    assert cards.read_bytes() == before.replace(b"Night Watch,guard,market,2,1,",
                                                b"Night Watch,guard,market,2,,")
    answer = posted(client, 5, "cost", " ")
    assert answer.status_code == 422 and answer.json()["problem"] == {
        "where": f"{cards}:6", "what": "this card has no 'cost'",
        "fix": "give it a 'cost' (a key, or a spreadsheet column) or give the field a default"}


def test_a_cards_count_is_checked_as_validate_checks_it(lantern):
    client = client_of(Studio(lantern / "deck.yaml"))
    cards = lantern / "cards.csv"
    before = cards.read_bytes()
    problems = {}
    for count in ("0", "20000", "two"):
        answer = posted(client, 2, "count", count)
        assert answer.status_code == 422 and cards.read_bytes() == before
        problems[count] = answer.json()["problem"]
    for count, problem in problems.items():
        cards.write_bytes(before.replace(b"stall,no,4,", b"stall,no,%s," % count.encode()))
        with pytest.raises(InputError) as validated:
            load_deck(lantern / "deck.yaml")
        said = validated.value.problems[0]
        assert (problem["what"], problem["fix"], problem["where"]) == \
            (said.what, said.fix, str(said.where)), count
    cards.write_bytes(before)
    assert posted(client, 2, "count", "5").json()["saved"]
    assert b"Spice Jar,good,market,2,,stall,no,5," in cards.read_bytes()


def test_a_file_changed_on_disk_is_never_written_over(lantern):
    cards = lantern / "cards.csv"
    client = client_of(Studio(lantern / "deck.yaml"))
    state = client.get("/api/deck").json()
    version = state["files"][state["cards"][1]["edit"]["file"]]
    changed = cards.read_bytes().replace(b"draw a card.", b"draw a card, then smile.")
    cards.write_bytes(changed)
    answer = posted(client, 2, "text", "Mine.", version=version)
    assert answer.status_code == 409
    assert answer.json()["now"] == "When you buy it, draw a card, then smile."
    assert cards.read_bytes() == changed


@pytest.mark.parametrize("headers", [{"Origin": "http://evil.example"},
                                     {"Sec-Fetch-Site": "cross-site"}])
def test_another_sites_page_cannot_write(lantern, headers):
    cards = lantern / "cards.csv"
    before = cards.read_bytes()
    client = client_of(Studio(lantern / "deck.yaml"))
    assert posted(client, 2, "cost", "9", headers=headers).status_code == 403
    assert cards.read_bytes() == before


def test_an_edit_without_the_pages_token_or_as_a_form_is_refused(lantern):
    cards = lantern / "cards.csv"
    before = cards.read_bytes()
    client = client_of(Studio(lantern / "deck.yaml"))
    assert posted(client, 2, "cost", "9", token="").status_code == 403
    assert posted(client, 2, "cost", "9", token="guessed").status_code == 403
    form = client.post("/api/edit", data={"card": "2", "field": "cost", "value": "9"},
                       headers={"X-Cardkit-Token": token_of(client)})
    assert form.status_code == 403
    assert client.get("/api/edit").status_code == 405
    assert cards.read_bytes() == before


def test_no_path_from_the_request_is_written(lantern, tmp_path):
    aside = tmp_path / "aside.csv"
    client = client_of(Studio(lantern / "deck.yaml"))
    answer = posted(client, 2, "../../aside", "x", file=str(aside), path=str(aside))
    assert answer.status_code == 422 and not aside.exists()
    assert posted(client, 2, "cost", "6", file=str(aside)).json()["saved"]
    assert not aside.exists() and b"Spice Jar,good,market,6," in \
        (lantern / "cards.csv").read_bytes()


def test_a_link_planted_at_cards_csv_is_not_written_through(lantern, tmp_path):
    client = client_of(Studio(lantern / "deck.yaml"))
    state = client.get("/api/deck").json()
    version = state["files"][state["cards"][1]["edit"]["file"]]
    target = tmp_path / "elsewhere.csv"
    shutil.copy(lantern / "cards.csv", target)
    (lantern / "cards.csv").unlink()
    (lantern / "cards.csv").symlink_to(target)
    before = target.read_bytes()
    answer = posted(client, 2, "cost", "9", version=version)
    assert answer.status_code == 422 and "symbolic link" in answer.json()["problem"]["what"]
    assert target.read_bytes() == before and (lantern / "cards.csv").is_symlink()


def test_on_the_network_the_studio_is_read_only_unless_allowed(lantern):
    cards = lantern / "cards.csv"
    before = cards.read_bytes()
    network = client_of(Studio(lantern / "deck.yaml"), "http://192.168.1.9:8719",
                        listening="0.0.0.0")
    page = network.get("/").text
    assert 'name="cardkit-token" content=""' in page and "--allow-edit" in page
    answer = posted(network, 2, "cost", "9", token="")
    assert answer.status_code == 403 and "--allow-edit" in answer.json()["refused"]
    assert cards.read_bytes() == before
    allowed = client_of(Studio(lantern / "deck.yaml"), "http://192.168.1.9:8719",
                        listening="0.0.0.0", allow_edit=True)
    assert posted(allowed, 2, "cost", "9").json()["saved"]
    assert b"Spice Jar,good,market,9," in cards.read_bytes()


def test_a_yaml_card_keeps_its_comments(tmp_path):
    deck = tmp_path / "heroes"
    shutil.copytree(LANTERN, deck)
    yaml_deck = (deck / "deck.yaml").read_text().replace(
        "cards:\n  from: cards.csv\n",
        "cards:\n  # the first, by hand\n  - {name: Ada, kind: good, cost: 3, art: stall, "
        "back: market}  # keep me\n  - from: cards.csv\n").replace("total: 21", "total: 22")
    yaml_deck = yaml_deck.replace("kind: {good: 13,", "kind: {good: 14,").replace(
        "back: {market: 17,", "back: {market: 18,")
    (deck / "deck.yaml").write_text(yaml_deck)
    client = client_of(Studio(deck / "deck.yaml"))
    assert posted(client, 1, "name", "Ada Lovelace").json()["saved"]
    assert (deck / "deck.yaml").read_text() == yaml_deck.replace(
        "{name: Ada,", "{name: Ada Lovelace,")
    assert posted(client, 1, "cost", "4").json()["saved"]
    assert "cost: 4, art: stall, back: market}  # keep me" in (deck / "deck.yaml").read_text()


def test_generated_and_linked_cards_are_read_only_and_say_why(tmp_path):
    deck = tmp_path / "bullet"
    shutil.copytree(ROOT / "decks" / "bullet", deck)
    client = client_of(Studio(deck / "deck.yaml"))
    state = client.get("/api/deck").json()
    assert state["cards"][0]["edit"]["why"] == edits.PRODUCT_WHY
    before = (deck / "deck.yaml").read_bytes()
    answer = posted(client, 1, "name", "Raven", version="")
    assert answer.status_code == 422 and answer.json()["problem"]["what"] == edits.PRODUCT_WHY
    assert (deck / "deck.yaml").read_bytes() == before
    # the last, written by hand, may be changed
    assert state["cards"][-1]["edit"]["why"] == ""


def test_a_card_from_a_sheet_link_or_an_ods_workbook_is_read_only(tmp_path):
    from types import SimpleNamespace

    from cardkit.common.errors import Where
    from cardkit.sources.spreadsheet import SheetCell

    link = "https://docs.google.com/spreadsheets/d/abc/edit#gid=0"
    made = [SheetCell(link, 4, 0, "Cards"), Where(f"{tmp_path}/cards.ods[Cards]", 3),
            Where(f"{tmp_path}/cards.csv", 3), Where("/elsewhere/cards.csv", 3),
            Where(f"{tmp_path}/my [old] cards.xlsx[Cards]", 3)]
    deck = SimpleNamespace(cards=[SimpleNamespace(number=n, where=w)
                                  for n, w in enumerate(made, 1)])
    found = edits.sources(deck, tmp_path)
    assert [found[n].why for n in (1, 2, 3)] == [edits.LINK_WHY, edits.WORKBOOK_WHY, ""]
    # an XLSX's cells are written, in the sheet named; its rows are not
    assert (found[5].why, found[5].kind, found[5].sheet, found[5].line) == ("", "xlsx", "Cards", 3)
    assert found[5].path == tmp_path / "my [old] cards.xlsx"
    assert found[5].rows_why == edits.WORKBOOK_ROWS_WHY and found[3].rows_why == ""
    assert found[4].why.startswith("this card comes from /elsewhere/cards.csv, outside")
    assert edits.sources(deck, tmp_path, lang="de")[3].why == edits.LANGUAGE_WHY
