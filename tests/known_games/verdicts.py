"""Each verdict of ``cardkit simulate`` run many times, from fixed seeds, on games whose
answer is known: how often it names something where nothing is off (a false alarm), and
how often it finds what is (a planted card, the skill of Nim).

A run is a block of consecutive games of one long run (game i is played from seed:i as
in any run, so the blocks are independent samples); the verdicts are the project's own,
read from what ``simulate`` prints from (the summary, the comparison, the ladder).
"""

from __future__ import annotations

import math
from dataclasses import replace
from pathlib import Path

from cardkit.playtest import skill
from cardkit.playtest.runner import CHUNK, BotSpec, Setup, play_into
from cardkit.playtest.summary import summarise
from cardkit.playtest.tally import Tally

from . import coin_flip, nim

HERE = Path(__file__).resolve().parent
ALPHA = 0.05  # the rate every verdict states


def coin_flip_setup(players: int = 4, boost: float = 0.0, seed: int = 38,
                    bot: str = "random") -> Setup:
    return Setup("coin flip", players, seed, (BotSpec(bot),) * players,
                 coin_flip.cards(boost=boost), str(HERE / "coin_flip.py"))


def nim_setup(seed: int = 38) -> Setup:
    return Setup("nim", 2, seed, (BotSpec("random"),) * 2, nim.cards(), str(HERE / "nim.py"))


def blocks(setup: Setup, runs: int, games: int, workers: int = 1) -> list[Tally]:
    """``runs`` Tallies of ``games`` games each (a multiple of CHUNK): the blocks of one
    run of ``runs * games`` games."""
    assert games % CHUNK == 0, "a block is whole chunks"
    tallies = [Tally(setup.players) for _ in range(runs)]
    play_into([setup], runs * games,
              lambda run, start, chunk: tallies[start // games].add(chunk), workers)
    return tallies


def seat_and_card_verdicts(setup: Setup, runs: int, games: int, workers: int = 1) -> dict:
    """How many of ``runs`` runs of ``games`` games name a seat, and name a card; and in
    how many the card verdict names the Dragon (the planted card, when it has a boost)."""
    named = {"runs": runs, "seat": 0, "card": 0, "dragon": 0}
    for tally in blocks(setup, runs, games, workers):
        summary = summarise(setup, tally, 1.0)
        named["seat"] += bool(summary["edges"])
        sentences = summary["card_verdict"]["sentences"]
        named["card"] += bool(sentences)
        named["dragon"] += any(s.startswith("Dragon:") for s in sentences)
    return named


def skill_verdicts(setup: Setup, ladders: int, games: int, workers: int = 1,
                   budgets=skill.SEARCH_BUDGETS) -> int:
    """In how many of ``ladders`` skill ladders (``games`` a rung, search at ``budgets``)
    the verdict says skill matters; each ladder from its own seed."""
    kept = skill.SEARCH_BUDGETS
    skill.SEARCH_BUDGETS = tuple(budgets)
    try:
        return sum(bool(skill.climbs(skill.climb(replace(setup, seed=setup.seed + 7919 * k),
                                                 games, workers), setup.players))
                   for k in range(ladders))
    finally:
        skill.SEARCH_BUDGETS = kept


def most_false_alarms(runs: int) -> int:
    """The most runs that may raise an alarm if a verdict errs at ALPHA: exceeded by
    chance in one check of a thousand."""
    from scipy.stats import binom

    return int(binom.ppf(0.999, runs, ALPHA))


def upper_rate(alarms: int, runs: int) -> float:
    """The one-sided 95% upper bound of a rate of ``alarms`` in ``runs`` (Clopper-Pearson)."""
    from scipy.stats import beta

    return 1.0 if alarms == runs else float(beta.ppf(0.95, alarms + 1, runs - alarms))


def shown(alarms: int, runs: int) -> str:
    return (f"{alarms} of {runs} runs ({alarms / runs:.1%}; 95% upper bound "
            f"{upper_rate(alarms, runs):.1%})")


__all__ = ["ALPHA", "blocks", "coin_flip_setup", "math", "most_false_alarms", "nim_setup",
           "seat_and_card_verdicts", "shown", "skill_verdicts", "upper_rate"]
