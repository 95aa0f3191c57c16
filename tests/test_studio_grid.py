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


@settings(max_examples=150, deadline=None)
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
