"""What changed between two versions of a deck, as data: each card that is not as it
was, the backs, and what follows for a reprint (its cards, its cover note). The
comparison itself, which draws both decks, is :func:`cardkit.pipeline.changes.compare`.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, replace
from difflib import SequenceMatcher

from ..common.errors import InputError, Problem, Where
from .model import Card, Deck

CHANGED, ADDED, REMOVED, COUNT, DATA = "changed", "added", "removed", "count", "data"
SAME, GONE, NEW = "same", "gone", "new"  # the words of a field's value, before and now
CONTEXT = 3  # unchanged words kept on each side of a change; more are cut to '…'


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

    def words(self) -> list[tuple[str, list[tuple[str, str]]]]:
        """Each changed field with its words, each word ``(SAME / GONE / NEW, word)``:
        'text', [(SAME, 'Cheap'), (SAME, 'and'), (GONE, 'bright.'), (NEW, 'warm.')]."""
        return [(key, word_diff(self.old.values().get(key), self.new.values().get(key)))
                for key in self.fields]

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
    # (the tuck box, 'token 2', 'board street': 'changed' / 'added' / 'removed')
    components: tuple[tuple[str, str], ...] = ()

    @property
    def heading(self) -> str:
        """What is compared with what: 'Lantern Market: 1.0 -> 1.1', 'Lantern Market:
        v1.0 -> 1.1 (was 1.0)', or, when the version was not raised, 'My Game: v1.0 ->
        now (0.1 in both)'."""
        return self.heading_with(str)

    def heading_with(self, value) -> str:
        """:attr:`heading`, each of the deck's words in it (its title, the versions'
        names) as ``value`` gives them: a page's heading puts each in an isolate
        (:func:`~cardkit.assets.shaping.isolated`), so that a Hebrew title keeps its
        version after its colon."""
        old, new = self.old.version, self.new.version
        title, label = value(self.new.title), value(self.old_label)
        if old and old == new:
            return f"{title}: {label} -> now ({value(str(new))} in both)"
        was = f" (was {value(str(old))})" if old and old != self.old_label else ""
        return f"{title}: {label} -> {value(str(new)) if new else 'now'}{was}"

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
        return self.new._replace(cards=cards,
                                 variant="-".join(filter(None, [self.new.variant, part])))

    def cover_note(self) -> list[str]:
        """What the reprint's cover page says: what it is, what to pull from the old deck
        and what to put in, each card with its count and why: a replacement, a new card,
        or copies more or fewer ('1 more Spice Jar, 3 -> 4')."""
        new = self.new
        lines = [f"{new.title}: the cards that changed since {self.old_label}"
                 + (f" (now {new.stamp})" if new.stamp else ""), ""]
        pulled = [change for change in self.cards if change.to_pull]
        printed = [change for change in self.cards if change.to_print]
        taken = sum(change.to_pull for change in pulled)
        lines.append(f"Take out of your printed deck ({taken} card{'s' * (taken != 1)}):"
                     if pulled else "Take nothing out of your printed deck.")
        lines += [f"    {_pulled(change)}" for change in pulled]
        lines += ["", f"Put in the cards printed here ({sum(c.to_print for c in printed)}):"]
        lines += [f"    {_printed(change)}" for change in printed]
        return lines


def _pulled(change: CardChange) -> str:
    """'5 x Lantern Oil, replaced by the new print', '1 fewer Spice Jar, 4 -> 3'."""
    if change.status == COUNT:
        return f"{change.to_pull} fewer {change.name}, {change.old.count} -> {change.new.count}"
    why = "replaced by the new print" if change.status == CHANGED else "no longer in the deck"
    return f"{change.to_pull} x {change.name}, {why}"


def _printed(change: CardChange) -> str:
    """'5 x Lantern Oil, replacing the 5 taken out', '2 x Night Fair, a new card', '1 more
    Spice Jar, 3 -> 4'."""
    if change.status == COUNT:
        return f"{change.to_print} more {change.name}, {change.old.count} -> {change.new.count}"
    if change.status == ADDED:
        return f"{change.to_print} x {change.name}, a new card"
    return f"{change.to_print} x {change.name}, replacing the {change.to_pull} taken out"


def word_diff(before, after) -> list[tuple[str, str]]:
    """The words of ``after`` with those of ``before`` it lost, in order, each marked
    SAME, GONE or NEW; a run of more than 2 * CONTEXT unchanged words is cut to its ends
    around '…'."""
    old, new = _words(before), _words(after)
    words = []
    for tag, i1, i2, j1, j2 in SequenceMatcher(None, old, new, autojunk=False).get_opcodes():
        if tag == "equal":
            words += [(SAME, word) for word in _cut(old[i1:i2], first=not words,
                                                    last=i2 == len(old))]
            continue
        words += [(GONE, word) for word in old[i1:i2]] + [(NEW, word) for word in new[j1:j2]]
    return words


def marked(words: list[tuple[str, str]]) -> str:
    """``words`` as git's word diff writes them: 'Cheap and [-bright.-] {+warm.+}'."""
    runs: list[list] = []
    for kind, word in words:
        if runs and runs[-1][0] == kind:
            runs[-1][1].append(word)
        else:
            runs.append([kind, [word]])
    wrap = {SAME: "{}", GONE: "[-{}-]", NEW: "{{+{}+}}"}
    return " ".join(wrap[kind].format(" ".join(run)) for kind, run in runs)


def _words(value) -> list[str]:
    return [] if value is None else str(value).split()


def _cut(same: list[str], first: bool, last: bool) -> list[str]:
    """An unchanged run, its middle cut: only the words next to a change are kept."""
    keep_start, keep_end = (0 if first else CONTEXT), (0 if last else CONTEXT)
    if len(same) <= keep_start + keep_end + 1:
        return same
    return same[:keep_start] + ["…"] + same[len(same) - keep_end:]


def summary_line(changes: DeckChanges) -> str:
    """'2 changed, 1 added, 1 removed, 1 in another number; 4 unchanged. To print: 7
    cards; to pull: 9.', and what happened to the box, tokens and boards: ' Components: 1
    changed.'"""
    counts = Counter(change.status for change in changes.cards)
    parts = [f"{counts[CHANGED]} changed", f"{counts[ADDED]} added",
             f"{counts[REMOVED]} removed", f"{counts[COUNT]} in another number"]
    if counts[DATA]:
        parts.append(f"{counts[DATA]} with data changes only")
    printed = sum(change.to_print for change in changes.cards)
    pulled = sum(change.to_pull for change in changes.cards)
    others = Counter(status for _, status in changes.components)
    return (", ".join(parts) + f"; {changes.unchanged} unchanged. To print: {printed} "
            f"card{'s' * (printed != 1)}; to pull: {pulled}." + (
                " Components: " + ", ".join(f"{count} {status}" for status, count in
                                            others.items()) + "." if others else ""))
