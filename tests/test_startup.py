"""Commands that only show something start fast (issue 14): they do not import the
libraries that draw, rasterise, read workbooks or watch files, which take ten times as
long to import as Python takes to start. Each command runs in a fresh interpreter, as
users run it, and reports what it imported. Timings live in ``make bench``, not here."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from cardkit.cli import COMMANDS
from conftest import PATIENCE

DRAWING = ("reportlab", "PIL")  # loading a deck checks its colours and fonts with these
HEAVY = DRAWING + ("pypdf", "pypdfium2", "matplotlib", "svglib", "watchfiles",
                   "python_calamine")
# what only some commands or decks need, each slow to import: the network (a deck's sheet
# links), process pools (simulate, export), a PDF rasteriser, the studio's server, the
# rulebook's Markdown, search, statistics, spreadsheets and hyphenation (issue 62); the
# code of sheet links, spreadsheets, rulebooks and a proof's --cards, and Pillow's readers
# of pictures
UNUSED = ("httpx", "httpcore", "socket", "ssl", "http", "multiprocessing", "concurrent",
          "pypdfium2", "pypdf", "dask", "optuna", "matplotlib", "numpy", "scipy",
          "starlette", "uvicorn", "markdown_it", "watchfiles", "python_calamine", "csv",
          "pyphen", "cardkit.sources.links", "cardkit.sources.spreadsheet",
          "cardkit.sources.rulebook", "cardkit.deck.selection", "PIL.PngImagePlugin", "PIL.JpegImagePlugin",
          "ctypes",  # only a folder swapped with renameat2 (common.atomic) needs it
          # what measures a text's contrast on pixels: a deck of flat colours needs none
          "cardkit.common.pdfium", "PIL.ImageStat")

# runs cardkit with the arguments given, then prints the modules it imported (a package's
# modules with the package)
RUN = """
import json, sys
from cardkit.cli import main
try:
    main(sys.argv[1:], standalone_mode=False)
except SystemExit:
    pass
print(json.dumps(sorted(sys.modules)))
"""
# the dataclasses cardkit's modules made, printed after the modules
DATACLASSES = RUN + """
print(json.dumps(sorted(f"{name}.{thing.__name__}" for name, module in list(sys.modules.items())
                        if name.startswith("cardkit") for thing in vars(module).values()
                        if isinstance(thing, type) and thing.__module__ == name
                        and hasattr(thing, "__dataclass_fields__"))))
"""


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """An empty folder for cardkit's caches, which the commands run here inherit."""
    monkeypatch.setenv("CARDKIT_CACHE_DIR", str(tmp_path))
    return tmp_path


def run(*args: str) -> tuple[str, set[str]]:
    """What ``cardkit ARGS`` printed, and the modules it imported."""
    done = subprocess.run([sys.executable, "-c", RUN, *args], capture_output=True, text=True,
                          check=True, timeout=PATIENCE)
    shown, _, imported = done.stdout.rstrip("\n").rpartition("\n")
    return shown, set(json.loads(imported))


def test_help_lists_every_command_without_the_heavy_libraries():
    """Nor the commands' own modules (issue 62): it lists them from cardkit.cli.COMMANDS."""
    shown, imported = run("--help")
    for command in ("build", "watch", "export", "preview", "calibrate", "new", "schema",
                    "list", "validate", "check", "score", "simulate"):
        assert f"\n  {command} " in shown
    assert imported.isdisjoint(HEAVY + UNUSED), imported & set(HEAVY + UNUSED)
    commands = {f"cardkit.cli.{module}" for module, _, _ in COMMANDS.values()}
    assert len(commands) == 13 and imported.isdisjoint(commands), imported & commands
    assert "cardkit.cli.output" not in imported and "dataclasses" not in imported


def test_a_command_leaves_python_no_objects_to_collect_as_it_exits():
    """Python's last cycle collection, as it exits, would go over every object the command
    imported or made (6% of a 1-card build's instructions): they are frozen first."""
    code = RUN + "import atexit, gc; atexit._run_exitfuncs(); print(gc.get_freeze_count())"
    done = subprocess.run([sys.executable, "-c", code, "--version"], capture_output=True,
                          text=True, check=True, timeout=PATIENCE)
    assert int(done.stdout.rsplit("\n", 2)[-2]) > 10_000, done.stdout


PLAIN_DECK = """\
name: plain
size: poker
fields: {name: text, text: text}
backs: {plain: {layout: plain-back}}
cards:
  - {name: Lantern, back: plain, layout: plain-front, text: "Draw two cards, then discard one."}
  - {name: Market, back: plain, layout: plain-front, text: "Each player may trade a coin."}
"""
PLAIN_FRONT = """\
elements:
  - {name: paper, kind: rect, box: card, bleed: true, fill: "#f4efe6"}
  - {name: title, kind: text, box: [5mm, 5mm, 53.5mm, 9mm], text: "{name}", font: Lato-Black}
  - {name: suit, kind: icon, box: [24mm, 20mm, 15mm, 15mm], icon: heart, fill: "#b3261e"}
  - {name: text, kind: text, box: [5mm, 40mm, 53.5mm, 40mm], text: "{text}", size: 9pt,
     align: left, valign: top, colour: "#1f2a36"}
"""
PLAIN_BACK = """\
elements:
  - {name: background, kind: rect, box: card, bleed: true, fill: "#1f2a36"}
  - {name: word, kind: text, box: [0mm, 40mm, 63.5mm, 10mm], text: Tales, colour: white}
"""


def test_a_plain_build_imports_only_what_it_draws_with(tmp_path, cache):
    """A deck of texts, shapes and icons, without sheet links or pictures: its build needs
    no network, no process pool and no PDF rasteriser (its texts' contrast is told from
    the colours they stand on)."""
    (tmp_path / "layouts").mkdir()
    (tmp_path / "deck.yaml").write_text(PLAIN_DECK, encoding="utf-8")
    (tmp_path / "layouts" / "plain-front.yaml").write_text(PLAIN_FRONT, encoding="utf-8")
    (tmp_path / "layouts" / "plain-back.yaml").write_text(PLAIN_BACK, encoding="utf-8")
    shown, imported = run("build", str(tmp_path), "--out", str(tmp_path / "out"))
    assert shown.startswith("plain: 2 cards, 2 pages"), shown
    assert (tmp_path / "out" / "plain" / "plain-pnp-a4.pdf").stat().st_size > 1000
    assert imported.isdisjoint(UNUSED), imported & set(UNUSED)


def test_a_plain_build_makes_few_dataclasses(tmp_path, cache):
    """A dataclass is made at import by compiling its methods' source, about 1.5 ms each on
    Python 3.11 (issue 62): what a build only reads and replaces whole is a NamedTuple.
    These four are left: a card's stamps and an element's memo are not compared, a layout
    is made with its elements, and a deck keeps a Where for each value it read, which its
    slots hold in less memory than a tuple. A deck's assets, compared by identity, are a
    plain class."""
    (tmp_path / "layouts").mkdir()
    (tmp_path / "deck.yaml").write_text(PLAIN_DECK, encoding="utf-8")
    (tmp_path / "layouts" / "plain-front.yaml").write_text(PLAIN_FRONT, encoding="utf-8")
    (tmp_path / "layouts" / "plain-back.yaml").write_text(PLAIN_BACK, encoding="utf-8")
    done = subprocess.run([sys.executable, "-c", DATACLASSES, "build", str(tmp_path),
                           "--out", str(tmp_path / "out")], capture_output=True, text=True,
                          check=True, timeout=PATIENCE)
    assert done.stdout.startswith("plain: 2 cards, 2 pages"), done.stdout
    made = json.loads(done.stdout.rstrip("\n").rpartition("\n")[2])
    assert made == ["cardkit.common.errors.Where",
                    "cardkit.deck.layout.Element", "cardkit.deck.layout.Layout",
                    "cardkit.deck.model.Card"], made


def test_a_commands_help_shows_its_choices_without_the_heavy_libraries():
    shown, imported = run("build", "--help")
    assert "[pnp|gutterfold]" in shown and "[a4|letter]" in shown
    assert "[auto|portrait|landscape]" in shown
    assert imported.isdisjoint(HEAVY), imported & set(HEAVY)


def test_list_shows_the_bundled_decks_without_the_exporters():
    shown, imported = run("list")
    for deck in ("blofa", "bullet", "ragusa", "rise-up", "shapes", "standard"):
        assert f"\n{deck} " in f"\n{shown}"
    assert "18 cards  poker    Blófa Cards" in shown
    assert imported.isdisjoint(set(HEAVY) - set(DRAWING)), imported & set(HEAVY)


LOADING = DRAWING + ("yaml",)  # what loading a deck imports


def test_list_a_second_time_loads_no_deck(cache):
    """The second 'cardkit list' shows the first one's lines from its cache, without the
    libraries that load a deck (cardkit.pipeline.listing)."""
    cold, loaded = run("list")
    assert (cache / "list.json").is_file()
    assert loaded.issuperset(LOADING)
    warm, imported = run("list")
    assert warm == cold
    assert imported.isdisjoint(LOADING), imported & set(LOADING)
