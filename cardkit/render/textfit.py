"""Wrapping and shrink-to-fit for card text, its words read by :mod:`.textmarkup` (bold,
italic, inline icons, styled spans).

Pure layout: it measures with the fonts' metrics and returns lines of runs; drawing them is
the renderer's job. Line breaks in the text start new lines.

A line breaks at a space, after a dash or a slash inside a word ('Feuer-Eis', 'and/or'), and
at a soft hyphen (U+00AD), which is drawn as a hyphen there and nowhere else. It never
breaks at a no-break space (U+00A0, U+202F) nor before punctuation that a space parts from
its word ('Attaque !'). A word too long for a line is hyphenated by the dictionary of the
text's language (pyphen's); what else is done with text that does not fit is its
``overflow`` (:data:`cardkit.deck.properties.OVERFLOW`).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from functools import lru_cache
from itertools import accumulate, repeat
from operator import add
from typing import NamedTuple

from ..assets import fonts
from ..assets.catalog import BUNDLED, Assets
from ..assets.fonts import ascent_descent
from ..assets.shaping import base_rtl
from ..common.patterns import LatePattern
from .hyphenation import patterns
from .textmarkup import Run, is_plain, words

SHRINK_STEP = 0.25  # points
SOFT_HYPHEN = "\xad"
ELLIPSIS = "\u2026"
# what a plain paragraph (one measured by the fast path) must not have: a place to break
# inside a word, a no-break space, punctuation a space parts from its word, Chinese,
# Japanese or Korean. Compiled when first used (re's cache), as _CJK: most texts are
# ASCII, and compiling them takes 5 ms.
_NOT_PLAIN = (r"[\xad\xa0\u202f\u2007/\-\u2010\u2013\u2014]|\s[!?:;.,…»)\]%]|«\s|"
              "[\u1100-\u11ff\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]")
# the same in ASCII text, found from its punctuation, 8 times as fast
_NOT_PLAIN_ASCII = re.compile(r"[-/!?:;.,)\]%](?:(?<=[-/])|(?<=\s.))")
# Chinese, Japanese and Korean letters and punctuation: lines break between them, by the
# Unicode line breaking algorithm (UAX #14, uniseg's)
_CJK = "[\u1100-\u11ff\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]"
_INNER_BREAK = LatePattern(r"(?<=\w[/\-\u2010\u2013\u2014])(?=\w)|\xad")  # after a dash, a slash
_CLOSING = tuple("!?:;.,…»)]%")  # never starts a line after a space
_LETTERS = LatePattern(r"[^\W\d_]{5,}")  # what the dictionary hyphenates
# A NamedTuple made of every one of its fields, in order, without its own __new__ (a Python
# function): what is made for each line and each text fitted
_made = tuple.__new__


class Line(NamedTuple):
    runs: tuple[Run, ...]
    offsets: tuple[float, ...]  # where each run starts, from the line's start
    width: float  # at the block's size
    rtl: bool = False  # its paragraph runs right to left (its first letter is Hebrew, Arabic)


class TextBlock(NamedTuple):
    size: float
    leading: float  # distance between baselines, points
    lines: tuple[Line, ...]
    ascent: float
    descent: float
    fits: bool
    cut: bool = False  # the text's end is left off, an ellipsis ending its last line

    @property
    def height(self) -> float:
        if not self.lines:
            return 0.0
        return self.ascent + self.descent + self.leading * (len(self.lines) - 1)


class Piece(NamedTuple):
    """Runs that a line never breaks inside, measured at 1000 pt: a word, or the part of one
    up to a place where it may break (a dash, a slash, a soft hyphen, a hyphenation point)."""

    runs: tuple[Run, ...]
    units: tuple[float, ...]  # each run's width
    gaps: tuple[float, ...]  # the space before each run, 0 where there is none
    hyphen: bool  # a line that breaks after it ends with a hyphen

    @property
    def width(self) -> float:  # without the space before it
        return sum(self.units) + sum(self.gaps) - self.gaps[0]


class Breaking(NamedTuple):
    """How lines may break beyond spaces, dashes and soft hyphens: ``language``'s
    dictionary hyphenates a word too long for a line (every word a line ends in, with
    ``everywhere``), and with ``anywhere`` a piece still too long breaks between any two
    characters."""

    language: str = ""
    everywhere: bool = False
    anywhere: bool = False


@lru_cache(maxsize=8192)
def _hyphenation_points(text: str, language: str) -> tuple[int, ...]:
    """Where the dictionary may break ``text`` with a hyphen, as offsets into it; nowhere
    in a code (a word with a digit in it), which is no word of the language.

    >>> _hyphenation_points('Schwarmangriff,', 'de'), _hyphenation_points('Z9ABCDEFGH', 'en')
    ((7, 9), ())
    """
    found = patterns(language)
    if found is None or any(character.isdigit() for character in text):
        return ()
    return tuple(match.start() + point for match in _LETTERS.finditer(text)
                 for point in found.points(match.group()))


def _pieces(runs: list[Run]) -> list[Piece]:
    """The runs of a paragraph cut into pieces where a line may break: at spaces (but
    before punctuation), after a dash or a slash inside a word, at soft hyphens (dropped)."""
    pieces: list[list] = []  # [runs, units, gaps, hyphen]
    spaces: dict[str, float] = {}  # font -> the width of its space
    apart = True  # the next run starts a piece: nothing is before it, or a break is
    for run in runs:
        for part, after in ([(run, None)] if run.icon else _inner_breaks(run)):
            gap = 0.0
            if part.space_before and part.style is not None:
                gap = part.unit_width(" ")
            elif part.space_before:
                gap = spaces.get(part.font) or spaces.setdefault(
                    part.font, fonts.unit_width(" ", part.font))
            glued = not part.icon and part.text.startswith(_CLOSING) or \
                bool(pieces) and pieces[-1][0][-1].text.endswith("«")
            if apart or (part.space_before and not glued):
                pieces.append([[], [], [], False])
            piece = pieces[-1]
            piece[0].append(part)
            piece[1].append(part.unit_width())
            piece[2].append(gap)
            piece[3] = after == SOFT_HYPHEN
            apart = after is not None
    return [Piece(tuple(r), tuple(u), tuple(g), h) for r, u, g, h in pieces]


def _inner_breaks(run: Run):
    """``run`` cut where a line may break inside its word, each part with what follows
    it there: a soft hyphen (dropped; the line then ends in a hyphen), a dash or a slash
    ('' : the line ends in it), a break between Chinese, Japanese or Korean characters
    (''), or None for the run's last part."""
    text = run.text
    cuts = [(match.start(), match.end(), match.group()) for match in _INNER_BREAK.finditer(text)]
    if not text.isascii() and re.search(_CJK, text):
        taken = {end for _, end, _ in cuts}
        cuts = sorted(cuts + [(at, at, "") for at in _line_breaks(text) if at not in taken])
    start, first = 0, True
    for cut, end, after in cuts:
        part = text[start:cut]
        if part:
            yield run._replace(text=part, space_before=run.space_before and first), after
            first = False
        start = end
    if start < len(text):
        yield run._replace(text=text[start:], space_before=run.space_before and first), None


@lru_cache(maxsize=4096)
def _line_breaks(text: str) -> tuple[int, ...]:
    """Where a line may break inside ``text`` (a word with no space), by the Unicode line
    breaking algorithm (UAX #14): between most Chinese, Japanese and Korean characters,
    never before a closing bracket or full stop ('。', '」'), after an opening bracket, nor
    inside a Latin word (the kinsoku rules).

    >>> _line_breaks('二枚引く。「山札」')
    (1, 2, 3, 5, 7)
    """
    from uniseg.linebreak import line_break_boundaries

    return tuple(at for at in line_break_boundaries(text) if 0 < at < len(text))


def _split_piece(piece: Piece, points) -> list[Piece]:
    """``piece`` cut further: ``points(text)`` says where each of its text runs may break,
    (offset, whether the line then ends in a hyphen)."""
    out: list[list] = [[[], [], [], False]]
    for run, unit, gap in zip(piece.runs, piece.units, piece.gaps):
        cuts = () if run.icon else points(run.text)
        if not cuts:
            out[-1][0].append(run)
            out[-1][1].append(unit)
            out[-1][2].append(gap)
            continue
        start = 0
        for cut, hyphen in [*cuts, (len(run.text), None)]:
            part = run._replace(text=run.text[start:cut],
                                space_before=run.space_before and start == 0)
            out[-1][0].append(part)
            out[-1][1].append(part.unit_width())
            out[-1][2].append(gap if start == 0 else 0.0)
            if hyphen is not None:
                out[-1][3] = hyphen
                out.append([[], [], [], False])
            start = cut
    out[-1][3] = piece.hyphen
    return [Piece(tuple(r), tuple(u), tuple(g), h) for r, u, g, h in out]


def _expanded(pieces: list[Piece], room: float, breaking: Breaking):
    """The pieces a paragraph's lines are filled with at a size where a line is ``room``
    wide (at 1000 pt): those too long for a line (or every one, with ``everywhere``)
    hyphenated by the dictionary, and those still too long cut anywhere."""
    language = breaking.language
    for piece in pieces:
        if language and (breaking.everywhere or piece.width > room):
            parts = _split_piece(piece, lambda text: [
                (point, True) for point in _hyphenation_points(text, language)])
        else:
            parts = [piece]
        for part in parts:
            if breaking.anywhere and part.width > room:
                yield from _split_piece(part, lambda text: [
                    (i, False) for i in range(1, len(text))])
            else:
                yield part


def _hyphen_width(run: Run) -> float:
    """What a hyphen after ``run`` adds to its line at 1000 pt: the word is shaped with it
    (a font kerns some letters with a hyphen)."""
    if run.icon:
        return run.unit_width("-")
    return run.unit_width(run.text + "-") - run.unit_width()


def _wrap(pieces: list[Piece], width: float, size: float,
          breaking: Breaking = Breaking()) -> tuple[list[Line], bool]:
    """Greedy line filling of a paragraph's pieces at ``size``; also says whether every
    line fits the width. A line that breaks after a piece with ``hyphen`` ends in one.

    Runs with no space between them (``4{heart}.``: a number, an icon and a full stop) are
    one piece, moved to the next line whole.
    """
    scale = size / 1000
    room = width / scale * (1 + 1e-12)  # at 1000 pt
    lines: list[Line] = []
    runs: list[Run] = []
    offsets: list[float] = []
    used, fits, hyphen = 0.0, True, False

    def close() -> bool:
        """End the line; whether it fits."""
        nonlocal used
        if hyphen:
            last = runs[-1]
            used += _hyphen_width(last)
            runs[-1] = last._replace(text=last.text + "-")
        lines.append(Line(tuple(runs), tuple(offset * scale for offset in offsets),
                          used * scale))
        return used <= room

    for piece in _expanded(pieces, room, breaking):
        gap = piece.gaps[0] if runs else 0.0
        end = used + gap + piece.width
        if runs and end + (_hyphen_width(piece.runs[-1]) if piece.hyphen else 0.0) > room:
            fits = close() and fits
            runs, offsets, used, gap = [], [], 0.0, 0.0
        at = used + gap
        for i, (run, unit) in enumerate(zip(piece.runs, piece.units)):
            if i:
                at += piece.gaps[i]
            elif not runs and run.space_before:
                run = run._replace(space_before=False)
            runs.append(run)
            offsets.append(at)
            at += unit
        used, hyphen = at, piece.hyphen
    hyphen = False
    fits = close() and fits
    return lines, fits


class Plain(NamedTuple):
    """A paragraph of words only, in one font, measured: the most common paragraph, whose
    lines are each drawn as one string."""

    words: list[str]
    # where each word starts at 1000 pt, the words set in a row with a space after each,
    # and where the last space ends: a line of words i..j-1 is reach[j] - reach[i] - space
    reach: list[float]
    space: float  # the font's space at 1000 pt
    font: str

    def pieces(self) -> list[Piece]:
        """The paragraph as pieces, to break a word too long for a line."""
        return _pieces([Run(word, self.font, i > 0) for i, word in enumerate(self.words)])


def _plain(paragraph: str, font: str) -> Plain:
    found = paragraph.split()
    space, *units = fonts.unit_widths([" ", *found], font)
    return _made(Plain, (found, list(accumulate(map(add, units, repeat(space)), initial=0.0)),
                         space, font))


def _plain_words(paragraph: str) -> bool:
    """Whether a paragraph without markup has none of what :data:`_NOT_PLAIN` finds: its
    lines break at its spaces alone."""
    if paragraph.isascii():
        return _NOT_PLAIN_ASCII.search(paragraph) is None
    return re.search(_NOT_PLAIN, paragraph) is None


def _wrap_plain(paragraph: Plain, width: float, size: float) -> tuple[list[Line], bool]:
    """:func:`_wrap` for a plain paragraph; each line is one run of its words. A line
    takes the words that fit from where the last one ended, and at least one word."""
    scale = size / 1000
    words, reach, space, font = paragraph
    room = width / scale * (1 + 1e-12) + space  # at 1000 pt, with the last word's space
    lines, start, fits = [], 0, True
    while start < len(words):
        end = max(bisect_right(reach, reach[start] + room, start) - 1, start + 1)
        used = (reach[end] - reach[start] - space) * scale
        fits = fits and used <= width + 1e-6
        run = _made(Run, (" ".join(words[start:end]), font, False, None, None))
        lines.append(_made(Line, ((run,), (0.0,), used, False)))
        start = end
    return lines or [Line((), (), 0.0)], fits


@lru_cache(maxsize=None)  # a few languages and overflows; asked for each text fitted
def _stages(language: str, overflow: str) -> tuple[tuple[Breaking, bool], ...]:
    """The ways a text is tried in, in turn, each (how lines break, whether it shrinks
    down to min_size), until one fits: the dictionary only for a word too long for a line
    even at min_size, or for every line's last word before shrinking ('hyphenate')."""
    if overflow == "hyphenate":
        return (Breaking(), False), (Breaking(language, everywhere=True), True)
    stages = [(Breaking(), True)]
    if language:
        stages.append((Breaking(language), True))
    if overflow in ("break-anywhere", "ellipsis"):
        stages.append((Breaking(language, anywhere=True), True))
    return tuple(stages)


# Cards of a deck often share a text (a rule, a reminder); a long deck of distinct texts
# would fill a bigger cache without a single hit.
@lru_cache(maxsize=512)
def fit_text(text: str, font: str, width: float, height: float, size: float,
             min_size: float | None = None, leading: float = 1.2,
             assets: Assets = BUNDLED, language: str = "",
             overflow: str = "shrink") -> TextBlock:
    """Lay ``text`` out in a box at the largest size from ``size`` down to ``min_size``
    (in steps of a quarter point) at which it fits. If even ``min_size`` is too big, the
    layout at ``min_size`` is returned with ``fits`` False, or with ``overflow``
    'ellipsis' cut to the lines that fit. ``{name}``s are the icons of ``assets``;
    ``language`` picks the hyphenation dictionary ('' none).
    """
    written = text.split("\n")
    paragraphs = [_plain(p, font) if is_plain(p) and _plain_words(p)
                  else _pieces(words(p, font, assets)) for p in written]
    # (an ASCII text has no Hebrew or Arabic letter: no call a paragraph)
    directions = (False,) * len(written) if text.isascii() else tuple(map(base_rtl, written))
    for breaking, shrinks in _stages(language, overflow):
        block = _shrunk(paragraphs, directions, font, width, height, size,
                        min_size if shrinks else None, leading, breaking)
        if block.fits:
            return block
    if overflow == "ellipsis":
        return _ellipsized(block, width, height)
    return block


def _shrunk(paragraphs, directions, font, width, height, size, min_size, leading,
            breaking: Breaking) -> TextBlock:
    """The text at the largest size down to ``min_size`` at which it fits, or at
    ``min_size`` if none."""
    steps = int(round((size - min(size, min_size or size)) / SHRINK_STEP))
    block = _layout(paragraphs, directions, font, width, height, size, leading, breaking)
    if block.fits or not steps:  # most texts fit at their size
        return block
    # Text that fits at one size fits at every smaller one: search the steps by halves.
    low, high = 1, steps  # the answer is in [low, high]; at `steps` we stop regardless
    best = None
    while low <= high:
        middle = (low + high) // 2
        block = _layout(paragraphs, directions, font, width, height, size - middle * SHRINK_STEP,
                        leading, breaking)
        if block.fits:
            best, high = block, middle - 1
        else:
            low = middle + 1
    return best or _layout(paragraphs, directions, font, width, height, size - steps * SHRINK_STEP,
                           leading, breaking)


def _layout(paragraphs, directions, font, width, height, size, leading,
            breaking: Breaking) -> TextBlock:
    lines, fits = [], True
    for paragraph, rtl in zip(paragraphs, directions):
        if isinstance(paragraph, Plain):
            wrapped, ok = _wrap_plain(paragraph, width, size)
            if not ok and breaking != Breaking():  # a word too long: the pieces can break
                wrapped, ok = _wrap(paragraph.pieces(), width, size, breaking)
        else:
            wrapped, ok = _wrap(paragraph, width, size, breaking)
        lines.extend([line._replace(rtl=True) for line in wrapped] if rtl else wrapped)
        fits = fits and ok
    ascent, descent = ascent_descent(font, size)
    block = _made(TextBlock, (size, size * leading, tuple(lines), ascent, descent, fits, False))
    if fits and block.height > height + 1e-6:
        return block._replace(fits=False)
    return block


def _ellipsized(block: TextBlock, width: float, height: float) -> TextBlock:
    """``block`` cut to the lines its box holds, the last one ending in an ellipsis
    (words taken off it until the ellipsis fits); ``cut`` says so."""
    held = int((height - block.ascent - block.descent) / block.leading + 1e-9) + 1
    lines = list(block.lines[:max(1, held)])
    runs, offsets = list(lines[-1].runs), list(lines[-1].offsets)
    scale = block.size / 1000

    def end() -> float:
        last = runs[-1]
        return offsets[-1] + (last.unit_width() + last.unit_width(ELLIPSIS)) * scale

    while runs and end() > width + 1e-6:
        last = runs[-1]
        if not last.icon and " " in last.text:  # a plain line: take its last word off
            runs[-1] = last._replace(text=last.text.rsplit(" ", 1)[0])
        elif len(runs) > 1:
            runs.pop(), offsets.pop()
        elif len(last.text) > 1:
            runs[-1] = last._replace(text=last.text[:-1])
        else:
            break
    last = runs[-1]
    if last.icon:
        runs.append(Run(ELLIPSIS, last.font, False, None, last.style))
        offsets.append(offsets[-1] + last.unit_width() * scale)
    else:
        runs[-1] = last._replace(text=last.text.rstrip(" ,;:-") + ELLIPSIS)
    last = runs[-1]
    lines[-1] = lines[-1]._replace(runs=tuple(runs), offsets=tuple(offsets),
                                   width=offsets[-1] + last.unit_width() * scale)
    cut = block._replace(lines=tuple(lines), cut=True)
    return cut._replace(fits=held >= 1 and cut.height <= height + 1e-6 and
                        lines[-1].width <= width + 1e-6)
