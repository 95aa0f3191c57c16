"""Benchmark (run with `make bench`): how soon `cardkit serve` shows a save, 100 cards.

The deck is watch_bench's: the starter of `cardkit new` with 100 distinct cards. The
studio runs in its own process; this one listens to its event stream like the page does.
Each round times the save to the moment the page would show it: the event has arrived,
the deck's state is read and the changed images are fetched.
- One card: cards.csv saved with one card's text changed (one front to draw).
- Every card: the front layout's panel colour changed (every front to draw).

The baseline, in the same run, is the studio's first drawing of the whole deck (every
side drawn and rasterised, as a fresh start does), read from its state's ``seconds``.

Targets (issue 30): one card on screen within 0.3 s of the save, a layout change that
touches every card within 1 s.
"""

from __future__ import annotations

import json
import queue
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from watch_bench import CARDS, deck_of  # noqa: E402

ROUNDS = 7
TARGETS = {"one card": 0.3, "every card": 1.0}
PANEL = '    fill: "#fdfbf6"'


def main() -> None:
    with tempfile.TemporaryDirectory() as scratch:
        deck = deck_of(Path(scratch), 0)
        serving = subprocess.Popen([sys.executable, "-m", "cardkit", "serve", str(deck),
                                    "--no-open", "--port", "0"], stdout=subprocess.PIPE,
                                   text=True)
        try:
            address = re.search(r"http://\S+/", serving.stdout.readline()).group(0)
            events: queue.Queue = queue.Queue()
            threading.Thread(target=listen, args=(address, events), daemon=True).start()
            # drawn once the watcher has begun (version 1): a drawing before it is drawn again
            state = wait_for(address, events,
                             lambda s: len(s["cards"]) == CARDS and s["version"] >= 1)
            first = state["seconds"]
            times: dict = {what: [] for what in TARGETS}
            layout = deck / "layouts" / "front-base.yaml"
            for edition in range(1, ROUNDS + 1):
                for what in TARGETS:
                    before = state
                    started = time.perf_counter()
                    if what == "one card":
                        text = (deck / "cards.csv").read_text()
                        (deck / "cards.csv").write_text(
                            text.replace("(edition ", f"(edition {edition}.", 1))
                    else:
                        colour = f'    fill: "#fdfb{edition:02x}"'
                        layout.write_text(re.sub(r'    fill: "#fdfb..?"', colour,
                                                 layout.read_text(), count=1))
                    state = wait_for(address, events, lambda s: s["version"] > before["version"])
                    changed = [card for card, old in zip(state["cards"], before["cards"])
                               if card["front"] != old["front"]]
                    for card in changed:  # what the page then fetches
                        urllib.request.urlopen(f"{address}cards/{card['front']}.png").read()
                    times[what].append(time.perf_counter() - started)
                    expected = 1 if what == "one card" else CARDS
                    assert len(changed) == expected, (what, len(changed))
        finally:
            serving.terminate()
            serving.wait(timeout=30)
    print(f"serve, {CARDS} cards: the first drawing of the deck (the baseline) {first:.3f} s")
    for what, target in TARGETS.items():
        median = statistics.median(times[what])
        print(f"  {what} changed: save to on screen {median:.3f} s median "
              f"({min(times[what]):.3f}-{max(times[what]):.3f} s over {ROUNDS} saves; "
              f"{median / first:.2f}x the first drawing) - target {target} s: "
              + ("met" if median <= target else "MISSED"))


def listen(address: str, events: queue.Queue) -> None:
    """Put each version the studio announces on ``events``, as the page's EventSource."""
    with urllib.request.urlopen(address + "events") as stream:
        for line in stream:
            if line.startswith(b"data: "):
                events.put(int(line[6:]))


def wait_for(address: str, events: queue.Queue, done) -> dict:
    """Wait for announcements until the state read after one satisfies ``done``."""
    while True:
        events.get(timeout=120)
        with urllib.request.urlopen(address + "api/deck") as answer:
            state = json.load(answer)
        if done(state):
            return state


if __name__ == "__main__":
    main()
