"""Text set as a typesetter sets it: HarfBuzz shapes each run of text in its font (the
font's kerning, Arabic letters in their joined forms and required ligatures, marks placed), and the
Unicode bidirectional algorithm orders a line's runs, right to left where the text is
Hebrew or Arabic.

reportlab 4.x shapes too (``shaping=True``), and its text objects draw a shaped string
(:class:`reportlab.pdfbase.ttfonts.ShapedStr`) with each glyph's offsets; cardkit uses that
drawing. It does not use reportlab's own shaping call, which guesses a run's direction
(neutral characters in right-to-left text, such as brackets, then come out unmirrored) and
orders lines with ``rlbidi``, a package PyPI does not serve; python-bidi orders them here.

Shapes are measured at 1000 pt, where a font's units are, and scale with the size: one
shaped run serves every size a text is tried at while it is fitted. Shaping a word takes
about 15 µs; runs are cached by text, font and direction.

HarfBuzz draws some glyphs that have no character of their own (a ligature, an Arabic
letter's joined form in a font that maps no presentation form): reportlab gives them
private-use code points, or the presentation form's, and text extracted from the page would
read those. Such a run is marked with the text it stands for (``/ActualText``; a
right-to-left word's letters, not the stop or comma drawn beside them), and the
font's embedded subsets map a private-use code to the characters it draws
(:data:`PRIVATE_TEXTS`, their ToUnicode), so that the page still reads and searches as the
text written, in readers that ignore ``/ActualText`` too. The font's ligatures (fi, ffi)
are kept. Right-to-left text is drawn in visual
order, as PDF readers expect it (they reorder it for extraction and search).
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from typing import NamedTuple

from reportlab.lib.rl_accel import fp_str
from reportlab.pdfbase import pdfmetrics

# letters of the right-to-left scripts (Hebrew, Arabic, Syriac, Thaana, N'Ko...), and
# their presentation forms
RIGHT_TO_LEFT = re.compile("[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]")


# a bracket in right-to-left text is drawn as its mirror image: '(' as ')'
_MIRRORED = str.maketrans("()[]{}<>«»‹›", ")(][}{><»«›‹")


# The text each glyph without a character of its own stands for (a ligature's 'tt'), by
# font and the private-use code reportlab draws it by (or the Latin ligature character,
# 'ﬁ', the font maps it to): the fonts' embedded subsets map the code to it (their ToUnicode), so that readers that ignore /ActualText (pdfminer's) read
# 'written', not 'wri\ue000en'
PRIVATE_TEXTS: dict[str, dict[int, str]] = {}
# Unicode's Latin ligatures (U+FB00 'ﬀ' to U+FB06 'ﬆ'), which a font may map its ligature
# glyphs to: they are read as the letters they join too
_LATIN_LIGATURES = (0xFB00, 0xFB06)


class Glyph(NamedTuple):
    gid: int
    cluster: int  # the index in the run's text of the first character it draws
    advance: float  # at 1000 pt
    dx: float
    dy: float


class Shaped(NamedTuple):
    """A run of text as HarfBuzz sets it in one font: its glyphs in visual order (left to
    right), measured at 1000 pt."""

    text: str
    font: str
    rtl: bool
    glyphs: tuple[Glyph, ...]
    width: float


@lru_cache(maxsize=None)
def _harfbuzz_font(font: str):
    """HarfBuzz's font for the registered font ``font`` (reportlab's face data), and the
    factor from its units to 1000 pt."""
    import uharfbuzz  # only when text is set: its import takes about 80 ms

    ttf = pdfmetrics.getFont(font)
    face = uharfbuzz.Face(uharfbuzz.Blob(ttf.face._ttf_data))
    return uharfbuzz.Font(face), 1000 / face.upem


# a word met for the first time (each card's number, each page's) is shaped to be
# measured, then drawn with its card a moment later: the last buffers are kept for that
@lru_cache(maxsize=64)
def _harfbuzz(text: str, font: str, rtl: bool | None):
    """HarfBuzz's buffer of ``text`` shaped in the registered font ``font`` (as
    :func:`shape` says), and the factor from its units to 1000 pt. The buffer is kept:
    it is only read."""
    import uharfbuzz

    hb_font, scale = _harfbuzz_font(font)
    buffer = uharfbuzz.Buffer()
    buffer.add_str(text)
    buffer.guess_segment_properties()
    if rtl is not None:
        buffer.direction = "rtl" if rtl else "ltr"
    uharfbuzz.shape(hb_font, buffer)
    return buffer, scale


# a run's glyphs are made where their clusters or offsets are needed (marks, ligatures,
# right to left); a word is measured (run_width) and drawn (drawn_word) from HarfBuzz's
# buffer without them. A deck's numbers would fill a long cache (about 1 MB a thousand)
@lru_cache(maxsize=1024)
def shape(text: str, font: str, rtl: bool | None = None) -> Shaped:
    """``text`` shaped in the registered font ``font``, right to left if ``rtl`` (None:
    as its letters say). Direction matters for neutral characters: in a right-to-left
    run a bracket is mirrored."""
    if not text:
        return Shaped(text, font, bool(rtl), (), 0.0)
    buffer, scale = _harfbuzz(text, font, rtl)
    glyphs = tuple(Glyph(info.codepoint, info.cluster, place.x_advance * scale,
                         place.x_offset * scale, place.y_offset * scale)
                   for info, place in zip(buffer.glyph_infos, buffer.glyph_positions))
    return Shaped(text, font, buffer.direction == "rtl", glyphs,
                  sum(glyph.advance for glyph in glyphs))


def run_width(text: str, font: str) -> float:
    """``shape(text, font).width``, the same float (the same advances summed in the same
    order), read from HarfBuzz's positions without making the glyphs: a word measured
    for the first time (each card's number) costs a third as much."""
    if not text:
        return 0.0
    buffer, scale = _harfbuzz(text, font, None)
    return sum([place.x_advance * scale for place in buffer.glyph_positions])


def width(text: str, font: str, known: dict[str, float] | None = None) -> float:
    """The width of ``text`` shaped in the registered font ``font``, at 1000 pt, as
    :func:`drawn` draws it: each word shaped on its own, and the spaces between them;
    the words' (and the space's) widths taken from ``known`` if given (a cache of them,
    where those not measured yet are put)."""
    if " " not in text or text == " ":
        return run_width(text, font)
    words = text.split(" ")
    if known is None:
        known = {}
    for word in {" ", *words}.difference(known):
        known[word] = run_width(word, font)
    return sum(map(known.__getitem__, filter(None, words))) + (len(words) - 1) * known[" "]


class Piece(NamedTuple):
    """Glyphs drawn in one go: a character for each (what reportlab's font encodes it by:
    its own character, or a private-use one), and either where the glyphs' advances differ
    from the characters' own (kerning, a ligature): after which character the next one
    moves back by how much, in thousandths of the size, written as a PDF ``TJ`` array's
    numbers; or, where glyphs sit off their line (marks), reportlab's
    :class:`~reportlab.pdfbase.ttfonts.ShapedStr` of them. ``actual`` is the text the page
    must read as where the characters drawn differ from the words written, else None."""

    characters: str
    kerning: tuple[tuple[int, str], ...] | None
    glyphs: object
    actual: str | None
    width: float  # at 1000 pt


@lru_cache(maxsize=16384)
def drawn(text: str, font: str, rtl: bool | None = None) -> tuple[Piece, ...]:
    """What is drawn for ``text`` in ``font``, in pieces drawn one after the other. Each
    word is shaped on its own, as it is measured (:func:`width`): a font's kerning across
    a space is left out; the words of a right-to-left run are shown last first, each in
    visual order."""
    words = text.split(" ")
    if rtl:
        words.reverse()
    parts = [drawn_word(word, font, rtl) for word in words]
    space = drawn_word(" ", font, rtl)
    pieces: list[Piece] = []
    characters: list[str] = []  # the piece on its line being gathered
    kerning: list[tuple[int, str]] = []
    count, width = 0, 0.0
    for i, part in enumerate(parts):
        if i:
            characters.append(space.characters)
            count += 1
            width += space.width
        if part.kerning is not None and part.actual is None:
            characters.append(part.characters)
            if part.kerning:
                kerning.extend([(count + at, shift) for at, shift in part.kerning])
            count += len(part.characters)
            width += part.width
            continue
        if characters:
            pieces.append(Piece("".join(characters), tuple(kerning), None, None, width))
        pieces.extend(_letters_apart(part, font) if rtl else (part,))
        characters, kerning, count, width = [], [], 0, 0.0
    if characters:
        pieces.append(Piece("".join(characters), tuple(kerning), None, None, width))
    return tuple(pieces)


@lru_cache(maxsize=16384)
def drawn_word(text: str, font: str, rtl: bool | None) -> Piece:
    """:func:`drawn` of one word."""
    if not text:
        return Piece("", (), None, None, 0.0)
    face = pdfmetrics.getFont(font).face
    buffer, scale = _harfbuzz(text, font, rtl)
    # each glyph's character and advance (as shape() has it), and whether any is lifted
    codes, advances, lifted = [], [], False
    for info, place in zip(buffer.glyph_infos, buffer.glyph_positions):
        found = face.glyphToChar.get(info.codepoint)
        codes.append(found[0] if found else None)
        advances.append(place.x_advance * scale)
        lifted = lifted or bool(place.x_offset or place.y_offset)  # off its line: a mark
    # most words: each glyph is a character's own (below the ligatures' U+FB00 at that)
    if None in codes or max(codes) >= _LATIN_LIGATURES[0] and any(
            _LATIN_LIGATURES[0] <= code <= _LATIN_LIGATURES[1] for code in codes):
        codes = _private_codes(shape(text, font, rtl))
    characters = "".join(map(chr, codes))
    # readers put right-to-left letters drawn in visual order back in the order they are
    # written (PDFium, Acrobat): the text the glyphs stand for is given in the order drawn
    shown = drawn_order(text) if rtl else text
    actual = None if characters == shown else shown
    widths = [face.charWidths.get(code, 0) for code in codes]
    if not lifted:
        shifts = [width - advance for width, advance in zip(widths, advances)]
        return Piece(characters, tuple((at, fp_str(shift)) for at, shift in enumerate(shifts)
                                       if abs(shift) > 1e-6), None, actual, sum(advances))
    from reportlab.pdfbase.ttfonts import ShapeData, ShapedStr

    return Piece(characters, None, ShapedStr(characters, shapeData=[
        ShapeData(glyph.cluster, glyph.advance, 0, glyph.dx, glyph.dy, width)
        for glyph, width in zip(shape(text, font, rtl).glyphs, widths)]), actual,
        sum(advances))


def _private_codes(shaped: Shaped) -> list[int]:
    """The codes reportlab's font draws ``shaped``'s glyphs by: a glyph without a character
    of its own (a ligature, a letter's joined form) is given a private-use one, and the
    text it stands for is noted (:data:`PRIVATE_TEXTS`), as is a Latin ligature's."""
    ttf = pdfmetrics.getFont(shaped.font)
    face = ttf.face
    if not hasattr(ttf, "hbAddPrivate"):
        ttf.hbFont()  # sets up reportlab's private-use code points for unmapped glyphs
    units = 1000 / face.unitsPerEm
    codes = []
    for glyph in shaped.glyphs:
        mapped = face.glyphToChar.get(glyph.gid)
        code = mapped[0] if mapped else ttf.hbAddPrivate(
            f"gid{glyph.gid}", glyph.gid, round(glyph.advance / units))
        codes.append(code)
        if not mapped or _LATIN_LIGATURES[0] <= code <= _LATIN_LIGATURES[1]:
            stands_for = _cluster_text(shaped, glyph)
            if stands_for:
                PRIVATE_TEXTS.setdefault(shaped.font, {}).setdefault(code, stands_for)
    return codes


def _letters_apart(piece: Piece, font: str) -> tuple[Piece, ...]:
    """A right-to-left word's ``piece`` marked with the text it stands for (joined Arabic
    letters), with the punctuation and digits at its ends that are drawn as themselves
    ('.' of 'واحدة.') split off, unmarked: PDFium reads a mark's text as the glyphs' own
    and reorders the line around it, and read '.واحدة' for a word marked whole."""
    characters, shown = piece.characters, piece.actual
    if shown is None or piece.kerning is None:
        return (piece,)
    start = 0
    while start < len(characters) and _as_itself(characters, shown, start):
        start += 1
    end = len(characters)
    while end > start and _as_itself(characters, shown, end - len(characters) - 1):
        end -= 1
    if start == 0 and end == len(characters) or start + len(characters) - end > len(shown):
        return (piece,)
    widths = pdfmetrics.getFont(font).face.charWidths
    shifts = {at: shift for at, shift in piece.kerning}

    def part(first: int, last: int, actual: str | None, width: float | None) -> Piece:
        if width is None:  # at 1000 pt: each glyph's width, less its kerning
            width = sum(widths.get(ord(characters[at]), 0) - float(shifts.get(at, 0))
                        for at in range(first, last))
        return Piece(characters[first:last], tuple(
            (at - first, shift) for at, shift in piece.kerning if first <= at < last),
            None, actual, width)

    before, after = part(0, start, None, None), part(end, len(characters), None, None)
    letters = part(start, end, shown[start:len(shown) - len(characters) + end],
                   piece.width - before.width - after.width)
    return tuple(made for made in (before, letters, after) if made.characters)


def _as_itself(characters: str, shown: str, at: int) -> bool:
    """Whether the glyph at ``at`` (from the end, if negative) of a word's drawn
    ``characters`` is the character ``shown`` there, and not a letter or mark."""
    if not -len(shown) <= at < len(shown) or characters[at] != shown[at]:
        return False
    return unicodedata.category(characters[at])[0] not in "LM"


def _cluster_text(shaped: Shaped, glyph: Glyph) -> str:
    """The characters ``glyph`` of ``shaped`` draws, when it is the only glyph drawing them
    (a ligature 'fi', a letter's joined form), else ''."""
    clusters = sorted({other.cluster for other in shaped.glyphs})
    if sum(other.cluster == glyph.cluster for other in shaped.glyphs) > 1:
        return ""
    after = [cluster for cluster in clusters if cluster > glyph.cluster]
    return shaped.text[glyph.cluster:after[0] if after else len(shaped.text)]


def drawn_order(text: str) -> str:
    """A right-to-left run's characters in the order they are drawn, left to right, its
    brackets mirrored: what PDF readers take a run's /ActualText to be written in.

    >>> drawn_order('(אב)')
    '(בא)'
    """
    return text[::-1].translate(_MIRRORED)


def has_right_to_left(text: str) -> bool:
    """Whether ``text`` has letters of a right-to-left script.

    >>> has_right_to_left('Draw שלום'), has_right_to_left('Draw')
    (True, False)
    """
    return not text.isascii() and RIGHT_TO_LEFT.search(text) is not None


def read_right_to_left(line: str) -> bool:
    """Whether PDFium reads the line drawn of ``line`` right to left, as it orders each line
    on its own (not by the bidirectional algorithm): when it has more runs of right-to-left
    letters than of left-to-right ones, a run being letters of one direction with nothing
    between them (a space, a digit, a mark or a stop ends it).

    >>> read_right_to_left('Market שוק הפנסים'), read_right_to_left('שוק, הפנסים: 1.0')
    (True, True)
    >>> read_right_to_left('Draw שוק הפנסים now'), read_right_to_left('AbCd שוק')
    (False, False)
    """
    runs = {"L": 0, "R": 0}
    last = None
    for char in line:
        kind = unicodedata.bidirectional(char)
        kind = "R" if kind == "AL" else kind
        if kind in runs and kind != last:
            runs[kind] += 1
        last = kind
    return runs["R"] > runs["L"]


def base_rtl(text: str) -> bool:
    """Whether a paragraph runs right to left: its first strong letter is Hebrew or
    Arabic (rules P2 and P3 of the bidirectional algorithm).

    >>> base_rtl('12 שלום world'), base_rtl('Draw שלום')
    (True, False)
    """
    if not has_right_to_left(text):
        return False
    from bidi import get_base_level

    return get_base_level(text) == 1


# the isolates' marks (LRI, RLI, FSI ... PDI): their words are ordered on their own, in their
# own direction (FSI: their first letter's), and stand in the line as one neutral whole
_OPENERS = {"\u2066": False, "\u2067": True, "\u2068": None}
_CLOSER = "\u2069"
ISOLATE_MARKS = "".join(_OPENERS) + _CLOSER
_NEUTRAL = "\ufffc"  # of bidi class ON, as the isolates' marks are in their line


def isolated(value: str) -> str:
    """``value`` (a deck's words, put into a line of cardkit's own words) as an isolate:
    it keeps its own order, and the line's words theirs ('1.0' stays after a Hebrew
    title's colon). Its marks draw nothing.

    >>> isolated('שוק') == '\u2068שוק\u2069'
    True
    """
    return f"\u2068{value}{_CLOSER}"


def levels(text: str, rtl: bool) -> list[int]:
    """The embedding level of each character of ``text`` (odd: right to left), a line of
    a paragraph whose direction is ``rtl``, by the bidirectional algorithm (python-bidi's
    reference implementation, which has no isolates: each isolate's words are given their
    levels on their own, above their marks' level in the line, rules X5a-X5c and X6a).

    >>> levels('ab שלום 12', False)
    [0, 0, 0, 1, 1, 1, 1, 1, 2, 2]
    >>> levels(isolated('שלום') + ' 12', False)
    [0, 1, 1, 1, 1, 0, 0, 0, 0]
    """
    if not any(mark in text for mark in ISOLATE_MARKS):
        return _levels(text, rtl)
    outer, inner = [], []  # the indices of the line's own characters; the isolates' spans
    i = 0
    while i < len(text):
        outer.append(i)
        if text[i] in _OPENERS:
            end = _closing(text, i)
            inner.append((i, end))
            outer.extend([end] if end < len(text) else [])
            i = end + 1
        else:
            i += 1
    found = [0] * len(text)
    line = "".join(_NEUTRAL if text[k] in ISOLATE_MARKS else text[k] for k in outer)
    for k, level in zip(outer, _levels(line, rtl)):
        found[k] = level
    for start, end in inner:
        words = text[start + 1:end]
        own = _OPENERS[text[start]]
        own = base_rtl(words) if own is None else own
        # the least level above the marks' of the isolate's direction
        embedding = found[start] + (1 if (found[start] + 1) % 2 == own else 2)
        for k, level in enumerate(levels(words, own), start + 1):
            found[k] = level - own + embedding
    return found


def _closing(text: str, start: int) -> int:
    """The index of the mark closing the isolate opened at ``start`` (the line's length
    if none does)."""
    depth = 0
    for i in range(start, len(text)):
        depth += text[i] in _OPENERS
        depth -= text[i] == _CLOSER
        if not depth:
            return i
    return len(text)


def _levels(text: str, rtl: bool) -> list[int]:
    """:func:`levels` of a text without isolates."""
    from bidi import algorithm

    storage = algorithm.get_empty_storage()
    storage["base_level"] = int(rtl)
    storage["base_dir"] = "R" if rtl else "L"
    algorithm.get_embedding_levels(text, storage)
    algorithm.explicit_embed_and_overrides(storage)
    algorithm.resolve_weak_types(storage)
    algorithm.resolve_neutral_types(storage, False)
    algorithm.resolve_implicit_levels(storage, False)
    return [char["level"] for char in storage["chars"]]


def visual_order(levels_of: list[int]) -> list[int]:
    """The order in which items at ``levels_of`` (their embedding levels) are shown, left
    to right: from the highest level down to the lowest odd one, each run of items at that
    level or higher is reversed (rule L2).

    >>> visual_order([0, 1, 1, 2, 0])
    [0, 3, 2, 1, 4]
    """
    order = list(range(len(levels_of)))
    if not levels_of:
        return order
    lowest_odd = min(level for level in levels_of) | 1
    for level in range(max(levels_of), lowest_odd - 1, -1):
        i = 0
        while i < len(order):
            if levels_of[order[i]] >= level:
                j = i
                while j < len(order) and levels_of[order[j]] >= level:
                    j += 1
                order[i:j] = order[i:j][::-1]
                i = j
            else:
                i += 1
    return order
