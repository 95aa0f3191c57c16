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
    return _TOKEN.sub(lambda match: _one(match, values, text_mode=False), text)


def fill_text(text: str, values) -> str:
    """:func:`fill` for a text property: ``{{``, ``}}`` and names that are not fields stay
    as they are, for the text layout (inline icons, literal braces). Field values go in as
    they are, so card data can hold icons too.

    >>> fill_text("{value} {crow} {{x}}", {"value": 3})
    '3 {crow} {{x}}'
    """
    return _TOKEN.sub(lambda match: _one(match, values, text_mode=True), text)


def _one(match, values, text_mode: bool) -> str:
    token = match.group(0)
    if token in ("{{", "}}"):
        return token if text_mode else token[0]
    name = match.group(1).strip()
    if text_mode and name not in values:
        return token
    value = values[name]
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return "" if value is None else str(value)
