"""Benchmarks (run with `make bench`): cardkit's build against plain reportlab scripts and
against DeckSmith, and cardkit's start-up against a bare interpreter.

Every run is a fresh process, timed from inside (load, check, draw, write) and measured for
peak memory (max RSS). cardkit and its baseline run alternately, pair after pair, so a
machine that slows down slows both; each line prints the median of the paired ratios and
their spread (lowest-highest), and the ratio of the two best times, which noise on a
shared machine moves least. The baselines read the deck file with libyaml, as cardkit
does (``baselines.py``).

- Text-heavy deck (``text_deck.py``: a paragraph of 30-60 words of its own on every card)
  against a plain reportlab script that wraps the same paragraphs greedily. Targets (issue
  14): at most 1.5x at 1,000 and 10,000 cards; peak memory under 150 MB at 50,000 cards.
- Blófa's layouts on 1,000 and 10,000 distinct cards against a script drawing the same
  shapes (issue 2's baseline).
- Start-up: `cardkit --help` and `cardkit list` against `python -c pass` of the same
  Python, whole commands, as CPU time, in two installs: the editable one `make build` makes
  (its finder's `.pth` costs every start of that Python, `python -c pass` too) and one that
  finds cardkit on a plain path, as a user's `pip install` does (``plain_install``).
  Target: within 3x.
- Whole builds (issue 62): `cardkit build` as a user runs it, start-up included, against
  the plain script as a process of its own (``python bench/baselines.py``), as CPU time,
  on the text-heavy deck and on a deck in issue 62's shape (``card_deck.py``: a title, a
  number, a suit icon and 30-60 words a card), 1,000 cards each. Target: at most 1.5x
  (moonshot 1.1x); peak memory at 20,000 text-heavy cards as before (93 MB). It prints
  what a build's imports take before the first card (``python -X importtime``).
- DeckSmith, the Python peer, on the same text-heavy deck at 100 cards, to its PnP PDF.
- Every bundled deck's PnP PDF in one process, as `make build` does. Target: under 1.5 s.
"""

from __future__ import annotations

import compileall
import importlib.util
import json
import os
import resource
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path[:0] = [str(ROOT), str(HERE)]

TEXT_PAIRS = {1000: 11, 10000: 3}
BLOFA_PAIRS = {1000: 5, 10000: 3}
MEMORY_COUNTS = (1000, 10000, 50000)
STARTUP_ROUNDS = 15
WHOLE_CARDS, WHOLE_PAIRS, WHOLE_MEMORY_CARDS = 1000, 11, 20000
DECKSMITH_CARDS, DECKSMITH_PAIRS = 100, 3


def blofa_deck(folder: Path, count: int) -> Path:
    """A deck of ``count`` distinct cards drawn with the Blófa layouts."""
    source = (ROOT / "decks" / "blofa" / "deck.yaml").read_text(encoding="utf-8")
    head = source[:source.index("composition:")]
    lines = [head.replace("name: blofa", f"name: synthetic-{count}"), "cards:"]
    for i in range(count):
        back = "blue" if i % 2 == 0 else "yellow"
        lines.append(f"  - {{value: {i % 1000}, back: {back}}}")
    path = folder / f"synthetic-{count}" / "deck.yaml"
    path.parent.mkdir(parents=True)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def run(kind: str, deck: Path, out: Path) -> None:
    """One build of ``kind``: what a child process times."""
    if kind == "cardkit":
        from cardkit.pipeline.build import build_deck
        from cardkit.imposition.sheets import SheetOptions

        build_deck(deck, out, SheetOptions())
    elif kind == "all-decks":
        from cardkit.pipeline.build import build_deck
        from cardkit.sources.bundled import bundled_decks
        from cardkit.imposition.sheets import SheetOptions

        for path in bundled_decks().values():
            build_deck(path, out, SheetOptions())
    elif kind == "decksmith":
        from decksmith_run import run as run_decksmith

        run_decksmith(deck, out)
    else:
        import baselines

        baselines.PLAIN[kind](deck, out)


def measure_one(kind: str, deck: str, out: str) -> None:
    """Child process: run once, print seconds and peak RSS as JSON."""
    started = time.perf_counter()
    run(kind, Path(deck), Path(out))
    seconds = time.perf_counter() - started
    peak_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(json.dumps({"seconds": seconds, "peak_mb": peak_kb / 1024}))


# As an installed package runs: from compiled bytecode (this sandbox sets
# PYTHONDONTWRITEBYTECODE, which would recompile cardkit's modules on every start).
ENV = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}


def child(kind: str, deck: Path, out: Path) -> dict:
    done = subprocess.run([sys.executable, __file__, "--one", kind, str(deck), str(out)],
                          capture_output=True, text=True, env=ENV)
    if done.returncode:
        sys.exit(f"{kind} on {deck} failed:\n{done.stderr}")
    return json.loads(done.stdout.splitlines()[-1])


def command(args: list[str]) -> dict:
    """A whole command's CPU time (user and system, start-up included) and peak memory:
    its own resource usage, as getrusage(RUSAGE_CHILDREN) would count it alone."""
    with tempfile.TemporaryFile() as errors:
        process = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=errors, env=ENV)
        _, status, usage = os.wait4(process.pid, 0)
        process.returncode = os.waitstatus_to_exitcode(status)
        if process.returncode:
            errors.seek(0)
            sys.exit(f"{' '.join(args)} failed:\n{errors.read().decode()}")
    return {"seconds": usage.ru_utime + usage.ru_stime, "peak_mb": usage.ru_maxrss / 1024}


def paired(ours, base, pairs: int) -> tuple[list[dict], list[dict], list[float]]:
    """Run ``ours`` and ``base`` alternately (the first of each pair swaps every time);
    returns both runs and the paired time ratios."""
    mine, theirs = [], []
    for i in range(pairs):
        first, second = (ours, base) if i % 2 == 0 else (base, ours)
        a, b = first(), second()
        mine.append(a if first is ours else b)
        theirs.append(b if first is ours else a)
    return mine, theirs, [m["seconds"] / t["seconds"] for m, t in zip(mine, theirs)]


def ratio_text(ratios: list[float]) -> str:
    if len(ratios) == 1:
        return f"{ratios[0]:.2f}x"
    return f"{statistics.median(ratios):.2f}x ({min(ratios):.2f}-{max(ratios):.2f})"


def row(name: str, mine: list[dict], theirs: list[dict], ratios: list[float]) -> None:
    seconds = [statistics.median(r["seconds"] for r in runs) for runs in (mine, theirs)]
    # A shared machine only ever slows a run down: the best runs' ratio is the steadiest
    best = min(r["seconds"] for r in mine) / min(r["seconds"] for r in theirs)
    memory = [max(r["peak_mb"] for r in runs) for runs in (mine, theirs)]
    shown = [f"{mb:>7.0f}" if mb else f"{'-':>7}" for mb in memory]  # whole commands: none
    print(f"{name:<34} {seconds[0]:>9.3f} {seconds[1]:>9.3f}  {ratio_text(ratios):<19}"
          f"{best:>5.2f}x{shown[0]} {shown[1]}")


def header(what: str, base: str) -> None:
    print(f"\n{what:<34} {'cardkit s':>9} {base + ' s':>9}  {'ratio (spread)':<19}"
          f"{'best':>6}{'ck MB':>7} {'base MB':>7}")


def compare(name: str, ours: str, base: str, deck: Path, out: Path, pairs: int,
            base_deck: Path | None = None) -> tuple[list[dict], list[dict], list[float]]:
    runs = paired(lambda: child(ours, deck, out),
                  lambda: child(base, base_deck or deck, out), pairs)
    row(name, *runs)
    return runs


def text_heavy(folder: Path, out: Path) -> None:
    from text_deck import write_deck

    header("text-heavy deck", "plain")
    worst, peaks = {}, {}
    for count, pairs in TEXT_PAIRS.items():
        mine, theirs, ratios = compare(f"{count:,} cards, {pairs} pairs", "cardkit",
                                       "plain-text", write_deck(folder, count), out, pairs)
        worst[count] = statistics.median(ratios)
        peaks[count] = (max(mine, key=lambda r: r["peak_mb"]),
                        max(theirs, key=lambda r: r["peak_mb"]))
    print("target: at most 1.5x at 1,000 and 10,000 cards: " +
          ", ".join(f"{count:,}: {ratio:.2f}x {'met' if ratio <= 1.5 else 'NOT met'}"
                    for count, ratio in worst.items()))
    print("\npeak memory (max RSS), text-heavy deck:")
    for count in MEMORY_COUNTS:
        if count in peaks:  # measured with the times above
            ours, base = peaks[count]
        else:
            deck = write_deck(folder, count)
            ours, base = child("cardkit", deck, out), child("plain-text", deck, out)
        verdict = "" if count != 50000 else \
            f"  (target < 150 MB: {'met' if ours['peak_mb'] < 150 else 'NOT met'})"
        print(f"  {count:>6,} cards: cardkit {ours['peak_mb']:5.0f} MB in {ours['seconds']:6.1f} s"
              f", plain {base['peak_mb']:5.0f} MB in {base['seconds']:6.1f} s{verdict}")


def blofa(folder: Path, out: Path) -> None:
    header("Blófa layouts, distinct cards", "minimal")
    for count, pairs in BLOFA_PAIRS.items():
        compare(f"{count:,} cards, {pairs} pairs", "cardkit", "minimal",
                blofa_deck(folder, count), out, pairs)


CARDKIT = str(Path(sys.executable).parent / "cardkit")


def plain_install(folder: Path) -> Path:
    """A venv of its own that finds this checkout's cardkit on a plain path, as a user's
    (not editable) `pip install` does: no import hook runs at start-up. Its `.pth` names
    the checkout and this venv's libraries; its `cardkit` is this venv's script. Returns
    its Python."""
    venv = folder / "plain-install"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    asked = "import sysconfig; print(sysconfig.get_path('purelib'))"
    libraries = subprocess.run([python, "-c", asked], capture_output=True, text=True,
                               check=True).stdout.strip()
    Path(libraries, "cardkit-checkout.pth").write_text(
        f"{ROOT}\n{sysconfig.get_path('purelib')}\n", encoding="utf-8")
    _, script = Path(CARDKIT).read_text(encoding="utf-8").split("\n", 1)  # after #!python
    (venv / "bin" / "cardkit").write_text(f"#!{python}\n{script}", encoding="utf-8")
    (venv / "bin" / "cardkit").chmod(0o755)
    return python


def startup(folder: Path, out: Path) -> None:
    header("start-up, whole commands, CPU time", "python")
    for install, python in (("editable", Path(sys.executable)),
                            ("plain path", plain_install(folder))):
        cardkit, bare = str(python.parent / "cardkit"), [str(python), "-c", "pass"]
        for args in (["--help"], ["list"]):
            mine, theirs, ratios = paired(lambda: command([cardkit, *args]),
                                          lambda: command(bare), STARTUP_ROUNDS)
            row(f"cardkit {' '.join(args)}, {install}", mine, theirs, ratios)
            verdict = "met" if statistics.median(ratios) <= 3 else "NOT met"
            print(f"  target: within 3x python -c pass ({STARTUP_ROUNDS} pairs): {verdict}")


def import_time(args: list[str]) -> str:
    """What ``args`` (a cardkit command) spends importing, by ``python -X importtime``:
    the total and the largest packages it imports itself."""
    done = subprocess.run([sys.executable, "-X", "importtime", "-m", "cardkit", *args],
                          capture_output=True, text=True, env=ENV, check=True)
    rows = [line.split("|") for line in done.stderr.splitlines()
            if line.startswith("import time:") and "self [us]" not in line]
    total = sum(int(row[0].split(":")[1]) for row in rows) / 1000
    top = sorted(((int(row[1]) / 1000, row[2].strip()) for row in rows
                  if not row[2].startswith("  ")), reverse=True)[:5]
    return f"{total:.0f} ms (" + ", ".join(f"{name} {ms:.0f}" for ms, name in top) + ")"


def whole(folder: Path, out: Path) -> None:
    from card_deck import write_deck as cards_deck
    from text_deck import write_deck as text_deck

    header("whole cardkit build, CPU time", "plain")
    for name, write, plain in (("text-heavy", text_deck, "plain-text"),
                               ("issue 62's cards", cards_deck, "plain-cards")):
        deck = write(folder / "whole" / plain, WHOLE_CARDS)
        mine, theirs, ratios = paired(
            lambda: command([CARDKIT, "build", str(deck), "--out", str(out)]),
            lambda: command([sys.executable, str(HERE / "baselines.py"), plain, str(deck),
                             str(out)]), WHOLE_PAIRS)
        row(f"{name}, {WHOLE_CARDS:,}, {WHOLE_PAIRS} pairs", mine, theirs, ratios)
        ratio = statistics.median(ratios)
        print(f"  target: at most 1.5x: {'met' if ratio <= 1.5 else 'NOT met'}"
              f" (moonshot 1.1x: {'met' if ratio <= 1.1 else 'not yet'}); imports of the "
              f"build: {import_time(['build', str(deck), '--out', str(out)])}")
    print(f"  imports of cardkit --help: {import_time(['--help'])}")
    deck = text_deck(folder / "whole" / "memory", WHOLE_MEMORY_CARDS)
    peak = command([CARDKIT, "build", str(deck), "--out", str(out)])["peak_mb"]
    print(f"  peak memory, {WHOLE_MEMORY_CARDS:,} text-heavy cards: {peak:.0f} MB (as "
          f"before: 93 MB)")


def decksmith(folder: Path, out: Path) -> None:
    if importlib.util.find_spec("decksmith") is None:
        print("\nDeckSmith is not installed (pip install -e '.[bench]'): skipped")
        return
    from decksmith_run import write_project
    from text_deck import write_deck

    header("DeckSmith, text-heavy deck", "DS")
    deck = write_deck(folder / "decksmith", DECKSMITH_CARDS)
    project = write_project(folder / "decksmith-project", DECKSMITH_CARDS)
    _, _, ratios = compare(f"{DECKSMITH_CARDS} cards, {DECKSMITH_PAIRS} pairs", "cardkit",
                           "decksmith", deck, out, DECKSMITH_PAIRS, base_deck=project)
    print(f"  DeckSmith takes {1 / statistics.median(ratios):.0f}x as long as cardkit")


def all_decks(folder: Path, out: Path) -> None:
    from cardkit.sources.bundled import bundled_decks
    from cardkit.deck.loader import load_deck

    total = sum(load_deck(path).total() for path in bundled_decks().values())
    header("every bundled deck, one process", "minimal")
    same = blofa_deck(folder / "all", total)
    mine, theirs, ratios = paired(lambda: child("all-decks", Path("-"), out),
                                  lambda: child("minimal", same, out), 3)
    row(f"{total} cards vs minimal on as many", mine, theirs, ratios)
    best = statistics.median(r["seconds"] for r in mine)
    print(f"  target: all decks under 1.5 s: {'met' if best < 1.5 else 'NOT met'}")


PARTS = {"startup": startup, "whole": whole, "text": text_heavy, "blofa": blofa,
         "decksmith": decksmith, "all": all_decks}


def main() -> None:
    """``bench.py [PART ...]`` runs the parts named (all by default)."""
    for folder in (ROOT / "cardkit", HERE):
        compileall.compile_dir(folder, quiet=1)
    with tempfile.TemporaryDirectory() as tmp:
        folder, out = Path(tmp), Path(tmp) / "out"
        out.mkdir()
        for part in sys.argv[1:] or PARTS:
            PARTS[part](folder, out)


if __name__ == "__main__":
    if len(sys.argv) == 5 and sys.argv[1] == "--one":
        measure_one(*sys.argv[2:])
    else:
        main()
