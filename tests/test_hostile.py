"""Hostile and broken decks: each ends with exit code 2 and one message naming the file and
the fix, quickly, never with a crash, a hang or an internal error (exit 1).

Special files (FIFOs, devices) are tried in a subprocess with a timeout, so a regression
fails the test instead of hanging the suite.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from PIL import Image

from cardkit.assets.fonts import FONT_DIR as FONTS
from cardkit.cli import main
from cardkit.sources.yamlfile import load_yaml
from conftest import PATIENCE, cpu_seconds, write_deck, zero_png

PLAIN = "elements:\n  - {name: bg, kind: rect, box: card, fill: '#ffffff'}\n"


def deck_with(folder: Path, top: str = "size: poker", card: str = "{count: 1}",
              front: str = PLAIN, fields: str = "") -> Path:
    return write_deck(folder, f"name: hostile\n{top}\nfront: f\nbacks:\n  b: {{layout: f}}\n"
                              f"{fields}cards:\n  - {card}\n", {"f": front})


def image_deck(folder: Path, image: str) -> Path:
    return deck_with(folder, front=PLAIN + f"  - {{name: art, kind: image, box: card, "
                                           f"image: '{image}'}}\n")


def run(*args, env=None) -> tuple[int, str]:
    outcome = CliRunner().invoke(main, [str(a) for a in args], env=env)
    return outcome.exit_code, outcome.output


def run_process(*args, timeout=300) -> tuple[int, str]:  # a safety net: a busy machine
    done = subprocess.run([sys.executable, "-m", "cardkit", *map(str, args)],
                          capture_output=True, text=True, timeout=timeout)
    return done.returncode, done.stderr


def run_in_one_process(*commands) -> list[tuple[int, str]]:
    """Each cardkit command in turn in one fresh interpreter (the libraries' warnings and
    logs reach its stderr as a user's terminal would show them; one interpreter's start
    for all: half a second of CPU time each): (exit code, stderr) a command."""
    script = ("import sys\nfrom cardkit.cli import main\nfor args in eval(sys.argv[1]):\n"
              "    code = 0\n    try:\n        main(args)\n    except SystemExit as exit:\n"
              "        code = exit.code if isinstance(exit.code, int) else 1\n"
              "    print(f'\\0{code}', file=sys.stderr, flush=True)\n")
    done = subprocess.run([sys.executable, "-c", script,
                           repr([[str(arg) for arg in command] for command in commands])],
                          capture_output=True, text=True, timeout=PATIENCE)  # a hang's net
    assert done.returncode == 0, done.stderr
    found = re.split(r"\0(-?\d+)\n", done.stderr)  # stderr, code, stderr, code, ..., ''
    assert len(found) == 2 * len(commands) + 1 and not found[-1], done.stderr
    return [(int(code), err) for err, code in zip(found[0::2], found[1::2])]


def test_deep_nesting_is_refused_before_the_parser(tmp_path):
    path = tmp_path / "deck.yaml"
    path.write_text("name: x\ncards: " + "[" * 30000 + "]" * 30000 + "\n")
    code, err = run_process("validate", path)
    assert code == 2
    assert "deck.yaml:2:107: lists and mappings nest more than 100 deep here" in err


def test_deep_nesting_in_a_layout(tmp_path):
    deck = deck_with(tmp_path, front="elements:\n" + "- " * 5000 + "x\n")
    code, err = run_process("validate", deck)
    assert code == 2 and "f.yaml:2:199: lists and mappings nest more than 100 deep" in err


FIFO_TARGETS = ["image", "deck", "layout", "spreadsheet", "font", "icon"]


@pytest.fixture(scope="module")
def fifo_validated(tmp_path_factory):
    """What validate says of a deck with a FIFO for each of FIFO_TARGETS, by target: all
    in one child interpreter (its start, half a second of CPU time, once for the six),
    each deck in a folder of its own. A FIFO opened is a read that never ends: the child
    is stopped at PATIENCE and the test fails."""
    decks = [_deck_with_a_fifo(tmp_path_factory.mktemp("fifo") / "d", target)
             for target in FIFO_TARGETS]
    said = run_in_one_process(*[["validate", deck] for deck in decks])
    return dict(zip(FIFO_TARGETS, said))


def _deck_with_a_fifo(folder: Path, target: str) -> Path:
    if target == "image":
        deck = image_deck(folder, "art.png")
        fifo = folder / "art.png"
    elif target == "deck":
        folder.mkdir()
        deck = fifo = folder / "deck.yaml"
    elif target == "layout":
        deck = deck_with(folder)
        fifo = folder / "layouts" / "f.yaml"
        fifo.unlink()
    elif target == "spreadsheet":
        deck = deck_with(folder, card="{from: cards.csv}", fields="fields:\n  n: integer\n")
        fifo = folder / "cards.csv"
    else:  # a font is read when a layout names it
        deck = deck_with(folder, front="elements:\n  - {name: t, kind: text, box: card, "
                                       "text: hi, font: x}\n" if target == "font" else PLAIN)
        (folder / f"{target}s").mkdir()
        fifo = folder / f"{target}s" / ("x.ttf" if target == "font" else "x.svg")
    os.mkfifo(fifo)
    return deck


@pytest.mark.parametrize("target", FIFO_TARGETS)
def test_a_fifo_is_refused_not_waited_for(fifo_validated, target):
    code, err = fifo_validated[target]
    assert code == 2
    assert "not a regular file" in err


def test_a_device_as_an_image(tmp_path):
    deck = image_deck(tmp_path, "zero.png")
    (tmp_path / "zero.png").symlink_to("/dev/zero")
    code, err = run_process("build", deck, "--out", tmp_path / "out")
    assert code == 2
    assert f"image 'zero.png': outside the deck's folder {tmp_path} (it leads to /dev/zero)" \
        in err


def test_a_truncated_png_fails_validation(tmp_path):
    deck = image_deck(tmp_path, "art.png")
    Image.new("RGB", (750, 1050), (200, 30, 30)).save(tmp_path / "art.png")
    data = (tmp_path / "art.png").read_bytes()
    (tmp_path / "art.png").write_bytes(data[:len(data) // 2])
    code, out = run("validate", deck)
    assert code == 2
    assert "image 'art.png': not an image cardkit can read (PNG, JPG or SVG), or damaged" in out


def test_an_image_of_too_many_pixels(tmp_path):
    deck = image_deck(tmp_path, "huge.png")
    Image.new("1", (9000, 9000), 1).save(tmp_path / "huge.png")  # 81 MP, a small file
    code, out = run("validate", deck)
    assert code == 2
    assert "image 'huge.png': 9000 x 9000 px is more than 60 megapixels" in out


@pytest.mark.parametrize("size, message", [
    ("{width: " + "9" * 320 + "mm, height: 88mm}", "is too large to be a length"),
    ("{width: 0.01mm, height: 88mm}", "a card is 0.01 x 88 mm, but each side must be 10 to "
                                      "420 mm"),
    ("{width: 5000mm, height: 88mm}", "each side must be 10 to 420 mm"),
])
def test_absurd_card_sizes(tmp_path, size, message):
    code, out = run("build", deck_with(tmp_path, top=f"size: {size}"), "--out",
                    tmp_path / "out")
    assert code == 2
    assert message in out


def test_a_product_too_big_is_refused_before_it_is_made(tmp_path):
    lists = "".join(f"\n      f{i}: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]" for i in range(10))
    fields = "fields:\n" + "".join(f"  f{i}: integer\n" for i in range(10))
    deck = deck_with(tmp_path, card="product:" + lists, fields=fields)
    started = time.process_time()  # CPU time: a busy machine does not fail it
    code, out = run("validate", deck)
    assert time.process_time() - started < 5
    assert code == 2
    assert "this product makes 10,000,000,000 cards, more than the limit of 100,000" in out
    assert "CARDKIT_MAX_CARDS" in out


def test_the_card_limit_counts_copies_and_can_be_raised(tmp_path):
    deck = deck_with(tmp_path, card="{count: 10000}\n  - {count: 10000}\n  - {count: 10000}")
    code, out = run("validate", deck, env={"CARDKIT_MAX_CARDS": "20000"})
    assert code == 2 and "the deck prints 30,000 cards, more than the limit of 20,000" in out
    code, out = run("validate", deck, env={"CARDKIT_MAX_CARDS": "30000"})
    assert code == 0, out


@pytest.mark.parametrize("command", ["build", "export"])
def test_an_output_folder_under_a_file(tmp_path, command):
    (tmp_path / "afile").write_text("")
    extra = ["--for", "tgc"] if command == "export" else []
    code, out = run(command, "blofa", *extra, "--out", tmp_path / "afile" / "x")
    assert code == 2
    assert "cannot write" in out and "Not a directory; give --out a folder you can write " \
                                       "to" in out


def test_a_terminated_build_leaves_no_temporary_file(tmp_path):
    cards = "".join(f"\n  - {{value: {i}, text: 'card {i}'}}" for i in range(4000))
    deck = write_deck(tmp_path / "d", "name: slow\nsize: poker\nfront: f\nbacks:\n"
                      "  b: {layout: f}\nfields:\n  value: integer\n  text: text\ncards:"
                      + cards + "\n", {"f": PLAIN + "  - {name: t, kind: text, box: "
                                       "[5mm, 5mm, 50mm, 70mm], text: '{text} {value}'}\n"})
    out = tmp_path / "out"
    process = subprocess.Popen([sys.executable, "-m", "cardkit", "build", str(deck), "--out",
                                str(out)], stderr=subprocess.PIPE)
    folder = out / "slow"
    hang = time.monotonic() + 600  # only against a build that neither runs nor ends
    while not list(folder.glob(".*.part")) and cpu_seconds(process.pid) < 60 \
            and process.poll() is None and time.monotonic() < hang:
        time.sleep(0.01)  # wait until it is writing (its CPU time, not the clock's)
    assert list(folder.glob(".*.part")), "the build never started writing"
    process.send_signal(signal.SIGTERM)
    assert process.wait(timeout=PATIENCE) == 128 + signal.SIGTERM, process.stderr.read()
    assert not folder.exists()  # the build made it, and took it away again


def test_a_killed_builds_leftover_is_removed_by_the_next_build(tmp_path):
    folder = tmp_path / "out" / "blofa"
    folder.mkdir(parents=True)
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()  # a process id that no longer runs
    leftover = folder / f".blofa-pnp-a4.pdf.{dead.pid}.part"
    leftover.write_bytes(b"%PDF-1.4 half a file")
    code, _ = run("build", "blofa", "--out", tmp_path / "out")
    assert code == 0
    assert sorted(p.name for p in folder.iterdir()) == ["blofa-pnp-a4.pdf"]


# -- confinement: a deck reads its own folder (or its project's) and the bundled files -----

SECRET = "TOP SECRET LINE that must never be echoed"


@pytest.fixture
def outside(tmp_path):
    """A folder next to the deck's, holding files a deck must not read."""
    folder = tmp_path / "outside"
    folder.mkdir()
    Image.new("RGB", (750, 1050), (10, 200, 10)).save(folder / "secret.png")
    (folder / "secret.yaml").write_text(f"{SECRET}\n")
    (folder / "deck.yaml").write_text(f"{SECRET}\n")
    (folder / "secret.csv").write_text("n\n1\n")
    (folder / "secret.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" width="10" '
                                       'height="10"><rect width="10" height="10"/></svg>')
    (folder / "secret.ttf").write_bytes((FONTS / "Lato-Regular.ttf").read_bytes())
    return folder


def _escape(deck_folder: Path, outside: Path, way: str) -> Path:
    """A deck in ``deck_folder`` that reads a file in ``outside`` in the given way."""
    link = deck_folder / "link"
    if way == "absolute image":
        return image_deck(deck_folder, str(outside / "secret.png"))
    if way == "dot-dot image":
        return image_deck(deck_folder, "../outside/secret.png")
    if way == "linked image":
        deck = image_deck(deck_folder, "art.png")
        (deck_folder / "art.png").symlink_to(outside / "secret.png")
        return deck
    if way == "image in a linked folder":
        deck = image_deck(deck_folder, "link/secret.png")
        link.symlink_to(outside, target_is_directory=True)
        return deck
    if way == "image from a field":
        return deck_with(deck_folder, card="{art: ../outside/secret.png}",
                         fields="fields:\n  art: text\n",
                         front=PLAIN + "  - {name: art, kind: image, box: card, image: '{art}'}\n")
    if way == "svg linking a file":
        deck = image_deck(deck_folder, "art.svg")
        (deck_folder / "art.svg").write_text(
            '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
            'width="10" height="10"><rect width="5" height="5"/><image width="10" height="10" '
            'xlink:href="../outside/secret.png"/></svg>')
        return deck
    if way == "linked layout":
        deck = deck_with(deck_folder)
        (deck_folder / "layouts" / "f.yaml").unlink()
        (deck_folder / "layouts" / "f.yaml").symlink_to(outside / "secret.yaml")
        return deck
    if way == "linked deck file":
        deck_folder.mkdir()
        (deck_folder / "deck.yaml").symlink_to(outside / "deck.yaml")
        return deck_folder / "deck.yaml"
    if way == "extends a path":
        return deck_with(deck_folder, top="size: poker\nextends: ../outside")
    if way == "spreadsheet":
        return deck_with(deck_folder, card="{from: ../outside/secret.csv}",
                         fields="fields:\n  n: integer\n")
    if way in ("linked font", "linked icon"):
        deck = deck_with(deck_folder)
        kind = way.split()[1]
        (deck_folder / f"{kind}s").mkdir()
        suffix = "ttf" if kind == "font" else "svg"
        (deck_folder / f"{kind}s" / f"x.{suffix}").symlink_to(outside / f"secret.{suffix}")
        return deck
    raise AssertionError(way)


ESCAPES = {
    "absolute image": "image '{outside}/secret.png': outside the deck's folder {deck}",
    "dot-dot image": "image '../outside/secret.png': outside the deck's folder {deck} (it "
                     "leads to {outside}/secret.png)",
    "linked image": "image 'art.png': outside the deck's folder {deck} (it leads to "
                    "{outside}/secret.png)",
    "image in a linked folder": "image 'link/secret.png': outside the deck's folder {deck} "
                                "(it leads to {outside}/secret.png)",
    "image from a field": "image '../outside/secret.png': outside the deck's folder {deck}",
    "svg linking a file": "image 'art.svg': the SVG links '../outside/secret.png', outside "
                          "the deck's folder {deck}",
    "linked layout": "layout 'f' is outside the deck's folder {deck} (it leads to "
                     "{outside}/secret.yaml)",
    "linked deck file": "deck.yaml: the deck file is outside the deck's folder {deck} (it "
                        "leads to {outside}/deck.yaml); build the deck from its own folder",
    "extends a path": "deck.yaml:3:10: deck {deck}/../outside/deck.yaml is outside the "
                      "deck's folder {deck}",
    "spreadsheet": "../outside/secret.csv is outside the deck's folder {deck} (it leads to "
                   "{outside}/secret.csv)",
    "linked font": "fonts/x.ttf: the font file is outside the deck's folder {deck}",
    "linked icon": "icons/x.svg: the icon file is outside the deck's folder {deck}",
}


@pytest.mark.parametrize("way", ESCAPES)
def test_a_deck_cannot_read_outside_its_folder(tmp_path, outside, way):
    deck_folder = tmp_path / "deck"
    deck = _escape(deck_folder, outside, way)
    code, out = run("build", deck, "--out", tmp_path / "out")
    assert code == 2, out
    assert ESCAPES[way].format(deck=deck_folder, outside=outside) in out
    assert "What a deck can read" in out or "build the deck from its own folder" in out
    assert SECRET not in out
    assert out.count("\n") == 2  # one problem, then the summary line
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("way", ["dot-dot image", "image from a field", "svg linking a file",
                                 "extends a path", "spreadsheet"])
def test_a_project_file_lets_the_decks_below_it_share_files(tmp_path, outside, way):
    (outside / "deck.yaml").unlink()
    deck_with(outside, top="size: poker")  # a deck to extend, in place of the junk file
    (tmp_path / "cardkit-project.txt").write_text("")
    deck = _escape(tmp_path / "deck", outside, way)
    code, out = run("validate", deck)
    assert code == 0, out


@pytest.mark.parametrize("name", ["/etc/passwd", "../../x", "a/../../b", "x" * 300, "a\x00b"])
def test_a_layout_name_is_a_name_not_a_path(tmp_path, name):
    deck = deck_with(tmp_path, card=f"{{layout: {json.dumps(name)}}}")
    code, out = run("validate", deck)
    assert code == 2, out
    assert "is not the name of a file in layouts/; use letters, digits, '-' and '_'" in out


def test_a_layout_cannot_extend_a_path(tmp_path, outside):
    deck = deck_with(tmp_path / "deck", front="extends: ../../outside/secret\n" + PLAIN)
    code, out = run("validate", deck)
    assert code == 2
    assert "layout name '../../outside/secret' is not the name of a file in layouts/" in out


def test_extending_a_file_that_is_not_a_deck_never_shows_its_content(tmp_path):
    (tmp_path / "notes.yaml").write_text(f"{SECRET}\n" * 20)
    deck = deck_with(tmp_path, top="size: poker\nextends: notes.yaml")
    code, out = run("validate", deck)
    assert code == 2
    assert "notes.yaml:1:1: a deck must be a mapping of 'key: value' lines, not text;" in out
    assert "TOP SECRET" not in out


@pytest.mark.parametrize("what", ["deck", "layout"])
def test_an_extends_chain_1000_deep(tmp_path, what):
    if what == "deck":
        for i in range(1000):
            deck_with(tmp_path / f"d{i}", top=f"size: poker\nextends: ../d{i + 1}")
        (tmp_path / "cardkit-project.txt").touch()
        deck = tmp_path / "d0" / "deck.yaml"
    else:
        layouts = {f"l{i}": f"extends: l{i + 1}\n" for i in range(1000)}
        deck = write_deck(tmp_path, "name: chain\nsize: poker\nfront: l0\nbacks:\n"
                                    "  b: {layout: l0}\ncards:\n  - {count: 1}\n", layouts)
    code, out = run("validate", deck)
    assert code == 2
    assert f"{what}s extend each other more than 20 deep here" in out


# -- every bad input exits 2 with one message -------------------------------------------------

def _rect(extra: str) -> str:
    return PLAIN + "  - {name: x, kind: rect, box: card, " + extra + "}\n"


BAD_DECKS = {
    "a 320-digit box": (dict(front=PLAIN + "  - {name: x, kind: rect, box: [" + "9" * 320
                             + "mm, 1mm, 1mm, 1mm]}\n"),
                        "box x: '99999999999999999999…' is too large to be a length"),
    "an infinite box": (dict(front=PLAIN + "  - {name: x, kind: rect, box: [.inf, 0mm, 1mm, "
                             "1mm]}\n"), "box x: 'inf' is not a length"),
    "an infinite font size": (dict(front=PLAIN + "  - {name: x, kind: text, box: card, "
                                         "text: hi, size: .inf}\n"),
                              "size: 'inf' is not a length; write e.g. '9pt'"),
    "a 400-digit font size": (dict(front=PLAIN + "  - {name: x, kind: text, box: card, "
                                         "text: hi, size: " + "1" * 400 + "}\n"),
                              "size: '11111111111111111111…' has no unit; write e.g. '9pt'"),
    "a 400-digit leading": (dict(front=PLAIN + "  - {name: x, kind: text, box: card, "
                                       "text: hi, leading: " + "1" * 400 + "}\n"),
                            "leading: expected a number above 0 and at most 10, got a whole "
                            "number (" + "1" * 30 + "...)"),
    "a NaN stroke": (dict(front=_rect("stroke: red, stroke_width: .nan")),
                     "stroke_width: 'nan' is not a length"),
    "a NaN opacity": (dict(front=_rect("opacity: .nan")),
                      "opacity: expected a number from 0 to 1, got a number (nan)"),
    "an infinite turn": (dict(front=_rect("rotate: .inf")), "'rotate' cannot be inf"),
    "an infinite safe area": (dict(front="safe: .inf\n" + PLAIN), "safe: 'inf' is not a "
                                                                  "length"),
    "a 400-digit count": (dict(card="{count: " + "9" * 400 + "}"),
                          "count is beyond a trillion but must be between 1 and 10000"),
    "an infinite count": (dict(card="{count: .inf}"),
                          "count must be a whole number, not a number (inf)"),
    "a drop of every card": (dict(top="size: poker\ndrop:\n  - {n: 1}", card="{n: 1}",
                                  fields="fields:\n  n: integer\n"),
                             "deck.yaml:4:3: drop leaves the deck with no cards; drop fewer"),
    "a variant without cards": (dict(top="size: poker\nvariants:\n  players: {'2': {n: [2]}}",
                                     card="{n: 1}", fields="fields:\n  n: integer\n"),
                                "deck.yaml:4:18: option 2 of variant 'players' leaves no "
                                "cards; allow values the cards have"),
    "a 300-character image name": (dict(front=PLAIN + "  - {name: art, kind: image, box: "
                                        "card, image: '" + "a" * 300 + ".png'}\n"),
                                   "(File name too long)"),
    "a polygon with a bad box": (dict(front=PLAIN + "  - {name: p, kind: polygon, box: [1mm, "
                                      "1mm, -5mm, 0mm], points: [[0%, 0%], [1%, 0%], [1%, "
                                      "1%]]}\n"),
                                 "box width and height must not be negative"),
}


@pytest.mark.parametrize("case", BAD_DECKS)
def test_a_bad_deck_exits_2_with_one_message(tmp_path, case):
    parts, message = BAD_DECKS[case]
    deck = deck_with(tmp_path, **parts)
    for command in ("validate", "build"):
        code, out = run(command, deck, "--out", tmp_path / "out") if command == "build" \
            else run(command, deck)
        assert code == 2, out
        assert message in out
        assert out.count("\n") == 2, out  # the problem, then the summary
        assert len(out) < 600, out  # a huge value is not echoed whole


def test_a_list_as_an_element_name_in_an_extended_layout(tmp_path):
    deck = deck_with(tmp_path, front="extends: base\nelements:\n  - {name: [a], kind: rect, "
                                     "box: card}\n")
    (tmp_path / "layouts" / "base.yaml").write_text(PLAIN)
    code, out = run("validate", deck)
    assert code == 2
    assert "f.yaml:3:12: 'name' must be text, not a list" in out


def test_variant_options_that_together_keep_nothing(tmp_path):
    deck = deck_with(tmp_path, top="size: poker\nvariants:\n  players: {'2': {n: [1]}, '3': "
                                   "{n: [2]}}\n  mode: {short: {m: [1]}, long: {m: [2]}}",
                     card="{n: 1, m: 2}\n  - {n: 2, m: 1}",
                     fields="fields:\n  n: integer\n  m: integer\n")
    code, out = run("build", deck, "--players", "2", "--variant", "mode=short", "--out",
                    tmp_path / "out")
    assert code == 2
    assert "these variant options together leave no cards: mode short, players 2" in out


@pytest.mark.parametrize("args, message", [
    (["bullet", "² 1 1 1 1"], "'²' is not a card value with 5 players"),
    (["bullet", "9" * 5000 + " 1 1 1 1"], "is not a card value with 5 players"),
    (["rise-up", "--room", "²H", "5H"], "'²H' has no rank '²'"),
])
def test_score_refuses_odd_digits(args, message):
    code, out = run("score", *args)
    assert code == 2
    assert message in out


# -- the worst small inputs: refused quickly, in little memory ---------------------------------

def _alias_bomb(folder: Path) -> Path:
    levels = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"] + \
        [f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]" for i in range(1, 10)]
    return write_deck(folder, "name: bomb\nsize: poker\n" + "\n".join(levels) + "\n")


def _huge_image(folder: Path) -> Path:
    deck = image_deck(folder, "huge.png")
    zero_png(folder / "huge.png", 30000, 30000)  # 900 MP in 1 MB, written in 0.1 s
    return deck


WORST = {
    "an alias bomb": (_alias_bomb, "its aliases repeat over 200,000 values, more than 4 for "
                                   "each value written out"),
    "30,000 nested lists": (lambda f: write_deck(f, "name: x\ncards: " + "[" * 30000
                                                 + "]" * 30000 + "\n"), "nest more than 100"),
    "a product of 10^10 cards": (lambda f: deck_with(
        f, card="product:" + "".join(f"\n      f{i}: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]"
                                     for i in range(10)),
        fields="fields:\n" + "".join(f"  f{i}: integer\n" for i in range(10))),
        "this product makes 10,000,000,000 cards"),
    "a 0.01 mm card": (lambda f: deck_with(f, top="size: {width: 0.01mm, height: 0.01mm}"),
                       "each side must be 10 to 420 mm"),
    "a 900-megapixel image": (_huge_image, "image 'huge.png': 30000 x 30000 px is more "
                                            "than 60 megapixels"),
    "a megabyte of text": (lambda f: deck_with(
        f, card="{t: '" + "many words " * 100_000 + "'}", fields="fields:\n  t: text\n",
        front=PLAIN + "  - {name: t, kind: text, box: card, text: '{t}'}\n"),
        "the text is 1,100,000 characters long"),
}
MEASURED = ("import resource, subprocess, sys; done = subprocess.run(sys.argv[1:], "
            "capture_output=True, text=True); used = resource.getrusage("
            "resource.RUSAGE_CHILDREN); print(done.returncode, used.ru_maxrss, "
            "used.ru_utime + used.ru_stime); print(done.stderr)")


@pytest.mark.parametrize("case", WORST)
def test_the_worst_small_inputs_are_refused_quickly_in_little_memory(tmp_path, case):
    make, message = WORST[case]
    deck = make(tmp_path / "deck")
    assert deck.stat().st_size < 1_200_000
    done = subprocess.run([sys.executable, "-c", MEASURED, sys.executable, "-m", "cardkit",
                           "build", str(deck), "--out", str(tmp_path / "out")],
                          capture_output=True, text=True, timeout=300)  # a safety net
    first, err = done.stdout.split("\n", 1)
    code, peak_kb, seconds = first.split()
    code, peak_kb, seconds = int(code), int(peak_kb), float(seconds)
    assert code == 2 and message in err
    assert seconds < 10  # of CPU time: a busy machine does not fail it
    assert peak_kb < 500_000


def test_a_big_plain_deck_is_not_taken_for_an_alias_bomb(tmp_path):
    """The guard counts what aliases repeat, not plain values: 30,000 cards (over 200,000
    values, the old limit) read, each sharing the first card's note through an alias."""
    cards = "\n".join(f"  - {{<<: *first, name: c{i}, value: {i % 9}}}"
                      for i in range(1, 30_000))
    path = tmp_path / "deck.yaml"
    path.write_text('cards:\n  - &first {name: c0, value: 0, note: "the same note"}\n'
                    + cards + "\n", encoding="utf-8")
    read = load_yaml(path)["cards"]
    assert len(read) == 30_000
    assert read[-1] == {"name": "c29999", "value": 2, "note": "the same note"}


def test_a_bundled_deck_extends_the_bundled_parent_wherever_cardkit_runs(tmp_path,
                                                                        monkeypatch):
    """Ragusa extends 'standard'. A folder called 'standard' where cardkit happens to run
    (say, the output of an earlier build) is not that deck: 'extends' names a path beside
    the deck, or a bundled deck."""
    (tmp_path / "standard").mkdir()
    monkeypatch.chdir(tmp_path)
    outcome = CliRunner().invoke(main, ["validate", "ragusa"])
    assert outcome.exit_code == 0, outcome.output


def test_python_dash_m_in_a_deck_folder_imports_none_of_the_decks_modules(tmp_path):
    """`python -m cardkit` puts the folder it runs in first on sys.path (issue 37, item 2): a
    shared deck shipping modules named like cardkit's libraries must not have them imported
    by validate or build, which never run a deck's code."""
    deck = tmp_path / "deck"
    shutil.copytree(Path(__file__).parents[1] / "decks" / "standard", deck)
    for name in ("click", "yaml", "PIL", "reportlab", "pypdf", "svglib", "fontTools",
                 "dataclasses", "pathlib", "json", "decimal"):
        (deck / name).mkdir()
        (deck / name / "__init__.py").write_text(
            f"open({str(tmp_path / ('ran-' + name))!r}, 'w').close()\n", encoding="utf-8")
    for command in (["validate", "."], ["build", ".", "--out", str(tmp_path / "out")]):
        done = subprocess.run([sys.executable, "-m", "cardkit", *command], cwd=deck,
                              capture_output=True, text=True, timeout=PATIENCE)
        assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in tmp_path.glob("ran-*")) == []
    assert list((tmp_path / "out").rglob("*.pdf"))


def test_a_cleanup_that_fails_after_sigterm_still_exits_as_terminated(tmp_path, monkeypatch):
    """The unwinding of a SIGTERM can meet an error of its own (a library's cleanup): the
    error is named, and the exit code stays the one a terminated command gives."""
    from cardkit.common import processes
    from cardkit.pipeline import build as pipeline_build

    def stopped_then_broken(*args, **kwargs):
        processes.note_terminated()
        raise RuntimeError("a cleanup failed")

    monkeypatch.setattr(pipeline_build, "build_deck", stopped_then_broken)
    monkeypatch.setattr(processes, "_terminated", False)
    result = CliRunner().invoke(main, ["build", "blofa", "--out", str(tmp_path)])
    assert result.exit_code == 128 + signal.SIGTERM, result.output
    assert "internal error: RuntimeError('a cleanup failed')" in result.output
