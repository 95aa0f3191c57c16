"""Which cards a deck holds: the variants a player chooses from (``players: 3`` keeps the
cards for three), the cards ``drop`` leaves out of a deck it extends, and the counts the
deck promises in ``composition``, checked against its cards.
"""

from __future__ import annotations

from dataclasses import replace

from ..common.errors import Problems, Where, did_you_mean
from ..sources import checks
from ..sources.yamlfile import Map
from .model import Card, Deck


def choose_variant(deck: Deck, chosen: dict) -> Deck:
    """Keep the cards the chosen variant options allow. An option maps fields to the values
    allowed; a card whose field is empty (a reference card, say) is always kept."""
    problems = Problems()
    keep = {}
    for name, value in chosen.items():
        options = deck.variants.get(name)
        if options is None:
            problems.add(Where(deck.path), f"deck '{deck.name}' has no variant '{name}'",
                         did_you_mean(name, deck.variants) if deck.variants
                         else "leave the option out")
        elif str(value) not in options:
            problems.add(Where(deck.path), f"variant '{name}' has no option {value!r}",
                         "use one of: " + ", ".join(options))
        else:
            keep.update(options[str(value)])
    problems.check()
    cards = [card for card in deck.cards if _allowed(card, keep)]
    suffix = "-".join(f"{k}{v}" for k, v in sorted(chosen.items()))
    if not cards:  # each option keeps cards (checked on loading), but not these together
        problems.add(Where(deck.path), "these variant options together leave no cards: "
                     + ", ".join(f"{k} {v}" for k, v in sorted(chosen.items())),
                     "choose other options, or check the values in 'variants:'")
        problems.check()
    return _renumbered(deck, cards, variant=suffix)


def _allowed(card: Card, keep: dict) -> bool:
    """Whether a variant that allows ``keep`` (field -> values as text) keeps ``card``."""
    return all(card.fields.get(f) is None or str(card.fields.get(f)) in allowed
               for f, allowed in keep.items())


def _renumbered(deck: Deck, cards, **changes) -> Deck:
    cards = tuple(replace(card, number=i) for i, card in enumerate(cards, 1))
    return deck._replace(cards=cards, **changes)


def read_variants(data: Map, problems: Problems, field_types, cards) -> dict:
    """Variant name -> option (as text) -> field -> the values allowed (as text). Each
    option must keep some of ``cards``."""
    result = {}
    if "variants" not in data or not checks.expect_map(problems, data["variants"],
                                                       data.at("variants"), "variants"):
        return result
    for name, options in data["variants"].items():
        where = data["variants"].at(name)
        if not checks.expect_map(problems, options, where, f"variant '{name}'") or \
                not checks.check_name_part(problems, str(name), where, "a variant's name"):
            continue
        result[str(name)] = {}
        for option, rule in options.items():
            what = f"option {option} of variant '{name}'"
            if not checks.check_name_part(problems, str(option), options.at(option),
                                          "a variant's option") or \
                    not checks.expect_map(problems, rule, options.at(option), what) or \
                    not checks.check_keys(problems, rule, list(field_types), (), what):
                continue
            keep = result[str(name)][str(option)] = {
                field_name: frozenset(str(v) for v in allowed)
                for field_name, allowed in rule.items()
                if checks.expect_list(problems, allowed, rule.at(field_name),
                                      f"the values of '{field_name}' allowed")}
            if cards and not any(_allowed(card, keep) for card in cards):
                problems.add(options.at(option), f"{what} leaves no cards",
                             "allow values the cards have")
    return result


def dropped(data: Map, problems: Problems, deck: Deck) -> Deck:
    """Leave out the cards 'drop' names by their fields (e.g. one of an extended deck's
    jokers). Each entry must match at least one card."""
    raw = data.get("drop")
    if raw is None or not checks.expect_list(problems, raw, data.at("drop"), "drop"):
        return deck
    cards = list(deck.cards)
    for entry, where in zip(raw, raw.item_where):
        if not checks.expect_map(problems, entry, where, "a drop entry"):
            continue
        matching = [c for c in cards if all(str(c.back.name if k == "back" else
                                                c.fields.get(k)) == str(v)
                                            for k, v in entry.items())]
        if not matching:
            problems.add(where, "drop matches no card", "name the fields of a card the deck has")
        cards = [c for c in cards if c not in matching]
    if not cards and not problems:
        problems.add(data.at("drop"), "drop leaves the deck with no cards", "drop fewer cards")
    return _renumbered(deck, cards)


def check_composition(data: Map, problems: Problems, field_types, deck: Deck,
                      blank_counts=()) -> dict:
    """The counts the deck promises (total, by back, by any field) must hold. A total that
    does not names the spreadsheet rows whose count is empty (``blank_counts``), which
    print once: most likely the copies missing. Returns the promises read (for
    :attr:`Deck.composition`): 'total' -> cards, a field -> value (as text) -> cards."""
    promised: dict = {}
    if "composition" not in data:
        return promised
    raw = data["composition"]
    if not checks.expect_map(problems, raw, data.at("composition"), "composition"):
        return promised
    keys = ["total", "back", *field_types]
    checks.check_keys(problems, raw, keys, (), "composition")
    if "total" in raw:
        total = checks.get_int(problems, raw, "total", minimum=1)
        if total is not None:
            promised["total"] = total
        if total is not None and total != deck.total():
            blanks = ", ".join(str(where) for where in blank_counts[:3]) + \
                (f" and {len(blank_counts) - 3} more" if len(blank_counts) > 3 else "")
            problems.add(raw.at("total"), f"the deck promises {total} cards but has "
                         f"{deck.total()}", "fix the cards' counts or the total" + (
                             f" (the count is empty at {blanks}: one copy each)"
                             if blank_counts else ""))
    for key in raw:
        if key == "total" or key not in keys:
            continue
        expected = raw[key]
        if not checks.expect_map(problems, expected, raw.at(key), f"composition of '{key}'"):
            continue
        actual = deck.tally(key)
        promised[key] = {str(value): count for value, count in expected.items()}
        for value, count in expected.items():
            have = actual.get(str(value), 0)
            if have != count:
                problems.add(expected.at(value), f"the deck promises {count} cards with "
                             f"{key} {value} but has {have}",
                             "fix the cards' counts or the composition")
        listed = {str(v) for v in expected}
        for value, have in sorted(actual.items()):
            if value not in listed:
                problems.add(expected.where, f"the deck has {have} cards with {key} "
                             f"{value}, which the composition does not list",
                             f"add '{value}: {have}' or fix the cards")
    return promised
