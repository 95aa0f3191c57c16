"""What changed between two versions of a deck, as data: each card that is not as it
was, the backs, and what follows for a reprint (its cards, its cover note). The
comparison itself, which draws both decks, is :func:`cardkit.pipeline.changes.compare`.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, replace

from ..common.errors import InputError, Problem, Where
from .model import Card, Deck

CHANGED, ADDED, REMOVED, COUNT, DATA = "changed", "added", "removed", "count", "data"


@dataclass(frozen=True)
class CardChange:
    """One card that is not as it was. ``status`` is ``changed`` (it prints differently),
    ``added``, ``removed``, ``count`` (prints the same, in another number) or ``data``
    (prints the same, but fields no layout shows changed: the rules may read them)."""

    status: str
    name: str
    old: Card | None
    new: Card | None
    sides: tuple[str, ...] = ()  # 'front', 'back': the sides that print differently
    fields: tuple[str, ...] = ()  # the fields whose value changed
    elements: tuple[str, ...] = ()  # 'front: text': the elements that print differently

    @property
    def to_print(self) -> int:
        """Copies of the new card to print: all of a changed or added card, the extra
        ones of a count that grew."""
        if self.status in (CHANGED, ADDED):
            return self.new.count
        if self.status == COUNT:
            return max(0, self.new.count - self.old.count)
        return 0

    @property
    def to_pull(self) -> int:
        """Copies of the old card to take out of the printed deck."""
        if self.status in (CHANGED, REMOVED):
            return self.old.count
        if self.status == COUNT:
            return max(0, self.old.count - self.new.count)
        return 0


@dataclass(frozen=True)
class DeckChanges:
    old: Deck
    new: Deck
    old_label: str  # how to name the old version: '1.0', 'HEAD~2', a folder
    cards: tuple[CardChange, ...]  # in the new deck's order, removed cards last
    backs: tuple[tuple[str, str], ...]  # (back design, 'changed' / 'added' / 'removed')
    unchanged: int  # distinct cards that print as they did, in the same number

    @property
    def heading(self) -> str:
        """What is compared with what: 'Lantern Market: 1.0 -> 1.1', 'Lantern Market:
        v1.0 -> 1.1 (was 1.0)', or, when the version was not raised, 'My Game: v1.0 ->
        now (0.1 in both)'."""
        old, new = self.old.version, self.new.version
        if old and old == new:
            return f"{self.new.title}: {self.old_label} -> now ({new} in both)"
        was = f" (was {old})" if old and old != self.old_label else ""
        return f"{self.new.title}: {self.old_label} -> {new or 'now'}{was}"

    def of(self, *statuses: str) -> list[CardChange]:
        return [change for change in self.cards if change.status in statuses]

    def reprint(self) -> Deck:
        """The new deck with only what to print: changed and added cards, in their
        counts, and the extra copies of cards whose count grew. Its name's variant part
        says what it is: ``changes-since-1.0``."""
        cards = tuple(replace(change.new, count=change.to_print) for change in self.cards
                      if change.to_print)
        if not cards:
            raise InputError([Problem(Where(self.new.path), f"nothing to reprint: every card "
                                      f"prints as it did in {self.old_label}", "build the "
                                      "whole deck without --changed-since")])
        part = "changes-since-" + re.sub(r"[^A-Za-z0-9.]+", "_", self.old_label).strip("_")
        return replace(self.new, cards=cards,
                       variant="-".join(filter(None, [self.new.variant, part])))

    def cover_note(self) -> list[str]:
        """What the reprint's cover page says: what it is, what to pull from the old deck
        and what to add, each card with its count."""
        new = self.new
        lines = [f"{new.title}: the cards that changed since {self.old_label}"
                 + (f" (now {new.stamp})" if new.stamp else ""), ""]
        pulled = [(change.to_pull, change.name) for change in self.cards if change.to_pull]
        printed = [(change.to_print, change.name) for change in self.cards if change.to_print]
        lines.append(f"Take out of your printed deck ({sum(n for n, _ in pulled)} cards):"
                     if pulled else "Take nothing out of your printed deck.")
        lines += [f"    {count} x {name}" for count, name in pulled]
        lines += ["", f"Put in the cards printed here ({sum(n for n, _ in printed)}):"]
        lines += [f"    {count} x {name}" for count, name in printed]
        return lines


def summary_line(changes: DeckChanges) -> str:
    """'2 changed, 1 added, 1 removed, 1 in another number; 4 unchanged. To print: 7
    cards; to pull: 9.'"""
    counts = Counter(change.status for change in changes.cards)
    parts = [f"{counts[CHANGED]} changed", f"{counts[ADDED]} added",
             f"{counts[REMOVED]} removed", f"{counts[COUNT]} in another number"]
    if counts[DATA]:
        parts.append(f"{counts[DATA]} with data changes only")
    printed = sum(change.to_print for change in changes.cards)
    pulled = sum(change.to_pull for change in changes.cards)
    return (", ".join(parts) + f"; {changes.unchanged} unchanged. To print: {printed} "
            f"card{'s' * (printed != 1)}; to pull: {pulled}.")
