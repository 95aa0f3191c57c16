"""Benchmark (run with `make bench`): how soon `cardkit watch` shows a save, 100 cards.

The deck is the starter of `cardkit new` with 100 distinct cards in its cards.csv, each with
a text of its own (bold, an inline icon). `cardkit watch` runs in its own process; each
round saves cards.csv with one word changed and times the save to the end of the build's
summary line on the watch's output: the file event, the quiet wait for more saves, loading,
checking, drawing and writing the PDF.

The baseline is a fresh `cardkit build` of the same deck in a new process (start-up
included), run between the saves, so a busy machine slows both alike.

Target (issue 12): a rebuild within half a second of the save.
"""

from __future__ import annotations

import os
import queue
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

CARDS = 100
ROUNDS = 9
TARGET = 0.5
WORDS = ("Draw a card", "Look at the top card of the deck", "Your units get **+1 {star}**",
         "Discard a card", "Choose a unit")


def deck_of(folder: Path, edition: int) -> Path:
    """The starter deck with CARDS cards; ``edition`` changes one word of every text."""
    from cardkit.starter import create_deck

    deck = folder / "bench-deck"
    if not deck.exists():
        create_deck(deck, "bench-deck")
        spec = deck / "deck.yaml"  # the total the starter promises, as a designer raises it
        spec.write_text(re.sub(r"total: \d+", f"total: {CARDS}", spec.read_text()))
    rows = ["name,kind,cost,strength,count,text"]
    for i in range(CARDS):
        kind = "unit" if i % 2 == 0 else "event"
        text = f"{WORDS[i % len(WORDS)]}, then {WORDS[(i + edition) % len(WORDS)].lower()}."
        rows.append(f'Card {i + 1},{kind},{i % 6},{i % 5 if kind == "unit" else ""},1,'
                    f'"{text} (edition {edition})"')
    (deck / "cards.csv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    return deck


def fresh_build(deck: Path, out: Path) -> float:
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "cardkit", "build", str(deck), "--out", str(out)],
                   check=True, capture_output=True)
    return time.perf_counter() - started


def main() -> None:
    with tempfile.TemporaryDirectory() as scratch:
        scratch = Path(scratch)
        deck = deck_of(scratch, 0)
        out = scratch / "out"
        watching = subprocess.Popen(
            [sys.executable, "-m", "cardkit", "watch", str(deck), "--out", str(out)],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
            env={**os.environ, "PYTHONUNBUFFERED": "1"})
        lines: queue.Queue = queue.Queue()
        threading.Thread(target=lambda: [lines.put(line) for line in watching.stdout],
                         daemon=True).start()

        def next_build() -> str:
            while True:
                line = lines.get(timeout=60)
                if "cards," in line or "problem" in line:
                    return line

        try:
            next_build()  # the first build
            while "watching" not in lines.get(timeout=60):
                pass
            rebuilds, fresh, inside = [], [], []
            for edition in range(1, ROUNDS + 1):
                fresh.append(fresh_build(deck, scratch / "fresh"))
                time.sleep(0.3)  # let the machine settle between the two
                started = time.perf_counter()
                deck_of(scratch, edition)
                line = next_build()
                rebuilds.append(time.perf_counter() - started)
                assert f"{CARDS} cards" in line, line
                inside.append(float(line.rsplit("(", 1)[1].split(" s)")[0]))
        finally:
            watching.terminate()
            watching.wait(timeout=30)

    rebuild, build = statistics.median(rebuilds), statistics.median(fresh)
    print(f"watch, {CARDS} cards: save to rebuilt PDF {rebuild:.3f} s median "
          f"({min(rebuilds):.3f}-{max(rebuilds):.3f} s over {ROUNDS} saves; the build "
          f"itself {statistics.median(inside):.3f} s) - target {TARGET} s: "
          + ("met" if rebuild <= TARGET else "MISSED"))
    print(f"  a fresh 'cardkit build' of the same deck: {build:.3f} s median; the watch "
          f"shows a save in {rebuild / build:.2f}x that time")


if __name__ == "__main__":
    main()
