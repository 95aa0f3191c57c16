"""What setting text keeps between cards (issue 62's peak memory): a deck of 20,000 cards
has as many distinct texts and numbers, so only what is needed again is kept."""

from __future__ import annotations

import sys

from cardkit.assets import fonts, shaping
from cardkit.render import textpaint


def test_a_text_its_font_covers_is_not_kept():
    """Checking a card's text for glyphs its font lacks keeps no copy of the text."""
    text = " ".join(["lantern", "market", "draws", str(id(object()))] * 20)
    before = sys.getrefcount(text)
    assert fonts.missing_chars("Lato", text) == ""
    assert sys.getrefcount(text) == before
    assert fonts.missing_chars("Lato", text + " ♠") == "♠"  # what lacks a glyph still found


def test_an_ascii_word_keeps_its_tj_part_only():
    """A word of printable ASCII is kept as its part of a TJ array, not also as the
    shaped piece it is made from; the part is the piece's characters and kerning."""
    font = fonts.register("Lato")
    textpaint._ASCII_WORDS.clear()
    shaping.drawn_word.cache_clear()
    word = textpaint._ascii_word("Toward", font)
    assert shaping.drawn_word.cache_info().currsize == 0
    piece = shaping.drawn_word("Toward", font, None)
    assert piece.kerning and word.width == piece.width  # 'To' is kerned in Lato
    at, shift = piece.kerning[0]
    assert word.written.startswith(f"{piece.characters[:at + 1]}) {shift} (")
