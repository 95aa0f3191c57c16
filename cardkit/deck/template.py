"""Card fields inside layout values: ``"{value}"``, ``"{back.colour}"``; ``{{`` is a brace.

>>> fill("{value} of {suit}", {"value": 7, "suit": "cups"})
'7 of cups'
>>> fields_in("{{literal}} and {name}")
['name']
"""

from __future__ import annotations

import re
from functools import lru_cache

_TOKEN = re.compile(r"\{\{|\}\}|\{([^{}]*)\}")


def is_template(value) -> bool:
    return isinstance(value, str) and "{" in value


def fields_in(text: str) -> list[str]:
    """The field names a template reads, in order."""
    return [m.group(1).strip() for m in _TOKEN.finditer(text) if m.group(1) is not None]


def fill(text: str, values) -> str:
    """Replace each ``{name}`` by ``values[name]``; a missing name raises KeyError."""
    parts = _parts(text, text_mode=False)
    if len(parts) == 1 and parts[0][1] is not None:  # most are one field: nothing to join
        return _shown(values[parts[0][1]])
    return "".join([part if name is None else _shown(values[name]) for part, name in parts])


def fill_text(text: str, values) -> str:
    """:func:`fill` for a text property: ``{{``, ``}}`` and names that are not fields stay
    as they are, for the text layout (inline icons, literal braces). Field values go in as
    they are, so card data can hold icons too.

    >>> fill_text("{value} {crow} {{x}}", {"value": 3})
    '3 {crow} {{x}}'
    """
    parts = _parts(text, text_mode=True)
    if len(parts) == 1 and parts[0][1] in values:  # most are one field, as in fill()
        return _shown(values[parts[0][1]])
    return "".join([part if name is None or name not in values else _shown(values[name])
                    for part, name in parts])


# A layout's few templates are filled for every card: each is split into its parts once
@lru_cache(maxsize=1024)
def _parts(text: str, text_mode: bool) -> tuple[tuple[str, str | None], ...]:
    """``text`` as (literal text, None) and (token, field name) parts; ``{{`` and ``}}``
    are literal, kept as they are in ``text_mode`` and made single braces otherwise."""
    parts, start = [], 0
    for match in _TOKEN.finditer(text):
        parts.append((text[start:match.start()], None))
        token = match.group(0)
        if match.group(1) is not None:
            parts.append((token, match.group(1).strip()))
        else:
            parts.append((token if text_mode else token[0], None))
        start = match.end()
    parts.append((text[start:], None))
    return tuple((part, name) for part, name in parts if part)


def _shown(value) -> str:
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return "" if value is None else str(value)
