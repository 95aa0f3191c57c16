"""A shared deck's own folder is not a place to write through (issue 54, items 1-4, 8, 12).

A deck may ship ``output/`` and ``.cardkit-cache/`` holding symbolic links, FIFOs or
devices. Below the output folder (and below the deck's folder, when the output is inside it)
cardkit follows and opens none of them: the command exits 2 naming the path, and what a
link points to outside the deck is byte for byte what it was. A deck value that becomes part
of a file name (its version, a variant's name or option) cannot climb out of ``--out``.

Commands that could hang on a FIFO run in a subprocess with a timeout, so a regression fails
instead of hanging the suite. Sheet links are in test_links.py.
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner

from cardkit.cli import main
from cardkit.common.atomic import NotReplaced, atomic_folder, atomic_path, output_root
from cardkit.pipeline.pack import write_zip
from conftest import id_deck


def run(*args) -> tuple[int, str]:
    outcome = CliRunner().invoke(main, [str(a) for a in args])
    return outcome.exit_code, outcome.output


def run_process(*args, cwd: Path, timeout: float = 60) -> tuple[int, str]:
    done = subprocess.run([sys.executable, "-m", "cardkit", *map(str, args)], cwd=cwd,
                          capture_output=True, text=True, timeout=timeout)
    return done.returncode, done.stdout + done.stderr


@pytest.fixture
def deck(tmp_path, monkeypatch) -> Path:
    """A one-card deck 'ids' in tmp_path/deck, the folder cardkit runs in, as a deck's
    comments suggest (``cardkit build .``)."""
    folder = tmp_path / "deck"
    id_deck(folder, 1)
    monkeypatch.chdir(folder)
    return folder


@pytest.fixture
def outside(tmp_path) -> Path:
    """A folder outside the deck standing in for the user's home: a file and a folder."""
    home = tmp_path / "home"
    (home / "documents").mkdir(parents=True)
    (home / "documents" / "letter.txt").write_bytes(b"dear friend")
    (home / ".bashrc").write_bytes(b"export PATH=/usr/bin\n")
    return home


def snapshot(folder: Path) -> dict:
    """Every entry under ``folder`` and its bytes: what must not change."""
    return {p.relative_to(folder).as_posix(): (p.read_bytes() if p.is_file() else None)
            for p in sorted(folder.rglob("*"))}


def test_pack_never_replaces_a_folder_a_link_in_the_output_points_to(deck, outside):
    """Finding 1: output/DECK/DECK-entry as a link to the user's home."""
    before = snapshot(outside)
    (deck / "output" / "ids").mkdir(parents=True)
    (deck / "output" / "ids" / "ids-entry").symlink_to(outside)
    code, out = run("pack", ".")
    assert code == 2, out
    assert "output/ids/ids-entry: it is a symbolic link, which cardkit never follows" in out
    assert "remove it" in out and "Traceback" not in out
    assert snapshot(outside) == before
    assert os.readlink(deck / "output" / "ids" / "ids-entry") == str(outside)
    assert sorted(p.name for p in (deck / "output" / "ids").iterdir()) == ["ids-entry"]


@pytest.mark.parametrize("where", ["output/ids/ids-pnp-a4.pdf", "output/ids", "output"])
def test_build_never_writes_through_a_link_the_deck_ships(deck, outside, where):
    """Finding 3: the PDF, the deck's subfolder or the output folder itself (in the
    deck's folder, the default output/ is the deck's) as a link out of the deck."""
    target = outside / ".bashrc" if where.endswith(".pdf") else outside
    before = snapshot(outside)
    link = deck / where
    link.parent.mkdir(parents=True, exist_ok=True)
    link.symlink_to(target)
    code, out = run("build", ".")
    assert code == 2, out
    assert f"{where}: it is a symbolic link, which cardkit never follows" in out
    assert snapshot(outside) == before
    assert link.is_symlink()


def test_a_link_below_an_output_folder_the_user_named_is_refused_too(tmp_path, deck, outside):
    """--out elsewhere: the folder is the user's, but what is in it may be a deck's
    unpacked output; the folder itself may be a link of the user's, and is followed."""
    before = snapshot(outside)
    out = tmp_path / "prints"
    (out / "ids").mkdir(parents=True)
    (out / "ids" / "ids-pnp-a4.pdf").symlink_to(outside / ".bashrc")
    code, text = run("build", ".", "--out", out)
    assert code == 2, text
    assert "ids-pnp-a4.pdf: it is a symbolic link" in text
    assert snapshot(outside) == before
    real = tmp_path / "real-prints"
    real.mkdir()
    (tmp_path / "linked").symlink_to(real)
    code, text = run("build", ".", "--out", tmp_path / "linked")
    assert code == 0, text
    assert (real / "ids" / "ids-pnp-a4.pdf").read_bytes().startswith(b"%PDF-")


@pytest.mark.parametrize("where", ["output/ids/ids-pnp-a4.pdf", "output/ids/ids-packed.json"])
def test_a_fifo_in_the_output_is_refused_not_opened(deck, where):
    """Finding 8: build (and pack, which reads its history first) would block for ever on
    a FIFO no one writes to; refused before anything is made, and still a FIFO."""
    fifo = deck / where
    fifo.parent.mkdir(parents=True)
    os.mkfifo(fifo)
    command = "pack" if where.endswith(".json") else "build"
    code, out = run_process(command, ".", cwd=deck)
    assert code == 2, out
    assert f"{where}: it is a FIFO (named pipe), which cardkit never follows or opens" in out
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert [p.name for p in fifo.parent.iterdir()] == [fifo.name]


@pytest.mark.parametrize("version", ["/../../elsewhere/x", "1.0/../../x", "a\\b", "..",
                                     "1.0\x1b[2J"])
def test_a_version_that_is_no_file_name_part_is_refused_at_its_line(tmp_path, deck, version):
    """Finding 4: pack wrote its folder and zip outside --out, with '../' in the zip."""
    text = (deck / "deck.yaml").read_text().replace("name: ids\n", "name: ids\nversion: "
                                                    + json.dumps(version) + "\n")
    (deck / "deck.yaml").write_text(text)
    for command in ("validate", "pack"):
        code, out = run(command, ".", "--out", tmp_path / "out") if command == "pack" \
            else run(command, ".")
        assert code == 2, out
        assert "deck.yaml:3:10: the version" in out and "is part of file names" in out, out
        assert "write the version without '/', '\\', '..' or control characters" in out
        assert out.count("is part of file names") == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["deck"]


def test_a_variant_name_is_a_file_name_part(deck):
    text = (deck / "deck.yaml").read_text() + \
        "variants:\n  players:\n    '../../x': {colour: ['#0a141e']}\n"
    (deck / "deck.yaml").write_text(text)
    code, out = run("build", ".", "--variant", "players=../../x")
    assert code == 2, out
    assert "a variant's option '../../x' is part of file names" in out
    assert not (deck / "output").exists()


def test_the_zip_writer_refuses_a_member_name_that_climbs_out(tmp_path):
    (tmp_path / "a.txt").write_text("a")
    for top in ("../x", "/x", "x/../.."):
        with pytest.raises(ValueError, match="cannot be a zip member"):
            write_zip(tmp_path / "out.zip", tmp_path, top, ["a.txt"])
    write_zip(tmp_path / "out.zip", tmp_path, "x-1.0-entry", ["a.txt"])
    assert zipfile.ZipFile(tmp_path / "out.zip").namelist() == ["x-1.0-entry/a.txt"]


@pytest.mark.parametrize("history", ["{not json", '[{"cards": [1]}]', '{"a": 1}',
                                     '[{"version": 1, "cards": []}]', "\xff\xfe"])
def test_a_damaged_pack_history_is_a_warning_and_starts_afresh(tmp_path, history):
    """Finding 12: 'internal error' after the whole entry was made."""
    deck = id_deck(tmp_path / "deck", 1)
    out = tmp_path / "out"
    (out / "ids").mkdir(parents=True)
    (out / "ids" / "ids-packed.json").write_bytes(history.encode("latin-1"))
    code, text = run("pack", deck, "--out", out)
    assert code == 0, text
    assert "ids-packed.json: the history of the versions packed is damaged" in text
    assert "Changes\n- the first packed version" in \
        (out / "ids" / "ids-entry" / "ids-components-and-changes.txt").read_text()
    saved = json.loads((out / "ids" / "ids-packed.json").read_text())
    assert [entry["version"] for entry in saved] == [""]


# -- the writer itself ----------------------------------------------------------------------


def test_output_root_is_the_deck_folder_when_the_output_is_inside_it(tmp_path, monkeypatch):
    deck = tmp_path / "deck"
    (deck / "sub").mkdir(parents=True)
    (tmp_path / "via").symlink_to(deck)
    monkeypatch.chdir(deck)
    assert output_root(Path("output"), deck / "deck.yaml") == deck
    assert output_root(tmp_path / "via" / "sub" / "out", deck) == tmp_path / "via"
    assert output_root(tmp_path / "out", deck) == tmp_path / "out"
    assert output_root(Path("output")) == deck / "output"


@pytest.mark.parametrize("planted", ["link", "fifo", "file where a folder goes"])
def test_the_writer_refuses_what_is_planted_between_the_root_and_the_output(tmp_path,
                                                                            planted):
    root, outside = tmp_path / "root", tmp_path / "outside"
    root.mkdir()
    outside.mkdir()
    middle = root / "a"
    if planted == "link":
        middle.symlink_to(outside)
    elif planted == "fifo":
        os.mkfifo(middle)
    else:
        middle.write_bytes(b"x")
    for writer in (atomic_path, atomic_folder):
        with pytest.raises(NotReplaced) as refused:
            with writer(root / "a" / "b" / "c", under=root) as temporary:
                Path(temporary).mkdir(exist_ok=True)
        assert refused.value.filename == str(middle)
    assert list(outside.iterdir()) == []


def test_a_link_planted_under_the_temporarys_name_is_not_written_through(tmp_path):
    root = tmp_path / "root"
    root.mkdir()
    (tmp_path / "secret").write_bytes(b"secret")
    (root / f".out.txt.{os.getpid()}.part").symlink_to(tmp_path / "secret")
    for under in (root, None):
        with atomic_path(root / "out.txt", under=under) as temporary:
            temporary.write_bytes(b"new")
        assert (root / "out.txt").read_bytes() == b"new"
    assert (tmp_path / "secret").read_bytes() == b"secret"
    assert sorted(p.name for p in root.iterdir()) == ["out.txt"]


def test_the_writer_refuses_a_path_outside_its_root(tmp_path):
    with pytest.raises(NotReplaced, match="not inside"):
        with atomic_path(tmp_path / "root" / ".." / "x", under=tmp_path / "root"):
            pass
    assert not (tmp_path / "x").exists()
