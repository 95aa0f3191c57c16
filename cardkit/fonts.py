"""The fonts cardkit ships and embeds (Lato, SIL Open Font License; see fonts/OFL.txt).

Only TrueType fonts bundled here are used, so every PDF embeds every font it names;
reportlab's built-in Helvetica is never referenced.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

FONT_DIR = Path(__file__).parent / "fonts"

# name in layouts -> file in FONT_DIR
FONT_FILES = {
    "Lato": "Lato-Regular.ttf",
    "Lato-Bold": "Lato-Bold.ttf",
    "Lato-Italic": "Lato-Italic.ttf",
    "Lato-Black": "Lato-Black.ttf",
}
DEFAULT_FONT = "Lato"
# The faces that **bold** and *italic* markup switch to from each font.
BOLD = {"Lato": "Lato-Bold", "Lato-Italic": "Lato-Bold", "Lato-Bold": "Lato-Black",
        "Lato-Black": "Lato-Black"}
ITALIC = {"Lato": "Lato-Italic", "Lato-Bold": "Lato-Italic", "Lato-Italic": "Lato-Italic",
          "Lato-Black": "Lato-Italic"}


@lru_cache(maxsize=None)
def register(name: str) -> str:
    """Register a bundled font with reportlab (once) and return its name."""
    font = TTFont(name, str(FONT_DIR / FONT_FILES[name]))
    pdfmetrics.registerFont(font)
    return name


@lru_cache(maxsize=None)
def _codepoints(name: str) -> frozenset[int]:
    return frozenset(pdfmetrics.getFont(register(name)).face.charToGlyph)


@lru_cache(maxsize=4096)
def missing_chars(name: str, text: str) -> str:
    """The characters of ``text`` that font ``name`` has no glyph for (spaces ignored).

    >>> missing_chars('Lato', 'Blófa')
    ''
    >>> missing_chars('Lato', 'a ♠ b')
    '♠'
    """
    have = _codepoints(name)
    seen = dict.fromkeys(ch for ch in text if ord(ch) not in have and not ch.isspace())
    return "".join(seen)


def string_width(text: str, name: str, size: float) -> float:
    return pdfmetrics.stringWidth(text, register(name), size)


def ascent_descent(name: str, size: float) -> tuple[float, float]:
    """Ascent (above the baseline) and descent (below it, positive) in points."""
    face = pdfmetrics.getFont(register(name)).face
    return face.ascent * size / 1000, -face.descent * size / 1000
