"""Deck and its ``rules.md`` -> checked rulebook -> a PDF on each paper size, as one call
the ``rulebook`` command (and whatever packs a deck's files) shares."""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

from ..assets.fonts import shown
from ..common.atomic import atomic_path, output_root
from ..common.errors import Problem, Where
from ..common.units import INCH, MM
from ..deck.model import Deck
from ..deck.rulebook import resolve_rules
from ..imposition.paper import DEFAULT_PAPERS, PAPERS
from ..render.card import Report
from ..render.rulebook import deck_look, missing_glyphs
from ..sources.rulebook import read_rules, rules_path
from ..writers.rulebook_pdf import write_rulebook_pdf
from .chosen import check_cards, load_chosen, verdict

# smaller pages, on request: a booklet's A5, the 18-card contest's one 3.5 x 5 in sheet,
# and pages of the deck's own card size (rules printed as cards)
SMALL_PAGES = {"a5": (148 * MM, 210 * MM), "index": (3.5 * INCH, 5 * INCH)}
PAGE_CHOICES = (*DEFAULT_PAPERS, *SMALL_PAGES, "card")


def page_size(paper: str, deck: Deck) -> tuple[float, float]:
    """The size in points of a rulebook page called ``paper`` (one of PAGE_CHOICES)."""
    if paper == "card":
        return deck.size.width, deck.size.height
    return SMALL_PAGES.get(paper) or PAPERS[paper]


@dataclass(frozen=True)
class RulebookResult:
    deck: Deck
    paths: tuple[Path, ...]  # one a paper size, in the order asked
    pages: int  # on the first paper size
    seconds: float
    warnings: tuple[Problem, ...]


def rulebook_name(deck: Deck, paper: str) -> str:
    """``blofa-rules-a4.pdf``; a variant is named as the sheets name it."""
    return "-".join([deck.name] + ([deck.variant] if deck.variant else [])
                    + ["rules", paper]) + ".pdf"


def make_rulebook(deck_path: Path, out_dir: Path, papers=DEFAULT_PAPERS,
                  strict: bool = False, variant: dict | None = None,
                  only_declared: bool = False) -> RulebookResult:
    """Write the rulebook of the deck at ``deck_path``, from the ``rules.md`` beside it,
    into ``out_dir``/DECK/ on each of ``papers``. The cards it shows are drawn as they
    print, and checked as a build checks them; bad input raises InputError naming the
    line of ``rules.md``. Each file is written atomically."""
    started = time.perf_counter()
    deck = load_chosen(deck_path, variant, only_declared)
    rulebook = resolve_rules(read_rules(rules_path(deck_path)), deck)
    renderer, report = check_cards(deck, strict)
    look = deck_look(deck, renderer)
    glyphs = [Problem(Where(rulebook.path, line), f"font {shown(face)} has no glyph for "
                      f"{chars!r}", "use other characters, or put a font that has them in "
                      "the deck's fonts/ folder (the rules are set in the font of the cards' "
                      "longest text)")
              for line, face, chars in missing_glyphs(rulebook, look)]
    verdict(Report(glyphs), strict)
    warnings = report.warnings + glyphs
    paths, pages = [], []
    for paper in papers:
        path = Path(out_dir) / deck.name / rulebook_name(deck, paper)
        with atomic_path(path, under=output_root(out_dir, deck.path)) as temporary:
            pages.append(write_rulebook_pdf(temporary, rulebook, page_size(paper, deck),
                                            renderer, look))
        paths.append(path)
    return RulebookResult(deck, tuple(paths), pages[0] if pages else 0,
                          time.perf_counter() - started, tuple(warnings))
