"""What many games add up to: each seat's share of the wins with a 95% interval, how long
games last, the scores, and the game's own figures.

>>> [round(x, 4) for x in wilson(50, 100)]
[0.4038, 0.5962]
"""

from __future__ import annotations

import math
from collections import Counter

from .per_card import card_figures, card_verdict
from .run_setup import Setup, game_of
from .stats import holm, mean, mean_difference, wilson
from .tally import tally_of


def spread(counts: Counter) -> dict:
    """Mean, median, the 10th and 90th percentiles, least and most (nearest rank) of the
    values ``counts`` holds (value -> how often).

    >>> spread(Counter(range(1, 11)))
    {'mean': 5.5, 'median': 5, 'p10': 1, 'p90': 9, 'min': 1, 'max': 10}
    """
    ordered = sorted(counts.items())
    total = sum(count for _, count in ordered)
    if not total:
        return {}

    def rank(q):
        wanted, seen = max(0, math.ceil(q * total) - 1), 0
        for value, count in ordered:
            seen += count
            if seen > wanted:
                return value

    return {"mean": sum(value * count for value, count in ordered) / total,
            "median": rank(0.5), "p10": rank(0.1), "p90": rank(0.9), "min": ordered[0][0],
            "max": ordered[-1][0]}


def lengths(results, players: int, rounds: bool = True) -> dict:
    """How long games last: ``length`` as the players count it (``length_unit``: turns
    where the game counts them, else moves), ``rounds`` (turns over players: every seat
    had a turn; None without ``rounds``) and ``moves`` (each claim, answer and pass), each
    a :func:`spread`.
    ``results``: a Tally or a list of Results.

    >>> from cardkit.playtest.game_loop import Result
    >>> two = [Result(0, [1, 0], [0, 0], 12, turns=4), Result(1, [0, 1], [0, 0], 20, turns=6)]
    >>> found = lengths(two, 2)
    >>> found["length_unit"], found["length"]["mean"], found["rounds"]["mean"], found["moves"]["max"]
    ('turns', 5.0, 2.5, 20)
    """
    tally = tally_of(results, players)
    counted = tally.turns_counted
    return {"length": spread(tally.lengths),
            "length_unit": "turns" if counted else "moves",
            "rounds": spread(Counter({turns / players: count for turns, count
                                      in tally.turns.items()}))
            if rounds and counted and players > 1 else None,
            "moves": spread(tally.moves)}


def length_sentence(summary: dict) -> str:
    """The length in a line: '10.2 turns on average (median 10, 10-90%: 8-13), 2.6
    rounds; 35.7 moves'."""
    length, unit, rounds = summary["length"], summary["length_unit"], summary["rounds"]
    said = (f"{length['mean']:.1f} {unit} on average (median {length['median']:g}, "
            f"10-90%: {length['p10']:g}-{length['p90']:g})")
    if rounds:
        said += f", {rounds['mean']:.1f} rounds"
    if unit != "moves":
        said += f"; {summary['moves']['mean']:.1f} moves"
    return said


def score_figures(tally, declared=()) -> list[str]:
    """The seat figures that define winning, which :func:`what_winners_do` leaves out:
    those the rules name as the score or a part of it (``declared``: Blófa's VP), and
    those equal to the seat's score in every seat-game so far.

    >>> from cardkit.playtest.game_loop import Result
    >>> games = [Result(0, [1.0, 0.0], [5, 2], 9, seat_figures=[{"points": 5, "vp": 1},
    ...                                                      {"points": 2, "vp": 0}])]
    >>> score_figures(tally_of(games, 2)), score_figures(tally_of(games, 2), ("vp",))
    (['points'], ['points', 'vp'])
    """
    return [name for name in tally.seat_figures
            if name in declared or tally.is_score.get(name, False)]


def score_left_out(names: list[str]) -> str:
    """What :func:`what_winners_do` leaves out, and why, in a few words.

    >>> score_left_out(["vp"])
    'left out: vp, the score or a part of it, which is how winning is defined'
    """
    return (f"left out: {' and '.join(name.replace('_', ' ') for name in names)}, the score "
            "or a part of it, which is how winning is defined")


def what_winners_do(results, players: int, declared=()) -> dict:
    """Each seat figure (captures, bluffs, buys) a seat-game: its mean for the seats
    that won (a share of a tied win counts) against the others, the difference with its
    95% interval, and its mean in each seat; {} where the game keeps none. The figures
    that define winning (:func:`score_figures`) are left out: winners have more of the
    score by definition.

    >>> from cardkit.playtest.game_loop import Result
    >>> games = [Result(i, [1.0, 0.0], [0, 0], 9, seat_figures=[{"bluffs": 2}, {"bluffs": 0}])
    ...          for i in range(10)]
    >>> bluffs = what_winners_do(games, 2)["bluffs"]
    >>> bluffs["winners"], bluffs["others"], bluffs["by_seat"], bluffs["significant"]
    (2.0, 0.0, [2.0, 0.0], True)
    """
    tally = tally_of(results, players)
    left_out = score_figures(tally, declared)
    found = {}
    for name, (won, lost, sums) in tally.seat_figures.items():
        if name in left_out:
            continue
        # a seat-game without the figure counts 0
        won = won + Counter({0: tally.winner_seats - won.total()})
        lost = lost + Counter({0: tally.other_seats - lost.total()})
        by_seat = [total / tally.seat_figured for total in sums]
        if not won or not lost:  # a game nobody ever won (or lost): nothing to set against
            found[name] = {"winners": None, "others": None, "by_seat": by_seat,
                           "change": 0.0, "interval": [0.0, 0.0], "significant": False}
            continue
        change, low, high = mean_difference(lost, won)
        found[name] = {"winners": mean(won), "others": mean(lost),
                       "by_seat": by_seat, "change": change, "interval": [low, high],
                       "significant": not low <= 0 <= high}
    return found


def by_outcome(results, players: int) -> dict:
    """Each of the game's own numeric figures, its mean in the games each seat won,
    those nobody won and (several winners) those tied (see :func:`.tally.outcome`), and how
    many games each of those is.

    >>> from cardkit.playtest.game_loop import Result
    >>> games = [Result(0, [1.0, 0.0], [0, 0], 9, {"tricks": 4}),
    ...          Result(1, [0.0, 0.0], [0, 0], 9, {"tricks": 8})]
    >>> found = by_outcome(games, 2)
    >>> found["games"], found["figures"]["tricks"]
    ({'seat 0 won': 1, 'nobody won': 1}, {'seat 0 won': 4.0, 'nobody won': 8.0})
    """
    tally = tally_of(results, players)
    order = sorted(tally.outcomes, key=lambda k: (k in ("tied", "nobody won", "lost"), k))
    found = {}
    for name, groups in tally.by_outcome.items():
        if tally.figures[name].only_none_besides:
            found[name] = {key: groups[key][0] / groups[key][1] if key in groups else None
                           for key in order}  # over the games that have the figure
    return {"games": {key: tally.outcomes[key] for key in order}, "figures": found}


ALPHA = 0.05  # how often a verdict may name something on a game where nothing is off


def edge(who: str, share: float, interval: tuple[float, float], fair: float,
         tested: int = 1, kind: str = "seats") -> str | None:
    """One sentence when a seat's (or a bot's) share of the decided games is off the fair
    share by more than chance explains (its 95% interval leaves the fair share out); None
    otherwise. ``tested``: how many ``kind`` were tested together (see :func:`seats_off`).

    >>> sentence = edge("seat 1", 0.291, (0.269, 0.313), 0.25, 4)
    >>> sentence.partition(" (")
    ('seat 1 wins 4.1 percentage points more often than a fair share', ' (', \
'95%: 1.9 to 6.3; 4 seats tested together)')
    >>> edge("seat 2", 0.20, (0.15, 0.26), 0.25) is None
    True
    """
    low, high = interval
    if low <= fair <= high:
        return None
    more = share > fair
    near, far = (low - fair, high - fair) if more else (fair - high, fair - low)
    together = f"; {tested} {kind} tested together" if tested > 1 else ""
    return (f"{who} wins {abs(share - fair) * 100:.1f} percentage points "
            f"{'more' if more else 'less'} often than a fair share "
            f"(95%: {near * 100:.1f} to {far * 100:.1f}{together})")


def seats_off(wins: list[float], decided: int, fair) -> set[int]:
    """The seats whose wins are off the fair share beyond chance, all seats tested
    together: each seat's exact binomial test (two-sided, its smaller tail doubled), with
    Holm's correction over the seats, so that a game where every seat is fair has a seat
    named in at most ALPHA of runs (each seat tested at 5% alone names one in 14-19% of
    runs of a fair four-seat game). ``fair``: the fair share, or one for each (bots
    rotated over the seats: a bot in two seats of three has 2/3).

    >>> sorted(seats_off([400, 134, 133, 133], 800, 0.25)), seats_off([52, 48], 100, 0.5)
    ([0, 1, 2, 3], set())
    """
    from scipy.special import bdtr, bdtrc  # binomial tails: scipy.stats takes 1 s to load

    if not decided:
        return set()
    won = [round(w) for w in wins]
    fairs = fair if isinstance(fair, list) else [fair] * len(won)
    tails = ((bdtr(w, decided, f), bdtrc(w - 1, decided, f)) for w, f in zip(won, fairs))
    return holm({seat: min(1.0, 2 * min(low, high)) for seat, (low, high) in enumerate(tails)},
                ALPHA)


def bot_kinds(game, specs) -> list[dict]:
    """Each bot that played, once: its parameters as played (defaults filled in) and the
    first line of what its class says it does."""
    kinds = {}
    for spec in specs:
        bot = game.bots[spec.name]
        kinds.setdefault(str(spec), {
            "bot": str(spec), "params": {**bot.PARAMS, **dict(spec.params)},
            "about": " ".join((bot.__doc__ or "").strip().split("\n\n")[0].split())})
    return list(kinds.values())


def bot_shares(setup: Setup, tally) -> list[dict]:
    """With the bots rotated over the seats: each bot (once, however many seats it takes a
    game) with its share of the decided games, its interval, its fair share (the seats it
    takes over the players) and whether it is off that beyond chance, every bot tested
    together as :func:`seats_off` tests seats; the sentences in ``edge``."""
    places: dict[str, list[int]] = {}  # bot -> its places in setup.bots
    for place, spec in enumerate(setup.bots):
        places.setdefault(str(spec), []).append(place)
    won = [sum(tally.bot_wins[p] for p in found) for found in places.values()]
    fairs = [len(found) / setup.players for found in places.values()]
    named = seats_off(won, tally.decided, fairs)
    bots = []
    for index, (bot, found) in enumerate(places.items()):
        share = won[index] / tally.decided if tally.decided else 0.0
        interval = wilson(won[index], tally.decided)
        bots.append({"bot": bot, "seats": len(found), "share": share,
                     "interval": list(interval), "fair_share": fairs[index],
                     "edge": edge(bot, share, interval, fairs[index], len(places), "bots")
                     if index in named else None})
    return bots


def random_play(game, specs) -> str | None:
    """When every seat is the random bot: a sentence saying the figures are of random play,
    and which better bots the game has."""
    if any(spec.name != "random" for spec in specs):
        return None
    others = [name for name in game.bots if name != "random"]
    who = "The player is" if len(specs) == 1 else "Every seat is"
    return (f"{who} the random bot, which picks a legal move at random: these figures "
            "are of random play; " + (f"this game also has {' and '.join(others)} "
                                      f"(--bots {others[0]})." if others else
                                      "this game has no other bot."))


def different_bots(setup: Setup) -> bool:
    """The seats do not all have the same bot (with the same parameters)."""
    return len(set(map(str, setup.bots))) > 1


def bots_note(setup: Setup) -> str | None:
    """When the seats have different bots: that the figures compare bots, and how the bots
    sat."""
    if not different_bots(setup):
        return None
    if setup.rotate:
        return ("The bots moved round the seats from game to game (in game i, seat s has "
                "bot (s + i) mod players of --bots), so the seat figures test the seats and "
                "the bot figures the bots.")
    sat = ", ".join(f"seat {seat} {bot}" for seat, bot in enumerate(setup.bots))
    return (f"The seats have different bots ({sat}): these figures compare the bots, not "
            "the seats; add --rotate to move the bots round the seats from game to game.")


def summarise(setup: Setup, results, seconds: float) -> dict:
    """The run as plain data (what ``summary.json`` holds), from a Tally or a list of
    Results.

    A seat's ``share`` is of the decided games (someone won), against a fair share of one
    in the number of players: games nobody won would otherwise make every seat look
    handicapped; alone, it is of all games (``shares_of`` says how many). ``win_rate`` is
    always of all games.
    """
    game = game_of(setup)
    tally = tally_of(results, setup.players, setup.rotate)
    games, wins, decided = tally.games, tally.wins, tally.decided
    fixed = not setup.rotate and different_bots(setup)  # a bot a seat, told apart
    seats = range(setup.players)
    fair = 1 / setup.players
    shares_of = games if setup.players == 1 else decided
    shares = [(wins[seat] / shares_of if shares_of else 0.0, wilson(wins[seat], shares_of))
              for seat in seats]
    named = set() if setup.players == 1 else seats_off([wins[s] for s in seats], decided, fair)
    edges = {seat: sentence for seat in sorted(named) if (sentence := edge(
        f"seat {seat}" + (f" ({setup.bots[seat]})" if fixed else ""), shares[seat][0],
        shares[seat][1], fair, setup.players))}
    cards = card_figures(tally, setup.players)
    figures = {}
    for name in sorted(tally.figures):
        values = tally.figures[name]
        if not values.others:
            figures[name] = {"kind": "number", **spread(values.numbers),
                             "total": sum(value * count for value, count
                                          in values.numbers.items())}
        else:
            counts = Counter({str(value): count for value, count in values.numbers.items()})
            figures[name] = {"kind": "count",
                             "counts": dict((counts + values.others).most_common())}
    return {
        "game": setup.game, "players": setup.players, "games": games, "seed": setup.seed,
        "bots": [str(bot) for bot in setup.bots], "seconds": round(seconds, 3),
        "deck": "designer's deck" if setup.cards is not None else "bundled deck",
        "seats": [{"seat": seat,
                   "bot": "bots in turn" if setup.rotate else str(setup.bots[seat]),
                   "win_rate": wins[seat] / games if games else 0.0,
                   "interval": list(wilson(wins[seat], games)),
                   "share": shares[seat][0], "share_interval": list(shares[seat][1]),
                   "off": seat in edges,  # named by the verdict
                   "score": spread(tally.scores[seat])} for seat in seats],
        "decided": decided, "shares_of": shares_of, "fair_share": fair,
        "edges": list(edges.values()),
        "nobody_won": (games - decided) / games if games else 0.0,
        "tied": tally.outcomes["tied"] / games if games else 0.0,  # of all games
        "bots_note": bots_note(setup), "random_play": random_play(game, setup.bots),
        "rotated": setup.rotate,
        "bot_shares": bot_shares(setup, tally) if setup.rotate else None,
        # a designer's game says what it calls a round in its figures, if anything: turns
        # over players is a round only where each seat has one turn a round
        **lengths(tally, setup.players, rounds=not setup.rules_file),
        "figures": figures,
        "rulings": list(game.rulings),
        "rulings_from": "rules file" if setup.rules_file else "cardkit",
        "title": game.title, "score_unit": game.score_unit,
        "bot_kinds": bot_kinds(game, setup.bots),
        "cards": cards,
        "card_verdict": card_verdict(cards, tally.card_games),
        "what_winners_do": what_winners_do(tally, setup.players, game.score_figures),
        "score_figures": score_figures(tally, game.score_figures),
        "by_outcome": by_outcome(tally, setup.players),
    }
