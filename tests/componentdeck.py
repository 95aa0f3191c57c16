"""A deck of one card with a component (a box, tokens, boards) for the tests of the
commands other than ``build`` to write in a temporary folder, with layouts of its own."""

from __future__ import annotations

from pathlib import Path

DECK = """\
name: {name}
title: {title}
version: "0.1"
size: {size}
front: {front}
backs: {{plain: {{layout: {back}}}}}
fields: {{title: text, text: {{type: text, default: ""}}}}
cards:
  - {{title: A, count: {count}}}
"""


def write_deck(folder: Path, component: str, name="tiny", title="Tiny Test", size="poker",
               count=1, layouts=None, front="reference", back="shapes-rule-back") -> Path:
    """deck.yaml in ``folder``: one card (``count`` copies) and ``component`` (YAML, from
    line 10), with ``layouts`` (name -> YAML) in its layouts/ folder."""
    (folder / "layouts").mkdir(exist_ok=True)
    for layout, text in (layouts or {}).items():
        (folder / "layouts" / f"{layout}.yaml").write_text(text)
    path = folder / "deck.yaml"
    path.write_text(DECK.format(name=name, title=title, size=size, count=count, front=front,
                                back=back) + component)
    return path
