"""Every example in every command's --help runs as written (issue 24: one showed a bot
parameter the bot refused). The examples are read from the help text itself; they run in
a folder holding the decks they name: 'my-game' from 'cardkit new', and 'my-ragusa', a
designer's copy of the bundled Ragusa deck."""

from __future__ import annotations

import re
import shlex
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from cardkit.cli import main
from cardkit.sources.bundled import find_deck
from conftest import PATIENCE


def _help(*command: str) -> str:
    return CliRunner().invoke(main, [*command, "--help"], terminal_width=200).output


def examples() -> list[tuple[str, str]]:
    """(command, example line) for every 'cardkit ...' line of every --help, with lines
    continued by a backslash joined and the description after two spaces cut off."""
    commands = [""] + main.list_commands(None)
    found = []
    for command in commands:
        text = _help(*([command] if command else []))
        lines = iter(text.splitlines())
        for line in lines:
            stripped = line.strip()
            if not stripped.startswith("cardkit ") or "turns a deck" in stripped:
                continue
            while stripped.endswith("\\"):
                stripped = stripped[:-1].rstrip() + " " + next(lines).strip()
            found.append((command or "cardkit", re.split(r"\s{2,}", stripped)[0]))
    return found


EXAMPLES = examples()
# each example once, as the first help shows it (the main help repeats a few commands')
SHOWN = [(command, example) for at, (command, example) in enumerate(EXAMPLES)
         if example not in [earlier for _, earlier in EXAMPLES[:at]]]
GAMES = 200  # games a simulate example plays, however many it names or the default is


def test_the_examples_are_found():
    assert len(EXAMPLES) >= 25
    assert {command for command, _ in EXAMPLES} >= {"simulate", "export", "score", "new"}


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    """A folder with the decks the examples name."""
    here = tmp_path_factory.mktemp("examples")
    assert CliRunner().invoke(main, ["new", str(here / "my-game")]).exit_code == 0
    shutil.copytree(find_deck("ragusa").parent, here / "my-ragusa")
    # an older version of my-game: a copy, and the folder's first commit, tagged
    shutil.copytree(here / "my-game", here / "my-game-0.3")
    for command in (["init", "-q"], ["add", "."], ["commit", "-qm", "1.0"], ["tag", "v1.0"]):
        subprocess.run(["git", "-C", str(here), "-c", "user.name=t", "-c", "user.email=t@t",
                        *command], check=True, capture_output=True)
    return here


@pytest.mark.parametrize("command, example", SHOWN,
                         ids=[f"{c}: {e[8:40]}" for c, e in SHOWN])
def test_every_help_example_runs(folder, monkeypatch, command, example):
    words = shlex.split(example)[1:]
    if ">" in words:  # a shell redirection: the output is the file's content
        words = words[:words.index(">")]
    if words[0] == "new":  # the fixture made my-game; make another of the same kind
        words[1] = f"{words[1]}-{len(list(folder.iterdir()))}"
    if words[0] == "watch":  # watches until stopped: it must build and start watching
        process = subprocess.Popen([sys.executable, "-m", "cardkit", *words],
                                   cwd=folder, stdout=subprocess.PIPE, text=True)
        try:
            line = ""
            while "watching" not in line:
                line = process.stdout.readline()
                assert line, "the watch ended"
        finally:
            process.terminate()
            process.wait(timeout=PATIENCE)  # a safety net against a hang, not a measure
        assert process.returncode == 128 + signal.SIGTERM  # ended by it, as a shell says
        return
    if words[0] == "serve":  # serves until stopped: it must draw the deck and answer
        _serves(folder, words)
        return
    if "--games" in words:  # the option as written, fewer games: the suite's time
        at = words.index("--games") + 1
        words[at] = str(min(int(words[at]), GAMES))
    monkeypatch.chdir(folder)
    monkeypatch.setattr("cardkit.cli.simulate.SKILL_GAMES", 4)  # the ladder's games, for time
    # and its searches' budgets (25, 50, 100 iterations: 6 s of the suite's CPU time); the
    # rungs, their order and what is said of them are the same at any budget
    monkeypatch.setattr("cardkit.playtest.skill.SEARCH_BUDGETS", (10, 20))
    games = next(option for option in main.get_command(None, "simulate").params
                 if option.name == "count")
    monkeypatch.setattr(games, "default", min(games.default, GAMES))  # as written: no --games
    result = CliRunner().invoke(main, words)
    assert result.exit_code == 0, f"{example}\n{result.output}"
    assert result.output.strip()


def test_every_bot_quoted_in_simulate_s_help_and_messages_plays_blofa():
    """The bots the help and the NAME=NUMBER message give as examples are accepted, each
    playing seat 0 (random play in the others: four searches took four times the CPU)."""
    from cardkit.cli import simulate as cli

    text = _help("simulate") + open(cli.__file__, encoding="utf-8").read()
    quoted = set(re.findall(r"'((?:heuristic|search):[a-z_]+=[0-9.]+(?:,[a-z_]+=[0-9.]+)*)'",
                            text))
    assert quoted
    for bots in quoted:
        result = CliRunner().invoke(main, ["simulate", "blofa", "--games", "1", "--workers",
                                           "1", "--bots", bots, "--rest", "random"])
        assert result.exit_code == 0, f"{bots}: {result.output}"


def _serves(folder: Path, words: list[str]) -> None:
    """Run a `cardkit serve` example on a free port, without opening a browser, until the
    deck it names has been drawn."""
    import json
    import time
    import urllib.request

    if "--port" in words:
        at = words.index("--port")
        del words[at:at + 2]
    process = subprocess.Popen([sys.executable, "-m", "cardkit", *words, "--no-open",
                                "--port", "0"], cwd=folder, stdout=subprocess.PIPE, text=True)
    try:
        address = re.search(r"http://\S+/", process.stdout.readline())
        assert address, "serve did not say where it listens"
        deadline = time.monotonic() + PATIENCE  # a safety net against a hang
        while time.monotonic() < deadline:
            with urllib.request.urlopen(address.group(0) + "api/deck") as answer:
                if json.load(answer)["cards"]:
                    return
            time.sleep(0.2)
        raise AssertionError(f"the deck was not drawn within {PATIENCE} s")
    finally:
        process.terminate()
        process.wait(timeout=PATIENCE)
