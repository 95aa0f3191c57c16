"""The studio changes a card's field in the file the card came from (issue 59).

The files stay the source of truth: an edit is one value written into the deck's own CSV
or YAML file, every other byte as it was (:mod:`cardkit.sources.rewrite`), or into one
cell of its XLSX workbook, every other cell and format as it was
(:mod:`cardkit.sources.rewrite_xlsx`), and the studio
then draws the card again as after any save. What may be written, and where, is the
deck's say, never the request's: the request names a card by its number and a field by
its name; the file is the one the card was read from, inside the deck's folder, read and
written without following a link or opening a FIFO (:func:`~cardkit.common.atomic.read_below`,
:func:`~cardkit.common.atomic.atomic_path`).

A card is read-only, and the page says why, when it comes from a sheet link (change the
sheet), from an ODS or XLS workbook (change it in the spreadsheet program), from a
``product`` of lists (one entry makes several cards), from a deck it extends in another
folder, or when the page shows the deck in another language than it is written in. A
workbook's cards can have their cells changed, but no row added, copied or deleted
(:data:`WORKBOOK_ROWS_WHY`).

Each card tells the page its file's version (a hash of the bytes it was drawn from). An
edit carries it back; a file that changed on disk since is never written over: the answer
is a :class:`Conflict` with the value the file holds now.
"""

from __future__ import annotations

import hashlib
import threading
from collections import Counter
from dataclasses import dataclass, replace
from pathlib import Path

from ..common.atomic import NotReplaced, atomic_path, read_below
from ..common.errors import Where
from ..deck.card_reader import FIELD_TYPES, count_error, type_error
from ..sources.files import BUNDLED_DECKS
from ..sources.links import is_link
from ..sources.rewrite import (NotRewritten, csv_cell, replace_csv_cell, replace_yaml_value,
                               yaml_keys, yaml_value)
from ..sources.rewrite_xlsx import replace_xlsx_cell, xlsx_cell
from ..sources.spreadsheet import (CSV_SUFFIXES, CellError, SheetCell, WORKBOOK_SUFFIXES,
                                   cell_value, is_empty, separator_of, workbook_sheet)

YAML_SUFFIXES = (".yaml", ".yml")
XLSX_SUFFIXES = (".xlsx", ".xlsm")  # the workbooks whose cells the studio writes
LINK_WHY = "this card comes from a sheet link: change it in the sheet"
WORKBOOK_WHY = ("this card comes from an ODS or XLS workbook: change it in your spreadsheet "
                "program (the studio writes the cells of .xlsx workbooks only)")
WORKBOOK_ROWS_WHY = ("a workbook's rows are added, copied and deleted in your spreadsheet "
                     "program (every later cell, merged range and formula moves with them); "
                     "the studio changes its cells only")
WORKBOOK_OPEN_WHY = "a workbook opens in your spreadsheet program, not in a text editor"
PRODUCT_WHY = ("this card is made by a 'product' of lists, with others from the same "
               "entry: change the entry in your editor")
LANGUAGE_WHY = "the page shows a translation: edit the deck in the language it is written in"
BUNDLED_WHY = "a deck that ships with cardkit is not changed: copy it with 'cardkit new' first"
STALE_WHY = ("the deck does not load from its files as they are now, so the page shows its "
             "last good cards: mend the problems shown (or undo the last change) first")
_writing = threading.Lock()  # one edit at a time: its check and its write are one step


@dataclass(frozen=True)
class Source:
    """Where a card's fields are written: the ``path`` of its file, its ``kind`` ('csv',
    'yaml' or 'xlsx'), its row's line (a CSV, a workbook's ``sheet``) or its entry's line
    and column (YAML); ``why`` it may not be changed ('' when it may)."""

    path: Path | None
    kind: str = ""
    line: int = 0
    col: int = 0
    why: str = ""
    sheet: str = ""

    @property
    def rows_why(self) -> str:
        """Why no card may be added after it, copied or deleted ('' when they may)."""
        return self.why or (WORKBOOK_ROWS_WHY if self.kind == "xlsx" else "")

    def place(self) -> Where:
        """The card's place, as the loader names it in its messages."""
        if self.kind == "xlsx":
            return Where(f"{self.path}[{self.sheet}]", self.line)
        return Where(self.path, self.line)


@dataclass(frozen=True)
class Saved:
    """An edit written: the file's ``path``, its new ``version`` and the bytes it held
    ``before`` (what undoing it writes back)."""

    path: Path
    version: str
    before: bytes = b""


class Refused(Exception):
    """The edit cannot be made: ``what`` and ``fix``, said at the field (``where``: the
    place a validate would name)."""

    def __init__(self, what: str, fix: str = "", where: Where | str = ""):
        super().__init__(what)
        self.what, self.fix, self.where = what, fix, str(where)


class Conflict(Exception):
    """The file changed since the page read it: its ``version`` and the value it holds
    now (``now``)."""

    def __init__(self, version: str, now):
        super().__init__("the file changed since the page read it")
        self.version, self.now = version, now


def version_of(data: bytes) -> str:
    """A file's version as the page holds it: a hash of its bytes."""
    return hashlib.sha256(data).hexdigest()[:20]


def sources(deck, root: Path, lang: str = "") -> dict[int, Source]:
    """Each card's :class:`Source` (by its number) in ``deck``, whose folder is ``root``."""
    shared = Counter(card.where for card in deck.cards)  # a product's cards share theirs
    files: dict = {}  # each file's own answer, worked out once
    return {card.number: _source(card, Path(root), lang, shared[card.where] > 1, files)
            for card in deck.cards}


def _source(card, root: Path, lang: str, generated: bool, files: dict) -> Source:
    where = card.where
    if where.file not in files:
        files[where.file] = file_source(where, root)
    found = files[where.file]
    why = found.why
    if not why and generated:
        why = PRODUCT_WHY
    elif not why and lang:
        why = LANGUAGE_WHY
    return replace(found, line=where.line, col=where.col, why=why) if found.path else found


def file_source(where: Where, root: Path) -> Source:
    """The file of the cards at ``where`` (its path, its kind, a workbook's sheet) and why
    the studio does not write it ('' when it does)."""
    if isinstance(where, SheetCell) or is_link(str(where.file)):
        return Source(None, why=LINK_WHY)
    file, sheet = workbook_sheet(str(where.file))  # 'cards.xlsx[Cards]': a workbook's sheet
    path = Path(file).absolute()
    suffix = path.suffix.lower()
    kind = "csv" if suffix in CSV_SUFFIXES else "yaml" if suffix in YAML_SUFFIXES else \
        "xlsx" if suffix in XLSX_SUFFIXES and sheet else ""
    if suffix in WORKBOOK_SUFFIXES and not kind:
        return Source(None, why=WORKBOOK_WHY)
    if not kind:
        return Source(None, why=f"the studio does not write {path.name}")
    if root.absolute() not in path.parents:
        return Source(path, kind, sheet=sheet, why=f"this card comes from {path}, outside "
                      "the deck's folder: change it there")
    if path.resolve().is_relative_to(BUNDLED_DECKS.resolve()):
        return Source(path, kind, sheet=sheet, why=BUNDLED_WHY)
    return Source(path, kind, sheet=sheet)


def page_sources(deck, root: Path, lang: str = "") -> tuple[dict, dict]:
    """What the page is told: each card's source by its number ({'file', 'why'}), and the
    version of each file a card may be changed in."""
    found = sources(deck, root, lang)
    versions = {}
    for source in found.values():
        if source.path is not None and not source.why and str(source.path) not in versions:
            try:
                versions[str(source.path)] = version_of(read_below(source.path, root))
            except OSError as error:  # a link, a FIFO: never read, and never written
                versions[str(source.path)] = ""
                found = {number: s if s.path != source.path else Source(
                    None, why=_unwritable(source.path, error)) for number, s in found.items()}
    return {number: {"file": str(source.path or ""), "why": source.why,
                     "rows": source.rows_why}
            for number, source in found.items()}, versions


def _unwritable(path: Path, error: OSError) -> str:
    return f"{path.name} cannot be written: {error.strerror or error}"


def edit(deck, root: Path, number: int, field: str, text: str, version: str,
         lang: str = "", drawn: dict | None = None) -> Saved:
    """Write ``text`` as the ``field`` of card ``number`` of ``deck`` into the file the card
    came from, if that file is still at ``version`` (and ``deck`` was drawn from that
    version: ``drawn`` maps each file to the version it was, when given). Raises
    :class:`Refused` (read-only, a value that is not of the field's type) or
    :class:`Conflict`."""
    card = next((card for card in deck.cards if card.number == number), None)
    if card is None:
        raise Refused(f"the deck has no card {number}", "reload the page")
    kind = "integer" if field == "count" else deck.field_types.get(field)
    if kind is None:
        raise Refused(f"'{field}' is not a field of the deck", "declare it under 'fields:'")
    source = sources(deck, root, lang)[number]
    if source.why:
        raise Refused(source.why)
    if source.kind in ("csv", "xlsx") and is_empty(text) and field in deck.required:
        raise Refused(f"this card has no '{field}'", f"give it a '{field}' (a key, or a "
                      "spreadsheet column) or give the field a default", source.place())
    if field == "count" and not is_empty(text):  # an empty cell prints one copy
        try:
            wrong = count_error(cell_value("integer", text))
        except CellError:
            wrong = None  # said as a wrong integer is, below
        if wrong:
            raise Refused(*wrong, source.place())
    try:
        return write_checked(source.path, root, version,
                             lambda data: _rewritten(source, data, field, kind, text),
                             lambda data: _current(source, data, field),
                             None if drawn is None else drawn.get(str(source.path), ""))
    except NotRewritten as error:
        raise Refused(error.what, error.fix, source.place()) from None


def write_checked(path: Path, root: Path, version: str, changed, now=lambda data: None,
                  drawn: str | None = None) -> Saved:
    """Write ``changed(bytes)`` over the deck's file ``path`` (inside ``root``) if it is
    still at ``version``, else raise :class:`Conflict` with ``now(bytes)``; raise
    :class:`Refused` when the page's cards were drawn from another version (``drawn``,
    when given: their lines may no longer be the file's) or it cannot be written."""
    with _writing:
        try:
            data = read_below(path, root)
        except OSError as error:
            raise Refused(_unwritable(path, error)) from None
        if version_of(data) != version:
            raise Conflict(version_of(data), now(data))
        if drawn is not None and drawn != version:
            raise Refused(STALE_WHY)
        new = changed(data)
        if new != data:
            try:
                with atomic_path(path, under=root) as temporary:
                    temporary.write_bytes(new)
            except NotReplaced as error:
                raise Refused(_unwritable(path, error)) from None
        return Saved(path, version_of(new), data)


def _current(source: Source, data: bytes, field: str):
    """The value of ``field`` the file holds now for the card (None when it is gone)."""
    try:
        if source.kind == "csv":
            return csv_cell(data, csv_separator(source.path, data), source.line, field)
        if source.kind == "xlsx":
            return xlsx_cell(data, source.sheet, source.line, field)
        value = yaml_value(data, source.line, source.col, field)
        return None if value is None else str(value)
    except NotRewritten:
        return None


def csv_separator(path: Path, data: bytes) -> str:
    """The separator of the CSV file ``path`` holding ``data``."""
    return CSV_SUFFIXES[path.suffix.lower()] or separator_of(
        data.decode("utf-8-sig", errors="replace"))


def _rewritten(source: Source, data: bytes, field: str, kind: str, text: str) -> bytes:
    """The file's bytes with the field's new value, checked as the loader checks it:
    the same message, at the same place."""
    if source.kind in ("csv", "xlsx"):
        separator = csv_separator(source.path, data) if source.kind == "csv" else ""
        try:  # an empty cell gives the field its default, as the loader reads it
            value = None if is_empty(text) else cell_value(kind, text, separator == ";")
        except CellError as error:
            raise Refused(f"column '{field}': {error.what}", error.fix,
                          source.place()) from None
        if source.kind == "csv":
            return replace_csv_cell(data, separator, source.line, field, text)
        # a workbook's cell holds the value itself: a number, yes or no, or the text
        return replace_xlsx_cell(data, source.sheet, source.line, field, value)
    if {"product", "cards", "from"} & set(yaml_keys(data, source.line, source.col)):
        raise Refused(PRODUCT_WHY)
    try:
        value = cell_value(kind, text) if text.strip() or kind == "text" else None
    except CellError:
        value = text
    error = type_error(kind, value)
    if error:
        raise Refused(f"'{field}' {error}", f"write {FIELD_TYPES[kind]}",
                      Where(source.path, source.line, source.col))
    return replace_yaml_value(data, source.line, source.col, field, value)
