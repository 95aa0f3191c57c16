"""Comparing two versions of a deck, card by card, by what prints
(:mod:`cardkit.deck.changes` holds the result); and the deck of only what to reprint.

Cards are matched by name (:meth:`Deck.name_of`, the name exports use; a name several
cards share is matched in deck order). A matched card has changed when either side prints
differently (:class:`~cardkit.render.fingerprint.Prints`, stamps left out, so a new
version number alone changes nothing). The old version is a folder, a deck file or a git
revision of the new deck's folder.
"""

from __future__ import annotations

from collections import defaultdict
from contextlib import contextmanager
from pathlib import Path

from ..deck.changes import ADDED, CHANGED, COUNT, DATA, REMOVED, CardChange, DeckChanges
from ..deck.languages import in_language
from ..deck.loader import load_deck
from ..deck.model import Deck
from ..render.card import BACK, FRONT
from ..render.fingerprint import Prints
from ..sources.bundled import find_deck
from ..sources.revision import checked_out
from .faces import component_prints

SIDES = (FRONT, BACK)


def compare(old: Deck, new: Deck, old_label: str = "", components: bool = True) -> DeckChanges:
    """The changes from ``old`` to ``new``, card by card, by what prints; and of the box,
    tokens and boards (drawn too) unless ``components`` is False."""
    old_prints, new_prints = Prints(old), Prints(new)
    pairs, removed = _matched(old, new)
    changes = []
    unchanged = 0
    for name, before, after in pairs:
        if before is None:
            changes.append(CardChange(ADDED, name, None, after))
            continue
        fields = tuple(sorted(key for key in {*before.fields, *after.fields}
                              if before.fields.get(key) != after.fields.get(key)))
        if before.back.name != after.back.name:
            fields += ("back",)
        sides = tuple(side for i, side in enumerate(SIDES)
                      if old_prints.keys[before.number][i] != new_prints.keys[after.number][i])
        if sides:
            elements = tuple(f"{side}: {element}" for side in sides for element in
                             _differing(old_prints.elements(before.number, side),
                                        new_prints.elements(after.number, side)))
            changes.append(CardChange(CHANGED, name, before, after, sides, fields, elements))
        elif before.count != after.count:
            changes.append(CardChange(COUNT, name, before, after, fields=fields))
        elif fields:
            changes.append(CardChange(DATA, name, before, after, fields=fields))
        else:
            unchanged += 1
    changes += [CardChange(REMOVED, name, card, None) for name, card in removed]
    return DeckChanges(old, new, old_label or old.version or str(old.path.parent),
                       tuple(changes), _backs(old, old_prints, new, new_prints), unchanged,
                       _statuses(component_prints(old), component_prints(new))
                       if components else ())


def changed_since(deck: Deck, old: str, variant: dict | None = None,
                  only_declared: bool = False, lang: str = "") -> Deck:
    """What to reprint of ``deck`` (:meth:`DeckChanges.reprint`) since the version
    ``old`` (see :func:`old_version`), in language ``lang``, with the cover note as its
    ``note``."""
    with old_version(old, deck.path) as (old_file, label):
        before = in_language(load_deck(old_file, variant, only_declared), lang)
        changes = compare(before, deck, label, components=False)  # a reprint is of cards
    return changes.reprint()._replace(note=tuple(changes.cover_note()))


def _matched(old: Deck, new: Deck):
    """The new deck's cards, each with the old card of its name ((name, old or None,
    new)); and the old cards no new card took ((name, old))."""
    waiting = defaultdict(list)
    for card in old.cards:
        waiting[old.name_of(card)].append(card)
    pairs = []
    for card in new.cards:
        name = new.name_of(card)
        pairs.append((name, waiting[name].pop(0) if waiting[name] else None, card))
    removed = [(name, card) for name, cards in waiting.items() for card in cards]
    return pairs, sorted(removed, key=lambda pair: pair[1].number)


def _differing(before: dict, after: dict) -> list[str]:
    """The element names whose drawing differs, is new or is gone, in drawing order."""
    names = list(after) + [name for name in before if name not in after]
    return [name for name in names if before.get(name) != after.get(name)]


def _backs(old, old_prints, new, new_prints) -> tuple:
    """Each back design whose print changed, was added or removed."""
    def designs(deck, prints):
        found = defaultdict(set)
        for card in deck.cards:
            found[card.back.name].add(prints.keys[card.number][1])
        return found

    return _statuses(designs(old, old_prints), designs(new, new_prints))


def _statuses(before: dict, after: dict) -> tuple:
    """(name, 'changed' / 'added' / 'removed') of each name whose print in ``before`` and
    ``after`` differs, the new order first."""
    return tuple((name, ADDED if name not in before else REMOVED if name not in after
                  else CHANGED) for name in [*after, *(n for n in before if n not in after)]
                 if before.get(name) != after.get(name))


@contextmanager
def old_version(old: str, new_deck: Path):
    """The deck file of the old version ``old`` and how to name it: a folder or deck file
    if one is there (named by its version, so ''), else a git revision of the repository
    holding ``new_deck`` (its deck's reach copied out for the duration)."""
    if Path(old).exists():
        yield find_deck(old), ""
        return
    with checked_out(old, new_deck) as deck_file:
        yield deck_file, old
