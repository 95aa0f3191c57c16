"""The studio in a real browser (issue 30): the contact sheet, a save seen on screen, a
broken save and its fix; the page's own options, a filter that matches nothing, a report
shown without its script (issue 37). Skipped by name without Chromium; required in CI."""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import socket
import threading
import time
from pathlib import Path

import pytest

from cardkit.sources.bundled import find_deck
from cardkit.studio.run import run_studio
from conftest import PATIENCE

ROOT = Path(__file__).resolve().parent.parent


@contextlib.contextmanager
def studio_thread(deck: Path, **options):
    """The address of ``deck`` served as `cardkit serve DECK` serves it (``options``:
    run_studio's), from a thread of this process, whose drawing code is loaded and warm,
    not from a process of its own (the command itself is tested in test_studio.py)."""
    listening = socket.create_server(("127.0.0.1", 0))
    address = f"http://127.0.0.1:{listening.getsockname()[1]}/"
    said, stop = [], threading.Event()
    studio = threading.Thread(target=run_studio, name="studio", kwargs=dict(
        deck_path=find_deck(str(deck)), listening=listening, open_page=False,
        say=said.append, deck_named=str(deck), stop=stop, **options))
    studio.start()
    try:
        yield address
    finally:
        stop.set()
        studio.join(PATIENCE)
    assert not studio.is_alive() and said == [f"cardkit studio: {address} (Ctrl-C stops)"]


@pytest.fixture
def served(tmp_path, monkeypatch):
    """A copy of Lantern Market served by the studio, run in tmp_path (where it looks
    for output/ and reports): (its folder, the address)."""
    deck = tmp_path / "lantern-market"
    shutil.copytree(ROOT / "examples" / "lantern-market", deck)
    monkeypatch.chdir(tmp_path)
    yield from serving(deck)


@pytest.fixture
def served_xlsx(tmp_path, monkeypatch):
    """Lantern Market with its cards in cards.xlsx, served: (its folder, the address)."""
    from test_studio_xlsx import lantern_xlsx

    deck = lantern_xlsx(tmp_path)
    monkeypatch.chdir(deck.parent)
    yield from serving(deck)


def serving(deck: Path):
    """The studio of ``deck`` until the test ends: (its folder, the address)."""
    with studio_thread(deck) as address:
        yield deck, address


def wait(page, condition: str) -> None:
    """Until ``condition`` holds, looked at every 50 ms (a headless page draws no frames
    to poll on). Given as a function: the studio's Content-Security-Policy forbids
    evaluating a string in the page."""
    page.wait_for_function(f"() => ({condition})", polling=50, timeout=PATIENCE * 1000)


def sources(page) -> dict:
    return page.evaluate("Object.fromEntries([...document.querySelectorAll('#sheet figure')]"
                         ".map(f => [f.dataset.number, f.querySelector('img').src]))")


def test_the_studio_shows_each_save(served, browser_page):
    deck, address = served
    page = browser_page
    refused = []  # what the Content-Security-Policy stopped: nothing of the studio's own
    page.on("console", lambda message: "Content Security Policy" in message.text
            and refused.append(message.text))
    page.goto(address)
    wait(page, "document.querySelectorAll('#sheet figure img').length === 8")
    wait(page, "[...document.images].filter(i => i.closest('figure'))"
         ".every(i => i.complete && i.naturalWidth)")
    assert page.title() == "Lantern Market · studio"
    assert page.inner_text("figure[data-number='2'] figcaption") == "#2 Spice Jar ×4"
    before = sources(page)

    cards = deck / "cards.csv"
    cards.write_text(cards.read_text().replace("draw a card.", "draw two cards."))
    wait(page, f"document.querySelector(\"figure[data-number='2'] img\").src !== "
         f"{before['2']!r}")
    after = sources(page)
    assert [n for n in before if before[n] != after[n]] == ["2"]  # that card, no other

    (deck / "deck.yaml").write_text((deck / "deck.yaml").read_text() + "\nsize: [\n")
    page.wait_for_selector("#problems:not([hidden])", timeout=PATIENCE * 1000)
    assert re.search(r"deck\.yaml:\d+:\d+: ", page.inner_text("#problems"))
    assert sources(page) == after  # the last good images stay
    assert "problems" in page.inner_text("#status")
    # ... marked as the last good ones, not what the files say now
    assert page.is_visible("#stale") and "last good save" in page.inner_text("#stale")
    assert page.get_attribute("#sheet", "class") == "view stale"

    (deck / "deck.yaml").write_text((deck / "deck.yaml").read_text().replace("\nsize: [\n", ""))
    page.wait_for_selector("#problems", state="hidden", timeout=PATIENCE * 1000)
    assert sources(page) == after
    assert page.is_hidden("#stale") and page.get_attribute("#sheet", "class") == "view"

    cards.write_text(cards.read_text().replace("draw two cards.",
                                               "draw two cards. " + "And more. " * 60))
    wait(page, "document.querySelector(\"figure[data-number='2']\").classList.contains('found')")
    page.click("figure[data-number='2']")
    assert "does not fit its box" in page.inner_text("#card-found")
    assert page.get_attribute("#side-front .element.found", "data-name") == "text"
    page.hover("#side-front .element[data-name='title']")
    assert re.match(r"title \(text, layout market-card\), [\d.]+ × [\d.]+ mm at [\d.]+, "
                    r"[\d.]+ mm: ", page.inner_text("#hovered"))
    # the card's data row, each field in an input to change it (issue 59)
    assert page.input_value("#card-fields [name='name']") == "Spice Jar"
    assert page.is_visible("#side-front .safe")
    page.uncheck("#guides")
    assert page.is_hidden("#side-front .safe")
    page.check("#guides")
    assert page.inner_text("#hovered").endswith(re.search(
        r"layouts/market-card\.yaml:\d+:\d+", page.inner_text("#hovered")).group(0))
    page.keyboard.press("Escape")

    drawn = sources(page)
    page.check("#bleed")  # every card drawn again with its bleed, then back as it was
    wait(page, f"[...document.querySelectorAll('#sheet figure img')].every(i => !{list(drawn.values())!r}"
               ".includes(i.src))")
    page.uncheck("#bleed")
    wait(page, f"[...document.querySelectorAll('#sheet figure img')].map(i => i.src).join() === "
               f"{','.join(drawn.values())!r}")

    page.click("nav button[data-view='pages']")
    wait(page, "document.querySelectorAll('#page-list img').length === 6")
    assert page.is_hidden("#sheet") and page.inner_text("#pages-note").startswith("6 pages on A4")
    page.click("nav button[data-view='rules']")  # Lantern Market has no rules.md: says so
    wait(page, "document.getElementById('rules-note').textContent.includes('rules.md')")
    assert page.is_visible("#paper-choice") and page.is_hidden("#pages")
    page.click("nav button[data-view='components']")  # its box, tokens and board, named
    wait(page, "document.querySelectorAll('#components-list img').length === 6")
    assert page.inner_text("#components-list figure:nth-child(3) figcaption") == \
        "tokens, page 2 (210 × 297 mm)"
    page.click("nav button[data-view='sheet']")
    assert page.is_hidden("#paper-choice")

    page.fill("#filter", "Queen")  # matches nothing: the page says so, and how to clear it
    page.wait_for_selector("#no-match:not([hidden])", timeout=PATIENCE * 1000)
    # in a browser's words, not the command line's (issue 58: '--cards: ...', 'FIELD=VALUE')
    assert page.inner_text("#no-match span") == (
        "No card matches 'Queen': 'Queen' is not a card number, a range or a field and its "
        "value; type card numbers and ranges such as 3, 7-9, or a field and its value such "
        "as name=Dragon. ")
    assert page.eval_on_selector_all("#sheet figure:not([hidden])", "fs => fs.length") == 0
    page.click("#show-all")
    wait(page, "document.querySelectorAll('#sheet figure:not([hidden])').length === 8")
    assert page.is_hidden("#no-match") and page.input_value("#filter") == ""
    page.fill("#filter", "name=Spice Jarr")  # a sentence that asks ends with its '?' only
    wait(page, "document.querySelector('#no-match span').textContent.includes('Jarr')")
    assert page.inner_text("#no-match span") == (
        "No card matches 'name=Spice Jarr': no card has name 'Spice Jarr'; did you mean "
        "'Spice Jar'? ")
    page.fill("#filter", "2-3")
    wait(page, "document.querySelectorAll('#sheet figure:not([hidden])').length === 2")
    page.click("figure[data-number='3']")
    assert page.inner_text("#card-name") == "#3 Lantern Oil"
    assert page.inner_text("#card-where").endswith("cards.csv:4")
    # everything the page loaded came from the studio itself
    origins = page.evaluate("performance.getEntriesByType('resource')"
                            ".map(r => new URL(r.name).origin)")
    assert origins and set(origins) == {address.rstrip("/")}
    assert refused == []


def test_each_page_has_its_own_language_and_a_report_runs_no_script(served, browser_page):
    import base64
    import io

    from PIL import Image

    deck, address = served
    page = browser_page
    page.goto(address)
    wait(page, "document.querySelectorAll('#sheet figure img').length === 8")
    assert page.eval_on_selector_all("#languages option", "os => os.map(o => o.textContent)") \
        == ["en (as written)", "de"]
    before = sources(page)
    page.select_option("#languages select", "de")
    wait(page, "document.querySelector(\"figure[data-number='2'] figcaption\").textContent"
         " === '#2 Gewürzglas ×4'")
    after = sources(page)
    assert all(before[n] != after[n] for n in before)  # every front has German words
    # the choice is this page's: in its address, kept on reloading; another tab is as written
    assert page.url == address + "?lang=de"
    other = page.context.new_page()  # another tab of the same browser
    other.goto(address)
    wait(other, "document.querySelectorAll('#sheet figure img').length === 8")
    assert other.inner_text("figure[data-number='2'] figcaption") == "#2 Spice Jar ×4"
    page.reload()
    wait(page, "document.querySelector(\"figure[data-number='2'] figcaption\")?.textContent"
         " === '#2 Gewürzglas ×4'")

    # a report that came with a shared deck: its styles and images show, its script not;
    # the tab names it and the time it was written (issue 58: an older one, unnamed)
    dot = io.BytesIO()
    Image.new("RGB", (4, 4), (200, 0, 0)).save(dot, "PNG")
    (deck / "sim").mkdir()
    (deck / "sim" / "summary.json").write_text('{"game": "lantern-market"}')
    (deck / "sim" / "report.html").write_text(
        "<!doctype html><style>h1{color:rgb(1, 2, 3)}</style><h1>The report</h1><img src="
        f"'data:image/png;base64,{base64.b64encode(dot.getvalue()).decode()}'>"
        "<script>document.title = 'ran'; parent.document.title = 'ran'</script>")
    written = time.mktime((2026, 1, 2, 3, 4, 0, 0, 0, -1))  # this machine's time
    os.utime(deck / "sim" / "report.html", (written, written))
    page.click("nav button[data-view='playtest']")
    page.wait_for_selector("#playtest-note:not([hidden])", timeout=PATIENCE * 1000)
    assert page.inner_text("#playtest-note") == ("The newest simulation report of this deck: "
                                                 "lantern-market/sim/report.html, written "
                                                 "2026-01-02 03:04.")
    report = page.frame_locator("#report")
    assert report.locator("h1").evaluate("h => getComputedStyle(h).color") == "rgb(1, 2, 3)"
    assert report.locator("img").evaluate("i => i.complete && i.naturalWidth") == 4
    assert report.locator("html").evaluate("() => document.title") != "ran"
    assert page.title() == "Lantern Market · studio"


def test_first_open_says_it_is_drawing_and_what_to_mend_when_nothing_can_be(served,
                                                                          browser_page):
    """Issue 58: the first open was a blank page while the deck was drawn; a deck broken
    from the start said 'the last good cards are shown' over no cards."""
    deck, address = served
    page = browser_page
    (deck / "deck.yaml").write_text((deck / "deck.yaml").read_text() + "\nsize: [\n")
    held = []  # the page's first ask for the deck, held: the server is still drawing
    page.route("**/api/deck*", lambda route: held.append(route))
    page.goto(address)
    while not held:
        page.wait_for_timeout(50)
    assert page.is_visible("#no-cards")
    assert page.inner_text("#no-cards").startswith("Drawing the cards…")
    held[0].continue_()
    page.unroute("**/api/deck*")

    page.wait_for_selector("#problems:not([hidden])", timeout=PATIENCE * 1000)
    assert re.search(r"deck\.yaml:\d+:\d+: ", page.inner_text("#problems"))
    assert "last good" not in page.inner_text("body")  # there are none
    assert page.is_hidden("#stale")
    assert page.inner_text("#status") == \
        "the deck has problems: mend them and save to draw its cards"
    assert page.inner_text("#no-cards") == (
        "No cards to show yet: the deck does not load. Mend the problem above and save; "
        "its cards are drawn as soon as it loads.")

    (deck / "deck.yaml").write_text((deck / "deck.yaml").read_text().replace("\nsize: [\n", ""))
    wait(page, "document.querySelectorAll('#sheet figure img').length === 8")
    assert page.is_hidden("#no-cards") and page.is_hidden("#problems")
    assert page.inner_text("#status").startswith("drawn in ")


SPICE_TEXT = b'"When you buy it, draw a card."'


def text_edited(page, address: str, file: str) -> dict:
    """The studio's page at ``address``, card 2's text changed in its detail to 'Draw two,
    "then" rest.' and saved to ``file``; the cards' images before it."""
    page.goto(address)
    wait(page, "[...document.querySelectorAll('#sheet figure img')].length === 8 && "
               "[...document.images].filter(i => i.closest('figure'))"
               ".every(i => i.complete && i.naturalWidth)")
    before = sources(page)
    page.click("figure[data-number='2']")
    assert page.is_hidden("#card-read-only")
    page.fill("#card-fields textarea[name='text']", 'Draw two, "then" rest.')
    page.click("#card-name")  # leaving the field saves it
    wait(page, "document.querySelector(\"[data-key='2/text'] .field-note\").textContent"
               f".startsWith('saved to {file}')")
    return before


def test_a_field_edited_in_the_cards_detail_reaches_cards_csv(served, browser_page):
    """Issue 59: the text of card 2 changed in the page is that cell of cards.csv, and
    the card is drawn again; a wrong value gets validate's message at the field."""
    deck, address = served
    page = browser_page
    cards = deck / "cards.csv"
    written = cards.read_bytes()
    before = text_edited(page, address, "cards.csv")
    assert cards.read_bytes() == written.replace(SPICE_TEXT, b'"Draw two, ""then"" rest."')
    wait(page, f"document.querySelector(\"figure[data-number='2'] img\").src !== "
         f"{before['2']!r}")
    after = sources(page)
    assert [n for n in before if before[n] != after[n]] == ["2"]  # that card, no other
    assert page.input_value("#card-fields textarea[name='text']") == 'Draw two, "then" rest.'

    saved = cards.read_bytes()
    page.fill("#card-fields input[name='cost']", "four")
    page.click("#card-name")
    wait(page, "document.querySelector(\"[data-key='2/cost'] .field-note.problem\")")
    assert page.inner_text("[data-key='2/cost'] .field-note").endswith(
        "cards.csv:3: column 'cost': 'four' is not a whole number; write a number such as 4")
    assert cards.read_bytes() == saved
    page.screenshot(path=str(deck.parent / "edited.png"))


def test_an_edit_of_a_file_changed_since_is_refused_and_shown(served, browser_page):
    """Issue 59: the page read cards.csv; it changed on disk since (the page was not
    told: its event stream says one thing here, once); the edit is not written, and the
    page says so, with the edit that was not saved and what the file says now."""
    deck, address = served
    page = browser_page
    page.route("**/events", lambda route: route.fulfill(
        status=200, content_type="text/event-stream", body="retry: 600000\ndata: 1\n\n"))
    page.goto(address)
    wait(page, "document.querySelectorAll('#sheet figure img').length === 8")
    page.click("figure[data-number='2']")
    cards = deck / "cards.csv"
    changed = cards.read_bytes().replace(SPICE_TEXT, b'"Theirs."')
    cards.write_bytes(changed)
    page.fill("#card-fields textarea[name='text']", "Mine.")
    page.click("#card-name")
    wait(page, "document.querySelector(\"[data-key='2/text'] .field-note.problem\")")
    assert page.inner_text("[data-key='2/text'] .field-note") == (
        "Not saved: cards.csv changed on disk since the page read it. It now says «Theirs.»; "
        "your edit was «Mine.».")
    assert cards.read_bytes() == changed
    page.screenshot(path=str(deck.parent / "conflict.png"))


def test_a_field_edited_in_the_cards_detail_reaches_cards_xlsx(served_xlsx, browser_page):
    """Issue 59: the text of card 2 changed in the page is that cell of cards.xlsx (every
    other cell as it was), and the card is drawn again; the page says its rows are
    changed in the spreadsheet program, and the grid offers no row buttons for it."""
    import zipfile

    from test_studio_xlsx import members, rows_read

    deck, address = served_xlsx
    page = browser_page
    cards = deck / "cards.xlsx"
    written = cards.read_bytes()
    before = text_edited(page, address, "cards.xlsx")
    expected = rows_read(written)
    assert expected[2][8] == "When you buy it, draw a card."
    expected[2][8] = 'Draw two, "then" rest.'
    assert rows_read(cards.read_bytes()) == expected
    sheet = "xl/worksheets/sheet1.xml"
    assert [m for m in members(cards.read_bytes()) if m[0] != sheet] == \
        [m for m in members(written) if m[0] != sheet]
    assert zipfile.ZipFile(cards).testzip() is None
    wait(page, f"document.querySelector(\"figure[data-number='2'] img\").src !== "
         f"{before['2']!r}")
    after = sources(page)
    assert [n for n in before if before[n] != after[n]] == ["2"]  # that card, no other
    page.screenshot(path=str(deck.parent / "edited-xlsx.png"))

    page.keyboard.press("Escape")
    page.click("nav button[data-view='grid']")
    wait(page, "document.querySelectorAll('#grid-table tbody tr').length === 8")
    page.click("#grid-table tbody tr[data-number='2'] td:last-child")
    assert page.is_disabled("#grid-add") and page.is_disabled("#grid-delete")
    assert page.inner_text("#grid-read-only") == (
        "Every row: a workbook's rows are added, "
        "copied and deleted in your spreadsheet program (every later cell, merged range and "
        "formula moves with them); the studio changes its cells only.")
    page.screenshot(path=str(deck.parent / "grid-xlsx.png"))
