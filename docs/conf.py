"""Sphinx's settings for cardkit's docs site: `make docs` builds it into output/docs/, a
folder a browser opens offline from file:// (search included: Sphinx's index is a script
the page loads, no server needed). The pages stay Markdown (myst-parser); the command
reference is written from the click commands (sphinx-click) and the toolkit's API from its
docstrings (autodoc), so neither can fall behind the code."""

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
autodoc_member_order = "bysource"
autodoc_typehints = "description"

