"""What commands print, and how they end on bad input: problems and warnings on stderr
(``file:line:col: problem; fix``), exit code 2, paths as the user would type them, counts
in words, a progress bar on a terminal only, and the loop that writes each deck named.
"""

from __future__ import annotations

import errno
import gc
import os
import sys
from contextlib import contextmanager
from pathlib import Path

import click

from ..common.errors import InputError
from ..sources.bundled import bundled_decks, find_deck

EXIT_BAD_INPUT = 2
EXIT_STOPPED = 130  # Ctrl-C, as shells report it (128 + SIGINT)


def report_input_error(error: InputError, what: str) -> None:
    warn(error.warnings)
    for problem in error.problems:
        click.echo(f"{problem}", err=True)
    count = len(error.problems)
    click.echo(f"cardkit: {count} problem{'s' * (count != 1)} {what}", err=True)


def named(deck: str) -> str:
    """How a message names the deck the user gave: a bundled deck by its name, a folder or
    file by its full path ('.' says nothing once the problems have scrolled by)."""
    path = Path(deck)
    return str(path.resolve()) if path.exists() else deck


def report_output_error(error: OSError, option: str = "--out", kind: str = "folder") -> None:
    """What went wrong writing the output given by ``option`` (a ``kind``: folder or
    file), and what to do: a full disk is not a folder to change, and an error without an
    operating-system code is a library failing to read an input (a file that changed or
    broke after it was checked), not the output."""
    from ..common.atomic import NotReplaced

    where = f" {error.filename}" if error.filename else ""
    if isinstance(error, NotReplaced):  # a socket, a disk, a folder in a file's place
        click.echo(f"cardkit: {shown(Path(error.filename), follow=False)}: "
                   f"{error.strerror}; remove it, "
                   f"or give {option} another {kind}", err=True)
    elif error.errno in (errno.ENOSPC, errno.EDQUOT):
        click.echo(f"cardkit: cannot write{where}: the disk is full (or your quota is used "
                   f"up); free some space, or give {option} a {kind} on another disk",
                   err=True)
    elif error.errno is None:
        click.echo(f"cardkit: cannot read an input while writing: {error}; check the deck's "
                   "files with 'cardkit validate' (one may have changed since)", err=True)
    else:
        click.echo(f"cardkit: cannot write{where}: {error.strerror or error}; give {option} "
                   f"a {kind} you can write to", err=True)


def warn(warnings) -> None:
    for warning in warnings:
        click.echo(f"warning: {warning}", err=True)


def shown(path: Path, follow: bool = True) -> str:
    """A path relative to the working folder when it is inside it; with ``follow`` false,
    as it is named, not where a link in it leads (a link refused is named itself)."""
    try:
        return str((path.resolve() if follow else Path(os.path.abspath(path)))
                   .relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def internal_error(exc: Exception) -> str:
    return (f"internal error: {exc!r}. Please report it with the deck that caused it "
            "(CARDKIT_DEBUG=1 shows the traceback).")


def each_deck(decks, every_deck, players, variants, write) -> None:
    """Call ``write(path, variants, only_declared)`` for each deck named (or every bundled
    deck), reporting bad input per deck; exit 2 if any deck was refused."""
    variants = with_players(variants, players)
    if every_deck:
        decks = tuple(bundled_decks()) + decks
    if not decks:
        raise click.UsageError("name a deck, or use --all")
    with collecting_only_the_new():  # --all applies a variant to the decks that have it
        results = [written(name, write, variants, every_deck) for name in decks]
    if not all(results):
        sys.exit(EXIT_BAD_INPUT)


@contextmanager
def collecting_only_the_new():
    """Python's cycle collector, for what runs inside (a deck's build), leaves the objects
    that exist already (the modules, the command) out of its passes; after, what the run
    left joins them uncollected. (The command line collects the young every
    ``cardkit.cli.YOUNG_OBJECTS`` new objects, not every 700.)"""
    gc.freeze()
    try:
        yield
    finally:
        gc.freeze()  # counts the young as none; unfreeze then puts them with the oldest
        gc.unfreeze()


def in_each_language(path: Path, which, make, each_card: bool = False) -> None:
    """Call ``make(which)`` for each language ``which`` asks for (``--lang all``: every
    one of the deck's); ``each_card``: a missing translation is said for each card. Each language is made and checked on its own: the problems of all
    of them are raised together, so a mistake in one does not hide another's. The
    translations are checked before anything is made, so that one missing stops them
    all; a language whose cards fail later leaves the others made, as the error's
    ``made`` says. A deck that does not load is made as written, to report its problems."""
    from ..deck.languages import in_language
    from ..deck.loader import load_deck

    if which.lang != "all":
        make(which)
        return
    try:
        deck = load_deck(path)
    except InputError:
        make(which._replace(lang=""))  # the same problems, and what drawing the cards finds
        raise
    languages = [which._replace(lang=code) for code in deck.languages.codes or [""]]
    problems, warnings, made = [], [], []
    for one in languages:
        try:
            in_language(deck, one.lang, each_card)
        except InputError as error:
            problems += error.problems
    if problems:
        raise InputError(problems)
    for one in languages:
        try:
            make(one)
            made.append(one.lang)
        except InputError as error:
            problems += [p for p in error.problems if p not in problems]
            warnings += error.warnings
    if problems:
        error = InputError(problems, warnings)
        error.made = made
        raise error


def say_made(name: str, what: str, paths, seconds: float) -> None:
    """The line a command prints for what it wrote: 'blofa: rules, 3 pages -> a.pdf, b.pdf
    (0.26 s)'."""
    click.echo(f"{name}: {what} -> " + ", ".join(shown(p) for p in paths)
               + f" ({seconds:.2f} s)")


def with_players(variants: dict, players: int | None) -> dict:
    return variants if players is None else {**variants, "players": str(players)}


def written(name: str, write, variants: dict, only_declared: bool) -> bool:
    """Call ``write`` for the deck ``name``; report its bad input or unwritable output and
    return False, or return True. The deck's sheet links are fetched once however often
    the writer loads it."""
    from ..sources.fetch_round import fetching_once

    try:
        with fetching_once():
            write(find_deck(name), variants, only_declared)
        return True
    except InputError as error:
        made = error.made
        report_input_error(error, f"in {named(name)}; " + (
            f"only the {', '.join(made)} output{'s were' if len(made) > 1 else ' was'} "
            "written" if made else "nothing was written"))
    except OSError as error:  # the output folder: read-only, under a file, too long
        report_output_error(error)
    return False


def progress_bar(length: int):
    """A progress bar on a terminal; nothing otherwise (logs and pipes stay clean)."""
    if not sys.stderr.isatty():
        from ..pipeline.export import no_progress

        return no_progress(length)
    return click.progressbar(length=length, file=sys.stderr, show_eta=False)
