"""The studio's grid in a real browser (issue 59): every card as a table, filtered, sorted
and counted; a cell edited as the card's detail edits it; a card added, copied, deleted
and undone, the file given back byte for byte; no other site's page can do any of it.
Skipped by name without Chromium; required in CI."""

from __future__ import annotations

import json

from conftest import PATIENCE
from test_studio_browser import served, wait  # noqa: F401 (served: a fixture)

SPICE_TEXT = b'"When you buy it, draw a card."'


def grid_of(page, address: str, growing=None, cards: int = 8) -> None:
    """The studio's page, on its Grid tab, with its ``cards`` drawn; ``growing``: the
    deck's folder, whose composition is left out first (an added card keeps it loading)."""
    if growing:
        text = (growing / "deck.yaml").read_text()
        (growing / "deck.yaml").write_text(text[:text.index("composition:")] +
                                           text[text.index("# in English"):])
    page.goto(address)
    wait(page, f"document.querySelectorAll('#sheet figure img').length === {cards}")
    page.click("nav button[data-view='grid']")
    wait(page, f"document.querySelectorAll('#grid-table tbody tr').length === {cards}" + (
        " && document.getElementById('problems').hidden" if growing else ""))


def typed(page, key: str, value: str) -> None:
    """``value`` typed into the cell ``key`` ('2/cost'), which is then left (so saved)."""
    page.fill(f"[data-key='{key}'] :is(input, textarea)", value)
    page.click("#grid-count")


def select(page, number: int) -> None:
    page.click(f"#grid-table tr[data-number='{number}'] td:first-child button")


def rows(page) -> list[int]:
    return page.evaluate("[...document.querySelectorAll('#grid-table tbody tr')]"
                         ".map(r => Number(r.dataset.number))")


def test_the_grid_filters_sorts_and_counts(served, browser_page):  # noqa: F811
    deck, address = served
    page = browser_page
    grid_of(page, address)
    assert page.inner_text("#grid-count") == "8 cards, 21 printed"
    assert page.is_hidden("#filter")  # the grid's own filter, not the sheet's
    page.fill("#grid-filter", "guard")
    wait(page, "document.querySelectorAll('#grid-table tbody tr').length === 2")
    assert rows(page) == [5, 6]  # Night Watch and the Captain
    assert page.inner_text("#grid-count") == "2 of 8 cards, 21 printed"
    page.fill("#grid-filter", "cost=5")
    wait(page, "document.querySelectorAll('#grid-table tbody tr').length === 1")
    assert rows(page) == [4]
    page.fill("#grid-filter", "")
    page.click("#grid-table th[data-column='cost'] button")
    # costs 3 2 1 5 2 4 0 0: the cheapest first, ties in the deck's order
    assert rows(page) == [7, 8, 3, 2, 5, 1, 6, 4]
    assert page.get_attribute("th[data-column='cost']", "aria-sort") == "ascending"
    page.click("#grid-table th[data-column='cost'] button")
    assert rows(page) == [4, 6, 1, 5, 2, 3, 8, 7]
    assert page.get_attribute("th[data-column='cost']", "aria-sort") == "descending"
    page.click("#grid-table th[data-column='name'] button")
    assert rows(page) == [6, 8, 4, 3, 5, 1, 2, 7]  # Captain, Festival, Golden Lamp...
    page.screenshot(path=str(deck.parent / "grid-sorted.png"), full_page=True)


def test_a_cell_edited_in_the_grid_reaches_cards_csv(served, browser_page):  # noqa: F811
    deck, address = served
    page = browser_page
    grid_of(page, address)
    cards = deck / "cards.csv"
    written = cards.read_bytes()
    typed(page, "2/text", 'Draw two, "then" rest.')
    wait(page, "document.querySelector(\"[data-key='2/text'] .field-note\")?.textContent"
               ".startsWith('saved to cards.csv')")
    assert cards.read_bytes() == written.replace(SPICE_TEXT, b'"Draw two, ""then"" rest."')
    saved = cards.read_bytes()
    typed(page, "2/cost", "four")
    wait(page, "document.querySelector(\"[data-key='2/cost'] .field-note.problem\")")
    assert page.inner_text("[data-key='2/cost'] .field-note").endswith(
        "cards.csv:3: column 'cost': 'four' is not a whole number; write a number such as 4")
    assert cards.read_bytes() == saved
    page.click("#grid-undo")  # the text's edit, the last change saved
    wait(page, "document.getElementById('grid-said').textContent === "
               "'Undone: the edit of text of #2.'")
    assert cards.read_bytes() == written


def test_a_cards_count_is_edited_in_the_grid(served, browser_page):  # noqa: F811
    deck, address = served
    page = browser_page
    grid_of(page, address, growing=deck)  # (the composition's 21 cards would not load)
    cards = deck / "cards.csv"
    written = cards.read_bytes()
    typed(page, "2/count", "6")
    wait(page, "document.getElementById('grid-count').textContent === "
               "'8 cards, 23 printed'")
    assert cards.read_bytes() == written.replace(b"Spice Jar,good,market,2,,stall,no,4,",
                                                 b"Spice Jar,good,market,2,,stall,no,6,")
    assert page.inner_text("figure[data-number='2'] figcaption") == "#2 Spice Jar ×6"
    typed(page, "2/count", "0")
    wait(page, "document.querySelector(\"[data-key='2/count'] .field-note.problem\")")
    assert page.inner_text("[data-key='2/count'] .field-note").endswith(
        "cards.csv:3: count is 0 but must be between 1 and 10000; remove the card instead "
        "of giving it count 0")
    assert b"Spice Jar,good,market,2,,stall,no,6," in cards.read_bytes()


def test_add_duplicate_delete_and_undo_give_cards_csv_back(served, browser_page):  # noqa: F811
    deck, address = served
    page = browser_page
    grid_of(page, address, growing=deck)
    cards = deck / "cards.csv"
    original = cards.read_bytes()
    lines = original.split(b"\n")

    select(page, 2)
    assert page.inner_text("#grid-add") == "Add card after #2"
    page.click("#grid-add")
    wait(page, "document.querySelectorAll('#grid-table tbody tr').length === 9")
    assert cards.read_bytes() == b"\n".join(
        lines[:3] + [b"New card,good,market,2,,stall,,1,,,,"] + lines[3:])
    assert page.get_attribute("#grid-table tr.selected", "data-number") == "3"
    typed(page, "3/name", "Tea Chest")  # the new card's name
    wait(page, "document.querySelector(\"[data-key='3/name'] .field-note\")?.textContent"
               ".startsWith('saved')")
    assert b"\nTea Chest,good,market,2,,stall,,1,,,,\n" in cards.read_bytes()

    select(page, 1)
    page.click("#grid-duplicate")
    wait(page, "document.querySelectorAll('#grid-table tbody tr').length === 10")
    assert cards.read_bytes().split(b"\n")[1:3] == [lines[1], lines[1]]
    select(page, 10)
    page.click("#grid-delete")  # Festival, the last row
    wait(page, "document.querySelectorAll('#grid-table tbody tr').length === 9")
    assert b"Festival" not in cards.read_bytes()
    page.screenshot(path=str(deck.parent / "grid-changed.png"), full_page=True)

    assert page.inner_text("#grid-undo") == "Undo (4)"
    for left in (3, 2, 1, 0):
        page.click("#grid-undo")
        wait(page, f"document.getElementById('grid-undo').textContent === "
                   f"{'Undo' + (f' ({left})' if left > 1 else '')!r} && "
                   "document.getElementById('grid-said').textContent.startsWith('Undone')")
    assert cards.read_bytes() == original
    wait(page, "document.querySelectorAll('#grid-table tbody tr').length === 8")
    assert page.is_disabled("#grid-undo")


def test_a_card_that_breaks_the_deck_is_undone_and_rows_say_why_they_are_read_only(
        served, browser_page):  # noqa: F811
    """Lantern Market promises 21 cards: one more does not load. The grid keeps the last
    good cards, read-only, and says why; undo gives the file back."""
    deck, address = served
    page = browser_page
    grid_of(page, address)
    cards = deck / "cards.csv"
    original = cards.read_bytes()
    select(page, 4)
    page.click("#grid-duplicate")
    page.wait_for_selector("#problems:not([hidden])", timeout=PATIENCE * 1000)
    assert "promises 21 cards but has 22" in page.inner_text("#problems")
    wait(page, "document.querySelector('#grid-read-only p')?.textContent.startsWith("
               "'Every row is read-only: the deck does not load')")
    assert page.query_selector("#grid-table tbody textarea") is None
    assert page.is_disabled("#grid-delete") and page.is_enabled("#grid-undo")
    page.screenshot(path=str(deck.parent / "grid-broken.png"), full_page=True)
    page.click("#grid-undo")
    wait(page, "document.getElementById('problems').hidden && "
               "document.querySelector('#grid-table tbody textarea')")
    assert cards.read_bytes() == original


def test_another_pages_post_cannot_add_delete_or_undo(served, browser_page):  # noqa: F811
    """A page of another origin (another port of this machine, which even knows the
    token and the file's version) posts each row change and an undo, by script and by a
    form: none is written."""
    deck, address = served
    page = browser_page
    grid_of(page, address, growing=deck)
    cards = deck / "cards.csv"
    select(page, 1)
    page.click("#grid-add")  # the page's own change, which the other page tries to undo
    wait(page, "document.querySelectorAll('#grid-table tbody tr').length === 9")
    added = cards.read_bytes()
    token = page.get_attribute("meta[name='cardkit-token']", "content")
    version = page.evaluate("Object.values(state.files)[0]")
    bodies = [{"op": op, "card": 2, "version": version} for op in ("add", "duplicate",
                                                                    "delete")]
    bodies.append({"op": "undo", "change": 1})
    other = "http://127.0.0.1:1/"
    script = f"""
      const bodies = {json.dumps(bodies)};
      (async () => {{
        for (const body of bodies) {{
          for (const [mode, type] of [["cors", "application/json"], ["no-cors", "text/plain"]]) {{
            try {{
              await fetch({json.dumps(address + "api/edit")}, {{method: "POST", mode,
                credentials: "include", headers: {{"Content-Type": type,
                "X-Cardkit-Token": {json.dumps(token)}}}, body: JSON.stringify(body)}});
            }} catch (error) {{}}
          }}
        }}
        document.title = "posted";
        document.forms[0].submit();
      }})();"""
    form = (f"<form method=post enctype=text/plain action='{address}api/edit'>"
            f"<input name='{{\"op\": \"undo\", \"change\": 1, \"x\": \"' value='\"}}'></form>")
    page.route(other, lambda route: route.fulfill(
        content_type="text/html", body=f"<!doctype html>{form}<script>{script}</script>"))
    answers = []
    page.on("response", lambda response: "/api/edit" in response.url and
            answers.append(response.status))
    page.goto(other)
    page.wait_for_url(address + "api/edit", timeout=PATIENCE * 1000)  # the form, posted last
    assert answers and set(answers) == {403}
    assert cards.read_bytes() == added


def test_generated_rows_are_read_only_and_the_page_says_why(served, browser_page):  # noqa: F811
    """Two storms made by a 'product' of names: their rows are text, not inputs, and the
    note above the grid names them and why; the row buttons are off for them."""
    deck, address = served
    page = browser_page
    text = (deck / "deck.yaml").read_text()
    (deck / "deck.yaml").write_text(text.replace("cards:\n  from: cards.csv\n", (
        "cards:\n  - from: cards.csv\n  - {kind: event, art: storm, cost: 0, back: night, "
        "product: {name: [Gale, Squall]}}\n")))
    grid_of(page, address, growing=deck, cards=10)
    assert page.inner_text("#grid-read-only") == (
        "Rows #9–#10 are read-only: this card is made by a 'product' of lists, with others "
        "from the same entry: change the entry in your editor.")
    assert page.query_selector("tr[data-number='9'] textarea") is None
    assert page.inner_text("tr[data-number='10'] td:nth-child(2)") == "Squall"
    assert page.query_selector("tr[data-number='8'] textarea") is not None
    select(page, 9)
    assert page.is_disabled("#grid-add") and page.is_disabled("#grid-delete")
    assert page.get_attribute("#grid-delete", "title").startswith(
        "Read-only: this card is made by a 'product'")
    select(page, 8)
    assert page.is_enabled("#grid-delete")
