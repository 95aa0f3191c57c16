"""A git revision of a deck read for ``diff`` and ``--changed-since`` (issue 37): no command
the repository's configuration names runs, and only the deck's own folder is read, within
the limits of a deck's files, into a temporary copy that goes however the command ends."""

from __future__ import annotations

import os
import subprocess
import tempfile
import tracemalloc
from pathlib import Path

import pytest

from cardkit.sources import revision
from cardkit.sources.revision import checked_out

from test_changes import git, small_deck
from test_stamps import run

CARDS = [("Ant", "Small.", 1, ""), ("Bee", "Busy.", 2, "")]
# every key of git's configuration that names a command, each leaving its own marker
COMMANDS = ["filter.evil.clean", "filter.evil.smudge", "filter.evil.process",
            "diff.evil.textconv", "diff.evil.command", "diff.external", "core.fsmonitor",
            "core.pager", "pager.cat-file", "pager.ls-tree", "core.sshCommand",
            "core.editor", "core.askPass", "core.alternateRefsCommand", "gpg.program",
            "credential.helper", "sequence.editor", "uploadpack.packObjectsHook",
            "remote.origin.uploadpack", "alias.rev-parse", "include-marker"]
HOOKS = ["post-checkout", "pre-commit", "reference-transaction", "post-index-change",
         "fsmonitor-watchman", "pre-auto-gc", "post-rewrite"]


def repository(folder: Path, cards=CARDS) -> Path:
    """A repository holding the small deck in games/small, its first version committed
    and tagged v1; the deck's working copy then has one card's text changed."""
    deck = small_deck(folder / "games" / "small", cards)
    git(folder, "init", "-q")
    git(folder, "add", ".")
    git(folder, "commit", "-qm", "v1")
    git(folder, "tag", "v1")
    deck.write_text(deck.read_text().replace("Busy.", "Busier."))
    return deck


def hostile(git_dir: Path, markers: Path) -> None:
    """Every command-valued key of ``git_dir``'s configuration set to a script leaving a
    marker, its hooks too, an included file with one more, and every file filtered and
    diffed by them; a promisor remote whose fetch would run its upload-pack command."""
    markers.mkdir()
    hooks = markers / "hooks"
    hooks.mkdir()
    for name in COMMANDS + HOOKS:
        script = (hooks if name in HOOKS else markers) / f"{name}.sh"
        passes = "cat" if name.startswith(("filter", "diff.evil.textconv")) else "exit 1"
        script.write_text(f"#!/bin/sh\ntouch {markers}/ran-{name}\n{passes}\n")
        script.chmod(0o755)
    included = markers / "included.config"
    included.write_text(f"[core]\n\tfsmonitor = {markers}/include-marker.sh\n")
    lines = ["[core]", f"\thooksPath = {hooks}", "\trepositoryformatversion = 1",
             "[extensions]", "\tpartialClone = origin",
             "[remote \"origin\"]", f"\turl = {git_dir}", "\tpromisor = true",
             "[include]", f"\tpath = {included}"]
    config = git_dir / "config"
    config.write_text(config.read_text().replace("repositoryformatversion = 0", "") + "\n"
                      + "\n".join(lines) + "\n")
    for key in COMMANDS[:-1]:
        section, _, name = key.rpartition(".")
        value = f"!{markers}/{key}.sh" if section in ("alias", "credential") else \
            f"{markers}/{key}.sh"
        subprocess.run(["git", "config", "--file", str(config), key, value], check=True)
    (git_dir / "info").mkdir(exist_ok=True)
    (git_dir / "info" / "attributes").write_text("* filter=evil diff=evil\n")


def markers_left(markers: Path) -> list[str]:
    return sorted(path.name for path in markers.glob("ran-*"))


def test_no_command_the_repository_s_configuration_names_runs(tmp_path):
    deck = repository(tmp_path / "repo")
    (tmp_path / "repo" / ".gitattributes").write_text("* filter=evil diff=evil\n")
    hostile(tmp_path / "repo" / ".git", tmp_path / "markers")
    output = run("diff", "v1", deck)
    assert "changed  Bee" in output and "1 changed, 0 added" in output
    assert markers_left(tmp_path / "markers") == []
    # git's porcelain runs them: the markers do tell (the included file's monitor wins)
    subprocess.run(["git", "-C", str(tmp_path / "repo"), "status"], capture_output=True)
    assert {"ran-include-marker", "ran-filter.evil.process"} <= \
        set(markers_left(tmp_path / "markers"))


def test_a_missing_blob_of_a_partial_clone_is_not_fetched(tmp_path):
    deck = repository(tmp_path / "repo")
    top = tmp_path / "repo"
    # a commit whose deck folder holds a file whose contents the repository lacks
    missing = subprocess.run(["git", "hash-object", "--stdin"], input=b"not here",
                             capture_output=True, check=True).stdout.decode().strip()
    listing = subprocess.run(["git", "-C", str(top), "ls-tree", "HEAD:games/small"],
                             capture_output=True, check=True, text=True).stdout
    tree = subprocess.run(["git", "-C", str(top), "mktree", "--missing"], check=True,
                          input=listing + f"100644 blob {missing}\tgone.txt\n",
                          capture_output=True, text=True).stdout.strip()
    games = subprocess.run(["git", "-C", str(top), "mktree"], check=True, text=True,
                           input=f"040000 tree {tree}\tsmall\n",
                           capture_output=True).stdout.strip()
    root = subprocess.run(["git", "-C", str(top), "mktree"], check=True, text=True,
                          input=f"040000 tree {games}\tgames\n",
                          capture_output=True).stdout.strip()
    commit = subprocess.run(["git", "-C", str(top), "-c", "user.name=t", "-c",
                             "user.email=t@t", "commit-tree", "-m", "partial", root],
                            check=True, capture_output=True, text=True).stdout.strip()
    hostile(top / ".git", tmp_path / "markers")
    said = run("diff", commit, deck, code=2)
    assert f"{commit}:games/small/gone.txt: this file's contents are not in the " \
           "repository" in said
    assert markers_left(tmp_path / "markers") == []


def test_a_git_file_naming_the_repository_and_a_core_worktree_elsewhere(tmp_path):
    """The repository is the folder holding ``.git``, here a file naming the real one (as
    a linked work tree has); its ``core.worktree`` is not followed."""
    top = tmp_path / "repo"
    deck = small_deck(top / "games" / "small", CARDS)
    subprocess.run(["git", "init", "-q", "--separate-git-dir", str(tmp_path / "store"),
                    str(top)], check=True)
    git(top, "add", ".")
    git(top, "commit", "-qm", "v1")
    assert (top / ".git").is_file()
    deck.write_text(deck.read_text().replace("Busy.", "Busier."))
    hostile(tmp_path / "store", tmp_path / "markers")
    elsewhere = small_deck(tmp_path / "other" / "games" / "small", [("Cat", "Other.", 1, "")])
    subprocess.run(["git", "config", "--file", str(tmp_path / "store" / "config"),
                    "core.worktree", str(elsewhere.parents[2])], check=True)
    output = run("diff", "HEAD", deck)
    assert "changed  Bee" in output and "Cat" not in output
    assert markers_left(tmp_path / "markers") == []


@pytest.fixture
def spied(monkeypatch):
    """The blobs read from git, by path."""
    asked = []
    blobs = revision.Git.blobs

    def spy(self, entries, label):
        asked.extend(entry.path for entry in entries)
        yield from blobs(self, entries, label)

    monkeypatch.setattr(revision.Git, "blobs", spy)
    return asked


def test_only_the_deck_s_folder_is_read_and_a_big_file_not_at_all(tmp_path, monkeypatch,
                                                                   spied):
    top = tmp_path / "repo"
    deck = small_deck(top / "games" / "small", CARDS)
    (top / "games" / "small" / "art.png").write_bytes(b"\0" * 3000)  # over the limit below
    (top / "big.bin").write_bytes(b"\0" * 10_000_000)
    git(top, "init", "-q")
    git(top, "add", ".")
    # many files elsewhere in the repository, entered straight into the index
    empty = subprocess.run(["git", "-C", str(top), "hash-object", "-w", "--stdin"],
                           input=b"", capture_output=True, check=True).stdout.decode().strip()
    subprocess.run(["git", "-C", str(top), "update-index", "--index-info"], check=True,
                   input="".join(f"100644 {empty}\tmany/{i}.txt\n" for i in range(2000)).encode())
    git(top, "commit", "-qm", "v1")
    monkeypatch.setattr(revision, "MAX_FILE", 2000)
    tracemalloc.start()
    try:
        with checked_out("HEAD", deck) as old:
            _, peak = tracemalloc.get_traced_memory()
            copy = old.parent
            assert (copy / "art.png").stat().st_size == 3000  # sparse: its size, no bytes
            assert sorted(path.name for path in copy.iterdir()) == \
                ["art.png", "deck.yaml", "layouts"]
    finally:
        tracemalloc.stop()
    assert peak < 3_000_000, peak  # the 10 MB blob elsewhere is never in memory
    assert sorted(spied) == ["deck.yaml", "layouts/back.yaml", "layouts/plain.yaml"]
    assert not copy.exists()


def test_a_deck_folder_of_too_many_files_is_refused(tmp_path, monkeypatch):
    deck = repository(tmp_path / "repo")
    for i in range(4):
        (deck.parent / f"note{i}.txt").write_text("x")
    git(tmp_path / "repo", "add", ".")
    git(tmp_path / "repo", "commit", "-qm", "notes")
    monkeypatch.setattr(revision, "MAX_FILES", 5)
    said = run("diff", "HEAD", deck, code=2)
    assert "HEAD:games/small: the deck's folder holds more than 5 files" in said


def test_the_copy_goes_when_the_command_is_stopped(tmp_path, monkeypatch):
    deck = repository(tmp_path / "repo")
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "temp"))
    (tmp_path / "temp").mkdir()

    def stopped(stream, size):
        raise KeyboardInterrupt
        yield

    monkeypatch.setattr(revision, "_chunks", stopped)
    with pytest.raises(KeyboardInterrupt):
        with checked_out("v1", deck):
            pass
    monkeypatch.undo()
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "temp"))
    with pytest.raises(KeyboardInterrupt):
        with checked_out("v1", deck) as old:
            assert old.read_text().count("Busy.") == 1
            raise KeyboardInterrupt
    assert list((tmp_path / "temp").iterdir()) == []


def test_a_copy_left_by_a_killed_run_is_removed_by_the_next(tmp_path, monkeypatch):
    """kill -9 runs no `finally`: the next run removes the copies of processes gone, and
    keeps those of a run still going."""
    deck = repository(tmp_path / "repo")
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "temp"))
    gone = subprocess.Popen(["true"])
    gone.wait()
    (tmp_path / "temp" / f"cardkit-old-{gone.pid}-abc" / "deck").mkdir(parents=True)
    (tmp_path / "temp" / f"cardkit-old-{os.getppid()}-def").mkdir()
    with checked_out("v1", deck):
        pass
    assert [p.name for p in (tmp_path / "temp").iterdir()] == [f"cardkit-old-{os.getppid()}-def"]


def test_links_that_lead_out_of_the_copy_are_left_out(tmp_path):
    top = tmp_path / "repo"
    deck = small_deck(top / "games" / "small", CARDS)
    folder = deck.parent
    (folder / "a" / "b").mkdir(parents=True)
    (folder / "a" / "b" / "up").symlink_to("..")  # to a: inside
    (folder / "inside").symlink_to("layouts/plain.yaml")
    (folder / "absolute").symlink_to("/etc/hostname")
    (folder / "above").symlink_to("../../..")
    (folder / "through").symlink_to("a/b/up/../..")  # lexically inside, really above it
    git(top, "init", "-q")
    git(top, "add", ".")
    git(top, "commit", "-qm", "links")
    with checked_out("HEAD", deck) as old:
        copy = old.parent
        kept = sorted(str(path.relative_to(copy)) for path in copy.rglob("*")
                      if path.is_symlink())
        assert kept == ["a/b/up", "inside"]
        assert (copy / "inside").read_text() == (folder / "layouts" / "plain.yaml").read_text()
