"""Layout templates: a card's look as data.

A layout file (``layouts/NAME.yaml``) is a list of named elements drawn in order. Each has a
``kind``, a ``box`` (x, y, width, height from the card's top-left corner, in mm/in/pt or % of
the card) and style properties. Any property may read card fields (``text: "{value}"``,
``fill: "{back.colour}"``); ``style:`` picks a named style from ``styles:``, which may itself
come from a field (``style: "{back}"``). ``extends: other`` starts from another layout and
overrides its elements by name, property by property.

Loading checks everything that does not depend on a card; :meth:`Element.resolve` checks
the rest for each card.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import lru_cache
import re
from pathlib import Path

from ..sources import checks
from ..assets.catalog import BUNDLED, Assets
from ..common.errors import Problems, Where, did_you_mean
from ..assets.fonts import FONT_HELP
from ..assets.icons import SHADINGS
from ..sources.files import REACH_FIX, why_outside
from ..sources.yamlfile import Map, Seq, load_yaml, merged
from .template import fields_in, fill, fill_text, is_template
from ..common.units import LENGTH_HELP, UnitError, parse_length


# -- property parsers: raw YAML value -> drawing value; BadValue says what is wrong ----------

class BadValue(ValueError):
    """A property value that cannot be used: ``what`` is wrong, ``fix`` says what to write."""

    def __init__(self, what: str, fix: str = ""):
        super().__init__(f"{what}; {fix}" if fix else what)
        self.what, self.fix = what, fix


def _colour(value):
    try:
        return checks.parse_colour(value)
    except ValueError as exc:
        raise BadValue(str(exc), checks.COLOUR_HELP) from None


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
    "align": _one_of(("left", "center", "right")),
    "valign": _one_of(("top", "middle", "bottom")),
    "fit": _one_of(("contain", "cover", "stretch")), "anchor": _anchor,
    "shading": _one_of(SHADINGS), "size_group": _group_name,
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
             "valign": "middle", "leading": 1.2, "icon_colours": (), "size_group": None},
    "icon": {"icon": None, "fill": checks.parse_colour("black"), "stroke": None,
             "stroke_width": 0.5, "shading": "solid"},
    "image": {"image": None, "fit": "contain", "anchor": (0.5, 0.5)},
}.items()}
REQUIRED = {"icon": ("icon",), "image": ("image",), "text": ("text",)}
STRUCTURE = ("name", "kind", "box", "bleed", "rotate", "points", "style")
STYLE_KEYS = sorted(set().union(*KINDS.values()) | {"show"})
LAYOUT_KEYS = ("extends", "description", "safe", "styles", "elements")
LAYOUT_NAME = re.compile(r"^\w[\w.-]{0,99}(/\w[\w.-]{0,99}){0,4}$")  # no '..', nothing absolute
MAX_EXTENDS = 20


@dataclass(frozen=True)
class Box:
    """A rectangle in points, from the card's top-left corner, y pointing down."""

    x: float
    y: float
    width: float
    height: float


@dataclass(frozen=True)
class Element:
    name: str
    kind: str
    box: Box
    where: Where
    bleed: bool = False
    rotate: int = 0
    points: tuple = ()  # polygon corners, points from the box's top-left
    fixed: dict = field(default_factory=dict)  # property -> parsed value
    templates: dict = field(default_factory=dict)  # property -> template text
    style: str | None = None  # a style name or a template giving one
    memo: dict = field(default_factory=dict, compare=False, repr=False)  # see _split

    def fields(self, styles: dict, icons=()) -> set[str]:
        """Card fields this element reads, itself or through the styles it may pick
        (a ``{name}`` of ``icons`` in a text is an inline icon instead)."""
        names = set(fields_in(self.style or ""))
        if self.style is None:
            picked = []
        elif is_template(self.style):
            picked = list(styles.values())
        else:
            picked = [styles.get(self.style, {})]
        for props in picked + [self.templates]:
            for key, text in props.items():
                if is_template(text) and (key in KINDS[self.kind] or key == "show"):
                    names.update(n for n in fields_in(text) if key != "text" or n not in icons)
        return names

    def text_names(self, styles: dict) -> set[str]:
        """The ``{name}``s in this element's text, itself or through its styles: fields,
        or inline icons."""
        texts = [self.templates.get("text", "")] + [s.get("text", "") for s in styles.values()]
        return {name for text in texts if is_template(text) for name in fields_in(text)}

    def resolve(self, values, styles: dict, assets: Assets = BUNDLED) -> dict:
        """This element's properties for one card's field ``values``: the kind's defaults,
        then its style's properties, then its own; templates filled from ``values``.

        Raises BadValue naming the property when a field gives a bad value, or is missing.
        """
        try:
            return self._resolve(values, styles, assets)
        except KeyError as missing:
            raise BadValue(f"reads {{{missing.args[0]}}}, which this card does not have",
                           "add the field to the deck or fix the layout") from None

    def _resolve(self, values, styles: dict, assets: Assets) -> dict:
        name = None
        if self.style is not None:
            name = fill(self.style, values) if is_template(self.style) else self.style
            if name not in styles:
                raise BadValue(f"style: no style named '{name}' in this layout",
                               did_you_mean(name, styles))
        fixed, templates = self._split(name, styles)
        props = dict(fixed)
        for key, text in templates:
            if key == "show":  # decided first: a hidden element's values do not matter
                props["show"] = _parse_filled(key, fill(text, values), assets)
        if not props["show"]:
            return props
        for key, text in templates:
            if key == "show":
                continue
            if key == "text":  # wanted as it is; {icon} names stay for inline icons
                props[key] = fill_text(text, values)
                continue
            try:
                props[key] = _parse_filled(key, fill(text, values), assets)
            except BadValue as exc:
                raise BadValue(exc.what, f"{exc.fix} (the value comes from '{text}')") from None
        return props

    def _split(self, style: str | None, styles: dict):
        """For one style: the properties that are the same on every card, and the
        templates left to fill per card. Worked out once per style, not per card."""
        if style not in self.memo:
            fixed = {**KINDS[self.kind], "show": True}
            templates = {}
            own = {**self.fixed, **self.templates}
            for key, value in {**styles.get(style, {}), **own}.items():
                if key not in fixed:
                    continue  # a style property this kind does not use
                if is_template(value):
                    templates[key] = value
                else:
                    fixed[key] = value
                    templates.pop(key, None)
            self.memo[style] = (fixed, tuple(templates.items()))
        return self.memo[style]


def _parse(key, value, assets: Assets):
    try:
        if key in ASSET_PARSERS:
            return ASSET_PARSERS[key](value, assets)
        return PARSERS[key](value)
    except BadValue as exc:
        raise BadValue(f"{key}: {exc.what}", exc.fix) from None


@lru_cache(maxsize=4096)
def _parse_filled(key: str, text: str, assets: Assets):
    """:func:`_parse` for filled templates, which repeat from card to card."""
    return _parse(key, text, assets)


@dataclass(frozen=True)
class Layout:
    name: str
    elements: tuple[Element, ...]
    styles: dict  # style name -> {property: parsed value or template}
    safe: float  # safe-area inset in points, drawn by --guides
    path: Path
    card_size: tuple[float, float]  # the cards' width and height it was loaded for
    assets: Assets = BUNDLED  # the fonts and icons its values may name


# -- loading ---------------------------------------------------------------------------------

def find_layout(name: str, dirs) -> tuple[Path, Path] | None:
    """The first ``NAME.yaml`` in ``dirs`` and the folder it was found in (anything of that
    name, so that a FIFO or a folder there is reported as what it is when it is read)."""
    for folder in dirs:
        path = Path(folder) / f"{name}.yaml"
        if path.exists():
            return path, Path(folder)
    return None


def load_layout(name: str, dirs, card_size: tuple[float, float], problems: Problems,
                used_at: Where, assets: Assets = BUNDLED) -> Layout | None:
    """Load layout ``name`` from the first of ``dirs`` that has it, for cards of
    ``card_size`` (points) whose fonts and icons are ``assets``. Problems are added to
    ``problems``; returns None on failure."""
    found = Problems()
    raw = _load_raw(name, dirs, found, used_at, ())
    layout = None if raw is None else _build(name, *raw, card_size, found, assets)
    # a mistake in a layout file is met again by every layout that extends it: count those
    problems.items += [p if p.where.file == used_at.file else replace(p, unit="layout")
                       for p in found.items]
    return layout


def _load_raw(name, dirs, problems, used_at, chain):
    if not isinstance(name, str) or not name:
        problems.add(used_at, f"a layout name must be text, not {checks.describe(name)}",
                     "write the name of a file in layouts/ without '.yaml'")
        return None
    if not LAYOUT_NAME.match(name):
        problems.add(used_at, f"layout name {checks.quoted(name)} is not the name of a file in "
                     "layouts/", "use letters, digits, '-' and '_' (and '/' for a subfolder "
                     "of layouts/), e.g. 'my-front'")
        return None
    if name in chain:
        problems.add(used_at, f"layout '{name}' extends itself through "
                     + " -> ".join(chain + (name,)), "remove one of the 'extends'")
        return None
    if len(chain) >= MAX_EXTENDS:
        problems.add(used_at, f"layouts extend each other more than {MAX_EXTENDS} deep here",
                     "extend a layout that holds what the chain adds up to")
        return None
    found = find_layout(name, dirs)
    if found is not None:
        path, folder = found
        outside = why_outside(path, folder.parent)
        if outside:
            problems.add(used_at, f"layout '{name}' is {outside}", REACH_FIX)
            return None
    else:
        known = sorted({p.stem for d in dirs if Path(d).is_dir() for p in Path(d).glob("*.yaml")})
        problems.add(used_at, f"no layout named '{name}' (looked in "
                     + ", ".join(str(d) for d in dirs) + ")",
                     did_you_mean(name, known) if known else "create the layout file")
        return None
    # read once while unchanged: layouts that extend one base (per-rank fronts) share it;
    # extending makes new mappings, so the shared one is never changed
    data = load_yaml(path, shared=True)
    if not isinstance(data, Map):
        problems.add(getattr(data, "where", Where(path)), f"layout '{name}' must be a mapping "
                     f"of 'key: value' lines, not {checks.describe(data, show=False)}",
                     "start with 'elements:' (see README, 'Layout format')")
        return None
    if not checks.check_keys(problems, data, LAYOUT_KEYS, (), f"layout '{name}'"):
        return None
    if "extends" not in data:
        return path, data
    parent = _load_raw(data["extends"], dirs, problems, data.at("extends"), chain + (name,))
    if parent is None:
        return None
    return path, _extend(parent[1], data)


def _extend(parent: Map, child: Map) -> Map:
    result = merged(parent, child)
    result.pop("extends", None)
    if isinstance(parent.get("styles"), Map) and isinstance(child.get("styles"), Map):
        styles = merged(parent["styles"], child["styles"])
        for key in styles:
            if isinstance(parent["styles"].get(key), Map) and isinstance(child["styles"].get(key), Map):
                styles[key] = merged(parent["styles"][key], child["styles"][key])
        result["styles"] = styles
    if isinstance(parent.get("elements"), Seq) and isinstance(child.get("elements"), Seq):
        result["elements"] = _extend_elements(parent["elements"], child["elements"])
    return result


def _extend_elements(parent: Seq, child: Seq) -> Seq:
    items = list(zip(parent, parent.item_where))
    index = {e.get("name"): i for i, (e, _) in enumerate(items)
             if isinstance(e, Map) and isinstance(e.get("name"), str)}
    for element, where in zip(child, child.item_where):
        name = element.get("name") if isinstance(element, Map) else None
        if isinstance(name, str) and name in index:
            i = index[name]
            items[i] = (merged(items[i][0], element), where)
        else:  # a new element, or one without a usable name (reported when it is read)
            if isinstance(name, str):
                index[name] = len(items)
            items.append((element, where))
    result = Seq(e for e, _ in items)
    result.where = child.where
    result.item_where = [w for _, w in items]
    return result


def _build(name, path, data: Map, card_size, problems: Problems,
           assets: Assets) -> Layout:
    width, height = card_size
    safe = 3 * 72 / 25.4
    if "safe" in data:
        safe = checks.length(problems, data["safe"], data.at("safe"), "safe", minimum=0) or 0.0
    styles = {}
    if "styles" in data and checks.expect_map(problems, data["styles"], data.at("styles"), "styles"):
        for style_name, style in data["styles"].items():
            where = data["styles"].at(style_name)
            if checks.expect_map(problems, style, where, f"style '{style_name}'") and \
                    checks.check_keys(problems, style, STYLE_KEYS, (), f"style '{style_name}'"):
                parsed = {k: _parse_or_template(problems, style, k, assets) for k in style}
                # a property in error is reported and left out: the rest still check cards
                styles[str(style_name)] = {k: v for k, v in parsed.items() if v is not None}
    elements = []
    raw_elements = data.get("elements")
    if raw_elements is None:
        problems.add(data.where, f"layout '{name}' has no 'elements'",
                     "list what to draw under 'elements:'")
    elif checks.expect_list(problems, raw_elements, data.at("elements"), "elements"):
        seen = set()
        for raw, where in zip(raw_elements, raw_elements.item_where):
            element = _element(problems, raw, where, width, height, assets)
            if element is None:
                continue  # reported; the other elements still check the cards
            if element.name in seen:
                problems.add(where, f"two elements are named '{element.name}'",
                             "give each element its own name")
            seen.add(element.name)
            elements.append(element)
    # With problems, the layout holds the elements that have none: the deck fails, but
    # its cards are still checked against them, so that one run reports every mistake
    return Layout(name, tuple(elements), styles, safe, path, card_size, assets)


def _parse_or_template(problems, m: Map, key, assets: Assets):
    value = m[key]
    if is_template(value):
        return value
    try:
        return _parse(key, value, assets)
    except BadValue as exc:
        problems.add(m.at(key), exc.what, exc.fix)
        return None


def _element(problems: Problems, raw, where, width, height, assets: Assets) -> Element | None:
    if not checks.expect_map(problems, raw, where, "an element"):
        return None
    label = f"element '{raw.get('name', '?')}'"
    kind = raw.get("kind")
    if not checks.one_of(kind, KINDS):
        if "kind" not in raw:
            problems.add(raw.where, f"{label} has no 'kind'", "add 'kind:' with one of: "
                         + ", ".join(KINDS))
        else:
            problems.add(raw.at("kind"), f"{label}: unknown kind '{kind}'",
                         did_you_mean(kind, KINDS))
        return None
    allowed = set(STRUCTURE) | set(KINDS[kind]) | {"show"}
    required = ("name", "box") + REQUIRED.get(kind, ())
    if not checks.check_keys(problems, raw, allowed, required, f"{label} ({kind})"):
        return None
    name = checks.get_text(problems, raw, "name")
    box = _box(problems, raw["box"], raw.at("box"), width, height)
    rotate = checks.get_choice(problems, raw, "rotate", (0, 90, 180, 270), 0)
    bleed = checks.get_bool(problems, raw, "bleed")
    style = checks.get_text(problems, raw, "style")
    points = ()
    if kind == "polygon" and box is not None:  # corners are placed in their box
        points = _points(problems, raw, box)
    fixed, templates = {}, {}
    broken = False
    for key in raw:
        if key in STRUCTURE:
            continue
        if is_template(raw[key]):
            templates[key] = raw[key]
            continue
        found = len(problems.items)
        value = _parse_or_template(problems, raw, key, assets)
        if len(problems.items) == found:
            fixed[key] = value
        else:  # reported; the element still checks the cards without it, if it can
            broken = broken or key in REQUIRED.get(kind, ())
    if broken or None in (name, box) or (kind == "polygon" and not points):
        return None
    return Element(name, kind, box, raw.where, bleed, rotate or 0, points, fixed, templates,
                   style)


def _box(problems, raw, where, width, height) -> Box | None:
    if raw == "card":
        return Box(0.0, 0.0, width, height)
    keys = ("x", "y", "width", "height")
    if isinstance(raw, Seq) and len(raw) == 4:
        values = list(raw)
        wheres = raw.item_where
    elif isinstance(raw, Map) and checks.check_keys(problems, raw, keys, keys, "box"):
        values = [raw[k] for k in keys]
        wheres = [raw.at(k) for k in keys]
    else:
        if not isinstance(raw, Map):
            problems.add(where, f"box must be [x, y, width, height] or 'card', not "
                         f"{checks.describe(raw)}", "write e.g. 'box: [4mm, 4mm, 20mm, 10mm]'")
        return None
    spans = (width, height, width, height)
    numbers = [checks.length(problems, v, w, f"box {k}", percent_of=s)
               for v, w, k, s in zip(values, wheres, keys, spans)]
    if None in numbers:
        return None
    if numbers[2] < 0 or numbers[3] < 0:
        problems.add(where, "box width and height must not be negative",
                     "write a positive width and height")
        return None
    return Box(*numbers)


def _points(problems, raw: Map, box: Box):
    value = raw.get("points")
    if not isinstance(value, Seq) or len(value) < 3:
        problems.add(raw.at("points") if "points" in raw else raw.where,
                     "a polygon needs 'points': a list of at least 3 [x, y] corners",
                     "write e.g. 'points: [[50%, 0%], [100%, 100%], [0%, 100%]]' (% of its box)")
        return ()
    corners = []
    for item, where in zip(value, value.item_where):
        if not (isinstance(item, Seq) and len(item) == 2):
            problems.add(where, "a polygon corner must be [x, y]", "write e.g. '[50%, 0%]'")
            return ()
        x = checks.length(problems, item[0], where, "corner x", percent_of=box.width)
        y = checks.length(problems, item[1], where, "corner y", percent_of=box.height)
        if x is None or y is None:
            return ()
        corners.append((x, y))
    return tuple(corners)
