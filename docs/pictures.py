"""Render the docs' pictures: one page of fronts (and Blófa's backs) of every bundled
deck, a close-up of the example deck's cards and Blófa's rulebook, from the PDFs `make
build` writes, the previews of a new deck, and a simulation report and the studio as a
browser shows them. Run with `make pictures`."""

from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium
from PIL import Image, ImageChops, ImageOps

ROOT = Path(__file__).resolve().parent.parent
PAGES = {"blofa": [0, 1], "bullet": [0, 12], "standard": [0, 10], "ragusa": [12],
         "rise-up": [12], "shapes": [0, 1, 18, 19]}
DPI = 40


# deck, page, dpi, and the part of the page's height to keep: a row of three kinds of card
CLOSE_UP = ("lantern-market", 2, 90, (0.645, 0.975))


def close_up() -> None:
    deck, page, dpi, (top, bottom) = CLOSE_UP
    pdf = pdfium.PdfDocument(str(ROOT / "output" / deck / f"{deck}-pnp-a4.pdf"))
    image = pdf[page].render(scale=dpi / 72).to_pil()
    width, height = image.size
    image = image.crop((0, round(height * top), width, round(height * bottom)))
    target = ROOT / "docs" / f"{deck}-cards.png"
    image.convert("P", palette=1, colors=128).save(target, optimize=True)
    print(target.relative_to(ROOT))
    pdf.close()


def german_cards() -> None:
    """The example deck in German, two rows of its cards: words hyphenated by the German
    dictionary ('Sonderveran-staltungen'), and the deck's keyword style in every kind of
    card."""
    import subprocess
    import sys
    import tempfile

    with tempfile.TemporaryDirectory() as scratch:
        subprocess.run([sys.executable, "-m", "cardkit", "build", "--lang", "de", "--out",
                        scratch, str(ROOT / "examples" / "lantern-market")], check=True,
                       capture_output=True)
        pdf = pdfium.PdfDocument(str(Path(scratch) / "lantern-market" /
                                     "lantern-market-de-pnp-a4.pdf"))
        image = pdf[2].render(scale=90 / 72).to_pil()
        pdf.close()
    width, height = image.size
    image = image.crop((0, round(height * 0.345), width, round(height * 0.962)))
    target = ROOT / "docs" / "lantern-market-de.png"
    image.convert("P", palette=1, colors=128).save(target, optimize=True)
    print(target.relative_to(ROOT))


def every_script() -> None:
    """The card of examples/every-script in Hebrew, Arabic, Japanese and Korean, side by
    side: right-to-left lines set against the right edge, Arabic letters joined, Japanese
    and Korean broken between characters."""
    import subprocess
    import sys
    import tempfile

    cards = []
    with tempfile.TemporaryDirectory() as scratch:
        subprocess.run([sys.executable, "-m", "cardkit", "build", "--lang", "all", "--out",
                        scratch, str(ROOT / "examples" / "every-script")], check=True,
                       capture_output=True)
        for lang in ("he", "ar", "ja", "ko"):
            pdf = pdfium.PdfDocument(str(Path(scratch) / "every-script" /
                                         f"every-script-{lang}-pnp-a4.pdf"))
            image = pdf[0].render(scale=110 / 72).to_pil()
            pdf.close()
            width, height = image.size  # the first card, at the page's top left
            cards.append(image.crop((round(width * 0.045), round(height * 0.045),
                                     round(width * 0.35), round(height * 0.35))))
    picture = Image.new("RGB", (sum(card.width for card in cards) + 20 * len(cards),
                                cards[0].height), "white")
    for i, card in enumerate(cards):
        picture.paste(card, (i * (card.width + 20), 0))
    target = ROOT / "docs" / "every-script.png"
    picture.convert("P", palette=1, colors=64).save(target, optimize=True)
    print(target.relative_to(ROOT))


def rulebook() -> None:
    """The first two pages of Blófa's rulebook, side by side, as `cardkit rulebook` makes
    them from decks/blofa/rules.md."""
    dpi = 45
    pdf = pdfium.PdfDocument(str(ROOT / "output" / "blofa" / "blofa-rules-a4.pdf"))
    pages = [pdf[i].render(scale=dpi / 72).to_pil().convert("RGB") for i in (0, 1)]
    gap = 12
    image = Image.new("RGB", (sum(p.width for p in pages) + gap, pages[0].height), "#d0d0d0")
    for i, page in enumerate(pages):
        image.paste(page, (i * (pages[0].width + gap), 0))
    target = ROOT / "docs" / "blofa-rules.png"
    image.convert("P", palette=1, colors=128).save(target, optimize=True)
    print(target.relative_to(ROOT))
    pdf.close()


def calibration() -> None:
    """The calibration sheet's scales as seen against the light, printed by a printer that
    shifts the back 1 mm left and 0.5 mm up (so it reads X = 1, Y = 0.5)."""
    dpi = 200
    pdf = pdfium.PdfDocument(str(ROOT / "output" / "calibration" / "calibration-a4-long.pdf"))
    front, back = (pdf[i].render(scale=dpi / 72).to_pil().convert("RGB") for i in (0, 1))
    printed = Image.new("RGB", back.size, "white")
    printed.paste(back, (round(-1 * dpi / 25.4), round(-0.5 * dpi / 25.4)))
    seen = ImageChops.multiply(front, ImageOps.mirror(printed))
    mm = dpi / 25.4
    seen = seen.crop((round(40 * mm), round(162 * mm), round(170 * mm), round(196 * mm)))
    target = ROOT / "docs" / "calibration.png"
    seen.convert("P", palette=1, colors=64).save(target, optimize=True)
    print(target.relative_to(ROOT))
    pdf.close()


def starter() -> None:
    """A new deck's contact sheet and one card's proof, as `cardkit new` and `cardkit
    preview` make them."""
    import subprocess
    import sys
    import tempfile

    with tempfile.TemporaryDirectory() as scratch:
        def cardkit(*args):
            subprocess.run([sys.executable, "-m", "cardkit", *args], cwd=scratch, check=True,
                           capture_output=True)

        cardkit("new", "my-game")
        cardkit("preview", "my-game")
        folder = Path(scratch) / "output" / "my-game" / "my-game-preview"
        for source, name in (("contact-sheet.png", "new-deck-contact-sheet.png"),
                             ("006-ambush.png", "new-deck-card-6.png")):
            target = ROOT / "docs" / name
            Image.open(folder / source).convert("P", palette=1, colors=128).save(
                target, optimize=True)
            print(target.relative_to(ROOT))


def changes() -> None:
    """`cardkit diff --sheet` of Lantern Market 1.0 against a 1.1 with one card's words,
    one cost and the night back's colour changed."""
    import shutil
    import subprocess
    import sys
    import tempfile

    with tempfile.TemporaryDirectory() as scratch:
        old, new = Path(scratch) / "old", Path(scratch) / "new"
        for folder in (old, new):
            shutil.copytree(ROOT / "examples" / "lantern-market", folder)
        for name, before, after in (
                ("cards.csv", "Cheap and bright.", "Cheap and warm."),
                ("cards.csv", "Captain,guard,market,4", "Captain,guard,market,5"),
                ("deck.yaml", 'colour: "#2a2438"', 'colour: "#3b2f5c"'),
                ("deck.yaml", 'version: "1.0"', 'version: "1.1"')):
            text = (new / name).read_text(encoding="utf-8")
            (new / name).write_text(text.replace(before, after), encoding="utf-8")
        sheet = Path(scratch) / "changes.png"
        subprocess.run([sys.executable, "-m", "cardkit", "diff", str(old), str(new), "--sheet",
                        str(sheet)], check=True, capture_output=True)
        image = Image.open(sheet)
        image = image.crop((0, 0, image.width, round(image.height * 0.593)))  # 3 rows
        image = image.resize((image.width // 2, image.height // 2), Image.LANCZOS)  # 150 dpi
        target = ROOT / "docs" / "changes.png"
        image.convert("P", palette=1, colors=128).save(target, optimize=True)
        print(target.relative_to(ROOT))


def ink_table() -> None:
    """The docs' table of the ink a page takes, full and draft (`--ink draft`): each
    bundled deck built both ways, every page's mean darkness."""
    import subprocess
    import sys
    import tempfile

    from PIL import ImageStat

    def ink(path: Path) -> list[float]:
        document = pdfium.PdfDocument(str(path))
        pages = [1 - ImageStat.Stat(document[i].render(scale=50 / 72).to_pil().convert("L"))
                 .mean[0] / 255 for i in range(len(document))]
        document.close()
        return pages

    with tempfile.TemporaryDirectory() as out:
        for ink_mode in ("full", "draft"):
            subprocess.run([sys.executable, "-m", "cardkit", "build", "--all", "--ink",
                            ink_mode, "--out", out], check=True, capture_output=True)
        for deck in sorted(PAGES):
            full = ink(Path(out) / deck / f"{deck}-pnp-a4.pdf")
            draft = ink(Path(out) / deck / f"{deck}-pnp-a4-draft-ink.pdf")
            print(f"| {deck} | {sum(full) / len(full):.0%} / {full[1]:.0%} | "
                  f"{sum(draft) / len(draft):.0%} / {draft[1]:.0%} | "
                  f"{1 - sum(draft) / sum(full):.0%} |")


def report() -> None:
    """The top of a simulation report as Chromium shows it: Blófa with random bots."""
    import subprocess
    import sys
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        subprocess.run([sys.executable, "-m", "cardkit", "simulate", "blofa", "--games",
                        "4000", "--report", f"{folder}/report"],
                       check=True, stdout=subprocess.DEVNULL)
        _screenshot("report.png", Path(f"{folder}/report/report.html").as_uri(), (900, 1350),
                    64, lambda page: None)


def studio() -> None:
    """The studio in Chromium: Lantern Market's contact sheet, card 4 open, the pointer
    on its title."""

    def card_4(page) -> None:
        # a function, not a string to evaluate: the studio's Content-Security-Policy has no eval
        page.wait_for_function("() => document.querySelectorAll('#sheet figure img').length"
                               " === 8 && [...document.images].every(i => i.complete)",
                               polling=50, timeout=60000)
        page.click("figure[data-number='4']")
        page.check("#boxes")
        page.hover("#side-front .element[data-name='title']")
        page.wait_for_timeout(300)

    _studio_screenshot("studio.png", (1100, 820), card_4)


def studio_layout() -> None:
    """The studio in Chromium: a copy of Lantern Market, card 2 open, its title clicked and
    dragged 2 mm to the right (the copy's layout is written, not the example's)."""
    import shutil
    import tempfile

    def moved(page) -> None:
        page.wait_for_function("() => document.querySelectorAll('#sheet figure img').length"
                               " === 8 && [...document.images].every(i => i.complete)",
                               polling=50, timeout=60000)
        page.click("figure[data-number='2']")
        page.wait_for_function("() => document.querySelector('#side-front .layer')"
                               ".clientHeight > 300", polling=50, timeout=60000)
        title = page.locator("#side-front .element[data-name='title']")
        title.click()
        box = title.bounding_box()
        per_mm = page.locator("#side-front .layer").bounding_box()["width"] / 63.5
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        page.mouse.move(x, y)
        page.mouse.down()
        page.mouse.move(x + 2 * per_mm, y, steps=6)
        page.mouse.up()
        page.wait_for_function("() => document.querySelector('#element-info .box-note')"
                               ".textContent.startsWith('saved')", polling=50, timeout=60000)
        page.mouse.move(1000, 850)  # off the card: no element hovered
        page.locator("#element-info button.open").scroll_into_view_if_needed()
        page.wait_for_timeout(500)

    with tempfile.TemporaryDirectory() as folder:
        deck = Path(folder) / "lantern-market"
        shutil.copytree(ROOT / "examples" / "lantern-market", deck)
        _studio_screenshot("studio-layout.png", (1100, 900), moved, Path(folder),
                           ["lantern-market", "--editor", "code -g {file}:{line}"])


def _studio_screenshot(name: str, viewport: tuple[int, int], ready, folder: Path = ROOT,
                       serve=("examples/lantern-market",)) -> None:
    """docs/NAME: the studio serving Lantern Market (`cardkit serve SERVE...`, run in
    ``folder``), once ``ready(page)`` has returned."""
    import re
    import subprocess
    import sys

    serving = subprocess.Popen([sys.executable, "-m", "cardkit", "serve", *serve, "--no-open",
                                "--port", "0"], cwd=folder, stdout=subprocess.PIPE, text=True)
    try:
        address = re.search(r"http://\S+/", serving.stdout.readline()).group(0)
        _screenshot(name, address, viewport, 96, ready)
    finally:
        serving.terminate()
        serving.wait(timeout=30)


def studio_grid() -> None:
    """The studio's Grid tab in Chromium: Lantern Market's goods, sorted by cost, Spice
    Jar selected."""

    def goods(page) -> None:
        page.wait_for_function("() => document.querySelectorAll('#sheet figure img').length"
                               " === 8", polling=50, timeout=60000)
        page.click("nav button[data-view='grid']")
        page.fill("#grid-filter", "kind=good")
        page.click("#grid-table th[data-column='cost'] button")
        page.click("#grid-table tr[data-number='2'] td:first-child button")

    _studio_screenshot("studio-grid.png", (1100, 440), goods)


def _screenshot(name: str, address: str, viewport: tuple[int, int], colours: int,
                ready) -> None:
    """docs/NAME: the page at ``address`` in headless Chromium, once ``ready(page)`` has
    returned (skipped without Chromium)."""
    import shutil
    import tempfile

    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if not chromium:
        print(f"docs/{name}: skipped, Chromium is not installed (apt-get install chromium)")
        return
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as folder, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": viewport[0], "height": viewport[1]})
        page.goto(address)
        ready(page)
        page.screenshot(path=f"{folder}/shot.png")
        browser.close()
        target = ROOT / "docs" / name
        Image.open(f"{folder}/shot.png").convert("P", palette=1, colors=colours).save(
            target, optimize=True)
        print(target.relative_to(ROOT))


def main() -> None:
    report()
    studio()
    studio_layout()
    studio_grid()
    starter()
    changes()
    calibration()
    close_up()
    german_cards()
    every_script()
    rulebook()
    for deck, pages in PAGES.items():
        pdf = pdfium.PdfDocument(str(ROOT / "output" / deck / f"{deck}-pnp-a4.pdf"))
        for page in pages:
            image = pdf[page].render(scale=DPI / 72).to_pil()
            target = ROOT / "docs" / f"{deck}-{page + 1}.png"
            image.convert("P", palette=1, colors=64).save(target, optimize=True)
            print(target.relative_to(ROOT))
        pdf.close()
    print("the ink table for docs/print-at-home.md ('--ink draft'):")
    ink_table()


if __name__ == "__main__":
    main()
