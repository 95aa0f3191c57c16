"""Whether a deck keeps to the contest its ``contest:`` names (:mod:`cardkit.deck.contest`):
one message for each rule it breaks, at the ``contest:`` line, with the fix.

Cards a sheet are what the imposition places (:func:`pnp_grid`), for the paper and bleed
asked, so a message says what the printed sheet will really hold.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from ..common.errors import InputError, Problem
from ..common.units import MM, to_mm
from ..common.words import counted
from ..deck.contest import printed_components
from ..deck.model import Deck
from ..imposition.paper import PAPER_NAMES
from ..imposition.sheets import SheetError, SheetOptions, pnp_grid

SIZE_TOLERANCE = 0.5 * MM  # a card this close to the contest's size is that size
BLEED_STEP = 0.5 * MM  # the bleeds tried when a smaller one would fit the sheet


def contest_problems(deck: Deck, options: SheetOptions | None = None, whole: bool = True,
                     rules_pages: int | None = None, sheets: bool = True) -> list[Problem]:
    """The rules of the deck's contest that ``deck`` breaks. ``options``: the sheets being
    built (their paper and bleed); None checks every paper the contest names, without
    bleed. ``whole``: the deck is all of it, so its count is the entry's (not a reprint
    of some cards). ``rules_pages``: the rulebook's pages on A4, when it was made.
    ``sheets``: whether to check the cards a sheet (see :func:`sheet_problems`)."""
    contest = deck.contest
    if contest is None:
        return []
    found = []

    def broken(what: str, asks: str, fix: str) -> None:
        found.append(_broken(contest, what, asks, fix))

    total = deck.total()
    if whole and contest.cards is not None and total != contest.cards:
        more = total - contest.cards
        broken(counted(total, 'card'), f"allows {contest.cards}",
               f"print {counted(abs(more), 'card')} {'fewer' if more > 0 else 'more'} (a card's "
               "'count', or its entry under 'cards:')")
    wanted = contest.size
    if wanted is not None and (abs(deck.size.width - wanted.width) > SIZE_TOLERANCE
                               or abs(deck.size.height - wanted.height) > SIZE_TOLERANCE):
        broken(f"the cards are {_mm(deck.size.width)} x {_mm(deck.size.height)} mm",
               f"asks {_mm(wanted.width)} x {_mm(wanted.height)} mm", "set 'size: "
               + (wanted.name if wanted.name != "custom" else
                  f"{{width: {_mm(wanted.width)}mm, height: {_mm(wanted.height)}mm}}") + "'")
    if sheets:
        found += sheet_problems(deck, options)
    printed = printed_components(deck)
    for kind, allowed in (("token", contest.tokens), ("board", contest.boards)):
        if kind in printed and not allowed:
            broken(f"the deck prints {counted(printed[kind], kind)} ('{kind}s:')",
                   f"allows no {kind}s", f"leave out '{kind}s:'" + (
                       ", or print them as cards" if kind == "token" else ""))
    needed = [counted(count, kind) for kind, count in printed.items()] + \
        [f"{count} {name}" for name, count in deck.components.items()]
    total_needed = sum(printed.values()) + sum(deck.components.values())
    if contest.components is not None and total_needed > contest.components:
        fixes = [f"print fewer {kind}s" for kind in printed]
        broken(f"the game needs {total_needed} components besides its cards "
               f"({', '.join(needed)})", f"allows {contest.components}", " or ".join(
                   fixes + ["list fewer under 'components:'"] * bool(deck.components)))
    if rules_pages is not None and contest.rules_pages is not None \
            and rules_pages > contest.rules_pages:
        broken(f"the rulebook takes {rules_pages} A4 pages",
               f"allows {contest.rules_pages}", "shorten rules.md")
    return found


def sheet_problems(deck: Deck, options: SheetOptions | None = None) -> list[Problem]:
    """The contest's cards a sheet, if the print-and-play sheets of ``options`` (None: of
    each paper the contest names, without bleed) hold fewer. A build with options of the
    user's own (bleed for a print shop, landscape) only warns of it: the entry is what
    ``pack`` makes."""
    contest = deck.contest
    if contest is None or contest.per_sheet is None or (options and options.sheet != "pnp"):
        return []
    sheet = _sheet_problem(deck, contest.per_sheet, contest.papers, options)
    return [_broken(contest, *sheet)] if sheet else []


def _broken(contest, what: str, asks: str, fix: str) -> Problem:
    """A rule of ``contest`` broken: '19 cards, the 18-card contest allows 18', at its line."""
    return Problem(contest.where, f"{what}, {contest.title} {asks}", fix)


def check_contest(deck_path: Path, deck: Deck, options: SheetOptions | None = None,
                  whole: bool = True, sheets: bool = True) -> None:
    """Raise InputError with the contest's rules ``deck`` breaks (see
    :func:`contest_problems`); the rulebook is counted when the contest limits its pages."""
    contest = deck.contest
    if contest is None:
        return
    from ..sources.rulebook import rules_path  # late: most decks enter no contest

    pages = None
    if whole and contest.rules_pages is not None and rules_path(deck_path).is_file():
        from .rulebook import make_rulebook  # late: only a contest that counts rules pages

        with tempfile.TemporaryDirectory() as scratch:
            pages = make_rulebook(deck_path, Path(scratch), ("a4",)).pages
    problems = contest_problems(deck, options, whole, pages, sheets)
    if problems:
        raise InputError(problems)


def holds(deck: Deck, paper: str, bleed: float, orientation: str = "auto") -> int:
    """How many cards of the deck a print-and-play sheet of ``paper`` holds with
    ``bleed``, as the sheets are planned."""
    try:
        return pnp_grid(deck.size.width, deck.size.height,
                        SheetOptions(paper=paper, bleed=bleed, orientation=orientation)).per_page
    except SheetError:  # not one fits
        return 0


def _sheet_problem(deck: Deck, per_sheet: int, papers, options: SheetOptions | None):
    """(what, what the contest asks, fix) when a sheet of a paper asked holds fewer than
    ``per_sheet`` cards."""
    bleed = options.bleed if options else 0.0
    turned = options.orientation if options else "auto"

    def holds_as_built(paper: str, bleed: float) -> int:
        return holds(deck, paper, bleed, turned)

    asked = [p for p in papers if options is None or p == options.paper]
    short = {p: holds_as_built(p, bleed) for p in asked}
    short = {p: n for p, n in short.items() if n < per_sheet}
    if not short:
        return None
    with_bleed = f"with {_mm(bleed)} mm bleed " if bleed else ""
    what = with_bleed + " and ".join(f"{'an' if p == 'a4' else 'a'} {PAPER_NAMES[p]} sheet "
                                     f"holds {counted(n, 'card')}" for p, n in short.items())
    fixes = []
    if bleed:
        steps = [round(i * BLEED_STEP, 6) for i in range(int(bleed // BLEED_STEP) + 1)]
        fitting = [b for b in steps if all(holds_as_built(p, b) >= per_sheet for p in short)]
        if fitting:
            fixes.append("build without bleed" if not max(fitting) else
                         f"build with at most {_mm(max(fitting))} mm bleed")
    # building one paper: another the contest takes may hold enough with this bleed
    others = [p for p in papers if p not in short and holds_as_built(p, bleed) >= per_sheet]
    if others:
        fixes.append("build on " + " or ".join(PAPER_NAMES[p] for p in others))
    return what, f"asks {per_sheet} a sheet", " or ".join(fixes) or "use smaller cards"




def _mm(points: float) -> str:
    return f"{round(to_mm(points), 2):g}"
