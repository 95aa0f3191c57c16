"""Cards from a spreadsheet: CSV, TSV, XLSX or ODS, one row a card, one column a field.

The first row that is not empty names the columns; every later row that is not empty is a
card. Cells are read as they are (CSV cells are text; workbook cells may be numbers,
booleans or dates) and turned into field values by :func:`cell_value` once the deck says
what type each column is. Positions are kept so a problem names its row: ``cards.csv:14``
(for a workbook, ``cards.xlsx[Cards]:14``, naming the sheet); a sheet read from a link
names its tab and cell as a spreadsheet does, after the link: ``https://... Cards!C14``
(:class:`SheetCell`).

CSV files may be UTF-8 with or without a byte order mark, separated by commas, semicolons
(what spreadsheets write in locales with a decimal comma) or tabs.
"""

from __future__ import annotations

import csv
import datetime
import io
import math
import re
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

from ..common.errors import InputError, Problem, Where, did_you_mean
from .files import CSV_SUFFIXES, MB, SPREADSHEET_SUFFIXES, WORKBOOK_SUFFIXES, why_unreadable

SUFFIXES = SPREADSHEET_SUFFIXES
SEPARATORS = ",;\t"
MAX_BYTES = 50 * MB
MAX_UNPACKED = 500 * MB  # a workbook's contents, uncompressed (10,000 cards take a few MB)
MAX_ROWS, MAX_COLUMNS = 200_000, 1_000  # a deck holds at most 100,000 printed cards
MAX_DIGITS = 15  # in a number cell: more than any card needs, exact as a float
READ_SECONDS = 60  # of CPU time: calamine reads 100,000 rows in about a second
READ_MEMORY = 4_000_000_000  # bytes of address space the reader may take
TRUE_WORDS = ("yes", "y", "true", "x", "1")
FALSE_WORDS = ("no", "n", "false", "0")
_WHOLE = re.compile(r"^[+-]?\d+$")
_DECIMAL = re.compile(r"^[+-]?(\d+([.,]\d*)?|[.,]\d+)$")


class SheetCell(NamedTuple):
    """A :class:`Where` in a sheet read from a link (``file``), as a spreadsheet names it:
    ``Cards!C7`` for a cell (``col`` counts from 1), ``Cards!7:7`` for a whole row."""

    file: str
    line: int = 0
    col: int = 0
    sheet: str = ""  # the tab's title, or '' when the link names the tab by its gid

    def __str__(self) -> str:
        tab = f"{self.sheet}!" if self.sheet else ""
        if not self.line:
            return f"{self.file} {self.sheet}".rstrip()
        if not self.col:
            return f"{self.file} {tab}{self.line}:{self.line}"
        return f"{self.file} {tab}{column_letter(self.col - 1)}{self.line}"


@dataclass(frozen=True)
class Places:
    """How a table's messages name its rows and cells: a local file by its row
    ('cards.csv:7', the message naming the column), a sheet from a link by its cell."""

    label: str  # 'cards.csv', 'cards.xlsx[Cards]'; a link
    link: bool = False
    sheet: str = ""  # a link's tab

    def row(self, number: int = 0) -> Where | SheetCell:
        return SheetCell(self.label, number, 0, self.sheet) if self.link else \
            Where(self.label, number)

    def cell(self, number: int, index: int) -> Where | SheetCell:
        """The cell of the column at 0-based ``index`` in row ``number``."""
        return SheetCell(self.label, number, index + 1, self.sheet) if self.link else \
            Where(self.label, number)

    def of_sheet(self, name: str) -> Places:
        """The places in a workbook's sheet ``name``."""
        if self.link:
            return Places(self.label, True, name)
        return Places(f"{self.label}[{name}]")


def workbook_sheet(label: str) -> tuple[str, str]:
    """The file and the sheet a local workbook's label names (:meth:`Places.of_sheet`);
    the sheet '' for any other label. Sheet names hold no '[' or ']'.

    >>> workbook_sheet('decks/x/cards.xlsx[Cards]'), workbook_sheet('cards.csv')
    (('decks/x/cards.xlsx', 'Cards'), ('cards.csv', ''))
    """
    if label.endswith("]") and "[" in label:
        file, sheet = label[:-1].rsplit("[", 1)
        return file, sheet
    return label, ""


@dataclass(frozen=True)
class Table:
    """A spreadsheet's columns and rows of cells, each row with where it is."""

    places: Places  # how messages name its rows and cells
    columns: tuple[tuple[str, Where], ...]  # column name (stripped) and its header cell
    rows: tuple[tuple[Where, tuple], ...]  # each row's place and its cells, one per column
    decimal_comma: bool  # numbers are written '2,5' (a semicolon-separated CSV)


class CellError(ValueError):
    """A cell that does not hold a value of its column's type."""

    def __init__(self, what: str, fix: str):
        super().__init__(f"{what}; {fix}")
        self.what, self.fix = what, fix


def read_table(path: Path, shown: str | Places, sheet: str | None = None) -> Table:
    """Read the spreadsheet at ``path`` (named ``shown`` in messages, or by the
    :class:`Places` given); ``sheet`` picks a workbook's sheet by name (default: the
    first). Raises InputError when the file cannot be read."""
    shown = shown if isinstance(shown, Places) else Places(shown)
    suffix = path.suffix.lower()
    why = why_unreadable(path, MAX_BYTES)
    if suffix in SUFFIXES and why:
        raise _error(shown, why, "split the cards into several files" if "MB" in why else
                     "check the path (it is relative to the deck file)")
    if suffix in CSV_SUFFIXES:
        if sheet is not None:
            raise _error(shown, "a CSV file has no sheets", "remove 'sheet:'")
        return _read_csv(path, shown, CSV_SUFFIXES[suffix])
    if suffix in WORKBOOK_SUFFIXES:
        return _read_workbook(path, shown, sheet)
    raise _error(shown, f"cardkit cannot read '{path.suffix or path.name}' files as cards",
                 "use a .csv, .tsv, .xlsx or .ods file")


def _error(shown: Places, what: str, fix: str, line: int = 0) -> InputError:
    return InputError([Problem(shown.row(line), what, fix)])


def _read_csv(path: Path, shown: Places, separator: str | None) -> Table:
    try:
        text = path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError:
        raise _error(shown, "not UTF-8 text", "save it as 'CSV UTF-8' (Excel) or with "
                     "UTF-8 encoding (LibreOffice, Google Sheets' CSV download is UTF-8)")
    except OSError as exc:
        raise _error(shown, f"cannot read the file ({exc.strerror})",
                     "check the path and its permissions")
    if "\0" in text:
        raise _error(shown, "not a text file", "export the sheet as CSV")
    separator = separator or separator_of(text)
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=separator, strict=True)
    rows, start = [], 1
    try:
        for cells in reader:
            rows.append((start, tuple(cells)))
            start = reader.line_num + 1
    except csv.Error as exc:
        if "field limit" in str(exc):
            raise _error(shown, f"a cell holds more than {csv.field_size_limit() // 1024} "
                         "KiB of text", "check the quotes in this row: a quote left open "
                         "takes in the rows below it", line=start) from None
        raise _error(shown, f"not a valid CSV row ({exc})",
                     "check the quotes in this row", line=start) from None
    _check_split_cells(shown, rows, separator)
    return _table(shown, rows, decimal_comma=separator == ";")


SEPARATOR_NAMES = {",": "comma", ";": "semicolon", "\t": "tab"}


def _check_split_cells(places: Places, rows: list, separator: str) -> None:
    """Refuse the rows of more cells than the first row, even when the extra cells are
    empty: a separator in a cell's text that is not in quotes splits the cell, and the
    cells after it move one column on (into the blank columns at the end, silently).
    When every card's row has values past the first row's cells, the first row lacks a
    name instead (:func:`_table` says so)."""
    rows = _with_values(rows)
    if not rows:
        return
    (_, header), body = rows[0], rows[1:]
    longer = [(number, cells) for number, cells in body if len(cells) > len(header)]
    if not longer or all(_filled(cells) > len(header) for _, cells in body):
        return
    name = SEPARATOR_NAMES[separator]
    example = f' ("like{separator} this")' if separator != "\t" else ""
    fix = f"a {name} in a cell's text splits the cell: put that cell in double quotes{example}"
    raise InputError([Problem(
        places.row(number), f"this row has {len(cells)} cells, but the first row has "
        f"{len(header)} columns", fix if _filled(cells) > len(header) else
        f"{fix}; if no text has a {name}, delete the extra {name}s at the row's end")
        for number, cells in longer])


def _filled(cells: tuple) -> int:
    """How many cells a row has, not counting the empty ones at its end."""
    return next((index + 1 for index in range(len(cells) - 1, -1, -1)
                 if not is_empty(cells[index])), 0)


def separator_of(text: str) -> str:
    """The separator that splits the first non-empty line into the most columns (a
    separator that leaves a field too long for the csv module splits nothing)."""
    first = next((line for line in re.split(r"\r\n|\r|\n", text) if line.strip()), "")

    def columns(separator: str) -> int:
        try:
            return len(next(csv.reader([first], delimiter=separator), []))
        except csv.Error:
            return 0
    return max(SEPARATORS, key=columns)


def _read_workbook(path: Path, shown: Places, sheet: str | None) -> Table:
    """A workbook's sheet, read by calamine in a child process under time and memory
    limits: calamine is fast, but a crafted file (one cell at XFD1048576, a zip bomb)
    makes it abort the process or run for ever, and damaged ones raise its own errors."""
    from ..common.processes import JobFailed, LimitExceeded, run_limited

    if zipfile.is_zipfile(path):  # XLSX and ODS are zip archives (an old .xls is not)
        _check_archive(path, shown)
    damaged = ("cannot be read as a spreadsheet (not an XLSX or ODS workbook, or "
               "damaged)", "open it in a spreadsheet program and save it again as .xlsx, "
               ".ods or .csv")
    try:
        names, chosen, cells = run_limited(_workbook_cells, (str(path), sheet),
                                           READ_SECONDS, READ_MEMORY)
    except JobFailed as failed:
        if failed.kind == "TooLarge":
            raise _error(shown.of_sheet(sheet) if sheet else shown, failed.message,
                         f"keep a card list under {MAX_ROWS:,} rows and {MAX_COLUMNS:,} "
                         "columns; delete stray cells far from the table") from None
        raise _error(shown, *damaged) from None
    except LimitExceeded as exceeded:
        what = "more than {:.0f} s of CPU time".format(READ_SECONDS) if exceeded.limit == "time" \
            else f"more than {READ_MEMORY // 1_000_000_000} GB of memory"
        raise _error(shown, f"reading it takes {what}, far more than a card list needs "
                     "(a cell far below or right of the table, or a damaged file)",
                     "delete the rows and columns after the last card (Ctrl+End shows the "
                     "last cell), or copy the cards into a new workbook") from None
    if not names:
        raise _error(shown, "the workbook has no sheets", "add a sheet of cards")
    if chosen is None:
        raise _error(shown, f"the workbook has no sheet named '{sheet}'",
                     did_you_mean(sheet, names))
    return _table(shown.of_sheet(chosen), list(enumerate(cells, 1)), decimal_comma=False)


class TooLarge(ValueError):
    """A sheet with more rows or columns than a card list can have."""


def _workbook_cells(source: str | bytes, sheet: str | None) -> tuple[list[str], str | None,
                                                                    list]:
    """(the sheet names, the sheet read, its rows of cells) of the workbook at the path
    ``source`` or in its bytes: run in a child process. The sheet is the one named, or the
    first; none when it is not there."""
    import python_calamine

    workbook = python_calamine.CalamineWorkbook.from_filelike(io.BytesIO(source)) \
        if isinstance(source, bytes) else python_calamine.CalamineWorkbook.from_path(source)
    names = list(workbook.sheet_names)
    if not names or (sheet is not None and sheet not in names):
        return names, None, []
    chosen = names[0] if sheet is None else sheet
    found = workbook.get_sheet_by_name(chosen)
    if found.height > MAX_ROWS or found.width > MAX_COLUMNS:
        raise TooLarge(f"the sheet '{chosen}' spans {found.height:,} rows and "
                       f"{found.width:,} columns")
    return names, chosen, found.to_python(skip_empty_area=False)


def _check_archive(path: Path, shown: Places) -> None:
    """Refuse a workbook whose archive is damaged or unpacks to more than MAX_UNPACKED
    (a zip bomb), from its directory alone: nothing is decompressed here."""
    try:
        with zipfile.ZipFile(path) as archive:
            unpacked = sum(member.file_size for member in archive.infolist())
    except (zipfile.BadZipFile, OSError, ValueError, EOFError, NotImplementedError):
        raise _error(shown, "cannot be read as a spreadsheet (a damaged XLSX or ODS "
                     "archive)", "open it in a spreadsheet program and save it again") \
            from None
    if unpacked > MAX_UNPACKED:
        raise _error(shown, f"the workbook unpacks to {unpacked / 1_000_000:,.0f} MB, more "
                     f"than the {MAX_UNPACKED // 1_000_000} MB cardkit reads",
                     "keep the cards in a workbook of their own, without large pictures")


def _table(places: Places, rows: list, decimal_comma: bool) -> Table:
    """Columns from the first row that is not empty; the other non-empty rows as cards."""
    rows = _with_values(rows)
    if not rows:
        raise _error(places, "the sheet is empty",
                     "write the field names in the first row and one card per row below")
    (header_line, header), body = rows[0], rows[1:]
    widest_line, widest = max(rows, key=lambda row: len(row[1]))
    width = len(widest)
    if width > MAX_COLUMNS:
        raise _error(places, f"this row has {width:,} cells, more than the {MAX_COLUMNS:,} "
                     "columns a card list may have", "delete the cells after the last "
                     "column", line=widest_line)
    columns = []
    for index in range(width):
        name = str(header[index]).strip() if index < len(header) else ""
        filled = any(index < len(cells) and not is_empty(cells[index]) for _, cells in body)
        if not name and filled:
            raise InputError([Problem(places.cell(header_line, index),
                                      f"column {column_letter(index)} has cards' values "
                                      "but no name in its first row",
                                      "write the field's name above them")])
        columns.append((name, places.cell(header_line, index)))
    padded = tuple((places.row(number), tuple(cells) + ("",) * (width - len(cells)))
                   for number, cells in body)
    return Table(places, tuple(columns), padded, decimal_comma)


def _with_values(rows: list) -> list:
    """The rows that are not empty."""
    return [(number, cells) for number, cells in rows if any(not is_empty(c) for c in cells)]


def is_empty(cell) -> bool:
    """An empty cell: the card takes the field's default."""
    return cell is None or (isinstance(cell, str) and not cell.strip())


def column_letter(index: int) -> str:
    """A spreadsheet's name for the column at 0-based ``index``.

    >>> column_letter(0), column_letter(25), column_letter(27)
    ('A', 'Z', 'AB')
    """
    letters = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        letters = chr(ord("A") + rest) + letters
    return letters


def column_index(letters: str) -> int:
    """The 0-based index of a spreadsheet's column named ``letters`` (any case): the
    inverse of :func:`column_letter`.

    >>> column_index('A'), column_index('z'), column_index('AB')
    (0, 25, 27)
    """
    number = 0
    for letter in letters.upper():
        number = number * 26 + ord(letter) - ord("A") + 1
    return number - 1


def cell_value(kind: str, cell, decimal_comma: bool = False):
    """A cell's value as a field of type ``kind`` (text, integer, number, flag, colour).

    >>> cell_value('integer', '4'), cell_value('integer', 4.0), cell_value('flag', 'Yes')
    (4, 4, True)
    >>> cell_value('number', '2,5', decimal_comma=True), cell_value('text', 3.0)
    (2.5, '3')
    >>> cell_value('integer', 'four')
    Traceback (most recent call last):
    ...
    cardkit.sources.spreadsheet.CellError: 'four' is not a whole number; write a number such as 4
    """
    text = _text(cell)
    if kind in ("text", "colour"):
        return text
    if kind == "flag":
        if isinstance(cell, bool):
            return cell
        word = text.strip().lower()
        if word in TRUE_WORDS or word in FALSE_WORDS:
            return word in TRUE_WORDS
        raise CellError(f"'{text}' is not yes or no", "write yes or no (or true or false)")
    if kind == "integer":
        if isinstance(cell, float) and cell.is_integer():
            return int(cell)
        if isinstance(cell, int) and not isinstance(cell, bool):
            return cell
        if _WHOLE.match(text.strip()):
            return int(_short(text))
        raise CellError(f"'{text}' is not a whole number", "write a number such as 4")
    if kind == "number":
        if isinstance(cell, (int, float)) and not isinstance(cell, bool) and math.isfinite(cell):
            return cell
        written = text.strip()
        if "," in written and not decimal_comma:  # '1,5' or '1,500'? Not guessed.
            raise CellError(f"'{text}' is not a number", "write it with a decimal point, "
                            "e.g. 2.5 (a decimal comma works in semicolon-separated files)")
        if _DECIMAL.match(written):
            number = float(_short(written).replace(",", "."))
            return int(number) if _WHOLE.match(written) else number
        raise CellError(f"'{text}' is not a number", "write a number such as 2.5")
    raise ValueError(f"unknown field type {kind!r}")


def _short(number: str) -> str:
    """``number`` (digits as written) if it has at most MAX_DIGITS digits: no card needs
    more, and Python refuses to convert more than 4,300."""
    digits = sum(c.isdigit() for c in number)
    if digits > MAX_DIGITS:
        raise CellError(f"'{number.strip()[:12]}…' is a number of {digits:,} digits",
                        f"write a number of at most {MAX_DIGITS} digits")
    return number


def _text(cell) -> str:
    """A cell as text: whole numbers without '.0', dates as YYYY-MM-DD."""
    if isinstance(cell, bool):
        return "yes" if cell else "no"
    if isinstance(cell, float) and cell.is_integer():
        return str(int(cell))
    if isinstance(cell, datetime.datetime) and cell.time() == datetime.time():
        return cell.date().isoformat()
    if isinstance(cell, (datetime.date, datetime.time)):
        return cell.isoformat()
    return str(cell)
