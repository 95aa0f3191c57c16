"""Outputs that are not cardkit's to replace (issues 46 and 47).

Every output option, given a character device (/dev/null's numbers) or a FIFO: a file the user
named (``diff --sheet FILE``) is written into as a stream and the node is still there
afterwards; a file inside an output folder, which a deck may have shipped (issue 54), and a
folder output are refused with exit code 2. A symbolic link the user named is written
through; one inside an output folder is refused and what it points to is left as it was. A
report folder that gained files while the games were played keeps them, and a report that
cannot be written exits 2, in every mode of ``cardkit simulate``.

Making a device node needs root. Elsewhere those tests are skipped, each by name; CI runs as
root and sets CARDKIT_DEVICE_TESTS=required, so there a device it cannot make fails them.
"""

from __future__ import annotations

import errno
import os
import select
import socket
import stat
import threading
from pathlib import Path

import pytest
from click.testing import CliRunner

from cardkit.cli import main
from cardkit.playtest import report, report_runs, skill

from conftest import id_deck

DEV_NULL = os.makedev(1, 3)


@pytest.fixture(scope="module")
def deck_folder(tmp_path_factory) -> Path:
    """A folder of two decks: 'old', of one card, and 'new', the same with a second card."""
    folder = tmp_path_factory.mktemp("decks")
    id_deck(folder / "old", 1)
    id_deck(folder / "new", 2)
    return folder


@pytest.fixture
def decks(deck_folder, monkeypatch) -> tuple[str, str]:
    """The decks of :func:`deck_folder` as named from the folder they are in (the
    current one, so that a reprint's name says 'old')."""
    monkeypatch.chdir(deck_folder)
    return "old", "new"


def run(*args) -> tuple[int, str]:
    outcome = CliRunner().invoke(main, [str(a) for a in args])
    return outcome.exit_code, outcome.output


def make_device(path: Path, request) -> None:
    """A character device with /dev/null's numbers at ``path``; skipped (failed in CI)
    where this process cannot make one or the file system does not open devices."""
    try:
        os.mknod(path, stat.S_IFCHR | 0o666, DEV_NULL)
        os.close(os.open(path, os.O_WRONLY))
    except PermissionError as error:
        path.unlink(missing_ok=True)
        message = f"{request.node.name}: cannot make a device node here ({error.strerror}: " \
            "it needs root, on a file system that opens devices)"
        if os.environ.get("CARDKIT_DEVICE_TESTS") == "required":
            pytest.fail(message + ", and CI requires it")
        pytest.skip(message + ", skipped")


class FifoReader:
    """Reads what is written into the FIFO at ``path`` on a thread, so a writer never
    blocks; ``read()`` stops it and gives the bytes."""

    def __init__(self, path: Path):
        os.mkfifo(path)
        # opened for reading without waiting for a writer, then for writing, and held open:
        # whatever opens it later does not wait for a partner (a regression that opens
        # it to remove it, as the old code's rmtree did, then fails instead of hanging)
        self.fd, self.chunks = os.open(path, os.O_RDONLY | os.O_NONBLOCK), []
        self.writer = os.open(path, os.O_WRONLY | os.O_NONBLOCK)
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._drain)
        self.thread.start()

    def _drain(self) -> None:
        while True:
            finishing = self.done.is_set()
            while select.select([self.fd], [], [], 0.02)[0]:
                self.chunks.append(os.read(self.fd, 1 << 16))
            if finishing:
                return
            self.done.wait(0.02)

    def read(self) -> bytes:
        self.done.set()
        self.thread.join(timeout=10)
        os.close(self.writer)
        os.close(self.fd)
        return b"".join(self.chunks)


# (command line, where the output goes, what a file written there starts with; None: a
# folder, refused). {old} {new} {out} are filled in.
COVER_NOTE = "ids-changes-since-old-cards-bleed0mm-rgb-cover-note.txt"
OUTPUTS = {
    "build": (["build", "{new}", "--out", "{out}"], "ids/ids-pnp-a4.pdf", b"%PDF-"),
    "build --changed-since": (["build", "{new}", "--changed-since", "{old}", "--out", "{out}"],
                              "ids/ids-changes-since-old-pnp-a4.pdf", b"%PDF-"),
    "export --to pdf": (["export", "{new}", "--to", "pdf", "--out", "{out}"],
                        "ids/ids-cards-bleed0mm-rgb.pdf", b"%PDF-"),
    "export's cover note": (["export", "{new}", "--to", "pdf", "--changed-since", "{old}",
                             "--out", "{out}"], f"ids/{COVER_NOTE}", b"ids: the cards that changed"),
    "calibrate": (["calibrate", "--out", "{out}"], "calibration/calibration-a4-long.pdf",
                  b"%PDF-"),
    "diff --sheet pdf": (["diff", "{old}", "{new}", "--sheet", "{out}/sheet.pdf"],
                         "sheet.pdf", b"%PDF-"),
    "diff --sheet png": (["diff", "{old}", "{new}", "--sheet", "{out}/sheet.png"],
                         "sheet.png", b"\x89PNG"),
    "--out": (["build", "{new}", "--out", "{out}/given"], "given", None),
    "export --to png": (["export", "{new}", "--to", "png", "--out", "{out}"],
                        "ids/ids-png-300dpi-bleed0mm", None),
    "export --to tts": (["export", "{new}", "--to", "tts", "--out", "{out}"], "ids/ids-tts",
                        None),
    "preview": (["preview", "{new}", "--out", "{out}"], "ids/ids-preview", None),
    "simulate --report": (["simulate", "rise-up", "--games", "1", "--workers", "1",
                           "--report", "{out}/report"], "report", None),
    "new": (["new", "{out}/my-game"], "my-game", None),
}


# the file outputs the user names on the command line: the others are inside an output folder
USERS_OWN = ("diff --sheet pdf", "diff --sheet png")


def _command(name: str, decks, out: Path) -> tuple[list[str], Path, bytes | None]:
    args, where, starts = OUTPUTS[name]
    old, new = decks
    return [a.format(old=old, new=new, out=out) for a in args], out / where, starts


@pytest.mark.parametrize("node", ["device", "fifo"])
@pytest.mark.parametrize("name", list(OUTPUTS))
def test_an_output_that_names_a_device_or_a_fifo_is_never_replaced(tmp_path, decks, request,
                                                                   name, node):
    """A file output the user named is written into the node (what a FIFO's reader gets
    is the whole file); one inside an output folder, and a folder output, are refused with
    exit 2, the node never opened. The node is still the node."""
    args, where, starts = _command(name, decks, tmp_path / "out")
    where.parent.mkdir(parents=True, exist_ok=True)
    reader = None
    if node == "device":
        make_device(where, request)
    else:
        reader = FifoReader(where)
    code, out = run(*args)
    received = reader.read() if reader else None
    details = os.lstat(where)
    if node == "device":
        assert stat.S_ISCHR(details.st_mode) and details.st_rdev == DEV_NULL
    else:
        assert stat.S_ISFIFO(details.st_mode)
    if starts is None or name not in USERS_OWN:
        assert code == 2, out
        assert "Traceback" not in out and where.name in out, out
        assert received in (None, b"")
    else:
        assert code == 0, out
        assert received is None or received.startswith(starts), received[:40]
        assert not [p.name for p in where.parent.iterdir() if p.name.startswith(".")]


@pytest.mark.parametrize("name", ["build", "diff --sheet pdf", "export --to tts"])
def test_an_output_that_names_a_socket_is_refused(tmp_path, decks, name):
    args, where, _ = _command(name, decks, tmp_path / "o")
    where.parent.mkdir(parents=True, exist_ok=True)
    with socket.socket(socket.AF_UNIX) as listening:
        listening.bind(str(where))
        code, out = run(*args)
        assert stat.S_ISSOCK(os.lstat(where).st_mode)
    assert code == 2, out
    assert f"{where.name}: it is a socket" in out, out
    assert "remove it, or give" in out


@pytest.mark.parametrize("name", ["build", "diff --sheet pdf", "preview"])
def test_a_symbolic_link_is_written_through_only_where_the_user_named_it(tmp_path, decks, name):
    """The user's own file: the link stays a link; what it points to is replaced by the new
    output. Inside an output folder: refused with exit 2 naming the link, which stays, and
    what it points to is unchanged."""
    args, where, starts = _command(name, decks, tmp_path / "out")
    where.parent.mkdir(parents=True, exist_ok=True)
    target = tmp_path / "elsewhere" / "target"
    if starts:
        target.parent.mkdir()
        target.write_bytes(b"old")
    else:
        target.mkdir(parents=True)
        (target / "old.png").write_bytes(b"old")
    where.symlink_to(target)
    code, out = run(*args)
    assert where.is_symlink() and where.readlink() == target
    if name not in USERS_OWN:
        assert code == 2, out
        assert f"{where.name}: it is a symbolic link, which cardkit never follows" in out
        assert (target.read_bytes() if starts else (target / "old.png").read_bytes()) == b"old"
        assert sorted(p.name for p in target.parent.iterdir()) == ["target"]
        return
    assert code == 0, out
    if starts:
        assert target.read_bytes().startswith(starts)
    else:
        assert sorted(p.name for p in target.iterdir()) == ["001-0a141e.png", "002-0b1b2b.png",
                                                             "contact-sheet.png"]
    assert sorted(p.name for p in where.parent.iterdir()) == [where.name]
    assert sorted(p.name for p in target.parent.iterdir()) == ["target"]


# -- the report folder of each mode of `cardkit simulate` -----------------------------------

MODES = {
    "plain": [],
    "compare": ["--compare", "blofa"],
    "sweep": ["--sweep", "bluff_rate=0,0.5", "--bots", "heuristic"],
    "skill": ["--skill"],
}


@pytest.fixture
def quick_reports(monkeypatch):
    """The report pages without their plots, and a skill ladder of two rungs: these tests
    are of the folder, not of what the pages show."""
    monkeypatch.setattr(report, "_page", lambda *args: "<html>a report</html>")
    for page in ("_compare_page", "_sweep_page", "_skill_page"):
        monkeypatch.setattr(report_runs, page, lambda *args: "<html>a report</html>")
    monkeypatch.setattr(skill, "SEARCH_BUDGETS", ())


@pytest.mark.parametrize("mode", list(MODES))
def test_a_file_saved_into_the_report_folder_during_the_run_stays(tmp_path, monkeypatch,
                                                                  quick_reports, mode):
    """The folder is new when the run starts; the user saves notes into it while the
    games are played. The notes stay, the new report is kept beside, and exit 2 says
    where."""
    folder = tmp_path / "report"
    import cardkit.cli.compare_run as compare_run
    import cardkit.cli.simulate as simulate
    import cardkit.cli.sweep_run as sweep_run

    real_progress = simulate.progress_bar

    class SavedMeanwhile:
        def __init__(self, length):
            self.bar = real_progress(length)

        def __enter__(self):
            return self.bar.__enter__()

        def __exit__(self, *exc):
            folder.mkdir(exist_ok=True)
            (folder / "notes.txt").write_text("my notes")
            return self.bar.__exit__(*exc)

    for module in (simulate, compare_run, sweep_run):  # --compare's and --sweep's runs
        # are in modules of their own
        monkeypatch.setattr(module, "progress_bar", SavedMeanwhile)
    code, out = run("simulate", "blofa", "--games", 2, "--workers", 1, "--report", folder,
                    *MODES[mode])
    assert code == 2, out
    assert (folder / "notes.txt").read_text() == "my notes"
    assert sorted(p.name for p in folder.iterdir()) == ["notes.txt"]
    kept = tmp_path / "report-2"
    assert "it holds files that are not a report's (notes.txt)" in out
    assert "the new report is in" in out and str(kept) in out, out
    assert (kept / "report.html").read_text() == "<html>a report</html>"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report", "report-2"]


@pytest.mark.parametrize("mode", list(MODES))
def test_a_report_on_a_full_disk_exits_2_in_every_mode(tmp_path, monkeypatch, quick_reports,
                                                        mode):
    real_write = Path.write_text

    def full(path, *args, **kwargs):
        if path.name == "summary.json":
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(path))
        return real_write(path, *args, **kwargs)

    monkeypatch.setattr(Path, "write_text", full)
    folder = tmp_path / "report"
    code, out = run("simulate", "blofa", "--games", 2, "--workers", 1, "--report", folder,
                    *MODES[mode])
    assert code == 2, out
    assert "Traceback" not in out
    assert "summary.json: the disk is full" in out
    assert "give --report a folder on another disk" in out
    assert list(tmp_path.iterdir()) == []  # nothing half-written left
