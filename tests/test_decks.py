"""The bundled decks: what each contains, per variant and per sheet, and that a deck which
no longer adds up to its promised composition fails."""

from __future__ import annotations

import math
import shutil
from collections import Counter

import pytest
from click.testing import CliRunner

from cardkit.cli import main
from cardkit.common.errors import InputError
from cardkit.deck.loader import load_deck
from cardkit.sources.bundled import bundled_decks
from conftest import write_deck
from pdfgeom import page_sizes

EXPECTED = {"blofa": 18, "bullet": 62, "ragusa": 56, "rise-up": 55, "shapes": 90,
            "standard": 54}


def test_every_game_and_the_standard_deck_ship():
    assert set(bundled_decks()) == set(EXPECTED)


@pytest.mark.parametrize("name,total", sorted(EXPECTED.items()))
def test_each_deck_has_its_cards_and_its_sheets(tmp_path, build, name, total):
    deck = load_deck(bundled_decks()[name])
    assert deck.total() == total
    result = build(bundled_decks()[name])
    assert result.pages == 2 * math.ceil(total / 9)
    assert len(page_sizes(result.path)) == result.pages


def test_blofa_has_the_rulings_composition():
    deck = load_deck(bundled_decks()["blofa"])
    assert deck.tally("back") == {"blue": 9, "yellow": 9}
    by_back = Counter((c.back.name, c.fields["value"]) for c in deck.copies())
    assert by_back == {("blue", 0): 3, ("blue", 2): 4, ("blue", 4): 2,
                       ("yellow", 1): 5, ("yellow", 3): 3, ("yellow", 5): 1}
    rule_cards = [c for c in deck.copies() if c.front.name == "blofa-rules"]
    assert [c.fields["value"] for c in rule_cards] == [0, 0, 0]


def test_shape_cards_are_every_front_with_every_back():
    deck = load_deck(bundled_decks()["shapes"])
    shapes = [c for c in deck.copies() if c.fields["shape"]]
    fronts = Counter((c.fields["shape"], c.fields["number"], c.fields["fill"]) for c in shapes)
    assert len(fronts) == 27 and set(fronts.values()) == {3}
    backs = Counter((c.fields["shape"], c.fields["number"], c.fields["fill"], c.back.name)
                    for c in shapes)
    assert len(backs) == 81 and set(backs.values()) == {1}
    assert {c.front.name for c in shapes} == {"shapes-1", "shapes-2", "shapes-3"}
    assert all(c.front.name == f"shapes-{c.fields['number']}" for c in shapes)
    objectives = [c for c in deck.copies() if c.back.name == "objective"]
    assert len(objectives) == 9
    assert all(c.fields["condition"] and c.fields["points"] > 0 for c in objectives)


@pytest.mark.parametrize("players,values", [(2, 4), (3, 5), (4, 6), (5, 7)])
def test_bullet_prints_the_values_in_play_for_each_player_count(players, values):
    deck = load_deck(bundled_decks()["bullet"], {"players": str(players)})
    numbers = [c for c in deck.copies() if c.fields["value"] is not None]
    assert Counter(c.fields["value"] for c in numbers) == {v: 8 for v in range(1, values + 1)}
    assert Counter(c.fields["suit"] for c in numbers) == {
        s: 2 * values for s in ("crow", "cup", "key", "bullet")}
    others = Counter(c.fields["kind"] for c in deck.copies() if c.fields["value"] is None)
    assert others == {"fin": 1, "reference": 5}


def test_players_option_builds_a_named_variant_file(tmp_path):
    result = CliRunner().invoke(main, ["build", "bullet", "--players", "3", "--out", tmp_path])
    assert result.exit_code == 0, result.output
    path = tmp_path / "bullet" / "bullet-players3-pnp-a4.pdf"
    assert "bullet: 46 cards, 12 pages" in result.output
    assert len(page_sizes(path)) == 12


def test_an_unknown_variant_option_is_a_clear_error(tmp_path):
    result = CliRunner().invoke(main, ["build", "bullet", "--players", "7", "--out", tmp_path])
    assert result.exit_code == 2
    assert "variant 'players' has no option '7'; use one of: 2, 3, 4, 5" in result.output
    result = CliRunner().invoke(main, ["build", "blofa", "--players", "3", "--out", tmp_path])
    assert result.exit_code == 2 and "deck 'blofa' has no variant 'players'" in result.output


def test_decks_built_on_the_standard_deck():
    ragusa = load_deck(bundled_decks()["ragusa"]).copies()
    rise_up = load_deck(bundled_decks()["rise-up"]).copies()
    assert sum(c.fields["rank"] == "Joker" for c in ragusa) == 0
    assert sum(c.fields["rank"] == "Joker" for c in rise_up) == 1
    for deck, references in ((ragusa, 4), (rise_up, 2)):
        playing = [c for c in deck if c.fields["suit"]]
        assert len(playing) == 52 and len(set((c.fields["suit"], c.fields["rank"])
                                              for c in playing)) == 52
        assert sum(c.front.name == "standard-reference" for c in deck) == references
    assert rise_up[-1].fields["title"].startswith("Rise Up")


def test_a_tampered_deck_fails_its_composition(tmp_path):
    folder = tmp_path / "bullet"
    shutil.copytree(bundled_decks()["bullet"].parent, folder)
    deck = folder / "deck.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace(
        "product: {value: [1, 2, 3, 4, 5, 6, 7]}", "product: {value: [1, 2, 3, 4, 5, 6]}", 1),
        encoding="utf-8")
    with pytest.raises(InputError) as caught:
        load_deck(deck)
    messages = [str(p) for p in caught.value.problems]
    assert any("the deck promises 62 cards but has 60" in m for m in messages), messages
    assert any("the deck promises 14 cards with suit crow but has 12" in m for m in messages)
    result = CliRunner().invoke(main, ["validate", str(deck)])
    assert result.exit_code == 2


def test_product_groups_and_drop(tmp_path):
    path = write_deck(tmp_path, """
name: grid
size: square
front: face
backs: {plain: {layout: face}}
fields: {colour: text, size: integer}
drop:
  - {colour: red, size: 2}
cards:
  - count: 2
    product: {colour: [red, blue], size: [1, 2, 3]}
""", {"face": "elements: [{name: t, kind: text, box: card, text: '{colour} {size}'}]"})
    deck = load_deck(path)
    assert [(c.fields["colour"], c.fields["size"]) for c in deck.cards] == [
        ("red", 1), ("red", 3), ("blue", 1), ("blue", 2), ("blue", 3)]
    assert deck.total() == 10 and [c.number for c in deck.cards] == [1, 2, 3, 4, 5]
    bad = path.read_text().replace("{colour: red, size: 2}", "{colour: green}")
    path.write_text(bad)
    with pytest.raises(InputError, match="drop matches no card"):
        load_deck(path)
