"""Deck YAML -> validated :class:`~cardkit.deck.model.Deck`.

Loading is strict: an unknown key, a wrong type, a missing layout, a field no card fills,
a composition the cards do not add up to. Every problem is reported with its file, line
and column and a fix, all in one :class:`~cardkit.common.errors.InputError`.

Why one module: one loader walks a deck file, and its checks share what it has read so far
(the folders, the layouts loaded, the fields declared, the mistakes reported already), so
they are methods of one class; the checks of whole decks (variants, drop, composition) are
in :mod:`.composition`.
"""

from __future__ import annotations

import datetime
import math
import os
import re
from dataclasses import replace
from pathlib import Path

from ..assets.catalog import load_assets
from ..common import build_time
from ..common.errors import (InputError, Problem, Problems, Where, braced_did_you_mean,
                             did_you_mean, folded)
from ..common.units import MM, to_mm
from ..sources import checks
from ..sources.bundled import LAYOUTS_DIR, bundled_decks, find_deck
from ..sources.files import REACH_FIX, why_outside
from ..sources.yamlfile import Map, Seq, joined, load_yaml, merged
from .composition import check_composition, choose_variant, dropped, read_variants
from .contest import read_components, read_contest
from .languages import read_languages, right_to_left
from .layout import Layout, load_layout
from .model import SIZE_PRESETS_MM, BackDesign, Card, CardSize, Deck
from .properties import KINDS
from .template import fields_in, fill, is_template
from .textstyles import with_text_styles

DECK_KEYS = ("name", "title", "author", "version", "description", "size", "front", "back",
             "backs", "fields", "card_name", "composition", "variants", "extends", "drop",
             "languages", "missing_translation", "hyphenate", "styles", "strings", "contest",
             "components", "license", "box", "tokens", "boards", "cards")
COLOUR_PROPERTIES = {"fill", "stroke", "colour"}  # the properties that take a colour
CARD_KEYS = ("count", "back", "layout")  # reserved on cards; any other key is a field
GROUP_KEYS = ("cards", "product", "from")  # an entry with one of these is a group
SHEET_KEYS = ("from", "sheet")  # a group whose cards are a spreadsheet's rows
FIELD_TYPES = {
    "text": "any text",
    "integer": "a whole number",
    "number": "a number",
    "colour": "a colour such as '#1f5fa8'",
    "flag": "true or false",
}
NAME = re.compile(r"^[a-z0-9][a-z0-9_-]{0,63}$")  # it names files: short and plain
NAME_HELP = "use up to 64 lower-case letters, digits, '-' and '_', starting with a letter " \
    "or digit, e.g. 'my-deck'"
MAX_EXTENDS = 20  # decks extending decks: a base, an expansion, a variant of it...
MAX_COPIES = 10_000  # per card: more is surely a typo
MIN_CARD, MAX_CARD = 10 * MM, 420 * MM  # a stamp to A3's long side
MAX_CARDS = 100_000  # printed cards, copies included; CARDKIT_MAX_CARDS raises it
BLANK_COUNT = "the 'count' cell is empty, so this card prints once"
BLANK_COUNT_FIX = "write how many copies it prints (1 for one)"
TOO_MANY_FIX = ("check the counts and product lists; for a deck this big, set "
                "CARDKIT_MAX_CARDS=N in the environment")


def max_cards() -> int:
    """The most printed cards a deck may have: MAX_CARDS, or CARDKIT_MAX_CARDS if set."""
    try:
        return max(1, int(os.environ.get("CARDKIT_MAX_CARDS", MAX_CARDS)))
    except ValueError:
        return MAX_CARDS


def load_deck(path: Path, variant: dict | None = None, only_declared: bool = False) -> Deck:
    """Read and validate the deck at ``path``; raise InputError listing every problem.

    ``variant`` picks an option of the deck's variants, e.g. ``{"players": "3"}``; with
    ``only_declared``, variants the deck does not have are ignored instead of refused.
    """
    path = Path(path)
    problems = Problems()
    outside = why_outside(path, path.parent)  # a deck file linked from elsewhere
    if outside:
        raise InputError([Problem(Where(path), f"the deck file is {outside}",
                                  "build the deck from its own folder")])
    data, folders = _read(path, problems, ())
    problems.check()
    checks.check_keys(problems, data, DECK_KEYS, ("name", "size", "backs", "cards"), "the deck")
    loader = _DeckLoader(path, data, folders, problems)
    deck = loader.load()
    if problems:  # with the cards that loaded, for the checks that need the cards
        raise InputError(folded(problems.items), loader.link_warnings, deck=deck,
                         checked=loader.unreadable)  # which copy of a sheet said so
    if only_declared and variant:
        variant = {k: v for k, v in variant.items() if k in deck.variants}
    if variant:
        deck = choose_variant(deck, variant)
    return deck


def _read(path: Path, problems: Problems, chain: tuple) -> tuple[Map | None, list[Path]]:
    """The deck's YAML with the decks it extends merged in, and the folders of the deck
    and of the decks it extends, its own first (where layouts, fonts and icons are found).

    A deck that ``extends`` another starts from it: its own keys win, its ``fields`` and
    ``backs`` add to the parent's, its ``cards`` come after the parent's, and the parent's
    ``composition`` and ``drop`` do not carry over (the child promises its own).
    """
    data = load_yaml(path)
    if not isinstance(data, Map):
        problems.add(getattr(data, "where", Where(path, 1, 1)),
                     "a deck must be a mapping of 'key: value' lines, not "
                     + checks.describe(data, show=False),
                     "start with 'name: my-deck' (see docs/deck-format.md)")
        return None, []
    folders = [path.parent]
    if "extends" not in data:
        return data, folders
    name = data["extends"]
    parent_path = None
    if isinstance(name, str) and name:
        local = path.parent / name  # a path is relative to the deck that names it
        try:  # else a bundled deck's name, never a folder where cardkit happens to run
            parent_path = (find_deck(str(local)) if local.exists() else
                           bundled_decks().get(name))
        except (InputError, ValueError):  # ValueError: a NUL in the name
            pass
        except OSError as error:  # a name too long for the file system
            problems.add(data.at("extends"), f"cannot look for the deck to extend: "
                         f"{error.strerror}", "use a shorter name or path")
            return None, []
    if parent_path is None:
        problems.add(data.at("extends"), f"no deck {checks.quoted(name)} to extend",
                     did_you_mean(name, bundled_decks()) + " (a bundled deck's name or a path)")
        return None, []
    outside = why_outside(parent_path, path.parent)
    if outside:
        problems.add(data.at("extends"), f"deck {parent_path} is {outside}", REACH_FIX)
        return None, []
    if parent_path.resolve() in chain:
        problems.add(data.at("extends"), f"deck '{name}' extends itself", "remove 'extends'")
        return None, []
    if len(chain) >= MAX_EXTENDS:
        problems.add(data.at("extends"), f"decks extend each other more than {MAX_EXTENDS} "
                     "deep here", "extend a deck that holds what the chain adds up to")
        return None, []
    parent, parent_folders = _read(parent_path, problems, chain + (path.resolve(),))
    if parent is None:
        return None, []
    result = merged(parent, data)
    for key in ("composition", "drop"):
        if key not in data:
            result.pop(key, None)
    for key in ("fields", "backs"):
        if isinstance(parent.get(key), Map) and isinstance(data.get(key), Map):
            result[key] = merged(parent[key], data[key])
    if isinstance(parent.get("cards"), Seq) and isinstance(data.get("cards"), Seq):
        result["cards"] = joined(parent["cards"], data["cards"])
    result.pop("extends")
    return result, folders + [f for f in parent_folders if f not in folders]


class _DeckLoader:
    def __init__(self, path: Path, data: Map, folders: list[Path], problems: Problems):
        self.path, self.data, self.problems = path, data, problems
        self.dirs = [folder / "layouts" for folder in folders] + [LAYOUTS_DIR]
        self.assets = with_text_styles(load_assets(folders, problems), data, problems)
        self.layouts: dict[str, Layout | None] = {}
        self.reported: set = set()  # (front, back) pairs checked; (element, field) reported
        # declared wrongly and reported already: cards using them are not told again
        self.broken_fields: set[str] = set()
        self.broken_backs: set[str] = set()
        self.fields_unreadable = False
        self.max_cards = max_cards()
        self.folders: dict = {}  # deck file -> its folder, one Path for all its cards
        self.unreadable: set[Where] = set()  # elements reading what cards lack: reported
        # what layouts read as {deck.title}, {deck.version} and {deck.date}, filled in once
        # the deck's keys are read; every card holds this one dict. {card.id} is filled
        # in once the cards can be drawn (render.fingerprint.with_card_ids)
        self.stamps = {"deck.title": "", "deck.version": "", "deck.date": build_date(problems),
                       "card.id": ""}
        self.written: set[str] = set()  # the keys and columns the cards are written with
        self.translations: dict = {}  # text_de...: the translations' fields
        self.blank_counts: list[Where] = []  # rows whose count cell is empty: one copy
        self.link_warnings: list[Problem] = []  # sheets read from the copy kept offline
        self.back_fields_at: dict = {}  # (back, field) -> where its value is written

    def folder_of(self, file) -> Path:
        """The folder of a deck file, where its cards' images are."""
        if file not in self.folders:
            self.folders[file] = Path(file).parent
        return self.folders[file]

    def load(self) -> Deck | None:
        data, problems = self.data, self.problems
        name = checks.get_text(problems, data, "name")
        if name is not None and not NAME.match(name):
            problems.add(data.at("name"), f"deck name '{name}' is not a simple name",
                         NAME_HELP)
        size = self.size()
        self.languages = read_languages(data, problems)
        contest = read_contest(data, problems, self.card_size)
        components = read_components(data, problems)
        self.field_types = self.fields()
        # a translation's key or column is an optional field, kept only on cards giving it
        self.translations = self.languages.slots(self.field_types)
        self.field_types.update(self.translations)
        codes = self.languages.codes
        self.stamps.update(self.languages.stamps(codes[0] if codes else ""))
        backs = self.backs(size or CardSize.preset("poker"))
        default_back = self.default_back(backs)
        default_front = data.get("front")
        cards = []
        entries = data.get("cards")
        if isinstance(entries, Map):  # one group, e.g. 'cards: {from: cards.csv}'
            entries = Seq([entries])
            entries.where, entries.item_where = data.at("cards"), [data.at("cards")]
        if "cards" in data and checks.expect_list(problems, entries, data.at("cards"), "cards"):
            size = size or CardSize.preset("poker")  # size is wrong: still check the cards
            inherited = {}
            if default_front is not None:
                inherited["layout"] = (default_front, data.at("front"))
            if default_back is not None:
                inherited["back"] = default_back
            self.walk(entries, inherited, cards, size, backs)
            if not cards and not problems:
                problems.add(data.at("cards"), "the deck has no cards", "add cards under 'cards:'")
        if name is None or not cards:
            return None
        # With problems so far, the deck is only for checking the cards that loaded: what
        # counts cards (variants, drop, composition, the limit) would count without the
        # broken ones and report their mistake again
        whole = not problems
        title = checks.get_text(problems, data, "title", name)
        refuse_right_to_left_title(problems, data, title)
        version = checks.get_text(problems, data, "version", "")
        if version and not checks.check_name_part(problems, version, data.at("version"),
                                                  "the version"):
            version = ""
        self.stamps.update({"deck.title": title, "deck.version": version})
        deck = Deck(name, title, checks.get_text(problems, data, "author", ""), version,
                    size, tuple(cards), self.path, backs,
                    variants=read_variants(data, problems, self.field_types, cards)
                    if whole else {},
                    card_name=self.card_name(), box=data.get("box"),
                    tokens=data.get("tokens"), boards=data.get("boards"),
                    size_at=data.at("size"), field_types={
                        name: kind for name, (kind, _) in self.field_types.items()},
                    required=frozenset(name for name, (_, default)
                                       in self.field_types.items() if default is ...),
                    languages=self.languages.written(self.field_types, self.written),
                    contest=contest, components=components,
                    license=checks.get_text(problems, data, "license", ""),
                    warnings=tuple(self.link_warnings + folded(
                        [Problem(where, BLANK_COUNT, BLANK_COUNT_FIX)
                         for where in self.blank_counts])))
        if not whole:
            return deck
        deck = dropped(data, problems, deck)
        if deck.total() > self.max_cards:
            problems.add(data.at("cards"), f"the deck prints {deck.total():,} cards, more "
                         f"than the limit of {self.max_cards:,}", TOO_MANY_FIX)
            return None
        return replace(deck, composition=check_composition(data, problems, self.field_types,
                                                           deck, self.blank_counts))

    # -- top-level entries -------------------------------------------------------------------

    def card_name(self) -> str:
        """The template that names each card in exported files: ``"{rank} of {suit}"``."""
        data, problems = self.data, self.problems
        name = checks.get_text(problems, data, "card_name", "")
        if not name:
            return ""
        known = set(self.field_types) | {"back"}
        for field_name in fields_in(name):
            if field_name not in known:
                problems.add(data.at("card_name"), f"card_name reads '{{{field_name}}}', "
                             "which is not a field", did_you_mean(field_name, known))
                return ""
        return name

    def size(self) -> CardSize | None:
        return self.card_size(self.data.get("size"), self.data.at("size"))

    def card_size(self, raw, where: Where) -> CardSize | None:
        """A card size as ``size:`` gives it, a preset's name or width and height."""
        problems = self.problems
        if isinstance(raw, str):
            if checks.one_of(raw, SIZE_PRESETS_MM):
                return CardSize.preset(raw)
            problems.add(where, f"unknown card size '{raw}'",
                         did_you_mean(raw, SIZE_PRESETS_MM) + " Or give 'width:' and 'height:'")
            return None
        if isinstance(raw, Map):
            if not checks.check_keys(problems, raw, ("width", "height"), ("width", "height"),
                                     "size"):
                return None
            width = checks.length(problems, raw["width"], raw.at("width"), "width")
            height = checks.length(problems, raw["height"], raw.at("height"), "height")
            if width is None or height is None:
                return None
            if not all(MIN_CARD <= side <= MAX_CARD for side in (width, height)):
                problems.add(raw.where, f"a card is {to_mm(width):g} x {to_mm(height):g} mm,"
                             f" but each side must be {to_mm(MIN_CARD):g} to "
                             f"{to_mm(MAX_CARD):g} mm",
                             "give the card's trim size, e.g. 'width: 63.5mm, height: 88.9mm'")
                return None
            return CardSize("custom", width, height)
        if raw is not None:
            problems.add(where, f"size must be a preset name or width and height, "
                         f"not {checks.describe(raw)}",
                         "write e.g. 'size: poker' or 'size: {width: 63mm, height: 88mm}'")
        return None

    def fields(self) -> dict[str, tuple[str, object]]:
        """Declared card fields: name -> (type, default); a default of ... means required."""
        data, problems = self.data, self.problems
        result = {}
        raw = data.get("fields", Map())
        if "fields" in data and not checks.expect_map(problems, raw, data.at("fields"), "fields"):
            self.fields_unreadable = True
            return result
        for name, spec in raw.items():
            where = raw.at(name)
            if name in CARD_KEYS + GROUP_KEYS or not isinstance(name, str) \
                    or not re.match(r"^[A-Za-z_]\w*$", name):
                problems.add(raw.key_at(name), f"'{name}' cannot be a field name",
                             "use a word of letters, digits and '_' other than "
                             + ", ".join(CARD_KEYS + GROUP_KEYS))
                continue
            default = ...
            if isinstance(spec, Map):
                if not checks.check_keys(problems, spec, ("type", "default"), ("type",),
                                         f"field '{name}'"):
                    self.broken_fields.add(name)
                    continue
                kind, where = spec["type"], spec.at("type")
                if "default" in spec:
                    default = spec["default"]
            else:
                kind = spec
            if not checks.one_of(kind, FIELD_TYPES):
                problems.add(where, f"field '{name}' has unknown type {kind!r}",
                             did_you_mean(kind, FIELD_TYPES))
                self.broken_fields.add(name)  # the cards' values of it are not checked
                continue
            if default is not ... and default is not None:
                error = type_error(kind, default)
                if error:
                    problems.add(spec.at("default"), f"default of '{name}' {error}",
                                 f"write {FIELD_TYPES[kind]}")
                    self.broken_fields.add(name)
                    continue
            result[name] = (kind, default)
        return result

    def backs(self, size: CardSize) -> dict[str, BackDesign]:
        data, problems = self.data, self.problems
        raw = data.get("backs")
        result = {}
        if raw is None or not checks.expect_map(problems, raw, data.at("backs"), "backs"):
            return result
        if not raw:
            problems.add(raw.where, "the deck has no back designs",
                         "add one, e.g. 'backs: {plain: {layout: plain-back}}'")
        for name, spec in raw.items():
            where = raw.at(name)
            self.broken_backs.add(str(name))  # until it proves good
            if not checks.expect_map(problems, spec, where, f"back '{name}'"):
                continue
            if "layout" not in spec:
                problems.add(where, f"back '{name}' has no 'layout'",
                             "add 'layout:' naming a file in layouts/")
                continue
            layout = self.layout(spec["layout"], spec.at("layout"), size)
            fields = {k: v for k, v in spec.items() if k != "layout"}
            self.back_fields_at.update({(str(name), key): spec.at(key) for key in fields})
            for key, value in fields.items():
                if isinstance(value, (Map, Seq)) or value is None:
                    problems.add(spec.at(key), f"back field '{key}' must be a single value",
                                 "write text or a number")
            if layout is not None:
                result[str(name)] = BackDesign(str(name), layout, fields)
                self.broken_backs.discard(str(name))
        return result

    def default_back(self, backs):
        data = self.data
        if "back" in data:
            return (data["back"], data.at("back"))
        declared = data.get("backs")  # a broken back is still the one the cards mean
        if isinstance(declared, Map) and len(declared) == 1:
            return (str(next(iter(declared))), data.at("backs"))
        return None

    def layout(self, name, where: Where, size: CardSize) -> Layout | None:
        if isinstance(name, str) and name in self.layouts:
            return self.layouts[name]
        layout = load_layout(name, self.dirs, (size.width, size.height), self.problems, where,
                             self.assets)
        if isinstance(name, str):
            self.layouts[name] = layout
        return layout

    # -- cards -------------------------------------------------------------------------------

    def walk(self, items: Seq, inherited: dict, cards: list, size, backs) -> None:
        """Read cards and groups. A group's keys other than 'cards' are its members'
        defaults; a 'product' group makes one card for every combination of its lists;
        a 'from' group's cards are the rows of a spreadsheet."""
        for item, where in zip(items, items.item_where):
            if not checks.expect_map(self.problems, item, where, "a card"):
                continue
            own = {k: (v, item.at(k)) for k, v in item.items()
                   if k not in GROUP_KEYS + SHEET_KEYS}
            self.check_card_keys(item)
            values = {**inherited, **own}
            folder = self.folder_of(item.where.file)  # images are relative to the deck file
            groups = [key for key in GROUP_KEYS if key in item]
            if len(groups) > 1:
                self.problems.add(item.key_at(groups[1]), f"a group has both '{groups[0]}' "
                                  f"and '{groups[1]}'", "split it into two groups")
            elif "cards" in item:
                if checks.expect_list(self.problems, item["cards"], item.at("cards"),
                                      "a group's cards"):
                    self.walk(item["cards"], values, cards, size, backs)
            elif "from" in item:
                for row_where, row in self.rows(item, values):
                    self.add_card(cards, row_where, row, size, backs, folder)
            elif "product" in item:
                for combination in self.product(item):
                    self.add_card(cards, item.where, {**values, **combination}, size, backs,
                                  folder)
            else:
                self.add_card(cards, item.where, values, size, backs, folder)

    def add_card(self, cards: list, where: Where, values: dict, size, backs, folder) -> None:
        if len(cards) == self.max_cards:
            self.problems.add(where, f"the deck has more than {self.max_cards:,} cards",
                              TOO_MANY_FIX)
        if len(cards) >= self.max_cards:
            return
        self.written |= values.keys()
        card = self.card(where, values, len(cards) + 1, size, backs, folder)
        if card is not None:
            cards.append(card)

    def rows(self, item: Map, inherited: dict):
        """A spreadsheet's rows as card values, each cell converted to its column's type:
        (where the row is, the row's values on top of ``inherited``) for each card."""
        name = item["from"]
        sheet = item.get("sheet")
        for key, value in (("from", name), ("sheet", sheet)):
            if value is not None and not isinstance(value, str):
                self.problems.add(item.at(key), f"'{key}' must be text, not "
                                  f"{checks.describe(value)}", "write e.g. 'from: cards.csv'"
                                  if key == "from" else "write the sheet's name")
                return
        table = self.table(item, name, sheet)
        if table is None:
            return
        # imported on first use: most decks have no spreadsheet
        from ..sources.spreadsheet import CellError, cell_value, is_empty
        types = {"count": "integer", "back": "text", "layout": "text",
                 **{field: kind for field, (kind, _) in self.field_types.items()}}
        columns = [column if column in types else "" for column, _ in table.columns]
        self.written |= set(columns)  # a translation's column, even with its cells empty
        for column, where in table.columns:
            # a column whose field is declared wrongly was reported with the declaration
            if column and column not in types and column not in self.broken_fields \
                    and not self.fields_unreadable:
                self.problems.add(where, f"unknown column '{column}'",
                                  self.unknown_key_fix(column))
        # a count cell left empty prints one copy, unless the group gives a count
        counted = columns.index("count") if "count" in columns and "count" not in inherited \
            else None
        for where, cells in table.rows:
            if counted is not None and is_empty(cells[counted]):
                self.blank_counts.append(where)
            values, readable = dict(inherited), True
            for index, (column, cell) in enumerate(zip(columns, cells)):
                if not column or is_empty(cell):
                    continue
                try:
                    values[column] = (cell_value(types[column], cell, table.decimal_comma),
                                      where)
                except CellError as error:
                    self.problems.add(table.places.cell(where.line, index),
                                      f"column '{column}': {error.what}", error.fix)
                    readable = False
            if readable:
                yield where, values

    def table(self, item: Map, name: str, sheet: str | None):
        """The spreadsheet a 'from' group names, a file in the deck's reach or a link
        (read from the copy kept beside the deck unless the user allowed the network);
        None, with the problem added, when it cannot be read."""
        from ..sources import links
        from ..sources.spreadsheet import read_table

        folder = self.folder_of(item.where.file)
        try:
            if links.is_link(name):
                table, warning = links.linked_table(name, sheet, folder)
                if warning:
                    self.link_warnings.append(Problem(item.at("from"), warning))
                return table
            path = folder / name
            outside = why_outside(path, folder)
            if outside:
                self.problems.add(item.at("from"), f"{name} is {outside}", REACH_FIX)
                return None
            return read_table(path, str(path), sheet)
        except links.LinkError as error:
            self.problems.add(item.at("from"), f"cannot read the sheet {name}: "
                              f"{error.what}", error.fix)
        except InputError as error:
            self.problems.items.extend(error.problems)
        return None

    def product(self, item: Map) -> list[dict]:
        """Every combination of a product group's lists, the first list varying slowest."""
        raw = item["product"]
        if not checks.expect_map(self.problems, raw, item.at("product"), "product"):
            return []
        self.check_card_keys(raw, "product")
        combinations = [{}]
        for key, options in raw.items():
            if not isinstance(options, Seq) or not options:
                self.problems.add(raw.at(key), f"product '{key}' must be a non-empty list",
                                  f"write e.g. '{key}: [a, b, c]'")
                return []
        count = math.prod(len(options) for options in raw.values())
        if count > self.max_cards:
            self.problems.add(item.at("product"), f"this product makes {count:,} cards, more "
                              f"than the limit of {self.max_cards:,}", TOO_MANY_FIX)
            return []
        for key, options in raw.items():
            combinations = [{**c, key: (option, where)} for c in combinations
                            for option, where in zip(options, options.item_where)]
        return combinations

    def check_card_keys(self, item: Map, what: str = "card") -> None:
        sheet_keys = set(SHEET_KEYS) if "from" in item else set()
        allowed = set(CARD_KEYS) | set(self.field_types) | set(GROUP_KEYS) | \
            self.broken_fields | sheet_keys
        if self.fields_unreadable:
            return
        for key in item:
            if key not in allowed:
                self.problems.add(item.key_at(key), f"unknown key '{key}' in {what}",
                                  self.unknown_key_fix(key, sheet_keys))

    def unknown_key_fix(self, key, also=()) -> str:
        """What to do about a card key (or spreadsheet column) that is not a field;
        ``also`` are other keys allowed where it is written."""
        fix = did_you_mean(key, set(CARD_KEYS) | set(self.field_types) | set(also))
        if not self.field_types or "did you mean" not in fix:
            fix = f"declare it under 'fields:' ({fix})"
        return fix

    def card(self, where: Where, values: dict, number: int, size, backs,
             folder: Path) -> Card | None:
        """One card from its ``values`` (key -> (value, where written)); None, with the
        problems added, when it is wrong."""
        problems = self.problems
        before = len(problems.items)
        count, count_where = values.get("count", (1, where))
        if isinstance(count, bool) or not isinstance(count, int):
            problems.add(count_where, f"count must be a whole number, not {checks.describe(count)}",
                         "write e.g. 'count: 3'")
        elif not 1 <= count <= MAX_COPIES:
            shown = count if abs(count) < 10 ** 12 else "beyond a trillion"
            problems.add(count_where, f"count is {shown} but must be between 1 and {MAX_COPIES}",
                         "remove the card instead of giving it count 0" if count < 1
                         else "check the number")
        back_name, back_where = self.named("back", values, where)
        back = None
        if back_name is None:
            problems.add(where, "this card has no back", "add 'back:' naming one of: "
                         + ", ".join(backs) if backs else "add 'backs:' to the deck")
        elif not isinstance(back_name, str) or back_name not in backs:
            # with no backs at all, or a broken one, the backs entry itself was reported
            if backs and not (isinstance(back_name, str) and back_name in self.broken_backs):
                problems.add(back_where, f"no back design named {back_name!r}",
                             did_you_mean(back_name, backs))
        else:
            back = backs[back_name]
        layout_name, layout_where = self.named("layout", values, where)
        front = None
        if layout_name is None:
            problems.add(where, "this card has no front layout",
                         "add 'front:' to the deck or 'layout:' to the card")
        else:
            loading = len(problems.items)
            front = self.layout(layout_name, layout_where, size)
            before += len(problems.items) - loading  # the layout's own, not this card's
        fields = {}
        for name, (kind, default) in self.field_types.items():
            if name in values:
                value, value_where = values[name]
                error = type_error(kind, value)
                if error:
                    problems.add(value_where, f"'{name}' {error}", f"write {FIELD_TYPES[kind]}")
                fields[name] = str(value) if kind == "text" and value is not None else value
            elif name in self.translations:
                continue
            elif default is ...:
                problems.add(where, f"this card has no '{name}'",
                             f"give it a '{name}' (a key, or a spreadsheet column) or give "
                             "the field a default")
            else:
                fields[name] = default
        if len(problems.items) > before or front is None or back is None:
            return None
        card = Card(number, fields, front, back, count, where, folder, self.stamps)
        self.check_layout_fields(card)
        return card

    def named(self, key: str, values: dict, where: Where):
        """A card's back or layout name, which may read its fields: 'shapes-{number}'."""
        name, where = values.get(key, (None, where))
        if is_template(name):
            fields = {k: v for k, (v, _) in values.items()}
            try:
                name = fill(name, fields)
            except KeyError as missing:
                self.problems.add(where, f"{key} '{name}' reads {missing}, which this card "
                                  "does not have", f"give the card {missing}")
                return None, where
        return name, where

    def check_layout_fields(self, card: Card) -> None:
        """Every field a card's layouts read must exist, reported once per element."""
        pair = (card.front.name, card.back.name)  # what the known fields depend on
        if pair in self.reported:
            return
        self.reported.add(pair)
        known = card.values().keys()
        icons = self.assets.icons
        for layout in (card.front, card.back.layout):
            for element in layout.elements:
                for name in sorted(element.fields(layout.styles, icons) - known
                                   - self.broken_fields):
                    key = (element.where, name)
                    if key in self.reported:
                        continue  # the same element, reached through another back
                    self.reported.add(key)
                    self.unreadable.add(element.where)
                    what = f"element '{element.name}' of layout '{layout.name}' reads " \
                           f"'{{{name}}}', which "
                    if name in element.text_names(layout.styles):
                        what += f"is neither a field of {card.label()} nor an icon"
                        fix = braced_did_you_mean(name, [*known, *icons])
                    else:
                        what += f"{card.label()} does not have"
                        fix = did_you_mean(name, known)
                    self.problems.add(element.where, what, fix)
                self.check_back_colours(card.back, layout, element)

    def check_back_colours(self, back: BackDesign, layout: Layout, element) -> None:
        """A back's value that an element reads as its colour ('fill: "{back.colour}"')
        must be a colour: said once, where the back gives it, and the elements reading it
        are not drawn to say it again for every card."""
        style = layout.styles.get(element.style, {}) if element.style and \
            not is_template(element.style) else {}
        reads = {**style, **element.fixed, **element.templates}  # as Element.resolve
        for prop in COLOUR_PROPERTIES & KINDS[element.kind].keys():
            read = re.fullmatch(r"\{back\.(\w+)\}", str(reads.get(prop, "")))
            if not read or read[1] not in back.fields:
                continue
            value = back.fields[read[1]]
            if isinstance(value, (Map, Seq)) or value is None:
                self.unreadable.add(element.where)  # not a single value: reported already
                continue
            try:
                checks.parse_colour(value)
            except ValueError as error:
                self.unreadable.add(element.where)
                if (back.name, read[1]) not in self.reported:
                    self.reported.add((back.name, read[1]))
                    self.problems.add(self.back_fields_at[back.name, read[1]],
                                      f"back '{back.name}': {error}, which layouts read as "
                                      f"{{back.{read[1]}}} for a {prop}",
                                      checks.colour_fix(value))


def build_date(problems: Problems) -> str:
    """The day layouts read as {deck.date} (:func:`~cardkit.common.build_time.build_date`);
    a SOURCE_DATE_EPOCH that is not a time is one of the deck's problems, and today's date
    stands in for it so that the rest is checked."""
    try:
        return build_time.build_date()
    except InputError as error:
        problems.items += error.problems
        return datetime.date.today().isoformat()


def type_error(kind: str, value) -> str:
    """Why ``value`` is not of field type ``kind``, or '' when it is."""
    if value is None:
        return "is empty"
    if _IS_TYPE[kind](value):
        return ""
    return f"must be {FIELD_TYPES[kind]}, not {checks.describe(value)}"


def _is_colour(value) -> bool:
    try:
        checks.parse_colour(value)
    except ValueError:
        return False
    return True


_IS_TYPE = {  # field type -> whether a value is of it (bool is an int to Python, not here)
    "text": lambda v: isinstance(v, (str, int, float)) and not isinstance(v, bool),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
    "flag": lambda v: isinstance(v, bool),
    "colour": _is_colour,
}


def refuse_right_to_left_title(problems: Problems, data: Map, title: str | None) -> None:
    """A title in a right-to-left script is refused: every sheet's footer, the rulebook and
    the box print it, and cardkit does not shape text yet (the check to replace once it
    does): its letters would print in the wrong order, unjoined, or not at all."""
    script = right_to_left(title or "")
    if script:
        problems.add(data.at("title"), f"the deck's title is in {script}, a right-to-left "
                     "script, which cardkit cannot print yet (the sheets' footers would show "
                     "it wrong or blank)", "write the title in Latin letters for now")
