"""One value of a deck's own file changed in place: a CSV cell, a YAML card's value; or
one card added after another, copied or removed: a CSV row, a YAML card's entry.

The studio writes a designer's edit back into the file the card came from, and the file
stays theirs: only the bytes of that one value change. Its quoting, line endings, column
order, comments, key order and every other byte stay as they were. So the value's span
is found with the format's own library (the csv module's reader, PyYAML's node marks),
only that span is replaced by the new value written by the library, and the result is
read again: unless it reads as the old file with that one value changed, nothing is
written (:class:`NotRewritten` says why).
"""

from __future__ import annotations

import codecs
import csv
import io
import math
import re

import yaml

from .spreadsheet import is_empty

# a line and its ending, as the csv module's reader counts lines (\r\n, \r or \n)
_LINES = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$")


class NotRewritten(ValueError):
    """The value cannot be changed in place: what is in the way, and what to do."""

    def __init__(self, what: str, fix: str = "change it in your editor"):
        super().__init__(f"{what}; {fix}")
        self.what, self.fix = what, fix


def _text_of(data: bytes) -> tuple[bytes, str]:
    """A file's byte order mark (or b'') and its text."""
    mark = codecs.BOM_UTF8 if data.startswith(codecs.BOM_UTF8) else b""
    try:
        return mark, data[len(mark):].decode("utf-8")
    except UnicodeDecodeError:
        raise NotRewritten("the file is not UTF-8 text") from None


def _rows(text: str, separator: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text, newline=""), delimiter=separator, strict=True))


def _records(text: str, separator: str):
    """Each record of a CSV text: (the line it starts on, its start and end offsets
    without its line ending, its cells), blank lines included as the reader reads them."""
    lines = _LINES.findall(text)
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line))
    reader = csv.reader(iter(lines), delimiter=separator, strict=True)
    consumed = 0
    for cells in reader:
        first, consumed = consumed, reader.line_num
        end = offsets[consumed]
        ending = re.search(r"(\r\n|\r|\n)$", lines[consumed - 1])
        yield first + 1, offsets[first], end - (len(ending.group()) if ending else 0), cells


def _one_cell(piece: str, separator: str) -> list[str] | None:
    """The cells ``piece`` reads as on its own (None when it is no whole record)."""
    if piece == "":
        return [""]
    try:
        rows = _rows(piece, separator)
    except csv.Error:
        return None
    return rows[0] if len(rows) == 1 else None


def _cell_spans(text: str, start: int, end: int, cells: list, separator: str) -> list:
    """The (start, end) offsets of each cell of the record between ``start`` and ``end``:
    each cell's span is the shortest stretch up to a separator that reads as that cell
    alone (a separator inside quotes does not end a cell)."""
    spans, begin = [], start
    for index, cell in enumerate(cells):
        if index == len(cells) - 1:
            candidates = [end]
        else:
            candidates = [found.start() for found in
                          re.finditer(re.escape(separator), text[begin:end])]
            candidates = [begin + at for at in candidates]
        for stop in candidates:
            if _one_cell(text[begin:stop], separator) == [cell]:
                spans.append((begin, stop))
                begin = stop + 1
                break
        else:
            raise NotRewritten(f"cell {index + 1} of the row could not be found")
    return spans


def _written_cell(value: str, separator: str, quoted: bool) -> str:
    """``value`` as one CSV cell, written by the csv module: in quotes if the old cell was,
    or if it needs them."""
    if value == "" and not quoted:
        return ""
    out = io.StringIO()
    # ending "\r\n": a cell with either line break is quoted
    csv.writer(out, delimiter=separator, lineterminator="\r\n",
               quoting=csv.QUOTE_ALL if quoted else csv.QUOTE_MINIMAL).writerow([value])
    return out.getvalue()[:-2]


def csv_cell(data: bytes, separator: str, line: int, column: str) -> str | None:
    """The text of ``column``'s cell in the row that starts on ``line`` (None when the row
    has no such cell)."""
    _, text = _text_of(data)
    found = _find(text, separator, line, column)
    index, (_, _, _, cells) = found
    return cells[index] if index < len(cells) else ""


def _find(text: str, separator: str, line: int, column: str):
    """(the column's index, the record of the row starting at ``line``)."""
    records, names, at = _located_row(text, separator, line)
    if column not in names:
        raise NotRewritten(f"the file has no column '{column}'",
                           f"add a column named '{column}' to give each card its own")
    return names.index(column), records[at]


def _located_row(text: str, separator: str, line: int) -> tuple[list, list, int]:
    """The records of a CSV text, its header's column names, and the index among the
    records of the row (below the header) that starts on ``line``."""
    try:
        records = list(_records(text, separator))
    except csv.Error as error:
        raise NotRewritten(f"the file is no longer valid CSV ({error})") from None
    header = next((at for at, (_, _, _, cells) in enumerate(records)
                   if any(not is_empty(cell) for cell in cells)), len(records))
    names = [cell.strip() for cell in records[header][3]] if records[header:] else []
    at = next((at for at, record in enumerate(records) if record[0] == line), None)
    if at is None or at <= header:
        raise NotRewritten(f"no row starts on line {line}")
    return records, names, at


def replace_csv_cell(data: bytes, separator: str, line: int, column: str,
                     value: str) -> bytes:
    """``data`` (a CSV file's bytes) with the cell of ``column`` in the row starting on
    ``line`` holding ``value``, every other byte as it was."""
    mark, text = _text_of(data)
    index, (_, start, end, cells) = _find(text, separator, line, column)
    if index < len(cells):
        begin, stop = _cell_spans(text, start, end, cells, separator)[index]
        quoted = text[begin:stop].startswith('"')
        new = text[:begin] + _written_cell(value, separator, quoted) + text[stop:]
    else:  # a short row: the cells up to the column are added
        new = text[:end] + separator * (index - len(cells) + 1) + \
            _written_cell(value, separator, False) + text[end:]
    before, after = _rows(text, separator), _rows(new, separator)
    row = next(number for number, record in enumerate(_records(text, separator))
               if record[1] == start)
    expected = [list(cells) for cells in before]
    expected[row] = expected[row] + [""] * (index + 1 - len(expected[row]))
    expected[row][index] = value
    if after != expected:
        raise NotRewritten("the new cell would change more of the file than that cell")
    return mark + new.encode("utf-8")


# -- rows: a card added after another, copied, or removed ------------------------------
# The studio's grid adds, copies and removes whole cards the same way: the row's (or the
# YAML entry's) span is found with the library, only bytes at that place are added or
# taken away, and the result must read as the old file with that one card more or less.

def _ending_after(text: str, end: int, following: int) -> str:
    """The line ending that follows a row or entry ending at ``end`` (the next one
    starting at ``following``), else the file's first, else a newline."""
    if following > end:
        return text[end:following]
    found = re.search(r"\r\n|\r|\n", text)
    return found.group() if found else "\n"


def _inserted(text: str, end: int, following: int, piece: str) -> str:
    """``text`` with ``piece`` (a row or entry, without its line ending) after the one
    ending at ``end``: a file without a last line ending keeps having none."""
    ending = _ending_after(text, end, following)
    if following > end:
        return text[:following] + piece + ending + text[following:]
    return text[:end] + ending + piece + text[end:]


def _csv_row(data: bytes, separator: str, line: int):
    """(the byte order mark, the text, its records, the header's names, the index of the
    row starting on ``line``, where the record after it starts) of a CSV file."""
    mark, text = _text_of(data)
    records, names, at = _located_row(text, separator, line)
    following = records[at + 1][1] if at + 1 < len(records) else len(text)
    return mark, text, records, names, at, following


def _checked_rows(mark: bytes, text: str, new: str, separator: str, expected) -> bytes:
    if _rows(new, separator) != expected(_rows(text, separator)):
        raise NotRewritten("the change would change more of the file than that row")
    return mark + new.encode("utf-8")


def csv_row(data: bytes, separator: str, line: int) -> dict[str, str]:
    """The cells of the row starting on ``line`` by their column's name (a short row's
    missing cells are empty)."""
    _, _, records, names, at, _ = _csv_row(data, separator, line)
    cells = records[at][3]
    return {name: cells[index] if index < len(cells) else "" for index, name in enumerate(names)
            if name}


def copy_csv_row(data: bytes, separator: str, line: int) -> bytes:
    """``data`` (a CSV file's bytes) with the row starting on ``line`` written again,
    byte for byte, right after it."""
    mark, text, records, _, at, following = _csv_row(data, separator, line)
    _, start, end, _ = records[at]
    new = _inserted(text, end, following, text[start:end])
    return _checked_rows(mark, text, new, separator,
                         lambda rows: rows[:at + 1] + [rows[at]] + rows[at + 1:])


def insert_csv_row(data: bytes, separator: str, line: int, values: dict) -> bytes:
    """``data`` with a new row right after the row starting on ``line``: ``values`` by
    column name (the other cells empty), in the file's line endings and column order,
    each cell in quotes where it must be, or where that row has one that need not be
    (the file quotes that column), or every cell when that row quotes every cell."""
    mark, text, records, names, at, following = _csv_row(data, separator, line)
    _, start, end, cells = records[at]
    unknown = [name for name in values if name not in names]
    if unknown:
        raise NotRewritten(f"the file has no column '{unknown[0]}'",
                           f"add a column named '{unknown[0]}'")
    # a cell in quotes that needs none says the file quotes that column (or every cell)
    quoted = [text[begin:stop].startswith('"') and (
        not _written_cell(cell, separator, False).startswith('"') or all(
            text[first:last].startswith('"') for first, last in spans))
        for spans in [_cell_spans(text, start, end, cells, separator)]
        for (begin, stop), cell in zip(spans, cells)]
    width = max([len(cells)] + [names.index(name) + 1 for name, value in values.items()
                                if value != ""])
    row = [values.get(names[index], "") if index < len(names) else "" for index in range(width)]
    piece = separator.join(_written_cell(value, separator, index < len(quoted) and
                                         quoted[index]) for index, value in enumerate(row))
    new = _inserted(text, end, following, piece)
    return _checked_rows(mark, text, new, separator,
                         lambda rows: rows[:at + 1] + [row] + rows[at + 1:])


def delete_csv_row(data: bytes, separator: str, line: int) -> bytes:
    """``data`` without the row starting on ``line`` (and its line ending); every other
    byte stays."""
    mark, text, records, _, at, following = _csv_row(data, separator, line)
    _, start, end, _ = records[at]
    if following > end:  # the row and its line ending go
        new = text[:start] + text[following:]
    else:  # the last row, without a line ending: the one before it loses its own
        new = text[:records[at - 1][2]] + text[end:]
    return _checked_rows(mark, text, new, separator, lambda rows: rows[:at] + rows[at + 1:])


def _last_end(node) -> int:
    """Where the last value written inside ``node`` ends (a block list or mapping ends
    at the next token, past comments and blank lines: its last value does not)."""
    if isinstance(node, yaml.ScalarNode) or node.flow_style or not node.value:
        return node.end_mark.index
    last = node.value[-1]
    return _last_end(last[1] if isinstance(node, yaml.MappingNode) else last)


def _entry_span(text: str, line: int, col: int):
    """(the entry's mapping node, the list holding it, its index there, the start of the
    entry's first line, the end of its last line before the line ending, where the next
    line starts) of the card written at ``line``, ``col`` as an entry of a block list."""
    node, listed, index = _located_entry(text, line, col)
    dash = len(text[:node.start_mark.index].rstrip(" \t\r\n")) - 1
    start = text.rfind("\n", 0, max(dash, 0)) + 1
    start = max(start, text.rfind("\r", 0, max(dash, 0)) + 1)
    if listed is None or listed.flow_style or dash < 0 or text[dash] != "-" \
            or text[start:dash].strip(" ") != "":
        raise NotRewritten("this card is not written as an entry of a list of its own lines "
                           "(a list in brackets, or a card that is not in a list)")
    end = _last_end(node)
    if text[end - 1:end] in ("\n", "\r"):  # a block of text ends with its line break
        end -= 2 if text[end - 2:end] == "\r\n" else 1
    else:
        rest = re.match(r"[^\r\n]*", text[end:]).group()
        if not re.fullmatch(r"[ \t]*(#.*)?", rest):
            raise NotRewritten("something else is written on the card's last line")
        end += len(rest)
    following = end + len(re.match(r"\r\n|\r|\n|", text[end:]).group())
    return node, listed, index, start, end, following


def _checked_yaml(mark: bytes, text: str, new: str, listed, index: int, expected) -> bytes:
    """``new`` as bytes, if it reads as ``text`` with the list that held the card at
    ``index`` changed to ``expected(old list)`` and nothing else changed."""
    try:
        old_data, new_data = yaml.safe_load(text), yaml.safe_load(new)
    except yaml.YAMLError:
        raise NotRewritten("the change would break the file") from None
    changed = _differences(old_data, new_data)
    if len(changed) != 1:
        raise NotRewritten("the change would change more of the file than that card")
    before, after = old_data, new_data
    for step in changed[0]:
        before, after = before[step], after[step]
    if not isinstance(before, list) or len(before) != len(listed.value) or \
            after != expected(before):
        raise NotRewritten("the change would change more of the file than that card")
    return mark + new.encode("utf-8")


def copy_yaml_entry(data: bytes, line: int, col: int) -> bytes:
    """``data`` (a YAML file's bytes) with the card written at ``line``, ``col`` (an entry
    of a block list) written again, byte for byte with its comments, right after it."""
    mark, text = _text_of(data)
    _, listed, index, start, end, following = _entry_span(text, line, col)
    new = _inserted(text, end, following, text[start:end])
    return _checked_yaml(mark, text, new, listed, index,
                         lambda old: old[:index + 1] + [old[index]] + old[index + 1:])


def insert_yaml_entry(data: bytes, line: int, col: int, values: dict) -> bytes:
    """``data`` with a new card of ``values`` (key -> value) right after the card written
    at ``line``, ``col``, written as that one is (in braces or a key a line)."""
    mark, text = _text_of(data)
    node, listed, index, start, end, following = _entry_span(text, line, col)
    dash = text.index("-", start)
    pairs = [f"{key}: {_scalar(value, None, bool(node.flow_style))}"
             for key, value in values.items()]
    if node.flow_style or not pairs:
        piece = text[start:dash + 1] + " {" + ", ".join(pairs) + "}"
    else:
        indent = " " * (node.start_mark.column - (dash - start) - 1)
        ending = _ending_after(text, end, following)
        piece = text[start:dash + 1] + indent + (ending + " " * node.start_mark.column).join(
            pairs)
    new = _inserted(text, end, following, piece)
    return _checked_yaml(mark, text, new, listed, index,
                         lambda old: old[:index + 1] + [dict(values)] + old[index + 1:])


def delete_yaml_entry(data: bytes, line: int, col: int) -> bytes:
    """``data`` without the card written at ``line``, ``col``: its lines, from its dash to
    its last value and that line's comment, go; every other byte stays (the comments
    above it too)."""
    mark, text = _text_of(data)
    _, listed, index, start, end, following = _entry_span(text, line, col)
    if len(listed.value) == 1:
        raise NotRewritten("this is the only card of its list, which cannot be left empty",
                           "delete the list in your editor")
    if following == end and start > 0:  # the last line, without a line ending: the
        start -= 2 if text[start - 2:start] == "\r\n" else 1  # one before loses its own
    new = text[:start] + text[following:]
    return _checked_yaml(mark, text, new, listed, index,
                         lambda old: old[:index] + old[index + 1:])


# -- YAML ------------------------------------------------------------------------------

def mappings(text: str):
    """Each mapping node of a YAML text once (an alias's node is its anchor's), with the
    list holding it and its index there (None, -1 when no list holds it)."""
    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError as error:
        raise NotRewritten(f"the file is no longer valid YAML ({error.problem})") from None
    stack, seen = [(root, None, -1)], set()
    while stack:
        node, parent, index = stack.pop()
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, yaml.MappingNode):
            yield node, parent, index
            stack.extend((part, None, -1) for pair in node.value for part in pair)
        elif isinstance(node, yaml.SequenceNode):
            stack.extend((item, node, at) for at, item in enumerate(node.value))


def starts_at(node, line: int, col: int) -> bool:
    """Whether ``node`` is written from ``line`` and ``col`` (counted from 1)."""
    return (node.start_mark.line + 1, node.start_mark.column + 1) == (line, col)


def _node_at(text: str, line: int, col: int):
    """The mapping node written at ``line`` and ``col`` (counted from 1) of a YAML text."""
    return _located_entry(text, line, col)[0]


def _located_entry(text: str, line: int, col: int):
    """The mapping node written at ``line`` and ``col`` (counted from 1) of a YAML text,
    and the list holding it with its index there (None, -1 when no list holds it)."""
    found = next((entry for entry in mappings(text) if starts_at(entry[0], line, col)), None)
    if found is None:
        raise NotRewritten(f"no card is written at line {line}, column {col} any more")
    return found


def _scalar(value, style: str | None, flow: bool) -> str:
    """``value`` written as one YAML scalar on one line, by PyYAML: in the old value's
    quotes, plain where that reads back the same, else in double quotes."""
    def dumped(chosen):
        text = yaml.safe_dump(value, default_style=chosen, width=math.inf,
                              allow_unicode=True, explicit_end=False)
        return text[:-1] if text.endswith("\n") else text

    if not isinstance(value, str):
        return dumped(None).removesuffix("\n...")
    if style in ('"', "'"):
        return dumped(style)
    plain = dumped(None).removesuffix("\n...")
    if plain and "\n" not in plain and _reads_as(plain, value, flow):
        return plain
    return dumped('"')


def _reads_as(written: str, value, flow: bool) -> bool:
    """Whether ``written`` reads back as ``value`` where it goes: a plain scalar in
    braces ends at a comma and may not start as ':a' does."""
    try:
        read = yaml.safe_load(("{key: %s}" if flow else "key: %s") % written)
    except yaml.YAMLError:
        return False
    return read == {"key": value} and type(read["key"]) is type(value)


def _differences(old, new, path=()) -> list:
    """The paths at which two loaded YAML documents differ."""
    if isinstance(old, dict) and isinstance(new, dict) and list(old) == list(new):
        return [found for key in old for found in _differences(old[key], new[key],
                                                                 path + (key,))]
    if isinstance(old, list) and isinstance(new, list) and len(old) == len(new):
        return [found for index, (a, b) in enumerate(zip(old, new))
                for found in _differences(a, b, path + (index,))]
    same = old == new and type(old) is type(new)
    return [] if same else [path]


def yaml_value(data: bytes, line: int, col: int, key: str):
    """The value of ``key`` in the mapping written at ``line``, ``col`` (None when the
    mapping has no such key)."""
    _, text = _text_of(data)
    node = _entry(text, line, col, key)
    return None if node is None else yaml.constructor.SafeConstructor().construct_object(node)


def yaml_keys(data: bytes, line: int, col: int) -> list[str]:
    """The keys of the mapping written at ``line``, ``col``."""
    _, text = _text_of(data)
    return [key.value for key, _ in _node_at(text, line, col).value
            if isinstance(key, yaml.ScalarNode)]


def _entry(text: str, line: int, col: int, key: str):
    """The value node of ``key`` in the mapping at ``line``, ``col`` (None if absent)."""
    mapping = _node_at(text, line, col)
    for key_node, value_node in mapping.value:
        if isinstance(key_node, yaml.ScalarNode) and key_node.value == key:
            between = text[key_node.end_mark.index:value_node.start_mark.index]
            if not isinstance(value_node, yaml.ScalarNode) or \
                    not re.fullmatch(r"[ \t]*:[ \t]*(#[^\n]*)?[\r\n \t]*", between):
                raise NotRewritten(f"'{key}' is not written as a plain value here (an "
                                   "anchor, an alias or a list)")
            return value_node
    return None


def replace_yaml_value(data: bytes, line: int, col: int, key: str, value) -> bytes:
    """``data`` (a YAML file's bytes) with ``key`` of the mapping written at ``line``,
    ``col`` set to ``value``, every other byte as it was (comments, key order, quoting)."""
    mark, text = _text_of(data)
    node = _entry(text, line, col, key)
    if node is None:
        raise NotRewritten(f"this card does not write '{key}' itself",
                           f"add '{key}:' to the card in your editor")
    begin, stop = node.start_mark.index, node.end_mark.index
    if node.style in ("|", ">"):  # a block's span takes in its line breaks: they stay
        stop = begin + len(text[begin:stop].rstrip("\r\n"))
        style = '"'
    else:
        style = node.style
    flow = text[:begin].rstrip().endswith((",", "{", "[")) or \
        _node_at(text, line, col).flow_style
    old = yaml.constructor.SafeConstructor().construct_object(node)
    if old == value and type(old) is type(value):
        return data  # as it was: nothing to write
    new = text[:begin] + _scalar(value, style, flow) + text[stop:]
    try:
        old_data, new_data = yaml.safe_load(text), yaml.safe_load(new)
    except yaml.YAMLError:
        raise NotRewritten(f"the new value of '{key}' would break the file") from None
    changed = _differences(old_data, new_data)
    if len(changed) != 1 or not _holds(new_data, changed[0], value):
        raise NotRewritten(f"the new value of '{key}' would change more of the file than "
                           "that value (it may be shared through an anchor)")
    return mark + new.encode("utf-8")


def _holds(document, path: tuple, value) -> bool:
    for step in path:
        document = document[step]
    return document == value and type(document) is type(value)
