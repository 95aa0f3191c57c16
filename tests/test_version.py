"""`cardkit --version` names the version CHANGELOG.md describes: the latest released heading
(``## [0.1.0]``, not ``## [Unreleased]``) is the package's ``__version__``, which the command
and pyproject.toml both read, so there is one place to change it."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from click.testing import CliRunner

import cardkit
from cardkit.cli import main

ROOT = Path(__file__).resolve().parents[1]


def latest_release(changelog: str) -> str:
    """The version of the first ``## [X]`` heading other than Unreleased (Keep a
    Changelog's order: newest first)."""
    versions = re.findall(r"^## \[([^\]]+)\]", changelog, re.MULTILINE)
    released = [version for version in versions if version.lower() != "unreleased"]
    assert released, "CHANGELOG.md has no released version's heading"
    return released[0]


def version_output() -> str:
    result = CliRunner().invoke(main, ["--version"], prog_name="cardkit")
    assert result.exit_code == 0, result.output
    return result.output


def test_the_version_is_the_changelogs_latest_release():
    release = latest_release((ROOT / "CHANGELOG.md").read_text(encoding="utf-8"))
    assert version_output() == f"cardkit, version {release}\n"


def test_the_changelogs_latest_release_is_read_below_unreleased():
    changelog = "# Changelog\n\n## [Unreleased]\n\n- x\n\n## [1.2.0] - 2026-01-02\n\n## [1.1.0]\n"
    assert latest_release(changelog) == "1.2.0"


def test_the_command_and_pyproject_read_the_version_from_the_package():
    """One place holds the version: pyproject.toml has none of its own (it reads
    cardkit.__version__ when installing), and --version prints cardkit.__version__."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "version" not in project["project"], "pyproject.toml writes a second version"
    assert "version" in project["project"]["dynamic"]
    assert project["tool"]["setuptools"]["dynamic"]["version"] == {
        "attr": "cardkit.__version__"}
    assert version_output() == f"cardkit, version {cardkit.__version__}\n"
