"""Sphinx's settings for cardkit's docs site: `make docs` builds it into output/docs/, a
folder a browser opens offline from file:// (search included: Sphinx's index is a script
the page loads, no server needed). The pages stay Markdown (myst-parser); the command
reference is written from the click commands (sphinx-click) and the toolkit's API from its
docstrings (autodoc), so neither can fall behind the code."""

import re

project = "cardkit"
author = "cardkit's designers"
extensions = ["myst_parser", "sphinx_click", "sphinx.ext.autodoc"]
source_suffix = {".md": "markdown"}
exclude_patterns = ["_build"]
root_doc = "index"
myst_heading_anchors = 3  # '[limits](deck-format.md#limits)' links to a section
html_theme = "furo"
html_title = "cardkit"
html_static_path = []
html_copy_source = False  # the Markdown is in the repository; the site needs only HTML
smartquotes = False  # options keep their two hyphens: --games, not –games
highlight_language = "text"  # a block without a language is not guessed to be Python
autodoc_member_order = "bysource"
autodoc_typehints = "description"



def _examples_in_columns(app, ctx, lines):
    """A help's examples ('cardkit new my-game  a deck of your own') are aligned in two
    columns on a terminal; on a page, whose line blocks close up the spaces, the command
    is set as code and its description after a dash."""
    for index, line in enumerate(lines):
        found = re.match(r"^(\|?\s*)(cardkit \S.*?)\s{2,}(\S.*)$", line)
        if found:
            lines[index] = f"{found[1]}``{found[2]}`` — {found[3]}"


def setup(app):
    app.connect("sphinx-click-process-description", _examples_in_columns)
