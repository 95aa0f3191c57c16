"""Wrapping and shrink-to-fit for card text, with ``**bold**`` and ``*italic*`` markup and
inline icons (``{crow}`` in a sentence shows the crow icon, scaled to the text; ``{{`` and
``}}`` are literal braces).

Pure layout: it measures with the fonts' metrics and returns lines of runs; drawing them is
the renderer's job. Line breaks in the text start new lines.
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
from ..assets.icons import Icon, inline_placement

_MARKUP = re.compile(r"(\*\*|\*)")
_BRACES = re.compile(r"(\{\{|\}\}|\{[^{}]*\})")
SHRINK_STEP = 0.25  # points


class Run(NamedTuple):  # a tuple: a long text makes thousands of them
    text: str  # a word, or an icon's name
    font: str
    space_before: bool  # a space separates this run from the previous one on its line
    icon: Icon | None = None

    def unit_width(self) -> float:
        """The run's width at 1000 pt: widths scale with the size."""
        if self.icon is None:
            return fonts.unit_width(self.text, self.font)
        return inline_placement(self.icon, 1000)[0]


class Line(NamedTuple):
    runs: tuple[Run, ...]
    offsets: tuple[float, ...]  # where each run starts, from the line's start
    width: float  # at the block's size


class Word(NamedTuple):
    """Runs with no space between them, which a line break never splits, measured."""

    runs: tuple[Run, ...]
    units: tuple[float, ...]  # each run's width at 1000 pt
    width: float  # all of them, at 1000 pt
    gap: float  # the space before the word at 1000 pt, 0 if it has none


class TextBlock(NamedTuple):
    size: float
    leading: float  # distance between baselines, points
    lines: tuple[Line, ...]
    ascent: float
    descent: float
    fits: bool

    @property
    def height(self) -> float:
        if not self.lines:
            return 0.0
        return self.ascent + self.descent + self.leading * (len(self.lines) - 1)


def is_plain(text: str) -> bool:
    """Whether ``text`` is words only: no markup, icons or braces.

    >>> is_plain('Draw two cards.'), is_plain('Draw {cup}.'), is_plain('a **b**')
    (True, False, False)
    """
    return "*" not in text and "{" not in text and "}" not in text  # faster than a regex


def icon_names(text: str) -> list[str]:
    """The ``{name}``s in a text (not ``{{`` or ``}}``): each must be an icon.

    >>> icon_names('{{x}} {crow} and {cup}')
    ['crow', 'cup']
    """
    return [token[1:-1].strip() for token in _BRACES.findall(text)
            if token not in ("{{", "}}")]


def markup(text: str) -> tuple[set[str], str]:
    """The markup a text uses, ``**`` (bold) and ``*`` (italic), and the one a paragraph
    opens and does not close ('' when every one is closed).

    >>> markup('a **bold move')
    ({'**'}, '**')
    >>> used, unclosed = markup('*fine* and **firm**'); sorted(used), unclosed
    (['*', '**'], '')
    """
    used, unclosed = set(), ""
    for paragraph in text.split("\n"):
        pieces = _MARKUP.split(paragraph)
        for mark in ("**", "*"):
            count = pieces.count(mark)
            if count:
                used.add(mark)
            if count % 2 and not unclosed:
                unclosed = mark
    return used, unclosed


def words(paragraph: str, font: str, assets: Assets = BUNDLED) -> list[Run]:
    """Split one paragraph into words, each in the face its markup asks for.

    >>> [(r.text, r.font) for r in words('a **bold** move', 'Lato')]
    [('a', 'Lato'), ('bold', 'Lato-Bold'), ('move', 'Lato')]
    >>> [(r.text, bool(r.icon)) for r in words('{cup}: swap {{x}}', 'Lato')]
    [('cup', True), (':', False), ('swap', False), ('{x}', False)]
    """
    if is_plain(paragraph):  # the most common paragraph
        return [Run(word, font, i > 0) for i, word in enumerate(paragraph.split())]
    runs, bold, italic, space = [], False, False, False
    for piece in _MARKUP.split(paragraph):
        if piece == "**":
            bold = not bold
            continue
        if piece == "*":
            italic = not italic
            continue
        face = fonts.bold(font) if bold else font
        face = fonts.italic(face) if italic else face
        for word in re.split(r"(\s+)", piece):
            if not word:
                continue
            if word.isspace():
                space = True
                continue
            text = ""
            for part in _BRACES.split(word):
                if part in ("{{", "}}"):
                    text += part[0]
                    continue
                icon = assets.icons.get(part[1:-1].strip()) if _BRACES.fullmatch(part) else None
                if icon is None:
                    text += part
                    continue
                if text:
                    runs.append(Run(text, face, space and bool(runs)))
                    space, text = False, ""
                runs.append(Run(icon.name, face, space and bool(runs), icon))
                space = False
            if text:
                runs.append(Run(text, face, space and bool(runs)))
                space = False
    return runs


def _wrap(words: list[Word], width: float, size: float) -> tuple[list[Line], bool]:
    """Greedy line filling of a paragraph's words (see :func:`_measured`) at ``size``; also
    says whether every word fits the width on its own.

    A line breaks only at a space, so runs with no space between them (``4{heart}.``: a
    number, an icon and a full stop) are one word, moved to the next line whole.
    """
    scale = size / 1000
    lines, current, offsets, used, fits = [], [], [], 0.0, True
    for runs, units, total, gap in words:
        gap = gap * scale if current else 0.0
        if gap and used + gap + total * scale > width:
            lines.append(Line(tuple(current), tuple(offsets), used))
            current, offsets, used, gap = [], [], 0.0, 0.0
            runs = (runs[0]._replace(space_before=False), *runs[1:])
        used += gap
        if len(runs) == 1:  # most words are a single run
            current.append(runs[0])
            offsets.append(used)
            used += total * scale
        else:
            for run, unit in zip(runs, units):
                current.append(run)
                offsets.append(used)
                used += unit * scale
        fits = fits and used <= width + 1e-6
    lines.append(Line(tuple(current), tuple(offsets), used))
    return lines, fits


def _measured(runs: list[Run]) -> list[Word]:
    """The runs grouped into words (a run after a space starts the next word), measured
    once for every size the text is tried at."""
    measured: list[Word] = []
    spaces: dict[str, float] = {}  # font -> the width of its space
    for run in runs:
        width = run.unit_width()
        if run.space_before or not measured:
            gap = 0.0
            if run.space_before:
                gap = spaces.get(run.font) or spaces.setdefault(
                    run.font, fonts.unit_width(" ", run.font))
            measured.append(Word((run,), (width,), width, gap))
        else:  # no space before it: part of the word before
            word = measured[-1]
            measured[-1] = Word(word.runs + (run,), word.units + (width,),
                                word.width + width, word.gap)
    return measured


class Plain(NamedTuple):
    """A paragraph of words only, in one font, measured: the most common paragraph, whose
    lines are each drawn as one string."""

    words: list[str]
    # where each word starts at 1000 pt, the words set in a row with a space after each,
    # and where the last space ends: a line of words i..j-1 is reach[j] - reach[i] - space
    reach: list[float]
    space: float  # the font's space at 1000 pt
    font: str


def _plain(paragraph: str, font: str) -> Plain:
    found = paragraph.split()
    space = fonts.unit_width(" ", font)
    units = fonts.unit_widths(found, font)
    return Plain(found, list(accumulate(map(add, units, repeat(space)), initial=0.0)), space,
                 font)


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
        lines.append(Line((Run(" ".join(words[start:end]), font, False),), (0.0,), used))
        start = end
    return lines or [Line((), (), 0.0)], fits


# Cards of a deck often share a text (a rule, a reminder); a long deck of distinct texts
# would fill a bigger cache without a single hit.
@lru_cache(maxsize=512)
def fit_text(text: str, font: str, width: float, height: float, size: float,
             min_size: float | None = None, leading: float = 1.2,
             assets: Assets = BUNDLED) -> TextBlock:
    """Lay ``text`` out in a box at the largest size from ``size`` down to ``min_size``
    (in steps of a quarter point) at which it fits. If even ``min_size`` is too big, the
    layout at ``min_size`` is returned with ``fits`` False. ``{name}``s are the icons of
    ``assets``.
    """
    paragraphs = [_plain(p, font) if is_plain(p) else _measured(words(p, font, assets))
                  for p in text.split("\n")]
    steps = int(round((size - min(size, min_size or size)) / SHRINK_STEP))
    block = _layout(paragraphs, font, width, height, size, leading)
    if block.fits or not steps:  # most texts fit at their size
        return block
    # Text that fits at one size fits at every smaller one: search the steps by halves.
    low, high = 1, steps  # the answer is in [low, high]; at `steps` we stop regardless
    best = None
    while low <= high:
        middle = (low + high) // 2
        block = _layout(paragraphs, font, width, height, size - middle * SHRINK_STEP, leading)
        if block.fits:
            best, high = block, middle - 1
        else:
            low = middle + 1
    return best or _layout(paragraphs, font, width, height, size - steps * SHRINK_STEP,
                           leading)


def _layout(paragraphs, font, width, height, size, leading) -> TextBlock:
    lines, fits = [], True
    for paragraph in paragraphs:
        wrap = _wrap_plain if isinstance(paragraph, Plain) else _wrap
        wrapped, ok = wrap(paragraph, width, size)
        lines.extend(wrapped)
        fits = fits and ok
    ascent, descent = ascent_descent(font, size)
    block = TextBlock(size, size * leading, tuple(lines), ascent, descent, fits)
    if fits and block.height > height + 1e-6:
        return block._replace(fits=False)
    return block
