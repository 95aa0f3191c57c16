"""A card's text element resolved: its text laid out in its box as the element says
(size, shrinking, breaking, overflow, the card's language), and checked as it will print
(icons and styles it names, markup left open, glyphs its fonts lack). Part of
:class:`.card.CardRenderer`, which reports what it finds.
"""

from __future__ import annotations

from ..assets.fonts import lacks, missing_chars, shown
from ..assets.icons import BuiltinIcon
from ..common.errors import braced_did_you_mean, did_you_mean
from ..deck.layout import Element
from ..deck.properties import OVERFLOW, BadValue
from ..deck.template import fields_in
from .paint import texts_by_face
from .textfit import SOFT_HYPHEN, TextBlock, fit_text
from .textmarkup import icon_names, is_plain, markup, span_names, unclosed_span

MAX_TEXT = 10_000  # characters in one text element: a dense tarot card holds about 2,000


class TextResolver:
    """The text elements' part of a card renderer, which has ``_warn``, ``_key``,
    ``group_sizes`` and ``_grouped`` (see :class:`.card.CardRenderer`)."""

    def _text(self, card, side, layout, element: Element, props) -> TextBlock:
        text, assets = props["text"], layout.assets
        if len(text) > MAX_TEXT:  # fitting it would take long, and no card can hold it
            raise BadValue(f"the text is {len(text):,} characters long; no card holds more "
                           f"than a few hundred words", f"shorten it to under {MAX_TEXT:,} "
                           "characters")
        plain = is_plain(text)  # most texts: no icons or markup to check
        used = () if plain else self._check_markup(card, layout, element, text)
        if props["min_size"] is not None and props["min_size"] > props["size"]:
            self._warn(card, layout, element, f"min_size {props['min_size']:g}pt is larger "
                       f"than size {props['size']:g}pt", "make min_size the smaller one",
                       in_layout=True)
        for used_mark in sorted(used):
            if lacks(props["font"], used_mark):
                style = "bold" if used_mark == "**" else "italic"
                self._warn(card, layout, element, f"font {shown(props['font'])} has no "
                           f"{style} face, so {used_mark}{style}{used_mark} text prints in it",
                           f"add the family's {style} TTF to the deck's fonts/ folder",
                           in_layout=True)
        width, height = element.box.width, element.box.height
        if element.rotate in (90, 270):
            width, height = height, width
        size, min_size, group = props["size"], props["min_size"], props["size_group"]
        if group in self.group_sizes:  # the group's size is known: set the text at it
            size = min_size = min(size, self.group_sizes[group])
        language = card.stamps.get("deck.hyphenation", "") if props["hyphenate"] else ""
        overflow = props["overflow"]
        block = fit_text(text, props["font"], width, height, size, min_size,
                         props["leading"], assets, language, overflow)
        if group is not None and group not in self.group_sizes:
            key = self._key(card, side)
            self._grouped[key] = self._grouped.get(key, ()) + ((group, block.size),)
        if not block.fits and overflow == "fail":
            fields = [name for name in fields_in(element.templates.get("text", ""))
                      if name in card.fields]
            read = f" (field {', '.join(repr(name) for name in fields)})" if fields else ""
            raise BadValue(f"the text{read} does not fit its box even at {block.size:g}pt, "
                           "and the element says 'overflow: fail'", "shorten the text"
                           + " on this card" * bool(fields) + ", enlarge the box, lower "
                           "'min_size', or choose another 'overflow' (shrink, hyphenate, "
                           "break-anywhere, ellipsis)")
        if not block.fits:
            self._warn(card, layout, element, f"text does not fit its box even at "
                       f"{block.size:g}pt (overflow: {overflow})", "shorten the text, "
                       "enlarge the box or lower 'min_size' (or choose another 'overflow': "
                       + ", ".join(way for way in OVERFLOW[1:-1] if way != overflow) + ")")
        elif block.cut:
            self._warn(card, layout, element, f"text is cut to fit its box at "
                       f"{block.size:g}pt, ending in '…' (overflow: ellipsis)",
                       "shorten the text, enlarge the box or lower 'min_size'")
        drawn = [(props["font"], text.replace(SOFT_HYPHEN, "-"))] if plain else \
            texts_by_face(block)  # a soft hyphen prints as a hyphen, or not at all
        for face, face_text in drawn:
            missing = missing_chars(face, face_text)
            if missing:
                self._warn(card, layout, element, f"font {shown(face)} has no glyph for "
                           f"{missing!r}", "use other characters, or an icon element")
        return block

    def _check_markup(self, card, layout, element: Element, text: str) -> set[str]:
        """A text's icons, styled spans and bold and italic, checked: the markup it uses
        (``**``, ``*``)."""
        assets = layout.assets
        names = icon_names(text)
        if names:
            self._check_icons(card, layout, element, names)
        spans = span_names(text)
        unknown = [name for name in spans if name not in assets.text_styles]
        if unknown:
            styles = assets.text_styles
            raise BadValue(f"'{{{unknown[0]}: ...}}' in the text sets words in text style "
                           f"'{unknown[0]}', which the deck does not have", (
                               did_you_mean(unknown[0], styles) + " (the deck's 'styles:')"
                               if styles else f"add it to deck.yaml: 'styles: {{{unknown[0]}:"
                               " {colour: \"#b5562a\"}}'") + "; literal braces are written "
                           "{{ and }}")
        unclosed = spans and unclosed_span(text)
        if unclosed:
            self._warn(card, layout, element, f"'{{{unclosed}:' starts a styled span that is "
                       "not closed", "add the closing '}'")
        used, mark = markup(text)
        if mark:
            style = "bold" if mark == "**" else "italic"
            self._warn(card, layout, element, f"'{mark}' starts {style} text that is not "
                       "closed", f"add the closing '{mark}'")
        return used

    def _check_icons(self, card, layout, element: Element, names: list[str]) -> None:
        """The ``{name}``s in a card's text must be icons, and are best not fields too."""
        assets = layout.assets
        fields = card.values()
        unknown = [name for name in names if name not in assets.icons]
        if unknown and unknown[0] in fields:
            raise BadValue(f"'{{{unknown[0]}}}' in the card's text: card text can show icons, "
                           f"but not fields such as '{unknown[0]}'", f"read the field in the "
                           f"layout's text instead (text: \"... {{{unknown[0]}}}\"), or write "
                           "literal braces as {{ and }}")
        if unknown and unknown[0] in assets.text_styles:
            raise BadValue(f"'{{{unknown[0]}}}' in the text names a text style, not an icon",
                           f"write the words to set in it after a colon: "
                           f"'{{{unknown[0]}: Strike}}'")
        if unknown:
            raise BadValue(f"'{{{unknown[0]}}}' in the text is neither a field nor an icon",
                           braced_did_you_mean(unknown[0], {*fields, *assets.icons}))
        for name in sorted({name for name in names if name in fields}):
            self._warn(card, layout, element, f"'{{{name}}}' is both a field and an icon: "
                       "card text draws the icon, a layout's text shows the field",
                       ("rename the field (the icon is built in)"
                        if isinstance(assets.icons[name], BuiltinIcon) else
                        f"rename the field or the icon (icons/{name}.svg)")
                       + f" so that '{{{name}}}' means one thing")
