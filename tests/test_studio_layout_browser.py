"""The studio's layouts in a real browser (issue 59): an element clicked on the card says
its layout file and line; dragged 2 mm, only its box's numbers change in the layout file
and the card is drawn again; a conflicting file is not written and the page says so; a
page of another site cannot move a box. Skipped by name without Chromium."""

from __future__ import annotations

import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import PATIENCE
from test_studio_browser import studio_thread

ROOT = Path(__file__).resolve().parent.parent
TITLE_BOX = b"box: [5mm, 30mm, 40mm, 10mm]"  # the title's box in market-card.yaml, line 14


def serve(deck: Path, *options: str):
    child = subprocess.Popen([sys.executable, "-m", "cardkit", "serve", str(deck), "--no-open",
                              "--port", "0", *options], cwd=deck.parent,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             start_new_session=True,
                             preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    line = child.stdout.readline()
    address = re.search(r"http://127\.0\.0\.1:\d+/", line)
    assert address, line + child.stderr.read()
    return child, address.group(0)


@pytest.fixture
def served(tmp_path, monkeypatch):
    """A copy of Lantern Market served by the studio, run in tmp_path: (its folder, the
    address)."""
    deck = tmp_path / "lantern-market"
    shutil.copytree(ROOT / "examples" / "lantern-market", deck)
    monkeypatch.chdir(tmp_path)
    with studio_thread(deck) as address:
        yield deck, address


@pytest.fixture
def served_with_editor(tmp_path):
    """A copy of Lantern Market served by `cardkit serve --editor` (docs/studio.md's
    example) with a fake editor that writes down its words: (its folder, the address,
    the file the editor writes)."""
    deck = tmp_path / "lantern-market"
    shutil.copytree(ROOT / "examples" / "lantern-market", deck)
    said = tmp_path / "editor-said.txt"
    editor = tmp_path / "fake-editor"
    editor.write_text(f"#!/bin/sh\nprintf '%s\\n' \"$@\" > {said}.part\n"
                      f"mv {said}.part {said}\n")  # the whole words at once
    editor.chmod(0o755)
    child, address = serve(deck, "--editor", f"{editor} --line {{line}} {{file}}")
    yield deck, address, said
    child.send_signal(signal.SIGINT)
    child.wait(timeout=10)


def wait(page, condition: str) -> None:
    page.wait_for_function(f"() => ({condition})", polling=50, timeout=PATIENCE * 1000)


def card_open(page, address: str, number: int = 2) -> None:
    """The studio's page at ``address``, card ``number``'s detail open, drawn."""
    page.goto(address)
    wait(page, "[...document.querySelectorAll('#sheet figure img')].length === 8 && "
               "[...document.images].filter(i => i.closest('figure'))"
               ".every(i => i.complete && i.naturalWidth)")
    page.click(f"figure[data-number='{number}']")
    # the boxes lie on the image: measured once it is drawn at its size
    wait(page, "document.querySelector('#side-front img').naturalWidth > 0 && "
               "document.querySelector('#side-front .layer').clientHeight > 300")


def title(page):
    return page.locator("#side-front .element[data-name='title']")


def drag(page, element, right_mm: float, down_mm: float) -> tuple[dict, float]:
    """Drag ``element`` from its middle by millimetres of the card (the layer is the trim,
    63.5 mm wide), in steps as a hand does; (its box before, pixels per millimetre)."""
    box = element.bounding_box()
    per_mm = page.locator("#side-front .layer").bounding_box()["width"] / 63.5
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + right_mm * per_mm / 2, y + down_mm * per_mm / 2, steps=4)
    page.mouse.move(x + right_mm * per_mm, y + down_mm * per_mm, steps=4)
    page.mouse.up()
    return box, per_mm


def test_an_element_clicked_says_its_line_and_dragged_2mm_changes_only_its_box(
        served_with_editor, browser_page):
    deck, address, said = served_with_editor
    page = browser_page
    card_open(page, address)
    layout = deck / "layouts" / "market-card.yaml"
    before = layout.read_bytes()
    front = page.get_attribute("#side-front img", "src")
    title(page).click()
    info = page.inner_text("#element-info")
    assert "title (text, front): " in info and "market-card.yaml:14:5" in info, info
    assert "Box 5, 30 mm, 40 × 10 mm." in info
    # its entry in the editor: the fake editor is given the line and the deck's own file
    page.click("#element-info button.open")
    wait(page, "document.querySelector('#element-info .opened').textContent.includes('opened')")
    patience = time.monotonic() + PATIENCE  # the editor runs on its own: until it wrote
    while not said.exists() and time.monotonic() < patience:
        page.wait_for_timeout(50)
    assert said.read_text().splitlines() == ["--line", "14", str(layout)]

    box, per_mm = drag(page, title(page), 2, 0.2)  # 2 mm right, a hand's wobble down
    wait(page, "document.querySelector('#element-info .box-note').textContent"
               ".startsWith('saved to market-card.yaml')")
    after = layout.read_bytes()
    start = before.index(TITLE_BOX) + len(b"box: [")
    assert after[:start] == before[:start]
    assert after[start:] == b"7" + before[start + 1:]  # x 5mm -> 7mm, no other byte
    # drawn again: the card's front has a new image, the element's box is where it went
    wait(page, f"document.querySelector('#side-front img').src !== {front!r}")
    wait(page, "document.querySelector('#element-info .where').textContent"
               ".includes('Box 7, 30 mm')")
    moved = title(page).bounding_box()
    assert moved["x"] - box["x"] == pytest.approx(2 * per_mm, abs=1.5)
    page.screenshot(path=str(deck.parent / "moved.png"))

    # the grid's Undo lists the move, and takes it back: the layout byte for byte
    page.keyboard.press("Escape")
    page.click("nav button[data-view='grid']")
    wait(page, "!document.getElementById('grid-undo').disabled")
    assert page.get_attribute("#grid-undo", "title") == "Undo the move of title's box"
    page.click("#grid-undo")
    wait(page, "document.getElementById('grid-said').textContent"
               ".startsWith('Undone: the move of title')")
    assert layout.read_bytes() == before


def test_a_box_edit_of_a_changed_layout_is_refused_and_shown(served, browser_page):
    deck, address = served
    page = browser_page
    # the page is not told of the change on disk (its event stream says one thing, once)
    page.route("**/events", lambda route: route.fulfill(
        status=200, content_type="text/event-stream", body="retry: 600000\ndata: 1\n\n"))
    card_open(page, address)
    layout = deck / "layouts" / "market-card.yaml"
    theirs = layout.read_bytes().replace(TITLE_BOX, b"box: [6mm, 30mm, 40mm, 10mm]")
    layout.write_bytes(theirs)
    drag(page, title(page), 0, 3)
    wait(page, "document.querySelector('#element-info .box-note.problem')")
    assert page.inner_text("#element-info .box-note") == (
        "Not saved: market-card.yaml changed on disk since the page read it. Its box now reads "
        "«[6mm, 30mm, 40mm, 10mm]»; your edit was «y 33 mm».")
    assert layout.read_bytes() == theirs
    page.screenshot(path=str(deck.parent / "box-conflict.png"))


def test_a_box_outside_the_card_is_refused_with_validates_words(served, browser_page):
    deck, address = served
    layout = deck / "layouts" / "market-card.yaml"
    before = layout.read_bytes()
    card_open(browser_page, address)
    drag(browser_page, title(browser_page), 30, 0)
    wait(browser_page, "document.querySelector('#element-info .box-note.problem')")
    assert browser_page.inner_text("#element-info .box-note").endswith(
        "market-card.yaml:14:50: layout 'market-card', element 'title': reaches outside the "
        "card (right) and is cut off there; move or shrink its box")
    assert layout.read_bytes() == before
    wait(browser_page, "document.querySelector('#element-info .where').textContent"
               ".includes('Box 5, 30 mm')")


def test_another_sites_page_cannot_move_a_box(served, browser_page, tmp_path):
    """A page served from another origin posts to the studio as a form could, and as a
    script: neither reaches the file (no token; the guard refuses another site)."""
    deck, address = served
    layout = deck / "layouts" / "market-card.yaml"
    before = layout.read_bytes()
    page = browser_page
    body = ('{"card": 2, "side": "front", "element": "title", "box": {"x": 9}, '
            '"version": ""}')
    evil = (f"<form id=f method=post action='{address}api/edit' enctype='text/plain'>"
            f"<input name='{body[:-1]}' value='}}'></form>"
            f"<script>fetch('{address}api/edit', {{method: 'POST', mode: 'no-cors', "
            f"headers: {{'Content-Type': 'application/json', 'X-Cardkit-Token': 'guess'}}, "
            f"body: JSON.stringify({body})}}).finally(() => document.getElementById('f')"
            f".submit())</script>")
    page.route("http://evil.example/**", lambda route: route.fulfill(
        status=200, content_type="text/html", body=evil))
    page.goto("http://evil.example/")
    page.wait_for_url(re.compile(r".*/api/edit"), timeout=PATIENCE * 1000)
    assert "another web site" in page.content() or "own page" in page.content()
    assert layout.read_bytes() == before
