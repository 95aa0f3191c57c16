"""Fonts: the Lato family cardkit ships (SIL Open Font License; see lato/OFL.txt) and the
TrueType fonts a deck brings in its own ``fonts/`` folder.

Every font is a TrueType font embedded as a subset, so every PDF embeds every font it
names; reportlab's built-in Helvetica is never referenced. A deck's font is registered with
reportlab under a name unique to its file's content (two decks may both have a
``fonts/Title.ttf``); layouts name it by its file name (``Title``), its full name
(``Gentium Basic Bold``) or, for a family's regular face, the family's name.
"""

from __future__ import annotations

import hashlib
import io
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import NamedTuple

from reportlab.pdfbase import pdfmetrics, ttfonts
from reportlab.pdfbase.ttfonts import TTFError, TTFont

from ..common.errors import Problems, Where
from . import shaping
from ..sources.files import MB, REACH_FIX, why_outside, why_unreadable

FONT_DIR = Path(__file__).parent / "lato"

# name in layouts -> file in FONT_DIR
FONT_FILES = {
    "Lato": "Lato-Regular.ttf",
    "Lato-Bold": "Lato-Bold.ttf",
    "Lato-Italic": "Lato-Italic.ttf",
    "Lato-Black": "Lato-Black.ttf",
}
DEFAULT_FONT = "Lato"
# The faces that **bold** and *italic* markup switch to from each bundled font.
BOLD = {"Lato": "Lato-Bold", "Lato-Italic": "Lato-Bold", "Lato-Bold": "Lato-Black",
        "Lato-Black": "Lato-Black"}
ITALIC = {"Lato": "Lato-Italic", "Lato-Bold": "Lato-Italic", "Lato-Italic": "Lato-Italic",
          "Lato-Black": "Lato-Italic"}
FONT_SUFFIXES = (".ttf", ".otf")
MAX_FONT_BYTES = 30 * MB  # a large CJK font is about 20 MB
UNUSABLE_SUFFIXES = {
    ".woff": "a web font", ".woff2": "a web font", ".ttc": "a font collection",
    ".otc": "a font collection", ".pfb": "a Type 1 font", ".pfa": "a Type 1 font",
}
FONT_HELP = "use a TTF file (or an OTF with TrueType outlines): most font sites offer one"
_FORCE_BOLD, _ITALIC_FLAG = 1 << 18, 1 << 6  # reportlab's face.flags bits


class _Style(NamedTuple):
    """A registered font's place in its family: the family, and whether it is the bold
    face, the italic, or both."""

    family: str
    bold: bool
    italic: bool


_STYLES: dict[str, _Style] = {}  # registered name -> its place in its family
_FAMILIES: dict[_Style, str] = {}  # and back
_SHOWN: dict[str, str] = {}  # registered name -> how messages name it


class TaggedTTFont(TTFont):
    """A TrueType font whose embedded subsets are tagged by what they hold. reportlab tags
    a font's subsets AAAAAA+, AAAAAB+... in every file, so two files' different subsets of
    one font carry the same name, which the PDF specification forbids and which confuses
    a RIP that merges files. The tag here is made from the subset's characters."""

    def addObjects(self, doc):
        state = self.state.get(doc)
        tags = [subset_tag(self.face.name, subset) for subset in state.subsets] \
            if state else []
        numbered = ttfonts.SUBSETN  # what reportlab's addObjects names each subset with
        mapped = ttfonts.makeToUnicodeCMap  # and maps its codes to text with
        ttfonts.SUBSETN = lambda n, *table: tags[n]
        texts = shaping.PRIVATE_TEXTS.get(self.fontName, {})
        ttfonts.makeToUnicodeCMap = lambda name, subset: to_unicode_cmap(name, subset, texts)
        try:
            super().addObjects(doc)
        finally:
            ttfonts.SUBSETN = numbered
            ttfonts.makeToUnicodeCMap = mapped


def to_unicode_cmap(name: str, subset, texts: dict[int, str]) -> str:
    """A subset's ToUnicode CMap (as reportlab writes it): each code to the character it
    encodes, or to the text in ``texts`` that a glyph without a character of its own
    stands for (a ligature's code to 'fi').

    >>> to_unicode_cmap('F', [65, 0xE000], {0xE000: 'fi'}).split('beginbfchar')[1][:28]
    '\\n<00> <0041>\\n<01> <00660069>'
    """
    lines = [f"<{i:02X}> <{texts.get(code, chr(code)).encode('utf-16-be').hex().upper()}>"
             for i, code in enumerate(subset)]
    return "\n".join([
        "/CIDInit /ProcSet findresource begin", "12 dict begin", "begincmap",
        "/CIDSystemInfo", f"<< /Registry ({name})", f"/Ordering ({name})", "/Supplement 0",
        ">> def", f"/CMapName /{name} def", "/CMapType 2 def", "1 begincodespacerange",
        f"<00> <{len(subset) - 1:02X}>", "endcodespacerange", f"{len(subset)} beginbfchar",
        *lines, "endbfchar", "endcmap", "CMapName currentdict /CMap defineresource pop",
        "end", "end"])


def subset_tag(face: bytes, characters) -> bytes:
    """Six capital letters drawn from a subset's font and characters.

    >>> subset_tag(b"Lato-Regular", [65, 66]) != subset_tag(b"Lato-Regular", [65, 67])
    True
    >>> len(subset_tag(b"Lato-Regular", [65])), subset_tag(b"x", []).isupper()
    (6, True)
    """
    digest = hashlib.sha1(face + b"|" + ",".join(map(str, characters)).encode()).digest()
    return bytes(65 + byte % 26 for byte in digest[:6])


@lru_cache(maxsize=None)
def register(name: str) -> str:
    """Make sure font ``name`` is registered with reportlab (bundled fonts are registered
    on first use) and return it."""
    if name in FONT_FILES:
        pdfmetrics.registerFont(TaggedTTFont(name, str(FONT_DIR / FONT_FILES[name])))
    return name


def bold(face: str) -> str:
    """The face ``**bold**`` switches to from ``face`` (itself when it has none)."""
    if face in BOLD:
        return BOLD[face]
    style = _STYLES[face]
    return _FAMILIES.get(_Style(style.family, True, style.italic), face)


def italic(face: str) -> str:
    """The face ``*italic*`` switches to from ``face`` (itself when it has none)."""
    if face in ITALIC:
        return ITALIC[face]
    style = _STYLES[face]
    return _FAMILIES.get(_Style(style.family, style.bold, True), face)


def lacks(face: str, markup: str) -> bool:
    """Whether ``**bold**`` (markup ``**``) or ``*italic*`` (``*``) has no face to switch
    to from ``face``: a deck's font whose family has no such file. Already bold (or
    italic) faces lack nothing.

    >>> lacks('Lato', '**')
    False
    """
    if face in BOLD:
        return False
    style = _STYLES[face]
    if markup == "**":
        return not style.bold and bold(face) == face
    return not style.italic and italic(face) == face


def shown(face: str) -> str:
    """A registered font's name as the designer wrote it."""
    return _SHOWN.get(face, face)


def deck_fonts(folders, problems: Problems, broken: dict[str, str]) -> dict[str, str]:
    """The fonts in the ``fonts/`` folders of a deck (and the decks it extends, the
    deck's own first): name in layouts -> registered name. Bundled fonts are included.
    A file that cannot be embedded goes into ``broken``, its name -> why, with the file
    (a layout that names it reports it); one outside the deck's reach is a problem."""
    names = {name: name for name in FONT_FILES}
    for folder in folders:
        fonts_dir = Path(folder) / "fonts"
        if not fonts_dir.is_dir():
            continue
        for path in sorted(fonts_dir.iterdir()):
            suffix = path.suffix.lower()
            if suffix not in UNUSABLE_SUFFIXES and suffix not in FONT_SUFFIXES:
                continue  # a licence text, say
            try:
                if suffix in UNUSABLE_SUFFIXES:
                    raise ValueError(f"{UNUSABLE_SUFFIXES[suffix]} cannot be embedded in a "
                                     "PDF by cardkit")
                outside = why_outside(path, folder)
                if outside:
                    problems.add(Where(path), f"the font file is {outside}", REACH_FIX)
                    continue
                why = why_unreadable(path, MAX_FONT_BYTES)
                if why:
                    raise ValueError(why)
                registered, aliases = _load(path, path.stat().st_mtime_ns)
            except (ValueError, OSError) as exc:
                why = getattr(exc, "strerror", None) or str(exc)
                broken.setdefault(path.stem, f"font file {path}: {why}")
                continue
            for alias in aliases:
                names.setdefault(alias, registered)
    return names


@lru_cache(maxsize=256)
def _load(path: Path, mtime: int) -> tuple[str, tuple[str, ...]]:
    """Register one font file; its registered name and the names layouts may use."""
    data = path.read_bytes()
    registered = f"{path.stem}~{hashlib.sha1(data).hexdigest()[:10]}"
    try:
        if data[:4] == b"OTTO":  # PostScript (CFF) outlines, which reportlab cannot embed
            font = TaggedTTFont(registered, io.BytesIO(_converted(data)))
        else:
            font = TaggedTTFont(registered, str(path))
    except TTFError as exc:
        raise ValueError(_why(str(exc))) from None
    except Exception:  # a damaged file fails deep inside the parser, in many ways
        raise ValueError("not a readable font file (damaged, or not TrueType)") from None
    _check_glyphs(font)
    face = font.face
    family = _name(face.familyName) or path.stem
    # a family is one folder's: another deck's fonts of the same name are not its faces
    style = _Style(f"{path.parent}/{family}", bool(face.flags & _FORCE_BOLD),
                   bool(face.flags & _ITALIC_FLAG) or face.italicAngle != 0)
    pdfmetrics.registerFont(font)
    _STYLES[registered] = style
    _FAMILIES.setdefault(style, registered)
    _SHOWN[registered] = path.stem
    aliases = [path.stem, _name(face.fullName)]
    if not style.bold and not style.italic:
        aliases.append(family)
    return registered, tuple(a for a in aliases if a)


def _converted(data: bytes) -> bytes:
    """:func:`truetype_outlines` of a font, kept in cardkit's cache folder by the font's
    content: converting a family of a few thousand glyphs takes seconds, every build."""
    from ..common.atomic import atomic_path
    from ..common.cache import cache_folder

    folder = cache_folder()
    if folder is None:
        return truetype_outlines(data)
    kept = folder / "fonts" / f"{hashlib.sha1(data).hexdigest()}.ttf"
    try:
        return kept.read_bytes()
    except OSError:  # not converted yet
        pass
    converted = truetype_outlines(data)
    try:
        with atomic_path(kept, under=folder) as temporary:
            temporary.write_bytes(converted)
    except OSError:  # a cache that cannot be written: converted again next time
        pass
    return converted


def _check_glyphs(font: TTFont) -> None:
    """Embed every character of ``font`` as a build would, 255 at a time (reportlab's
    subsets): a damaged glyph or location table then fails here, when the deck is checked,
    not while a PDF is written (it passed validate, then failed build with TTFError,
    IndexError or struct errors). About 5 ms for 255 characters."""
    face = font.face
    characters = sorted(face.charToGlyph)
    try:
        for start in range(0, len(characters), 255):
            face.makeSubset(characters[start:start + 255])
    except Exception:  # reportlab's parser fails in many ways on a damaged table
        raise ValueError("a damaged font file: its glyphs cannot be embedded") from None


def truetype_outlines(data: bytes) -> bytes:
    """An OpenType font with PostScript (CFF) outlines, as the same font with TrueType
    outlines (fontTools converts each cubic curve to quadratic ones within a thousandth of
    an em), which reportlab can embed. Many families ship only as CFF (EB Garamond,
    Lobster Two). Raises ValueError for a file fontTools cannot read."""
    from fontTools.pens.cu2quPen import Cu2QuPen
    from fontTools.pens.ttGlyphPen import TTGlyphPen
    from fontTools.ttLib import TTFont as FontFile
    from fontTools.ttLib import newTable

    try:
        font = FontFile(io.BytesIO(data))
        order = font.getGlyphOrder()
        glyph_set = font.getGlyphSet()
        glyf = newTable("glyf")
        glyf.glyphOrder, glyf.glyphs = order, {}
        for name in order:
            pen = TTGlyphPen(glyph_set)
            glyph_set[name].draw(Cu2QuPen(pen, max_err=font["head"].unitsPerEm / 1000,
                                          reverse_direction=True))
            glyf.glyphs[name] = pen.glyph()
        font["loca"], font["glyf"] = newTable("loca"), glyf
        for cff in ("CFF ", "CFF2", "VORG"):
            if cff in font:
                del font[cff]
        glyf.compile(font)
        for name in order:  # a TrueType glyph's left side bearing is its leftmost point
            width, _ = font["hmtx"][name]
            font["hmtx"][name] = (width, getattr(glyf.glyphs[name], "xMin", 0))
        maxp = font["maxp"] = newTable("maxp")
        maxp.tableVersion, maxp.maxZones = 0x00010000, 1
        for key in ("maxTwilightPoints", "maxStorage", "maxFunctionDefs",
                    "maxInstructionDefs", "maxStackElements", "maxSizeOfInstructions",
                    "maxComponentElements"):
            setattr(maxp, key, 0)
        post = font["post"]
        post.formatType, post.extraNames, post.mapping = 2.0, [], {}
        post.glyphOrder = order
        font.sfntVersion = "\x00\x01\x00\x00"
        converted = io.BytesIO()
        font.save(converted)
        return converted.getvalue()
    except Exception:  # fontTools raises many kinds for a damaged file
        raise ValueError("not a readable font file (damaged, or not OpenType)") from None


def _name(raw) -> str:
    return raw.decode("utf-8", "replace") if isinstance(raw, bytes) else str(raw or "")


def _why(reason: str) -> str:
    """reportlab's reason a font cannot be used, in a designer's words."""
    if "postscript outlines" in reason:
        return "this OpenType font has PostScript (CFF) outlines, which cardkit cannot embed"
    if "subsetting" in reason or "embedding" in reason:
        return "the font's licence flags forbid embedding it in a document"
    return "not a readable TrueType font (damaged, or another format)"


@lru_cache(maxsize=None)
def _characters(name: str) -> frozenset[str]:
    """The characters font ``name`` has glyphs for. A character the font's cmap maps to
    glyph 0 has none: that is .notdef, the empty box (Gentium Basic maps 'ą' and 'ę' so)."""
    return frozenset(chr(code) for code, glyph in
                     pdfmetrics.getFont(register(name)).face.charToGlyph.items() if glyph)


def missing_chars(name: str, text: str) -> str:
    """The characters of ``text`` that font ``name`` has no glyph for (spaces, and the
    isolates' marks, which order a line and draw nothing, ignored).

    >>> missing_chars('Lato', 'Blófa')
    ''
    >>> missing_chars('Lato', 'a ♠ b')
    '♠'
    """
    if text.isascii() and text.isprintable() and _has_printable_ascii(name) or \
            _characters(name).issuperset(text):  # most texts: neither a set nor a copy kept
        return ""
    return _missing_chars(name, text)


@lru_cache(maxsize=None)
def _has_printable_ascii(name: str) -> bool:
    """Whether font ``name`` has every printable ASCII character, as most fonts do: then
    a text of them lacks nothing, told without making a set of its characters."""
    return _characters(name).issuperset(map(chr, range(0x20, 0x7F)))


@lru_cache(maxsize=4096)
def _missing_chars(name: str, text: str) -> str:
    have = _characters(name)
    odd = {ch for ch in set(text).difference(have)
           if not ch.isspace() and ch not in shaping.ISOLATE_MARKS}
    return "".join(dict.fromkeys(ch for ch in text if ch in odd)) if odd else ""


_WIDTHS: dict[str, dict[str, float]] = {}  # font -> text -> its width at 1000 pt
MAX_WIDTHS = 16_384  # texts a font keeps, about 2 MB; a deck's words repeat from card to card


def string_width(text: str, name: str, size: float) -> float:
    """The width of ``text`` set in font ``name`` at ``size``, in points."""
    return unit_width(text, name) * size / 1000


def unit_widths(texts: Sequence[str], name: str) -> list[float]:
    """The width of each of ``texts`` in font ``name`` at 1000 pt, as HarfBuzz sets it
    (kerned, ligatures joined: :mod:`.shaping`), as it is drawn. Each text is measured
    once per font: wrapping measures the same words on every card and at every size.

    >>> unit_widths(['a', 'ab'], 'Lato') == [unit_width('a', 'Lato'), unit_width('ab', 'Lato')]
    True
    """
    known = _WIDTHS.get(name)
    if known is None or len(known) >= MAX_WIDTHS:
        known = _WIDTHS[name] = {}
    widths = list(map(known.get, texts))
    if None in widths:  # texts not measured yet
        font = register(name)
        for i, (text, width) in enumerate(zip(texts, widths)):
            if width is None:  # a line's words are kept too: the next line has most of them
                widths[i] = known[text] = shaping.width(text, font, known)
    return widths


def unit_width(text: str, name: str) -> float:
    """:func:`unit_widths` of one text."""
    known = _WIDTHS.get(name)
    width = known.get(text) if known else None
    return unit_widths((text,), name)[0] if width is None else width


@lru_cache(maxsize=1024)  # asked for each layout a text is tried in, at a few sizes
def ascent_descent(name: str, size: float) -> tuple[float, float]:
    """Ascent (above the baseline) and descent (below it, positive) in points."""
    face = pdfmetrics.getFont(register(name)).face
    return face.ascent * size / 1000, -face.descent * size / 1000


def cap_height(name: str, size: float) -> float:
    """How tall the font's capitals (and, in Lato, its figures) stand, in points."""
    return pdfmetrics.getFont(register(name)).face.capHeight * size / 1000
