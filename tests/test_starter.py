"""The starter deck of ``cardkit new``: it loads, checks clean and builds at every card size,
its backs look the same upside down, its text is readable, its files are what the designer
is told, and bad requests are refused without writing anything."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import jsonschema
import pypdf
import pypdfium2
import pytest
import yaml
from click.testing import CliRunner
from PIL import ImageChops

from cardkit.cli import main
from cardkit.common.errors import InputError
from cardkit.common.units import MM
from cardkit.deck.loader import load_deck
from cardkit.deck.model import SIZE_PRESETS_MM
from cardkit.deck.schema import deck_schema, layout_schema
from cardkit.pipeline.build import check_cards
from cardkit.pipeline.contrast import contrast
from cardkit.render.card import BACK, FRONT
from cardkit.starter import TEMPLATE, create_deck
from cardkit.writers.card_pdf import write_card_pdf
from conftest import PATIENCE

FILES = ["deck.yaml", "cards.csv", "layouts/front-base.yaml", "layouts/front-unit.yaml",
         "layouts/front-event.yaml", "layouts/back.yaml", "rules.py", "examples.yaml",
         "rules.md", "README.md", ".gitignore", "schemas/deck.json", "schemas/layout.json"]
# A4 pages of the 16 printed cards, fronts and backs: cards a page (the build's choice of
# orientation) -> sheets. Poker and bridge 9 (2 sheets), square 8 (2), tarot 6 (3: four in
# a row and two turned below), both minis 16 (1).
PAGES = {"poker": 4, "bridge": 4, "mini-american": 2, "mini-euro": 2, "tarot": 6,
         "square": 4}
WHITE = (1.0, 1.0, 1.0)


def _new(tmp_path: Path, size: str = "poker", name: str = "my-game") -> Path:
    """A starter deck in tmp_path/name; returns its deck file."""
    create_deck(tmp_path / name, name, size)
    return tmp_path / name / "deck.yaml"


# -- the deck at every size ----------------------------------------------------------------

@pytest.mark.parametrize("size", sorted(SIZE_PRESETS_MM))
def test_the_starter_builds_clean_at_every_size(tmp_path, build, size):
    deck_path = _new(tmp_path, size)
    deck = load_deck(deck_path)
    assert (deck.name, deck.title, deck.size.name) == ("my-game", "My Game", size)
    assert len(deck.cards) == 8 and deck.total() == 16
    # one back for every card (a back a kind told a hand's cards apart); the fronts take
    # their kind's colours from the layout's styles
    assert deck.tally("back") == {"card": 9 + 7}
    assert deck.tally("kind") == {"unit": 9, "event": 7}
    assert {card.front.name for card in deck.cards} == {"front-unit", "front-event"}
    assert {card.back.layout.name for card in deck.cards} == {"back"}
    check_cards(deck, strict=True)  # no warning: text fits, nothing in the unsafe band
    layouts = [layout for card in deck.cards for layout in (card.front, card.back.layout)]
    for layout in layouts:  # only bled backgrounds come nearer the trim than 4 mm
        for element in layout.elements:
            box = element.box
            inset = min(box.x, box.y, deck.size.width - box.x - box.width,
                        deck.size.height - box.y - box.height)
            assert element.bleed or inset >= 4 * MM, (layout.name, element.name)
    result = build(deck_path, strict=True)
    assert result.warnings == ()
    assert len(pypdf.PdfReader(str(result.path)).pages) == result.pages == PAGES[size]


def test_a_long_name_fits_on_the_smallest_backs(tmp_path):
    deck = load_deck(_new(tmp_path, "mini-american", "the-long-name-of-my-very-first-game"))
    assert deck.title == "The Long Name Of My Very First Game"
    check_cards(deck, strict=True)


@pytest.mark.parametrize("name", ["123", "yes", "null"])
def test_a_name_yaml_would_read_as_a_number_or_flag_stays_a_name(tmp_path, name):
    assert load_deck(_new(tmp_path, name=name)).name == name


# -- how the cards look --------------------------------------------------------------------

def _faces(deck_path: Path, side: str, out: Path) -> list:
    """One greyscale image of each back design (or of each distinct front) at 4 px/pt."""
    deck = load_deck(deck_path)
    renderer, _ = check_cards(deck)
    cards = list({card.back.name: card for card in deck.cards}.values()) \
        if side == BACK else list(deck.cards)
    write_card_pdf(out, deck, [(card, side) for card in cards],
                   (deck.size.width, deck.size.height), renderer)
    pdf = pypdfium2.PdfDocument(str(out))
    return [pdf[i].render(scale=4).to_pil().convert("L") for i in range(len(pdf))]


def _turned_difference(image) -> float:
    """The share of pixels that change clearly (by a quarter of the grey scale) when
    ``image`` is turned 180 degrees; antialiased edges change less."""
    histogram = ImageChops.difference(image, image.rotate(180)).histogram()
    return sum(histogram[64:]) / (image.width * image.height)


@pytest.mark.parametrize("size", sorted(SIZE_PRESETS_MM))
def test_backs_look_the_same_upside_down(tmp_path, size):
    deck_path = _new(tmp_path, size)
    backs = _faces(deck_path, BACK, tmp_path / "backs.pdf")
    assert len(backs) == 1  # one back design, every card's
    assert _turned_difference(backs[0]) == 0.0
    fronts = _faces(deck_path, FRONT, tmp_path / "fronts.pdf")
    assert min(_turned_difference(front) for front in fronts) > 0.01  # the check can fail


def _rgb(colour) -> tuple[float, float, float]:
    return (colour.red, colour.green, colour.blue)


def _fill_behind(items, index: int):
    """The fill of the last solid shape drawn before ``items[index]`` whose box holds the
    centre of its box: what the text stands on."""
    box = items[index].element.box
    x, y = box.x + box.width / 2, box.y + box.height / 2
    for item in reversed(items[:index]):
        under, fill = item.element.box, item.props.get("fill")
        if fill is None or item.props.get("shading", "solid") != "solid":
            continue
        if under.x <= x <= under.x + under.width and under.y <= y <= under.y + under.height:
            return fill
    return None


def test_every_text_contrasts_with_what_is_behind_it(tmp_path):
    deck = load_deck(_new(tmp_path))
    renderer, _ = check_cards(deck)
    contrasts = {}
    for card in deck.cards:
        for side in (FRONT, BACK):
            items = renderer.resolve(card, side)
            for index, item in enumerate(items):
                if item.element.kind == "text" and item.props["text"]:
                    behind = _fill_behind(items, index)
                    assert behind is not None, item.element.name
                    contrasts[(card.fields["kind"], side, item.element.name)] = contrast(
                        _rgb(item.props["colour"]), _rgb(behind))
    assert len(contrasts) == 15  # 6 texts a unit front, 5 an event front, 2 on the backs
    assert min(contrasts.values()) >= 4.5, contrasts
    assert contrasts[("unit", FRONT, "cost")] == pytest.approx(
        contrast(WHITE, (0x2a / 255, 0x5b / 255, 0x84 / 255)))  # white on the unit blue


# -- the files -----------------------------------------------------------------------------

def test_the_files_written_are_listed_in_order(tmp_path):
    written = create_deck(tmp_path / "my-game", "my-game", "tarot")
    assert written == [Path(name) for name in FILES]
    on_disk = sorted(str(p.relative_to(tmp_path / "my-game"))
                     for p in (tmp_path / "my-game").rglob("*") if p.is_file())
    assert on_disk == sorted(FILES)
    assert [p.name for p in tmp_path.iterdir()] == ["my-game"]  # no temporary left beside


def test_the_template_is_valid_yaml_before_it_is_filled():
    yaml_files = sorted(TEMPLATE.rglob("*.yaml"))
    assert len(yaml_files) == 6  # the deck, four layouts and the rules examples
    for path in yaml_files:
        text = path.read_text(encoding="utf-8")
        assert isinstance(yaml.safe_load(text), dict), path
        assert max(len(line) for line in text.splitlines()) <= 100, path


def test_editors_get_the_schemas_and_the_files_follow_them(tmp_path):
    folder = tmp_path / "my-game"
    create_deck(folder, "my-game")
    deck_text = (folder / "deck.yaml").read_text(encoding="utf-8")
    assert deck_text.splitlines()[0] == "# yaml-language-server: $schema=schemas/deck.json"
    schemas = {"deck": json.loads((folder / "schemas/deck.json").read_text(encoding="utf-8")),
               "layout": json.loads((folder / "schemas/layout.json").read_text("utf-8"))}
    assert schemas == {"deck": deck_schema(), "layout": layout_schema()}
    assert (folder / "schemas/deck.json").read_text("utf-8") == \
        json.dumps(deck_schema(), indent=2) + "\n"
    jsonschema.validate(yaml.safe_load(deck_text), schemas["deck"])
    layouts = sorted((folder / "layouts").glob("*.yaml"))
    assert len(layouts) == 4
    for layout in layouts:
        text = layout.read_text(encoding="utf-8")
        assert text.splitlines()[0] == "# yaml-language-server: $schema=../schemas/layout.json"
        jsonschema.validate(yaml.safe_load(text), schemas["layout"])


def test_the_readme_and_gitignore(tmp_path):
    folder = tmp_path / "dragon-tide"
    create_deck(folder, "dragon-tide", "square")
    readme = (folder / "README.md").read_text(encoding="utf-8")
    assert readme.splitlines()[0] == "# Dragon Tide"
    assert "cardkit build dragon-tide" in readme and "output/dragon-tide/" in readme
    for command in ("cardkit build .", "cardkit watch .", "cardkit preview . --cards 1",
                    "cardkit validate .", "cardkit simulate . --check", "cardkit simulate ."):
        assert command in readme
    assert 15 <= len(readme.splitlines()) <= 40
    assert "__" not in readme
    assert (folder / ".gitignore").read_text(encoding="utf-8").splitlines() == ["output/"]
    assert "size: square" in (folder / "deck.yaml").read_text(encoding="utf-8")


def test_an_empty_folder_is_used(tmp_path):
    (tmp_path / "my-game").mkdir()
    create_deck(tmp_path / "my-game", "my-game")
    assert load_deck(tmp_path / "my-game" / "deck.yaml").total() == 16


# -- refusals ------------------------------------------------------------------------------

def _refused(folder: Path, name: str, size: str = "poker") -> list[str]:
    """The problems create_deck raises, as the CLI shows them."""
    with pytest.raises(InputError) as caught:
        create_deck(folder, name, size)
    assert all(problem.where.file == folder for problem in caught.value.problems)
    return [str(problem) for problem in caught.value.problems]


def _contents(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() if p.is_file() else b"(folder)"
            for p in sorted(folder.rglob("*"))}


@pytest.mark.parametrize("name", ["My-Game", "my game", "-game", "", "x" * 65, "café"])
def test_a_bad_name_is_refused(tmp_path, name):
    [problem] = _refused(tmp_path / "new", name)
    assert "cannot be a deck's name" in problem
    assert problem.endswith("; use up to 64 lower-case letters, digits, '-' and '_', "
                            "starting with a letter or digit, e.g. 'my-deck'")
    assert _contents(tmp_path) == {}


def test_an_underscore_name_is_taken_as_the_loader_takes_it(tmp_path):
    """The README, the schema, 'cardkit new' and the loader agree on a deck's name."""
    from cardkit.deck.loader import load_deck
    from cardkit.starter import create_deck

    create_deck(tmp_path / "honey_heist", "honey_heist")
    deck = load_deck(tmp_path / "honey_heist" / "deck.yaml")
    assert (deck.name, deck.title) == ("honey_heist", "Honey Heist")


def test_a_bad_size_is_refused_with_the_sizes(tmp_path):
    [problem] = _refused(tmp_path / "my-game", "my-game", "jumbo")
    assert problem == (f"{tmp_path / 'my-game'}: 'jumbo' is not a card size cardkit knows; "
                       "use one of: poker, bridge, mini-american, mini-euro, tarot, square")
    assert _contents(tmp_path) == {}


def test_a_folder_that_is_not_empty_is_left_alone(tmp_path):
    folder = tmp_path / "my-game"
    (folder / "art").mkdir(parents=True)
    (folder / "notes.txt").write_text("my notes", encoding="utf-8")
    before = _contents(tmp_path)
    [problem] = _refused(folder, "my-game")
    assert problem == f"{folder}: the folder exists and is not empty; choose another name, " \
                      "or remove it"
    assert _contents(tmp_path) == before


def test_a_file_in_the_way_is_left_alone(tmp_path):
    (tmp_path / "my-game").write_text("a file", encoding="utf-8")
    [problem] = _refused(tmp_path / "my-game", "my-game")
    assert problem.endswith(": a file of that name is in the way; choose another name, "
                            "or remove it")
    assert _contents(tmp_path) == {"my-game": b"a file"}


def test_every_problem_is_named_at_once(tmp_path):
    (tmp_path / "Bad").write_text("a file", encoding="utf-8")
    problems = _refused(tmp_path / "Bad", "Bad", "huge")
    assert [p.split(": ", 1)[1].split(";")[0] for p in problems] == [
        "'Bad' cannot be a deck's name", "'huge' is not a card size cardkit knows",
        "a file of that name is in the way"]


def test_a_folder_under_a_file_is_refused_and_nothing_is_left(tmp_path):
    (tmp_path / "games").write_text("a file", encoding="utf-8")
    [problem] = _refused(tmp_path / "games" / "my-game", "my-game")
    assert "cannot write the deck" in problem
    assert problem.endswith("; choose a folder you can write to")
    assert _contents(tmp_path) == {"games": b"a file"}


def test_a_failed_write_leaves_nothing(tmp_path, monkeypatch):
    def full_disk(self, *args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(Path, "write_text", full_disk)
    [problem] = _refused(tmp_path / "my-game", "my-game")
    assert "cannot write the deck: No space left on device" in problem
    monkeypatch.undo()
    assert _contents(tmp_path) == {}


# -- the commands, as a designer types them ------------------------------------------------

def test_new_then_build_through_the_click_runner(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    made = runner.invoke(main, ["new", "card-duel", "--size", "square"])
    assert made.exit_code == 0, made.output
    assert made.output.splitlines()[0] == (
        "card-duel: a new deck of square cards in card-duel/ (deck.yaml, cards.csv, "
        "rules.py, examples.yaml, rules.md, README.md, .gitignore, layouts/, schemas/)")
    built = runner.invoke(main, ["build", "card-duel", "--strict"])
    assert built.exit_code == 0, built.output
    assert built.output.startswith("card-duel: 16 cards, 4 pages (A4 ")
    assert len(pypdf.PdfReader(tmp_path / "output/card-duel/card-duel-pnp-a4.pdf").pages) == 4
    again = runner.invoke(main, ["new", "card-duel"])
    assert again.exit_code == 2
    assert again.output == ("card-duel: the folder exists and is not empty; choose another "
                            "name, or remove it\ncardkit: 1 problem in card-duel; nothing "
                            "was written\n")


def test_new_then_build_inside_the_folder_as_subprocesses(tmp_path):
    def cardkit(*args, cwd):
        return subprocess.run([sys.executable, "-m", "cardkit", *args], cwd=cwd,
                              capture_output=True, text=True, timeout=PATIENCE)

    made = cardkit("new", "first-game", cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    built = cardkit("build", ".", cwd=tmp_path / "first-game")
    assert built.returncode == 0, built.stderr
    assert built.stdout.startswith("first-game: 16 cards, 4 pages")
    pdf = tmp_path / "first-game/output/first-game/first-game-pnp-a4.pdf"
    assert pypdf.PdfReader(pdf).metadata.title.startswith("First Game")
    bad = cardkit("new", "Second_Game", cwd=tmp_path)
    assert (bad.returncode, bad.stdout) == (2, "")
    assert bad.stderr.startswith("Second_Game: 'Second_Game' cannot be a deck's name; use "
                                 "up to 64 lower-case letters")


def test_schema_command_prints_the_schemas(tmp_path):
    printed = CliRunner().invoke(main, ["schema", "layout"])
    assert printed.exit_code == 0
    assert json.loads(printed.output) == layout_schema()
    done = subprocess.run([sys.executable, "-m", "cardkit", "schema", "deck"],
                          capture_output=True, text=True, timeout=PATIENCE)
    assert json.loads(done.stdout) == deck_schema()
    wrong = CliRunner().invoke(main, ["schema", "card"])
    assert wrong.exit_code == 2


def test_a_count_left_empty_is_caught_by_the_total_the_starter_writes(tmp_path):
    """A count cell left empty prints one copy: the starter's 'composition: total:' makes
    that an error naming the row (the deck printed one card short and validate said OK)."""
    create_deck(tmp_path / "my-game", "my-game")
    cards = tmp_path / "my-game" / "cards.csv"
    cards.write_text(cards.read_text(encoding="utf-8").replace("Guard,unit,2,3,3,",
                                                               "Guard,unit,2,3,,"))
    with pytest.raises(InputError) as caught:
        load_deck(tmp_path / "my-game" / "deck.yaml")
    assert [str(p) for p in caught.value.problems] == [
        f"{tmp_path}/my-game/deck.yaml:25:10: the deck promises 16 cards but has 14; fix the "
        f"cards' counts or the total (the count is empty at {cards}:3: one copy each)"]


# five mistakes a designer makes in the starter's rules, none of which random games can
# see: each is caught by the examples the starter ships (issue 56, item 7)
PLANTED = {
    "an event without its bonus point": ("card.cost + 1", "card.cost"),
    "no coin this turn in moves()": ("coins = self.public[\"coins\"][self.seat] + 1",
                                     "coins = self.public[\"coins\"][self.seat]"),
    "a unit discarded, not put in the line": ("self.hands[self.seat].move(card, self.lines[self.seat])",
                                              "self.hands[self.seat].move(card, self.discard)"),
    "a game of seven rounds": ('if self.public["round"] > ROUNDS:',
                               'if self.public["round"] >= ROUNDS:'),
    "a draw offered from an empty deck": ("        if self.deck:\n            moves.append((\"draw\",))",
                                          "        moves.append((\"draw\",))"),
}


@pytest.mark.parametrize("mistake", [None, *PLANTED])
def test_the_starter_ships_examples_that_catch_mistakes_random_games_miss(tmp_path, mistake):
    """Oracle: the starter's rules as its docstring states them, worked by hand into
    examples.yaml. The unchanged rules pass all six; each planted mistake fails one,
    named with its line of examples.yaml, and passes --check's random games without them
    (the examples are what catches it)."""
    folder = tmp_path / "duel"
    create_deck(folder, "duel")
    if mistake:
        rules = folder / "rules.py"
        old, new = PLANTED[mistake]
        assert old in rules.read_text()
        rules.write_text(rules.read_text().replace(old, new))
    run = ["simulate", str(folder), "--check", "--games", "30"]
    result = CliRunner().invoke(main, run)
    if mistake is None:
        assert result.exit_code == 0, result.output
        assert f"and the 6 examples in {folder / 'examples.yaml'} hold" in result.output
        return
    assert result.exit_code == 2
    assert result.output.startswith(f"cardkit: {folder / 'examples.yaml'}:"), result.output
    (folder / "examples.yaml").unlink()
    without = CliRunner().invoke(main, run)
    assert without.exit_code == 0, without.output


def test_the_starter_rulebook_says_a_card_name_with_a_space_goes_in_angle_brackets(tmp_path):
    """Issue 56, item 6: a designer copies '![](card:Scout)' for 'Fire Ball' and gets no
    card; the rulebook they start from shows the angle brackets (read in the built PDF)."""
    create_deck(tmp_path / "duel", "duel")
    result = CliRunner().invoke(main, ["rulebook", str(tmp_path / "duel"), "--out",
                                       str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    text = pypdf.PdfReader(next((tmp_path / "out").rglob("*-a4.pdf"))).pages[0].extract_text()
    assert "a name with a space goes in angle brackets: ![](<card:Fire Ball>)" in \
        " ".join(text.split())
