"""Set text onto a canvas: each line of a laid-out :class:`~.textfit.TextBlock` at its
origin, in its runs' fonts, sizes and colours, with inline icons; lines in the font's
kerning (``TJ`` arrays: printable ASCII from each word's cached piece, anything else as
HarfBuzz shaped it), right-to-left runs in their visual order, and glyphs that are not
the characters written tagged with the text they stand for, so the page still extracts
and searches as written. Shared by cards (:mod:`.paint`) and the rulebook, and, through
:func:`set_line`, by every line a page writes of its own (footers, legends, captions)."""

from __future__ import annotations

import re
from functools import lru_cache
from operator import attrgetter, itemgetter
from typing import NamedTuple
from weakref import WeakKeyDictionary

from reportlab.lib.rl_accel import escapePDF, fp_str
from reportlab.pdfbase import pdfmetrics

from ..assets import fonts
from ..assets.icons import inline_placement
from ..assets.shaping import (ISOLATE_MARKS, drawn, drawn_word, drawn_order, has_right_to_left,
                              levels, read_right_to_left, shape, visual_order)
from ..sources.checks import faded
from .textfit import Line, TextBlock
from .textmarkup import Run


def set_text(canvas, block: TextBlock, origins, colour, opacity: float = 1.0,
             icon_colours=()) -> None:
    """Draw a laid-out text, each line starting at its (x, baseline) of ``origins`` on
    the canvas, its inline icons in ``colour`` or their own (``icon_colours``), or their
    styled span's: a card's text, or a rulebook's paragraph."""
    ink = faded(colour, opacity)
    canvas.setFillColor(ink)
    text = canvas.beginText(*origins[0]) if origins else canvas.beginText()
    if len(origins) > 1:  # a line's last string ends it: the next starts a leading below
        text.setLeading(block.leading)
    icons: list = []
    look = (None, None, ink)  # the text object's font, size and colour
    for line, (x, baseline) in zip(block.lines, origins):
        if abs(text._x - x) > 1e-6 or abs(text._y - baseline) > 1e-6:  # (its getCursor())
            text.setTextOrigin(x, baseline)
        look = _text_line(text, line, x, baseline, block, look, ink, opacity, icons)
    canvas.drawText(text)
    if not icons:
        return
    colours = dict(icon_colours)
    for icon, x, y, style in icons:  # a single-colour icon takes the text's colour, or its own
        size = block.size * (style.scale if style is not None else 1.0)
        _, dx, dy, side = inline_placement(icon, size)
        own = colours.get(icon.name) or (style is not None and style.colour) or colour
        icon.draw(canvas, x + dx, y + dy, side, side, own, opacity=opacity, set_string=set_line)


ANCHORS = {"left": 0.0, "centre": 0.5, "right": 1.0}  # of a line's width, left of its x
_MARKS = re.compile(f"[{ISOLATE_MARKS}]")  # (str.translate takes four times as long)


def set_line(canvas, x: float, y: float, text: str, anchor: str = "left",
             fallbacks: tuple[str, ...] = ()) -> None:
    """Draw ``text``, one line of a page's own words (a footer, a legend, a caption), in
    the canvas's font, size and colour, its baseline at ``y``, its left end, centre or
    right end (``anchor``) at ``x``: shaped and kerned as a card's text is, a Hebrew or
    Arabic name in it right to left, in a line that runs left to right (the page's words
    are English), a deck's words put in it as :func:`~.shaping.isolated` in their own.
    Letters the canvas's font lacks are set in the first of ``fallbacks`` (the deck's
    fonts) that has them."""
    font, size = canvas._fontname, canvas._fontsize
    if not has_right_to_left(text):  # the isolates' marks order nothing: they are not drawn
        text = _MARKS.sub("", text)
    runs, width = font_runs(text, font, fallbacks), line_width(text, font, size, fallbacks)
    line = Line(runs, (0.0,) * len(runs), width)
    block = TextBlock(size, canvas._leading, (line,), 0.0, 0.0, True)
    x -= ANCHORS[anchor] * width
    writing = canvas.beginText(x, y)
    _text_line(writing, line, x, y, block, (font, size, None), None, 1.0, [])
    canvas.drawText(writing)


def line_width(text: str, font: str, size: float, fallbacks: tuple[str, ...] = ()) -> float:
    """The width :func:`set_line` draws ``text`` at in ``font`` at ``size``, in points."""
    return sum(run.unit_width() for run in font_runs(text, font, fallbacks)) * size / 1000


@lru_cache(maxsize=1024)
def font_runs(text: str, font: str, fallbacks: tuple[str, ...] = ()) -> tuple[Run, ...]:
    """``text`` in runs of one font each: ``font`` where it has the letters, else the
    first of ``fallbacks`` that does (spaces, and letters none has, stay in the run they
    are in).

    >>> [run.text for run in font_runs('Torch', 'Lato', ('Lato-Bold',))]
    ['Torch']
    """
    if not fallbacks or not fonts.missing_chars(font, text):
        return (Run(text, font, False),)
    runs: list[list[str]] = []  # [font, characters]
    for char in text:
        own = next((face for face in (font, *fallbacks)
                    if not fonts.missing_chars(face, char)), None)
        if runs and (own is None or own == runs[-1][0] or char.isspace()):
            runs[-1][1] += char
        else:
            runs.append([own or font, char])
    return tuple(Run(characters, face, False) for face, characters in runs)


def _text_line(text, line, x: float, baseline: float, block: TextBlock, look: tuple,
               ink, opacity: float, icons: list) -> tuple:
    """Write one line's words, which start at the text cursor, into the text object in as
    few strings as its fonts, styles and icons allow (a plain line is one string), the
    text object's font, size and colour being ``look``. The last string moves the cursor
    to the next line's start at the left (T*). Adds the line's icons, (icon, x, baseline,
    style), to ``icons`` to draw after the text. Returns the look the text object ends in.
    A line with right-to-left letters is :func:`_visual_line`'s."""
    if len(line.runs) == 1 and not line.rtl:  # told first: most lines of most texts
        run = line.runs[0]
        if run.icon is None and run.style is None:
            if run.font != look[0] or block.size != look[1] or ink is not look[2]:
                look = _looked(text, (run.font, block.size, ink), look, block.leading)
            if _written_known(text, run.text, run.font):  # most lines of most texts
                return look
            if not has_right_to_left(run.text):
                _write(text, run.text, run.font, last=True)  # a plain paragraph's line
                return look
    if line.rtl or any(not run.icon and has_right_to_left(run.text) for run in line.runs):
        return _visual_line(text, line, x, baseline, block, look, ink, opacity, icons)
    size, leading = block.size, block.leading
    pending = []
    follows = True  # the text cursor is where the next run starts

    def flush(last=False):
        if pending:
            _write(text, "".join(pending), look[0], last)
            pending.clear()

    for run, offset in zip(line.runs, line.offsets):
        style = run.style
        if run.icon:
            flush()
            icons.append((run.icon, x + offset, baseline, style))
            follows = False
            continue
        wanted = _look(run, size, ink, opacity)
        if wanted != look:
            flush()
            look = _looked(text, wanted, look, leading)
        if follows:
            pending.append(" " + run.text if run.space_before else run.text)
        else:
            flush()
            text.setTextOrigin(x + offset, baseline)
            pending.append(run.text)
            follows = True
    flush(last=True)
    return look


def _look(run, size: float, ink, opacity: float) -> tuple:
    """The font, size and colour ``run`` is drawn in, in a text set at ``size``."""
    style = run.style
    if style is None:
        return run.font, size, ink
    return run.font, size * style.scale, faded(style.colour, opacity) or ink


def _looked(text, wanted: tuple, look: tuple, leading: float) -> tuple:
    """Set the text object's font, size and colour to ``wanted`` where ``look`` differs."""
    if wanted[:2] != look[:2]:
        text.setFont(wanted[0], wanted[1], leading)
    if wanted[2] is not look[2]:
        text.setFillColor(wanted[2])
    return wanted


def _write(text, string: str, font: str, last: bool = False, rtl: bool | None = None,
           actual: str | None = None) -> None:
    """Write ``string`` shaped in ``font`` at the text cursor (and with ``last`` move the
    cursor to the next line). Where the glyphs drawn are not the characters written (a
    ligature, joined Arabic letters), they are marked as standing for the words written,
    which text extraction and search then read; with ``actual``, the whole string is
    marked as standing for it instead (one mark: PDFium misreads marks inside marks)."""
    if rtl is None and actual is None:
        if _written_ascii(text, string, font, last):
            return
        parts = _ligature_parts(string, font)
        if len(parts) > 1:  # the words between its ligatures written the fast way
            for i, part in enumerate(parts):
                _write(text, part, font, last and i == len(parts) - 1)
            return
    pieces = drawn(string, font, rtl)
    if actual is not None:
        text._code.append(f"/Span <</ActualText <{_utf16(actual)}>>> BDC")
    for i, piece in enumerate(pieces):
        ends = last and i == len(pieces) - 1
        tagged = actual is None and piece.actual is not None
        if tagged:  # reportlab's text objects have no call for it
            text._code.append(f"/Span <</ActualText <{_utf16(piece.actual)}>>> BDC")
        if piece.kerning is None:
            (text.textLine if ends else text.textOut)(piece.glyphs)
        else:
            _kerned(text, piece, ends)
        if tagged:
            text._code.append("EMC")
    if actual is not None:
        text._code.append("EMC")


def _written_ascii(text, string: str, font: str, last: bool) -> bool:
    """Write ``string`` as :func:`_write` does, if all its words are :func:`_ascii_word`'s
    (or :func:`_document_word`'s) and its font is in use in the document already, from
    each word's part of the ``TJ`` array, made once: most lines of most decks. Returns
    whether it did."""
    known = _ASCII_WORDS.get(font)
    space = known.get(" ") if known else None
    if space is None:
        space = _ascii_word(" ", font)
    if not string or space is None or space.written != " ":
        return False
    split = string.split(" ")
    words = list(map(_ASCII_WORDS[font].get, split))  # most words are known: no call each
    canvas = text._canvas
    marked = False  # a word is drawn with a ligature
    if None in words:
        if not _document_words(words, split, font, canvas._doc):
            return False
        marked = any(map(attrgetter("actual"), words))  # (no call a word)
        if marked and not last:  # the long way moves the cursor word by word
            return False
    prefix = ""
    if text._curSubset != 0:  # the font was set since its last string: name its subset
        prefix = _font_set(text, font)
        if prefix is None:
            return False
    text._code.append(_marked_arrays(words, prefix) if marked else
                      _array(words, prefix, last))
    if last:
        _line_ended(text)
    else:
        width = 0.0  # summed as :func:`drawn` sums it
        for i, word in enumerate(words):
            if i:
                width += space.width
            width += word.width
        text._x += width * text._fontsize / 1000
    return True


def _written_known(text, string: str, font: str) -> bool:
    """:func:`_written_ascii` for a whole line whose words were all met before as ASCII
    words, in a font whose space is written as it is: most lines of most texts, written
    without its look-ups. Returns whether it wrote the line (False: nothing written)."""
    known = _ASCII_WORDS.get(font)
    space = known.get(" ") if known else None
    if not string or space is None or space.written != " ":
        return False
    words = list(map(known.get, string.split(" ")))
    if None in words:
        return False
    prefix = "" if text._curSubset == 0 else _font_set(text, font)
    if prefix is None:
        return False
    text._code.append(_array(words, prefix, last=True))
    _line_ended(text)
    return True


def _array(words: list[AsciiWord], prefix: str, last: bool) -> str:
    """The code of words none of which is drawn with a ligature: one ``TJ`` array of each
    word's written part, after ``prefix`` (setting the font), ended by ``T*`` if
    ``last``."""
    return f"{prefix}[({' '.join(map(itemgetter(0), words))})] TJ" + (" T*" if last else "")


def _font_set(text, font: str) -> str | None:
    """The code a text object's first string after its font was set starts with, naming
    the font's first subset, the size and the leading ('/F1+0 9 Tf 10.8 TL '); the text
    object then writes in that subset. None, and nothing done, before the font's first
    string in the document, which sets its subsets up (the long way)."""
    document = text._canvas._doc
    named = document.fontMapping.get(font)  # '/F1' once a subset was named: '/F1+0'
    if named is not None:
        named += "+0"
    else:
        ttf = pdfmetrics.getFont(font)
        if document not in ttf.state:
            return None
        named = ttf.getSubsetInternalName(0, document)
    text._curSubset = 0
    return f"{named} {_size_and_leading(text._fontsize, text._leading)} "


@lru_cache(maxsize=256)  # a text's few sizes; written for each text set
def _size_and_leading(size: float, leading: float) -> str:
    """What sets the text object's size and leading after its font's name."""
    return f"{fp_str(size)} Tf {fp_str(leading)} TL"


def _line_ended(text) -> None:
    """Move the text cursor to the next line's start, as ``T*`` (and textLine) does."""
    text._x = text._x0
    text._y = text._y0 = text._y + (-text._leading if text._canvas.bottomup else text._leading)


def _marked_arrays(words: list[AsciiWord], prefix: str) -> str:
    """The code of a line, ended by ``T*``, whose words include some drawn with a
    ligature (their ``actual`` given): as :func:`drawn` writes it, each such word is a
    ``TJ`` array of its own, marked with the text it stands for, and the spaces beside it
    are in the arrays either side; ``prefix`` (setting the font) starts the first array."""
    arrays, gathered = [], ""  # (written part, actual); the unmarked array being made
    for i, word in enumerate(words):
        if i:
            gathered += " "
        if word.actual is None:
            gathered += word.written
            continue
        if gathered:
            arrays.append((gathered, None))
        arrays.append((word.written, word.actual))
        gathered = ""
    if gathered:
        arrays.append((gathered, None))
    code = []
    for i, (written, actual) in enumerate(arrays):
        array = (prefix if i == 0 else "") + f"[({written})] TJ" + \
            (" T*" if i == len(arrays) - 1 else "")
        code.append(array if actual is None else
                    f"/Span <</ActualText <{actual}>>> BDC {array} EMC")
    return " ".join(code)


def _ligature_parts(string: str, font: str) -> list[str]:
    """``string`` cut before and after each word drawn with a ligature ('Office'), where
    its other words are all :func:`_ascii_word`'s: the parts :func:`drawn` draws it in,
    the spaces where it puts them. ``[string]`` for any other."""
    words = string.split(" ")
    if " " not in string or all(_ascii_word(word, font) is not None for word in words):
        return [string]
    parts, part = [], ""
    for i, word in enumerate(words):
        part += " " if i else ""
        if _ascii_word(word, font) is not None:
            part += word
        elif drawn_word(word, font, None).actual is not None and word.isascii():
            parts += [part, word] if part else [word]
            part = ""
        else:
            return [string]
    return parts + [part] if part else parts


class AsciiWord(NamedTuple):
    written: str  # in a TJ array's string: 'T) 122 (o' for 'To' kerned
    width: float  # at 1000 pt
    # a word drawn with a ligature ('until': 'ti' joined): the text it stands for, as
    # /ActualText writes it (:func:`_utf16`)
    actual: str | None = None


# font -> word -> its AsciiWord or None: what _ascii_word found (see _remembered)
_ASCII_WORDS: dict[str, dict[str, AsciiWord | None]] = {}
MAX_ASCII_WORDS = 16384
_UNKNOWN = object()


def _ascii_word(word: str, font: str) -> AsciiWord | None:
    """``word`` as :func:`_kerned` writes it inside a ``TJ`` array, when it is printable
    ASCII drawn as written, with no glyph off its line and no kerning number after its
    last (kerning moves the glyph after one): its characters, escaped, with each kerning
    number between them. Such characters are their own codes in the
    first subset of every document (reportlab's ``asciiReadable``), so this is the same
    in every PDF. None for any other word. Made once per word and font."""
    return _remembered(_ASCII_WORDS, font, word, _made_ascii_word, word, font)


def _remembered(tables: dict, table: object, key: object, make, *args):
    """``tables[table][key]``, ``make(*args)`` the first time it is asked for; a table
    starts again empty once it holds MAX_ASCII_WORDS (a deck's numbers would fill it)."""
    known = tables.get(table)
    if known is None or len(known) >= MAX_ASCII_WORDS:
        known = tables[table] = {}
    found = known.get(key, _UNKNOWN)
    if found is _UNKNOWN:
        found = known[key] = make(*args)
    return found


def _made_ascii_word(word: str, font: str) -> AsciiWord | None:
    """:func:`_ascii_word`, made."""
    ttf = pdfmetrics.getFont(font)
    # the piece itself is not kept (drawn_word's cache): this part is kept instead
    piece = drawn_word.__wrapped__(word, font, None)
    characters, kerning = piece.characters, piece.kerning
    if kerning is None or piece.actual is not None or not ttf._asciiReadable or \
            not (characters.isascii() and characters.isprintable()) or \
            not set(map(ord, characters)) <= ttf.face.charToGlyph.keys() or \
            (kerning and kerning[-1][0] == len(characters) - 1):
        return None
    return AsciiWord(_array_part(characters, kerning), piece.width)


def _array_part(codes: str | bytes, kerning) -> str:
    """A word's codes, escaped, with each kerning number between them, as they stand
    inside a ``TJ`` array's brackets: 'T) 122 (o' for 'To' kerned."""
    parts, start = [], 0
    for after, shift in kerning:
        parts.append(f"{escapePDF(codes[start:after + 1])}) {shift} (")
        start = after + 1
    parts.append(escapePDF(codes[start:]))
    return "".join(parts)


# document -> (font, word) -> its AsciiWord or None, for a word of other letters: their
# codes are the ones reportlab gives them in that document (see _document_word)
_DOCUMENT_WORDS: WeakKeyDictionary = WeakKeyDictionary()


def _document_words(words: list, split: list[str], font: str, document) -> bool:
    """Fill in the words of ``split`` that ``words`` lacks (None) with their
    :func:`_ascii_word` (made the first time it is met) or else their
    :func:`_document_word`, left to right, up to the first that has neither: their letters
    take their codes in the order the long way would give them. Returns whether all have
    one; False, too, for the font's first string in ``document``, which sets up its
    subsets."""
    if document not in pdfmetrics.getFont(font).state:
        return False
    for i, word in enumerate(words):
        if word is None:
            word = words[i] = _ascii_word(split[i], font) or \
                _document_word(split[i], font, document)
            if word is None:
                return False
    return True


def _document_word(word: str, font: str, document) -> AsciiWord | None:
    """``word``'s part of a ``TJ`` array as :func:`_ascii_word` makes it, for a word of
    other letters ('Blófa', '·') drawn as written, in ``document``, where reportlab gives
    each character a code of the font's first subset at its first use (or of a later
    subset, once the first is full: then None, as for a word drawn in any other way).
    Made once per word, font and document: the footer's '·' and a deck's accented words
    are not shaped again on every page."""
    return _remembered(_DOCUMENT_WORDS, document, (font, word), _made_document_word, word,
                       font, document)


def _made_document_word(word: str, font: str, document) -> AsciiWord | None:
    """:func:`_document_word`, made; for an ASCII word drawn with a ligature ('until'),
    its part marked with the text it stands for, as the long way marks it."""
    piece = drawn_word(word, font, None)
    characters, kerning, actual = piece.characters, piece.kerning, piece.actual
    if kerning is None or (kerning and kerning[-1][0] == len(characters) - 1) or \
            not (characters.isprintable() if actual is None else
                 actual.isascii() and actual.isprintable()):
        return None
    chunks = pdfmetrics.getFont(font).splitString(characters, document)  # gives the codes
    if len(chunks) != 1 or chunks[0][0] != 0:
        return None
    return AsciiWord(_array_part(chunks[0][1], kerning), piece.width,
                     None if actual is None else _utf16(actual))


def _kerned(text, piece, ends: bool) -> None:
    """Write a piece of glyphs on their line as ``TJ`` arrays, each character where a
    glyph's advance differs from its own followed by how far the next one moves back
    (kerning). reportlab draws a shaped string glyph by glyph, four times slower; this
    follows its plain strings' way (the font's subsets, the text cursor), which its text
    objects keep in private fields."""
    canvas, font = text._canvas, pdfmetrics.getFont(text._fontname)
    document, escape = canvas._doc, canvas._escape
    code, items, at = [], [], 0
    kerning, next_shift = piece.kerning, 0
    for subset, chunk in font.splitString(piece.characters, document):
        if subset != text._curSubset:
            if items:
                code.append(f"[{' '.join(items)}] TJ")
                items = []
            code.append(f"{font.getSubsetInternalName(subset, document)} "
                        f"{fp_str(text._fontsize)} Tf {fp_str(text._leading)} TL")
            text._curSubset = subset
        start, end = 0, at + len(chunk)
        while next_shift < len(kerning) and kerning[next_shift][0] < end:
            after, shift = kerning[next_shift]
            items.append(f"({escape(chunk[start:after - at + 1])}) {shift}")
            start = after - at + 1
            next_shift += 1
        if start < len(chunk):
            items.append(f"({escape(chunk[start:])})")
        at = end
    if items:
        code.append(f"[{' '.join(items)}] TJ")
    if ends:
        _line_ended(text)
        code.append("T*")
    else:
        text._x += piece.width * text._fontsize / 1000
    text._code.append(" ".join(code))


def _utf16(string: str) -> str:
    """A PDF text string in UTF-16 (big-endian, with its byte order mark), in hex."""
    return "FEFF" + string.encode("utf-16-be").hex().upper()


OBJECT = "\ufffc"  # stands for an icon among a line's characters (a neutral, for bidi)


def _visual_line(text, line, x: float, baseline: float, block: TextBlock, look: tuple,
                 ink, opacity: float, icons: list) -> tuple:
    """:func:`_text_line` for a line with right-to-left letters: the bidirectional
    algorithm (python-bidi) gives each character its level in the line's paragraph; runs of
    one word (or icon) and level are shown in the order rule L2 makes of them, from the
    line's left end, each shaped in its direction (Arabic joined, brackets mirrored)."""
    size, leading = block.size, block.leading
    written, owners = [], []  # the line's characters, and the run each belongs to
    for i, run in enumerate(line.runs):
        part = (" " if run.space_before else "") + (OBJECT if run.icon else run.text)
        written.append(part)
        owners.extend([i] * len(part))
    characters = "".join(written)
    segments: list[list] = []  # [run, level, characters]
    for char, owner, level in zip(characters, owners, levels(characters, line.rtl)):
        if char in ISOLATE_MARKS:  # they order the line; nothing is drawn of them
            continue
        if segments and segments[-1][:2] == [owner, level] and \
                (char == OBJECT) == (segments[-1][2][-1] == OBJECT):
            segments[-1][2] += char
        else:
            segments.append([owner, level, char])
    # PDFium reads the words of a right-to-left phrase in a line it reads left to right in
    # the order they are drawn ('הפנסים שוק'): such a phrase is tagged with its words
    read_ltr = not read_right_to_left(characters)
    at = x
    for k in visual_order([level for _, level, _ in segments]):
        owner, level, part = segments[k]
        run = line.runs[owner]
        scale = size / 1000 * (run.style.scale if run.style is not None else 1.0)
        if part == OBJECT:
            icons.append((run.icon, at, baseline, run.style))
            at += run.unit_width() * size / 1000
            continue
        rtl = bool(level % 2)
        look = _looked(text, _look(run, size, ink, opacity), look, leading)
        text.setTextOrigin(at, baseline)
        phrase = rtl and read_ltr and " " in part.strip()
        _write(text, part, run.font, rtl=rtl, actual=drawn_order(part) if phrase else None)
        at += shape(part, run.font, rtl).width * scale
    return look
