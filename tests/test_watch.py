"""``cardkit watch``: a save rebuilds the deck; a bad save prints its problems and the
watch goes on. Each test is bounded in time: a rebuild that does not come fails it."""

from __future__ import annotations

import os
import queue
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from PIL import Image

import cardkit.cli
import cardkit.pipeline.watch
from cardkit.cli import main
from cardkit.pipeline.watch import watched_folders
from cardkit.sources.files import BUNDLED_DECKS, BUNDLED_LAYOUTS, PROJECT_FILE
from conftest import PATIENCE, card_colour, hex_colour, id_deck
from pdfgeom import render_page, shapes

WAIT = PATIENCE  # for a rebuild to show, on a machine whose cores other work shares


def first_card_fill(pdf: Path) -> tuple:
    """The fill colour of the first card on the first page."""
    cards = [s for s in shapes(pdf, 0) if (round(s.width, 1), round(s.height, 1)) == (63.5, 88.9)]
    return max(cards, key=lambda s: (s.top, -s.left)).fill


def save(path: Path, text: str) -> None:
    """Write as an editor does: a whole new file, with a new modification time."""
    path.write_text(text, encoding="utf-8")


class Lines:
    """The lines a process prints, read on a thread so waiting for one has a timeout."""

    def __init__(self, stream):
        self.queue: queue.Queue = queue.Queue()
        threading.Thread(target=self._read, args=(stream,), daemon=True).start()

    def _read(self, stream):
        for line in stream:
            self.queue.put(line.rstrip("\n"))

    def until(self, text: str) -> list[str]:
        """The lines up to and including the first that holds ``text``."""
        seen, deadline = [], time.monotonic() + WAIT
        while time.monotonic() < deadline:
            try:
                seen.append(self.queue.get(timeout=deadline - time.monotonic()))
            except queue.Empty:
                break
            if text in seen[-1]:
                return seen
        raise AssertionError(f"no line with {text!r} within {WAIT} s; saw {seen}")


def watching(deck: Path, out: Path) -> subprocess.Popen:
    """``cardkit watch DECK`` in a process of its own, its output line by line."""
    return subprocess.Popen(
        [sys.executable, "-m", "cardkit", "watch", str(deck), "--out", str(out)],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=out.parent,
        env={**os.environ, "PYTHONUNBUFFERED": "1"})


def test_watch_rebuilds_on_save_and_survives_a_bad_one(tmp_path):
    deck = id_deck(tmp_path / "deck", 3)
    out = tmp_path / "out"
    pdf = out / "ids" / "ids-pnp-a4.pdf"
    process = watching(deck, out)
    try:
        lines = Lines(process.stdout)
        assert lines.until("watching")[0].startswith("ids: 3 cards, 2 pages")
        assert first_card_fill(pdf) == card_colour(0)
        text = deck.read_text()

        # a change of the first card's colour shows in the PDF
        save(deck, text.replace(hex_colour(card_colour(0)), "#123456"))
        seen = lines.until("ids: 3 cards")
        assert seen[0].endswith("deck/deck.yaml changed")
        assert first_card_fill(pdf) == (0x12, 0x34, 0x56)

        # a bad save: its problem, and the last good PDF stays
        save(deck, text.replace("cards:", "cards: ["))
        seen = lines.until("nothing was written")
        assert any("deck/deck.yaml:" in line and "not valid YAML" in line for line in seen)
        assert first_card_fill(pdf) == (0x12, 0x34, 0x56)

        # a layout's change is seen too, once the deck is mended
        save(deck, text)
        lines.until("ids: 3 cards")
        assert first_card_fill(pdf) == card_colour(0)
        layout = deck.parent / "layouts" / "id-front.yaml"
        save(layout, layout.read_text().replace('fill: "{colour}"', "fill: '#abcdef'"))
        assert lines.until("ids: 3 cards")[0].endswith("id-front.yaml changed")
        assert first_card_fill(pdf) == (0xab, 0xcd, 0xef)
        assert process.poll() is None  # still watching
    finally:
        process.terminate()
        process.wait(timeout=WAIT)


def test_lock_files_and_notes_do_not_rebuild(tmp_path):
    """A spreadsheet program's lock files (LibreOffice's, Excel's) and a note beside the
    deck are not files the deck reads: writing them rebuilds nothing. The next rebuild is
    the deck's own save, and it names only the deck."""
    deck = id_deck(tmp_path / "deck", 2)
    process = watching(deck, tmp_path / "out")
    try:
        lines = Lines(process.stdout)
        lines.until("watching")
        for name in (".~lock.cards.xlsx#", "~$cards.xlsx", "notes.txt"):
            save(deck.parent / name, "locked")
        time.sleep(0.5)  # longer than a burst: a rebuild for them would come first
        save(deck, deck.read_text().replace(hex_colour(card_colour(0)), "#123456"))
        seen = lines.until("ids: 2 cards")
        assert len(seen) == 2, seen
        assert seen[0].endswith(" deck/deck.yaml changed")
    finally:
        process.terminate()
        process.wait(timeout=WAIT)


def test_watch_through_the_click_runner(tmp_path, monkeypatch):
    """In-process: the watch ends when its stop event is set (Ctrl-C, for a person)."""
    deck = id_deck(tmp_path / "deck", 2)
    stop = threading.Event()
    real = cardkit.pipeline.watch.watch
    monkeypatch.setattr(cardkit.pipeline.watch, "watch",
                        lambda *args: real(*args, stop_event=stop))
    result = {}
    runner = threading.Thread(target=lambda: result.update(outcome=CliRunner().invoke(
        main, ["watch", str(deck), "--out", str(tmp_path / "out"), "--cards", "2",
               "--preview"])))
    runner.start()
    pdf = tmp_path / "out" / "ids" / "ids-cards2-pnp-a4.pdf"
    deadline = time.monotonic() + WAIT
    while not pdf.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    save(deck, deck.read_text().replace(hex_colour(card_colour(1)), "#654321"))
    while time.monotonic() < deadline and first_card_fill(pdf) != (0x65, 0x43, 0x21):
        time.sleep(0.05)
    stop.set()
    runner.join(WAIT)
    output = result["outcome"].output.splitlines()
    assert result["outcome"].exit_code == 0
    assert output[0].startswith("ids: 1 card, 2 pages")
    assert output[1].startswith("ids: 1 card previewed -> ")
    assert output[2].startswith("watching ")
    assert output[3].endswith("deck.yaml changed")
    assert first_card_fill(pdf) == (0x65, 0x43, 0x21)
    preview = tmp_path / "out" / "ids" / "ids-preview" / "002-654321.png"
    front = Image.open(preview).convert("RGB")
    assert front.getpixel((front.width // 4, front.height // 2)) == (0x65, 0x43, 0x21)


def test_watch_refuses_a_deck_that_is_not_there(tmp_path):
    result = CliRunner().invoke(main, ["watch", str(tmp_path / "nope")])
    assert result.exit_code == 2
    assert "nope: no bundled deck or file of that name" in result.output


def test_watched_folders_are_the_decks_reach(tmp_path):
    deck = id_deck(tmp_path / "game" / "base", 1)
    assert watched_folders(deck) == sorted([deck.parent.resolve(), BUNDLED_DECKS,
                                            BUNDLED_LAYOUTS])
    (tmp_path / "game" / PROJECT_FILE).write_text("")
    assert (tmp_path / "game").resolve() in watched_folders(deck)
    assert deck.parent.resolve() not in watched_folders(deck)  # inside the project


def test_a_bug_met_while_watching_is_reported_and_the_watch_goes_on(tmp_path, monkeypatch):
    deck = id_deck(tmp_path / "deck", 1)
    calls = []

    def failing_build(*args):
        calls.append(args)
        raise RuntimeError("boom")

    def two_saves(path, out, rebuild, stop_event=None):
        rebuild([])
        rebuild(["deck/deck.yaml"])

    monkeypatch.setattr(cardkit.pipeline.build, "build_deck", failing_build)
    monkeypatch.setattr(cardkit.pipeline.watch, "watch", two_saves)
    result = CliRunner().invoke(main, ["watch", str(deck), "--out", str(tmp_path / "out")])
    assert result.exit_code == 0
    assert len(calls) == 2  # built again after the failure
    assert result.output.count("cardkit: internal error: RuntimeError('boom'). Please "
                               "report it") == 2


def test_watch_says_when_the_deck_is_gone_and_builds_it_when_it_is_back(tmp_path, monkeypatch):
    deck = id_deck(tmp_path / "deck", 1)

    def gone_and_back(path, out, rebuild, stop_event=None):
        rebuild([])
        deck.parent.rename(tmp_path / "old")
        rebuild(["deck/deck.yaml"])
        (tmp_path / "old").rename(deck.parent)
        rebuild(["deck/deck.yaml"])

    monkeypatch.setattr(cardkit.pipeline.watch, "watch", gone_and_back)
    result = CliRunner().invoke(main, ["watch", str(deck), "--out", str(tmp_path / "out")])
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert lines[3] == f"{deck}: not there now (deleted or moved away); it is built again " \
        "when it is back"
    assert lines[5].startswith("ids: 1 card, 2 pages") and len(lines) == 6


def test_a_changed_layout_is_read_again_in_the_same_process(tmp_path):
    """Layout files are read once while unchanged (a base shared by many layouts); a save
    of the same size in the same process is still seen."""
    from cardkit.deck.loader import load_deck

    deck = id_deck(tmp_path / "deck", 1)
    layout = deck.parent / "layouts" / "id-front.yaml"
    assert load_deck(deck).cards[0].front.elements[0].name == "bg"
    save(layout, layout.read_text().replace("name: bg", "name: bh"))  # same size
    assert load_deck(deck).cards[0].front.elements[0].name == "bh"


@pytest.mark.parametrize("away", ["deleted", "renamed"])
def test_a_deck_folder_made_again_is_followed(tmp_path, away):
    """Issue 37: a deck folder deleted (or moved away) and made again, as an unzip or a git
    checkout does, was no longer watched: the watch goes on in the new folder."""
    from cardkit.pipeline.watch import watch

    deck = id_deck(tmp_path / "deck", 1)
    folder = deck.parent
    new_version = shutil.copytree(folder, tmp_path / "new-version")
    (new_version / "deck.yaml").write_text(deck.read_text().replace("ids", "new ids"))
    builds: queue.Queue = queue.Queue()  # (files changed, the deck's name line read then)
    stop = threading.Event()
    watching = threading.Thread(target=watch, args=(
        deck, tmp_path / "out",
        lambda changed: builds.put((changed, deck.is_file() and deck.read_text().split("\n")[1])),
        stop))
    watching.start()

    def built_until(done) -> list:
        seen, deadline = [], time.monotonic() + WAIT
        while not (seen and done(seen[-1])):
            seen.append(builds.get(timeout=max(0.0, deadline - time.monotonic())))
        return seen

    try:
        assert builds.get(timeout=WAIT) == ([], "name: ids")
        if away == "deleted":
            shutil.rmtree(folder)
        else:
            folder.rename(tmp_path / "old-version")
        shutil.copytree(new_version, folder)
        assert built_until(lambda build: build[1] == "name: new ids")
        save(deck, deck.read_text().replace("new ids", "newer ids"))  # in the new folder
        # the save is seen in the new folder (the copy's last files may come in the same
        # build when the machine is slow: the folder is not copied in one step)
        assert str(deck.relative_to(Path.cwd()) if deck.is_relative_to(Path.cwd()) else deck) \
            in built_until(lambda build: build[1] == "name: newer ids")[-1][0]
    finally:
        stop.set()
        watching.join(WAIT)
    assert not watching.is_alive()


def test_watch_writes_the_components_again_when_their_layout_is_saved(tmp_path, monkeypatch):
    """`watch --components` writes the tuck box, token sheet and boards the deck declares
    after each build, on the --paper chosen; a save of a token's layout writes them again
    (the tokens' front turned from gold to red, read back from the PDF)."""
    deck = tmp_path / "lantern-market"
    shutil.copytree(Path(__file__).resolve().parent.parent / "examples" / "lantern-market",
                    deck)
    layout = deck / "layouts" / "token-front.yaml"

    def a_save_of_the_token_layout(path, out, rebuild, stop_event=None):
        rebuild([])
        save(layout, layout.read_text(encoding="utf-8").replace("{colour}", "#ff0000"))
        rebuild(["layouts/token-front.yaml"])

    monkeypatch.setattr(cardkit.pipeline.watch, "watch", a_save_of_the_token_layout)
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["watch", str(deck), "--out", str(out), "--cards", "1",
                                       "--components", "--paper", "a4"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert sum("tuck box for 21 cards" in line for line in lines) == 2
    assert sum(line.startswith("lantern-market: 30 tokens, 2 pages -> ") for line in lines) == 2
    assert sum("board street -> " in line for line in lines) == 2
    made = sorted(p.name for p in (out / "lantern-market").iterdir())
    assert "lantern-market-tokens-a4.pdf" in made and "lantern-market-tokens-letter.pdf" \
        not in made and "lantern-market-box-a4.pdf" in made
    image = render_page(out / "lantern-market" / "lantern-market-tokens-a4.pdf", 0, 20)
    assert (255, 0, 0) in {colour for _, colour in image.getcolors(1 << 16)}
