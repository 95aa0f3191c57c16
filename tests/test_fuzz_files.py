"""Fuzzing the files a deck brings: real spreadsheets (CSV, XLSX, ODS), fonts (TTF), SVG
art and icons, and images (PNG, JPG), damaged at the byte level (bits flipped, bytes
overwritten, inserted or cut, runs repeated, the file cut short), must still end with exit
0, or with exit 2 and a message naming the problem: never an internal error, a traceback, a
crash or a hang. And ``validate`` must refuse whatever ``build`` refuses.

The deck is the Lantern Market example with a PNG and a JPG beside its SVG art, in three
copies whose cards come from CSV, XLSX (openpyxl) and ODS (odfpy). ``make test`` runs
ten examples; ``make fuzz`` a few thousand (CARDKIT_FUZZ_EXAMPLES).
"""

from __future__ import annotations

import csv
import os
import shutil
import signal
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st
from PIL import Image

from cardkit.cli import main
from cardkit.sources.files import ROOT
from conftest import PATIENCE
from test_spreadsheets import write_ods, write_xlsx

EXAMPLES = int(os.environ.get("CARDKIT_FUZZ_EXAMPLES", "10"))
EXAMPLE = ROOT / "examples" / "lantern-market"
SECONDS = 20  # of CPU time, for validate and build of one mutated deck: more is a hang
KINDS = ("csv", "xlsx", "ods")
PHOTO = """
  - {name: photo, kind: image, box: [45mm, 42mm, 8mm, 5mm], image: art/photo.png}
  - {name: snapshot, kind: image, box: [36mm, 42mm, 8mm, 5mm], image: art/photo.jpg}
"""


def _deck(folder: Path, kind: str) -> Path:
    """The example, its cards in a spreadsheet of ``kind``, with a PNG and a JPG drawn."""
    shutil.copytree(EXAMPLE, folder)
    text = (folder / "deck.yaml").read_text(encoding="utf-8")
    (folder / "deck.yaml").write_text(text.replace("from: cards.csv", f"from: cards.{kind}"),
                                      encoding="utf-8")
    with open(folder / "cards.csv", newline="", encoding="utf-8") as file:
        rows = [[int(cell) if cell.isdigit() else cell or None for cell in row]
                for row in csv.reader(file)]
    if kind == "xlsx":
        write_xlsx(folder / "cards.xlsx", {"Cards": rows})
    elif kind == "ods":
        write_ods(folder / "cards.ods", {"Cards": rows})
    layout = folder / "layouts" / "market-card.yaml"
    layout.write_text(layout.read_text(encoding="utf-8") + PHOTO.lstrip("\n"), encoding="utf-8")
    picture = Image.radial_gradient("L").convert("RGB").resize((96, 60))
    picture.save(folder / "art" / "photo.png")
    picture.save(folder / "art" / "photo.jpg", quality=80)
    return folder / "deck.yaml"


@pytest.fixture(scope="module")
def decks(tmp_path_factory) -> dict[str, Path]:
    base = tmp_path_factory.mktemp("fuzz-files")
    made = {kind: _deck(base / kind, kind) for kind in KINDS}
    for deck in made.values():  # the unmutated decks are sound
        assert CliRunner().invoke(main, ["validate", str(deck)]).exit_code == 0
    return made


def _targets(kind: str) -> list[str]:
    return [f"cards.{kind}", "fonts/GenBasR.ttf", "fonts/GenBasB.ttf", "art/stall.svg",
            "icons/coin.svg", "art/photo.png", "art/photo.jpg"]


@st.composite
def damaged(draw, data: bytes) -> bytes:
    """``data`` with one to four byte-level changes."""
    data = bytearray(data)
    for _ in range(draw(st.integers(1, 4), label="changes")):
        at = draw(st.integers(0, max(len(data) - 1, 0)), label="at")
        how = draw(st.sampled_from(["flip", "set", "insert", "cut", "repeat", "truncate",
                                    "zero"]), label="how")
        if how == "flip" and data:
            data[at] ^= 1 << draw(st.integers(0, 7), label="bit")
        elif how == "set" and data:
            data[at] = draw(st.sampled_from([0, 0xff, 0x7f, 0x80, ord("<"), ord("9")]),
                            label="byte")
        elif how == "insert":
            data[at:at] = draw(st.binary(min_size=1, max_size=16), label="inserted")
        elif how == "cut":
            del data[at:at + draw(st.integers(1, 64), label="cut")]
        elif how == "repeat":
            chunk = data[at:at + draw(st.integers(1, 256), label="run")]
            data[at:at] = chunk * draw(st.integers(1, 50), label="times")
        elif how == "truncate":
            del data[at:]
        elif how == "zero":
            end = at + draw(st.integers(1, 512), label="zeroed")
            data[at:end] = bytes(len(data[at:end]))
    return bytes(data)


class Hang(Exception):
    pass


def _invoke(args: list[str]):
    """Run a cardkit command in-process, failing it if it takes more than SECONDS of CPU
    time (a machine busy with other work stretches the clock, not that), or blocks for
    PATIENCE on the clock."""
    def stop(signum, frame):
        raise Hang(f"{' '.join(args)} took more than {SECONDS} s of CPU time"
                   if signum == signal.SIGPROF else f"{' '.join(args)} blocked")

    previous = {number: signal.signal(number, stop)
                for number in (signal.SIGPROF, signal.SIGALRM)}
    signal.setitimer(signal.ITIMER_PROF, SECONDS)
    signal.alarm(PATIENCE)
    try:
        return CliRunner().invoke(main, args)
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.alarm(0)
        for number, handler in previous.items():
            signal.signal(number, handler)


@settings(max_examples=EXAMPLES, deadline=None, derandomize="CI" in os.environ,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                 HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_a_damaged_file_exits_0_or_2_and_validate_agrees(decks, tmp_path, data):
    kind = data.draw(st.sampled_from(KINDS), label="deck")
    deck = decks[kind]
    name = data.draw(st.sampled_from(_targets(kind)), label="file")
    target = deck.parent / name
    original = target.read_bytes()
    mutated = data.draw(damaged(original), label="damage")
    note(f"{kind} deck, {name}: {len(original)} -> {len(mutated)} bytes")
    target.write_bytes(mutated)
    try:
        started = time.monotonic()
        checked = _invoke(["validate", str(deck)])
        # every language, as validate checks them: a plain build makes the first only
        built = _invoke(["build", str(deck), "--out", str(tmp_path / "out"), "--lang", "all"])
        note(f"{time.monotonic() - started:.1f} s")
    finally:
        target.write_bytes(original)
    for outcome in (checked, built):
        if isinstance(outcome.exception, Hang):
            raise outcome.exception
        assert outcome.exit_code in (0, 2), outcome.output
        assert "internal error" not in outcome.output
        assert "Traceback" not in outcome.output
        if outcome.exit_code == 2:
            assert outcome.output.strip(), "exit 2 without a message"
    assert built.exit_code == checked.exit_code, \
        f"validate said {checked.exit_code}, build {built.exit_code}: {built.output}"
