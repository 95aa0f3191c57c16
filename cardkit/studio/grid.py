"""The studio's grid of every card (issue 59): a card added after another, copied or
deleted in the file it came from, and the page's last changes undone.

Rows change as fields do (:mod:`.edits`): through ``POST /api/edit`` and its guard, in
the deck's own CSV or YAML file named by the card, never by the request, only the bytes
of that row or entry (:mod:`cardkit.sources.rewrite`), never over a file changed since
the page read it, and never from cards drawn from another version of the file (their
lines would point at other rows).

Each change written is kept (:class:`History`) with the bytes the file held before, and
undoing it writes those bytes back, through the same safe writer, if the file is still
as that change left it: an undo never writes over a later change, the page's or the
editor's.
"""

from __future__ import annotations

import itertools
import threading
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path

from starlette.concurrency import run_in_threadpool
from starlette.responses import JSONResponse

from ..sources.rewrite import (NotRewritten, copy_csv_row, copy_yaml_entry, csv_row,
                               delete_csv_row, delete_yaml_entry, insert_csv_row,
                               insert_yaml_entry, yaml_keys, yaml_value)
from . import edits

ROWS = ("add", "duplicate", "delete")
NEW_NAME = "New card"  # the name a card added in the grid starts with
KEPT_CHANGES = 100  # changes that can be undone, the newest kept
GROUP_KEYS = {"product", "cards", "from"}  # an entry with one makes several cards


@dataclass(frozen=True)
class Change:
    """A change written: its file's ``path``, the bytes it held ``before``, the ``version``
    the change left it at, and ``what`` it was, as the page says it."""

    path: Path
    before: bytes
    version: str
    what: str


class History:
    """The changes the studio wrote, by number, the last :data:`KEPT_CHANGES` kept."""

    def __init__(self):
        self._changes: OrderedDict[int, Change] = OrderedDict()
        self._numbers = itertools.count(1)
        self._lock = threading.Lock()

    def record(self, saved: edits.Saved, what: str) -> int:
        """Keep the change ``saved`` made; its number, which undoes it."""
        with self._lock:
            number = next(self._numbers)
            self._changes[number] = Change(saved.path, saved.before, saved.version, what)
            while len(self._changes) > KEPT_CHANGES:
                self._changes.popitem(last=False)
            return number

    def undo(self, number: int, root: Path) -> tuple[edits.Saved, str]:
        """Write back the bytes change ``number`` replaced, if its file is as that change
        left it (else :class:`edits.Conflict`); the write and what was undone."""
        with self._lock:
            change = self._changes.get(number)
        if change is None:
            raise edits.Refused("that change can no longer be undone",
                                f"the studio keeps the last {KEPT_CHANGES} changes")
        saved = edits.write_checked(change.path, root, change.version,
                                    lambda data: change.before)
        with self._lock:
            self._changes.pop(number, None)
        return saved, change.what


def change_rows(deck, root: Path, op: str, number: int, version: str, lang: str = "",
                drawn: dict | None = None) -> tuple[edits.Saved, int]:
    """Add a card after card ``number`` of ``deck`` (``op`` 'add'), copy it right after
    itself ('duplicate') or delete it ('delete'), in the file it came from, if that file
    is still at ``version`` and the deck was drawn from it (``drawn``: each file's
    version then). The write, and the number of the card to show next (the new one, or
    the one before the deleted one). Raises :class:`edits.Refused` or
    :class:`edits.Conflict`."""
    card = next((card for card in deck.cards if card.number == number), None)
    if card is None:
        raise edits.Refused(f"the deck has no card {number}", "reload the page")
    source = edits.sources(deck, root, lang)[number]
    if source.rows_why:
        raise edits.Refused(source.rows_why)

    def changed(data: bytes) -> bytes:
        if source.kind == "csv":
            separator = edits.csv_separator(source.path, data)
            if op == "add":
                cells = csv_row(data, separator, source.line)
                values = new_card(deck, cells, "1")  # in the file's columns only:
                return insert_csv_row(data, separator, source.line, {  # a group may name it
                    column: value for column, value in values.items() if column in cells})
            rows = copy_csv_row if op == "duplicate" else delete_csv_row
            return rows(data, separator, source.line)
        keys = yaml_keys(data, source.line, source.col)
        if GROUP_KEYS & set(keys):
            raise edits.Refused(edits.PRODUCT_WHY)
        if op == "add":
            written = {key: yaml_value(data, source.line, source.col, key) for key in keys}
            return insert_yaml_entry(data, source.line, source.col,
                                     new_card(deck, written, None))
        entries = copy_yaml_entry if op == "duplicate" else delete_yaml_entry
        return entries(data, source.line, source.col)

    try:
        saved = edits.write_checked(source.path, root, version, changed,
                                    drawn=None if drawn is None else
                                    drawn.get(str(source.path), ""))
    except NotRewritten as error:
        raise edits.Refused(error.what, error.fix, source.place()) from None
    return saved, number + 1 if op != "delete" else max(1, number - 1)


def new_card(deck, written: dict, count) -> dict:
    """What a card added after one written with ``written`` (its keys or columns and
    their values) is written with: the values a card cannot do without (its back and
    layout, and each field with no default) as that card has them, named
    :data:`NEW_NAME`, one copy (``count``, where a count is written: a CSV's empty cell
    would be warned of); every other value left to its default."""
    kept = {"back", "layout"} | set(deck.required)
    values = {key: value for key, value in written.items() if key in kept}
    named = next((field for field in ("name", "title")
                  if deck.field_types.get(field) == "text"), None)
    if named:
        values[named] = NEW_NAME
    if count is not None and "count" in written:
        values["count"] = count
    return values


def said(op: str, number: int) -> str:
    """What a change of rows was, as the page's undo button says it."""
    return {"add": f"the card added after #{number}", "duplicate": f"the copy of #{number}",
            "delete": f"the deletion of #{number}"}[op]


def failed(error: Exception) -> JSONResponse:
    """The page's answer to a change not made: a :class:`edits.Conflict` (the file as it
    is now) or a :class:`edits.Refused` (its message, at the field or row)."""
    if isinstance(error, edits.Conflict):
        return JSONResponse({"conflict": True, "version": error.version, "now": error.now},
                            status_code=409)
    return JSONResponse({"problem": {"where": error.where, "what": error.what,
                                     "fix": error.fix}}, status_code=422)


async def answer(studio, options, asked: dict, history: History) -> JSONResponse:
    """Answer a grid's request (``asked``, already past the studio's guard and token):
    {op: add, duplicate or delete, card, version}, or {op: undo, change}."""
    op, root = asked.get("op"), studio.deck_path.parent
    if op == "undo":
        number = asked.get("change")
        if type(number) is not int:
            return JSONResponse({"refused": "give change (a number)"}, status_code=400)
        try:
            saved, what = await run_in_threadpool(history.undo, number, root)
        except (edits.Conflict, edits.Refused) as error:
            return failed(error)
        await run_in_threadpool(studio.files_changed, (str(saved.path),))
        return JSONResponse({"saved": True, "version": saved.version, "undone": what})
    number, version = asked.get("card"), asked.get("version")
    if op not in ROWS or type(number) is not int or not isinstance(version, str):
        return JSONResponse({"refused": "give op (add, duplicate, delete or undo), card (a "
                                        "number) and version"}, status_code=400)
    # the versions first, then the deck: a save between them gives a deck newer than the
    # versions, which is refused, never lines of an older file
    state = await run_in_threadpool(studio.view, options)
    deck = await run_in_threadpool(studio.deck, options)
    if deck is None:
        return JSONResponse({"refused": "the deck has not loaded"}, status_code=409)
    try:
        saved, shown = await run_in_threadpool(change_rows, deck, root, op, number, version,
                                               options.lang, state["files"])
    except (edits.Conflict, edits.Refused) as error:
        return failed(error)
    await run_in_threadpool(studio.files_changed, (str(saved.path),))
    what = said(op, number)
    return JSONResponse({"saved": True, "version": saved.version, "card": shown,
                         "what": what, "change": history.record(saved, what)})
