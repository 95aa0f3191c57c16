"""Did my change help? Two decks played with the same seeds and bots, and what differs
between them beyond what chance explains.

Game ``i`` of A and game ``i`` of B start from the same seed: they are a pair, and each
figure's change has a 95% interval from the pairs' differences, so that what a pair
shares (the deal, the bots' chances) cancels out. A copy of A plays the very same games:
every difference is 0, and so is the interval's width. A change that keeps the deals (a
card's value, one card swapped for another of its colour) is found with fewer games than
two separate runs would need. Decks that deal differently (another number of cards: the
same seed shuffles them to other deals) play pairs hardly more alike than two separate
runs' games, and their intervals are about as wide as those runs' would be: still
honest. :func:`pairing` says which case a comparison is.

A mean (the length, a figure, how often nobody wins) changes by the mean of the games'
differences, with a normal interval from their variance. A seat's share is a ratio (its
wins over the games someone won, alone over all games); the variance of the two ratios'
difference comes from the delta method: each game's influence on its deck's ratio,
``(w - R·d) / mean(d)``, differenced within each pair. A run keeps sums, never games.

A difference whose interval leaves out 0 is one chance is unlikely to explain (at 95%,
one in twenty unchanged figures still looks changed); the verdict sentence tests every
figure together (Holm), so that it names one, when nothing changed, in at most one
comparison in twenty.
"""

from __future__ import annotations

import math
import statistics
from operator import mul, sub
from statistics import NormalDist

from .game_loop import Result
from .stats import Z95, holm
from .tally import is_number

# intervals below this share of two separate runs' width: the decks deal the same games
# (different deals measure about 0.9: the bots' own chances are still shared by seed)
NARROWER = 0.8
_PRODUCTS = [(j, k) for j in range(4) for k in range(j, 4)]


class PairedSums:
    """One figure over the pairs, as sums: a pair gives A's ``x`` and ``y`` and B's, the
    figure being ``x`` over ``y`` (``y`` is 1 in every game for a mean). Kept are the
    sums of ``u = (x_a, y_a, x_b - x_a, y_b - y_a)`` and of its products: B's as
    differences from A's, which are exactly 0 in a game played alike, so that a copy's
    interval comes out exactly 0 wide, not a rounding error wide."""

    def __init__(self):
        self.sums = [0.0] * 4
        self.products = [0.0] * len(_PRODUCTS)  # sum of u_j·u_k for j <= k

    def add(self, x_a: list, y_a: list, x_b: list, y_b: list) -> None:
        """Add a chunk of pairs: each argument holds one value a pair."""
        u = (x_a, y_a, list(map(sub, x_b, x_a)), list(map(sub, y_b, y_a)))
        self.sums = [total + sum(column) for total, column in zip(self.sums, u)]
        self.products = [total + sum(map(mul, u[j], u[k]))
                         for total, (j, k) in zip(self.products, _PRODUCTS)]

    def ratios(self) -> tuple[float, float]:
        """A's ratio and B's (0 where its ``y`` sums to 0)."""
        x_a, y_a, dx, dy = self.sums
        return (x_a / y_a if y_a else 0.0), ((x_a + dx) / (y_a + dy) if y_a + dy else 0.0)

    def errors(self, pairs: int) -> tuple[float, float] | None:
        """The standard error of B's ratio less A's: paired, and as if the two decks' games
        were two separate runs (their pairing ignored). None with fewer than two pairs or a
        deck whose ``y`` sums to 0: no interval can be had."""
        x_a, y_a, dx, dy = self.sums
        if pairs < 2 or not y_a or not y_a + dy:
            return None
        r_a, r_b = self.ratios()
        # a game's influence on a ratio R = sum(x)/sum(y): (x - R·y) / mean(y), as u's terms
        a = (pairs / y_a, -r_a * pairs / y_a)
        b = (pairs / (y_a + dy), -r_b * pairs / (y_a + dy))
        paired = self._square((b[0] - a[0], b[1] - a[1], b[0], b[1]))
        apart = self._square((*a, 0.0, 0.0)) + self._square((*b, *b))
        scale = 1 / (pairs * (pairs - 1))  # each influence has mean 0: its sum of squares
        return math.sqrt(max(0.0, paired) * scale), math.sqrt(max(0.0, apart) * scale)

    def _square(self, c) -> float:
        """The sum over the pairs of (c · u)², from the sums of products."""
        return sum(total * c[j] * c[k] * (1 if j == k else 2)
                   for total, (j, k) in zip(self.products, _PRODUCTS))


class Pairs:
    """A comparison's games paired by index (the same seed), added up as they come: each
    row's :class:`PairedSums` and how many pairs played out the same. :meth:`add` A's and
    B's chunk of the same games (``runner.in_step`` hands them over together)."""

    def __init__(self, players: int):
        self.players = players
        self.games = self.alike = 0
        self.rows: dict[tuple, PairedSums] = {}  # ("seat", s), ("nobody",), ("length",),
        # ("figure", name): a figure's sums begin where it first comes up, as the games
        # before add nothing to them (0 in both decks)

    def add(self, chunk_a: list[Result], chunk_b: list[Result]) -> None:
        """Add A's and B's chunk of the same games (game i of each, in the same place)."""
        self.games += len(chunk_a)
        self.alike += sum(_played(a) == _played(b)
                          for a, b in zip(chunk_a, chunk_b, strict=True))
        ones = [1.0] * len(chunk_a)
        if self.players == 1:  # a share of all games: its y is 1 in every one
            decided_a = decided_b = ones
        else:
            decided_a = [float(any(r.returns)) for r in chunk_a]
            decided_b = [float(any(r.returns)) for r in chunk_b]
            self._row("nobody").add([1 - d for d in decided_a], ones,
                                    [1 - d for d in decided_b], ones)
        for seat in range(self.players):
            self._row("seat", seat).add([r.returns[seat] for r in chunk_a], decided_a,
                                        [r.returns[seat] for r in chunk_b], decided_b)
            self._row("score", seat).add([float(r.scores[seat]) for r in chunk_a], ones,
                                         [float(r.scores[seat]) for r in chunk_b], ones)
        self._row("length").add([r.length for r in chunk_a], ones,
                                [r.length for r in chunk_b], ones)
        for name in {name for r in chunk_a + chunk_b for name in r.figures}:
            self._row("figure", name).add([_number(r.figures.get(name)) for r in chunk_a], ones,
                                          [_number(r.figures.get(name)) for r in chunk_b], ones)

    def _row(self, *key) -> PairedSums:
        found = self.rows.get(key)
        if found is None:
            found = self.rows[key] = PairedSums()
        return found


def _played(result: Result) -> tuple:
    """What a game came to: its outcome, scores, length and figures."""
    return result.returns, result.scores, result.moves, result.turns, result.figures


def _number(value) -> float:
    """A figure's value in a game, 0 where the game does not have it as a number."""
    return value if is_number(value) else 0.0


def compare(summary_a: dict, summary_b: dict, pairs: Pairs) -> dict:
    """What changes from A to B, as plain data (what the report's ``comparison`` holds):
    each row's change with its paired 95% interval, the verdict, and how alike the pairs
    were (``paired``: the ``games``, how many played out the same, ``alike``, and
    ``relative_width``, the median row's interval width as a share of the width two
    separate runs would give)."""
    alone = summary_a["players"] == 1
    keyed = [("the player wins" if alone else f"seat {seat} wins", "share", ("seat", seat))
             for seat in range(summary_a["players"])]
    # a scoring change moves the scores before (if ever) it moves who wins
    keyed += [("the player's mean score" if alone else f"seat {seat} mean score",
               summary_a["score_unit"], ("score", seat)) for seat in range(summary_a["players"])]
    if not alone:
        keyed.append(("nobody wins", "share", ("nobody",)))
    keyed.append(("length", summary_a["length_unit"], ("length",)))
    for name, figure in summary_a["figures"].items():
        other = summary_b["figures"].get(name)
        if figure["kind"] == "number" and other and other["kind"] == "number":
            keyed.append((name.replace("_", " "), "a game", ("figure", name)))
    rows, narrowed = [], []
    for what, unit, key in keyed:
        sums = pairs.rows.get(key, PairedSums())
        a, b = sums.ratios()
        row = {"what": what, "unit": unit, "a": a, "b": b, "change": b - a,
               "interval": None, "significant": False}
        errors = sums.errors(pairs.games)
        if errors is not None:
            error, apart = errors
            low, high = b - a - Z95 * error, b - a + Z95 * error
            row.update(interval=[low, high], significant=not low <= 0 <= high)
            if apart:  # the row's games vary
                narrowed.append(error / apart)
        rows.append(row)
    paired = {"games": pairs.games, "alike": pairs.alike,
              "relative_width": statistics.median(narrowed) if narrowed else None}
    return {"rows": rows, "verdict": verdict(rows), "paired": paired}


def pairing(comparison: dict) -> str:
    """Which case a comparison is, in a sentence: the decks played the very same games,
    or the same deals (narrow intervals), or different deals (intervals about as wide as
    two separate runs').

    >>> pairing({"paired": {"games": 1000, "alike": 412, "relative_width": 0.38}})
    'Paired by seed: 412 of 1,000 games played out the same, and the intervals are 38% as \
wide as two separate runs would give: the decks deal the same games.'
    """
    games, alike, width = (comparison["paired"][k] for k in ("games", "alike", "relative_width"))
    played = f"{alike:,} of {games:,} games played out the same"
    if games and alike == games:
        every = "the one game" if games == 1 else f"all {games:,} games"
        return f"Paired by seed: {every} played out the same, so every change is exactly 0."
    if width is None:
        return f"Paired by seed: {played}; too few games for an interval."
    if width < NARROWER:
        return f"Paired by seed: {played}, and the intervals are {width:.0%} as wide as " \
               "two separate runs would give: the decks deal the same games."
    why = ("B's rules play the same seeds to other games" if comparison.get("variant") else
           "the decks deal differently (the same seed shuffles them to other deals)")
    return f"Paired by seed: {played}; {why}, so the intervals are about as wide as two " \
           f"separate runs would give ({width:.0%})."


def shown_change(row: dict) -> str:
    """'+4.4 percentage points (95%: +1.2 to +7.5)' or '-2.50 turns (95%: -2.90 to -2.10)';
    a game's own figure, counted 'a game', shows no unit.

    >>> shown_change({"unit": "share", "change": 0.044, "interval": [0.012, 0.075]})
    '+4.4 percentage points (95%: +1.2 to +7.5)'
    """
    if row["unit"] == "share":
        change, unit, digits = row["change"] * 100, " percentage points", 1
        interval = [bound * 100 for bound in row["interval"] or ()]
    else:
        change, unit, digits = row["change"], "" if row["unit"] == "a game" else \
            f" {row['unit']}", 2
        interval = row["interval"] or ()
    if not interval:
        return f"{change:+.{digits}f}{unit} (too few games for an interval)"
    low, high = interval
    return f"{change:+.{digits}f}{unit} (95%: {low:+.{digits}f} to {high:+.{digits}f})"


def verdict(rows: list[dict]) -> str:
    """One sentence: what B changes beyond chance with every row tested together (Holm's
    correction over the rows' tests), or that nothing does. Each row's own interval is
    honest, but with a dozen rows one of them leaves 0 out by chance in a third of
    comparisons of decks that play alike.

    >>> row = {"what": "length", "unit": "turns", "change": 0.5, "interval": [0.02, 0.98]}
    >>> verdict([row]), verdict([row] * 10)[:60]
    ('B changes, beyond what chance explains: length +0.50 turns.', \
'Nothing changes beyond what chance explains with these games')
    """
    found = holm({index: _p_value(row) for index, row in enumerate(rows)})
    moved = [f"{row['what']} {shown_change(row).split(' (')[0]}"
             for index, row in enumerate(rows) if index in found]
    together = f" ({len(rows)} figures tested together)" if len(rows) > 1 else ""
    if not moved:
        return f"Nothing changes beyond what chance explains with these games{together}."
    return f"B changes, beyond what chance explains{together}: " + "; ".join(moved) + "."


def _p_value(row: dict) -> float:
    """The two-sided p-value of 'no change' that the row's 95% interval implies: its
    half-width on the side of 0 is 1.96 standard errors (a normal approximation, as the
    intervals are). No interval (too few games): 1."""
    if row["interval"] is None:
        return 1.0
    change, (low, high) = row["change"], row["interval"]
    half = change - low if change > 0 else high - change
    if half <= 0:
        return 1.0 if change == 0 else 0.0
    return 2 * NormalDist().cdf(-abs(change) / (half / Z95))
