"""Shared test fixtures: small decks written to a temporary folder, and builds of them."""

from __future__ import annotations

import functools
import os
import textwrap
from pathlib import Path

import pytest

from cardkit.common.units import MM
from cardkit.imposition.sheets import SheetOptions
from cardkit.pipeline.build import build_deck

# Each card's front and back fill the trim with a colour that names the card, so tests
# can find every card on a page by its colour.
ID_FRONT = """
elements:
  - {name: bg, kind: rect, box: card, bleed: true, fill: "{colour}"}
"""
ID_BACK = """
elements:
  - {name: bg, kind: rect, box: card, bleed: true, fill: "{colour}"}
  - {name: mark, kind: rect, box: [40%, 40%, 20%, 20%], fill: "{back.colour}"}
"""


FONT_DATA = Path(__file__).resolve().parents[1] / "examples" / "every-script" / "fonts"
RIGHT_TO_LEFT_FONT = FONT_DATA / "DejaVuSans-HebrewArabic.ttf"  # Latin, Hebrew, Arabic
CJK_FONT = FONT_DATA / "DroidSansFallback-CJK.ttf"  # kana and the tests' Han, no Latin
KOREAN_FONT = FONT_DATA / "HangulSubset-Korean.ttf"  # ASCII and the tests' Hangul


def font_file(font: str) -> Path:
    """The file of a bundled face ('Lato-Black') or a test font ('DejaVuSans-HebrewArabic')."""
    from cardkit.assets.fonts import FONT_DIR, FONT_FILES

    return FONT_DIR / FONT_FILES[font] if font in FONT_FILES else FONT_DATA / f"{font}.ttf"


def harfbuzz_width(text: str, font: str = "Lato", size: float = 10.0) -> float:
    """The oracle of a text's width, in points: HarfBuzz's own advances for it, set in the
    font's file (kerned, ligatures joined, as cardkit sets text), read here without
    cardkit."""
    import uharfbuzz

    face, hb_font = _harfbuzz(font)
    buffer = uharfbuzz.Buffer()
    buffer.add_str(text)
    buffer.guess_segment_properties()
    uharfbuzz.shape(hb_font, buffer, {})
    return sum(place.x_advance for place in buffer.glyph_positions) * size / face.upem


def harfbuzz_glyphs(text: str, font: str = "Lato") -> int:
    """How many glyphs HarfBuzz sets ``text`` in, in the font's file (fewer than its
    characters where ligatures join them), read here without cardkit."""
    import uharfbuzz

    _, hb_font = _harfbuzz(font)
    buffer = uharfbuzz.Buffer()
    buffer.add_str(text)
    buffer.guess_segment_properties()
    uharfbuzz.shape(hb_font, buffer, {})
    return len(buffer.glyph_infos)


def harfbuzz_forms(text: str, font: str) -> str:
    """The oracle of which glyphs a right-to-left word is drawn in: HarfBuzz's own for
    ``text`` in the font's file, left to right, each as the character the font's cmap
    gives it (an Arabic letter's joined form as its Unicode presentation form, as
    DejaVu Sans maps them), read here without cardkit."""
    import uharfbuzz
    from fontTools.ttLib import TTFont

    face, hb_font = _harfbuzz(font)
    buffer = uharfbuzz.Buffer()
    buffer.add_str(text)
    buffer.guess_segment_properties()
    uharfbuzz.shape(hb_font, buffer, {})
    tables = TTFont(font_file(font))
    codes = {name: code for code, name in tables.getBestCmap().items()}
    order = tables.getGlyphOrder()
    return "".join(chr(codes[order[info.codepoint]]) for info in buffer.glyph_infos)


@functools.lru_cache(maxsize=None)
def _harfbuzz(font: str):
    import uharfbuzz

    face = uharfbuzz.Face(font_file(font).read_bytes())
    return face, uharfbuzz.Font(face)


def card_colour(i: int) -> tuple[int, int, int]:
    """A distinct colour per card index (what the test decks use)."""
    return (10 + i % 200, 20 + (i * 7) % 200, 30 + (i * 13) % 200)


def hex_colour(rgb) -> str:
    return "#%02x%02x%02x" % rgb


PATIENCE = 300  # seconds: a safety net against a hang, never a measure of speed


def cpu_seconds(pid: int) -> float:
    """The CPU time (user and system) process ``pid`` has used, from /proc; 0 once gone.
    Tests that wait for another process count this, not the clock, which a machine whose
    cores other work shares stretches."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def zero_png(path, width: int, height: int) -> None:
    """A grey PNG of ``width`` x ``height`` zero pixels (``height`` a multiple of 100),
    written with struct and zlib: a valid header and a small body (177 megapixels in 170
    KB). The body is one compressed run of 100 rows, repeated: each run ends in a full
    flush, so the next starts afresh, and zeros' Adler-32 is their count."""
    import struct
    import zlib

    def chunk(tag: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + tag + data + \
            struct.pack(">I", zlib.crc32(tag + data))

    rows = b"\0" * ((width + 1) * 100)  # each row: its filter byte, then its pixels
    packer = zlib.compressobj(9, zlib.DEFLATED, -15)
    run = packer.compress(rows) + packer.flush(zlib.Z_FULL_FLUSH)
    body = b"\x78\xda" + run * (height // 100) + zlib.compressobj(9, zlib.DEFLATED, -15).flush() \
        + struct.pack(">I", ((width + 1) * height % 65521) << 16 | 1)
    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", body)
                     + chunk(b"IEND", b""))


def write_deck(folder: Path, yaml_text: str, layouts: dict | None = None) -> Path:
    """Write deck.yaml (and layouts/NAME.yaml files) into ``folder``; return the deck path."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "layouts").mkdir(exist_ok=True)
    for name, text in (layouts or {}).items():
        (folder / "layouts" / f"{name}.yaml").write_text(textwrap.dedent(text), encoding="utf-8")
    path = folder / "deck.yaml"
    path.write_text(textwrap.dedent(yaml_text), encoding="utf-8")
    return path


def id_deck(folder: Path, count: int, size: str = "poker", cards: str = "") -> Path:
    """A deck of ``count`` distinct cards, each coloured by :func:`card_colour`; or of the
    ``cards`` given (YAML lines under 'cards:')."""
    cards = cards or "\n".join(f"  - {{colour: '{hex_colour(card_colour(i))}'}}"
                               for i in range(count))
    return write_deck(folder, f"""
name: ids
size: {size}
front: id-front
backs:
  plain: {{layout: id-back, colour: '#ffffff'}}
fields:
  colour: colour
cards:
{cards}
""", {"id-front": ID_FRONT, "id-back": ID_BACK})


@pytest.fixture(autouse=True)
def cache_folder(tmp_path_factory, monkeypatch):
    """cardkit's caches (``cardkit list``'s) go to a folder of the test run, never to the
    user's own."""
    monkeypatch.setenv("CARDKIT_CACHE_DIR", str(tmp_path_factory.getbasetemp() / "cache"))


@pytest.fixture
def build(tmp_path):
    """build(deck_path, **options) -> BuildResult, writing into a temporary output folder."""

    calls = []

    def run(deck_path, strict=False, bleed_mm=0.0, offset_mm=(0.0, 0.0), **options):
        sheet = SheetOptions(bleed=bleed_mm * MM,
                             back_offset=(offset_mm[0] * MM, offset_mm[1] * MM), **options)
        calls.append(deck_path)  # each build its own folder, so no build overwrites another
        return build_deck(deck_path, tmp_path / f"out{len(calls)}", sheet, strict)

    return run


def play_out(state, bots, rng, check=None):
    """Play a game (cardkit.games) to its end: each seat's bot picks from the legal moves
    with the one ``rng``, and the pick is asserted legal; ``check(state, move)`` runs
    before each move is applied. Returns the finished state."""
    while not state.is_over():
        seat = state.current_player()
        moves = state.legal_moves()
        move = bots[seat].choose(state.observation(seat), moves, rng)
        assert move in moves
        if check:
            check(state, move)
        state.apply(move)
    return state


# -- a real browser -------------------------------------------------------------------------
# Browser tests drive Debian's Chromium with Playwright. Where it is missing they are skipped,
# each by name in make test's summary; CI installs it and sets CARDKIT_BROWSER_TESTS=required,
# so there a missing browser fails them instead.

def chromium_path() -> str | None:
    import os
    import shutil

    return os.environ.get("CARDKIT_CHROMIUM") or shutil.which("chromium") \
        or shutil.which("chromium-browser")


# a page of the studios' site (127.0.0.1, whatever the port), answered by Playwright itself
KEEPER = "http://127.0.0.1/cardkit-tests-keep-the-renderer"
# run in a test's pages before they close; a page without storage (about:blank) throws
FORGET_STORAGE = "() => { try { localStorage.clear(); sessionStorage.clear(); } catch (e) {} }"


@pytest.fixture(scope="session")
def chromium():
    """A headless Chromium, started once a run in each worker that runs a browser test
    (a start costs about 1.7 s of CPU time), its one browser context (pages 1100 pixels
    wide), a page kept open in it and its Playwright event loop: (context, kept, loop).

    A page's renderer process costs about 0.8 s of Chromium's CPU time to start, more
    than a studio page's own work. So the pages share one: one context for the run,
    Chromium's one process a site (``--process-per-site``), and a page of the studios'
    site kept open all along, so that the process outlives each test's page.

    While Playwright's sync API lives it marks its loop as this thread's running one, which
    would make every asyncio.run() of the tests between fail; the loop is marked running
    only during a browser test (``browser_page``)."""
    import asyncio

    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium_path(), args=[
            "--no-sandbox", "--disable-gpu", "--process-per-site"])
        context = browser.new_context(viewport={"width": 1100, "height": 900})
        context.set_default_timeout(PATIENCE * 1000)  # a hang's safety net: a busy machine
        kept = context.new_page()
        kept.route(KEEPER, lambda route: route.fulfill(body="", content_type="text/html"))
        kept.goto(KEEPER)
        loop = asyncio.get_running_loop()  # Playwright's, marked running by the call above
        asyncio._set_running_loop(None)
        try:
            yield context, kept, loop
        finally:
            asyncio._set_running_loop(loop)
            browser.close()


@pytest.fixture
def browser_page(request):
    """A headless Chromium page of its own, 1100 pixels wide, closed after the test with
    every other page the test opened. Nothing of another test's reaches it: each test
    serves its studio on a port of its own, and a page's storage and cache are its
    address's (scheme, host and port); the pages' storage is emptied as they close (all
    file:// pages share one), and the context's cookies are cleared."""
    import asyncio
    import os

    if not chromium_path():
        message = f"browser test {request.node.name}: Chromium is not installed " \
            "(apt-get install chromium)"
        if os.environ.get("CARDKIT_BROWSER_TESTS") == "required":
            pytest.fail(message + ", and CI requires it")
        pytest.skip(message + ", skipped")
    context, kept, loop = request.getfixturevalue("chromium")
    asyncio._set_running_loop(loop)
    try:
        try:
            yield context.new_page()
        finally:
            for page in context.pages:
                if page is not kept:  # file:// pages (the docs site, a report) share storage
                    page.evaluate(FORGET_STORAGE)
                    page.close()
            context.clear_cookies()
    finally:
        asyncio._set_running_loop(None)
