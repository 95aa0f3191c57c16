"""Card text as written, read into runs of words: ``**bold**`` and ``*italic*`` markup,
inline icons (``{crow}`` in a sentence shows the crow icon, scaled to the text; ``{{`` and
``}}`` are literal braces) and styled spans (``{keyword: Strike}`` sets 'Strike' in the
deck's text style 'keyword'; spans, markup and icons nest). :mod:`.textfit` lays them out.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from ..assets import fonts
from ..assets.catalog import BUNDLED, Assets, TextStyle
from ..assets.icons import Icon, inline_placement
from ..common.patterns import LatePattern

_MARKUP = LatePattern(r"(\*\*|\*)")
_BRACES = LatePattern(r"(\{\{|\}\}|\{[^{}:]*\})")  # literal braces, and icons
# Python's whitespace but the no-break spaces, which glue a number to its unit
_SPACES = re.compile(r"[^\S\xa0\u202f\u2007]+")
# a paragraph with markup, read as: bold and italic marks, literal braces, an icon, the
# start of a styled span ('{keyword:') and its end, spaces, and the words between them
_TOKENS = LatePattern(r"(\*\*|\*|\{\{|\}\}|\{[^{}:]*\}|\{\s*[\w-]+\s*:\s?|\}|"
                     + _SPACES.pattern + ")")
_SPAN = LatePattern(r"\{\s*([\w-]+)\s*:\s?")


class Run(NamedTuple):  # a tuple: a long text makes thousands of them
    text: str  # a word, or an icon's name
    font: str
    space_before: bool  # a space separates this run from the previous one on its line
    icon: Icon | None = None
    style: TextStyle | None = None  # the styled span it is in

    def unit_width(self, text: str | None = None) -> float:
        """The run's width (or that of ``text`` in its font) at 1000 pt: widths scale with
        the size."""
        if self.icon is None or text is not None:
            width = fonts.unit_width(self.text if text is None else text, self.font)
        else:
            width = inline_placement(self.icon, 1000)[0]
        return width if self.style is None else width * self.style.scale


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
    """Split one paragraph into words, each in the face its markup and span ask for.

    >>> [(r.text, r.font) for r in words('a **bold** move', 'Lato')]
    [('a', 'Lato'), ('bold', 'Lato-Bold'), ('move', 'Lato')]
    >>> [(r.text, bool(r.icon)) for r in words('{cup}: swap {{x}}', 'Lato')]
    [('cup', True), (':', False), ('swap', False), ('{x}', False)]
    """
    if is_plain(paragraph):  # the most common paragraph
        return [Run(word, font, i > 0) for i, word in
                enumerate(word for word in _SPACES.split(paragraph) if word)]
    runs: list[Run] = []
    bold = italic = space = False
    spans: list[TextStyle | None] = []  # the styles of the spans open, each within the last
    text = ""  # the word read so far, in the face and style of now

    def add(run_text: str, icon: Icon | None = None) -> None:
        nonlocal space
        style = spans[-1] if spans else None
        face = style.font if style is not None and style.font else font
        face = fonts.bold(face) if bold else face
        face = fonts.italic(face) if italic else face
        if style is not None and style.case and icon is None:
            run_text = run_text.upper() if style.case == "upper" else run_text.lower()
        runs.append(Run(run_text, face, space and bool(runs), icon, style))
        space = False

    for i, part in enumerate(_TOKENS.split(paragraph)):  # words, token, words...
        if part == "}}" and spans:  # the ends of two spans ({a: {b: x}}), or one's
            if text:
                add(text)
                text = ""
            spans.pop()
            part = "}"
        if i % 2 == 0 or part in ("{{", "}}"):
            text += part if i % 2 == 0 else part[0]
            continue
        icon = None
        if part[0] == "{" and part[-1] == "}":
            icon = assets.icons.get(part[1:-1].strip())
            if icon is None:  # not an icon: the card's check reports it
                text += part
                continue
        elif part == "}" and not spans:  # a brace that closes nothing
            text += part
            continue
        if text:
            add(text)
            text = ""
        if part == "**":
            bold = not bold
        elif part == "*":
            italic = not italic
        elif part == "}":
            spans.pop()
        elif icon is not None:
            add(icon.name, icon)
        elif part[0] == "{":  # a span opens; a style unknown is reported by the card's check
            style = assets.text_styles.get(_SPAN.match(part).group(1))
            outer = spans[-1] if spans else None
            spans.append(style.inside(outer) if style is not None else outer)
        else:  # spaces
            space = True
    if text:
        add(text)
    return runs


def unclosed_span(text: str) -> str:
    """The style of the first span a paragraph of ``text`` opens and does not close
    ('' if none).

    >>> unclosed_span('{keyword: Strike} and {aside: more'), unclosed_span('{{x}}')
    ('aside', '')
    """
    for paragraph in text.split("\n"):
        opened: list[str] = []
        for i, part in enumerate(_TOKENS.split(paragraph)):
            if i % 2 and part in ("}", "}}") and opened:
                del opened[-len(part):]
            elif i % 2 and _SPAN.fullmatch(part):
                opened.append(_SPAN.match(part).group(1))
        if opened:
            return opened[0]
    return ""


def span_names(text: str) -> list[str]:
    """The styles of the ``{style: ...}`` spans in a text.

    >>> span_names('{keyword: Strike} {crow} {rare:{keyword: x}}')
    ['keyword', 'rare', 'keyword']
    """
    return _SPAN.findall(text)
