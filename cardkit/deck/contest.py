"""Contest profiles: what a design contest asks of an entry, which ``contest:`` in a deck
names (``contest: bgg-18-card``) or writes out as a mapping of its own, read into the
deck model's :class:`~cardkit.deck.model.Contest`.

Only what the deck file says is read here; whether the deck keeps to it is checked where
the sheets are planned (:mod:`cardkit.pipeline.contest`), because cards a sheet come from
the imposition itself, not from a table.
"""

from __future__ import annotations

from ..common.errors import Problems, did_you_mean
from ..sources import checks
from ..sources.yamlfile import Map
from .model import PAPER_CHOICES, CardSize, Contest

# BoardGameGeek's recurring print-and-play contests, as their threads state them (see
# docs/print-services.md, "Contest profiles", for the sources): poker cards, both sides
# usable, 9 a sheet. The 9-card contest's 24 components count printed tokens and boards
# with the others; none of the three forbids tokens or boards outright.
_POKER = CardSize.preset("poker")
PROFILES = {
    "bgg-9-card": dict(title="the 9-card contest", cards=9, size=_POKER, per_sheet=9,
                       components=24, tokens=True, boards=True),
    "bgg-18-card": dict(title="the 18-card contest", cards=18, size=_POKER, per_sheet=9,
                        tokens=True, boards=True),
    "bgg-54-card": dict(title="the 54-card contest", cards=54, size=_POKER, per_sheet=9,
                        tokens=True, boards=True),
}
CONTEST_KEYS = ("name", "cards", "size", "per_sheet", "papers", "rules_pages", "components",
                "tokens", "boards")


def read_contest(data: Map, problems: Problems, read_size) -> Contest | None:
    """The contest the deck's ``contest:`` names or describes; None without one (or when
    it is wrong, reported to ``problems``). ``read_size(raw, where)`` reads a card size as
    the deck's ``size:`` is read."""
    if "contest" not in data:
        return None
    raw, where = data["contest"], data.at("contest")
    if isinstance(raw, str):
        if raw in PROFILES:
            return Contest(raw, where=where, **PROFILES[raw])
        problems.add(where, f"no contest profile {checks.quoted(raw)}",
                     did_you_mean(raw, PROFILES)
                     + " (or describe the contest: 'contest: {cards: 18, per_sheet: 9}')")
        return None
    if not checks.expect_map(problems, raw, where, "contest"):
        return None
    if not checks.check_keys(problems, raw, CONTEST_KEYS, (), "contest"):
        return None
    before = len(problems.items)
    name = checks.get_text(problems, raw, "name", "the deck's contest")
    counts = {key: checks.get_int(problems, raw, key, minimum=minimum)
              for key, minimum in (("cards", 1), ("per_sheet", 1), ("rules_pages", 1),
                                   ("components", 0))}
    allowed = {key: checks.get_bool(problems, raw, key, True) for key in ("tokens", "boards")}
    size = read_size(raw["size"], raw.at("size")) if "size" in raw else None
    papers = raw.get("papers", list(PAPER_CHOICES))
    if isinstance(papers, str):
        papers = [papers]
    if not isinstance(papers, list) or not papers or \
            not all(checks.one_of(p, PAPER_CHOICES) for p in papers):
        problems.add(raw.at("papers"), f"contest papers must be a list of "
                     f"{' and '.join(PAPER_CHOICES)}, not {checks.describe(papers)}",
                     "write e.g. 'papers: [a4, letter]'")
    if len(problems.items) > before:
        return None
    return Contest(name, f"the contest ({name})" if "name" in raw else "the contest", where,
                   size=size, papers=tuple(dict.fromkeys(papers)), **counts, **allowed)


def read_components(data: Map, problems: Problems) -> dict[str, int]:
    """``components:``, what the game needs besides its cards: name -> how many."""
    raw = data.get("components")
    if raw is None or not checks.expect_map(problems, raw, data.at("components"),
                                           "components"):
        return {}
    result = {}
    for name in raw:
        count = checks.get_int(problems, raw, name, minimum=1, what=f"components: {name}")
        if count is not None:
            result[str(name)] = count
    return result


def printed_components(deck) -> dict[str, int]:
    """The tokens and boards the deck prints, as a contest counts them: 'token' -> every
    copy, 'board' -> how many, those it has. Read leniently (an entry's mistakes are the
    token and board readers' to say): a token without a whole ``count`` counts once."""
    def copies(entry) -> int:
        count = entry.get("count", 1) if isinstance(entry, dict) else 1
        return count if isinstance(count, int) and not isinstance(count, bool) \
            and count > 0 else 1

    found = {"token": sum(copies(entry) for entry in deck.tokens)
             if isinstance(deck.tokens, list) else 0,
             "board": len(deck.boards) if isinstance(deck.boards, list) else 0}
    return {kind: count for kind, count in found.items() if count}
