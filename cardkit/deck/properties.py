"""What each property of a layout element accepts, and each kind's defaults: a raw YAML
value becomes a drawing value (a colour, a length in points, a font's registered name), or
:class:`BadValue` says what is wrong and what to write instead.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from ..assets.catalog import Assets
from ..assets.fonts import FONT_HELP
from ..assets.icons import SHADINGS
from ..common.errors import did_you_mean
from ..common.units import LENGTH_HELP, UnitError, parse_length
from ..sources import checks
from ..sources.yamlfile import Map, Seq


class BadValue(ValueError):
    """A property value that cannot be used: ``what`` is wrong, ``fix`` says what to write."""

    def __init__(self, what: str, fix: str = ""):
        super().__init__(f"{what}; {fix}" if fix else what)
        self.what, self.fix = what, fix


def _colour(value):
    try:
        return checks.parse_colour(value)
    except ValueError as exc:
        raise BadValue(str(exc), checks.colour_fix(value)) from None


def _length(value):
    try:
        return parse_length(value)
    except ValueError as exc:
        raise BadValue(str(exc), LENGTH_HELP) from None


def _font_size(value):
    try:
        size = parse_length(value)
    except ValueError as exc:
        raise BadValue(str(exc), f"write a size with its unit, e.g. '{value}pt'"
                       if isinstance(value, (int, float)) and 0 < value < 1000
                       else "write e.g. '9pt'") from None
    if size <= 0:
        raise BadValue("a font size must be above 0", "write e.g. '9pt'")
    return size


# What a text that does not fit its box at its size does (render.textfit): each shrinks
# down to min_size first, but 'hyphenate', which hyphenates every line's last word first
OVERFLOW = ("shrink", "hyphenate", "break-anywhere", "ellipsis", "fail")


def _text(value):
    if isinstance(value, (Map, Seq)) or value is None:
        raise BadValue(f"expected text, got {checks.describe(value)}", "put the text in quotes")
    return str(value)


def _one_of(choices):
    def parse(value):
        if not checks.one_of(value, choices):
            raise BadValue(f"{value!r} is not allowed here", did_you_mean(value, choices))
        return value
    return parse


def _leading(value):
    """Line spacing as a multiple of the font size: ``1.2``."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value <= 10:
        raise BadValue(f"expected a number above 0 and at most 10, got "
                       f"{checks.describe(value)}", "write e.g. '1.2'")
    return float(value)


def _opacity(value):
    """0 (invisible) to 1 (solid), or a percentage: ``0.7``, ``70%``."""
    if isinstance(value, str) and value.strip().endswith("%"):
        try:
            value = parse_length(value, percent_of=1.0)
        except UnitError:
            pass
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 1:
        raise BadValue(f"expected a number from 0 to 1, got {checks.describe(value)}",
                       "write e.g. '0.7' or '70%'")
    return float(value)


HORIZONTAL, VERTICAL, CENTRE = {"left": 0.0, "right": 1.0}, {"top": 0.0, "bottom": 1.0}, \
    ("center", "centre")


def _anchor(value):
    """Where an image sits in its box when it is cropped or does not fill it, as fractions
    (x from the left, y from the top): one or two words, or one or two percentages.

    >>> _anchor('top'), _anchor('bottom right'), _anchor('30%'), _anchor('0% 100%')
    ((0.5, 0.0), (1.0, 1.0), (0.3, 0.3), (0.0, 1.0))
    """
    words = value.lower().split() if isinstance(value, str) else []
    if 1 <= len(words) <= 2 and all(w in HORIZONTAL or w in VERTICAL or w in CENTRE
                                    for w in words):
        return (next((HORIZONTAL[w] for w in words if w in HORIZONTAL), 0.5),
                next((VERTICAL[w] for w in words if w in VERTICAL), 0.5))
    if 1 <= len(words) <= 2 and all(w.endswith("%") for w in words):
        try:
            fractions = [parse_length(w, percent_of=1.0) for w in words]
        except UnitError:
            pass
        else:
            return fractions[0], fractions[-1]
    raise BadValue(f"{value!r} is not an anchor", "write center, top, bottom, left, right, "
                   "'top left', or percentages from the left and top such as '50% 20%'")


def _flag(value):
    """True or false; a field gives it as text ('yes', 'no'...)."""
    if isinstance(value, bool):
        return value
    word = str(value).strip().lower()
    if word in ("true", "yes", "on", "1"):
        return True
    if word in ("false", "no", "off", "0"):
        return False
    raise BadValue(f"expected true or false, got {checks.describe(value)}",
                   "write true or false")


def _shown(value):
    return str(value).strip().lower() not in ("", "0", "false", "no", "none")


def _font(value, assets: Assets):
    if isinstance(value, str) and value in assets.broken_fonts and value not in assets.fonts:
        raise BadValue(assets.broken_fonts[value], FONT_HELP)
    if not isinstance(value, str) or value not in assets.fonts:
        fix = did_you_mean(Path(str(value)).stem, assets.fonts)
        raise BadValue(f"no font named {value!r}", fix + " (a font of your own goes in "
                       "the deck's fonts/ folder, named by its file name)")
    return assets.fonts[value]


def _icon(value, assets: Assets):
    if not isinstance(value, str) or value not in assets.icons:
        raise BadValue(f"no icon named {value!r}", did_you_mean(value, assets.icons)
                       + " (an icon of your own is an SVG file in the deck's icons/ folder)")
    return assets.icons[value]


def _icon_colours(value, assets: Assets):
    """The colours inline icons take instead of the text's: ``{heart: "#c8102e"}`` as a
    tuple of (icon name, colour) pairs."""
    if not isinstance(value, Map) or not value:
        raise BadValue(f"expected icon names with their colours, got "
                       f"{checks.describe(value)}", "write e.g. '{heart: \"#c8102e\", "
                       "diamond: \"#c8102e\"}'")
    pairs = []
    for name, colour in value.items():
        _icon(name, assets)
        pairs.append((name, _colour(colour)))
    return tuple(pairs)


def _group_name(value):
    """A ``size_group``: a name texts share to be set at one size."""
    if not isinstance(value, (str, int)) or isinstance(value, bool) or not str(value).strip():
        raise BadValue(f"expected a name, got {checks.describe(value)}",
                       "write a short name such as 'rules'")
    return str(value).strip()


PARSERS = {
    "fill": _colour, "stroke": _colour, "colour": _colour,
    "stroke_width": _length, "radius": _length,
    "text": _text, "image": _text, "show": _shown,
    "size": _font_size, "min_size": _font_size, "leading": _leading, "opacity": _opacity,
    "align": _one_of(("left", "center", "right", "start", "end")),
    "valign": _one_of(("top", "middle", "bottom")),
    "fit": _one_of(("contain", "cover", "stretch")), "anchor": _anchor,
    "shading": _one_of(SHADINGS), "size_group": _group_name,
    "overflow": _one_of(OVERFLOW), "hyphenate": _flag,
}
# these depend on the deck's own files
ASSET_PARSERS = {"font": _font, "icon": _icon, "icon_colours": _icon_colours}

KINDS = {kind: {**props, "opacity": 1.0} for kind, props in {  # opacity: every kind
    "rect": {"fill": None, "stroke": None, "stroke_width": 0.5, "radius": 0.0},
    "ellipse": {"fill": None, "stroke": None, "stroke_width": 0.5},
    "polygon": {"fill": None, "stroke": None, "stroke_width": 0.5},
    "line": {"stroke": checks.parse_colour("black"), "stroke_width": 0.5},
    "text": {"text": "", "font": "Lato", "size": 10.0, "min_size": None,
             "colour": checks.parse_colour("black"), "align": "center",
             "valign": "middle", "leading": 1.2, "icon_colours": (), "size_group": None,
             "overflow": "shrink", "hyphenate": True},
    "icon": {"icon": None, "fill": checks.parse_colour("black"), "stroke": None,
             "stroke_width": 0.5, "shading": "solid"},
    "image": {"image": None, "fit": "contain", "anchor": (0.5, 0.5)},
}.items()}
REQUIRED = {"icon": ("icon",), "image": ("image",), "text": ("text",)}
STYLE_KEYS = sorted(set().union(*KINDS.values()) | {"show"})


def parse_property(key, value, assets: Assets):
    try:
        if key in ASSET_PARSERS:
            return ASSET_PARSERS[key](value, assets)
        return PARSERS[key](value)
    except BadValue as exc:
        raise BadValue(f"{key}: {exc.what}", exc.fix) from None


@lru_cache(maxsize=4096)
def parse_filled(key: str, text: str, assets: Assets):
    """:func:`parse_property` for filled templates, which repeat from card to card."""
    return parse_property(key, text, assets)
