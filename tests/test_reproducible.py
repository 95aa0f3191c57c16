"""Reproducible builds: with SOURCE_DATE_EPOCH set, the same deck built twice, by two
processes into two folders, gives the same bytes in every file (sheets, tokens, box, board,
rulebook, print-service PDF, calibration sheet), and each PDF is dated at that time."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pypdf

from cardkit.sources.bundled import bundled_decks

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
EPOCH = 1_700_000_000  # 2023-11-14 22:13:20 UTC
PDF_DATE = "D:20231114221320+00'00'"  # the same time as a PDF writes it (ISO 32000 7.9.4)

# one command line a writer; lantern-market has tokens, a box and boards, Blofa a rulebook
# (and, small, the print service's file and the gutterfold sheets)
COMMANDS = [
    ["build", str(EXAMPLES / "lantern-market")],
    ["build", "blofa", "--sheet", "gutterfold", "--paper", "letter"],
    ["tokens", str(EXAMPLES / "lantern-market")],
    ["box", str(EXAMPLES / "lantern-market")],
    ["board", str(EXAMPLES / "lantern-market")],
    ["export", "blofa", "--for", "drivethru"],
    ["rulebook", "blofa"],
    ["calibrate"],
]

# run in a process of its own: a set's order, which PYTHONHASHSEED changes from process to
# process, must not reach the files
RUN = """
import json, sys
from click.testing import CliRunner
from cardkit.cli import main
out, commands = sys.argv[1], json.loads(sys.argv[2])
for command in commands:
    result = CliRunner().invoke(main, command + ["--out", out])
    assert result.exit_code == 0, (command, result.output)
"""


def build_everything(out: Path, hash_seed: str, cache: Path) -> dict[str, bytes]:
    """Every file the commands write into ``out``: path relative to it -> bytes."""
    env = {**os.environ, "SOURCE_DATE_EPOCH": str(EPOCH), "PYTHONHASHSEED": hash_seed,
           "CARDKIT_CACHE_DIR": str(cache)}
    subprocess.run([sys.executable, "-c", RUN, str(out), json.dumps(COMMANDS)], env=env,
                   check=True, capture_output=True, timeout=600)
    return {str(file.relative_to(out)): file.read_bytes()
            for file in sorted(out.rglob("*")) if file.is_file()}


def test_two_builds_with_source_date_epoch_are_byte_identical(tmp_path):
    assert "blofa" in bundled_decks()
    first = build_everything(tmp_path / "one", "1", tmp_path / "cache-one")
    second = build_everything(tmp_path / "two", "2", tmp_path / "cache-two")
    pdfs = sorted(name for name in first if name.endswith(".pdf"))
    # every writer made its file: sheets (two), tokens, box, board (whole and tiled),
    # the print service's, the rulebook and the calibration sheet
    for made in ("pnp-a4", "gutterfold-letter", "tokens", "box", "board", "drivethru",
                 "rules", "calibration"):
        assert any(made in name for name in pdfs), (made, pdfs)
    assert sorted(first) == sorted(second)
    assert [name for name in first if first[name] != second[name]] == []
    for name in pdfs:
        info = pypdf.PdfReader(tmp_path / "one" / name).metadata
        assert (info["/CreationDate"], info["/ModDate"]) == (PDF_DATE, PDF_DATE), name
