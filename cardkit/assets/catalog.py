"""What a deck brings besides its cards: fonts and icons, by the names layouts use.

The bundled Lato fonts and built-in icons are always there; a deck adds the TrueType fonts
in its ``fonts/`` folder and the SVG files in its ``icons/`` folder (and those of the decks
it extends). Images are read per card by the renderer, from the paths cards give.
"""

from __future__ import annotations

from typing import NamedTuple

from ..common.errors import Problem, Problems
from .fonts import FONT_FILES, deck_fonts
from .icons import ICONS, Icon, deck_icons


class TextStyle(NamedTuple):
    """A deck's named style for words inside a text (``{keyword: Strike}``): what it
    changes of the text around them."""

    font: str | None = None  # a registered font name
    colour: object = None  # a reportlab colour
    scale: float = 1.0  # of the text's size, which shrinks to fit
    case: str | None = None  # 'upper' or 'lower'

    def inside(self, outer: TextStyle | None) -> TextStyle:
        """This style within ``outer``'s span: what it leaves alone, ``outer`` sets."""
        if outer is None:
            return self
        return TextStyle(self.font or outer.font, self.colour or outer.colour,
                         self.scale * outer.scale, self.case or outer.case)


class Assets:
    """What a deck's layouts may name: its fonts, its icons (the built-in ones and its own)
    and its text styles. Compared and hashed by identity (a deck's own set), so a plain
    class: a dataclass is made at import by compiling its methods (issue 62)."""

    __slots__ = ("fonts", "icons", "broken_fonts", "text_styles")

    def __init__(self, fonts: dict[str, str], icons: dict[str, Icon],
                 broken_fonts: dict[str, str] | None = None,
                 text_styles: dict[str, TextStyle] | None = None):
        self.fonts = fonts  # name in layouts -> registered font name
        self.icons = icons  # name in layouts and text -> icon
        # font files that cannot be used, by the names layouts would give them -> why (a
        # problem only for a layout that names one: an unused file in fonts/ harms nothing)
        self.broken_fonts = {} if broken_fonts is None else broken_fonts
        self.text_styles = {} if text_styles is None else text_styles  # the deck's 'styles'

    def styled(self, text_styles: dict[str, TextStyle]) -> Assets:
        """These fonts and icons with ``text_styles`` for the deck's styles."""
        return Assets(self.fonts, self.icons, self.broken_fonts, text_styles)

    @property
    def own_fonts(self) -> tuple[str, ...]:
        """The fonts the deck brings (its ``fonts/`` folder's), registered names, each
        once: they set the letters of its title that the pages' own font (Lato) lacks."""
        return tuple(dict.fromkeys(face for face in self.fonts.values()
                                   if face not in FONT_FILES))


BUNDLED = Assets({name: name for name in FONT_FILES}, ICONS)


def load_assets(folders, problems: Problems, warnings: list[Problem] | None = None) -> Assets:
    """The fonts and icons of a deck whose folder (and those of the decks it extends,
    its own first) are ``folders``. Unusable icon files are added to ``problems``; font
    files only when a layout names them. An icon's text in a font its file does not ask
    for is added to ``warnings``, if given."""
    broken: dict[str, str] = {}
    fonts = deck_fonts(folders, problems, broken)
    return Assets(fonts, deck_icons(folders, problems, fonts,
                                    [] if warnings is None else warnings), broken)
