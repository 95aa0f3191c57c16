"""Deck -> a contest entry: every file an entry needs, as a folder and a reproducible zip,
made by the same calls as ``build``, ``export`` and ``rulebook``.

The entry holds the print-and-play sheets (A4 and Letter, duplex and gutterfold), a
low-ink version of the duplex sheets (``--ink draft``: large fills lightened), the
rulebook, the tuck box, token sheets and boards the deck declares (in ``components/``), a
one-page "how to print and cut" sheet written from the sheets' plans, a cover
and card images for BoardGameGeek's gallery, the Tabletop Simulator deck, a text file with
the components and what changed since the last packed version, and the licence.

The changelog compares the cards' fingerprints (what they print) with those kept in the
output folder by the last pack of another version (``DECK-packed.json``): packing the same
version again compares with the same one, so the same inputs make the same bytes.
"""

from __future__ import annotations

import json
import shutil
import tempfile
import time
import zipfile
from dataclasses import dataclass
from pathlib import Path

from ..common.atomic import atomic_folder, atomic_path, output_root, read_below
from ..common.build_time import build_epoch
from ..common.errors import Problem, Where
from ..common.units import to_mm
from ..common.words import counted
from ..deck.model import Deck
from ..imposition.paper import PAPERS
from ..imposition.services import PNG, TTS
from ..imposition.sheets import SheetOptions
from ..render.card import DRAFT_INK, FULL_INK
from ..render.fingerprint import Prints
from ..sources.files import why_outside
from ..sources.rulebook import rules_path
from ..writers.calibration_pdf import write_calibration
from ..writers.cover_png import write_cover
from ..writers.howto_pdf import PrintedFile, write_howto
from .build import build_deck
from .chosen import load_chosen
from .components import make_declared
from .contest import check_contest
from .export import ExportOptions, export_deck
from .faces import component_faces
from .rulebook import make_rulebook

PAPER_ORDER = ("a4", "letter")
# (sheet, ink, folder in the entry): what the entry prints on each paper
SHEETS = (("pnp", FULL_INK, ""), ("gutterfold", FULL_INK, ""), ("pnp", DRAFT_INK, "low-ink"))
# what the how-to sheet says of how to print each component
HOW_BOX = "The tuck box, one side only: cut the solid lines, fold the dashed ones, glue the " \
    "grey flaps."
HOW_TOKENS = "The tokens, each cut on its outline; a page of backs follows its fronts: both " \
    "sides, flipping on the long edge."
HOW_BOARD = "A board in tiles, after its page map: one side only; lay each tile's edge on " \
    "the dashed line of the one before."
GALLERY_DPI = 300  # a poker card is 750 x 1050 px: sharp in the gallery's full-size view
ZIP_EPOCH_MIN = 315_532_800  # 1980-01-01, the earliest time a zip entry holds
FILE_MODE = 0o644


@dataclass(frozen=True)
class PackResult:
    deck: Deck
    folder: Path
    zip_path: Path
    files: tuple[str, ...]  # the entry's files, relative to its folder
    seconds: float
    warnings: tuple[Problem, ...]


def entry_name(deck: Deck) -> str:
    """``blofa-1.0-entry``: the folder, and the zip's name and top folder."""
    version = str(deck.version).strip()
    return "-".join([deck.name] + ([version] if version else []) + ["entry"])


def pack_deck(deck_path: Path, out_dir: Path, strict: bool = False,
              base_url: str | None = None) -> PackResult:
    """Write the entry of the deck at ``deck_path`` into ``out_dir``/DECK/: a folder and a
    zip of it. ``base_url``: where the Tabletop Simulator images will be hosted (default:
    the entry folder's own, for trying the deck on this computer)."""
    started = time.perf_counter()
    deck = load_chosen(deck_path)
    check_contest(deck_path, deck)
    component_faces(deck)  # a broken box, tokens or boards entry stops it before it writes
    licence = _licence(deck_path, deck)
    home = Path(out_dir) / deck.name
    name = entry_name(deck)
    folder = home / name
    root = output_root(out_dir, deck.path)
    history_path = home / f"{deck.name}-packed.json"
    history, warnings = _history(history_path, root)
    fingerprints = _fingerprints(deck)
    with atomic_folder(folder, under=root) as entry, tempfile.TemporaryDirectory() as scratch:
        scratch = Path(scratch)
        printed = []
        orientations = {}  # paper -> the way up the two-sided sheets print
        for sheet, ink, subfolder in SHEETS:
            for paper in PAPER_ORDER:
                options = SheetOptions(sheet=sheet, paper=paper, ink=ink)
                result = build_deck(deck_path, scratch, options, strict)
                warnings += result.warnings
                target = entry / subfolder / result.path.name
                target.parent.mkdir(exist_ok=True)
                shutil.move(result.path, target)
                printed.append((paper, _described(target.relative_to(entry), result.pages,
                                                  result.grid, sheet, ink)))
                if sheet == "pnp":
                    orientations[paper] = result.grid.orientation
        if rules_path(deck_path).is_file():  # a deck whose rules are all on its cards has none
            rules = make_rulebook(deck_path, scratch, PAPER_ORDER, strict)
            for path in rules.paths:
                shutil.move(path, entry / path.name)
            printed += [(paper, PrintedFile(p.name, rules.pages, 0,
                                            "The rules, on one side or both."))
                        for paper, p in zip(PAPER_ORDER, rules.paths)]
        made, found, listed = _other_components(deck_path, deck, scratch, entry, strict)
        printed += made
        warnings += found
        for paper in PAPER_ORDER:
            calibration = f"{deck.name}-printer-test-{paper}.pdf"
            write_calibration(entry / calibration, paper, "long", orientations[paper],
                              for_players=True)
            write_howto(entry / f"{deck.name}-how-to-print-{paper}.pdf", deck, PAPERS[paper],
                        [f for on, f in printed if on == paper], _cutting(deck), calibration)
        _gallery(deck_path, deck, scratch, entry / "gallery", strict)
        tts = export_deck(deck_path, scratch, ExportOptions(
            TTS, base_url=base_url or (folder / "tabletop-simulator").resolve().as_uri()),
            strict)
        shutil.move(tts.path, entry / "tabletop-simulator")
        if not base_url:  # TTS reads a web address or a path on this computer, nothing else
            warnings.append(Problem(Where(deck_path), "the entry's Tabletop Simulator deck "
                                    f"finds its images by file:// paths on this computer "
                                    f"({(folder / 'tabletop-simulator').resolve()}), so it "
                                    "opens here only", "before you share the entry, put the "
                                    "images of tabletop-simulator/ online and pack again with "
                                    "--base-url and their web address"))
        changes = _changelog(history, deck, fingerprints)
        (entry / f"{deck.name}-components-and-changes.txt").write_text(
            _components(deck, listed) + "\n" + changes, encoding="utf-8")
        if licence is not None:
            (entry / "LICENSE.txt").write_text(licence, encoding="utf-8")
        files = tuple(sorted(p.relative_to(entry).as_posix() for p in entry.rglob("*")
                             if p.is_file()))
        zip_path = home / f"{name}.zip"
        with atomic_path(zip_path, under=root) as temporary:
            write_zip(temporary, entry, name, files)
    history = [h for h in history if h["version"] != str(deck.version)]
    with atomic_path(history_path, under=root) as temporary:
        temporary.write_text(json.dumps(history + [{"version": str(deck.version),
                                                    "cards": fingerprints}], indent=1),
                             encoding="utf-8")
    return PackResult(deck, folder, zip_path, files, time.perf_counter() - started,
                      tuple(dict.fromkeys(warnings)))


def _other_components(deck_path: Path, deck: Deck, scratch: Path, entry: Path,
                      strict: bool) -> tuple[list, list, list]:
    """The tuck box, token sheets and boards the deck declares, made as their commands make
    them and moved into ``entry``/components/: ((paper, what the how-to sheet says of each
    file printed on it), their warnings, a line of the components list for each). A
    board's whole page, for a print shop, is in the folder but printed on no home paper."""
    folder = entry / "components"
    made: list = []
    listed: list = []

    def printed(paths, pages, how: str) -> list:
        """(paper, PrintedFile) of each of ``paths``, one a paper, moved into the entry."""
        folder.mkdir(exist_ok=True)
        found = []
        for paper, path, count in zip(PAPER_ORDER, paths, pages):
            shutil.move(path, folder / path.name)
            found.append((paper, PrintedFile(f"{folder.name}/{path.name}", count, 0, how)))
        return found

    declared = make_declared(deck_path, scratch, PAPER_ORDER, strict)
    if declared.box:
        listed.append(f"- a {declared.box.box.summary}")
        made += printed(declared.box.paths, declared.box.sheets, HOW_BOX)
    if declared.tokens:
        count = declared.tokens.tokens
        listed.append(f"- {count} token{'s' * (count != 1)}")
        made += printed(declared.tokens.paths, declared.tokens.pages, HOW_TOKENS)
    for name, whole, tiled in declared.boards.made if declared.boards else ():
        listed.append(f"- the board {name}")
        made += printed([path for _, path, _ in tiled],  # a page map, then the tiles
                        [tiles + 1 for _, _, tiles in tiled], HOW_BOARD)
        shutil.move(whole, folder / whole.name)  # for a print shop: on no home paper
    return made, declared.warnings, listed


def _described(path: Path, pages: int, grid, sheet: str, ink: str) -> PrintedFile:
    """What the how-to sheet says of one PDF of sheets (``path``: in the entry's folder)."""
    if sheet == "gutterfold":
        how = ("One side only. Fold each sheet down the middle line, fronts out, then cut "
               "through both layers: every card has its back behind it.")
    else:
        how = (f"Both sides, flipping on the long edge ({grid.orientation}); odd pages are "
               "fronts, even pages their backs.")
    if ink == DRAFT_INK:
        how += " Low ink: large fills printed light, for playtests."
    return PrintedFile(path.as_posix(), pages, grid.per_page, how)  # low-ink/ named too


def _cutting(deck: Deck) -> str:
    size = deck.size
    return (f"each card is {to_mm(size.width):g} x {to_mm(size.height):g} mm. On the "
            "two-sided sheets the cards touch, so one cut separates two of them; on the "
            "gutterfold sheets they stand a few millimetres apart, their art running into "
            "the gap, so each card has cuts of its own. Cut along the lines the marks at the "
            "sheet's edges give, with a ruler and a knife or a paper trimmer.")


def _gallery(deck_path: Path, deck: Deck, scratch: Path, gallery: Path, strict: bool):
    """Card images at GALLERY_DPI and the cover made from them, into ``gallery``."""
    cards = export_deck(deck_path, scratch, ExportOptions(PNG, dpi=GALLERY_DPI, bleed=0.0),
                        strict)
    images = sorted(p for p in cards.path.glob("*.png"))
    fronts = [p for p in images if p.stem.endswith("front")]
    backs = [p for p in images if not p.stem.endswith("front")]
    gallery.mkdir()
    spread = fronts[::max(1, -(-len(fronts) // 3))]  # the first, middle and last kinds
    write_cover(gallery / f"{deck.name}-cover.png", deck.title, spread[:3] + backs[:2],
                GALLERY_DPI)
    shutil.move(cards.path, gallery / "cards")
    (gallery / "cards" / "manifest.csv").unlink(missing_ok=True)


def _licence(deck_path: Path, deck: Deck) -> str | None:
    """The LICENSE file's text: a file the deck's ``license:`` names beside it, or a line
    naming the licence; None without one."""
    named = deck.license.strip()
    if not named:
        return None
    path = Path(deck_path).parent / named
    if path.is_file() and not why_outside(path, Path(deck_path).parent):
        return path.read_text(encoding="utf-8")
    by = f" by {deck.author}" if deck.author else ""
    return f"{deck.title}{by} is shared under the licence {named}.\n"


def _components(deck: Deck, listed: list[str]) -> str:
    """The components list: the cards by back, the components printed beside them
    (``listed``), and what else the game needs."""
    size = deck.size
    lines = [f"{deck.title}" + (f", {deck.stamp}" if deck.stamp else ""), "",
             "Components", f"- {counted(deck.total(), 'card')}, {size.name} size "
             f"({to_mm(size.width):g} x {to_mm(size.height):g} mm)"]
    backs = deck.tally_backs()  # a deck of one back needs no count by back
    lines += [f"  - {count} with the {back} back" for back, count in backs.items()
              if len(backs) > 1]
    lines += listed
    lines += [f"- {count} {name}" for name, count in deck.components.items()]
    if deck.contest:
        lines.append(f"\nEntered in {deck.contest.title} ({deck.contest.name}).")
    return "\n".join(lines) + "\n"


def _fingerprints(deck: Deck) -> list[list]:
    """[name, count, front key, back key] of each distinct card, in deck order."""
    keys = Prints(deck).keys
    return [[deck.name_of(card), card.count, *keys[card.number]] for card in deck.cards]


def _history(path: Path, root: Path) -> tuple[list[dict], list[Problem]]:
    """The fingerprints of the versions packed before, [] when none; and a warning when
    the file is damaged (not JSON, or not as :func:`pack_deck` writes it): a changelog is
    no reason to refuse a pack, so the history starts afresh. The file is read without
    following a link or opening a FIFO (NotReplaced: refused before anything is made)."""
    try:
        history = json.loads(read_below(path, root).decode("utf-8"))
    except FileNotFoundError:
        return [], []
    except (ValueError, RecursionError):  # not UTF-8 or not JSON (UnicodeError among them)
        history = None
    if not isinstance(history, list) or not all(map(_a_packed_version, history)):
        return [], [Problem(Where(path), "the history of the versions packed is damaged, so "
                            "the changes are listed as of a first version", "nothing to do: "
                            "this pack writes the history afresh")]
    return history, []


def _a_packed_version(entry) -> bool:
    """Whether ``entry`` is one version of the history as :func:`pack_deck` writes it."""
    return isinstance(entry, dict) and isinstance(entry.get("version"), str) and \
        isinstance(entry.get("cards"), list) and all(
            isinstance(card, list) and len(card) == 4 and isinstance(card[0], str) and
            type(card[1]) is int and all(isinstance(key, str) for key in card[2:])
            for card in entry["cards"])


def _changelog(history: list[dict], deck: Deck, now: list[list]) -> str:
    """What changed since the last packed version other than this one, card by card:
    added, removed, printing differently, or printed a different number of times."""
    older = [h for h in history if h["version"] != str(deck.version)]
    if not older:
        return "Changes\n- the first packed version\n"
    before = older[-1]
    lines = [f"Changes since version {before['version']}"]
    old = _by_name(before["cards"])
    new = _by_name(now)
    for key, (count, front, back) in new.items():
        shown = key[0] + (f" ({key[1] + 1})" if key[1] else "")
        if key not in old:
            lines.append(f"- added: {shown}" + (f" x{count}" if count > 1 else ""))
            continue
        was_count, was_front, was_back = old[key]
        sides = [side for side, a, b in (("front", was_front, front), ("back", was_back, back))
                 if a != b]
        if sides:
            lines.append(f"- changed: {shown}, its {' and '.join(sides)}")
        if was_count != count:
            lines.append(f"- {shown}: {was_count} copies, now {count}")
    lines += [f"- removed: {key[0]}" for key in old if key not in new]
    if len(lines) == 1:
        lines.append("- no card prints differently")
    return "\n".join(lines) + "\n"


def _by_name(cards: list) -> dict:
    """(name, how many cards of that name came before) -> (count, front, back)."""
    seen: dict = {}
    result = {}
    for name, count, front, back in cards:
        result[(name, seen.get(name, 0))] = (count, front, back)
        seen[name] = seen.get(name, 0) + 1
    return result


def write_zip(path: Path, folder: Path, top: str, files) -> None:
    """Zip ``files`` (relative to ``folder``) under the folder ``top``, reproducibly:
    sorted, each dated SOURCE_DATE_EPOCH (or now), mode 644, compressed alike."""
    epoch = build_epoch()
    epoch = max(ZIP_EPOCH_MIN, epoch if epoch is not None else int(time.time()))
    stamp = time.gmtime(epoch)[:6]
    with zipfile.ZipFile(path, "w") as archive:
        for relative in sorted(files):
            member = f"{top}/{relative}"
            if member.startswith("/") or ".." in member.split("/") or "\\" in member:
                raise ValueError(f"{member!r} cannot be a zip member's name")  # a last check
            info = zipfile.ZipInfo(member, date_time=stamp)
            info.external_attr = (0o100000 | FILE_MODE) << 16  # a regular file, rw-r--r--
            info.create_system = 3  # Unix, so the mode is read
            info.compress_type = zipfile.ZIP_DEFLATED
            with open(folder / relative, "rb") as source:
                archive.writestr(info, source.read(), compresslevel=9)
