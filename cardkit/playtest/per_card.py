"""Is this card too strong? Each distinct card's figures over many games.

For each card (by name) and each of drawn, played and held at the end: how often a seat
did so, and the share of the games a seat that did so won, against what those same seats
win on average (a seat's own rate: seat order is not the card's doing), with a 95%
interval. These show what goes with a card in these bots' games, not what it causes: a
card a winner draws late, or that a good position lets a seat play, looks strong too.
"""

from __future__ import annotations

from .stats import wilson
from .tally import EVENTS, tally_of
TOO_RARE = 30  # seat-games under which a card's figure is not judged


def card_figures(results, players: int) -> list[dict] | None:
    """One entry a card name, strongest first (by the win-rate change of a seat that drew
    it); None when the game keeps no record of cards. ``results``: a Tally or a list of
    Results.

    >>> from cardkit.playtest.runner import Result
    >>> games = [Result(i, [1.0, 0.0] if i % 4 else [0.0, 1.0], [0, 0], 9, {},
    ...                 [{"drawn": ["Dragon"] if i % 4 else [], "played": [], "held": []},
    ...                  {"drawn": [] if i % 4 else ["Dragon"], "played": [], "held": []}])
    ...          for i in range(40)]
    >>> dragon = card_figures(games, 2)[0]["drawn"]
    >>> dragon["seat_games"], dragon["won"], round(dragon["usual"], 3), dragon["judged"]
    (40, 1.0, 0.625, True)
    """
    tally = tally_of(results, players)
    if not tally.card_games:
        return None
    seat_rate = [wins / tally.games for wins in tally.wins]
    summed: dict = {}  # (card, event) -> [seat-games, wins, the seats' usual wins]
    for (name, event, seat), (seat_games, wins) in tally.cards.items():
        entry = summed.setdefault((name, event), [0, 0.0, 0.0])
        entry[0] += seat_games
        entry[1] += wins
        entry[2] += seat_games * seat_rate[seat]
    figures = []
    for name in sorted({name for name, _ in summed}):
        entry = {"card": name}
        for event in EVENTS:
            seat_games, wins, usual = summed.get((name, event), (0, 0.0, 0.0))
            entry[event] = _figure(seat_games, wins, usual, tally.card_games)
        figures.append(entry)
    return sorted(figures, key=lambda f: -_strength(f))


def _figure(seat_games: int, wins: float, usual: float, games: int) -> dict:
    if not seat_games:
        return {"seat_games": 0, "a_game": 0.0, "won": 0.0, "usual": 0.0, "change": 0.0,
                "interval": [0.0, 0.0], "judged": False, "significant": False}
    won, usual = wins / seat_games, usual / seat_games
    low, high = wilson(wins, seat_games)
    judged = seat_games >= TOO_RARE
    return {"seat_games": seat_games, "a_game": seat_games / games, "won": won,
            "usual": usual, "change": won - usual, "interval": [low - usual, high - usual],
            "judged": judged, "significant": judged and not low <= usual <= high}


def _strength(entry: dict) -> float:
    """How far a seat that drew (else played, else held) the card wins above its usual;
    cards too rare to judge go last."""
    for event in EVENTS:
        if entry[event]["judged"]:
            return entry[event]["change"]
    return -2.0


def shown(figure: dict) -> str:
    """'won 62.5% (usual 50.0%: +12.5 points, 95%: +2.1 to +21.3)' or 'too rare to judge'.

    >>> shown(_figure(10, 5.0, 5.0, 10))
    'too rare to judge (10 seat-games)'
    """
    if not figure["judged"]:
        return f"too rare to judge ({figure['seat_games']} seat-games)"
    low, high = figure["interval"]
    return (f"won {figure['won']:.1%} (usual {figure['usual']:.1%}: "
            f"{figure['change'] * 100:+.1f} points, 95%: {low * 100:+.1f} to {high * 100:+.1f})")
