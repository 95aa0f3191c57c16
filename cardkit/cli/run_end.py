"""How a ``cardkit simulate`` run ends, as the terminal tells it: stopped by Ctrl-C or
SIGTERM (and what the figures are of), its report written or refused, a mistake in the
rules or the cluster; exit 2 for what the user can fix."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from .output import EXIT_BAD_INPUT, EXIT_STOPPED, report_output_error, shown


def write_report_to(report_dir: Path, write, *args) -> None:
    """``write(report_dir, *args)``, then say where the report is. A folder that cannot
    take it (read-only, a full disk, files saved into it during the run) exits 2."""
    from ..common.atomic import NotReplaced

    try:
        write(report_dir, *args)
    except NotReplaced as error:
        refuse_report_folder(report_dir, error.strerror, error.kept)
    except OSError as error:
        report_output_error(error, "--report")
        sys.exit(EXIT_BAD_INPUT)
    click.echo(f"report: {shown(Path(report_dir) / 'report.html')}")


def refuse_report_folder(report_dir: Path, why: str, kept: Path | None = None):
    """Exit 2: ``report_dir`` is not a folder a report may replace (``why``); a finished
    report was ``kept`` beside it instead."""
    from ..playtest.report import REPORT_FILES

    refuse(f"--report {report_dir or repr('')}: {why}" + (
        f" (since the games began); the new report is in {shown(kept)}" if kept else ""),
        "give --report a new or empty folder, or one holding only a report's "
        + ", ".join(REPORT_FILES))


def say_stopped(finished: int, planned: int, what: str = "games") -> None:
    """Say that Ctrl-C (or SIGTERM) stopped the run and what the figures below are of;
    with nothing finished, stop here."""
    cause, code = stop_cause()
    if not finished:
        click.echo(f"cardkit: stopped ({cause}) before any of the {planned:,} {what} "
                   "finished", err=True)
        sys.exit(code)
    click.echo(f"cardkit: stopped ({cause}) after {finished:,} of {planned:,} {what}; the "
               "figures below are of those", err=True)


def stop_cause() -> tuple[str, int]:
    """What stopped the run, as users know it, and the exit code shells give it."""
    from ..common.processes import terminated
    return ("SIGTERM", 128 + 15) if terminated() else ("Ctrl-C", EXIT_STOPPED)


def refuse(what: str, fix: str):
    """Exit 2, saying what is wrong and how to fix it."""
    click.echo(f"cardkit: {what}; {fix}", err=True)
    sys.exit(EXIT_BAD_INPUT)


def rules_failed(error) -> None:
    """Rules that cannot be played, or a cluster gone: what, where, their traceback."""
    click.echo(f"cardkit: {error.what}" + (f"; {error.fix}" if error.fix else ""), err=True)
    if error.detail:
        click.echo(error.detail, err=True)
    sys.exit(EXIT_BAD_INPUT)
