"""Did my change help? Two decks played with the same seeds and bots, and what differs
between them beyond what chance explains.

A share (a seat's of the games someone won, how often nobody won) differs by an amount
with a 95% interval from Newcombe's hybrid score method, built on the two Wilson
intervals; mean game length differs with a normal interval (Welch). A difference whose
interval leaves out 0 is one chance is unlikely to explain (at 95%, one in twenty
unchanged figures still looks changed); the verdict sentence tests every figure together
(Holm), so that it names one, when nothing changed, in at most one comparison in twenty.
"""

from __future__ import annotations

import math
from collections import Counter
from statistics import NormalDist

from .stats import Z95, holm, mean_difference, wilson
from .tally import tally_of


def share_difference(wins_a: float, games_a: int, wins_b: float, games_b: int):
    """B's rate less A's, with its 95% interval (Newcombe 1998, method 10).

    >>> [round(x, 4) for x in share_difference(48, 80, 56, 70)]
    [0.2, 0.0524, 0.3339]
    """
    p_a = wins_a / games_a if games_a else 0.0
    p_b = wins_b / games_b if games_b else 0.0
    low_a, high_a = wilson(wins_a, games_a)
    low_b, high_b = wilson(wins_b, games_b)
    change = p_b - p_a
    return (change, change - math.sqrt((p_b - low_b) ** 2 + (high_a - p_a) ** 2),
            change + math.sqrt((high_b - p_b) ** 2 + (p_a - low_a) ** 2))


def compare(summary_a: dict, summary_b: dict, results_a, results_b) -> dict:
    """What changes from A to B, as plain data (what the report's ``comparison`` holds);
    each side's games as a Tally or a list of Results."""
    tally_a = tally_of(results_a, summary_a["players"])
    tally_b = tally_of(results_b, summary_b["players"])
    rows = []
    alone = summary_a["players"] == 1
    for seat_a, seat_b in zip(summary_a["seats"], summary_b["seats"]):
        rows.append(_row(f"seat {seat_a['seat']} wins" if not alone else "the player wins",
                         "share", *share_difference(
                             seat_a["share"] * summary_a["shares_of"], summary_a["shares_of"],
                             seat_b["share"] * summary_b["shares_of"], summary_b["shares_of"]),
                         seat_a["share"], seat_b["share"]))
    if not alone:
        undecided_a = summary_a["games"] - summary_a["decided"]
        undecided_b = summary_b["games"] - summary_b["decided"]
        rows.append(_row("nobody wins", "share", *share_difference(
            undecided_a, summary_a["games"], undecided_b, summary_b["games"]),
            summary_a["nobody_won"], summary_b["nobody_won"]))
    lengths = mean_difference(tally_a.lengths, tally_b.lengths)
    rows.append(_row("length", summary_a["length_unit"], *lengths, summary_a["length"]["mean"],
                     summary_b["length"]["mean"]))
    for name, figure in summary_a["figures"].items():
        other = summary_b["figures"].get(name)
        if figure["kind"] == "number" and other and other["kind"] == "number":
            values = mean_difference(_with_zeros(tally_a, name), _with_zeros(tally_b, name))
            rows.append(_row(name.replace("_", " "), "a game", *values, figure["mean"],
                             other["mean"]))
    return {"rows": rows, "verdict": verdict(rows)}


def _with_zeros(tally, name: str) -> Counter:
    """A numeric figure's values in every game: 0 where a game does not have it."""
    values = tally.figures[name]
    return values.numbers + Counter({0: tally.games - values.games})


def _row(what, unit, change, low, high, a, b) -> dict:
    return {"what": what, "unit": unit, "a": a, "b": b, "change": change,
            "interval": [low, high], "significant": not low <= 0 <= high}


def shown_change(row: dict) -> str:
    """'+4.4 points (95%: +1.2 to +7.5)' or '-2.50 turns (95%: -2.90 to -2.10)'; a game's
    own figure, counted 'a game', shows no unit.

    >>> shown_change({"unit": "share", "change": 0.044, "interval": [0.012, 0.075]})
    '+4.4 points (95%: +1.2 to +7.5)'
    """
    low, high = row["interval"]
    if row["unit"] == "share":
        return (f"{row['change'] * 100:+.1f} points (95%: {low * 100:+.1f} to "
                f"{high * 100:+.1f})")
    unit = "" if row["unit"] == "a game" else f" {row['unit']}"
    return f"{row['change']:+.2f}{unit} (95%: {low:+.2f} to {high:+.2f})"


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
    intervals are)."""
    change, (low, high) = row["change"], row["interval"]
    half = change - low if change > 0 else high - change
    if half <= 0:
        return 1.0 if change == 0 else 0.0
    return 2 * NormalDist().cdf(-abs(change) / (half / Z95))
