"""The command line as a user meets it: summaries, listings, exit codes, atomic output."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import click
import pytest
from click.testing import CliRunner

from cardkit.cli import main
from cardkit.pipeline import build as build_module
from cardkit.sources.bundled import bundled_decks
from conftest import PATIENCE
from pdfgeom import page_sizes


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def test_build_prints_a_summary_line(tmp_path):
    result = run("build", "blofa", "--out", tmp_path)
    assert result.exit_code == 0, result.output
    assert re.fullmatch(r"blofa: 18 cards, 4 pages \(A4 portrait, 9 a page\) -> "
                        r"\S+/blofa/blofa-pnp-a4\.pdf \(\d+\.\d\d s\)\n", result.output), \
        result.output
    assert (tmp_path / "blofa" / "blofa-pnp-a4.pdf").stat().st_size > 10_000


def test_output_names_say_what_the_file_is(tmp_path):
    result = run("build", "blofa", "--out", tmp_path, "--sheet", "gutterfold", "--paper",
                 "letter", "--bleed", "3", "--guides")
    assert result.exit_code == 0, result.output
    assert (tmp_path / "blofa" / "blofa-gutterfold-letter-bleed3mm-guides.pdf").exists()
    run("build", "blofa", "--out", tmp_path, "--duplex", "short")
    assert (tmp_path / "blofa" / "blofa-pnp-a4-short.pdf").exists()
    # a calibrated build does not overwrite the plain one
    run("build", "blofa", "--out", tmp_path, "--back-offset", "0.5,-0.3", "--orientation",
        "landscape")
    assert (tmp_path / "blofa" / "blofa-pnp-a4-landscape-offset0.5,-0.3mm.pdf").exists()


@pytest.mark.parametrize("option", [["--duplex", "short"], ["--back-offset", "1,0"],
                                    ["--orientation", "portrait"]])
def test_gutterfold_refuses_options_it_cannot_honour(tmp_path, option):
    result = run("build", "blofa", "--out", tmp_path, "--sheet", "gutterfold", *option)
    assert result.exit_code == 2
    assert "gutterfold sheets" in result.output and "nothing was written" in result.output
    assert not (tmp_path / "blofa").exists()


def test_calibrate_writes_a_two_sided_sheet_named_for_its_settings(tmp_path):
    result = run("calibrate", "--paper", "letter", "--duplex", "short", "--out", tmp_path)
    assert result.exit_code == 0, result.output
    path = tmp_path / "calibration" / "calibration-letter-short.pdf"
    assert "flipping on the short edge" in result.output
    assert page_sizes(path) == [pytest.approx((215.9, 279.4), abs=0.01)] * 2


def test_build_all_builds_every_bundled_deck(tmp_path):
    result = run("build", "--all", "--out", tmp_path)
    assert result.exit_code == 0, result.output
    for name in bundled_decks():
        assert (tmp_path / name / f"{name}-pnp-a4.pdf").exists()


def test_list_and_validate(tmp_path):
    listing = run("list")
    assert re.search(r"^blofa\s+18 cards\s+poker\s+Blófa Cards$", listing.output, re.M)
    validated = run("validate", "blofa")
    assert validated.exit_code == 0
    assert validated.output == "blofa: 18 cards, 8 distinct, OK\n"


def test_a_failed_build_leaves_the_previous_good_file(tmp_path):
    deck_dir = tmp_path / "deck"
    deck_dir.mkdir()
    source = bundled_decks()["blofa"].read_text(encoding="utf-8")
    deck = deck_dir / "deck.yaml"
    deck.write_text(source, encoding="utf-8")
    assert run("build", deck, "--out", tmp_path / "o").exit_code == 0
    good = (tmp_path / "o" / "blofa" / "blofa-pnp-a4.pdf").read_bytes()
    deck.write_text(source.replace("{value: 2, count: 4}", "{value: 2, count: 0}"),
                    encoding="utf-8")
    assert run("build", deck, "--out", tmp_path / "o").exit_code == 2
    assert (tmp_path / "o" / "blofa" / "blofa-pnp-a4.pdf").read_bytes() == good


def test_an_interrupted_build_leaves_the_previous_good_file(tmp_path, monkeypatch):
    assert run("build", "blofa", "--out", tmp_path).exit_code == 0
    target = tmp_path / "blofa" / "blofa-pnp-a4.pdf"
    good = target.read_bytes()

    def interrupted(path, *args):
        path.write_bytes(b"%PDF-1.4 half a file")
        raise KeyboardInterrupt

    monkeypatch.setattr(build_module, "write_pdf", interrupted)
    with pytest.raises(KeyboardInterrupt):
        build_module.build_deck(bundled_decks()["blofa"], tmp_path,
                                build_module.SheetOptions())
    assert target.read_bytes() == good
    assert [p.name for p in target.parent.iterdir()] == ["blofa-pnp-a4.pdf"]


@pytest.mark.parametrize("args,message", [
    (["build"], "name a deck, or use --all"),
    (["build", "blofa", "--back-offset", "1"], "'1' is not two lengths"),
    (["build", "blofa", "--paper", "a3"], "'a3' is not one of"),
    (["build", "blofa", "--bleed", "-1"], "-1"),
])
def test_bad_options_exit_2_with_a_message(args, message):
    result = run(*args)
    assert result.exit_code == 2
    assert message in result.output


def commands_section(group: click.Group, width: int) -> str:
    formatter = click.HelpFormatter(width=width)
    group.format_commands(click.Context(group), formatter)
    return formatter.getvalue()


@pytest.mark.parametrize("width", [50, 80, 1000])
def test_help_lists_each_command_as_its_own_help_begins(width):
    """`cardkit --help` lists the commands from cardkit.cli.COMMANDS without importing
    their modules: the list is the one click makes from the commands themselves."""
    commands = [main.get_command(None, name) for name in main.list_commands(None)]
    assert len(commands) == 19 and [c.name for c in commands] == main.list_commands(None)
    listed = commands_section(main, width)
    assert listed == commands_section(click.Group(commands=commands), width)
    assert "\n  build      Build print-ready" in listed


def test_python_dash_m_and_help():
    done = subprocess.run([sys.executable, "-m", "cardkit", "build", "--help"],
                          capture_output=True, text=True, check=True)
    assert "--back-offset X,Y" in done.stdout
    assert "Shift the backs X right and Y down" in done.stdout


def test_python_dash_m_without_the_libraries_says_what_to_run():
    """`python -m cardkit` in a Python without cardkit's libraries (here: the same Python
    with its site-packages switched off) names what is missing and what to run first."""
    from cardkit.sources.files import ROOT

    done = subprocess.run([sys.executable, "-S", "-m", "cardkit", "list"], cwd=ROOT,
                          capture_output=True, text=True, timeout=PATIENCE)
    assert done.returncode == 1
    assert done.stdout == ""
    assert re.fullmatch(r"cardkit: this Python \(.+\) lacks \w+, which cardkit needs; run "
                        r"'make build' in cardkit's folder, then '\.venv/bin/cardkit' or "
                        r"'\.venv/bin/python -P -m cardkit' \(or 'source \.venv/bin/activate' "
                        r"first\)\n", done.stderr)


@pytest.mark.parametrize("page", ["README.md", "docs/start.md"])
def test_the_readme_and_the_docs_run_python_dash_m_in_the_venv(page):
    from cardkit.sources.files import ROOT

    text = (ROOT / page).read_text(encoding="utf-8")
    commands = [(path, safe) for path, safe in re.findall(r"(\S*)python( -P)? -m cardkit", text)
                if path.endswith("/")]  # a command to type, not the prose that explains -P
    assert commands and all(path.endswith(".venv/bin/") and safe for path, safe in commands)


def test_draft_ink_is_a_file_of_its_own(tmp_path):
    result = CliRunner().invoke(main, ["build", "blofa", "--ink", "draft", "--out",
                                       str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert "/blofa/blofa-pnp-a4-draft-ink.pdf (" in result.output
    assert [p.name for p in (tmp_path / "blofa").iterdir()] == ["blofa-pnp-a4-draft-ink.pdf"]


@pytest.mark.parametrize("command", [
    ["simulate", "blofa", "--log", "3"],
    ["simulate", "examples/lantern-market", "--log", "3"]])  # a designer's rules file
def test_a_reader_that_goes_away_stops_the_command_quietly(command):
    """`cardkit simulate my-game --log 3 | head -1`: the pipe closes after the first line.
    The command stops with the shell's code for that (141), saying nothing: no traceback,
    and no 'error in your rules' (the log's write failed, not the rules)."""
    import fcntl
    import signal
    from pathlib import Path

    # A pipe of one page, read a byte at a time: the log (5 to 7 KB) cannot all be
    # written before the reader goes away, however the two processes are scheduled.
    reading, writing = os.pipe()
    fcntl.fcntl(writing, fcntl.F_SETPIPE_SZ, 4096)
    process = subprocess.Popen([sys.executable, "-m", "cardkit", *command],
                               cwd=Path(__file__).resolve().parent.parent,
                               stdout=writing, stderr=subprocess.PIPE)
    os.close(writing)
    with open(reading, "rb", buffering=0) as pipe:
        assert pipe.readline()
    stderr = process.stderr.read().decode()
    assert (process.wait(timeout=PATIENCE), stderr) == (128 + signal.SIGPIPE, "")


def test_the_readme_says_how_long_make_test_takes_and_the_docs_what_refresh_implies():
    """Issue 58: a new designer ran `make test` without knowing it takes minutes, and
    read in `--help` only that --refresh reaches the network."""
    from cardkit.sources.files import ROOT

    readme = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    assert re.search(r"`make test` runs the tests in parallel on every core: it takes about "
                     r"\d+ minutes on a 2-core machine", readme)
    sheets = " ".join((ROOT / "docs/deck-format.md").read_text(encoding="utf-8").split())
    assert "`--refresh` fetches every link again, whatever the copy (it implies " \
           "`--allow-network`)" in sheets
