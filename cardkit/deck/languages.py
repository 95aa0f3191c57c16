"""One deck in several languages.

A deck names its languages, the one its fields are written in first::

    languages: [en, de, pl]

A translation sits beside the text it translates: a field ``text`` is ``text_de`` in
German, a key on a YAML card or a column of the spreadsheet next to ``text``, so the
translator sees both and a row holds the whole card. A field is translated once any card
has a key or a column for its translation, in any language; a card that has the field but
not its translation is missing one. That is an error, unless the deck says
``missing_translation: original`` (the original is printed, with a warning).

Layouts' fixed words ("Cost", "per round") come from the deck's ``strings``, a word's
languages side by side as well, read as ``{strings.cost}``::

    strings:
      cost: {en: Cost, de: Kosten, pl: Koszt}
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import NamedTuple

from ..assets.fonts import DEFAULT_FONT, missing_chars
from ..common.errors import InputError, Problem, Problems, Where, did_you_mean
from ..common.patterns import LatePattern
from ..sources import checks
from ..sources.yamlfile import Map

CODE = LatePattern(r"^[a-z]{2,3}(-[A-Za-z0-9]{2,8})?$")  # BCP 47's short form: de, pt-BR
CODE_HELP = "write language codes such as 'en', 'de', 'pl' or 'pt-BR'"
MISSING = ("error", "original")  # what a missing translation does
NAMED_CARDS = 3  # the cards a message that counts those lacking a translation names


class Languages(NamedTuple):  # not a dataclass: one costs 1.5 ms to make at import
    """What a deck says of its languages: ``codes``, the original first; ``strings``
    (word -> language -> text); what a missing translation does."""

    codes: tuple[str, ...] = ()
    strings: dict = {}  # (read only, as every field of a deck)
    missing: str = "error"
    where: Where | None = None  # the deck's 'languages:' entry
    hyphenate: bool = True  # the deck's 'hyphenate': words too long for a line may be
    translated: tuple[str, ...] = ()  # the fields the cards have a key or column for
    # in another language, in the order the deck declares them (see :meth:`written`)

    def translation(self, name: str, lang: str) -> str:
        """The key or column holding field ``name`` in ``lang``.

        >>> Languages(("en", "de")).translation("text", "de")
        'text_de'
        """
        return f"{name}_{lang.replace('-', '_')}"

    def slots(self, field_types: dict) -> dict:
        """The fields that hold translations: ``text_de`` for each text field and each
        language but the original, optional (type, default) as ``field_types`` gives."""
        return {self.translation(name, lang): ("text", "")
                for name, (kind, _) in field_types.items() if kind == "text"
                for lang in self.codes[1:]}

    def written(self, field_types: dict, keys) -> Languages:
        """These languages once the cards are read: the fields translated are those with
        a translation among ``keys`` (the cards' keys and the spreadsheets' columns)."""
        keys = set(keys)
        return self._replace(translated=tuple(
            name for name, (kind, _) in field_types.items() if kind == "text" and any(
                self.translation(name, lang) in keys for lang in self.codes[1:])))

    def stamps(self, lang: str) -> dict:
        """What layouts read as ``{strings.NAME}`` in ``lang`` (the original's text where
        a word has none in it; :func:`in_language` reports those), and as
        ``{deck.language}``, the language a card is printed in ('' when the deck names
        none). ``deck.hyphenation`` is the language whose dictionary hyphenates its text,
        '' with the deck's 'hyphenate: false'."""
        original = self.codes[0] if self.codes else ""
        return {"deck.language": lang or original,
                "deck.hyphenation": (lang or original) if self.hyphenate else "",
                **{f"strings.{name}": texts.get(lang) or texts.get(original, "")
                   for name, texts in self.strings.items()}}


def read_languages(data: Map, problems: Problems) -> Languages:
    """The deck's ``languages``, ``strings`` and ``missing_translation``."""
    codes: list[str] = []
    raw = data.get("languages")
    if raw is not None and checks.expect_list(problems, raw, data.at("languages"),
                                              "languages"):
        for code, where in zip(raw, raw.item_where):
            if not isinstance(code, str) or not CODE.match(code):
                problems.add(where, f"{checks.quoted(code)} is not a language code", CODE_HELP)
            elif code in codes:
                problems.add(where, f"language '{code}' is named twice", "name it once")
            else:
                codes.append(code)
    missing = checks.get_choice(problems, data, "missing_translation", MISSING, "error")
    return Languages(tuple(codes), _strings(data, problems, codes), missing or "error",
                     data.at("languages") if "languages" in data else None,
                     hyphenate=checks.get_bool(problems, data, "hyphenate", True))


def _strings(data: Map, problems: Problems, codes: list[str]) -> dict:
    """Word -> language -> text. A word may be one text for every language."""
    raw = data.get("strings")
    if raw is None or not checks.expect_map(problems, raw, data.at("strings"), "strings"):
        return {}
    table = {}
    for name, texts in raw.items():
        where = raw.at(name)
        if not isinstance(name, str) or not re.match(r"^[A-Za-z_]\w*$", name):
            problems.add(raw.key_at(name), f"{checks.quoted(name)} cannot name a string",
                         "use a word of letters, digits and '_'")
        elif isinstance(texts, (str, int, float)) and not isinstance(texts, bool):
            table[name] = {code: str(texts) for code in codes or [""]}
        elif isinstance(texts, Map):
            unknown = [code for code in texts if code not in codes]
            table[name] = {}  # known, so that layouts reading it are not told again
            if unknown:
                problems.add(texts.key_at(unknown[0]), f"string '{name}' is given in "
                             f"{checks.quoted(unknown[0])}, which is not one of the deck's "
                             "languages", did_you_mean(unknown[0], codes)
                             if codes else "add 'languages: [en, de]' to the deck")
                continue
            table[name] = {str(code): str(text) for code, text in texts.items()}
        else:
            table[name] = {}
            problems.add(where, f"string '{name}' must be a text, or its texts by "
                         "language", f"write e.g. '{name}: {{en: Cost, de: Kosten}}'")
    return table


def in_language(deck, lang: str, each_card: bool = False):
    """``deck`` as printed in ``lang``: each translated field holds its translation, the
    strings theirs, and the deck's files are named with the language ('blofa-de-...').
    A missing translation is an error, or with ``missing_translation: original`` a
    warning in the deck's ``warnings`` (the original is printed): one a card when
    ``each_card`` (validate lists them), else one for all the cards that lack one, so
    that every other command says it once. ``lang`` '' is the deck as written."""
    languages = deck.languages
    if not lang:
        return deck
    if lang not in languages.codes:
        close = did_you_mean(lang, languages.codes)
        fix = ("add 'languages: [en, de]' to the deck, the language it is written in first"
               if not languages.codes else close if close.startswith("did you mean")
               else "the deck's languages are " + ", ".join(languages.codes))
        raise InputError([Problem(languages.where or Where(deck.path),
                                  f"--lang: the deck is not in '{lang}'", fix)])
    missing = []
    cards = deck.cards
    if lang != languages.codes[0]:
        untranslated: list = []
        cards = tuple(_translated(card, languages, lang, untranslated) for card in deck.cards)
        missing += _untranslated(deck, untranslated, lang, each_card)
        if not languages.translated and not languages.strings:
            missing.append(Problem(languages.where or Where(deck.path), f"nothing in the "
                                   f"deck is translated into '{lang}'", "add translations "
                                   f"beside the fields, such as 'text_{lang}' next to 'text'"))
        missing += [Problem(languages.where or Where(deck.path), f"string '{name}' has no "
                            f"'{lang}' text", f"add '{lang}: ...' to it under 'strings:'")
                    for name, texts in languages.strings.items() if not texts.get(lang)]
    stamps = {**(deck.cards[0].stamps if deck.cards else {}), **languages.stamps(lang)}
    cards = tuple(replace(card, stamps=stamps) for card in cards)
    warnings = ()
    if missing and languages.missing == "error":
        raise InputError(missing)
    if missing:
        warnings = tuple(Problem(p.where, p.what + "; the original is printed", p.fix)
                         for p in missing)
    return deck._replace(cards=cards, lang=lang, warnings=deck.warnings + warnings,
                         variant="-".join(filter(None, [deck.variant, lang])))


def _translated(card, languages: Languages, lang: str, untranslated: list):
    """``card`` with its translated fields in ``lang``; (card, the fields it has and
    lacks a translation of) appended to ``untranslated`` when there are some."""
    fields = dict(card.fields)
    lacking = []
    for name in languages.translated:
        text = card.fields.get(languages.translation(name, lang))
        if text:
            fields[name] = text
        elif card.fields.get(name) not in (None, ""):
            lacking.append(name)
    if lacking:
        untranslated.append((card, lacking))
    return replace(card, fields=fields)


def _untranslated(deck, untranslated: list, lang: str, each_card: bool) -> list[Problem]:
    """What the cards that lack a translation say: one problem a card (``each_card``, or
    when one card does), else one for them all, naming the first few."""
    languages = deck.languages
    allow = ("" if languages.missing == "original" else
             ", or let the original print with 'missing_translation: original'")

    def keys(names) -> list[str]:
        return [f"'{languages.translation(name, lang)}'" for name in names]

    if each_card or len(untranslated) == 1:
        return [Problem(card.where, f"{card.label()} has no {' or '.join(keys(names))}, "
                        f"the '{lang}' text{'s' * (len(names) > 1)} of {_listed(names)}",
                        f"write {'them' if len(names) > 1 else 'it'} in "
                        f"{_listed(keys(names), quoted=False)} beside {_listed(names)}"
                        + allow) for card, names in untranslated]
    if not untranslated:
        return []
    names = [name for name in languages.translated
             if any(name in lacking for _, lacking in untranslated)]
    shown = [deck.name_of(card) for card, _ in untranslated[:NAMED_CARDS]]
    more = len(untranslated) - len(shown)
    return [Problem(untranslated[0][0].where, f"{len(untranslated)} cards have no '{lang}' "
                    f"text of {_listed(names, 'or')}: "
                    + _listed(shown + [f"{more} more"] * (more > 0), quoted=False),
                    f"write their {_listed(keys(names), quoted=False)} (validate lists "
                    "each card)" + allow)]


def _listed(names, joined: str = "and", quoted: bool = True) -> str:
    """Names in a sentence.

    >>> _listed(["name", "text", "kind"])
    "'name', 'text' and 'kind'"
    """
    names = [f"'{name}'" if quoted else name for name in names]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + f" {joined} " + names[-1]


def refuse_unprintable_title(problems: Problems, data: Map, title: str | None,
                             assets) -> None:
    """A title with letters that neither Lato (the sheets' own words' font) nor a font the
    deck brings has is refused: every sheet's footer, the rulebook and the box print it,
    in Lato, its other letters in the first of the deck's fonts that has them."""
    lacking = missing_chars(DEFAULT_FONT, title or "")
    for face in assets.own_fonts:
        lacking = missing_chars(face, lacking)
    if lacking:
        problems.add(data.at("title"), f"the deck's title has letters ('{lacking}') that "
                     "neither Lato nor any font in the deck's fonts/ folder has (the sheets' "
                     "footers would show them blank)",
                     "add a font with them (a TTF file) to the deck's fonts/ folder")
