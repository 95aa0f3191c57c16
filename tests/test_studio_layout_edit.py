"""The studio moves a layout element's box (issue 59): only the box's numbers change in the
layout file, only through the studio's guard, never over a newer file, never a box
validate refuses; "Open in editor" runs the user's editor, never one the deck or the
request names."""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from cardkit.common.units import MM
from cardkit.sources.rewrite import NotRewritten
from cardkit.sources.rewrite_box import replace_yaml_box, written_box
from cardkit.sources.yamlfile import parse_yaml
from cardkit.studio.editor import chosen_editor, editor_argv
from cardkit.studio.images import Studio
from cardkit.studio.server import make_app

ROOT = Path(__file__).resolve().parent.parent
LANTERN = ROOT / "examples" / "lantern-market"
BASE = "http://127.0.0.1:8719"


# -- the box's numbers, and no other byte ----------------------------------------------------

NUMBERS = st.sampled_from(["0", "5", "12.5", ".5", "-3", "63.5", "100", "7.25"])
UNITS = st.sampled_from(["mm", "cm", "in", "pt", "%"])
LENGTH = st.tuples(NUMBERS, st.sampled_from(["", " "]), UNITS, st.sampled_from(["", "'", '"']))
FORMS = ("flow list", "block list", "flow mapping", "block mapping")
PARTS = ("x", "y", "width", "height")


def written(form: str, lengths, order) -> tuple[str, list[int]]:
    """A box's value as ``form`` writes it, after 'box:' on an element indented 4, and the
    offset (in the value) where each length's number starts, by part."""
    texts = [quote + number + space + unit + quote for number, space, unit, quote in lengths]
    starts, text = [0] * 4, ""
    for place, index in enumerate(order):
        if form == "flow list":
            text += "[" if place == 0 else ", "
        elif form == "flow mapping":
            text += ("{" if place == 0 else ", ") + PARTS[index] + ": "
        elif form == "block list":
            text += "\n      - "
        else:
            text += "\n      " + PARTS[index] + ":  "
        starts[index] = len(text) + len(lengths[index][3])
        text += texts[index]
    return text + ("]" if form == "flow list" else "}" if form == "flow mapping" else ""), starts


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(FORMS), st.lists(LENGTH, min_size=4, max_size=4), st.permutations(range(4)),
       st.lists(st.one_of(st.none(), NUMBERS), min_size=4, max_size=4),
       st.sampled_from(["\n", "\r\n"]), st.booleans())
def test_a_box_edit_changes_only_the_numbers_that_change(form, lengths, order, numbers, ending,
                                                         comment):
    """An oracle that is not the code: the file is written piece by piece, so each
    number's offset is known; the new file is the old one with just those numbers
    replaced, every other byte (the units, quotes, spaces, comments, the other element's
    same box, the line endings) as it was."""
    if form.endswith("list"):
        order = range(4)  # a list's order is the box's
    box, starts = written(form, lengths, order)
    other, _ = written("flow list", lengths, range(4))
    head = f"# the card\nelements:\n  - {{name: twin, kind: rect, box: {other}}}\n" \
        f"  - name: moved   # this one\n    kind: rect\n    box: {box}" + \
        ("   # where it sits" if comment and form.startswith("flow") else "") + \
        "\n    fill: red\n"
    text = head.replace("\n", ending)
    start = text.index("box: ", text.index("name: moved")) + len("box: ")
    element = parse_yaml(text.encode(), "l.yaml")["elements"][1]
    at = element.at("box")
    parts = [None if number is None else number + lengths[index][2]
             for index, number in enumerate(numbers)]
    new = replace_yaml_box(text.encode(), at.line, at.col, parts).decode()
    expected = text
    shift = {index: start + starts[index] + box[:starts[index]].count("\n") * (len(ending) - 1)
             for index in range(4)}
    for index in sorted(range(4), key=lambda i: -shift[i]):
        if parts[index] is not None:
            old_number = lengths[index][0]
            expected = expected[:shift[index]] + numbers[index] + \
                expected[shift[index] + len(old_number):]
    assert new == expected
    read = parse_yaml(new.encode(), "l.yaml")["elements"][1]
    assert written_box(new.encode(), at.line, at.col) == [
        (numbers[i] if parts[i] else lengths[i][0]) + lengths[i][1] + lengths[i][2]
        for i in range(4)]
    assert {key: read[key] for key in read if key != "box"} == \
        {key: element[key] for key in element if key != "box"}


def test_a_box_written_as_card_becomes_four_lengths_and_a_shared_box_is_not_written():
    text = b"elements:\n  - {name: bg, kind: rect, box: card, fill: red}  # all of it\n"
    at = parse_yaml(text, "c.yaml")["elements"][0].at("box")
    assert replace_yaml_box(text, at.line, at.col, ["0mm", "0mm", "60mm", "88.9mm"]) == \
        b"elements:\n  - {name: bg, kind: rect, box: [0mm, 0mm, 60mm, 88.9mm], fill: red}" \
        b"  # all of it\n"
    shared = (b"elements:\n  - {name: a, kind: rect, box: &b [1mm, 1mm, 5mm, 5mm]}\n"
              b"  - {name: c, kind: rect, box: *b}\n")
    at = parse_yaml(shared, "s.yaml")["elements"][0].at("box")
    with pytest.raises(NotRewritten, match="shared through an anchor"):
        replace_yaml_box(shared, at.line, at.col, ["2mm", None, None, None])
    with pytest.raises(NotRewritten, match="no box is written at line 9"):
        replace_yaml_box(shared, 9, 1, ["2mm", None, None, None])


# -- through the studio ----------------------------------------------------------------------

@pytest.fixture
def lantern(tmp_path) -> Path:
    shutil.copytree(LANTERN, tmp_path / "lantern-market")
    return tmp_path / "lantern-market"


def client_of(deck: Path, base=BASE, **given) -> TestClient:
    return TestClient(make_app(Studio(deck / "deck.yaml"), **given), base_url=base)


def token_of(client: TestClient) -> str:
    return client.get("/").text.split('name="cardkit-token" content="')[1].split('"')[0]


def moved(client, box, element="title", side="front", card=2, version=None, headers=()):
    """A box edit as the page sends it (its token, the layout file's version)."""
    state = client.get("/api/deck").json()
    item = next(item for item in state["cards"][card - 1]["elements"][side]["items"]
                if item["name"] == element)
    if version is None:
        version = state["layouts"][item["box_file"]]["version"]
    return client.post("/api/edit", json={"card": card, "side": side, "element": element,
                                          "box": box, "version": version},
                       headers={"X-Cardkit-Token": token_of(client), **dict(headers)})


def test_a_box_edit_writes_that_box_in_its_unit_and_the_card_is_drawn_again(lantern):
    layout = lantern / "layouts" / "market-card.yaml"
    old = layout.read_bytes()
    layout.write_bytes(old.replace(b"box: [5mm, 30mm, 40mm, 10mm]",
                                   b"box: [5mm, '33.746%', 40mm, 0.3937in]"))
    before = layout.read_bytes()
    client = client_of(lantern)
    front = client.get("/api/deck").json()["cards"][1]["front"]
    answer = moved(client, {"y": 32, "height": 12})
    assert answer.json()["saved"], answer.json()
    assert layout.read_bytes() == before.replace(b"'33.746%', 40mm, 0.3937in",
                                                 b"'35.996%', 40mm, 0.4724in")
    state = client.get("/api/deck").json()
    assert state["cards"][1]["front"] != front
    title = next(i for i in state["cards"][1]["elements"]["front"]["items"]
                 if i["name"] == "title")
    assert title["mm"] == [5.0, 32.0, 40.0, 12.0]
    assert title["where"].endswith("market-card.yaml:14:5")


def test_a_box_move_is_undone_as_the_grids_changes_are(lantern):
    layout = lantern / "layouts" / "market-card.yaml"
    before = layout.read_bytes()
    client = client_of(lantern)
    answer = moved(client, {"x": 8}).json()
    assert answer["what"] == "the move of title's box" and layout.read_bytes() != before
    undone = client.post("/api/edit", json={"op": "undo", "change": answer["change"]},
                         headers={"X-Cardkit-Token": token_of(client)})
    assert undone.json()["undone"] == "the move of title's box"
    assert layout.read_bytes() == before


def test_a_box_validate_refuses_is_refused_with_its_words(lantern):
    layout = lantern / "layouts" / "market-card.yaml"
    before = layout.read_bytes()
    client = client_of(lantern)
    answer = moved(client, {"x": 30})
    assert answer.status_code == 422
    assert answer.json()["problem"] == {
        "where": f"{layout}:14:50", "fix": "move or shrink its box",
        "what": "layout 'market-card', element 'title': reaches outside the card (right) and "
                "is cut off there"}
    answer = moved(client, {"width": -2})
    assert answer.json()["problem"]["what"] == "box width and height must not be negative"
    # a bleed element may reach into the bleed (3.175 mm), not past it
    assert moved(client, {"x": -3}, element="band").json()["saved"]
    answer = moved(client, {"x": -4}, element="band")
    assert "reaches outside the bleed (left)" in answer.json()["problem"]["what"]
    assert layout.read_bytes() == before.replace(b"box: [0mm, 30mm, 63.5mm, 10mm]",
                                                 b"box: [-3mm, 30mm, 63.5mm, 10mm]")


def test_a_box_edit_of_a_changed_file_is_a_conflict(lantern):
    layout = lantern / "layouts" / "market-card.yaml"
    client = client_of(lantern)
    state = client.get("/api/deck").json()
    version = state["layouts"][str(layout)]["version"]
    theirs = layout.read_bytes().replace(b"[5mm, 30mm, 40mm, 10mm]", b"[6mm, 30mm, 40mm, 10mm]")
    layout.write_bytes(theirs)
    answer = moved(client, {"x": 9}, version=version)
    assert answer.status_code == 409
    assert answer.json()["now"] == "[6mm, 30mm, 40mm, 10mm]"
    assert layout.read_bytes() == theirs


def test_no_other_site_no_page_without_the_token_and_no_network_page_moves_a_box(lantern):
    layout = lantern / "layouts" / "market-card.yaml"
    before = layout.read_bytes()
    client = client_of(lantern)
    assert moved(client, {"x": 9}, headers={"Origin": "https://evil.example"}).status_code == 403
    assert moved(client, {"x": 9}, headers={"Sec-Fetch-Site": "cross-site"}).status_code == 403
    version = client.get("/api/deck").json()["layouts"][str(layout)]["version"]
    body = {"card": 2, "side": "front", "element": "title", "box": {"x": 9}, "version": version}
    assert client.post("/api/edit", json=body).status_code == 403  # no token
    assert client.post("/api/edit", content=str(body).replace("'", '"'), headers={
        "X-Cardkit-Token": token_of(client), "Content-Type": "text/plain"}).status_code == 403
    # a file name from the request is no part of an edit
    answer = client.post("/api/edit", json={**body, "file": str(lantern / "deck.yaml")},
                         headers={"X-Cardkit-Token": token_of(client)})
    assert answer.status_code == 400
    network = client_of(lantern, base="http://10.0.0.2:8719", listening="0.0.0.0")
    assert 'name="cardkit-token" content=""' in network.get("/").text
    answer = network.post("/api/edit", json=body, headers={"X-Cardkit-Token": ""})
    assert answer.status_code == 403 and "--allow-edit" in answer.json()["refused"]
    assert layout.read_bytes() == before


def test_a_box_from_the_layout_it_extends_is_written_there_and_a_bundled_one_never(lantern,
                                                                                   tmp_path):
    layouts = lantern / "layouts"
    (layouts / "plain-card.yaml").write_text(
        "extends: market-card\nelements:\n  - {name: title, align: center}\n")
    deck = lantern / "deck.yaml"
    deck.write_text(deck.read_text().replace("front: market-card", "front: plain-card"))
    client = client_of(lantern)
    title = next(i for i in client.get("/api/deck").json()["cards"][1]["elements"]["front"]
                 ["items"] if i["name"] == "title")
    assert title["where"].endswith("plain-card.yaml:3:5")  # its entry
    assert title["box_at"].endswith("market-card.yaml:14:50")  # its box
    base = (layouts / "market-card.yaml").read_bytes()
    assert moved(client, {"x": 6}).json()["saved"]
    assert (layouts / "market-card.yaml").read_bytes() == base.replace(
        b"[5mm, 30mm, 40mm, 10mm]", b"[6mm, 30mm, 40mm, 10mm]")

    shutil.copytree(ROOT / "decks" / "blofa", tmp_path / "blofa")
    studio = Studio(ROOT / "decks" / "blofa" / "deck.yaml")
    state = TestClient(make_app(studio), base_url=BASE).get("/api/deck").json()
    assert {entry["why"] for entry in state["layouts"].values()} == {
        "this layout ships with cardkit: copy it into your deck's layouts/ folder to change it"}


# -- open in editor --------------------------------------------------------------------------

def test_the_editor_is_the_users_own_and_gets_line_and_file():
    assert chosen_editor("subl -w", {"VISUAL": "gvim", "EDITOR": "nano"}) == "subl -w"
    assert chosen_editor(None, {"VISUAL": "", "EDITOR": "nano"}) == "nano"
    assert chosen_editor(None, {}) == ""
    odd = Path("/decks/a b/{line} $(touch x);.csv")
    assert editor_argv("kate --line {line} '{file}'", odd, 4) == [
        "kate", "--line", "4", str(odd)]
    assert editor_argv("vi", odd, 0) == ["vi", "+1", str(odd)]


def fake_editor(folder: Path) -> tuple[Path, Path]:
    """A script that writes down the words it is run with, and where it writes them."""
    said, script = folder / "said.txt", folder / "fake editor"
    script.write_text(f"#!/bin/sh\nprintf '%s\\n' \"$@\" > '{said}'\n")
    script.chmod(0o755)
    return script, said


def words_said(said: Path) -> list[str]:
    for _ in range(200):
        if said.exists() and said.read_text().endswith("\n"):
            return said.read_text().splitlines()
        time.sleep(0.025)
    raise AssertionError("the editor was not run")


def test_open_in_editor_runs_the_users_editor_at_the_decks_own_file(lantern, tmp_path):
    script, said = fake_editor(tmp_path)
    odd = "$(touch pwned); -x.csv"  # a deck's file named as a command would be
    os.rename(lantern / "cards.csv", lantern / odd)
    deck = lantern / "deck.yaml"
    deck.write_text(deck.read_text().replace("from: cards.csv", f"from: '{odd}'"))
    client = client_of(lantern, editor=f"'{script}'")
    token = token_of(client)
    answer = client.post("/api/open", json={"card": 2}, headers={"X-Cardkit-Token": token})
    assert answer.json() == {"opened": f"{odd}:3"}
    assert words_said(said) == ["+3", str(lantern.absolute() / odd)]
    assert not (lantern / "pwned").exists() and not Path("pwned").exists()
    said.unlink()
    answer = client.post("/api/open", json={"card": 2, "side": "back", "element": "lantern"},
                         headers={"X-Cardkit-Token": token})
    assert answer.json() == {"opened": "market-back.yaml:10"}
    assert words_said(said) == ["+10", str(lantern.absolute() / "layouts" / "market-back.yaml")]
    said.unlink()
    # the request names a card and an element, nothing else: not a file, not a command
    for body in ({"card": 2, "file": "/etc/passwd"}, {"card": 2, "command": "touch pwned"},
                 {"card": "2"}, {"card": 2, "side": "front"}):
        answer = client.post("/api/open", json=body, headers={"X-Cardkit-Token": token})
        assert answer.status_code == 400, body
    assert client.post("/api/open", json={"card": 2}).status_code == 403  # no token
    assert client.post("/api/open", json={"card": 2}, headers={
        "X-Cardkit-Token": token, "Origin": "https://evil.example"}).status_code == 403
    time.sleep(0.2)
    assert not said.exists()


def test_without_an_editor_the_page_says_how_to_set_one_and_a_bundled_file_is_not_opened(
        lantern, tmp_path):
    client = client_of(lantern)
    page = client.get("/").text
    assert 'name="cardkit-no-editor" content="no editor is set: start the studio with ' \
           '--editor &quot;CMD&quot;' in page
    answer = client.post("/api/open", json={"card": 2}, headers={
        "X-Cardkit-Token": token_of(client)})
    assert answer.status_code == 409 and "$VISUAL or $EDITOR" in answer.json()["refused"]
    script, said = fake_editor(tmp_path)
    bundled = TestClient(make_app(Studio(ROOT / "decks" / "blofa" / "deck.yaml"),
                                  editor=str(script)), base_url=BASE)
    state = bundled.get("/api/deck").json()
    item = state["cards"][0]["elements"]["front"]["items"][0]
    answer = bundled.post("/api/open", json={"card": 1, "side": "front",
                                             "element": item["name"]},
                          headers={"X-Cardkit-Token": token_of(bundled)})
    assert answer.status_code == 422
    assert answer.json()["problem"]["what"].startswith("not opened: this layout ships with")
    time.sleep(0.2)
    assert not said.exists()
