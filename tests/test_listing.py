"""``cardkit list`` from its cache (cardkit.pipeline.listing): the same lines as loading every deck,
a deck loaded again when a file it may read changed, and a cache that cannot be read or
written costing only time."""

from __future__ import annotations

import json
import shutil

import pytest
from click.testing import CliRunner

from cardkit.cli import main
from cardkit.common.errors import InputError
from cardkit.deck.loader import load_deck
from cardkit.pipeline import listing
from cardkit.sources.bundled import bundled_decks

LISTED = """\
blofa          18 cards  poker    Blófa Cards
bullet         62 cards  poker    Bluff the Bullet  [players: 2, 3, 4, 5]
ragusa         56 cards  poker    Ragusa: Trade 'Em
rise-up        55 cards  poker    Rise Up
shapes         90 cards  poker    Trick Taking (shape cards)
standard       54 cards  poker    Standard deck
"""


@pytest.fixture(autouse=True)
def cache_env(tmp_path, monkeypatch):
    """The cache these tests write by default, instead of the user's own."""
    monkeypatch.setenv("CARDKIT_CACHE_DIR", str(tmp_path / "env-cache"))
    return tmp_path / "env-cache"


@pytest.fixture
def loads(monkeypatch):
    """The decks listing.deck_summaries loads (a cache miss each), in order."""
    loaded = []
    real = listing._loaded

    def spy(path):
        loaded.append(path)
        return real(path)

    monkeypatch.setattr(listing, "_loaded", spy)
    return loaded


def expected(path):
    """The Summary of the deck at ``path``, from loading it."""
    try:
        deck = load_deck(path)
    except InputError as error:
        return listing.Summary(0, "", "", {}, len(error.problems))
    return listing.Summary(deck.total(), deck.size.name, deck.title,
                           {name: list(options) for name, options in deck.variants.items()},
                           0)


def blofa_copy(tmp_path):
    """A copy of the bundled Blófa deck outside cardkit; its deck file."""
    shutil.copytree(bundled_decks()["blofa"].parent, tmp_path / "blofa")
    return tmp_path / "blofa" / "deck.yaml"


def test_the_cached_listing_is_what_loading_the_decks_gives(tmp_path, loads):
    decks = bundled_decks()
    loaded = {name: expected(path) for name, path in decks.items()}
    assert loaded["bullet"] == (62, "poker", "Bluff the Bullet",
                                {"players": ["2", "3", "4", "5"]}, 0)

    assert listing.deck_summaries(cache_dir=tmp_path) == loaded
    assert loads == list(decks.values())
    assert (tmp_path / listing.CACHE_FILE).is_file()
    assert listing.deck_summaries(cache_dir=tmp_path) == loaded
    assert loads == list(decks.values())  # the second time, none was loaded


def test_the_command_lists_the_same_lines_cold_and_warm(cache_env, loads):
    for _ in range(2):
        result = CliRunner().invoke(main, ["list"])
        assert (result.exit_code, result.stdout, result.stderr) == (0, LISTED, "")
    assert len(loads) == len(bundled_decks())
    assert (cache_env / listing.CACHE_FILE).is_file()


def test_a_changed_file_in_the_deck_folder_loads_the_deck_again(tmp_path, loads):
    deck = blofa_copy(tmp_path)
    decks, cache = {"mine": deck}, tmp_path / "cache"
    assert listing.deck_summaries(decks, cache)["mine"].total == 18

    text = deck.read_text(encoding="utf-8")
    deck.write_text(text.replace("{value: 5, count: 1}", "{value: 5, count: 2}"),
                    encoding="utf-8")  # the composition says one 5: the deck is refused
    broken = listing.deck_summaries(decks, cache)["mine"]
    assert broken == expected(deck) and broken.problems > 0
    assert listing.deck_summaries(decks, cache)["mine"] == broken  # kept as well

    deck.write_text(text.replace("{value: 5, count: 1}", "{value: 5, count: 2}")
                    .replace("total: 18", "total: 19").replace("yellow: 9", "yellow: 10")
                    .replace("5: 1}", "5: 2}"), encoding="utf-8")
    assert listing.deck_summaries(decks, cache)["mine"] == expected(deck)
    assert expected(deck).total == 19
    assert len(loads) == 3

    (deck.parent / "art").mkdir()
    (deck.parent / "art" / "unused.png").write_bytes(b"")  # a file the deck may read came
    assert listing.deck_summaries(decks, cache)["mine"].total == 19
    assert len(loads) == 4


def test_the_invalid_line_names_the_problems(tmp_path, monkeypatch):
    deck = blofa_copy(tmp_path)
    deck.write_text(deck.read_text(encoding="utf-8").replace("total: 18", "total: 17"),
                    encoding="utf-8")
    monkeypatch.setattr(listing, "bundled_decks", lambda: {"blofa": deck})
    problems = expected(deck).problems
    assert problems > 0
    for _ in range(2):  # loaded, then from the cache
        result = CliRunner().invoke(main, ["list"])
        assert result.stdout == (f"blofa        INVALID ({problems} problems; "
                                 "run 'cardkit validate blofa')\n")


@pytest.mark.parametrize("corrupt", [
    b"", b"{\"format\": 1, \"shared\": [", b"\xff\xfe\x00", b"[1, 2]", b"null",
    b"{\"format\": 1, \"shared\": 3, \"decks\": []}"])
def test_a_corrupt_cache_is_a_miss_and_is_rewritten(tmp_path, loads, corrupt):
    deck = blofa_copy(tmp_path)
    cache = tmp_path / "cache"
    cache.mkdir()
    (cache / listing.CACHE_FILE).write_bytes(corrupt)
    assert listing.deck_summaries({"mine": deck}, cache) == {"mine": expected(deck)}
    assert len(loads) == 1
    assert json.loads((cache / listing.CACHE_FILE).read_text(encoding="utf-8"))["format"] \
        == listing.FORMAT
    listing.deck_summaries({"mine": deck}, cache)
    assert len(loads) == 1


def test_a_cache_entry_of_other_fields_is_a_miss(tmp_path, loads):
    deck = blofa_copy(tmp_path)
    cache = tmp_path / "cache"
    listing.deck_summaries({"mine": deck}, cache)
    file = cache / listing.CACHE_FILE
    data = json.loads(file.read_text(encoding="utf-8"))
    data["decks"]["mine"]["summary"] = {"total": 18}
    file.write_text(json.dumps(data), encoding="utf-8")
    assert listing.deck_summaries({"mine": deck}, cache) == {"mine": expected(deck)}
    assert len(loads) == 2


def test_an_unwritable_cache_folder_still_lists(tmp_path, monkeypatch, loads):
    (tmp_path / "a-file").write_text("not a folder", encoding="utf-8")
    cache = tmp_path / "a-file" / "cardkit"  # no one can make a folder under a file
    monkeypatch.setenv("CARDKIT_CACHE_DIR", str(cache))
    for _ in range(2):
        result = CliRunner().invoke(main, ["list"])
        assert (result.exit_code, result.stdout, result.stderr) == (0, LISTED, "")
    assert len(loads) == 2 * len(bundled_decks())  # nothing was kept
    assert list(tmp_path.iterdir()) == [tmp_path / "a-file"]


def test_the_cache_folder_follows_the_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("CARDKIT_CACHE_DIR", str(tmp_path / "mine"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert listing.cache_folder() == tmp_path / "mine"
    monkeypatch.delenv("CARDKIT_CACHE_DIR")
    assert listing.cache_folder() == tmp_path / "xdg" / "cardkit"
    monkeypatch.setenv("XDG_CACHE_HOME", "relative")  # to be ignored, says the XDG spec
    assert listing.cache_folder() == tmp_path / "home" / ".cache" / "cardkit"
