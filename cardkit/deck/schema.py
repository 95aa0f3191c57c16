"""JSON Schemas (draft 2020-12) for deck.yaml and layout files, for editors to read.

An editor with a YAML extension uses them to complete keys, show each key's description on
hover and mark mistakes as the designer types. They are built from the loaders' own tables
(``deck.DECK_KEYS``, ``properties.KINDS``...), so a key the loader learns appears here too.

A schema sees one file, so it checks only what one file tells: unknown keys, kinds, field
types, fixed choices, names, lengths and colours. Whatever depends on other files (the
fields a deck declares, layouts and fonts that exist, counts that add up) is left to
``cardkit validate``. A file the loader accepts passes, short of oddities such as a group
default that every card of the group overrides.
"""

from __future__ import annotations

from itertools import combinations

from ..common.units import POINTS_PER_UNIT

DRAFT = "https://json-schema.org/draft/2020-12/schema"

DECK_KEY_HELP = {
    "name": "The deck's short name, used in file names: lower-case letters, digits, '-' "
            "and '_', e.g. 'my-game'.",
    "title": "The deck's full title, printed in the PDF and its page footers (default: the "
             "name).",
    "author": "Who made the game or the cards.",
    "version": "The deck's version; quote it to keep a trailing zero: \"1.0\".",
    "description": "A note about the deck for yourself; cardkit does not print it.",
    "size": "The card size: a preset, or the trim size as {width: 63mm, height: 88mm}.",
    "front": "The front layout (a file in layouts/, without .yaml) for cards that give no "
             "'layout'. May read card fields: \"front-{kind}\".",
    "back": "The back design for cards that give no 'back'; not needed with one design.",
    "backs": "The back designs by name. Each needs a 'layout'; its other keys are values "
             "the layout reads as {back.KEY}, e.g. colour: \"#1f5fa8\".",
    "fields": "The card fields layouts may read, as name: type or name: {type, default}. "
              "A field without a default must be on every card.",
    "card_name": "How exported files and Tabletop Simulator name each card, e.g. "
                 "\"{rank} of {suit}\".",
    "composition": "The counts the deck promises, checked on every load: 'total', and for "
                   "'back' or any field a map of value: number of cards.",
    "variants": "Named options that print part of the deck: variant -> option -> field -> "
                "the values kept, e.g. players: {3: {value: [1, 2, 3]}}.",
    "extends": "Start from another deck (a bundled deck's name or a path): its keys are "
               "the defaults, its fields and backs add up, its cards come first.",
    "drop": "Cards of the extended deck to leave out, each matched by its fields, e.g. "
            "[{rank: Joker}].",
    "languages": "The languages the deck prints in, the one its fields are written in "
                 "first: [en, de]. A field's translation sits beside it: 'text_de' next "
                 "to 'text' (a key, or a spreadsheet column).",
    "missing_translation": "What a card without a translation does: 'error' (the "
                           "default) or 'original' (printed in the first language, with a "
                           "warning).",
    "hyphenate": "Whether words too long for a line are hyphenated by the dictionary of "
                 "the language a card is printed in (default true); a text element's "
                 "'hyphenate' decides for itself.",
    "styles": "Named styles for words inside any text, used as {keyword: Strike}: each "
              "sets any of colour, font, size (a percentage of the text's, 50% to 100%) "
              "and case (upper or lower).",
    "strings": "Layouts' own words in each language, read as {strings.NAME}: "
               "cost: {en: Cost, de: Kosten}.",
    "contest": "The design contest the deck is entered in, checked by validate, build and "
               "pack: a profile (bgg-9-card, bgg-18-card, bgg-54-card) or the contest's "
               "own rules: {cards: 18, size: poker, per_sheet: 9, papers: [a4, letter], "
               "rules_pages: 2, components: 10}.",
    "components": "What the game needs besides its cards, by name: {coin: 10, pencil: 1}.",
    "license": "The licence the game is shared under: its name (CC-BY-4.0) or a text file "
               "beside the deck that holds it (LICENSE.txt); cardkit pack puts it in the "
               "entry.",
    "box": "The deck's tuck box (cardkit box): 'stock' (standard, premium, linen or a "
           "thickness such as 0.3mm), 'logo' (an image file) and 'faces', a layout for "
           "each of front, back, side, top and bottom.",
    "tokens": "Tokens and tiles (cardkit tokens): a list of entries, each with a 'shape' "
              "(round, square or hex), a 'size' (diameter, side, or a hex's width across "
              "its flats), a 'count', a 'front' layout, a 'back' layout if it is "
              "double-sided, and fields its layouts read.",
    "boards": "Boards and mats (cardkit board): a list of entries, each with a 'name', a "
              "'width', a 'height' and a 'layout', and values its layout reads.",
    "cards": "The cards: a list of cards and groups, or one group such as {from: cards.csv}.",
}

ENTRY_KEY_HELP = {
    "count": "How many copies of the card to print (default 1).",
    "back": "The back design, a name from 'backs'. May read the card's fields: \"{kind}\".",
    "layout": "The front layout, instead of the deck's 'front'. May read the card's "
              "fields: \"shapes-{number}\".",
    "cards": "Makes this entry a group: its cards and groups, which take this entry's "
             "other keys as defaults.",
    "product": "Makes this entry a group with one card for every combination of these "
               "lists (field: [values]), the first list varying slowest.",
    "from": "Makes this entry a group whose cards are the rows of a spreadsheet (CSV, TSV, "
            "XLSX or ODS), relative to the deck file.",
    "sheet": "With 'from': the workbook's sheet to read (default: the first).",
}

LAYOUT_KEY_HELP = {
    "extends": "Start from another layout: elements named as there change only the "
               "properties given here; new names add elements.",
    "description": "A note about the layout for yourself.",
    "safe": "How far inside the trim the safe area lies, drawn by --guides (default 3mm).",
    "styles": "Named sets of element properties; an element takes one with 'style:'.",
    "elements": "What to draw, in order, each with a name, a kind and a box.",
}

PROPERTY_HELP = {
    "name": "The element's name, unique in the layout: a layout that extends this one "
            "changes the element by naming it.",
    "kind": "What the element draws.",
    "box": "Where the element lies: [x, y, width, height] from the card's top-left corner "
           "(lengths such as 4mm, or % of the card), or 'card' for the whole card.",
    "bleed": "Grow into the bleed where the box touches the trim, as backgrounds should.",
    "rotate": "Turn the content clockwise inside its box, which stays where it is.",
    "points": "A polygon's corners, at least three: [[x, y], ...] from the box's top-left "
              "corner, as lengths or % of the box.",
    "style": "A style from 'styles:' whose properties the element takes; may read a "
             "field: \"{back}\".",
    "show": "Whether to draw the element (default true); \"\", 0, false, no and none hide "
            "it. Usually read from a field: \"{rare}\".",
    "opacity": "From 0 (invisible) to 1 (solid), or a percentage such as 70%: fades every "
               "colour the element paints.",
    "fill": "The colour inside the shape, or the icon's colour: '#rrggbb', '#rrggbbaa' "
            "(translucent), a colour name or none.",
    "stroke": "The outline's colour, or none for no outline.",
    "stroke_width": "The outline's width, e.g. 0.5pt.",
    "radius": "How much to round the rectangle's corners, e.g. 2mm.",
    "text": "The words to print. **bold** and *italic* work, {field} reads a card field, "
            "{icon} draws an icon in the line, {style: words} sets words in one of the "
            "deck's 'styles', {{ and }} are braces.",
    "font": "The font: a bundled one, or a file in the deck's fonts/ folder by its name.",
    "size": "The font size, e.g. 10pt.",
    "min_size": "Shrink the text down to this size when it does not fit, e.g. 7pt.",
    "colour": "The text's colour.",
    "align": "Where the lines sit across the box (default center); start and end follow "
             "the text's direction (start is right in Hebrew and Arabic).",
    "valign": "Where the text sits from top to bottom of the box (default middle).",
    "leading": "Line spacing as a multiple of the font size (default 1.2).",
    "icon_colours": "Colours for the icons in the text, by icon name, instead of the "
                    "text's colour: {heart: \"#c8102e\", diamond: \"#c8102e\"}.",
    "size_group": "A name that texts on several cards share (e.g. rules): they are all set "
                  "at one size, the largest at which every one of them fits.",
    "overflow": "What a text does that does not fit its box: shrink (down to min_size), "
                "hyphenate (every line's last word, then shrink), break-anywhere (a word "
                "too long breaks between any letters), ellipsis (cut, ending in '…') or "
                "fail (the build stops).",
    "hyphenate": "Hyphenate a word too long for a line by the dictionary of the card's "
                 "language (default true; the deck's 'hyphenate' turns it off for all).",
    "icon": "The icon to draw: a built-in one, or an SVG file in the deck's icons/ folder "
            "by its name.",
    "shading": "How a built-in icon is filled: solid, striped (parallel lines) or clear "
               "(outline only).",
    "image": "The picture: a PNG, JPG or SVG file relative to the deck file; may read "
             "fields: \"art/{art}.svg\".",
    "fit": "How the picture fills its box: contain (all of it shows), cover (fills the "
           "box, cropped) or stretch.",
    "anchor": "Where a cropped or smaller picture sits: center, top, bottom, left, right, "
              "'top left'..., or percentages from the left and top such as '50% 20%'.",
}

# The fixed words of properties whose parsers do not keep them in a table of their own;
# tests/test_schema.py checks them against properties.PARSERS.
CHOICES = {
    "align": ("left", "center", "right", "start", "end"),
    "valign": ("top", "middle", "bottom"),
    "fit": ("contain", "cover", "stretch"),
}

# PyYAML (YAML 1.1, what cardkit reads with) takes these unquoted words for true and false;
# editors read YAML 1.2, where they are text. Both must pass where a flag is expected.
YAML11_BOOLEANS = [f(word) for word in ("yes", "no", "on", "off", "true", "false")
                   for f in (str.lower, str.title, str.upper)]

NUMBER = r"(\d+(\.\d+)?|\.\d+)"
# The characters Python's \w takes: JavaScript's \w (what editors run) lacks the letters
# beyond ASCII, so patterns name them instead.
WORD_CHARS = r"0-9A-Za-z_\u0080-\uffff"
FIELD_NAME = r"^[A-Za-z_]\w*$"  # the loader's check of a field name


# -- building blocks -----------------------------------------------------------------------

def _ref(name: str) -> dict:
    """A reference to the schema ``name`` in the document's ``$defs``."""
    return {"$ref": f"#/$defs/{name}"}


def _or_template(schema: dict) -> dict:
    """``schema``, or a template that reads card fields."""
    return {"anyOf": [schema, _ref("template")]}


def _portable(pattern: str) -> str:
    """A Python regular expression with \\w, rewritten to mean the same in JavaScript."""
    return pattern.replace(r"[\w", "[" + WORD_CHARS).replace(r"\w", f"[{WORD_CHARS}]")


def _length(units, signed: bool) -> dict:
    """Text of a number and one of ``units``: '3mm', '-1.5 pt' (with ``signed``)."""
    sign = "-?" if signed else ""
    return {"type": "string", "pattern": rf"^\s*{sign}{NUMBER}\s*({'|'.join(units)})\s*$"}


def _any_case(word: str) -> str:
    """A pattern matching ``word`` in any mix of cases (JSON Schema has no ignore-case)."""
    return "".join(f"[{c.lower()}{c.upper()}]" if c.isalpha() else c for c in word)


def _shared_defs() -> dict:
    """The value schemas both documents use, by name."""
    units = list(POINTS_PER_UNIT)
    return {
        "template": {"type": "string", "pattern": r"\{",
                     "description": "Text that reads card fields, e.g. \"{value}\"."},
        "text": {"type": ["string", "number"]},  # numbers are read as text: version: 1.0
        "scalar": {"type": ["string", "number", "boolean"]},
        "flag": {"anyOf": [{"type": "boolean"}, {"enum": YAML11_BOOLEANS}]},
        "colour": {"type": "string", "examples": ["#1f5fa8", "#14141499", "white", "none"],
                   "pattern": r"^\s*(#([0-9a-fA-F]{3,4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})"
                              r"|[A-Za-z]+)\s*$"},
        "length": _length(units, signed=True),
        "positiveLength": _length(units, signed=False),
        "boxLength": _length(units + ["%"], signed=True),
        "boxExtent": _length(units + ["%"], signed=False),
    }


def _described(keys, schemas: dict, help_texts: dict) -> dict:
    """The schema of each of ``keys`` (a loader's table) with its description."""
    return {key: {"description": help_texts[key], **schemas[key]} for key in dict.fromkeys(keys)}


def _document(title: str, description: str, body: dict, defs: dict) -> dict:
    """A whole schema document around ``body``."""
    return {"$schema": DRAFT, "title": title, "description": description, **body,
            "$defs": {**_shared_defs(), **defs}}


# -- deck.yaml -----------------------------------------------------------------------------

def deck_schema() -> dict:
    """The JSON Schema of a deck file (deck.yaml)."""
    # the loaders import reportlab: only when a schema is asked for, not on import
    from .loader import DECK_KEYS, NAME
    from .layout import LAYOUT_NAME
    from .languages import CODE as LANGUAGE
    from .languages import MISSING
    from .contest import PROFILES
    from .box import DEFAULT_FACES, STOCKS_MM
    from .model import SIZE_PRESETS_MM
    from .tokens import SHAPES

    layout_name = {"type": "string", "pattern": _portable(LAYOUT_NAME.pattern)}
    presets = ", ".join(f"{name} {w:g} x {h:g} mm" for name, (w, h) in SIZE_PRESETS_MM.items())
    size = {"anyOf": [
        {"enum": list(SIZE_PRESETS_MM)},
        {"type": "object", "required": ["width", "height"], "additionalProperties": False,
         "properties": {"width": _ref("positiveLength"), "height": _ref("positiveLength")}}]}
    values = {
        "name": {"anyOf": [{"type": "string", "pattern": NAME.pattern},
                           {"type": "integer", "minimum": 0}]},
        "title": _ref("text"), "author": _ref("text"), "version": _ref("text"),
        "description": {},  # never read: anything goes
        "size": {"description": f"{DECK_KEY_HELP['size']} Presets: {presets}.", **size},
        "front": {"anyOf": [layout_name, _ref("template")]},
        "back": {"type": "string"},
        "backs": {"type": "object", "additionalProperties": {
            "type": "object", "required": ["layout"], "properties": {"layout": layout_name},
            "additionalProperties": _ref("scalar")}},
        "fields": _fields_schema(),
        "card_name": _ref("text"),
        "composition": {"type": "object", "properties": {"total": {
                            "type": "integer", "minimum": 1,
                            "description": "How many cards the deck prints, copies included."}},
                        "additionalProperties": {"type": "object",
                                                 "additionalProperties": {"type": "integer"}}},
        "variants": {"type": "object", "additionalProperties": {
            "type": "object", "additionalProperties": {
                "type": "object", "additionalProperties": {"type": "array"}}}},
        "extends": {"type": "string", "minLength": 1},
        "drop": {"type": "array", "items": {"type": "object"}},
        "languages": {"type": "array", "uniqueItems": True,
                      "items": {"type": "string", "pattern": _portable(LANGUAGE.pattern)}},
        "missing_translation": {"enum": list(MISSING)},
        "hyphenate": _ref("flag"),
        "styles": {"type": "object", "additionalProperties": {
            "type": "object", "additionalProperties": False, "properties": {
                "colour": _ref("colour"), "font": {"type": "string"},
                "size": {"type": "string", "pattern": r"^\s*\d+(\.\d+)?\s*%\s*$"},
                "case": {"enum": ["upper", "lower"]}}}},
        "strings": {"type": "object", "additionalProperties": {"anyOf": [
            _ref("text"), {"type": "object", "additionalProperties": _ref("text")}]}},
        "contest": {"anyOf": [{"enum": list(PROFILES)}, _contest_schema(size)]},
        "components": {"type": "object",
                       "additionalProperties": {"type": "integer", "minimum": 1}},
        "license": _ref("text"),
        "box": {"type": "object", "additionalProperties": False, "properties": {
            "stock": {"anyOf": [{"enum": list(STOCKS_MM)}, _ref("positiveLength"),
                                {"type": "number", "exclusiveMinimum": 0}]},
            "logo": {"type": "string", "minLength": 1},
            "faces": {"type": "object", "additionalProperties": False, "properties": {
                face: layout_name for face in DEFAULT_FACES}}}},
        "tokens": {"type": "array", "items": {
            "type": "object", "required": ["shape", "size", "front"],
            "properties": {"shape": {"enum": list(SHAPES)},
                           "size": _ref("positiveLength"),
                           "count": {"type": "integer", "minimum": 1},
                           "front": layout_name, "back": layout_name},
            "additionalProperties": _ref("scalar")}},
        "boards": {"type": "array", "items": {
            "type": "object", "required": ["name", "width", "height", "layout"],
            "properties": {"name": {"type": "string", "pattern": NAME.pattern},
                           "width": _ref("positiveLength"), "height": _ref("positiveLength"),
                           "layout": layout_name},
            "additionalProperties": _ref("scalar")}},
        # if/then rather than anyOf, so that a mistake is reported inside the entry
        "cards": {"type": ["array", "object"], "items": _ref("entry"),
                  "if": {"type": "object"}, "then": _ref("entry")},
    }
    body = {
        "type": "object",
        "properties": _described(DECK_KEYS, values, DECK_KEY_HELP),
        "additionalProperties": False,
        # a deck that extends another may take these from it
        "if": {"required": ["extends"]},
        "else": {"required": ["name", "size", "backs", "cards"],
                 "properties": {"backs": {"minProperties": 1}}},
    }
    return _document("cardkit deck", "A deck of cards for cardkit: its size, fields, backs "
                     "and cards.", body, {"entry": _entry_schema(layout_name)})


def _contest_schema(size: dict) -> dict:
    """A contest written out in the deck: what it asks, each rule optional."""
    from .contest import CONTEST_KEYS, PAPER_CHOICES

    count = {"type": "integer", "minimum": 1}
    paper = {"enum": list(PAPER_CHOICES)}
    values = {"name": _ref("text"), "cards": count, "size": size, "per_sheet": count,
              "papers": {"anyOf": [paper, {"type": "array", "minItems": 1, "items": paper}]},
              "rules_pages": count, "components": {"type": "integer", "minimum": 0},
              "tokens": {"type": "boolean"}, "boards": {"type": "boolean"}}
    return {"type": "object", "additionalProperties": False,
            "properties": {key: values[key] for key in CONTEST_KEYS}}


def _field_values(field_types) -> dict:
    """The values each field type takes, as a card's value or a field's default."""
    values = {"text": {"type": ["string", "number"]}, "integer": {"type": "integer"},
              "number": {"type": "number"}, "colour": _ref("colour"), "flag": _ref("flag")}
    return {kind: values[kind] for kind in field_types}


def _fields_schema() -> dict:
    """``fields:``: name -> type, or name -> {type, default} with a default of that type."""
    from .card_reader import CARD_KEYS, FIELD_TYPES, GROUP_KEYS

    values = _field_values(FIELD_TYPES)
    type_help = "; ".join(f"{kind}: {meaning}" for kind, meaning in FIELD_TYPES.items())
    kind = {"enum": list(FIELD_TYPES), "description": type_help}
    defaults = [{"if": {"properties": {"type": {"const": name}}, "required": ["type"]},
                 "then": {"properties": {"default": {
                     "anyOf": [{"type": "null"}, values[name]]}}}}
                for name in FIELD_TYPES]
    declaration = {"type": "object", "required": ["type"], "additionalProperties": False,
                   "properties": {"type": kind, "default": {
                       "description": "The value of cards that give none; null leaves "
                                      "them empty."}},
                   "allOf": defaults}
    return {"type": "object",
            "propertyNames": {"pattern": _portable(FIELD_NAME),
                              "not": {"enum": list(CARD_KEYS + GROUP_KEYS)}},
            "additionalProperties": {"anyOf": [kind, declaration]}}


def _entry_schema(layout_name: dict) -> dict:
    """An entry of ``cards:``: a card, or a group of cards (with cards, product or from)."""
    from .card_reader import CARD_KEYS, GROUP_KEYS, MAX_COPIES, SHEET_KEYS

    values = {
        "count": {"type": "integer", "minimum": 1, "maximum": MAX_COPIES},
        "back": {"type": "string"},
        "layout": {"anyOf": [layout_name, _ref("template")]},
        "cards": {"type": "array", "items": _ref("entry")},
        "product": {"type": "object", "additionalProperties": {
            "type": "array", "minItems": 1, "items": _ref("scalar")}},
        "from": {"type": "string"},
        "sheet": {"type": "string"},  # not tied to 'from': a field may be named 'sheet'
    }
    return {
        "type": "object",
        "description": "A card (its other keys are the deck's fields) or a group of cards.",
        "properties": _described(CARD_KEYS + GROUP_KEYS + SHEET_KEYS, values, ENTRY_KEY_HELP),
        "additionalProperties": {"$ref": "#/$defs/scalar",
                                 "description": "A field the deck declares under 'fields:'."},
        # one kind of group at a time
        "not": {"anyOf": [{"required": list(pair)} for pair in combinations(GROUP_KEYS, 2)]},
    }


# -- layouts/NAME.yaml ---------------------------------------------------------------------

def layout_schema() -> dict:
    """The JSON Schema of a layout file (layouts/NAME.yaml)."""
    # the loaders import reportlab: only when a schema is asked for, not on import
    from .layout import LAYOUT_KEYS, LAYOUT_NAME, STRUCTURE
    from .properties import STYLE_KEYS

    properties = _described((*STRUCTURE, *STYLE_KEYS), _property_values(), PROPERTY_HELP)
    style = {"type": "object", "additionalProperties": False,
             "properties": {key: properties[key] for key in STYLE_KEYS}}
    values = {
        "extends": {"type": "string", "pattern": _portable(LAYOUT_NAME.pattern)},
        "description": {},  # never read: anything goes
        "safe": _ref("positiveLength"),
        "styles": {"type": "object", "additionalProperties": style},
        "elements": {"type": "array"},
    }
    body = {
        "type": "object",
        "properties": _described(LAYOUT_KEYS, values, LAYOUT_KEY_HELP),
        "additionalProperties": False,
        # an extending layout's element may name one of its parent's and change a property
        "if": {"required": ["extends"]},
        "then": {"properties": {"elements": {"items": _ref("override")}}},
        "else": {"required": ["elements"],
                 "properties": {"elements": {"items": _ref("element")}}},
    }
    return _document("cardkit layout", "How a card face looks: named elements drawn in order.",
                     body, {"element": _element_schema(properties, whole=True),
                            "override": _element_schema(properties, whole=False)})


def _property_values() -> dict:
    """The values each element property takes, by name (descriptions apart)."""
    from ..assets.fonts import FONT_FILES
    from ..assets.icons import ICONS, SHADINGS
    from .properties import CENTRE, HORIZONTAL, KINDS, OVERFLOW, VERTICAL

    place = "|".join(_any_case(word) for word in [*HORIZONTAL, *VERTICAL, *CENTRE])
    percent = rf"-?{NUMBER}%"
    anchor = rf"^\s*(({place})(\s+({place}))?|{percent}(\s+{percent})?)\s*$"
    box = [_ref("boxLength"), _ref("boxLength"), _ref("boxExtent"), _ref("boxExtent")]
    return {
        "name": _ref("text"),
        "kind": {"enum": list(KINDS)},
        "box": {"anyOf": [
            {"const": "card"},
            {"type": "array", "prefixItems": box, "items": False, "minItems": 4},
            {"type": "object", "required": ["x", "y", "width", "height"],
             "additionalProperties": False,
             "properties": dict(zip(("x", "y", "width", "height"), box))}]},
        "bleed": _ref("flag"),
        "rotate": {"enum": [0, 90, 180, 270]},
        "points": {},  # read for polygons only: see _element_schema
        "style": _ref("text"),
        "show": {},  # anything: its text decides
        "opacity": _or_template({"anyOf": [
            {"type": "number", "minimum": 0, "maximum": 1},
            {"type": "string", "pattern": r"^\s*0*(100(\.0+)?|\d{1,2}(\.\d+)?|\.\d+)\s*%\s*$"}]}),
        **{key: _or_template(_ref("colour")) for key in ("fill", "stroke", "colour")},
        **{key: _or_template(_ref("length")) for key in ("stroke_width", "radius")},
        **{key: _or_template(_ref("positiveLength")) for key in ("size", "min_size")},
        **{key: _or_template({"enum": list(choices)}) for key, choices in CHOICES.items()},
        "text": _ref("scalar"),
        "image": _ref("scalar"),
        "leading": _or_template({"type": "number", "exclusiveMinimum": 0, "maximum": 10}),
        "shading": _or_template({"enum": list(SHADINGS)}),
        "anchor": _or_template({"type": "string", "pattern": anchor}),
        "font": {"type": "string", "examples": list(FONT_FILES)},
        "icon": {"type": "string", "examples": list(ICONS)},
        "icon_colours": {"type": "object", "minProperties": 1,
                         "propertyNames": {"examples": list(ICONS)},
                         "additionalProperties": _ref("colour")},
        "size_group": _or_template({"type": ["string", "integer"], "minLength": 1}),
        "overflow": _or_template({"enum": list(OVERFLOW)}),
        "hyphenate": _or_template(_ref("flag")),
    }


def _element_schema(properties: dict, whole: bool) -> dict:
    """An element: each kind takes its own properties. A ``whole`` one has all it needs;
    otherwise it changes an element of the layout it extends, found by name."""
    from .layout import STRUCTURE
    from .properties import KINDS, REQUIRED

    corner = {"type": "array", "prefixItems": [_ref("boxLength")] * 2, "items": False,
              "minItems": 2}
    rules = []
    for kind, kind_properties in KINDS.items():
        then = {"propertyNames": {"enum": sorted({*STRUCTURE, *kind_properties, "show"})}}
        required = list(REQUIRED.get(kind, ()))
        if kind == "polygon":
            then["properties"] = {"points": {"type": "array", "minItems": 3, "items": corner}}
            required.append("points")
        if whole:
            then["required"] = required
        rules.append({"if": {"properties": {"kind": {"const": kind}}, "required": ["kind"]},
                      "then": then})
    return {"type": "object", "properties": properties, "additionalProperties": False,
            "required": ["name", "kind", "box"] if whole else ["name"], "allOf": rules}
