"""The text-heavy benchmark deck drawn with DeckSmith 0.9.9 (``pip install decksmith==0.9.9``),
a peer tool: a YAML spec and a CSV file in, one PNG per card out (drawn with Pillow), then a
PnP PDF of those PNGs (placed with reportlab).

``run`` calls what DeckSmith's CLI calls, in-process: ``decksmith build --spec S --data D
--output O`` is ``DeckBuilder(S, D).build_deck(O)`` and ``decksmith export O`` is
``PdfExporter(O, ...).export()``. Importing ``decksmith.main`` (the CLI) would also import its
Flask GUI, which sets a SIGINT handler; the two modules used here do not.

Drawn as in cardkit's FRONT_LAYOUT / BACK_LAYOUT (``text_deck.py``), at 300 dpi, with the same
boxes, Lato TTFs, colours and 1.2 leading, except where DeckSmith cannot:

- sizes are whole pixels: boxes are rounded to the pixel, fonts to 38/54/58/83 px (9.12, 12.96,
  13.92, 19.92 pt); text wraps at the box's width with Pillow's measure, so a line may break at
  another word than in cardkit;
- no text box height, no ``min_size`` shrinking, no clipping (every card's text fits anyway);
- the value is centred on the disc by its ink (DeckSmith's ``center`` anchor), the back's name
  on the card likewise; cardkit centres by advance width and font ascent/descent;
- no card backs: the backs are a second DeckSmith deck of their own, exported to a second PDF
  (``backs.pdf`` beside ``fronts.pdf``), not interleaved or mirrored for duplex;
- the PDF has no crop marks or footer, and DeckSmith places the PNGs in the order of their file
  names (card_1, card_10, card_100, card_11, ...), not in the CSV's order;
- colours cannot be looked up by back, so the CSV carries each card's colour and tint as r, g, b.

DeckSmith also logs one line per card to stdout and to ``decksmith.log`` in the working
directory at import time; ``run`` imports it from within ``out`` so that file lands there.
"""

from __future__ import annotations

import contextlib
import csv
import sys
import time
from pathlib import Path

from text_deck import BACKS, TEXT_BOX, TEXT_LEADING, TEXT_SIZE, TITLE_BOX, VALUE_BOX, text_cards

DPI = 300
CARD_MM = (63.5, 88.9)
FONTS = Path(__file__).resolve().parent.parent / "cardkit" / "fonts"
REGULAR, BLACK = str(FONTS / "Lato-Regular.ttf"), str(FONTS / "Lato-Black.ttf")


def px(mm: float) -> int:
    return round(mm / 25.4 * DPI)


def pt(points: float) -> int:
    return round(points / 72 * DPI)


def rgb(colour: str) -> list[int]:
    return [int(colour[i:i + 2], 16) for i in (1, 3, 5)]


def _front_spec() -> str:
    from PIL import ImageFont

    title_font = ImageFont.truetype(BLACK, pt(13))
    body_font = ImageFont.truetype(REGULAR, pt(TEXT_SIZE))
    # Middle of the title box by ascent + descent, as cardkit does; Pillow draws from the ascent.
    title_y = px(TITLE_BOX[1]) + (px(TITLE_BOX[3]) - sum(title_font.getmetrics())) // 2
    # Pillow's line pitch is the height of "A" plus `line_spacing`.
    spacing = pt(TEXT_SIZE * TEXT_LEADING) - body_font.getbbox("A")[3]
    disc = px(VALUE_BOX[2])
    return f"""\
id: card
width: {px(CARD_MM[0])}
height: {px(CARD_MM[1])}
background_color: ["%tint_r%", "%tint_g%", "%tint_b%"]
elements:
  - id: disc
    type: ellipse
    position: [{px(VALUE_BOX[0])}, {px(VALUE_BOX[1])}]
    size: [{disc}, {disc}]
    color: ["%colour_r%", "%colour_g%", "%colour_b%"]
  - type: text
    text: "%value%"
    relative_to: [disc, center]
    anchor: center
    font_path: {BLACK}
    font_size: {pt(14)}
    color: [255, 255, 255]
  - type: text
    text: "%name%"
    position: [{px(TITLE_BOX[0])}, {title_y}]
    font_path: {BLACK}
    font_size: {pt(13)}
    color: ["%colour_r%", "%colour_g%", "%colour_b%"]
  - type: text
    text: "%text%"
    position: [{px(TEXT_BOX[0])}, {px(TEXT_BOX[1])}]
    width: {px(TEXT_BOX[2])}
    font_path: {REGULAR}
    font_size: {pt(TEXT_SIZE)}
    line_spacing: {spacing}
    color: [34, 34, 34]
"""


BACK_SPEC = f"""\
id: card
width: {px(CARD_MM[0])}
height: {px(CARD_MM[1])}
background_color: ["%colour_r%", "%colour_g%", "%colour_b%"]
elements:
  - type: text
    text: "%back%"
    relative_to: [card, center]
    anchor: center
    font_path: {BLACK}
    font_size: {pt(20)}
    color: [255, 255, 255]
"""


def write_project(folder: Path, count: int) -> Path:
    """DeckSmith's specs (``front.yaml``, ``back.yaml``) and data (``deck.csv``) for
    ``text_cards(count)`` in a new folder ``folder/decksmith-<count>``, which it returns."""
    project = folder / f"decksmith-{count}"
    project.mkdir(parents=True)
    (project / "front.yaml").write_text(_front_spec(), encoding="utf-8")
    (project / "back.yaml").write_text(BACK_SPEC, encoding="utf-8")
    with open(project / "deck.csv", "w", encoding="utf-8", newline="") as file:
        rows = csv.writer(file, delimiter=";")  # DeckSmith reads ';'-separated CSV
        rows.writerow(["name", "value", "back", "text", "colour_r", "colour_g", "colour_b",
                       "tint_r", "tint_g", "tint_b"])
        for card in text_cards(count):
            back = BACKS[card["back"]]
            rows.writerow([card["name"], card["value"], card["back"], card["text"],
                           *rgb(back["colour"]), *rgb(back["tint"])])
    return project


def run(project: Path, out: Path) -> Path:
    """Build the fronts and the backs of ``project`` as PNGs in ``out/fronts`` and
    ``out/backs``, and each side's A4 PnP PDF, as ``decksmith build`` and ``decksmith export``
    do; returns the fronts' PDF (the backs' is ``backs.pdf`` beside it)."""
    out.mkdir(parents=True, exist_ok=True)
    with contextlib.chdir(out):  # decksmith.logger opens ./decksmith.log when imported
        from decksmith.deck_builder import DeckBuilder
        from decksmith.export import PdfExporter
    for side in ("front", "back"):
        images = out / f"{side}s"
        images.mkdir(exist_ok=True)
        DeckBuilder(project / f"{side}.yaml", project / "deck.csv").build_deck(images)
        if not any(images.glob("*.png")):  # build_deck only logs a CSV it cannot read
            raise RuntimeError(f"DeckSmith drew no card in {images}")
        PdfExporter(images, out / f"{side}s.pdf", "A4", *CARD_MM, gap=0,
                    margins=(2, 2)).export()
    return out / "fronts.pdf"


if __name__ == "__main__":
    import resource

    if len(sys.argv) != 3:
        sys.exit("usage: decksmith_run.py COUNT OUT_FOLDER")
    count, folder = int(sys.argv[1]), Path(sys.argv[2])
    project = write_project(folder, count)
    start = time.perf_counter()
    pdf = run(project, folder / "out")
    seconds = time.perf_counter() - start
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"{seconds:.2f} s, peak RSS {rss:.0f} MB: {pdf}")
