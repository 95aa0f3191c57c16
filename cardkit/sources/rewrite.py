"""One value of a deck's own file changed in place: a CSV cell, a YAML card's value.

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
    try:
        records = list(_records(text, separator))
    except csv.Error as error:
        raise NotRewritten(f"the file is no longer valid CSV ({error})") from None
    header = next((cells for _, _, _, cells in records
                   if any(not is_empty(cell) for cell in cells)), [])
    names = [cell.strip() for cell in header]
    if column not in names:
        raise NotRewritten(f"the file has no column '{column}'",
                           f"add a column named '{column}' to give each card its own")
    row = next((record for record in records if record[0] == line), None)
    if row is None or row[3] is header:
        raise NotRewritten(f"no row starts on line {line}")
    return names.index(column), row


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


# -- YAML ------------------------------------------------------------------------------

def mappings(text: str):
    """Each mapping node of a YAML text, once (an alias's node is its anchor's)."""
    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError as error:
        raise NotRewritten(f"the file is no longer valid YAML ({error.problem})") from None
    stack, seen = [root], set()
    while stack:
        node = stack.pop()
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, yaml.MappingNode):
            yield node
            stack.extend(part for pair in node.value for part in pair)
        elif isinstance(node, yaml.SequenceNode):
            stack.extend(node.value)


def starts_at(node, line: int, col: int) -> bool:
    """Whether ``node`` is written from ``line`` and ``col`` (counted from 1)."""
    return (node.start_mark.line + 1, node.start_mark.column + 1) == (line, col)


def _node_at(text: str, line: int, col: int):
    """The mapping node written at ``line`` and ``col`` (counted from 1) of a YAML text."""
    found = next((node for node in mappings(text) if starts_at(node, line, col)), None)
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
    if plain and "\n" not in plain and not (flow and any(c in plain for c in ",[]{}#")):
        return plain
    return dumped('"')


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
