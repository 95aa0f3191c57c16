"""Card fields inside layout values: ``"{value}"``, ``"{back.colour}"``; ``{{`` is a brace.

>>> fill("{value} of {suit}", {"value": 7, "suit": "cups"})
'7 of cups'
>>> fields_in("{{literal}} and {name}")
['name']
"""

from __future__ import annotations

import re

_TOKEN = re.compile(r"\{\{|\}\}|\{([^{}]*)\}")


def is_template(value) -> bool:
    return isinstance(value, str) and "{" in value


def fields_in(text: str) -> list[str]:
    """The field names a template reads, in order."""
    return [m.group(1).strip() for m in _TOKEN.finditer(text) if m.group(1) is not None]


def fill(text: str, values) -> str:
    """Replace each ``{name}`` by ``values[name]``; a missing name raises KeyError."""

    def one(match):
        token = match.group(0)
        if token in ("{{", "}}"):
            return token[0]
        value = values[match.group(1).strip()]
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        return "" if value is None else str(value)

    return _TOKEN.sub(one, text)
