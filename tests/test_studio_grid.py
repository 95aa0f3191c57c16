"""The studio's grid (issue 59): a card added after another, copied or removed in the
file it came from, only bytes at that place, and undone byte for byte, only through the
studio's guard."""

from __future__ import annotations

import csv
import io
import json
import shutil
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from cardkit.sources.rewrite import (NotRewritten, copy_csv_row, copy_yaml_entry,
                                     delete_csv_row, delete_yaml_entry, insert_csv_row,
                                     insert_yaml_entry)

ROOT = Path(__file__).resolve().parent.parent
LANTERN = ROOT / "examples" / "lantern-market"

# -- CSV rows --------------------------------------------------------------------------------

CELL = st.text(alphabet=st.sampled_from(list('ab ,;"\r\n\tüx1')), max_size=6)
HEADER = ["name", "text", "cost"]


def written_csv(rows, separator, ending, quote_all, last_ending):
    """A CSV file written cell by cell: its text, each row's first line and its span
    (start, end with its line ending) in characters."""
    quoting = csv.QUOTE_ALL if quote_all else csv.QUOTE_MINIMAL
    text, lines, spans, line = "", [], [], 1
    for number, cells in enumerate([HEADER] + rows):
        start = len(text)
        out = io.StringIO()
        for index, cell in enumerate(cells):
            out.seek(0), out.truncate()
            csv.writer(out, delimiter=separator, quoting=quoting,
                       lineterminator="\r\n").writerow([cell])
            written = out.getvalue()[:-2] if cell or quote_all else ""
            text += (separator if index else "") + written
        row = text[start:]
        ended = number < len(rows) or last_ending
        text += ending if ended else ""
        lines.append(line)
        spans.append((start, len(text)))
        line += 1 + row.count("\n") + row.count("\r") - row.count("\r\n")
    return text, lines, spans


def read(data: bytes, separator: str) -> list:
    return list(csv.reader(io.StringIO(data.decode(), newline=""), delimiter=separator))


CSV_FILES = st.tuples(
    st.lists(st.lists(CELL, min_size=3, max_size=3).filter(lambda cells: any(cells)),
             min_size=1, max_size=5),
    st.sampled_from([",", ";", "\t"]), st.sampled_from(["\n", "\r\n"]), st.booleans(),
    st.booleans())


@settings(max_examples=150, deadline=None)
@given(CSV_FILES, st.data())
def test_a_deleted_csv_row_takes_its_bytes_only(made, data):
    rows, separator, ending, quote_all, last_ending = made
    text, lines, spans = written_csv(rows, separator, ending, quote_all, last_ending)
    old = text.encode()
    row = data.draw(st.integers(1, len(rows)))
    new = delete_csv_row(old, separator, lines[row]).decode()
    start, end = spans[row]
    if end == len(text) and not last_ending:  # the row before loses its line ending
        start -= len(ending)
    assert new == text[:start] + text[end:]
    assert read(new.encode(), separator) == [HEADER] + rows[:row - 1] + rows[row:]


@settings(max_examples=150, deadline=None)
@given(CSV_FILES, st.data(), st.lists(CELL, min_size=3, max_size=3))
def test_an_added_csv_row_keeps_every_byte_and_deleting_it_gives_the_file_back(
        made, data, values):
    """A new row goes right after the chosen one, in the file's line ending and that row's
    quoting; the bytes before and after are the old ones, and deleting it (as undoing
    it would not need to: undo writes the old bytes) leaves the old file exactly."""
    rows, separator, ending, quote_all, last_ending = made
    text, lines, spans = written_csv(rows, separator, ending, quote_all, last_ending)
    old = text.encode()
    row = data.draw(st.integers(1, len(rows)))
    copy = data.draw(st.booleans())
    new = copy_csv_row(old, separator, lines[row]) if copy else \
        insert_csv_row(old, separator, lines[row], dict(zip(HEADER, values)))
    added = rows[row - 1] if copy else values
    expected = [HEADER] + rows[:row] + [added] + rows[row:]
    if any(added):  # a row of empty cells reads as none
        assert read(new, separator) == expected
    at = spans[row][1]
    if at == len(text) and not last_ending:
        assert new.decode().startswith(text + ending)
    else:
        assert new.decode().startswith(text[:at]) and new.decode().endswith(text[at:])
    piece = new.decode()[len(text[:at]):len(new.decode()) - len(text[at:])]
    assert piece.endswith(ending) or not last_ending and at == len(text)
    if quote_all and not copy:  # every cell in quotes, as the file writes them
        assert piece.strip("\r\n") == written_csv([values], separator, "", True, False)[0][
            len(written_csv([], separator, "", True, False)[0]):]
    if copy:
        assert piece.strip("\r\n") == text[spans[row][0]:spans[row][1]].strip("\r\n")
    if any(added):
        line = lines[row + 1] if row + 1 < len(lines) else \
            lines[row] + text[spans[row][0]:spans[row][1]].rstrip("\r\n").count("\n") + \
            text[spans[row][0]:spans[row][1]].rstrip("\r\n").count("\r") - \
            text[spans[row][0]:spans[row][1]].rstrip("\r\n").count("\r\n") + 1
        assert delete_csv_row(new, separator, line) == old


def test_a_new_csv_row_is_quoted_as_the_row_before_and_keeps_the_byte_order_mark():
    old = '\ufeffname;cost;text\r\n"A";1;"plain"\r\n'.encode()
    new = insert_csv_row(old, ";", 2, {"name": "New card", "cost": "1"})
    assert new == '\ufeffname;cost;text\r\n"A";1;"plain"\r\n"New card";1;""\r\n'.encode()
    with pytest.raises(NotRewritten, match="no column 'kind'"):
        insert_csv_row(old, ";", 2, {"kind": "x"})
    with pytest.raises(NotRewritten, match="no row starts on line 1"):
        delete_csv_row(old, ";", 1)  # the header is no card


# -- YAML entries ------------------------------------------------------------------------------

WORD = st.text(alphabet=st.sampled_from(list("abz Ü#:,\"'")), min_size=1, max_size=6)
ENTRY = st.tuples(WORD, st.integers(-5, 99), st.booleans(), st.booleans(), st.booleans())


def written_yaml(entries, ending):
    """A deck's YAML with a comment, a list of cards (each in braces or a key a line, with
    or without a comment after it and above it), and a key after the list: its text and
    each entry's (line, column) and span."""
    lines, places, spans = ["name: test  # the deck", "cards:", "  # the cards"], [], []
    for name, power, flow, comment, above in entries:
        if above:
            lines.append(f"  # above {len(places)}")
        first = len(ending.join(lines)) + len(ending)
        said = json.dumps(name, ensure_ascii=False)
        if flow:
            lines.append(f"  - {{name: {said}, power: {power}}}")
        else:
            lines += [f"  - name: {said}", f"    power: {power}"]
        if comment:
            lines[-1] += "   # note"
        places.append((len(lines) - (1 if flow else 2) + 1, 5))
        spans.append((first, len(ending.join(lines)) + len(ending)))
    lines.append("size: poker")
    return ending.join(lines) + ending, places, spans


@settings(max_examples=60, deadline=None)  # each example reads the file a dozen times
@given(st.lists(ENTRY, min_size=2, max_size=5), st.sampled_from(["\n", "\r\n"]), st.data())
def test_a_yaml_card_removed_or_added_keeps_comments_and_the_other_entries_bytes(
        entries, ending, data):
    text, places, spans = written_yaml(entries, ending)
    old = text.encode()
    loaded = yaml.safe_load(text)
    index = data.draw(st.integers(0, len(entries) - 1))
    line, col = places[index]
    start, end = spans[index]
    deleted = delete_yaml_entry(old, line, col).decode()
    assert deleted == text[:start] + text[end:]  # the comment above it stays
    assert yaml.safe_load(deleted)["cards"] == loaded["cards"][:index] + \
        loaded["cards"][index + 1:]

    copied = copy_yaml_entry(old, line, col).decode()
    assert copied == text[:end] + text[start:end] + text[end:]
    assert delete_yaml_entry(copied.encode(), *_second(copied, places, spans, index)) == old

    values = {"name": data.draw(WORD), "power": 1}
    added = insert_yaml_entry(old, line, col, values).decode()
    assert added.startswith(text[:end]) and added.endswith(text[end:])
    assert yaml.safe_load(added)["cards"] == loaded["cards"][:index + 1] + [values] + \
        loaded["cards"][index + 1:]
    piece = added[end:len(added) - len(text) + end]
    assert ("{" in piece) == entries[index][2]  # in braces as the card before it
    new_line = text[:end].count("\n") + 1
    assert delete_yaml_entry(added.encode(), new_line, col) == old


def _second(copied, places, spans, index):
    """The line and column of the copy right after entry ``index``."""
    start, end = spans[index]
    line = copied[:end].count("\n") + 1
    above = copied[start:end].lstrip().startswith("#")  # its comment line came too
    return line + (1 if above else 0), 5


def test_a_yaml_card_in_brackets_or_alone_in_its_list_is_not_moved():
    with pytest.raises(NotRewritten, match="a list in brackets"):
        delete_yaml_entry(b"cards: [{name: A}, {name: B}]\n", 1, 9)
    with pytest.raises(NotRewritten, match="the only card of its list"):
        delete_yaml_entry(b"cards:\n  - {name: A}\n", 2, 5)
    with pytest.raises(NotRewritten):  # a copy would give its anchor twice
        copy_yaml_entry(b"cards:\n  - &a {name: A}\n  - *a\n", 2, 5)


# -- the endpoint: the same guard, the same checks ------------------------------------------

from starlette.testclient import TestClient  # noqa: E402

from cardkit.studio import edits  # noqa: E402
from cardkit.studio.images import Studio  # noqa: E402
from cardkit.studio.server import make_app  # noqa: E402

SPICE = b'Spice Jar,good,market,2,,stall,no,4,"When you buy it, draw a card.",Gew'


@pytest.fixture
def lantern(tmp_path) -> Path:
    """A copy of Lantern Market without its composition, which an added card breaks."""
    deck = tmp_path / "lantern-market"
    shutil.copytree(LANTERN, deck)
    text = (deck / "deck.yaml").read_text()
    start = text.index("composition:")
    (deck / "deck.yaml").write_text(text[:start] + text[text.index("# in English"):])
    return deck


def client_of(deck: Path, base="http://127.0.0.1:8719", **given) -> TestClient:
    return TestClient(make_app(Studio(deck / "deck.yaml"), **given), base_url=base)


def token_of(client) -> str:
    return client.get("/").text.split('name="cardkit-token" content="')[1].split('"')[0]


def asked(client, headers=(), token=None, **body):
    """A grid's request as the page sends it: its token, and the file's version."""
    if "card" in body and "version" not in body:
        state = client.get("/api/deck").json()
        body["version"] = state["files"].get(state["cards"][body["card"] - 1]["edit"]["file"])
    return client.post("/api/edit", json=body, headers={
        "X-Cardkit-Token": token_of(client) if token is None else token, **dict(headers)})


def test_add_duplicate_delete_and_undo_give_the_file_back_byte_for_byte(lantern):
    cards = lantern / "cards.csv"
    original = cards.read_bytes()
    client = client_of(lantern)
    lines = original.split(b"\n")

    added = asked(client, op="add", card=2)
    assert added.status_code == 200 and added.json()["card"] == 3
    assert cards.read_bytes() == b"\n".join(
        lines[:3] + [b"New card,good,market,2,,stall,,1,,,,"] + lines[3:])
    assert client.get("/api/deck").json()["cards"][2]["name"] == "New card"
    copied = asked(client, op="duplicate", card=1).json()
    assert copied["what"] == "the copy of #1"
    assert cards.read_bytes().split(b"\n")[1:3] == [lines[1], lines[1]]
    deleted = asked(client, op="delete", card=3).json()  # Silk Bolt twice, then Spice Jar
    assert SPICE not in cards.read_bytes() and deleted["card"] == 2
    edited = asked(client, card=1, field="cost", value="7")
    assert edited.json()["saved"] and cards.read_bytes().startswith(
        lines[0] + b"\nSilk Bolt,good,market,7,")

    for change in (edited.json(), deleted, copied, added.json()):
        undone = asked(client, op="undo", change=change["change"])
        assert undone.json()["undone"] == change["what"]
    assert cards.read_bytes() == original
    assert asked(client, op="undo", change=added.json()["change"]).status_code == 422


def test_an_undo_never_writes_over_a_later_change(lantern):
    cards = lantern / "cards.csv"
    client = client_of(lantern)
    added = asked(client, op="add", card=1).json()
    later = cards.read_bytes().replace(b"Night Watch", b"Night Guard")
    cards.write_bytes(later)
    answer = asked(client, op="undo", change=added["change"])
    assert answer.status_code == 409 and answer.json()["conflict"]
    assert cards.read_bytes() == later


def test_a_row_change_of_a_file_changed_since_is_refused(lantern):
    cards = lantern / "cards.csv"
    client = client_of(lantern)
    state = client.get("/api/deck").json()
    version = state["files"][state["cards"][0]["edit"]["file"]]
    changed = cards.read_bytes().replace(b"Storm", b"Gale")
    cards.write_bytes(changed)
    answer = asked(client, op="delete", card=1, version=version)
    assert answer.status_code == 409 and cards.read_bytes() == changed


def test_cards_drawn_from_another_version_are_not_changed(tmp_path):
    """An added card breaks Lantern Market's composition: the page keeps the last good
    cards, whose lines are the old file's. A change with the file's new version would
    land on the wrong row: it is refused, and undo still works."""
    deck = tmp_path / "lantern-market"
    shutil.copytree(LANTERN, deck)
    cards = deck / "cards.csv"
    original = cards.read_bytes()
    client = client_of(deck)
    added = asked(client, op="add", card=1).json()
    assert added["saved"]
    assert client.get("/api/deck").json()["broken"]
    after = cards.read_bytes()
    for body in ({"op": "delete", "card": 4}, {"card": 4, "field": "cost", "value": "9"}):
        answer = asked(client, version=added["version"], **body)
        assert answer.status_code == 422
        assert answer.json()["problem"]["what"] == edits.STALE_WHY
    assert cards.read_bytes() == after
    assert asked(client, op="undo", change=added["change"]).json()["saved"]
    assert cards.read_bytes() == original and not client.get("/api/deck").json()["broken"]


@pytest.mark.parametrize("headers, token", [({"Origin": "http://evil.example"}, None),
                                            ({"Sec-Fetch-Site": "cross-site"}, None),
                                            ({}, ""), ({}, "guessed")])
def test_another_sites_page_cannot_add_delete_or_undo(lantern, headers, token):
    cards = lantern / "cards.csv"
    before = cards.read_bytes()
    client = client_of(lantern)
    version = asked(client, op="add", card=1).json()  # the page's own change, undone below
    changed = cards.read_bytes()
    for body in ({"op": "delete", "card": 2}, {"op": "duplicate", "card": 2},
                 {"op": "add", "card": 2}, {"op": "undo", "change": version["change"]}):
        answer = asked(client, headers=headers, token=token, **body)
        assert answer.status_code == 403
    form = client.post("/api/edit", data={"op": "undo", "change": version["change"]},
                       headers={"X-Cardkit-Token": token_of(client)})
    assert form.status_code == 403
    assert cards.read_bytes() == changed
    assert asked(client, op="undo", change=version["change"]).json()["saved"]
    assert cards.read_bytes() == before


def test_a_row_change_names_no_path_and_a_network_studio_is_read_only(lantern, tmp_path):
    aside = tmp_path / "aside.csv"
    client = client_of(lantern)
    answer = asked(client, op="duplicate", card=2, file=str(aside), path=str(aside))
    assert answer.json()["saved"] and not aside.exists()
    assert asked(client, op="remove", card=2).status_code == 400
    network = client_of(lantern, "http://192.168.1.9:8719", listening="0.0.0.0")
    before = (lantern / "cards.csv").read_bytes()
    answer = asked(network, op="delete", card=2, token="")
    assert answer.status_code == 403 and "--allow-edit" in answer.json()["refused"]
    assert (lantern / "cards.csv").read_bytes() == before


def test_a_yaml_card_is_added_copied_and_deleted_keeping_the_comments(tmp_path):
    deck = tmp_path / "heroes"
    shutil.copytree(LANTERN, deck)
    text = (deck / "deck.yaml").read_text()
    text = text[:text.index("composition:")] + text[text.index("# in English"):]
    text = text.replace("cards:\n  from: cards.csv\n",
                        "cards:\n  # by hand\n  - {name: Ada, kind: good, cost: 3, art: stall, "
                        "back: market}  # keep me\n  - from: cards.csv  # the rest\n")
    (deck / "deck.yaml").write_text(text)
    client = client_of(deck)
    added = asked(client, op="add", card=1).json()
    assert (deck / "deck.yaml").read_text() == text.replace(
        "# keep me\n", "# keep me\n  - {name: New card, kind: good, cost: 3, art: stall, "
        "back: market}\n")
    copied = asked(client, op="duplicate", card=1).json()
    line = "  - {name: Ada, kind: good, cost: 3, art: stall, back: market}  # keep me\n"
    assert (deck / "deck.yaml").read_text().count(line) == 2
    deleted = asked(client, op="delete", card=1).json()
    assert deleted["saved"] and "# by hand\n" in (deck / "deck.yaml").read_text()
    for change in (deleted, copied, added):
        assert asked(client, op="undo", change=change["change"]).json()["saved"]
    assert (deck / "deck.yaml").read_text() == text


def test_generated_cards_are_not_added_to_or_deleted(tmp_path):
    deck = tmp_path / "bullet"
    shutil.copytree(ROOT / "decks" / "bullet", deck)
    before = (deck / "deck.yaml").read_bytes()
    client = client_of(deck)
    for op in ("add", "duplicate", "delete"):
        answer = asked(client, op=op, card=1)
        assert answer.status_code == 422
        assert answer.json()["problem"]["what"] == edits.PRODUCT_WHY
    assert (deck / "deck.yaml").read_bytes() == before


def test_a_value_that_reads_otherwise_in_braces_is_quoted():
    """':a' is a plain value on a line of its own, but not in braces: found by the
    property test above, and written in quotes rather than refused."""
    from cardkit.sources.rewrite import replace_yaml_value

    old = b"cards:\n  - {name: A, power: 1}\n  - name: B\n"
    assert replace_yaml_value(old, 2, 5, "name", ":a") == \
        b'cards:\n  - {name: ":a", power: 1}\n  - name: B\n'
    assert replace_yaml_value(old, 3, 5, "name", ":a") == \
        b"cards:\n  - {name: A, power: 1}\n  - name: :a\n"


def test_a_card_added_to_a_file_without_a_name_column_gets_the_columns_it_has(tmp_path):
    """The group names every card of the file: the new row has no name to write."""
    deck = tmp_path / "lantern-market"
    shutil.copytree(LANTERN, deck)
    text = (deck / "deck.yaml").read_text()
    text = text[:text.index("composition:")] + text[text.index("# in English"):]
    (deck / "deck.yaml").write_text(text.replace("cards:\n  from: cards.csv\n",
                                                 "cards:\n  name: Ware\n  from: cards.csv\n"))
    cards = deck / "cards.csv"
    rows = list(csv.reader(io.StringIO(cards.read_text(), newline="")))
    cards.write_text("\n".join(",".join(f'"{cell}"' if "," in cell else cell
                                        for cell in row[1:]) for row in rows) + "\n")
    client = client_of(deck)
    assert asked(client, op="add", card=1).json()["saved"]
    assert cards.read_text().split("\n")[2] == "good,market,3,,stall,,1,,,,"
