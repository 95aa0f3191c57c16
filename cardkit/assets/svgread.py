"""svglib's reader, made to read a deck's SVG as cardkit needs (imported when a deck has
SVG: svglib and reportlab.graphics are slow to load).

- A picture the SVG embeds or links is checked from its header before svglib decodes
  it whole (svglib decodes a linked one only to test that it can be read): a 177-megapixel
  PNG of 170 KB would take 2.6 GB before it is refused.
- Text is set in a name of its own that records what its ``font-family`` lists (none when
  the SVG gives none), whether its weight is bold (``bold``, ``bolder`` or 600 to 900, as
  CSS reads them) and whether its style is italic or oblique; :func:`.svg.with_deck_fonts`
  puts the deck's font in its place. svglib never looks for fonts on the system.
- An SVG the SVG links is read the same way, within the same bounds.
"""

from __future__ import annotations

import base64
import io
import json
import os
import re
from functools import lru_cache
from pathlib import Path

from svglib.svglib import (ExternalSVG, Svg2RlgAttributeConverter, Svg2RlgShapeConverter,
                           SvgRenderer, load_svg_file)

from ..sources.files import why_unreadable
from .fonts import BOLD, DEFAULT_FONT, FONT_DIR, FONT_FILES, ITALIC, TaggedTTFont, register
from .svgchecks import MAX_SVG_BYTES, NOTED, SvgError, check_picture

_XLINK_HREF = "{http://www.w3.org/1999/xlink}href"
_EMBEDDED = re.compile(r"^data:image/(jpe?g|png);base64")  # what svglib decodes as a picture
_FAMILY = re.compile(r'(?:"[^"]*"|\'[^\']*\'|[^,])+')  # one name of a CSS family list


def read_svg(path: Path, root: Path):
    """The drawing svglib makes of the SVG at ``path`` (None when it cannot), reading
    linked files inside ``root`` only."""
    tree = load_svg_file(str(path))
    if tree is None:
        return None
    return _Reader(str(path), external_reference_root=str(root)).render(tree)


def families(value: str) -> tuple[str, ...]:
    """The names a CSS ``font-family`` list gives, in order, unquoted.

    >>> families("'Open Sans', C059 ,serif, 'A, B'")
    ('Open Sans', 'C059', 'serif', 'A, B')
    """
    names = (name.strip().strip("'\"").strip() for name in _FAMILY.findall(value))
    return tuple(name for name in names if name)


def is_bold(weight: str) -> bool:
    """Whether a CSS ``font-weight`` asks for a bold face.

    >>> [is_bold(w) for w in ("700", "600", "500", "bold", "bolder", "normal", "x")]
    [True, True, False, True, True, False, False]
    """
    weight = str(weight).strip().lower()
    if weight in ("bold", "bolder"):
        return True
    try:
        return float(weight) >= 600
    except ValueError:
        return False


def is_italic(style: str) -> bool:
    """Whether a CSS ``font-style`` (``italic``, ``oblique`` or ``oblique 10deg``) slants."""
    return str(style).strip().lower().split()[:1] in (["italic"], ["oblique"])


@lru_cache(maxsize=None)
def _noted(names: tuple[str, ...], bold: bool, italic: bool) -> str:
    """The font name recording a text's families, weight and style, registered as the
    bundled face of that weight and style, so that svglib can measure the text."""
    face = DEFAULT_FONT
    face = BOLD[face] if bold else face
    face = ITALIC[face] if italic else face
    name = NOTED + json.dumps([list(names), bold, italic])
    from reportlab.pdfbase import pdfmetrics

    pdfmetrics.registerFont(TaggedTTFont(name, str(FONT_DIR / FONT_FILES[register(face)])))
    return name


class _Attributes(Svg2RlgAttributeConverter):
    """svglib's reading of attributes, with fonts noted (see the module's notes).
    ``named`` says whether the node being read names a family (svglib gives 'Helvetica'
    when it does not)."""

    named = True

    def convertFontFamily(self, fontAttr, weightAttr="normal", styleAttr="normal"):
        if not fontAttr:
            return ""
        names = families(fontAttr) if self.named else ()
        return _noted(names, is_bold(weightAttr), is_italic(styleAttr))


class _Shapes(Svg2RlgShapeConverter):
    """svglib's making of shapes, telling the attribute reader whether a text's node
    names a family before its font is read."""

    def convertText(self, node):
        self.attrConverter.named = bool(self.attrConverter.findAttr(node, "font-family"))
        return super().convertText(node)

    def applyStyleOnShape(self, shape, node, only_explicit=False):
        self.attrConverter.named = bool(self.attrConverter.findAttr(node, "font-family"))
        return super().applyStyleOnShape(shape, node, only_explicit)


class _Reader(SvgRenderer):
    """svglib's renderer with the checks and the fonts described in the module's notes."""

    def __init__(self, path: str, **options):
        super().__init__(path, **options)
        rules = self.attrConverter.css_rules
        self.attrConverter = _Attributes()
        self.attrConverter.css_rules = rules
        self.shape_converter = _Shapes(path, self.attrConverter)

    def xlink_href_target(self, node, group=None):
        href = node.attrib.get(_XLINK_HREF) or node.attrib.get("href") or ""
        embedded = _EMBEDDED.match(href)
        if embedded:  # decoded as svglib will, to read its header first
            check_picture(io.BytesIO(base64.decodebytes(
                href[embedded.end() + 1:].encode("ascii"))))
        else:
            path = self._reachable(href.split("#", 1)[0])
            if path is None:
                pass  # svglib refuses it, or has nothing to read
            elif path.endswith(".svg"):
                if path not in self._external_svgs:
                    self._external_svgs[path] = _LinkedSvg(path, self)
            else:
                check_picture(path)
        return super().xlink_href_target(node, group)

    def _reachable(self, iri: str) -> str | None:
        """The file a link names, as svglib finds it, when svglib would read it: a relative
        path inside the trusted root, readable, not the SVG itself."""
        if not iri or os.path.isabs(iri):
            return None
        path = os.path.normpath(os.path.join(os.path.dirname(self.source_path), iri))
        root = os.path.realpath(self.external_reference_root)
        try:
            inside = os.path.commonpath([root, os.path.realpath(path)]) == root
        except ValueError:
            return None
        readable = inside and os.access(path, os.R_OK) and path != self.source_path
        return path if readable else None


class _LinkedSvg(ExternalSVG):
    """An SVG another links, read by a :class:`_Reader` (svglib's own would decode its
    pictures unchecked and look for its fonts on the system)."""

    def __init__(self, path: str, renderer: _Reader):
        why = why_unreadable(Path(path), MAX_SVG_BYTES)
        if why:
            raise SvgError(f"the SVG links {os.path.basename(path)!r}: {why}",
                           "use a plain SVG file of a few hundred kilobytes at most")
        super().__init__(path, renderer)
        plain = self.renderer
        self.renderer = _Reader(path, parent_svgs=plain._parent_chain,
                                external_reference_root=plain.external_reference_root)
        self.renderer._use_expansions = plain._use_expansions
