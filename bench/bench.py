"""Benchmarks (run with `make bench`): cardkit against a minimal reportlab script.

For Blófa and synthetic 1,000- and 10,000-card decks, each measured in a fresh process:
wall time and peak memory (max RSS) of cardkit's whole build (load, check, render, write),
side by side with a plain reportlab script that draws the same primitives per card on the
same 3x3 sheets without any of cardkit's machinery. The synthetic decks use the Blófa
layouts, every card distinct, so no per-card work can be skipped.

Targets (issue 2): cardkit within 1.5x of the minimal script; 10,000 cards within 11x the
1,000-card time; peak memory under 300 MB.

Then every bundled deck's PnP PDF, built the way `make build` does (`cardkit build --all`,
one process, start-up included), against the minimal script drawing as many cards.
Target (issue 3): all decks in under 1.5 s.
"""

from __future__ import annotations

import json
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

REPEATS = {"blofa": 5, "1000": 3, "10000": 1}


def synthetic_deck(folder: Path, count: int) -> Path:
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


def run_cardkit(deck: Path, out: Path) -> None:
    from cardkit.build import build_deck
    from cardkit.sheets import SheetOptions

    build_deck(deck, out, SheetOptions())


def run_all_decks(out: Path) -> int:
    """Every bundled deck's PnP PDF; returns the number of cards built."""
    from cardkit.build import build_deck
    from cardkit.bundled import bundled_decks
    from cardkit.sheets import SheetOptions

    return sum(build_deck(path, out, SheetOptions()).cards for path in bundled_decks().values())


def run_minimal(deck: Path, out: Path) -> None:
    """What a designer might write by hand: plain reportlab, values from the parsed YAML,
    the Blófa card's shapes and texts at the same places, crop marks, no checks."""
    import yaml
    from reportlab.lib.colors import HexColor, white
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont
    from reportlab.pdfgen.canvas import Canvas

    mm = 72 / 25.4
    fonts = ROOT / "cardkit" / "fonts"
    for name, file in (("Lato", "Lato-Regular.ttf"), ("Lato-Bold", "Lato-Bold.ttf"),
                       ("Lato-Black", "Lato-Black.ttf")):
        pdfmetrics.registerFont(TTFont(name, str(fonts / file)))
    data = yaml.safe_load(deck.read_text(encoding="utf-8"))
    cards = []
    for entry in data["cards"]:
        for member in entry.get("cards", [entry]):
            card = {**{k: v for k, v in entry.items() if k != "cards"}, **member}
            cards.extend([card] * card.get("count", 1))
    backs = {name: {k: (HexColor(v) if str(v).startswith("#") else v) for k, v in b.items()}
             for name, b in data["backs"].items()}
    w, h = 63.5 * mm, 88.9 * mm
    page_w, page_h = 210 * mm, 297 * mm
    left, top = (page_w - 3 * w) / 2, (page_h + 3 * h) / 2
    canvas = Canvas(str(out / "minimal.pdf"), pagesize=(page_w, page_h),
                    initialFontName="Lato")

    def front(x, y, card, back):
        canvas.setFillColor(white)
        canvas.rect(x, y, w, h, stroke=0, fill=1)
        canvas.setStrokeColor(back["colour"])
        canvas.setLineWidth(2)
        canvas.roundRect(x + 3 * mm, y + 3 * mm, 57.5 * mm, 82.9 * mm, 3 * mm, 1, 0)
        canvas.setFillColor(back["ink"])
        canvas.setFont("Lato-Black", 20)
        canvas.drawCentredString(x + 9.5 * mm, y + h - 12 * mm, str(card["value"]))
        canvas.saveState()
        canvas.translate(x + 54 * mm, y + 10 * mm)
        canvas.rotate(180)
        canvas.drawCentredString(0, -3 * mm, str(card["value"]))
        canvas.restoreState()
        canvas.setFillColor(back["tint"])
        canvas.ellipse(x + 11.75 * mm, y + 27.9 * mm, x + 51.75 * mm, y + 67.9 * mm, 0, 1)
        canvas.setFillColor(back["ink"])
        canvas.setFont("Lato-Black", 84)
        canvas.drawCentredString(x + w / 2, y + 37 * mm, str(card["value"]))
        canvas.setFont("Lato-Bold", 9)
        canvas.drawCentredString(x + w / 2, y + 22 * mm, back["label"])
        canvas.setFillColor(HexColor("#555555"))
        canvas.setFont("Lato", 7.5)
        canvas.drawCentredString(x + w / 2, y + 9 * mm, "0×3 1×5 2×4 3×3 4×2 5×1")

    def back_side(x, y, back):
        canvas.setFillColor(back["tint"])
        canvas.rect(x, y, w, h, stroke=0, fill=1)
        canvas.setStrokeColor(back["colour"])
        canvas.setLineWidth(1.5)
        canvas.roundRect(x + 4 * mm, y + 4 * mm, 55.5 * mm, 80.9 * mm, 3 * mm, 1, 0)
        canvas.setFillColor(back["colour"])
        canvas.ellipse(x + 9.75 * mm, y + 22.45 * mm, x + 53.75 * mm, y + 66.45 * mm, 0, 1)
        canvas.setFillColor(white)
        canvas.setFont("Lato-Black", 26)
        canvas.drawCentredString(x + w / 2, y + 41 * mm, "Blófa")
        canvas.setFillColor(back["ink"])
        canvas.setFont("Lato-Bold", 10)
        canvas.drawCentredString(x + w / 2, y + 11 * mm, back["label"])

    def marks():
        canvas.setStrokeColor(HexColor("#000000"))
        canvas.setLineWidth(0.25)
        for i in range(4):
            canvas.line(left + i * w, top + mm, left + i * w, top + 5 * mm)
            canvas.line(left + i * w, top - 3 * h - mm, left + i * w, top - 3 * h - 5 * mm)
            canvas.line(left - mm, top - i * h, left - 5 * mm, top - i * h)
            canvas.line(left + 3 * w + mm, top - i * h, left + 3 * w + 5 * mm, top - i * h)

    for start in range(0, len(cards), 9):
        sheet = cards[start:start + 9]
        for i, card in enumerate(sheet):
            row, col = divmod(i, 3)
            front(left + col * w, top - (row + 1) * h, card, backs[card["back"]])
        marks()
        canvas.showPage()
        for i, card in enumerate(sheet):
            row, col = divmod(i, 3)
            back_side(page_w - left - (col + 1) * w, top - (row + 1) * h, backs[card["back"]])
        marks()
        canvas.showPage()
    canvas.save()


def bundled_card_count() -> int:
    from cardkit.bundled import bundled_decks
    from cardkit.deck import load_deck

    return sum(load_deck(path).total() for path in bundled_decks().values())


def measure_one(kind: str, deck: str, out: str) -> None:
    """Child process: run once, print seconds and peak RSS as JSON."""
    started = time.perf_counter()
    if kind == "all-decks":
        run_all_decks(Path(out))
    else:
        (run_cardkit if kind == "cardkit" else run_minimal)(Path(deck), Path(out))
    seconds = time.perf_counter() - started
    peak_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(json.dumps({"seconds": seconds, "peak_mb": peak_kb / 1024}))


def measure(kind: str, deck: Path, out: Path, repeats: int) -> dict:
    runs = []
    for _ in range(repeats):
        done = subprocess.run([sys.executable, __file__, "--one", kind, str(deck), str(out)],
                              capture_output=True, text=True, check=True)
        runs.append(json.loads(done.stdout))
    return {"seconds": statistics.median(r["seconds"] for r in runs),
            "peak_mb": max(r["peak_mb"] for r in runs)}


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        decks = {"blofa": ROOT / "decks" / "blofa" / "deck.yaml",
                 "1000": synthetic_deck(folder, 1000),
                 "10000": synthetic_deck(folder, 10000)}
        results = {}
        print(f"{'deck':>7} {'cards':>6} {'cardkit s':>10} {'minimal s':>10} {'ratio':>6} "
              f"{'cardkit MB':>11} {'minimal MB':>11}")
        for name, deck in decks.items():
            out = folder / "out"
            out.mkdir(exist_ok=True)
            ours = measure("cardkit", deck, out, REPEATS[name])
            base = measure("minimal", deck, out, REPEATS[name])
            results[name] = (ours, base)
            cards = 18 if name == "blofa" else int(name)
            print(f"{name:>7} {cards:>6} {ours['seconds']:>10.3f} {base['seconds']:>10.3f} "
                  f"{ours['seconds'] / base['seconds']:>6.2f} {ours['peak_mb']:>11.1f} "
                  f"{base['peak_mb']:>11.1f}")
        scaling = results["10000"][0]["seconds"] / results["1000"][0]["seconds"]
        base_scaling = results["10000"][1]["seconds"] / results["1000"][1]["seconds"]
        worst = max(o["seconds"] / b["seconds"] for name, (o, b) in results.items()
                    if name != "blofa")
        peak = max(o["peak_mb"] for o, _ in results.values())
        print(f"\n10,000 / 1,000 cards time: cardkit {scaling:.2f}x, minimal {base_scaling:.2f}x "
              f"(target <= 11x)")
        print(f"cardkit / minimal on the synthetic decks, worst: {worst:.2f}x (target <= 1.5x)")
        print(f"cardkit peak memory: {peak:.0f} MB (target < 300 MB)")
        print("(Blófa's 18 cards take milliseconds; its ratio is dominated by start-up "
              "costs such as loading fonts and layouts.)")

        total = bundled_card_count()
        every = measure("all-decks", decks["blofa"], out, 3)
        same = measure("minimal", synthetic_deck(folder, total), out, 3)
        print(f"\nevery bundled deck's PnP PDF ({total} cards): cardkit {every['seconds']:.3f} s, "
              f"minimal script on {total} cards {same['seconds']:.3f} s, ratio "
              f"{every['seconds'] / same['seconds']:.2f} (target: all decks under 1.5 s)")


if __name__ == "__main__":
    if len(sys.argv) == 5 and sys.argv[1] == "--one":
        measure_one(*sys.argv[2:])
    else:
        main()
