"""Problems found in a user's input, reported as ``file:line:col: what; fix``.

Every loader collects all the problems it can find before giving up, so a designer
fixes a deck in one pass instead of one error per run.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Where:
    """A place in a source file; line and column count from 1."""

    file: Path | str
    line: int = 0
    col: int = 0

    def __str__(self) -> str:
        if not self.line:
            return str(self.file)
        return f"{self.file}:{self.line}:{self.col}"


@dataclass(frozen=True)
class Problem:
    """One thing wrong with the input and how to put it right."""

    where: Where
    what: str
    fix: str = ""

    def __str__(self) -> str:
        text = f"{self.where}: {self.what}"
        return f"{text}; {self.fix}" if self.fix else text


class InputError(Exception):
    """The user's input is wrong. Carries every problem found; the CLI exits with 2."""

    def __init__(self, problems: list[Problem]):
        self.problems = list(problems)
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
            raise InputError(self.items)


def did_you_mean(word: str, choices) -> str:
    """A hint naming the closest valid choice, or listing them all.

    >>> did_you_mean('cout', ['count', 'back'])
    "did you mean 'count'?"
    >>> did_you_mean('zzz', ['count', 'back'])
    'use one of: back, count'
    """
    choices = sorted(str(c) for c in choices)
    close = difflib.get_close_matches(str(word), choices, n=1, cutoff=0.6)
    if close:
        return f"did you mean '{close[0]}'?"
    return "use one of: " + ", ".join(choices)
