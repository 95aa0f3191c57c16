"""A deck's ``rules.md``, read into blocks a rulebook is drawn from (``cardkit rulebook``).

The Markdown is parsed by markdown-it-py (CommonMark and its tables); this module only
turns its tokens into the few blocks a printed rulebook has. Inline text is written back in
the card text's own markup (``**bold**``, ``*italic*``, ``{icon}``), so a rulebook's
sentence is set exactly as a card's is. Three things are cardkit's own:

- ``![caption](card:Dragon)`` shows a card of the deck (``"back"`` as the image's title
  shows its back); several of them in one paragraph are a row of cards;
- a paragraph ``{table: name, cost, text}`` is a table of the deck's cards;
- a paragraph ``{components}`` (or ``{components: FIELD}``) lists what the deck holds.

Nothing here knows the deck: whether a card or a field exists is checked by
:mod:`cardkit.deck.rulebook`, with the lines given here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import unquote

from ..common.errors import InputError, Problem, Problems, Where
from .files import why_unreadable

RULES_FILE = "rules.md"
MAX_RULES_BYTES = 2_000_000  # a rulebook of some 300 pages
CARD_SCHEME = "card:"
LINK_SCHEMES = ("https://", "http://", "mailto:")  # the addresses a printed link keeps
_DIRECTIVE = re.compile(r"\{\s*(table|components)\s*(?::(.*))?\}", re.S)
# what a card with a space in its name looks like when it is not in angle brackets:
# CommonMark reads it as text, not as an image
_SPACED_CARD = re.compile(r'!\[([^\]]*)\]\(\s*(card:[^)<>"]*?\s[^)<>"]*?)\s*("[^"]*")?\s*\)')


@dataclass(frozen=True)
class Heading:
    level: int
    text: str
    line: int


@dataclass(frozen=True)
class Paragraph:
    text: str  # card markup: **bold**, *italic*, {icon}, line breaks as "\n"
    line: int
    links: tuple[tuple[str, str], ...] = ()  # (a link's text in card markup, its address)


@dataclass(frozen=True)
class CardShown:
    """A card named in ``![caption](card:NAME "back")``: ``name`` as written after
    ``card:``, its ``side`` (front or back) and a caption printed under it."""

    name: str
    side: str
    caption: str
    line: int


@dataclass(frozen=True)
class CardRow:
    cards: tuple[CardShown, ...]
    line: int


@dataclass(frozen=True)
class DeckTable:
    """``{table: name, cost}``: the named fields of the deck's cards."""

    fields: tuple[str, ...]
    line: int


@dataclass(frozen=True)
class Components:
    """``{components}``: the deck's cards counted by back, or by ``by`` if given."""

    by: str
    line: int


@dataclass(frozen=True)
class ListBlock:
    ordered: bool
    start: int
    items: tuple[tuple, ...]  # each item: its blocks
    line: int


@dataclass(frozen=True)
class Table:
    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    aligns: tuple[str, ...]  # left, center or right, one a column
    line: int


@dataclass(frozen=True)
class Rule:
    """A thematic break (``---``)."""

    line: int


@dataclass
class RulesText:
    path: Path
    blocks: list = field(default_factory=list)
    lines: list[str] = field(default_factory=list)  # the file's lines, for messages


def rules_path(deck_file: Path) -> Path:
    """Where a deck's rules are: ``rules.md`` beside its deck file."""
    return Path(deck_file).parent / RULES_FILE


def read_rules(path: Path) -> RulesText:
    """The blocks of the Markdown file at ``path``; raises InputError for a missing or
    unreadable file and for Markdown a rulebook cannot print (HTML, code)."""
    from markdown_it import MarkdownIt  # imported late: only this command parses Markdown

    why = why_unreadable(path, MAX_RULES_BYTES)
    if why:
        fix = ("write the deck's rules there, in Markdown (a deck made by `cardkit new` "
               "has one to start from)" if "not found" in why else
               f"make {RULES_FILE} a readable text file of under "
               f"{MAX_RULES_BYTES // 1_000_000} MB")
        raise InputError([Problem(Where(path), why, fix)])
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        line = path.read_bytes()[:exc.start].count(b"\n") + 1
        raise InputError([Problem(Where(path, line), "not UTF-8 text",
                                  "save the file as UTF-8")]) from None
    parser = MarkdownIt("commonmark").enable("table")
    rules = RulesText(path, lines=text.splitlines())
    problems = Problems()
    tokens = parser.parse(text)
    rules.blocks = _blocks(tokens, 0, len(tokens), rules, problems)[0]
    if not rules.blocks and not problems:
        problems.add(Where(path), "the file holds nothing to print",
                     "write the deck's rules in it, in Markdown")
    problems.check()
    return rules


def _blocks(tokens, i: int, end_type, rules: RulesText, problems: Problems):
    """The blocks from ``tokens[i]`` up to the token closing them (of type ``end_type``,
    or the end when it is an index); returns (blocks, the index after the closing one)."""
    blocks = []
    while i < len(tokens) and tokens[i].type != end_type:
        token = tokens[i]
        line = token.map[0] + 1 if token.map else 0
        kind = token.type
        if kind == "heading_open":
            blocks.append(Heading(int(token.tag[1]), _inline(tokens[i + 1], rules, problems),
                                  line))
            i += 3
        elif kind == "paragraph_open":
            blocks.append(_paragraph(tokens[i + 1], line, rules, problems))
            i += 3
        elif kind in ("bullet_list_open", "ordered_list_open"):
            block, i = _list(tokens, i, rules, problems)
            blocks.append(block)
        elif kind == "table_open":
            block, i = _table(tokens, i, rules, problems)
            blocks.append(block)
        elif kind == "hr":
            blocks.append(Rule(line))
            i += 1
        elif kind == "blockquote_open":  # a printed aside: its blocks, as they are
            inner, i = _blocks(tokens, i + 1, "blockquote_close", rules, problems)
            blocks.extend(inner)
        else:
            what = {"fence": "a code block", "code_block": "a code block",
                    "html_block": "HTML"}.get(kind, f"Markdown's {kind}")
            problems.add(Where(rules.path, line), f"{what} cannot be printed in a rulebook",
                         "write it as a paragraph, a list or a table")
            i = _after(tokens, i)
    return blocks, i + 1


def _after(tokens, i: int) -> int:
    """The index after the block starting at ``tokens[i]`` (nested blocks included)."""
    if tokens[i].nesting != 1:
        return i + 1
    depth = 0
    while True:
        depth += tokens[i].nesting
        i += 1
        if depth == 0:
            return i


def _list(tokens, i: int, rules, problems):
    opening = tokens[i]
    ordered = opening.type == "ordered_list_open"
    close = "ordered_list_close" if ordered else "bullet_list_close"
    start = int(opening.attrs.get("start", 1)) if ordered else 1
    items = []
    i += 1
    while tokens[i].type != close:  # list_item_open
        blocks, i = _blocks(tokens, i + 1, "list_item_close", rules, problems)
        items.append(tuple(blocks))
    return ListBlock(ordered, start, tuple(items), opening.map[0] + 1), i + 1


def _table(tokens, i: int, rules, problems):
    line = tokens[i].map[0] + 1
    rows, aligns, row = [], [], None
    i += 1
    while tokens[i].type != "table_close":
        token = tokens[i]
        if token.type == "tr_open":
            row = []
        elif token.type in ("th_open", "td_open"):
            if not rows:
                style = str(token.attrs.get("style", ""))
                aligns.append(style.rpartition(":")[2] or "left")
            row.append(_inline(tokens[i + 1], rules, problems))
            i += 2
        elif token.type == "tr_close":
            rows.append(tuple(row))
        i += 1
    return Table(rows[0], tuple(rows[1:]), tuple(aligns), line), i + 1


def _paragraph(inline, line: int, rules: RulesText, problems: Problems):
    raw = inline.content.strip()
    directive = _DIRECTIVE.fullmatch(raw)
    if directive:
        kind, args = directive.group(1), (directive.group(2) or "")
        names = tuple(a.strip() for a in args.split(",") if a.strip())
        if kind == "table":
            if not names:
                problems.add(Where(rules.path, line), "'{table}' names no fields",
                             "list the fields to show, e.g. '{table: name, cost, text}'")
            return DeckTable(names, line)
        if len(names) > 1:
            problems.add(Where(rules.path, line), "'{components}' counts the cards by one "
                         "field at most", "write '{components}' (by back) or "
                         f"'{{components: {names[0]}}}'")
        return Components(names[0] if names else "back", line)
    children = inline.children or []
    images = [c for c in children if c.type == "image"]
    if images and all(c.type == "image" or (c.type in ("text", "softbreak")
                                             and not c.content.strip()) for c in children):
        return CardRow(tuple(_card(image, line, rules, problems) for image in images), line)
    links: list = []
    return Paragraph(_inline(inline, rules, problems, links), line, tuple(links))


def _card(image, line: int, rules: RulesText, problems: Problems) -> CardShown:
    source = str(image.attrs.get("src", ""))
    line = line_of(rules, line, source)
    if not source.startswith(CARD_SCHEME):
        problems.add(Where(rules.path, line), f"image '{source}' is not a card of the deck",
                     "show a card by its name, '![](card:NAME)'; a picture belongs on a card")
    title = str(image.attrs.get("title", "") or "").strip().lower()
    if title not in ("", "front", "back"):
        problems.add(Where(rules.path, line), f"'{title}' is not a side of a card",
                     'write "back" after the card\'s name to show its back, or nothing')
    caption = "".join(child.content for child in image.children or [])
    return CardShown(unquote(source[len(CARD_SCHEME):]).strip(), title or "front",
                     caption, line)


def line_of(rules: RulesText, first: int, text: str) -> int:
    """The line, from ``first`` on, whose text holds ``text`` (``first`` if none does):
    markdown-it gives the lines of blocks, not of what is in them."""
    for number in range(first, len(rules.lines) + 1):
        if text and text in rules.lines[number - 1]:
            return number
    return first


def _inline(inline, rules: RulesText, problems: Problems, links: list | None = None) -> str:
    """An inline token's content in card text markup; each link to a web or mail address
    added to ``links`` as (its text, the address), when given."""
    line = inline.map[0] + 1 if inline.map else 0
    parts = []
    spaced = [found for child in inline.children or [] if child.type == "text"
              for found in _SPACED_CARD.finditer(child.content)]
    for found in spaced:
        caption, source, title = found.groups()
        title = f" {title}" if title else ""
        problems.add(Where(rules.path, line_of(rules, line, found.group(0))),
                     f"'{found.group(0)}' is not read as a card: a name with a space ends the "
                     "link at the space", "put the card's name in angle brackets: "
                     f"'![{caption}](<{source.strip()}>{title})'")
    link = None  # (where its text starts in parts, its address)
    for child in inline.children or []:
        kind = child.type
        if kind == "link_open":
            address = str(child.attrs.get("href", ""))
            link = (len(parts), address) if address.startswith(LINK_SCHEMES) else None
        elif kind == "link_close" and link is not None and links is not None:
            links.append(("".join(parts[link[0]:]).strip(), link[1]))
            link = None
        if kind in ("text", "code_inline"):
            text = child.content
            if "*" in text:  # a literal one: the card text's markup has no escape for it
                problems.add(Where(rules.path, line_of(rules, line, "*")), "a literal '*' "
                             "cannot be printed: card text (and so a rulebook's) reads every "
                             "'*' as markup", "reword it, or write '×' for times")
            # code shows what it holds: braces in it are braces, not icons
            parts.append(text.replace("{", "{{").replace("}", "}}")
                         if kind == "code_inline" else text)
        elif kind == "softbreak":
            parts.append(" ")
        elif kind == "hardbreak":
            parts.append("\n")
        elif kind in ("strong_open", "strong_close"):
            parts.append("**")
        elif kind in ("em_open", "em_close"):
            parts.append("*")
        elif kind == "image" and not spaced:  # a row of cards, one of them not read
            problems.add(Where(rules.path, line_of(rules, line, child.attrs.get("src", ""))),
                         "a card shown amid text", "give the card (or a row of cards) a "
                         "paragraph of its own: an empty line before and after it")
        elif kind == "html_inline":
            problems.add(Where(rules.path, line_of(rules, line, child.content)),
                         f"HTML ({child.content}) cannot be printed in a rulebook",
                         "use **bold** and *italic*, or write literal < as &lt;")
        # a link's text is printed; its address is a link annotation over it (render)
    return "".join(parts).strip()
