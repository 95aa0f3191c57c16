"""Safe YAML loading that remembers where every value came from.

PyYAML's plain data loses line numbers, and cardkit's error messages need them. So we
compose the YAML node tree with the safe loader and turn it into :class:`Map`, :class:`Seq`
and plain scalars, where maps and lists know the position of each of their entries.
Only the standard YAML tags are accepted: nothing in a deck can construct Python objects.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

import yaml

from ..errors import InputError, Problem, Where
from .files import MB, why_unreadable

# libyaml's parser when PyYAML was built with it (the wheels are): same nodes and marks,
# several times faster on large decks.
SafeLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
# Anchors and aliases can expand a small file into a huge tree ("billion laughs").
# Values repeated by aliases. Anchors share a few values between cards, a bomb (an alias of
# aliases of aliases) makes billions from a few lines. Plain values are bounded by the
# file's size; repeats may be MAX_REPEATED, or REPEATS_PER_VALUE times the plain values so
# far (a big deck whose every card merges an anchor), but never more than MAX_REPEATS_EVER.
MAX_REPEATED, REPEATS_PER_VALUE, MAX_REPEATS_EVER = 200_000, 4, 2_000_000
MAX_BYTES = 20 * MB  # a 50,000-card deck is about 3 MB
# libyaml's composer recurses in C: thousands of nested lists crash the interpreter
# before Python can raise. Decks nest a handful of levels deep.
MAX_DEPTH = 100
_OPENERS = re.compile(r"[^\[\]{}]+")
_COMPACT = re.compile(r"(?:-[ \t]+)+")
_INDENT = re.compile(r"^[ \t]*", re.MULTILINE)
STANDARD_TAGS = {f"tag:yaml.org,2002:{name}"
                 for name in ("str", "int", "float", "bool", "null", "map", "seq", "merge")}
TIMESTAMP = "tag:yaml.org,2002:timestamp"
MERGE = "tag:yaml.org,2002:merge"


class Map(dict):
    """A YAML mapping; ``where`` is its own position, ``at(key)`` an entry's."""

    where: Where
    key_where: dict
    value_where: dict

    def at(self, key) -> Where:
        """Where the value of ``key`` is written (or the map itself if it is absent)."""
        return self.value_where.get(key, self.where)

    def key_at(self, key) -> Where:
        return self.key_where.get(key, self.where)


class Seq(list):
    """A YAML sequence; ``at(i)`` is where its i-th item is written."""

    where: Where
    item_where: list

    def at(self, index: int) -> Where:
        return self.item_where[index]


def merged(base: Map, over: Map) -> Map:
    """``over``'s entries on top of ``base``'s, each keeping its own position (for layouts
    and decks that extend others)."""
    result = Map(base)
    result.where = over.where
    result.key_where = {**base.key_where, **over.key_where}
    result.value_where = {**base.value_where, **over.value_where}
    result.update(over)
    return result


def joined(first: Seq, second: Seq) -> Seq:
    """Two lists as one, each item keeping its position."""
    result = Seq(first + second)
    result.where = second.where
    result.item_where = first.item_where + second.item_where
    return result


def load_yaml(path: Path, shared: bool = False):
    """Read ``path`` as YAML; raise :class:`InputError` with file:line:col on any fault.
    With ``shared``, a text read before is not parsed again: the result is the same
    object, which the caller must not change."""
    path = Path(path)
    why = why_unreadable(path, MAX_BYTES)
    if why:
        raise InputError([Problem(Where(path), why, "split it into several files" if "MB"
                                  in why else "check the path")])
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise InputError([Problem(Where(path), f"not UTF-8 text ({exc.reason})",
                                  "save the file as UTF-8")]) from None
    except OSError as exc:
        raise InputError([Problem(Where(path), f"cannot read file ({exc.strerror})",
                                  "check the path and its permissions")]) from None
    return _parse_shared(text, path) if shared else parse_yaml(text, path)


@lru_cache(maxsize=256)
def _parse_shared(text: str, path: Path):
    return parse_yaml(text, path)


def parse_yaml(text: str, path: Path | str = "<text>"):
    """Parse one YAML document from ``text``; see :func:`load_yaml`."""
    loader = None
    try:
        _check_depth(text, path)
        loader = SafeLoader(text)
        node = loader.get_single_node()
    except yaml.reader.ReaderError as exc:
        line = text[:exc.position].count("\n") + 1
        col = exc.position - (text.rfind("\n", 0, exc.position) + 1) + 1
        raise InputError([Problem(Where(path, line, col),
                                  f"character {exc.character!r} is not allowed in YAML",
                                  "remove it or save the file as plain text")]) from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        where = Where(path, mark.line + 1, mark.column + 1) if mark else Where(path)
        what = f"not valid YAML: {exc.problem or exc.context or 'cannot parse'}"
        opened = exc.context_mark
        if exc.context and opened and mark and opened.line != mark.line:
            what += f" ({exc.context} at line {opened.line + 1}, column {opened.column + 1})"
        raise InputError([Problem(where, what,
                                  "check the indentation, colons and quotes here")]) from None
    except yaml.YAMLError as exc:
        raise InputError([Problem(Where(path), f"not valid YAML: {exc}",
                                  "check the file is a YAML text")]) from None
    except RecursionError:
        raise InputError([Problem(Where(path), "the document nests too deeply",
                                  "flatten its lists and mappings")]) from None
    finally:
        if loader is not None:
            loader.dispose()
    if node is None:
        return None
    try:
        return _Converter(path, loader).convert(node, ())
    except RecursionError:
        raise InputError([Problem(Where(path), "the document nests too deeply",
                                  "flatten its lists and mappings")]) from None


def _check_depth(text: str, path) -> None:
    """Refuse a document nested deeper than MAX_DEPTH, before libyaml composes it.

    A cheap bound first (bracket depth, ignoring quotes; runs of '- '; indentation):
    only a text that might nest deeply is parsed for events, whose depth is exact.
    """
    brackets = _OPENERS.sub("", text)
    depth = bound = 0
    for char in brackets:
        depth += 1 if char in "[{" else -1
        bound = max(bound, depth)
    runs = max((len(m) for m in _COMPACT.findall(text)), default=0) // 2
    indent = max((len(m) for m in _INDENT.findall(text)), default=0)
    if max(bound, runs, indent) <= MAX_DEPTH:
        return
    depth = 0
    for event in yaml.parse(text, Loader=SafeLoader):
        if isinstance(event, (yaml.SequenceStartEvent, yaml.MappingStartEvent)):
            depth += 1
            if depth > MAX_DEPTH:
                mark = event.start_mark
                raise InputError([Problem(Where(path, mark.line + 1, mark.column + 1),
                                          f"lists and mappings nest more than {MAX_DEPTH} "
                                          "deep here", "flatten them: a deck needs a few "
                                          "levels")])
        elif isinstance(event, (yaml.SequenceEndEvent, yaml.MappingEndEvent)):
            depth -= 1


class _Converter:
    def __init__(self, path, loader):
        self.path = path
        self.loader = loader
        self.seen: set[int] = set()  # the nodes converted once already
        self.repeated = 0  # values converted again, through an alias

    def where(self, node) -> Where:
        return Where(self.path, node.start_mark.line + 1, node.start_mark.column + 1)

    def fail(self, node, what, fix):
        raise InputError([Problem(self.where(node), what, fix)])

    def convert(self, node, active: tuple):
        if id(node) in self.seen:
            self.repeated += 1
            if self.repeated > min(MAX_REPEATS_EVER, max(MAX_REPEATED, REPEATS_PER_VALUE
                                                         * len(self.seen))):
                self.fail(node, f"its aliases repeat {self.repeated - 1:,} values, more than "
                          f"{REPEATS_PER_VALUE} for each value written out",
                          "use fewer anchors and aliases")
        else:
            self.seen.add(id(node))
        if node.tag == TIMESTAMP and isinstance(node, yaml.ScalarNode):
            return node.value  # a date is just text to a deck
        if node.tag not in STANDARD_TAGS:
            tag = node.tag.replace("tag:yaml.org,2002:", "!!")
            self.fail(node, f"unsupported YAML tag '{tag}'",
                      "remove the tag; cardkit reads plain YAML only")
        if any(node is a for a in active):
            self.fail(node, "an alias refers to its own parent", "remove the recursive alias")
        if isinstance(node, yaml.MappingNode):
            return self.mapping(node, active + (node,))
        if isinstance(node, yaml.SequenceNode):
            seq = Seq(self.convert(item, active + (node,)) for item in node.value)
            seq.where = self.where(node)
            seq.item_where = [self.where(item) for item in node.value]
            return seq
        try:
            return self.loader.construct_object(node, deep=True)
        except (yaml.YAMLError, ValueError, OverflowError) as exc:
            reason = getattr(exc, "problem", None) or str(exc).split("\n")[0]
            self.fail(node, f"cannot read this value ({reason})", "quote it to make it text")

    def mapping(self, node, active):
        result = Map()
        result.where = self.where(node)
        result.key_where, result.value_where = {}, {}
        merges = []
        for key_node, value_node in node.value:
            if not isinstance(key_node, yaml.ScalarNode):
                self.fail(key_node, "a key must be a plain word or number",
                          "write the key as text")
            if key_node.tag == MERGE:
                merges.append((key_node, self.convert(value_node, active)))
                continue
            key = self.convert(key_node, active)
            try:
                hash(key)
            except TypeError:
                self.fail(key_node, "this key cannot be used", "write the key as text")
            if key in result:
                self.fail(key_node, f"duplicate key '{key}'",
                          f"remove one of the two '{key}' entries")
            result[key] = self.convert(value_node, active)
            result.key_where[key] = self.where(key_node)
            result.value_where[key] = self.where(value_node)
        for key_node, value in merges:
            self.merge(result, key_node, value)
        return result

    def merge(self, result: Map, key_node, value) -> None:
        """A YAML merge key, ``<<: *defaults`` or ``<<: [*a, *b]``: the merged mappings'
        entries are added where the mapping does not give its own, the first mapping
        named winning over later ones."""
        sources = value if isinstance(value, Seq) else [value]
        for source in sources:
            if not isinstance(source, Map):
                self.fail(key_node, "'<<' must name a mapping, e.g. '<<: *defaults'",
                          "point the alias at a mapping of 'key: value' lines")
            for key, item in source.items():
                if key not in result:
                    result[key] = item
                    result.key_where[key] = source.key_at(key)
                    result.value_where[key] = source.at(key)
