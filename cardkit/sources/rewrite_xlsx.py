"""One cell of a workbook's sheet changed in place (issue 59): an XLSX stays the
designer's, every other cell and format as it was.

A spreadsheet program's load and save would rewrite the whole workbook (and a library's
drops what it does not model), so the workbook is changed as the CSV and YAML files are
(:mod:`.rewrite`): an .xlsx is a zip archive of XML parts; every part but the sheet's is
copied as it was (the same bytes, in the same order, under the same names and dates), and
in the sheet's XML only the bytes of that one ``<c>`` element are replaced. The element is
found by a real XML parse (expat, which tells each element's byte offset, so the rest of
the part keeps its bytes: its namespace prefixes, quotes and declarations included); the
sheet's part is found through the package's relationships and the workbook's sheet list.

The new value is written into the cell itself: text as an inline string (``t="inlineStr"``:
the workbook's shared strings, which other cells point into by number, stay as they are,
but for the shared strings' optional ``count`` of the cells pointing into them, one less
when the cell pointed into them), a number as ``<v>``, a flag as a boolean; the cell keeps
its style (``s``). A formula cell
is not changed, and neither is a workbook with formulas: cardkit reads the results the
spreadsheet program saved with them, and they would not follow the change. Rows are not
added or deleted: every later cell, merged range and formula would have to move.

The result is read again by calamine, the cards' own reader: unless every other cell reads
as it did and the changed one as the new value, nothing is written
(:class:`~.rewrite.NotRewritten` says why).
"""

from __future__ import annotations

import io
import posixpath
import re
import zipfile
from xml.etree import ElementTree
from xml.parsers import expat
from xml.sax.saxutils import escape, quoteattr

from .rewrite import NotRewritten
from .spreadsheet import (MAX_UNPACKED, READ_MEMORY, READ_SECONDS, _workbook_cells,
                          cell_value, column_index, column_letter, is_empty)

# the spreadsheet and relationship namespaces, Transitional and Strict Open XML
MAIN = ("http://schemas.openxmlformats.org/spreadsheetml/2006/main",
        "http://purl.oclc.org/ooxml/spreadsheetml/main")
RELATIONSHIPS = ("http://schemas.openxmlformats.org/officeDocument/2006/relationships",
                 "http://purl.oclc.org/ooxml/officeDocument/relationships")
PACKAGE_RELATIONSHIPS = "http://schemas.openxmlformats.org/package/2006/relationships"
MOST_TEXT = 32_767  # characters in a cell: what Excel holds
IN_PROGRAM = "change it in your spreadsheet program"
_REFERENCE = re.compile(r"\$?([A-Za-z]{1,3})\$?([0-9]+)")
# a control character XML cannot hold, written as the format escapes it (_x0001_); and
# text that reads as such an escape, whose '_' is escaped so that it stays as written
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f]|_(?=x[0-9A-Fa-f]{4}_)")
_NO_CHARACTER = re.compile("[\ud800-\udfff\ufffe\uffff]")  # not even so


def workbook_rows(data: bytes, sheet: str) -> list[list]:
    """The rows of cells of the workbook's (``data``) sheet ``sheet`` as the cards'
    reader reads them (calamine, in a child process under its limits): row 1 first,
    column A first."""
    from ..common.processes import JobFailed, LimitExceeded, run_limited

    try:
        _, chosen, rows = run_limited(_workbook_cells, (data, sheet), READ_SECONDS,
                                      READ_MEMORY)
    except (JobFailed, LimitExceeded):
        raise NotRewritten("the workbook cannot be read any more", IN_PROGRAM) from None
    if chosen is None:
        raise NotRewritten(f"the workbook has no sheet named '{sheet}' any more", IN_PROGRAM)
    return rows


def column_of(rows: list[list], name: str) -> int:
    """The 0-based index of the column named ``name`` in the first row that is not empty
    (the names row, as the cards' reader takes it)."""
    header = next((row for row in rows if any(not is_empty(cell) for cell in row)), [])
    for index, cell in enumerate(header):
        if str(cell).strip() == name:
            return index
    raise NotRewritten(f"the sheet has no column '{name}'", f"add a column named '{name}'")


def xlsx_cell(data: bytes, sheet: str, line: int, name: str) -> str | None:
    """The text of the cell of column ``name`` in row ``line`` of the sheet, as the cards'
    reader reads it (None when there is no such cell)."""
    try:
        rows = workbook_rows(data, sheet)
        column = column_of(rows, name)
    except NotRewritten:
        return None
    if line > len(rows) or column >= len(rows[line - 1]):
        return None if line > len(rows) else ""
    return cell_value("text", rows[line - 1][column])


def replace_xlsx_cell(data: bytes, sheet: str, line: int, name: str, value) -> bytes:
    """``data`` (an XLSX workbook's bytes) with the cell of column ``name`` in row ``line``
    of ``sheet`` set to ``value`` (text, a number, a flag, or None for an empty cell),
    every other byte of the sheet's XML and every other part of the workbook as it was."""
    rows = workbook_rows(data, sheet)
    column = column_of(rows, name)
    if not 0 < line <= len(rows) or all(is_empty(cell) for cell in rows[line - 1]):
        raise NotRewritten(f"row {line} of the sheet holds no card any more")
    old_cell = rows[line - 1][column] if column < len(rows[line - 1]) else ""
    if _same(old_cell, _as_read(value)):
        return data  # as it was: nothing to write
    with _archive(data) as archive:
        part, parts = _sheet_part(archive, sheet)
        # a formula cell: refused
        new_xml, was_shared = _spliced(archive.read(part), line, column, value)
        if any(_holds_formula(archive, other) for other in parts):
            raise NotRewritten(*_FORMULAS)
        changed = {part: new_xml}
        shared = _shared_strings_part(archive) if was_shared else None
        if shared is not None:
            changed[shared] = _one_reference_less(archive, shared)
        new = _rezipped(archive, changed)
    _check(rows, workbook_rows(new, sheet), line - 1, column, _as_read(value))
    return new


_FORMULAS = ("the workbook has formulas, and cardkit reads the results your spreadsheet "
             "program saved with them: they would not follow this change", IN_PROGRAM)


def _archive(data: bytes) -> zipfile.ZipFile:
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, ValueError):
        raise NotRewritten("the workbook is not an XLSX archive any more", IN_PROGRAM) \
            from None
    if sum(member.file_size for member in archive.infolist()) > MAX_UNPACKED:
        raise NotRewritten(f"the workbook unpacks to more than {MAX_UNPACKED // 1_000_000} "
                           "MB", IN_PROGRAM)
    return archive


def _read_xml(archive: zipfile.ZipFile, part: str) -> ElementTree.Element:
    try:
        return ElementTree.fromstring(archive.read(part))
    except (KeyError, ElementTree.ParseError):
        raise NotRewritten(f"the workbook's part {part} is missing or damaged", IN_PROGRAM) \
            from None


def _targets(archive: zipfile.ZipFile, part: str) -> dict[str, tuple[str, str]]:
    """The relationships of the package's ``part`` ('' for the package): each one's id
    -> (its type, the part it points to)."""
    folder, base = posixpath.split(part)
    found = {}
    for relationship in _read_xml(archive, posixpath.join(folder, "_rels", base + ".rels")):
        if relationship.tag != f"{{{PACKAGE_RELATIONSHIPS}}}Relationship" or \
                relationship.get("TargetMode") == "External":
            continue
        target = relationship.get("Target", "")
        target = target[1:] if target.startswith("/") else posixpath.join(folder, target)
        found[relationship.get("Id")] = (relationship.get("Type", ""),
                                         posixpath.normpath(target))
    return found


def _workbook_part(archive: zipfile.ZipFile) -> str:
    """The zip member holding the workbook part (its sheet list)."""
    workbook = next((target for kind, target in _targets(archive, "").values()
                     if kind.endswith("/officeDocument")), None)
    if workbook is None:
        raise NotRewritten("the workbook names no workbook part", IN_PROGRAM)
    return workbook


def _shared_strings_part(archive: zipfile.ZipFile) -> str | None:
    """The zip member holding the workbook's shared strings, if it has them."""
    return next((target for kind, target in _targets(archive, _workbook_part(archive))
                 .values() if kind.endswith("/sharedStrings")), None)


def _sheet_part(archive: zipfile.ZipFile, sheet: str) -> tuple[str, list[str]]:
    """The zip member holding the worksheet named ``sheet``, and those of every worksheet."""
    workbook = _workbook_part(archive)
    targets = _targets(archive, workbook)
    parts, wanted = [], None
    for main in MAIN:
        for entry in _read_xml(archive, workbook).iter(f"{{{main}}}sheet"):
            kind, target = next((targets[entry.get(f"{{{ns}}}id")] for ns in RELATIONSHIPS
                                 if entry.get(f"{{{ns}}}id") in targets), ("", ""))
            if kind.endswith("/worksheet"):
                parts.append(target)
                if entry.get("name") == sheet:
                    wanted = target
    if wanted is None:
        raise NotRewritten(f"the workbook has no worksheet named '{sheet}' any more",
                           IN_PROGRAM)
    return wanted, parts


def _holds_formula(archive: zipfile.ZipFile, part: str) -> bool:
    """Whether the worksheet ``part`` has a formula (an ``<f>`` element)."""
    class Found(Exception):
        pass

    def started(name, attributes):
        if name.split(" ")[:2] in ([main, "f"] for main in MAIN):
            raise Found
    parser = _parser()
    parser.StartElementHandler = started
    try:
        parser.Parse(archive.read(part), True)
    except Found:
        return True
    except (KeyError, expat.ExpatError):
        raise NotRewritten(f"the workbook's part {part} is missing or damaged", IN_PROGRAM) \
            from None
    return False


def _parser(what: str = "the sheet's XML"):
    """An expat parser that names elements 'namespace local prefix' and refuses a DTD
    (no entity of a file's own is expanded) in ``what`` it reads."""
    parser = expat.ParserCreate(namespace_separator=" ")
    parser.namespace_prefixes = True

    def declared(*_):
        raise NotRewritten(f"{what} declares a document type", IN_PROGRAM)
    parser.StartDoctypeDeclHandler = declared
    return parser


class _Cells:
    """The byte spans of one row's cells in a sheet's XML, found by expat as it parses:
    each cell's column, start and end offsets, attributes, and whether it has a formula;
    where a cell can be added (before ``</row>``), the row's own attributes and the
    columns' default styles."""

    def __init__(self, line: int):
        self.line, self.prefix = line, None
        self.cells: list[dict] = []
        self.row_end, self.row_attributes, self.column_styles = None, {}, []
        self._path: list[str] = []  # the local names of the open elements
        self._row = self._column = 0
        self._open = None  # the cell being read (in the row wanted)
        self._ended = None  # a cell just ended: its end is where the next event starts

    def start(self, parser, name, attributes):
        self.mark(parser)
        namespace, local, *prefix = name.split(" ")
        if namespace not in MAIN:
            self._path.append("")
            return
        self._path.append(local)
        if self._path[-2:] == ["cols", "col"] and "style" in attributes:
            self.column_styles.append((int(attributes.get("min", 0)),
                                       int(attributes.get("max", 0)), attributes["style"]))
        elif self._path[-2:] == ["sheetData", "row"]:
            self._row = int(attributes["r"]) if "r" in attributes else self._row + 1
            self._column = 0
            if self._row == self.line:
                self.row_attributes = attributes
        elif self._path[-2:] == ["row", "c"]:
            reference = _REFERENCE.fullmatch(attributes.get("r", ""))
            self._column = column_index(reference.group(1)) + 1 if reference \
                else self._column + 1  # 1-based, as the sheet's XML counts
            if reference and int(reference.group(2)) != self._row:
                raise NotRewritten(f"the cell {attributes['r']} is written in row {self._row}",
                                   IN_PROGRAM)
            if self._row == self.line:
                self.prefix = prefix[0] if prefix else ""
                self._open = {"column": self._column - 1, "start": parser.CurrentByteIndex,
                              "attributes": attributes, "named": bool(reference),
                              "formula": False}
                self.cells.append(self._open)
        elif local == "f" and self._open is not None:
            self._open["formula"] = True

    def end(self, parser, name):
        self.mark(parser)
        local = self._path.pop()
        if local == "c" and self._open is not None:
            self._ended, self._open = self._open, None
        elif local == "row" and self._row == self.line and self.row_end is None:
            self.row_end = parser.CurrentByteIndex

    def mark(self, parser, *_):
        """Any event: the cell that just ended ends where this event starts."""
        if self._ended is not None:
            self._ended["end"] = parser.CurrentByteIndex
            self._ended = None


def _row_cells(xml: bytes, line: int) -> _Cells:
    found = _Cells(line)
    parser = _parser()
    parser.StartElementHandler = lambda name, attributes: found.start(parser, name, attributes)
    parser.EndElementHandler = lambda name: found.end(parser, name)
    for handler in ("CharacterDataHandler", "CommentHandler", "ProcessingInstructionHandler",
                    "StartCdataSectionHandler", "DefaultHandlerExpand"):
        setattr(parser, handler, lambda *_: found.mark(parser))

    def declared(version, encoding, standalone):
        if encoding and encoding.lower().replace("-", "") != "utf8":
            raise NotRewritten(f"the sheet's XML is written in {encoding}, not UTF-8",
                               IN_PROGRAM)
    parser.XmlDeclHandler = declared
    try:
        parser.Parse(xml, True)
    except (expat.ExpatError, ValueError):
        raise NotRewritten("the sheet's XML is damaged", IN_PROGRAM) from None
    if found.row_end is None:
        raise NotRewritten(f"the sheet has no row {line} any more", IN_PROGRAM)
    return found


def _spliced(xml: bytes, line: int, column: int, value) -> tuple[bytes, bool]:
    """The sheet's XML with the cell at ``line``, ``column`` (0-based) written anew, its
    style kept, every other byte as it was; and whether the cell it replaced pointed into
    the shared strings (``t="s"``)."""
    found = _row_cells(xml, line)
    cell = next((cell for cell in found.cells if cell["column"] == column), None)
    if cell is not None:
        if cell["formula"]:
            raise NotRewritten("this cell holds a formula in the workbook, and cardkit reads "
                               "the result your spreadsheet program saved with it",
                               "change the formula in your spreadsheet program")
        style = cell["attributes"].get("s")
        start, end = cell["start"], cell["end"]
    else:  # an empty cell the XML does not write: added in its column's place
        later = [cell for cell in found.cells if cell["column"] > column]
        if any(not cell["named"] for cell in later):
            raise NotRewritten("the sheet's cells after this one do not name their columns",
                               IN_PROGRAM)
        start = end = later[0]["start"] if later else found.row_end
        style = _new_style(found, column)
    return xml[:start] + _cell_xml(found.prefix or "", f"{column_letter(column)}{line}",
                                   style, value) + xml[end:], \
        cell is not None and cell["attributes"].get("t") == "s"


# the shared strings' count attribute in their start tag, not uniqueCount nor a prefixed one
_COUNT = re.compile(rb"(?<![\w:.-])count(\s*=\s*)([\"'])([0-9]+)\2")


def _one_reference_less(archive: zipfile.ZipFile, part: str) -> bytes:
    """The shared strings' XML (``part``) with its ``count`` of the cells that point into
    it one less (a cell that did is an inline string now); every other byte as it was,
    ``uniqueCount`` and the strings too (other cells may point at the same one). As it was
    when it gives no count, or none above 0."""
    xml = archive.read(part)
    tag: dict = {}

    def started(name, attributes):
        if not tag:
            tag.update(start=parser.CurrentByteIndex, count=attributes.get("count"))
        elif "end" not in tag:
            tag["end"] = parser.CurrentByteIndex

    def other(*_):
        if tag and "end" not in tag:
            tag["end"] = parser.CurrentByteIndex

    parser = _parser("the shared strings' XML")
    parser.StartElementHandler = started
    for handler in ("EndElementHandler", "CharacterDataHandler", "CommentHandler",
                    "ProcessingInstructionHandler"):
        setattr(parser, handler, other)
    try:
        parser.Parse(xml, True)
    except expat.ExpatError:
        raise NotRewritten(f"the workbook's part {part} is damaged", IN_PROGRAM) from None
    count = tag.get("count") or ""
    if not count.isdigit() or int(count) == 0 or "end" not in tag:
        return xml
    start, end = tag["start"], tag["end"]
    found = _COUNT.search(xml, start, end)
    if found is None:
        return xml
    return xml[:found.start(3)] + str(int(count) - 1).encode() + xml[found.end(3):]


def _new_style(found: _Cells, column: int) -> str | None:
    """The style of a cell added to the row: the row's, when it sets one for its cells,
    else its column's (as a spreadsheet program gives a cell typed there)."""
    row = found.row_attributes
    if row.get("customFormat") in ("1", "true") and "s" in row:
        return row["s"]
    return next((style for first, last, style in found.column_styles
                 if first <= column + 1 <= last), None)


def _cell_xml(prefix: str, reference: str, style: str | None, value) -> bytes:
    """The ``<c>`` element of ``value`` at ``reference``, in the style ``style``."""
    name = f"{prefix}:" if prefix else ""
    attributes = f"r={quoteattr(reference)}" + (f" s={quoteattr(style)}" if style else "")
    if value is None or value == "":
        return f"<{name}c {attributes}/>".encode()
    if isinstance(value, bool):
        inner, kind = f"<{name}v>{int(value)}</{name}v>", ' t="b"'
    elif isinstance(value, (int, float)):
        inner, kind = f"<{name}v>{value!r}</{name}v>", ""
    else:
        if len(value) > MOST_TEXT:
            raise NotRewritten(f"a workbook's cell holds at most {MOST_TEXT:,} characters",
                               "write a shorter text")
        wrong = _NO_CHARACTER.search(value)
        if wrong:
            raise NotRewritten(f"the text has a character a workbook cannot hold "
                               f"(U+{ord(wrong.group()):04X})", "write it without it")
        written = _NOT_XML.sub(lambda found: f"_x{ord(found.group()):04X}_", value)
        inner = (f'<{name}is><{name}t xml:space="preserve">'
                 f'{escape(written, {chr(13): "&#13;"})}</{name}t></{name}is>')
        kind = ' t="inlineStr"'
    return f"<{name}c {attributes}{kind}>{inner}</{name}c>".encode("utf-8")


def _rezipped(archive: zipfile.ZipFile, changed: dict[str, bytes]) -> bytes:
    """The archive with each part of ``changed`` holding its new XML: every member in its
    order, under its name, date and compression, the others with the bytes they held."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as new:
        new.comment = archive.comment
        for member in archive.infolist():
            copy = zipfile.ZipInfo(member.filename, member.date_time)
            copy.compress_type, copy.comment = member.compress_type, member.comment
            copy.external_attr, copy.create_system = member.external_attr, member.create_system
            new.writestr(copy, changed.get(member.filename) or archive.read(member))
    return out.getvalue()


def _as_read(value):
    """``value`` as calamine reads it back from the cell written."""
    if value is None:
        return ""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    return value


def _same(a, b) -> bool:
    """Whether two cells as calamine reads them are the same (True is not 1)."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    return a == b


def _check(old: list[list], new: list[list], row: int, column: int, value) -> None:
    """Refuse unless ``new`` reads as ``old`` with the cell at ``row``, ``column`` holding
    ``value`` and nothing else changed."""
    height = max(len(old), len(new), row + 1)
    width = max([len(cells) for cells in old + new] + [column + 1])
    for r in range(height):
        for c in range(width):
            before = old[r][c] if r < len(old) and c < len(old[r]) else ""
            after = new[r][c] if r < len(new) and c < len(new[r]) else ""
            expected = value if (r, c) == (row, column) else before
            if not _same(after, expected):
                raise NotRewritten("the change would change more of the workbook than that "
                                   "cell", IN_PROGRAM)
