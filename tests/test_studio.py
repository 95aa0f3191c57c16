"""`cardkit serve` (issue 30): the studio's images, its app and its safety."""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from cardkit.studio.images import Studio
from cardkit.studio.server import make_app

ROOT = Path(__file__).resolve().parent.parent
LANTERN = ROOT / "examples" / "lantern-market"


@pytest.fixture
def lantern(tmp_path) -> Path:
    """A copy of the example deck to change."""
    shutil.copytree(LANTERN, tmp_path / "lantern-market")
    return tmp_path / "lantern-market"


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new), encoding="utf-8")


def test_a_save_that_changes_one_card_redraws_that_card_only(lantern):
    studio = Studio(lantern / "deck.yaml")
    before = studio.rebuild()["cards"]
    assert [card["name"] for card in before][:3] == ["Silk Bolt", "Spice Jar", "Lantern Oil"]
    assert all(studio.images[card[side]].startswith(b"\x89PNG")
               for card in before for side in ("front", "back"))
    edit(lantern / "cards.csv", "When you buy it, draw a card.", "When you buy it, draw two.")
    after = studio.rebuild()["cards"]
    changed = [card["number"] for card, old in zip(after, before) if card != old]
    assert changed == [2]
    assert after[1]["back"] == before[1]["back"]  # its back did not change
    # the new image is the new drawing: it differs from the old one
    assert studio.images[after[1]["front"]] != studio.images.get(before[1]["front"], b"")


def test_a_broken_save_keeps_the_last_good_cards_and_lists_the_problem(lantern):
    studio = Studio(lantern / "deck.yaml")
    good = studio.rebuild()
    edit(lantern / "deck.yaml", "size: poker\n", "size: poker\nsize_typo: [\n")
    broken = studio.rebuild()
    assert broken["broken"] and broken["cards"] == good["cards"]
    assert all(card["front"] in studio.images for card in broken["cards"])
    where = broken["problems"][0]["where"]
    assert re.fullmatch(r".*deck\.yaml:\d+:\d+", where), where
    edit(lantern / "deck.yaml", "size_typo: [\n", "")
    fixed = studio.rebuild()
    assert not fixed["broken"] and fixed["problems"] == [] and fixed["version"] == 3


def test_the_app_serves_the_page_the_deck_and_the_images(lantern):
    studio = Studio(lantern / "deck.yaml")
    state = studio.rebuild()
    client = TestClient(make_app(studio), base_url="http://127.0.0.1:8719")
    page = client.get("/")
    assert page.status_code == 200 and "<script src=\"/app/studio.js\">" in page.text
    assert client.get("/app/studio.js").headers["content-type"].startswith("text/javascript")
    deck = client.get("/api/deck").json()
    assert deck["title"] == "Lantern Market" and len(deck["cards"]) == 8
    image = client.get(f"/cards/{state['cards'][0]['front']}.png")
    assert image.status_code == 200 and image.content.startswith(b"\x89PNG")
    assert client.get("/api/select", params={"cards": "2-3"}).json() == {"numbers": [2, 3]}
    assert "problem" in client.get("/api/select", params={"cards": "name=Dragon"}).json()


@pytest.mark.parametrize("host", ["evil.example", "evil.example:8719", "192.168.1.9"])
def test_a_request_addressed_to_another_host_is_refused(lantern, host):
    """DNS rebinding: a page elsewhere whose name now points here still sends its own name."""
    studio = Studio(lantern / "deck.yaml")
    studio.rebuild()
    client = TestClient(make_app(studio), base_url="http://127.0.0.1:8719")
    assert client.get("/api/deck", headers={"Host": host}).status_code == 400
    for local in ("127.0.0.1:8719", "localhost:8719", "[::1]:8719"):
        assert client.get("/api/deck", headers={"Host": local}).status_code == 200


@pytest.mark.parametrize("path", [
    "/app/../../pyproject.toml", "/app/..%2F..%2Fpyproject.toml", "/app/%2e%2e/deck.yaml",
    "/cards/..%2Fdeck.yaml.png", "/cards/../cards.csv", "/deck.yaml", "/cards.csv",
    "/app/index.htm", "/cards/0123.png"])
def test_no_url_reaches_the_file_system(lantern, path):
    studio = Studio(lantern / "deck.yaml")
    studio.rebuild()
    client = TestClient(make_app(studio), base_url="http://127.0.0.1:8719")
    answer = client.get(path)
    assert answer.status_code == 404, (path, answer.status_code)
    assert b"Lantern" not in answer.content and b"name,kind" not in answer.content


def test_serve_listens_on_this_machine_only_and_stops_on_ctrl_c(lantern):
    import json
    import urllib.request

    child = subprocess.Popen(
        [sys.executable, "-m", "cardkit", "serve", str(lantern), "--no-open", "--port", "0"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        line = child.stdout.readline()
        address = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        assert address, line
        deadline = time.monotonic() + 30
        while True:  # the first drawing is under way in the background
            with urllib.request.urlopen(address.group(0) + "api/deck") as answer:
                state = json.load(answer)
            if state["cards"] or time.monotonic() > deadline:
                break
            time.sleep(0.2)
        assert len(state["cards"]) == 8
        stream = urllib.request.urlopen(address.group(0) + "events")  # as an open page has
        assert stream.readline() == f"data: {state['version']}\n".encode()
        os.killpg(child.pid, signal.SIGINT)
        started = time.monotonic()
        child.wait(timeout=10)
        assert time.monotonic() - started < 5  # the open stream does not hold the stop up
        assert child.returncode == 0
        assert child.stderr.read() == ""  # no traceback, no complaint
    finally:
        if child.poll() is None:
            child.kill()


def test_a_port_in_use_is_a_clear_message(lantern):
    import socket

    taken = socket.create_server(("127.0.0.1", 0))
    try:
        done = subprocess.run([sys.executable, "-m", "cardkit", "serve", str(lantern),
                               "--no-open", "--port", str(taken.getsockname()[1])],
                              capture_output=True, text=True, timeout=60)
    finally:
        taken.close()
    assert done.returncode == 2
    assert "cannot listen on 127.0.0.1:" in done.stderr and "choose another --port" in done.stderr


def test_each_side_says_where_its_elements_are_and_what_was_found_on_them(lantern):
    studio = Studio(lantern / "deck.yaml")
    card = studio.rebuild()["cards"][1]
    front = card["elements"]["front"]
    assert front["layout"] == "market-card"
    title = next(item for item in front["items"] if item["name"] == "title")
    assert re.fullmatch(r".*layouts/market-card\.yaml:\d+:\d+", title["where"])
    assert 0 <= title["box"][0] < 50 and 0 < title["box"][2] <= 100  # percent of the card
    assert front["safe"][0] > 0 and card["found"] == []
    edit(lantern / "cards.csv", "When you buy it, draw a card.",
         "When you buy it, draw a card. " + "Then draw again and again. " * 30)
    found = studio.rebuild()["cards"][1]["found"]
    assert {f["severity"] for f in found} == {"warning"}
    assert any("does not fit its box" in f["what"] for f in found)
    text = next(item for item in front["items"] if item["name"] == "text")
    assert {f["element"] for f in found} == {text["where"]}  # the page outlines that one


def test_the_toggles_draw_bleed_draft_ink_and_a_variant():
    import io

    from PIL import Image

    from cardkit.sources.bundled import find_deck

    studio = Studio(find_deck("bullet"))
    client = TestClient(make_app(studio), base_url="http://127.0.0.1:8719")
    every = studio.rebuild()
    assert every["variants"] == {"players": ["2", "3", "4", "5"]} and len(every["cards"]) == 34
    two = client.post("/api/options", json={"variant": {"players": "2"}}).json()
    assert len(two["cards"]) == 22 and two["options"]["variant"] == {"players": "2"}
    bled = client.post("/api/options", json={"bleed": True}).json()
    width, height = Image.open(io.BytesIO(studio.images[bled["cards"][0]["front"]])).size
    trim = Image.open(io.BytesIO(client.get(f"/cards/{two['cards'][0]['front']}.png").content))
    # 1/8 in each side at 150 dpi: 19 pixels more on each side of the trim
    assert (width - trim.size[0], height - trim.size[1]) == (38, 37)
    assert bled["bleed"][0] == pytest.approx(100 * 9 / (63.5 * 72 / 25.4 + 18), abs=0.01)
    assert client.post("/api/options", json={"ink": "pencil"}).status_code == 400
    wrong = client.post("/api/options", json={"variant": {"players": "9"}}).json()
    assert wrong["broken"] and "has no option '9'" in wrong["problems"][0]["what"]


def test_draft_ink_redraws_what_it_lightens(lantern):
    studio = Studio(lantern / "deck.yaml")
    full = studio.rebuild()["cards"]
    draft = studio.choose(ink="draft")["cards"]
    assert all(a["front"] != b["front"] for a, b in zip(full, draft))
    assert studio.choose(ink="full")["cards"] == full  # and back again: the same drawing


def test_the_sheets_tab_shows_the_pages_as_they_print(lantern):
    import io

    from PIL import Image

    studio = Studio(lantern / "deck.yaml")
    studio.rebuild()
    client = TestClient(make_app(studio), base_url="http://127.0.0.1:8719")
    for paper, size in (("a4", [210.0, 297.0]), ("letter", [215.9, 279.4])):
        pages = client.get("/api/sheets", params={"paper": paper}).json()["pages"]
        assert len(pages) == 6 and all(page["mm"] == size for page in pages)  # 21 cards, 9 a page
        image = Image.open(io.BytesIO(client.get(f"/sheets/{pages[0]['key']}.png").content))
        assert image.size == (round(size[0] / 25.4 * 60), round(size[1] / 25.4 * 60))
    assert client.get("/api/sheets", params={"paper": "a5"}).status_code == 400


def test_the_playtest_tab_shows_the_newest_report_of_the_deck(lantern, tmp_path):
    from click.testing import CliRunner

    from cardkit.cli import main

    studio = Studio(lantern / "deck.yaml")
    studio.rebuild()
    client = TestClient(make_app(studio, report_folders=(tmp_path / "output",)),
                        base_url="http://127.0.0.1:8719")
    assert "No simulation report for this deck yet" in client.get("/playtest").text
    outcome = CliRunner().invoke(main, ["simulate", str(lantern), "--games", "50", "--workers",
                                        "1", "--report", str(tmp_path / "output" / "sim")])
    assert outcome.exit_code == 0, outcome.output
    page = client.get("/playtest").text
    assert "<h1>Lantern Market: 50 simulated games</h1>" in page


def test_the_studio_draws_a_language_of_the_deck(lantern):
    studio = Studio(lantern / "deck.yaml")
    english = studio.rebuild()
    assert english["languages"] == ["en", "de"]
    german = studio.choose(lang="de")
    assert [card["name"] for card in german["cards"]][:2] == ["Seidenballen", "Gewürzglas"]
    assert all(a["front"] != b["front"] for a, b in zip(english["cards"], german["cards"]))
    assert studio.choose(lang="fr")["broken"]
    assert studio.choose(lang="")["cards"] == english["cards"]


def test_card_ids_drawn_again_only_for_cards_that_changed(tmp_path, monkeypatch):
    """The studio keeps the print keys ids are made from while only cards.csv changes;
    the ids it shows are always those a fresh build prints."""
    from click.testing import CliRunner

    from cardkit.cli import main
    from cardkit.pipeline.build import load_chosen
    from cardkit.render import fingerprint

    CliRunner().invoke(main, ["new", str(tmp_path / "my-game")])
    deck = tmp_path / "my-game"
    studio = Studio(deck / "deck.yaml")
    studio.rebuild()
    drawn = []
    real = fingerprint.drawing_key
    monkeypatch.setattr(fingerprint, "drawing_key",
                        lambda *args: drawn.append(args[1].number) or real(*args))

    def ids():
        return [card.stamps["card.id"] for card in studio.deck.cards]

    def fresh():
        return [card.stamps["card.id"] for card in load_chosen(deck / "deck.yaml").cards]

    cards = deck / "cards.csv"
    cards.write_text(cards.read_text().replace("Draw two cards.", "Draw three cards."))
    drawn.clear()
    studio.rebuild(["my-game/cards.csv"])
    assert set(drawn) == {7} and ids() == fresh()  # Supplies, front and back
    layout = deck / "layouts" / "front-base.yaml"
    layout.write_text(layout.read_text().replace('fill: "#fdfbf6"', 'fill: "#fdfbf0"'))
    drawn.clear()
    studio.rebuild(["my-game/layouts/front-base.yaml"])
    assert set(drawn) == set(range(1, 9)) and ids() == fresh()
