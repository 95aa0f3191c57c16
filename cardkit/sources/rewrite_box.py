"""A layout element's ``box:`` changed in place: only its numbers (issue 59).

The studio moves and resizes an element where the designer sees it, and writes the new box
into the layout file the element's box is written in. As with a card's value
(:mod:`.rewrite`), the file stays theirs: the box is found by its node's marks (PyYAML),
each number that changes is replaced inside its own value's span (its unit, quotes and
spacing kept), every other byte stays, and the result is read again: unless it reads as
the old file with only that box changed, nothing is written (:class:`NotRewritten`).

A box is written in one of the forms the layout loader reads: ``[x, y, width, height]``
(flow or block list), a mapping of ``x``, ``y``, ``width`` and ``height``, or ``card``
(the whole card), which becomes a list of four lengths.
"""

from __future__ import annotations

import re

import yaml

from .rewrite import NotRewritten, _differences, _text_of, mappings, starts_at

PARTS = ("x", "y", "width", "height")
# a length's number and unit, as the loader reads them (common.units)
_LENGTH = re.compile(r"^\s*(-?\d+(?:\.\d+)?|-?\.\d+)\s*(mm|cm|in|pt|%)\s*$")
_NUMBER = re.compile(r"-?(?:\d+(?:\.\d+)?|\.\d+)")


def _box_node(text: str, line: int, col: int):
    """The value node of the ``box:`` key written at ``line``, ``col`` (from 1)."""
    for mapping, _, _ in mappings(text):
        for key, value in mapping.value:
            if isinstance(key, yaml.ScalarNode) and key.value == "box" and \
                    starts_at(value, line, col):
                return value
    raise NotRewritten(f"no box is written at line {line}, column {col} any more")


def _part_nodes(node) -> list | None:
    """The scalar nodes of x, y, width and height (None for a box written as 'card')."""
    if isinstance(node, yaml.ScalarNode) and node.value == "card":
        return None
    if isinstance(node, yaml.SequenceNode) and len(node.value) == 4:
        parts = node.value
    elif isinstance(node, yaml.MappingNode):
        named = {key.value: value for key, value in node.value
                 if isinstance(key, yaml.ScalarNode)}
        parts = [named.get(part) for part in PARTS]
    else:
        parts = [None]
    if not all(isinstance(part, yaml.ScalarNode) for part in parts):
        raise NotRewritten("the box is not written as [x, y, width, height] here")
    return list(parts)


def written_box(data: bytes, line: int, col: int) -> list[str] | None:
    """The four lengths of the box written at ``line``, ``col`` as the file gives them
    ('5mm', '10%'), or None for 'card'."""
    _, text = _text_of(data)
    parts = _part_nodes(_box_node(text, line, col))
    return None if parts is None else [part.value for part in parts]


def number_unit(length: str) -> tuple[float, str] | None:
    """A length's number and unit (None when it is no length).

    >>> number_unit(" 2.5 mm"), number_unit("card")
    ((2.5, 'mm'), None)
    """
    found = _LENGTH.match(str(length))
    return (float(found.group(1)), found.group(2)) if found else None


def _new_scalar(old: str, new: str) -> str:
    """The text of a box value written as ``old`` (its span in the file) holding the
    length ``new``: only its number replaced when the unit stays (quotes, spaces kept)."""
    quote = old[0] if old[:1] in "'\"" else ""
    inner = old[len(quote):len(old) - len(quote)]
    if number_unit(inner) and number_unit(inner)[1] == number_unit(new)[1]:
        found = _NUMBER.search(inner)
        number = _NUMBER.search(new).group()
        inner = inner[:found.start()] + number + inner[found.end():]
        return quote + inner + quote
    return quote + new + quote


def replace_yaml_box(data: bytes, line: int, col: int, parts: list[str | None]) -> bytes:
    """``data`` (a layout file's bytes) with the box written at ``line``, ``col`` holding
    ``parts``: a new length for x, y, width and height each ('7mm'), or None to keep it as
    written. Every other byte stays as it was; a box written as 'card' becomes
    ``[x, y, width, height]`` (all four given)."""
    if len(parts) != 4 or not all(part is None or number_unit(part) for part in parts):
        raise NotRewritten("a box is four lengths such as '7mm'", "give x, y, width, height")
    mark, text = _text_of(data)
    node = _box_node(text, line, col)
    nodes = _part_nodes(node)
    if nodes is None:
        if None in parts:
            raise NotRewritten("a box written as 'card' is given all four lengths",
                               "give x, y, width and height")
        spans = [(node.start_mark.index, node.end_mark.index, "[" + ", ".join(parts) + "]")]
    else:
        spans = [(part.start_mark.index, part.end_mark.index,
                  _new_scalar(text[part.start_mark.index:part.end_mark.index], new))
                 for part, new in zip(nodes, parts) if new is not None]
    new_text = text
    for start, end, written in sorted(spans, reverse=True):  # the last first: offsets hold
        new_text = new_text[:start] + written + new_text[end:]
    if new_text == text:
        return data
    _check_only_the_box(text, new_text, parts)
    return mark + new_text.encode("utf-8")


def _check_only_the_box(old: str, new: str, parts: list[str | None]) -> None:
    """Raise NotRewritten unless ``new`` reads as ``old`` with one box changed, each of its
    lengths to the one in ``parts`` (None: as it was)."""
    try:
        old_data, new_data = yaml.safe_load(old), yaml.safe_load(new)
    except yaml.YAMLError:
        raise NotRewritten("the new box would break the file") from None
    boxes = {path[:path.index("box") + 1] if "box" in path else None
             for path in _differences(old_data, new_data)}
    if len(boxes) != 1 or None in boxes:
        raise NotRewritten("the new box would change more of the file than that box (it may "
                           "be shared through an anchor)")
    path = boxes.pop()
    was, now = _at(old_data, path), _at(new_data, path)
    expected = [number_unit(part if part is not None else kept)
                for part, kept in zip(parts, _lengths(was) or [None] * 4)]
    if _lengths(now) is None or list(map(number_unit, _lengths(now))) != expected:
        raise NotRewritten("the new box would not read as the lengths given")


def _at(document, path: tuple):
    for step in path:
        document = document[step]
    return document


def _lengths(box) -> list | None:
    """A loaded box's four values in order (None when it is 'card' or not a box)."""
    if isinstance(box, list) and len(box) == 4:
        return box
    if isinstance(box, dict):
        return [box.get(part) for part in PARTS]
    return None
