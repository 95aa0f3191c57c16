"""Safe YAML loading that remembers where every value came from.

PyYAML's plain data loses line numbers, and cardkit's error messages need them. So we
compose the YAML node tree with the safe loader and turn it into :class:`Map`, :class:`Seq`
and plain scalars, where maps and lists know the position of each of their entries.
Only the standard YAML tags are accepted: nothing in a deck can construct Python objects.
"""

from __future__ import annotations

import re
import sys
from functools import lru_cache
from pathlib import Path

import yaml

from ..common.errors import InputError, Problem, Where
from ..common.patterns import LatePattern
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
_NOT_BRACKETS = bytes(sorted(set(range(256)) - set(b"[]{}")))
# Each begins with a character to look for, which makes searching a big file fast
_DEEP_COMPACT = re.compile(rb"-[ \t]+(?:-[ \t]+){%d}" % MAX_DEPTH)  # '- - - x' nests 3 lists
_DEEP_INDENT = re.compile(rb"\n[ \t]{%d}" % (MAX_DEPTH + 1))  # searched after a line break
STANDARD_TAGS = {f"tag:yaml.org,2002:{name}"
                 for name in ("str", "int", "float", "bool", "null", "map", "seq", "merge")}
# what YAML counts as a line break, so a mark's line is found (NEL and U+2028 too)
_YAML_LINE_BREAK = LatePattern("(\r\n|[\r\n\x85\u2028\u2029])")  # kept by split()
# what comes before a quote that opens a value ('tint: ', '  - ', '[a, ', '['), and rarely
# ends a text's last line ('Choose one:' is closed right after the colon)
_OPENS_VALUE = LatePattern(r"(:\s+|,\s+|[:,\[{-]\s*[\[{]\s*|^\s*-\s+)$")
STR = "tag:yaml.org,2002:str"
TIMESTAMP = "tag:yaml.org,2002:timestamp"
MERGE = "tag:yaml.org,2002:merge"


class Map(dict):
    """A YAML mapping; ``where`` is its own position, ``at(key)`` an entry's.

    A big deck has a map per card, so positions are packed: one int per entry holds the
    key's and the value's line and column in the map's file. An entry merged from another
    file keeps its two :class:`Where` objects.
    """

    __slots__ = ("where", "_places")
    where: Where
    _places: dict  # key -> packed (key, value) positions, or (key Where, value Where)

    def at(self, key) -> Where:
        """Where the value of ``key`` is written (or the map itself if it is absent)."""
        return self._place(key, 1)

    def key_at(self, key) -> Where:
        return self._place(key, 0)

    def _place(self, key, which: int) -> Where:
        place = self._places.get(key)
        if place is None:
            return self.where
        if type(place) is tuple:
            return place[which]
        position = place >> _POSITION_BITS if which == 0 else place & _POSITION_MASK
        return Where(self.where.file, position >> _COORD_BITS, position & _COORD_MASK)

    def _set_place(self, key, key_where: Where, value_where: Where) -> None:
        file = self.where.file
        packed = [_packed(w.line, w.col) if w.file is file or w.file == file else None
                  for w in (key_where, value_where)]
        self._places[key] = (key_where, value_where) if None in packed else \
            packed[0] << _POSITION_BITS | packed[1]


# A position packs a line and a column of up to 25 bits each: more than MAX_BYTES allows.
_COORD_BITS = 25
_COORD_MASK = (1 << _COORD_BITS) - 1
_POSITION_BITS = 2 * _COORD_BITS
_POSITION_MASK = (1 << _POSITION_BITS) - 1


def _packed(line: int, col: int) -> int | None:
    """A line and column as one int (None if either is too big to pack)."""
    if line > _COORD_MASK or col > _COORD_MASK:
        return None
    return line << _COORD_BITS | col


def _new_map(where: Where) -> Map:
    result = Map()
    result.where, result._places = where, {}
    return result


class Seq(list):
    """A YAML sequence; ``at(i)`` is where its i-th item is written."""

    __slots__ = ("where", "item_where")
    where: Where
    item_where: list

    def at(self, index: int) -> Where:
        return self.item_where[index]


def merged(base: Map, over: Map) -> Map:
    """``over``'s entries on top of ``base``'s, each keeping its own position (for layouts
    and decks that extend others)."""
    result = _new_map(over.where)
    for source in (base, over):
        for key, value in source.items():
            result[key] = value
            result._set_place(key, source.key_at(key), source.at(key))
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
        data = path.read_bytes()
    except OSError as exc:
        raise InputError([Problem(Where(path), f"cannot read file ({exc.strerror})",
                                  "check the path and its permissions")]) from None
    return _parse_shared(data, path) if shared else parse_yaml(data, path)


@lru_cache(maxsize=256)
def _parse_shared(data: bytes, path: Path):
    return parse_yaml(data, path)


def parse_yaml(text: str | bytes, path: Path | str = "<text>"):
    """Parse one YAML document from ``text`` (or a file's UTF-8 bytes); see
    :func:`load_yaml`."""
    # libyaml reads UTF-8: given bytes, it parses them where they lie; given a str, it
    # makes a UTF-8 copy. A 16 MB deck file is held once, not twice.
    data = text if isinstance(text, bytes) else text.encode("utf-8", "surrogatepass")
    del text
    loader = None
    try:
        _utf8(data, path)  # a file that is not UTF-8 is refused naming the place
        _check_depth(data, path)
        loader = SafeLoader(data)
        return _Builder(path, loader, data).document()
    except yaml.reader.ReaderError as exc:
        line = data.count(b"\n", 0, exc.position) + 1
        start = data.rfind(b"\n", 0, exc.position) + 1
        col = len(data[start:exc.position].decode("utf-8", "replace")) + 1
        raise InputError([Problem(Where(path, line, col),
                                  f"character {_shown_char(exc.character)} is not allowed in YAML",
                                  "remove it or save the file as plain text")]) from None
    except yaml.MarkedYAMLError as exc:
        if exc.context == "while scanning a quoted scalar" and exc.context_mark and \
                "end of stream" in str(exc.problem):  # the file ends inside the quotes
            raise InputError([_unclosed(path, exc.context_mark,
                                        "the file ends before it is closed")]) from None
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


def _unclosed(path, opened, then: str) -> Problem:
    """A quote opened at the mark ``opened`` and not closed on its line."""
    return Problem(Where(path, opened.line + 1, opened.column + 1), "this quote is not "
                   f"closed on its line: {then}", "add the closing quote at the end of the "
                   "value (a text of several lines is written after '|')")


def _shown_char(character: int | str) -> str:
    """libyaml names a character by its code, PyYAML's own reader by the character."""
    return repr(chr(character) if isinstance(character, int) else character)


def _utf8(data: bytes, path) -> str:
    """The text of UTF-8 ``data``; InputError naming the first byte that is not UTF-8."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        col = len(data[data.rfind(b"\n", 0, exc.start) + 1:exc.start].decode()) + 1
        raise InputError([Problem(Where(path, line, col), f"not UTF-8 text ({exc.reason})",
                                  "save the file as UTF-8")]) from None


def _check_depth(data: bytes, path) -> None:
    """Refuse a UTF-8 document nested deeper than MAX_DEPTH, before libyaml composes it.

    Cheap bounds first (bracket depth, ignoring quotes; runs of '- '; indentation):
    only a text that might nest deeply is parsed for events, whose depth is exact.
    """
    depth = bound = 0
    for byte in data.translate(None, _NOT_BRACKETS):  # in UTF-8 these bytes are brackets only
        depth += 1 if byte in b"[{" else -1
        bound = max(bound, depth)
    if bound <= MAX_DEPTH and not _DEEP_COMPACT.search(data) and \
            not _DEEP_INDENT.search(b"\n" + data):
        return
    try:
        _count_depth(data, path, SafeLoader)
    except yaml.YAMLError as exc:
        # libyaml 0.2.5 refuses 1,000 levels itself, while looking ahead for a key, before
        # the 101st level reaches us: PyYAML's own parser (no such limit) finds where
        if "nesting depth" not in str(exc):
            raise
        _count_depth(data, path, yaml.SafeLoader)


def _count_depth(data: bytes, path, loader) -> None:
    depth = 0
    for event in yaml.parse(data, Loader=loader):
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


class _Builder:
    """Builds Map, Seq and scalars straight from libyaml's parse events, one value at a
    time. Composing the whole node tree first (what PyYAML's loaders do) holds several
    objects per value with their marks: ten times a big deck's final size in memory."""

    def __init__(self, path, loader, data: bytes):
        self.path = path
        self.loader = loader
        self.data = data
        self.lines: list[str] = []  # the text's lines, split when a quote is checked
        self.breaks: list[str] = []  # what ends each of them
        self.anchors: dict = {}  # name -> (value, how many values it holds, its event)
        self.opened: dict = {}  # names of the collections being built -> their events
        self.written = 0  # values written out in the text
        self.repeated = 0  # values repeated by aliases
        self.plain: dict = {}  # a short unquoted scalar's text -> its value

    def where(self, event) -> Where:
        return Where(self.path, event.start_mark.line + 1, event.start_mark.column + 1)

    def place(self, key_event, value_event) -> int | tuple:
        """A map entry's place, packed as :class:`Map` keeps it."""
        key, value = key_event.start_mark, value_event.start_mark
        key_at, value_at = _packed(key.line + 1, key.column + 1), \
            _packed(value.line + 1, value.column + 1)
        if key_at is None or value_at is None:
            return self.where(key_event), self.where(value_event)
        return key_at << _POSITION_BITS | value_at

    def fail(self, event, what, fix):
        raise InputError([Problem(self.where(event), what, fix)])

    def document(self):
        """The stream's one document (None when it has none)."""
        loader = self.loader
        loader.get_event()  # the stream's start
        if loader.check_event(yaml.StreamEndEvent):
            return None
        start = loader.get_event()
        value, _ = self.value(loader.get_event())
        loader.get_event()  # the document's end
        if not loader.check_event(yaml.StreamEndEvent):
            raise yaml.composer.ComposerError(
                "expected a single document in the stream", start.start_mark,
                "but found another document", loader.get_event().start_mark)
        return value

    def value(self, event) -> tuple:
        """The value ``event`` starts, and how many values it holds (itself included)."""
        if isinstance(event, yaml.ScalarEvent) and event.anchor is None:  # most values
            self.written += 1
            return self.scalar(event), 1
        if isinstance(event, yaml.AliasEvent):
            return self.alias(event)
        self.written += 1
        anchor = event.anchor
        if anchor is not None and (anchor in self.anchors or anchor in self.opened):
            first = (self.anchors.get(anchor) or (None, 0, self.opened.get(anchor)))[2]
            raise yaml.composer.ComposerError("found duplicate anchor; first occurrence",
                                              first.start_mark, "second occurrence",
                                              event.start_mark)
        if isinstance(event, yaml.ScalarEvent):
            value, size = self.scalar(event), 1
        else:
            if event.tag is not None:  # without one, the standard map or seq
                self.check_tag(event, self.tag(event))
            if anchor is not None:
                self.opened[anchor] = event
            if isinstance(event, yaml.SequenceStartEvent):
                value, size = self.sequence(event)
            else:
                value, size = self.mapping(event)
            self.opened.pop(anchor, None)
        if anchor is not None:
            self.anchors[anchor] = (value, size, event)
        return value, size

    def alias(self, event) -> tuple:
        """A fresh copy of the anchored value, once the guard against alias bombs allows
        it: aliases may repeat MAX_REPEATED values, or REPEATS_PER_VALUE for each value
        written out, never more than MAX_REPEATS_EVER."""
        if event.anchor in self.opened:
            self.fail(self.opened[event.anchor], "an alias refers to its own parent",
                      "remove the recursive alias")
        if event.anchor not in self.anchors:
            raise yaml.composer.ComposerError(None, None, "found undefined alias",
                                              event.start_mark)
        value, size, _ = self.anchors[event.anchor]
        self.repeated += size
        limit = min(MAX_REPEATS_EVER, max(MAX_REPEATED, REPEATS_PER_VALUE * self.written))
        if self.repeated > limit:
            self.fail(event, f"its aliases repeat over {limit:,} values, more than "
                      f"{REPEATS_PER_VALUE} for each value written out",
                      "use fewer anchors and aliases")
        return _copy(value), size

    def tag(self, event) -> str:
        tag = event.tag
        if tag is None or tag == "!":
            kind = yaml.ScalarNode if isinstance(event, yaml.ScalarEvent) else \
                yaml.SequenceNode if isinstance(event, yaml.SequenceStartEvent) else \
                yaml.MappingNode
            tag = self.loader.resolve(kind, getattr(event, "value", None), event.implicit)
        return tag

    def check_tag(self, event, tag: str) -> None:
        if tag not in STANDARD_TAGS:
            shown = tag.replace("tag:yaml.org,2002:", "!!")
            self.fail(event, f"unsupported YAML tag '{shown}'",
                      "remove the tag; cardkit reads plain YAML only")

    def scalar(self, event):
        if event.style in ('"', "'") and event.end_mark.line != event.start_mark.line:
            self.check_closed(event)
        text = event.value
        if event.tag is None:
            if not event.implicit[0]:  # quoted or a block: text, whatever it reads
                return text
            if len(text) <= 24:  # keys and short values repeat: each is read once
                if text in self.plain:
                    return self.plain[text]
                value = self.constructed(event, self.tag(event))
                if len(self.plain) < 10_000:
                    self.plain[text] = value  # text, a number, a flag or null: unchangeable
                return value
        return self.constructed(event, self.tag(event))

    def constructed(self, event, tag: str):
        """The value of a scalar whose tag is ``tag``."""
        # a date is just text to a deck, and so is a '<<' that is a value, not a merge key
        if tag == STR or tag == TIMESTAMP or tag == MERGE:
            return event.value
        self.check_tag(event, tag)
        node = yaml.ScalarNode(tag, event.value, event.start_mark, event.end_mark)
        try:
            return self.loader.yaml_constructors[tag](self.loader, node)
        except (yaml.YAMLError, ValueError, OverflowError) as exc:
            reason = getattr(exc, "problem", None) or str(exc).split("\n")[0]
            self.fail(event, f"cannot read this value ({reason})", "quote it to make it text")

    def check_closed(self, event) -> None:
        """Refuse a quoted text of several lines closed by what opens the quote of a later
        value (``colour: "#2a5b84`` ... ``tint: "``): its quote was left open. The keys it
        swallowed would be missing, or met twice, further on."""
        if not self.lines:
            parts = _YAML_LINE_BREAK.split(self.data.decode("utf-8", "replace"))
            self.lines, self.breaks = parts[::2], parts[1::2]
        end = event.end_mark
        if not any(b in "\r\n" for b in self.breaks[event.start_mark.line:end.line]):
            return  # broken by a NEL or line separator only: no editor's open quote
        if event.style == '"' and self.lines[end.line - 1].endswith("\\"):
            return  # an escaped line break: the text goes on by design (as yaml.dump folds)
        closing = self.lines[end.line][:end.column - 1]
        if _OPENS_VALUE.search(closing):
            raise InputError([_unclosed(self.path, event.start_mark, "it runs on to line "
                                        f"{end.line + 1}, where the next value's quote "
                                        "closes it")])

    def sequence(self, start) -> tuple:
        seq, wheres, size = Seq(), [], 1
        get_event = self.loader.get_event
        event = get_event()
        while not isinstance(event, yaml.SequenceEndEvent):
            item, held = self.value(event)
            seq.append(item)
            wheres.append(self.where(event))
            size += held
            event = get_event()
        seq.where, seq.item_where = self.where(start), wheres
        return seq, size

    def mapping(self, start) -> tuple:
        result, size, merges = _new_map(self.where(start)), 1, []
        places, get_event = result._places, self.loader.get_event
        key_event = get_event()
        while not isinstance(key_event, yaml.MappingEndEvent):
            if isinstance(key_event, (yaml.SequenceStartEvent, yaml.MappingStartEvent)):
                self.fail(key_event, "a key must be a plain word or number",
                          "write the key as text")
            merge = isinstance(key_event, yaml.ScalarEvent) and key_event.value == "<<" \
                and self.tag(key_event) == MERGE  # resolved once more only for '<<' keys
            if not merge:
                key, held = self.value(key_event)
                size += held
                if type(key) is str:  # most keys
                    key = sys.intern(key)  # the same few keys on every card
                elif isinstance(key, (Map, Seq)):
                    self.fail(key_event, "a key must be a plain word or number",
                              "write the key as text")
            value_event = get_event()
            value, held = self.value(value_event)
            size += held
            if merge:
                merges.append((key_event, value))
                key_event = get_event()
                continue
            if type(key) is not str:  # a text is hashed already
                try:
                    hash(key)
                except TypeError:
                    self.fail(key_event, "this key cannot be used", "write the key as text")
            if key in result:
                self.fail(key_event, f"duplicate key '{key}'",
                          f"remove one of the two '{key}' entries")
            result[key] = value
            places[key] = self.place(key_event, value_event)
            key_event = get_event()
        for key_event, value in merges:
            self.merge(result, key_event, value)
        return result, size

    def merge(self, result: Map, key_event, value) -> None:
        """A YAML merge key, ``<<: *defaults`` or ``<<: [*a, *b]``: the merged mappings'
        entries are added where the mapping does not give its own, the first mapping
        named winning over later ones."""
        sources = value if isinstance(value, Seq) else [value]
        for source in sources:
            if not isinstance(source, Map):
                self.fail(key_event, "'<<' must name a mapping, e.g. '<<: *defaults'",
                          "point the alias at a mapping of 'key: value' lines")
            for key, item in source.items():
                if key not in result:
                    result[key] = item
                    result._set_place(key, source.key_at(key), source.at(key))


def _copy(value):
    """A deep copy of a built value, positions included (an alias gives a copy of its own,
    as it did when the node tree was composed)."""
    if isinstance(value, Map):
        copy = _new_map(value.where)
        copy.update((key, _copy(item)) for key, item in value.items())
        copy._places = dict(value._places)
        return copy
    if isinstance(value, Seq):
        copy = Seq(_copy(item) for item in value)
        copy.where, copy.item_where = value.where, list(value.item_where)
        return copy
    return value
