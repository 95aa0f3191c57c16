"""Deck YAML -> validated :class:`~cardkit.deck.model.Deck`.

Loading is strict: an unknown key, a wrong type, a missing layout, a field no card fills,
a composition the cards do not add up to. Every problem is reported with its file, line
and column and a fix, all in one :class:`~cardkit.common.errors.InputError`.

The deck file's own keys are read here, with the decks it extends merged in; its cards
are read by :mod:`.card_reader` and the checks of whole decks (variants, drop,
composition) are in :mod:`.composition`.
"""

from __future__ import annotations

import datetime
import re
from pathlib import Path

from ..assets.catalog import load_assets
from ..common import build_time
from ..common.errors import InputError, Problem, Problems, Where, did_you_mean, folded
from ..common.units import MM, to_mm
from ..sources import checks
from ..sources.bundled import bundled_decks, find_deck
from ..sources.files import REACH_FIX, why_outside
from ..sources.yamlfile import Map, Seq, joined, load_yaml, merged
from .card_reader import (CARD_KEYS, FIELD_TYPES, GROUP_KEYS, TOO_MANY_FIX, CardReader,
                          type_error)
from .composition import check_composition, choose_variant, dropped, read_variants
from .contest import read_components, read_contest
from .languages import read_languages, refuse_unprintable_title
from .model import SIZE_PRESETS_MM, BackDesign, CardSize, Deck
from .template import fields_in
from .textstyles import with_text_styles

DECK_KEYS = ("name", "title", "author", "version", "description", "size", "front", "back",
             "backs", "fields", "card_name", "composition", "variants", "extends", "drop",
             "languages", "missing_translation", "hyphenate", "styles", "strings", "contest",
             "components", "license", "box", "tokens", "boards", "cards")
NAME = re.compile(r"^[a-z0-9][a-z0-9_-]{0,63}$")  # it names files: short and plain
NAME_HELP = "use up to 64 lower-case letters, digits, '-' and '_', starting with a letter " \
    "or digit, e.g. 'my-deck'"
MAX_EXTENDS = 20  # decks extending decks: a base, an expansion, a variant of it...
MIN_CARD, MAX_CARD = 10 * MM, 420 * MM  # a stamp to A3's long side
BLANK_COUNT = "the 'count' cell is empty, so this card prints once"
BLANK_COUNT_FIX = "write how many copies it prints (1 for one)"


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
        raise InputError(folded(problems.items), loader.warnings, deck=deck,
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


class _DeckLoader(CardReader):
    """Reads the deck file's own keys (name, size, fields, backs...) and, through the
    :class:`CardReader` it is, its cards."""

    def __init__(self, path: Path, data: Map, folders: list[Path], problems: Problems):
        self.path, self.data = path, data
        icon_fonts: list[Problem] = []  # icons whose text prints in a font not asked for
        assets = with_text_styles(load_assets(folders, problems, icon_fonts), data, problems)
        # what layouts read as {deck.title}, {deck.version} and {deck.date}, filled in once
        # the deck's keys are read; every card holds this one dict. {card.id} is filled
        # in once the cards can be drawn (render.fingerprint.with_card_ids)
        stamps = {"deck.title": "", "deck.version": "", "deck.date": build_date(problems),
                  "card.id": ""}
        super().__init__(problems, folders, assets, stamps)
        self.warnings += icon_fonts

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
        refuse_unprintable_title(problems, data, title, self.assets)
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
                    warnings=tuple(self.warnings + folded(
                        [Problem(where, BLANK_COUNT, BLANK_COUNT_FIX)
                         for where in self.blank_counts])))
        if not whole:
            return deck
        deck = dropped(data, problems, deck)
        if deck.total() > self.max_cards:
            problems.add(data.at("cards"), f"the deck prints {deck.total():,} cards, more "
                         f"than the limit of {self.max_cards:,}", TOO_MANY_FIX)
            return None
        return deck._replace(composition=check_composition(data, problems, self.field_types,
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


def build_date(problems: Problems) -> str:
    """The day layouts read as {deck.date} (:func:`~cardkit.common.build_time.build_date`);
    a SOURCE_DATE_EPOCH that is not a time is one of the deck's problems, and today's date
    stands in for it so that the rest is checked."""
    try:
        return build_time.build_date()
    except InputError as error:
        problems.items += error.problems
        return datetime.date.today().isoformat()
