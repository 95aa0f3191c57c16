"""When a build happened, as its outputs say it: today, or the time SOURCE_DATE_EPOCH
gives for a reproducible build (reportlab dates the PDFs by it as well)."""

from __future__ import annotations

import datetime
import os
import re

from .errors import InputError, Problem, Where

LATEST = 253_402_300_799  # 9999-12-31 23:59:59 UTC: a PDF's date has four-digit years


def build_epoch() -> int | None:
    """SOURCE_DATE_EPOCH's seconds since 1970, or None when it is not set (or blank, as
    reportlab reads it too); InputError naming it when it is not a time.

    >>> os.environ["SOURCE_DATE_EPOCH"] = " 1700000000\\n"; build_epoch()
    1700000000
    >>> os.environ["SOURCE_DATE_EPOCH"] = "-5"; build_epoch()  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    cardkit.common.errors.InputError: environment variable SOURCE_DATE_EPOCH: '-5' is not ...
    >>> del os.environ["SOURCE_DATE_EPOCH"]
    """
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    if not epoch:
        return None
    digits = re.fullmatch(r"[0-9]+", epoch) is not None
    if digits and (len(epoch) <= len(str(LATEST)) and int(epoch) <= LATEST):
        return int(epoch)
    what = f"{_shown(epoch)} is not a build time" + (
        ", it is after the year 9999" if digits else "")
    raise InputError([Problem(Where("environment variable SOURCE_DATE_EPOCH"), what,
                              "set it to a whole number of seconds since 1970-01-01 UTC, "
                              "e.g. SOURCE_DATE_EPOCH=$(git log -1 --format=%ct), or unset it")])


def build_date() -> str:
    """The build's day as layouts print it ({deck.date}): '2026-11-25'."""
    epoch = build_epoch()
    if epoch is None:
        return datetime.date.today().isoformat()
    return datetime.datetime.fromtimestamp(epoch, datetime.timezone.utc).date().isoformat()


def _shown(value: str) -> str:
    """The value quoted, cut when long (a value of thousands of digits is not echoed)."""
    return repr(value if len(value) <= 30 else value[:30] + "...")
