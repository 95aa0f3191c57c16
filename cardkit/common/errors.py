"""Problems found in a user's input, reported as ``file:line:col: what; fix``.

Every loader collects all the problems it can find before giving up, so a designer
fixes a deck in one pass instead of one error per run.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple


# A deck keeps a Where for each value it read: slots hold one in less memory than a tuple
# (16 bytes less, 7 MB at 50,000 cards), so it stays a dataclass though one costs about
# 1.5 ms to make at import (issue 62); Problem, made only for a message, is a NamedTuple
@dataclass(frozen=True, slots=True)
class Where:
    """A place in a source file; line and column count from 1. A spreadsheet row has a
    line (the row) and no column: the message names the column."""

    file: Path | str
    line: int = 0
    col: int = 0

    def __str__(self) -> str:
        if not self.line:
            return str(self.file)
        if not self.col:
            return f"{self.file}:{self.line}"
        return f"{self.file}:{self.line}:{self.col}"


class Problem(NamedTuple):
    """One thing wrong with the input and how to put it right."""

    where: Where
    what: str
    fix: str = ""
    unit: str = "card"  # what a problem met again at the same place is met again for

    def __str__(self) -> str:
        text = f"{self.where}: {self.what}"
        return printable(f"{text}; {self.fix}" if self.fix else text)


# Control characters but the line break and the tab: deck text (a card's name) quoted in a
# message must not drive the terminal it is printed on (ESC [2J clears the screen)
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def printable(text: str) -> str:
    r"""``text`` with its control characters written as escapes, for a terminal.

    >>> printable("\x1b[31mred\x1b[0m\tok")
    '\\x1b[31mred\\x1b[0m\tok'
    """
    return _CONTROL.sub(lambda found: f"\\x{ord(found.group()):02x}", text)


class InputError(Exception):
    """The user's input is wrong. Carries every problem found, and the warnings met on the
    way (shown with them); the CLI exits with 2. A deck's loader also gives ``deck``, the
    cards that loaded, for their own checks to add what else is wrong."""

    def __init__(self, problems: list[Problem], warnings=(), deck=None,
                 checked=frozenset()):
        self.problems = list(problems)
        self.warnings = list(warnings)
        self.deck = deck
        self.checked = checked  # where the elements are whose mistakes are among these
        self.made: list[str] = []  # --lang all: the languages made before these were met
        super().__init__("\n".join(str(p) for p in self.problems))


class Problems:
    """Collects problems while loading; raises them together with :meth:`check`."""

    def __init__(self) -> None:
        self.items: list[Problem] = []

    def add(self, where: Where, what: str, fix: str = "") -> None:
        self.items.append(Problem(where, what, fix))

    def __bool__(self) -> bool:
        return bool(self.items)

    def check(self) -> None:
        if self.items:
            raise InputError(folded(self.items))


def folded(problems: list[Problem]) -> list[Problem]:
    """One message for each mistake: the same problem at the same place (a group's
    default, read by each of its cards) is said once with a count, and the same problem
    at other places in the same file (a value repeated down a spreadsheet column) once,
    with the other lines.

    >>> a, b = Where("d.yaml", 3, 5), Where("d.csv", 7)
    >>> [str(p) for p in folded([Problem(a, "bad", "fix")] * 3)]
    ['d.yaml:3:5: bad (and 2 more cards); fix']
    >>> [str(p) for p in folded([Problem(a, "bad", "fix", unit="layout")] * 2)]
    ['d.yaml:3:5: bad (and 1 more layout); fix']
    >>> rows = [Problem(Where("d.csv", n), "bad", "fix") for n in (7, 9, 12)]
    >>> [str(p) for p in folded(rows)]
    ['d.csv:7: bad (also at lines 9 and 12); fix']
    """
    groups: dict = {}
    for problem in problems:
        groups.setdefault((problem.where.file, problem.what, problem.fix), []).append(problem)
    result = []
    for same in groups.values():
        first, what = same[0], same[0].what
        repeats = sum(p.where == first.where for p in same) - 1
        lines = sorted({p.where.line for p in same if p.where != first.where})
        if repeats:
            what += f" (and {repeats} more {first.unit}{'s' * (repeats != 1)})"
        if lines:
            shown = [str(n) for n in lines[:8]]
            if len(lines) > 8:
                shown.append(f"{len(lines) - 8} more")
            listed = ", ".join(shown[:-1]) + " and " + shown[-1] if len(shown) > 1 else shown[0]
            what += f" (also at line{'s' * (len(lines) != 1)} {listed})"
        result.append(Problem(first.where, what, first.fix))
    return result


def did_you_mean(word: str, choices, otherwise: str = "") -> str:
    """A hint naming the closest valid choice, or ``otherwise`` (listing them all).

    >>> did_you_mean('cout', ['count', 'back'])
    "did you mean 'count'?"
    >>> did_you_mean('zzz', ['count', 'back'])
    'use one of: back, count'
    """
    choices = sorted(str(c) for c in choices)
    close = closest(str(word), choices)
    if close is not None:
        return f"did you mean '{close}'?"
    return otherwise or "use one of: " + ", ".join(choices)


def closest(word: str, choices, cutoff: float = 0.6) -> str | None:
    """The choice most like ``word`` (difflib's ratio at least ``cutoff``), or None."""
    import difflib  # imported on first use: most runs never guess at a typo

    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=cutoff)
    return close[0] if close else None


def braced_did_you_mean(name: str, choices) -> str:
    """:func:`did_you_mean` for a ``{name}`` in a text, which may be a field or an icon.

    >>> braced_did_you_mean('hart', ['heart', 'value'])
    "did you mean '{heart}'? (literal braces are written {{ and }})"
    """
    hint = did_you_mean(f"{{{name}}}", [f"{{{c}}}" for c in choices])
    return hint + " (literal braces are written {{ and }})"


def lacking_library(name: str) -> str:
    """What to say when this Python lacks a library cardkit needs (``name``)."""
    return (f"cardkit: this Python ({sys.executable}) lacks {name}, which cardkit needs; run "
            "'make build' in cardkit's folder, then '.venv/bin/cardkit' or '.venv/bin/python "
            "-P -m cardkit' (or 'source .venv/bin/activate' first)")
