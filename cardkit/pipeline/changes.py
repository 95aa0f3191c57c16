"""Comparing two versions of a deck, card by card, by what prints
(:mod:`cardkit.deck.changes` holds the result); and the deck of only what to reprint.

Cards are matched by name (:meth:`Deck.name_of`, the name exports use; a name several
cards share is matched in deck order). A matched card has changed when either side prints
differently (:class:`~cardkit.render.fingerprint.Prints`, stamps left out, so a new
version number alone changes nothing). The old version is a folder, a deck file or a git
revision of the new deck's folder.
"""

from __future__ import annotations

import io
import subprocess
import tarfile
import tempfile
from collections import defaultdict
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path

from ..common.errors import InputError, Problem, Where
from ..deck.changes import ADDED, CHANGED, COUNT, DATA, REMOVED, CardChange, DeckChanges
from ..deck.languages import in_language
from ..deck.loader import load_deck
from ..deck.model import Deck
from ..render.card import BACK, FRONT
from ..render.fingerprint import Prints
from ..sources.bundled import DECK_FILE, find_deck

SIDES = (FRONT, BACK)


def compare(old: Deck, new: Deck, old_label: str = "") -> DeckChanges:
    """The changes from ``old`` to ``new``, card by card, by what prints."""
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
                       tuple(changes), _backs(old, old_prints, new, new_prints), unchanged)


def changed_since(deck: Deck, old: str, variant: dict | None = None,
                  only_declared: bool = False, lang: str = "") -> Deck:
    """What to reprint of ``deck`` (:meth:`DeckChanges.reprint`) since the version
    ``old`` (see :func:`old_version`), in language ``lang``, with the cover note as its
    ``note``."""
    with old_version(old, deck.path) as (old_file, label):
        before = in_language(load_deck(old_file, variant, only_declared), lang)
        changes = compare(before, deck, label)
    return replace(changes.reprint(), note=tuple(changes.cover_note()))


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

    before, after = designs(old, old_prints), designs(new, new_prints)
    return tuple((name, ADDED if name not in before else REMOVED if name not in after
                  else CHANGED) for name in [*after, *(n for n in before if n not in after)]
                 if before.get(name) != after.get(name))


@contextmanager
def old_version(old: str, new_deck: Path):
    """The deck file of the old version ``old`` and how to name it: a folder or deck file
    if one is there (named by its version, so ''), else a git revision of the repository
    holding ``new_deck`` (checked out into a temporary folder for the duration)."""
    if Path(old).exists():
        yield find_deck(old), ""
        return
    # a revision is checked (and never starts with '-', which git would read as an option)
    # before git archive is given it
    top = _git(new_deck.parent, "rev-parse", "--show-toplevel")
    if top is None or old.startswith("-") or _git(
            Path(top.strip()), "rev-parse", "--verify", "--quiet", f"{old}^{{commit}}") is None:
        raise InputError([Problem(Where(old), "is neither a folder, a deck file nor a git "
                                  f"revision of {new_deck.parent}", "name the old version's "
                                  "folder, or a commit or tag of the deck's repository "
                                  "('HEAD~1', 'v1.0')")])
    top = Path(top.strip())
    archive = subprocess.run(["git", "-C", str(top), "archive", "--format=tar", old],
                             capture_output=True, check=True).stdout
    with tempfile.TemporaryDirectory(prefix="cardkit-old-") as folder:
        with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
            tar.extractall(folder, filter=_kept)
        inside = new_deck.resolve().relative_to(top.resolve())
        deck_file = Path(folder) / inside
        if not deck_file.is_file():
            raise InputError([Problem(Where(new_deck), f"the deck has no {DECK_FILE} at "
                                      f"revision {old} (it was made later)",
                                      "name an older version that has it")])
        try:
            yield deck_file, old
        except InputError as error:  # named as git names a file of a revision: v1.0:deck.yaml
            raise InputError([_at_revision(problem, folder, old) for problem in error.problems],
                             [_at_revision(w, folder, old) for w in error.warnings]) from None


def _kept(member, path):
    """tarfile's 'data' filter (nothing out of the folder, no devices), leaving out what it
    refuses, such as a link to an absolute path, rather than failing on it."""
    try:
        return tarfile.data_filter(member, path)
    except tarfile.FilterError:
        return None


def _at_revision(problem: Problem, folder: str, revision: str) -> Problem:
    """``problem`` with a file of the checked-out ``folder`` named 'REVISION:path'."""
    name = str(problem.where.file)
    if not name.startswith(folder):
        return problem
    inside = Path(name).relative_to(folder).as_posix()
    return replace(problem, where=replace(problem.where, file=f"{revision}:{inside}"))


def _git(folder: Path, *args: str) -> str | None:
    """What a git command prints, or None when it fails (not a repository, no git)."""
    try:
        done = subprocess.run(["git", "-C", str(folder), *args], capture_output=True,
                              text=True)
    except OSError:
        return None
    return done.stdout if done.returncode == 0 else None
