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


def fill(text: str, values, keep=()) -> str:
    """Replace each ``{name}`` by ``values[name]``. A missing name raises KeyError, unless
    it is in ``keep``: then ``{name}`` stays for a later stage (inline icons in text).

    >>> fill("{value} {crow}", {"value": 3}, keep={"crow"})
    '3 {crow}'
    """

    def one(match):
        token = match.group(0)
        if token in ("{{", "}}"):
            return token[0]
        name = match.group(1).strip()
        if name not in values and name in keep:
            return token
        value = values[name]
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        return "" if value is None else str(value)

    return _TOKEN.sub(one, text)
