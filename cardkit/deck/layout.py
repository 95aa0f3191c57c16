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

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

from ..assets.catalog import BUNDLED, Assets
from ..common.errors import Problems, Where, did_you_mean
from ..sources import checks
from ..sources.files import REACH_FIX, why_outside
from ..sources.yamlfile import Map, Seq, load_yaml, merged
from .properties import KINDS, REQUIRED, STYLE_KEYS, BadValue, parse_filled, parse_property
from .template import fields_in, fill, fill_text, is_template


STRUCTURE = ("name", "kind", "box", "bleed", "rotate", "points", "style")
LAYOUT_KEYS = ("extends", "description", "safe", "styles", "elements")
LAYOUT_NAME = re.compile(r"^\w[\w.-]{0,99}(/\w[\w.-]{0,99}){0,4}$")  # no '..', nothing absolute
MAX_EXTENDS = 20
MAX_MADE = 64  # an element's properties kept by the values filled in (a suit's colour)


class Box(NamedTuple):  # made for each element a card draws: a tuple is made fastest
    """A rectangle in points, from the card's top-left corner, y pointing down."""

    x: float
    y: float
    width: float
    height: float


@dataclass(frozen=True)
class Element:
    """One element of a layout as loaded: its kind, box and place in the file, its
    properties that are the same on every card (``fixed``) and those a card's fields fill
    (``templates``)."""

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
    # where its 'box:' value is written (the studio moves it): in a layout it extends,
    # when it is not its own
    box_at: Where | None = field(default=None, compare=False)

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
        then its style's properties, then its own; templates filled from ``values``. The
        properties are shared (an element without templates gives every card the same
        dict): read them, never change them.

        Raises BadValue naming the property when a field gives a bad value, or is missing.
        """
        try:  # in one call, not two: every element of every card is resolved here
            name = None
            if self.style is not None:
                name = fill(self.style, values) if is_template(self.style) else self.style
                if name not in styles:
                    raise BadValue(f"style: no style named '{name}' in this layout",
                                   did_you_mean(name, styles))
            fixed, show, templates, made = self.memo.get(name) or self._split(name, styles)
            shown = fixed["show"]
            if show is not None:  # decided first: a hidden element's values do not matter
                shown = parse_filled("show", fill(show, values), assets)
            if not shown:
                return {**fixed, "show": shown}
            if not templates:
                return fixed  # the same on every card: one dict, which nothing changes
            filled = key = None  # the templates filled in, once
            if made is not None:  # the same filled templates make the same properties
                try:
                    filled = [fill(text, values) for _, text in templates]
                except KeyError:
                    pass  # reported below, after any value before it that is wrong
                else:
                    key = (assets, *filled)
                    if key in made:
                        return made[key]
            props = {**fixed, "show": shown}
            for i, (prop, text) in enumerate(templates):
                if prop == "text":  # wanted as it is; {icon} names stay for inline icons
                    props[prop] = fill_text(text, values)
                    continue
                try:
                    props[prop] = parse_filled(
                        prop, fill(text, values) if filled is None else filled[i], assets)
                except BadValue as exc:
                    raise BadValue(exc.what, f"{exc.fix} (the value comes from '{text}')") from None
            if key is not None and len(made) < MAX_MADE:
                made[key] = props
            return props
        except KeyError as missing:
            raise BadValue(f"reads {{{missing.args[0]}}}, which this card does not have",
                           "add the field to the deck or fix the layout") from None

    def _split(self, style: str | None, styles: dict):
        """For one style: the properties that are the same on every card, the ``show``
        template (or None) and the other templates left to fill per card, and a dict to
        keep the properties each filling of them made in (None for a text element's,
        which each card fills with its own text). Worked out once per style, not per
        card."""
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
            show = templates.pop("show", None)
            self.memo[style] = (fixed, show, tuple(templates.items()),
                                None if "text" in templates else {})
        return self.memo[style]


@dataclass(frozen=True)
class Layout:
    """A layout file loaded for one card size: its elements in the order they are drawn,
    its styles, its safe area and the fonts and icons it may name."""

    name: str
    elements: tuple[Element, ...]
    styles: dict  # style name -> {property: parsed value or template}
    safe: float  # safe-area inset in points, drawn by --guides
    path: Path
    card_size: tuple[float, float]  # the cards' width and height it was loaded for
    assets: Assets = BUNDLED  # the fonts and icons its values may name

    def fields_read(self) -> set[str]:
        """The fields the layout reads to draw a card."""
        return {name for element in self.elements
                for name in element.fields(self.styles, self.assets.icons)}


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
    problems.items += [p if p.where.file == used_at.file else p._replace(unit="layout")
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
                     "start with 'elements:' (see docs/layouts-and-text.md)")
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
        return parse_property(key, value, assets)
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
    box = parse_box(problems, raw["box"], raw.at("box"), width, height)
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
                   style, box_at=raw.at("box"))


def parse_box(problems, raw, where, width, height) -> Box | None:
    """The box written as ``raw`` (at ``where``) on a card ``width`` by ``height`` points:
    'card', [x, y, width, height] or a mapping of those; None (and a problem) when wrong."""
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
