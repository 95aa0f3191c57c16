"""A deck's cards -> :class:`~cardkit.deck.model.Card`: the entries under ``cards:``, the
groups that give their members' values, a ``product`` group's combinations and a ``from``
group's spreadsheet rows (a file or a link), each card's values checked against the fields
the deck declares and the layouts that draw it.

:class:`CardReader` holds what the checks share while the cards are read (the layouts
loaded, the fields and backs declared wrongly, the mistakes reported already); the deck
loader (:mod:`.loader`) reads the deck file's own keys on top of it.
"""

from __future__ import annotations

import math
import os
import re
from pathlib import Path

from ..assets.catalog import Assets
from ..common.errors import (InputError, Problem, Problems, Where, braced_did_you_mean,
                             did_you_mean)
from ..sources import checks
from ..sources.bundled import LAYOUTS_DIR
from ..sources.files import REACH_FIX, why_outside
from ..sources.yamlfile import Map, Seq
from .layout import Layout, load_layout
from .model import BackDesign, Card, CardSize
from .properties import KINDS
from .template import fill, is_template

COLOUR_PROPERTIES = {"fill", "stroke", "colour"}  # the properties that take a colour
CARD_KEYS = ("count", "back", "layout")  # reserved on cards; any other key is a field
GROUP_KEYS = ("cards", "product", "from")  # an entry with one of these is a group
SHEET_KEYS = ("from", "sheet")  # a group whose cards are a spreadsheet's rows
NOT_VALUES = frozenset(GROUP_KEYS + SHEET_KEYS)  # an entry's keys that are not card values
RESERVED = frozenset(CARD_KEYS + GROUP_KEYS)  # keys that are not fields, on any entry
FIELD_TYPES = {
    "text": "any text",
    "integer": "a whole number",
    "number": "a number",
    "colour": "a colour such as '#1f5fa8'",
    "flag": "true or false",
}
MAX_COPIES = 10_000  # per card: more is surely a typo
MAX_CARDS = 100_000  # printed cards, copies included; CARDKIT_MAX_CARDS raises it
TOO_MANY_FIX = ("check the counts and product lists; for a deck this big, set "
                "CARDKIT_MAX_CARDS=N in the environment")


def max_cards() -> int:
    """The most printed cards a deck may have: MAX_CARDS, or CARDKIT_MAX_CARDS if set."""
    try:
        return max(1, int(os.environ.get("CARDKIT_MAX_CARDS", MAX_CARDS)))
    except ValueError:
        return MAX_CARDS


def count_error(count) -> tuple[str, str] | None:
    """What is wrong with a card's ``count`` and its fix (None when it is a number of
    copies from 1 to MAX_COPIES)."""
    if isinstance(count, bool) or not isinstance(count, int):
        return f"count must be a whole number, not {checks.describe(count)}", \
            "write e.g. 'count: 3'"
    if not 1 <= count <= MAX_COPIES:
        shown = count if abs(count) < 10 ** 12 else "beyond a trillion"
        return f"count is {shown} but must be between 1 and {MAX_COPIES}", \
            "remove the card instead of giving it count 0" if count < 1 else "check the number"
    return None


class CardReader:
    """Reads a deck's cards into :class:`Card`, reporting each mistake once to
    ``problems``. The deck's fields and backs are read first (the loader fills
    ``field_types``, ``translations``, ``broken_fields``, ``fields_unreadable``,
    ``broken_backs`` and ``back_fields_at``); :meth:`walk` then reads the entries."""

    def __init__(self, problems: Problems, folders: list[Path], assets: Assets,
                 stamps: dict):
        self.problems = problems
        self.dirs = [folder / "layouts" for folder in folders] + [LAYOUTS_DIR]
        self.assets = assets
        self.layouts: dict[str, Layout | None] = {}
        self.reported: set = set()  # (front, back) pairs checked; (element, field) reported
        # declared wrongly and reported already: cards using them are not told again
        self.broken_fields: set[str] = set()
        self.broken_backs: set[str] = set()
        self.fields_unreadable = False
        self.max_cards = max_cards()
        self.folders: dict = {}  # deck file -> its folder, one Path for all its cards
        self.unreadable: set[Where] = set()  # elements reading what cards lack: reported
        self.stamps = stamps  # every card holds this one dict: {deck.title} and the rest
        self.field_types: dict[str, tuple[str, object]] = {}  # name -> (type, default)
        self.written: set[str] = set()  # the keys and columns the cards are written with
        self.translations: dict = {}  # text_de...: the translations' fields
        self.blank_counts: list[Where] = []  # rows whose count cell is empty: one copy
        # what reading found to warn of: sheets read from the copy kept offline
        self.warnings: list[Problem] = []
        self.back_fields_at: dict = {}  # (back, field) -> where its value is written

    def folder_of(self, file) -> Path:
        """The folder of a deck file, where its cards' images are."""
        if file not in self.folders:
            self.folders[file] = Path(file).parent
        return self.folders[file]

    def layout(self, name, where, size: CardSize) -> Layout | None:
        """The layout ``name`` for cards of ``size``, loaded once; None when it is wrong.
        ``where`` is where the name is written, or the mapping whose 'layout' it is."""
        if isinstance(name, str) and name in self.layouts:
            return self.layouts[name]
        layout = load_layout(name, self.dirs, (size.width, size.height), self.problems,
                             written_at(where, "layout"), self.assets)
        if isinstance(name, str):
            self.layouts[name] = layout
        return layout

    def walk(self, items: Seq, inherited: dict, cards: list, size, backs) -> None:
        """Read cards and groups. A group's keys other than 'cards' are its members'
        defaults; a 'product' group makes one card for every combination of its lists;
        a 'from' group's cards are the rows of a spreadsheet."""
        for item, where in zip(items, items.item_where):
            if not checks.expect_map(self.problems, item, where, "a card"):
                continue
            own = {k: (v, item) for k, v in item.items() if k not in NOT_VALUES}
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
                    self.warnings.append(Problem(item.at("from"), warning))
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
        if self.fields_unreadable:
            return
        sheet_keys = SHEET_KEYS if "from" in item else ()
        for key in item:
            if key not in RESERVED and key not in self.field_types and \
                    key not in self.broken_fields and key not in sheet_keys:
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
        """One card from its ``values`` (key -> (value, where written, or the mapping
        giving it: see :func:`written_at`)); None, with the problems added, when it is
        wrong."""
        problems = self.problems
        before = len(problems.items)
        count, count_at = values.get("count", (1, where))
        wrong = count_error(count)
        if wrong:
            problems.add(written_at(count_at, "count"), *wrong)
        back_name, back_at = self.named("back", values, where)
        back = None
        if back_name is None:
            problems.add(where, "this card has no back", "add 'back:' naming one of: "
                         + ", ".join(backs) if backs else "add 'backs:' to the deck")
        elif not isinstance(back_name, str) or back_name not in backs:
            # with no backs at all, or a broken one, the backs entry itself was reported
            if backs and not (isinstance(back_name, str) and back_name in self.broken_backs):
                problems.add(written_at(back_at, "back"),
                             f"no back design named {back_name!r}", did_you_mean(back_name, backs))
        else:
            back = backs[back_name]
        layout_name, layout_at = self.named("layout", values, where)
        front = None
        if layout_name is None:
            problems.add(where, "this card has no front layout",
                         "add 'front:' to the deck or 'layout:' to the card")
        else:
            loading = len(problems.items)
            front = self.layout(layout_name, layout_at, size)
            before += len(problems.items) - loading  # the layout's own, not this card's
        fields = {}
        for name, (kind, default) in self.field_types.items():
            if name in values:
                value, value_at = values[name]
                error = type_error(kind, value)
                if error:
                    problems.add(written_at(value_at, name), f"'{name}' {error}",
                                 f"write {FIELD_TYPES[kind]}")
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
        """A card's back or layout name, which may read its fields: 'shapes-{number}',
        and where it is written (as :func:`written_at` reads it)."""
        name, at = values.get(key, (None, where))
        if is_template(name):
            fields = {k: v for k, (v, _) in values.items()}
            try:
                name = fill(name, fields)
            except KeyError as missing:
                self.problems.add(written_at(at, key), f"{key} '{name}' reads {missing}, "
                                  "which this card does not have", f"give the card {missing}")
                return None, at
        return name, at

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


def written_at(at, key: str) -> Where:
    """Where a card's value of ``key`` is written: ``at`` is that place, or the mapping
    that gives the value (its place is looked up only for a message: a big deck has tens
    of thousands of values, and a message about few of them)."""
    return at.at(key) if isinstance(at, Map) else at


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


