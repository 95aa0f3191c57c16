"""The package's folders are the stages its data flows through, and imports run one way
(issue 26): sources -> deck model -> rendering -> imposition -> writers -> pipeline ->
commands, with the rules, games and playtests beside them, never meeting the drawing.

Every import statement counts, also one inside a function (a command imports its work
late) or under TYPE_CHECKING: what a module may name is what it may know about.
"""

from __future__ import annotations

import ast
import shutil
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "cardkit"

# stage -> the stages it may import (besides itself and the ``cardkit`` package's version)
_FLOW = ["common", "sources", "assets", "deck", "render", "imposition", "writers", "pipeline"]
MAY_IMPORT = {stage: set(_FLOW[:i]) for i, stage in enumerate(_FLOW)}
MAY_IMPORT.update({
    "starter": {"common", "sources", "assets", "deck"},  # `cardkit new`: a deck and schemas
    "rules": {"common", "sources"},  # sources: the rules' example files are YAML
    "toolkit": {"rules"},  # what a game is, and what a designer's game is built on
    "games": {"common", "rules", "toolkit"},
    # sources: a designer's rules examples are YAML, read as the rules' own are
    "playtest": {"common", "rules", "toolkit", "games", "sources"},
    "studio": set(_FLOW),  # `cardkit serve`: the pipeline's drawing, live in a browser
    "cli": set(MAY_IMPORT) | {"starter", "rules", "toolkit", "games", "playtest", "pipeline",
                              "studio"},
    "__main__": {"cli", "common"},
})
# rules, games and playtests never draw: no drawing, PDF or image library
NOT_DRAWING = {"reportlab", "PIL", "svglib", "pypdfium2", "pypdf"}
MAY_NOT_USE = {"rules": NOT_DRAWING, "toolkit": NOT_DRAWING, "games": NOT_DRAWING,
               "playtest": NOT_DRAWING}
# only the sources fetch from the network (a sheet's link, under their safety rules)
NETWORK_CLIENTS = {"httpx", "httpcore", "urllib3", "requests", "http.client"}
for _stage in set(MAY_IMPORT) - {"sources"}:
    MAY_NOT_USE[_stage] = MAY_NOT_USE.get(_stage, set()) | NETWORK_CLIENTS
# not cardkit's code: the starter deck's rules.py, copied into a designer's deck
NOT_CODE = ("starter/template",)


def stage_of(module: str) -> str | None:
    """``cardkit.deck.loader`` -> ``deck``; None for the ``cardkit`` package itself."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else None


def imports(file: Path, root: Path) -> list[tuple[int, str, tuple[str, ...]]]:
    """(line, absolute module, names it takes) of every import in ``file``, a module of the
    package whose folder is ``root``: ``from X import a, b`` gives (line, X, (a, b)),
    ``import X`` gives (line, X, ())."""
    relative = file.relative_to(root.parent).with_suffix("")
    parts = list(relative.parts)
    package = parts[:-1]  # for __init__, the package itself: relative.parts ends in __init__
    found = []
    for node in ast.walk(ast.parse(file.read_text(encoding="utf-8"), str(file))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name, ()) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[:len(package) - node.level + 1]
                name = ".".join(base + ([node.module] if node.module else []))
            else:
                name = node.module
            found.append((node.lineno, name, tuple(alias.name for alias in node.names)))
    return found


def imported(file: Path, root: Path) -> list[tuple[int, str]]:
    """(line, absolute module) of every import in ``file``; ``from X import name`` counts
    as X."""
    return [(line, module) for line, module, _ in imports(file, root)]


def against_the_flow(root: Path) -> list[str]:
    """``file:line: stage imports module`` for each import that runs against the flow."""
    wrong = []
    for file in sorted(root.rglob("*.py")):
        if str(file.relative_to(root)).startswith(NOT_CODE):
            continue
        parts = file.relative_to(root).parts
        stage = parts[0] if len(parts) > 1 else file.stem
        if stage == "__init__":
            continue  # the package's own docstring and version
        for line, module in imported(file, root):
            top = module.split(".")[0]
            if top == root.name:
                other = stage_of(module)
                if other is not None and other != stage and other not in MAY_IMPORT[stage]:
                    wrong.append(f"{file.relative_to(root)}:{line}: {stage} imports {module}")
            elif top in MAY_NOT_USE.get(stage, ()) or module in MAY_NOT_USE.get(stage, ()):
                wrong.append(f"{file.relative_to(root)}:{line}: {stage} imports {module}")
    return wrong


def test_no_import_runs_against_the_flow():
    assert against_the_flow(PACKAGE) == []


def test_the_test_finds_a_deliberate_back_import(tmp_path):
    """A source reading the pipeline, rendering asking the rules (late, in a function),
    a game drawing with reportlab and the pipeline fetching with httpx are each found,
    with file and line."""
    copy = tmp_path / "cardkit"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__", "*.ttf"))
    files = copy / "sources" / "files.py"
    files.write_text(files.read_text() + "\nfrom ..pipeline.build import build_deck\n")
    paint = copy / "render" / "paint.py"
    paint.write_text(paint.read_text() + "\n\ndef peek():\n    from ..rules import poker\n")
    game = copy / "games" / "blofa.py"
    game.write_text(game.read_text() + "\nimport reportlab.pdfgen.canvas\n")
    watch = copy / "pipeline" / "watch.py"
    watch.write_text(watch.read_text() + "\n\ndef fetch():\n    import httpx\n")
    wrong = against_the_flow(copy)
    assert len(wrong) == 4, wrong
    lines = {path: len(path.read_text().splitlines())
             for path in (files, paint, game, watch)}
    assert wrong == [
        f"games/blofa.py:{lines[game]}: games imports reportlab.pdfgen.canvas",
        f"pipeline/watch.py:{lines[watch]}: pipeline imports httpx",
        f"render/paint.py:{lines[paint]}: render imports cardkit.rules",
        f"sources/files.py:{lines[files]}: sources imports cardkit.pipeline.build"]


def module_files(root: Path) -> dict[str, Path]:
    """Each module of the package whose folder is ``root``, by its dotted name (a package
    by its own: ``cardkit.deck`` is ``deck/__init__.py``) -> its file."""
    found = {}
    for file in sorted(root.rglob("*.py")):
        if str(file.relative_to(root)).startswith(NOT_CODE):
            continue
        parts = list(file.relative_to(root.parent).with_suffix("").parts)
        found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = file
    return found


def import_graph(root: Path) -> dict[str, dict[str, list[int]]]:
    """module -> {each module of the package it imports: the lines}. ``from X import y``
    imports the module X.y when there is one (``from . import build``), else X."""
    files = module_files(root)
    graph = {}
    for module, file in files.items():
        graph[module] = edges = {}
        for line, name, names in imports(file, root):
            for target in [f"{name}.{n}" for n in names if f"{name}.{n}" in files] or [name]:
                if target in files and target != module:
                    edges.setdefault(target, []).append(line)
    return graph


def import_circles(root: Path) -> list[str]:
    """One text for each import circle among the package's modules: the modules that
    import one another, each import that closes the circle with its file and line."""
    graph = import_graph(root)
    files = module_files(root)

    def reachable(start: str) -> set[str]:
        seen, todo = set(), list(graph[start])
        while todo:
            module = todo.pop()
            if module not in seen:
                seen.add(module)
                todo.extend(graph[module])
        return seen

    reach = {module: reachable(module) for module in graph}
    circles, placed = [], set()
    for module in sorted(graph):
        circle = sorted(other for other in reach[module] if module in reach[other])
        if not circle or module in placed:
            continue
        placed.update(circle)
        closing = sorted((files[a].relative_to(root), line, b) for a in circle
                         for b, found in graph[a].items() if b in circle for line in found)
        circles.append(f"import circle of {', '.join(circle)}:\n" + "\n".join(
            f"  {file}:{line}: imports {b}" for file, line, b in closing))
    return circles


def test_no_modules_import_one_another():
    """Issue 60: inside a stage too, imports run one way, so that a reader can take the
    modules one at a time from the bottom (docs/developers.md draws the flow). Where two
    modules need each other, what they share is a module of its own below both."""
    circles = import_circles(PACKAGE)
    assert not circles, "\n".join(circles)


def test_the_test_finds_a_deliberate_circle(tmp_path):
    """The deck model naming the card selection under TYPE_CHECKING, which reads the model,
    is found; so is a circle of three modules closed by a late import in a function."""
    copy = tmp_path / "cardkit"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__", "*.ttf"))
    model, selection = copy / "deck" / "model.py", copy / "deck" / "selection.py"
    model.write_text(model.read_text() + "\nif TYPE_CHECKING:\n    from .selection import x\n")
    atomic, cache = copy / "common" / "atomic.py", copy / "common" / "cache.py"
    units = copy / "common" / "units.py"
    atomic.write_text(atomic.read_text() + "\nfrom . import cache\n")
    cache.write_text(cache.read_text() + "\nfrom .units import MM\n")
    units.write_text(units.read_text() + "\n\ndef late():\n    from .atomic import x\n")
    selection_imports = [f"  deck/selection.py:{line}: imports cardkit.deck.model"
                         for line, name, _ in imports(selection, copy)
                         if name == "cardkit.deck.model"]
    assert selection_imports, "the selection no longer reads the model: pick two others"
    lines = {path: len(path.read_text().splitlines()) for path in (model, atomic, cache, units)}
    assert import_circles(copy) == [
        "import circle of cardkit.common.atomic, cardkit.common.cache, cardkit.common.units:\n"
        f"  common/atomic.py:{lines[atomic]}: imports cardkit.common.cache\n"
        f"  common/cache.py:{lines[cache]}: imports cardkit.common.units\n"
        f"  common/units.py:{lines[units]}: imports cardkit.common.atomic",
        "import circle of cardkit.deck.model, cardkit.deck.selection:\n"
        f"  deck/model.py:{lines[model]}: imports cardkit.deck.selection\n"
        + "\n".join(selection_imports)]


def test_the_top_level_holds_stages_and_entry_modules_only():
    """A new package must take its place in the flow (MAY_IMPORT) to be allowed."""
    modules = sorted(p.name for p in PACKAGE.glob("*.py"))
    packages = {p.name for p in PACKAGE.iterdir() if (p / "__init__.py").is_file()}
    assert modules == ["__init__.py", "__main__.py"]
    assert packages == set(MAY_IMPORT) - {"__main__"}


@pytest.mark.parametrize("package", sorted(set(MAY_IMPORT) - {"__main__"}))
def test_each_stage_says_what_it_takes_gives_and_never_imports(package):
    doc = ast.get_docstring(ast.parse((PACKAGE / package / "__init__.py").read_text()))
    assert doc and "never" in doc, f"{package}/__init__.py: say what it must never import"


def test_a_long_module_says_why_it_is_one():
    """Past about 500 lines a module is split, or its docstring says why it is not."""
    long = {}
    for file in PACKAGE.rglob("*.py"):
        if str(file.relative_to(PACKAGE)).startswith(NOT_CODE):
            continue
        lines = len(file.read_text(encoding="utf-8").splitlines())
        doc = ast.get_docstring(ast.parse(file.read_text(encoding="utf-8"))) or ""
        if lines > 550 and "Why one module:" not in doc:
            long[str(file.relative_to(PACKAGE))] = lines
    assert long == {}


def pdfium_opened_outside_its_lock(root: Path) -> list[str]:
    """``file:line`` of each PDF opened with pypdfium2 other than by common/pdfium.py's
    open_pdf, which holds the process's one PDFium lock (PDFium is not thread-safe)."""
    found = []
    for file in sorted(root.rglob("*.py")):
        if file.relative_to(root).as_posix() == "common/pdfium.py":
            continue
        for node in ast.walk(ast.parse(file.read_text(encoding="utf-8"), str(file))):
            name = node.attr if isinstance(node, ast.Attribute) else \
                node.id if isinstance(node, ast.Name) else \
                " ".join(alias.name for alias in node.names) \
                if isinstance(node, ast.ImportFrom) else ""
            if "PdfDocument" in name or "FPDF_LoadDocument" in name or \
                    "FPDF_LoadMemDocument" in name:
                found.append(f"{file.relative_to(root)}:{node.lineno}")
    return found


def test_every_pdfium_document_is_opened_under_the_one_lock(tmp_path):
    """Issue 54: the studio's sheets, rules and components tabs drew with PDFium from
    several threads at once, and crashed."""
    assert pdfium_opened_outside_its_lock(PACKAGE) == []
    (tmp_path / "pkg" / "writers").mkdir(parents=True)
    (tmp_path / "pkg" / "writers" / "late.py").write_text(
        "def draw(path):\n    import pypdfium2\n    return pypdfium2.PdfDocument(path)\n")
    assert pdfium_opened_outside_its_lock(tmp_path / "pkg") == ["writers/late.py:3"]
