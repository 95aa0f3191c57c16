"""A deck's named styles for words inside its texts::

    styles:
      keyword: {colour: "#b5562a", font: Lato-Bold, case: upper}
      aside: {colour: "#666666", size: 85%}

Any text (a card's field, a translation, a layout's text) sets words in one with
``{keyword: Strike}``: braces, as fields and icons are written, with the style's name and a
colon. Spans nest with each other, with ``**bold**``, ``*italic*`` and icons.
"""

from __future__ import annotations

from ..assets.catalog import Assets, TextStyle
from ..common.errors import Problems
from ..common.patterns import LatePattern
from ..sources import checks
from ..sources.yamlfile import Map
from .properties import BadValue, parse_property

STYLE_NAME = LatePattern(r"^[A-Za-z_][\w-]*$")
STYLE_KEYS = ("colour", "font", "size", "case")
CASES = ("upper", "lower")
SIZE = LatePattern(r"^\s*(\d+(\.\d+)?)\s*%\s*$")
SMALLEST = 50  # % of the text's size: smaller is unreadable in print
SIZE_HELP = f"write a percentage of the text's size from {SMALLEST}% to 100%, e.g. '85%'"


def with_text_styles(assets: Assets, data: Map, problems: Problems) -> Assets:
    """``assets`` with the deck's ``styles``, each checked against its fonts."""
    raw = data.get("styles")
    if raw is None or not checks.expect_map(problems, raw, data.at("styles"), "styles"):
        return assets
    styles = {}
    for name, props in raw.items():
        where = raw.at(name)
        if not isinstance(name, str) or not STYLE_NAME.match(name):
            problems.add(raw.key_at(name), f"{checks.quoted(name)} cannot name a text style",
                         "use a word of letters, digits, '_' and '-', e.g. 'keyword'")
            continue
        if not checks.expect_map(problems, props, where, f"style '{name}'") or \
                not checks.check_keys(problems, props, STYLE_KEYS, (), f"style '{name}'"):
            continue
        style = TextStyle()
        for key in props:
            try:
                style = _with_property(style, key, props[key], assets)
            except BadValue as exc:
                problems.add(props.at(key), f"style '{name}': {exc.what}", exc.fix)
        styles[name] = style
    return assets.styled(styles)


def _with_property(style: TextStyle, key: str, value, assets: Assets) -> TextStyle:
    """``style`` with its property ``key`` set from the deck's ``value``."""
    if key == "size":
        found = SIZE.match(str(value)) if isinstance(value, str) else None
        if found is None or not SMALLEST <= float(found.group(1)) <= 100:
            raise BadValue(f"size: {checks.quoted(value)} is not a percentage from "
                           f"{SMALLEST}% to 100%", SIZE_HELP + " (a span shrinks with its "
                           "text; larger would reach past the lines it is fitted in)")
        return style._replace(scale=float(found.group(1)) / 100)
    if key == "case":
        if value not in CASES:
            raise BadValue(f"case: {checks.quoted(value)} is not a case",
                           "write 'upper' or 'lower'")
        return style._replace(case=value)
    return style._replace(**{key: parse_property(key, value, assets)})
