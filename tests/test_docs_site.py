"""The docs site (issue 48): `make docs` builds it with no warning, every command's --help
names the page (and section) that explains it, and in headless Chromium, opened from
file:// as a designer opens it offline, the index and every page have no broken link and
search finds 'bleed'. The site is built once, in-process, with the options `make docs`
gives Sphinx."""

from __future__ import annotations

import fcntl
import re
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
from click.testing import CliRunner
from markdown_it import MarkdownIt

from cardkit.cli import DOCS, main
from conftest import PATIENCE

# Sphinx 9 warns that sphinx-click and myst-parser use its older API: theirs to change
pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning",
                                        "ignore::PendingDeprecationWarning")

ROOT = Path(__file__).resolve().parent.parent
DOCS_FOLDER = ROOT / "docs"
EPILOG = re.compile(r"Docs: docs/([\w-]+)\.md(#[\w-]+)? \(after 'make docs': "
                    r"output/docs/\1\.html\2?\)")


def slug(heading: str) -> str:
    """A heading's anchor as myst-parser makes it (GitHub's way): lower case, punctuation
    dropped, spaces to hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def headings(page: Path) -> set[str]:
    """The anchors of a page's headings down to ###, as markdown-it reads the page."""
    tokens = MarkdownIt("commonmark").parse(page.read_text(encoding="utf-8"))
    return {slug(tokens[at + 1].content) for at, token in enumerate(tokens)
            if token.type == "heading_open" and token.tag in ("h1", "h2", "h3")}


@pytest.mark.parametrize("command", main.list_commands(None))
def test_each_command_s_help_ends_with_its_docs_page(command):
    help_text = CliRunner().invoke(main, [command, "--help"], terminal_width=400).output
    found = EPILOG.search(help_text)
    assert found, help_text
    page = DOCS_FOLDER / f"{found.group(1)}.md"
    assert page.is_file(), page
    if found.group(2):
        assert found.group(2)[1:] in headings(page), (found.group(2), sorted(headings(page)))
    assert help_text.rstrip().endswith(found.group(0))


def test_cardkit_help_names_the_docs():
    help_text = CliRunner().invoke(main, ["--help"], terminal_width=400).output
    assert help_text.rstrip().endswith("Docs: docs/index.md, or after 'make docs' "
                                       "output/docs/index.html (with search)")
    assert set(DOCS) == set(main.list_commands(None))


@pytest.fixture(scope="module")
def site(tmp_path_factory, worker_id) -> Path:
    """The site as `make docs` builds it (warnings are errors), into a temporary folder:
    once a run, also when two of make test's workers ask for it (they share the folder
    above their own, and the first to take the lock builds)."""
    from sphinx.cmd.build import build_main

    base = tmp_path_factory.getbasetemp()
    out = (base if worker_id == "master" else base.parent) / "docs-site"
    out.mkdir(exist_ok=True)
    with (out / "lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (out / "built").exists():
            code = build_main(["-q", "-W", "--keep-going", "-b", "html", "-d",
                               str(out / "doctrees"), str(DOCS_FOLDER), str(out / "html")])
            assert code == 0, "sphinx-build reported warnings (above)"
            (out / "built").touch()
    return out / "html"


def test_the_site_has_a_page_for_each_docs_file_and_the_generated_reference(site):
    pages = {path.stem for path in DOCS_FOLDER.glob("*.md")}
    assert pages <= {path.stem for path in site.glob("*.html")}
    commands = (site / "reference-commands.html").read_text(encoding="utf-8")
    for command in main.list_commands(None):  # sphinx-click: a section, every option of each
        assert f'id="cardkit-{command}"' in commands, command
    assert "--back-offset" in commands and "--games" in commands
    api = (site / "reference-toolkit.html").read_text(encoding="utf-8")
    assert 'id="cardkit.toolkit.CardGame"' in api and 'id="cardkit.toolkit.Pile"' in api
    for page in ("print-at-home", "studio", "start"):  # the pictures are there
        for picture in re.findall(r'<img [^>]*src="([^"]+)"',
                                  (site / f"{page}.html").read_text(encoding="utf-8")):
            assert (site / unquote(picture)).is_file(), (page, picture)


def test_the_site_opened_from_file_has_no_broken_link_and_search_finds_bleed(site,
                                                                             browser_page):
    page = browser_page
    page.goto((site / "index.html").as_uri())
    pages = sorted({unquote(urlsplit(href).path) for href in page.eval_on_selector_all(
        "a[href]", "links => links.map(a => a.href)") if href.startswith("file://")})
    sections = [Path(path) for path in pages if path.endswith(".html")]
    assert {path.stem for path in sections} >= {"start", "print-at-home", "print-services",
                                                 "deck-format", "layouts-and-text", "studio",
                                                 "playtest-rounds", "rules-and-simulation",
                                                 "own-game", "reference-commands",
                                                 "reference-toolkit"}
    ids: dict[Path, set[str]] = {}
    links: list[tuple[Path, str]] = []
    for section in [site / "index.html", *sections]:
        page.goto(section.as_uri())
        ids[section] = set(page.eval_on_selector_all("[id]", "nodes => nodes.map(n => n.id)"))
        links += [(section, href) for href in page.eval_on_selector_all(
            "a[href]", "links => links.map(a => a.href)") if href.startswith("file://")]
    broken = []
    for source, href in links:
        parts = urlsplit(href)
        target = Path(unquote(parts.path))
        if not target.exists():
            broken.append((source.name, href))
        elif parts.fragment and target.suffix == ".html":
            if target not in ids:
                page.goto(target.as_uri())
                ids[target] = set(page.eval_on_selector_all("[id]",
                                                            "nodes => nodes.map(n => n.id)"))
            if unquote(parts.fragment) not in ids[target]:
                broken.append((source.name, href))
    assert len(links) > 200 and not broken, broken
    for command, where in DOCS.items():  # the sections each --help names
        name, _, anchor = where.partition("#")
        assert not anchor or anchor in ids[site / f"{name}.html"], (command, where)

    page.goto((site / "search.html").as_uri() + "?q=bleed")
    page.wait_for_function("() => document.querySelector('#search-results .search-summary')"
                           "?.textContent.startsWith('Search finished')",
                           polling=50, timeout=PATIENCE * 1000)
    found = page.eval_on_selector_all("#search-results li a", "links => links.map(a => a.href)")
    assert any("print-at-home.html" in href for href in found), found
