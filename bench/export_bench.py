"""Benchmark (run with `make bench`): card images a second, against PDFium's own speed.

cardkit exports a synthetic deck of 200 distinct cards (the Blófa layouts) for The Game
Crafter: 202 images of 825 x 1125 px at 300 dpi, the whole command in a fresh process
(start-up, loading, checking, drawing, rasterising on every core, PNG files, manifest).

The floor is pypdfium2 alone on the same pages (the one-card PDF cardkit rasterises), in
one process: rendering only, and rendering plus saving the PNGs as cardkit does. Runs
alternate, cardkit then floor, so a busy machine slows both alike; the medians are printed.

Target (issue 9): at least 50 cards a second.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from bench import blofa_deck  # noqa: E402  (the same synthetic decks as bench.py)

CARDS = 200
ROUNDS = 3


def cardkit_export(deck: Path, out: Path) -> tuple[float, int]:
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "cardkit", "export", str(deck), "--for", "tgc",
                    "--out", str(out)], check=True, capture_output=True)
    seconds = time.perf_counter() - started
    return seconds, len(list(out.glob("*/*/*.png")))


def same_pages(deck: Path, out: Path) -> Path:
    """The one-card-per-page PDF of the export's faces, as cardkit rasterises it."""
    from cardkit.pipeline.build import check_cards
    from cardkit.deck.loader import load_deck
    from cardkit.pipeline.export import _same_back
    from cardkit.imposition.faces import faces
    from cardkit.writers.card_pdf import write_card_pdf

    loaded = load_deck(deck)
    renderer, _ = check_cards(loaded)
    shown = faces(loaded, _same_back(renderer))
    path = out / "pages.pdf"
    write_card_pdf(path, loaded, [(f.card, f.side) for f in shown], (198, 270), renderer)
    return path


def floor(pdf: Path, out: Path, save: bool) -> tuple[float, int]:
    import pypdfium2

    from cardkit.writers.card_png import PNG_COMPRESSION

    started = time.perf_counter()
    document = pypdfium2.PdfDocument(pdf)
    for i, page in enumerate(document):
        image = page.render(scale=300 / 72).to_pil()
        if save:
            image.save(out / f"{i}.png", "PNG", dpi=(300, 300), compress_level=PNG_COMPRESSION)
    count = len(document)
    document.close()
    return time.perf_counter() - started, count


def main() -> None:
    with tempfile.TemporaryDirectory() as scratch:
        scratch = Path(scratch)
        deck = blofa_deck(scratch, CARDS)
        pdf = same_pages(deck, scratch)
        runs = {"cardkit": [], "render": [], "render+png": []}
        for round_ in range(ROUNDS):
            out = scratch / f"out{round_}"
            runs["cardkit"].append(cardkit_export(deck, out))
            runs["render"].append(floor(pdf, scratch, save=False))
            runs["render+png"].append(floor(pdf, scratch, save=True))
    images = runs["cardkit"][0][1]
    rate = {name: statistics.median(n / s for s, n in values) for name, values in runs.items()}
    print(f"\nexport --for tgc, {CARDS} distinct cards ({images} images, 825 x 1125 px, "
          f"300 dpi), median of {ROUNDS} alternating runs:")
    print(f"  cardkit, whole command, all cores: {rate['cardkit']:6.1f} images/s "
          "(target >= 50)")
    print(f"  pypdfium2 floor, render only, one process: {rate['render']:6.1f} images/s "
          f"(cardkit {rate['cardkit'] / rate['render']:.2f}x its rate)")
    print(f"  pypdfium2 floor, render and save PNG, one process: {rate['render+png']:6.1f} "
          f"images/s (cardkit {rate['cardkit'] / rate['render+png']:.2f}x its rate)")


if __name__ == "__main__":
    main()
