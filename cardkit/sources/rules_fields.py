"""The card fields a designer's rules read, as their ``rules.py`` declares them
(``fields = {"cost": int, ...}`` in the game's class), read with :mod:`ast`.

The file is parsed, never imported or run: a deck is untrusted, and only ``cardkit
simulate`` runs a deck's code. Only the keys of a literal dict are taken, so a file
whose ``fields`` is computed declares nothing this can read.
"""

from __future__ import annotations

import ast
from pathlib import Path

from ..common.errors import Problem, Where
from .files import why_unreadable

RULES_PROGRAM = "rules.py"  # beside deck.yaml: the game's rules as a program
MAX_SOURCE_BYTES = 2_000_000


def rules_program(deck_file: Path) -> Path:
    """Where a deck's rules program is: ``rules.py`` beside its deck file."""
    return Path(deck_file).parent / RULES_PROGRAM


def fields_read(path: Path) -> tuple[dict[str, Where], list[Problem]]:
    """The fields ``path`` declares its rules read, each with where it is named; and
    why none could be read (a warning: the rules' own mistakes are simulate's to report).
    No file: nothing, and nothing to say."""
    if not path.exists():
        return {}, []
    unreadable = why_unreadable(path, MAX_SOURCE_BYTES)
    if unreadable:
        return {}, [Problem(Where(path), f"cannot read the fields the rules read: "
                            f"{unreadable}", "make rules.py a readable Python file")]
    try:
        tree = ast.parse(path.read_bytes(), str(path))
    except (SyntaxError, ValueError) as error:
        line = getattr(error, "lineno", 0) or 0
        return {}, [Problem(Where(path, line), "the rules do not parse as Python, so the "
                            "card text is not checked against them",
                            "run 'cardkit simulate' on the deck to see the mistake")]
    found: dict[str, Where] = {}
    for node in ast.walk(tree):
        if not isinstance(node, ast.ClassDef):
            continue
        for statement in node.body:
            value = _fields_value(statement)
            if isinstance(value, ast.Dict):
                for key in value.keys:
                    name = _literal(key)
                    if isinstance(name, str):
                        found.setdefault(name, Where(path, key.lineno, key.col_offset + 1))
    return found, []


def _fields_value(statement):
    """The value a class body's ``fields = ...`` (or ``fields: T = ...``) assigns."""
    if isinstance(statement, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "fields" for t in statement.targets):
        return statement.value
    if isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name) \
            and statement.target.id == "fields":
        return statement.value
    return None


def _literal(node):
    try:
        return ast.literal_eval(node) if node is not None else None
    except ValueError:
        return None
