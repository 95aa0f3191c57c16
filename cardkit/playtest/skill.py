"""Skill versus luck: does the better player win more? A ladder of bots of rising skill.

The rungs are the random bot, the game's own bot (its heuristic, or the first a designer
wrote), then the search bot as it plays best (its defaults: guided by the game's own bot)
with a budget that doubles from rung to rung. Each rung plays every seat in turn
against the rung below it in all the other seats, so seat order cancels out; its share of
the games someone won, set against the fair share (one in the number of players), is how
much that step of skill pays. A solitaire game has no one to play against: each rung plays alone and its
win rate is compared with the rung below. This is Ludii's "skill trace" and TAG's skill
ladder, in a few numbers and one sentence.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from statistics import NormalDist

from ..toolkit.search import fair_guide, own_bot
from .run_setup import BotSpec, Setup, game_of
from .runner import Stopped, play_into
from .stats import holm, wilson
from .tally import Tally

SEARCH_BUDGETS = (25, 50, 100)  # iterations a move, doubling rung to rung
SEED_STEP = 1_000_003  # each seat rotation plays other games


@dataclass
class Rung:
    """One step of the ladder: ``bot`` against ``against`` (None: the first rung)."""

    bot: str
    against: str | None
    games: int  # the games it is judged on: with others, those someone won
    won: float  # the share of the games ``bot`` won
    interval: tuple[float, float]
    seconds: float


def ladder(setup: Setup) -> list[BotSpec]:
    """The bots of the ladder for the game of ``setup``, weakest first: random play, the
    game's own bot, then the strongest search at budgets that double."""
    bots = game_of(setup).bots
    own = own_bot(bots)
    rungs = [BotSpec("random")] + ([BotSpec(own)] if own else [])
    if "search" in bots:  # its tree search, whose strength climbs with its iterations (a
        # game whose search compares rollouts by default is told compare=0); its other
        # defaults are the strongest play measured
        tree = (("compare", 0.0),) if bots["search"].PARAMS["compare"] else ()
        rungs += [BotSpec("search", (("iterations", float(n)),) + tree)
                  for n in SEARCH_BUDGETS]
    return rungs


def bots_used(setup: Setup) -> list[str]:
    """What each bot of the ladder is, a sentence each, weakest first."""
    bots = game_of(setup).bots
    said = []
    for spec in ladder(setup):
        if spec.name == "search":
            params = bots[spec.name].PARAMS  # the game's defaults
            guide = {"auto": fair_guide(bots), "none": None}.get(params["guide"],
                                                                 params["guide"])
            said.append("search: looks ahead by information-set MCTS, at "
                        f"{', '.join(map(str, SEARCH_BUDGETS))} iterations a move, random "
                        "playouts" + (f", guided by {guide} (bias {params['bias']:g})" if guide
                                      else "")
                        + (f", samples weighed by the others' claims (trust "
                           f"{params['trust']:g})" if params["trust"] < 1 else ""))
            break
        about = " ".join((bots[spec.name].__doc__ or "").split()).split(". ")[0].rstrip(".")
        said.append(f"{spec.name}: {about[:1].lower()}{about[1:]}" if about else spec.name)
    return said


def climb(setup: Setup, games: int, workers: int, on_done=None, clock=None,
          executor=None) -> list[Rung]:
    """Play the ladder: ``games`` games a rung (spread over the seats), each rung against
    the one below it. ``on_done(n)`` is told after each n games; ``clock()`` times rungs.
    Ctrl-C raises :class:`Stopped` with the rungs climbed, the last from the games it
    finished."""
    bots = ladder(setup)
    rungs = []
    for level, bot in enumerate(bots):
        lower = bots[level - 1] if level else None
        started = clock() if clock else 0.0
        wins = played = 0.0
        alone = setup.players == 1
        seats = range(setup.players)
        per_seat = math.ceil(games / len(seats))
        for seat in seats:
            field = [lower or bot] * setup.players
            field[seat] = bot
            run = replace(setup, bots=tuple(field), seed=setup.seed + SEED_STEP * seat)
            tally = Tally(setup.players)
            stopped = False
            try:
                play_into([run], per_seat, lambda _, start, chunk: tally.add(chunk), workers,
                          on_done, executor)
            except Stopped:
                stopped = True
            wins += tally.wins[seat]
            # with others, of the games someone won (as the summary counts a fair share)
            played += tally.games if alone else tally.decided
            if stopped:
                break
        if played or not stopped:
            rungs.append(Rung(str(bot), None if lower is None else str(lower), int(played),
                              wins / played if played else 0.0, wilson(wins, int(played)),
                              (clock() - started) if clock else 0.0))
        if stopped:
            raise Stopped(rungs) from None
    return rungs


def climbs(rungs: list[Rung], players: int) -> set[int]:
    """The rungs (by index) that beat the rung below beyond chance, every step tested
    together (Holm), so that a game of pure luck says skill matters in at most 5% of
    ladders: with others, a rung's wins against the fair share (an exact one-sided
    binomial test); alone, its win rate against random play's (one-sided, two rates)."""
    from scipy.special import bdtrc

    p_values = {}
    for index, rung in enumerate(rungs[1:], 1):
        if players > 1:  # P(at least its wins | the fair share)
            p_values[index] = bdtrc(round(rung.won * rung.games) - 1, rung.games, 1 / players)
        else:
            p_values[index] = _rate_above(rung, rungs[0])
    return holm(p_values)


def _rate_above(rung: Rung, base: Rung) -> float:
    """One-sided p-value that ``rung``'s win rate is no higher than ``base``'s (the
    two-proportion z-test, pooled)."""
    pooled = (rung.won * rung.games + base.won * base.games) / (rung.games + base.games)
    spread = math.sqrt(pooled * (1 - pooled) * (1 / rung.games + 1 / base.games))
    if spread == 0:
        return 0.0 if rung.won > base.won else 1.0
    return NormalDist().cdf(-(rung.won - base.won) / spread)


def verdict(rungs: list[Rung], players: int) -> str:
    """One sentence: does skill pay in this game, and does it still pay at the top? Only
    steps found by :func:`climbs` count; a flat ladder says what it shows, that these bots
    gain nothing from more skill, not that the game is luck."""
    found = climbs(rungs, players)
    steps = len(rungs) - 1
    together = f" ({steps} steps tested together)" if steps > 1 else ""
    if players == 1:
        if not found:
            return ("A flat curve: these bots win no more often than random play"
                    f"{together}; better play of another kind might.")
        best = max((rungs[i] for i in found), key=lambda rung: rung.won)
        return (f"Skill matters: {best.bot} wins {best.won:.0%} of its games where random "
                f"play wins {rungs[0].won:.0%}{together}.")
    fair = 1 / players
    if not found:
        return (f"A flat curve: no bot wins more than the {fair:.0%} chance gives it against "
                f"the bot below{together}; these bots gain nothing from more skill, which "
                "does not prove that luck decides the game.")
    best = max((rungs[i] for i in found), key=lambda rung: rung.won)
    top = rungs[-1]
    still = (f"; at the top, {top.bot} still wins {top.won:.0%} against {top.against}, so "
             "more skill still pays" if len(rungs) - 1 in found else
             f"; at the top, {top.bot} wins {top.won:.0%} against {top.against}, which "
             "chance alone could give: more search may not pay any more")
    return (f"Skill matters: {best.bot} wins {best.won:.0%} against {best.against} where "
            f"chance gives {fair:.0%}{still}{together}.")
