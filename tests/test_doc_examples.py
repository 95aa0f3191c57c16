"""The docs' examples cannot go stale (issue 48): every ```console block of docs/*.md and
the README is run, one test a block, and what each command prints is compared with what
the block shows. The convention, for whoever writes a page:

- a line ``$ cardkit ...`` is a command, run in-process (click's CliRunner) in a scratch
  folder of the block's own; ``$ cd DIR`` moves into a folder the block made; the lines
  after a command, up to the next ``$``, are what it prints (stdout and stderr as a
  terminal shows them);
- ``...`` stands for any text (several lines too), as doctest's ELLIPSIS; durations and
  speeds (``0.18 s``, ``903 games/s``) are left out of the comparison, every other figure
  is compared as shown (the simulations are seeded: the same seed plays the same games);
- a command expected to fail ends its output with a line ``(exit code 2)``;
- the scratch folder holds a copy of ``examples/lantern-market`` when the block names it,
  ``my-blofa``, Blófa's deck with a blue 2 made a fourth rule card, when it names that, and
  each deck of ``tests/data/doc-decks/`` it names (``mine``, with two typos; ``my-entry``,
  Blófa with a card too many for its contest);
- a block of commands that is not run (a server, a watcher, a list of commands) says why
  in the line before it: ``<!-- not run: REASON -->``. Every fenced block that holds a
  ``cardkit`` command is one or the other (:func:`test_every_command_example_is_run_or_says_why`).
"""

from __future__ import annotations

import re
import shlex
import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner
from markdown_it import MarkdownIt

from cardkit.cli import main

ROOT = Path(__file__).resolve().parent.parent
DOC_DECKS = ROOT / "tests" / "data" / "doc-decks"  # the decks with mistakes the examples show
PAGES = sorted((ROOT / "docs").glob("*.md")) + [ROOT / "README.md"]
NOT_RUN = re.compile(r"<!-- not run: (.+?) -->")
COMMAND = re.compile(r"^(\$ )?cardkit ")
EXIT = re.compile(r"^\(exit code (\d+)\)$")
TIMES = [(re.compile(r"\b\d+(\.\d+)? s\b"), "# s"), (re.compile(r"\b[\d,]+ games/s\b"), "# games/s")]


@dataclass
class Block:
    page: Path
    line: int  # of the opening fence, counted from 1
    info: str
    lines: list[str]
    not_run: str | None  # the reason given, for a block marked not run

    @property
    def name(self) -> str:
        return f"{self.page.name}:{self.line}"


def fenced_blocks(page: Path) -> list[Block]:
    """The fenced code blocks of a Markdown page, as markdown-it (the rulebook's reader)
    finds them: in list items too, their indent taken off."""
    text = page.read_text(encoding="utf-8")
    lines = text.splitlines()
    blocks = []
    for token in MarkdownIt("commonmark").parse(text):
        if token.type != "fence":
            continue
        start = token.map[0]
        before = next((line for line in reversed(lines[:start]) if line.strip()), "")
        reason = NOT_RUN.search(before)
        blocks.append(Block(page, start + 1, token.info.strip(), token.content.splitlines(),
                            reason.group(1) if reason else None))
    return blocks


BLOCKS = [block for page in PAGES for block in fenced_blocks(page)]
CONSOLE = [block for block in BLOCKS if block.info == "console" and not block.not_run]


def sessions(block: Block) -> list[tuple[str, list[str]]]:
    """(command, the lines it prints) for each ``$`` line of a console block, a command
    continued by a trailing backslash joined."""
    found: list[tuple[str, list[str]]] = []
    lines = iter(block.lines)
    for line in lines:
        if line.startswith("$ "):
            command = line[2:]
            while command.endswith("\\"):
                command = command[:-1] + next(lines).strip()
            found.append((command, []))
        else:
            assert found, f"{block.name}: output before any '$ ' command"
            found[-1][1].append(line)
    return found


def matches(expected: list[str], output: str) -> bool:
    """Whether ``output`` is what ``expected`` shows, '...' standing for any text."""
    def normal(text: str) -> str:
        for pattern, stand_in in TIMES:
            text = pattern.sub(stand_in, text)
        return "\n".join(line.rstrip() for line in text.strip("\n").splitlines())
    pattern = ".*?".join(re.escape(part) for part in normal("\n".join(expected)).split("..."))
    return re.fullmatch(pattern, normal(output), re.DOTALL) is not None


@pytest.fixture(scope="module")
def my_blofa(tmp_path_factory) -> Path:
    """Blófa's deck with a fourth rule card: a blue 2 made a 0 (the --compare example)."""
    from cardkit.sources.bundled import find_deck
    folder = tmp_path_factory.mktemp("decks") / "my-blofa"
    shutil.copytree(find_deck("blofa").parent, folder)
    deck = folder / "deck.yaml"
    text = deck.read_text(encoding="utf-8")
    deck.write_text(text.replace("{value: 2, count: 4}", "{value: 2, count: 3}\n      - {value: 0}")
                    .replace("value: {0: 3, 1: 5, 2: 4", "value: {0: 4, 1: 5, 2: 3"),
                    encoding="utf-8")
    return folder


def scratch_folder(block: Block, tmp_path: Path, request) -> Path:
    """The block's own folder, with the example decks it names."""
    text = "\n".join(block.lines)
    for deck in DOC_DECKS.iterdir():
        if re.search(rf"\b{deck.name}\b", text):
            shutil.copytree(deck, tmp_path / deck.name)
    if "examples/lantern-market" in text:
        shutil.copytree(ROOT / "examples" / "lantern-market",
                        tmp_path / "examples" / "lantern-market")
    if "my-blofa" in text:
        shutil.copytree(request.getfixturevalue("my_blofa"), tmp_path / "my-blofa")
    return tmp_path


@pytest.mark.parametrize("block", CONSOLE, ids=[block.name for block in CONSOLE])
def test_the_example_prints_what_the_docs_show(block, tmp_path, monkeypatch, request):
    monkeypatch.chdir(scratch_folder(block, tmp_path, request))
    monkeypatch.setenv("COLUMNS", "200")
    for command, expected in sessions(block):
        words = shlex.split(command)
        if words[0] == "cd":
            monkeypatch.chdir(words[1])
            continue
        assert words[0] == "cardkit", f"{block.name}: only 'cardkit' and 'cd' run: {command}"
        code = 0
        if expected and EXIT.match(expected[-1]):
            code, expected = int(EXIT.match(expected[-1]).group(1)), expected[:-1]
        result = CliRunner().invoke(main, words[1:], terminal_width=200)
        assert result.exit_code == code, f"{block.name}: $ {command}\n{result.output}"
        assert matches(expected, result.output), \
            f"{block.name}: $ {command} printed\n{result.output}\nwhere the docs show\n" \
            + "\n".join(expected)


def test_every_command_example_is_run_or_says_why():
    unmarked = [block.name for block in BLOCKS
                if any(COMMAND.match(line.strip()) for line in block.lines)
                and block.info != "console" and not block.not_run]
    assert not unmarked, f"blocks of cardkit commands neither run (```console) nor " \
                         f"marked '<!-- not run: REASON -->': {unmarked}"
    assert all(block.lines and block.lines[0].startswith("$ ") for block in CONSOLE)
    assert len(CONSOLE) >= 10


def test_the_comparison_allows_only_what_varies():
    shown = ["blofa: 18 cards, 4 pages -> out.pdf (0.09 s)", "  seat 0: won 26.8%", "..."]
    assert matches(shown, "blofa: 18 cards, 4 pages -> out.pdf (1.5 s)\n  seat 0: won 26.8%\n"
                          "  seat 1\n  seat 2\n")
    assert not matches(shown, "blofa: 18 cards, 4 pages -> out.pdf (1.5 s)\n  seat 0: won 26.9%")
    assert not matches(shown, "blofa: 17 cards, 4 pages -> out.pdf (0.09 s)\n  seat 0: won 26.8%")
