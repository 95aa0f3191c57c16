"""Each verdict of ``cardkit simulate`` run many times, from fixed seeds, on games whose
answer is known: how often it names something where nothing is off (a false alarm), and
how often it finds what is (a planted card, the skill of Nim).

A run is a block of consecutive games of one long run (game i is played from seed:i as
in any run, so the blocks are independent samples); the verdicts are the project's own,
read from what ``simulate`` prints from (the summary, the comparison, the ladder).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from cardkit.playtest import skill
from cardkit.playtest.compare import Pairs, compare
from cardkit.playtest.run_setup import BotSpec, Setup
from cardkit.playtest.runner import CHUNK, in_step, play_into
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


def compare_verdicts(setup: Setup, runs: int, games: int, workers: int = 1) -> int:
    """In how many of ``runs`` comparisons of ``games`` games a side the compare verdict
    says B changes something, B being the same deck in the reverse order: the same game,
    dealt differently from the same seeds."""
    other = replace(setup, cards=tuple(reversed(setup.cards)))
    sides = [[Tally(setup.players), Tally(setup.players), Pairs(setup.players)]
             for _ in range(runs)]

    def take(start, chunks):
        tally_a, tally_b, pairs = sides[start // games]
        tally_a.add(chunks[0])
        tally_b.add(chunks[1])
        pairs.add(*chunks)

    assert games % CHUNK == 0, "a comparison is whole chunks"
    play_into([setup, other], runs * games, in_step(take, 2), workers)
    return sum(compare(summarise(setup, tally_a, 1.0), summarise(other, tally_b, 1.0),
                       pairs)["verdict"].startswith("B changes")
               for tally_a, tally_b, pairs in sides)


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




def planted_tuning(seed: int, trials: int = 27, games: int = 400, rungs=(50, 100, 300),
                   workers: int = 1, executor=None) -> dict:
    """``--tune`` on the planted game from ``seed``: FIRST_BONUS 0..20 and the Dragon's
    copies 0..3 may vary, toward seats within 5 points of fair and no card standing out by
    more than 5 points; the answer as ``simulate --tune`` gives it."""
    from cardkit.playtest.tune import tune_and_check
    from cardkit.playtest.tune_targets import parse_target, parse_vary

    from . import planted

    base = Setup("planted", 2, seed, (BotSpec("random"),) * 2, planted.cards(),
                 str(HERE / "planted.py"))

    def setups_for(values):
        bonus, dragons = values
        return [replace(base, cards=planted.cards(int(dragons)),
                        constants=(("FIRST_BONUS", int(bonus)),))]

    knobs = [parse_vary("FIRST_BONUS=0..20"), parse_vary("count[name=Dragon]=0..3")]
    targets = [parse_target("seats=5"), parse_target("card-edge=5")]
    return tune_and_check(setups_for, (20, 2), knobs, targets, trials, games, base,
                          workers, executor, rungs=rungs)


EDGE_TARGET = 5.0  # seats within 5 points: FIRST_BONUS 0 to 5 truly meets it


def edge_tuning(seed: int, trials: int = 27, games: int = 1000, rungs=(50, 100, 300),
                workers: int = 1, executor=None, vary: str = "FIRST_BONUS=0..20",
                today: int = 10, target: float = EDGE_TARGET) -> dict:
    """``--tune`` on the known game of one constant: the planted game without Dragons,
    where FIRST_BONUS is seat 0's edge in points (0 is fair), from today's 10 over 0..20
    toward seats within EDGE_TARGET points (or as ``vary``, ``today`` and ``target``
    say); the answer as ``simulate --tune`` gives it."""
    from cardkit.playtest.tune import tune_and_check
    from cardkit.playtest.tune_targets import parse_target, parse_vary

    from . import planted

    base = Setup("planted", 2, seed, (BotSpec("random"),) * 2, planted.cards(0),
                 str(HERE / "planted.py"))

    def setups_for(values):
        return [replace(base, constants=(("FIRST_BONUS", int(values[0])),))]

    return tune_and_check(setups_for, (today,), [parse_vary(vary)],
                          [parse_target(f"seats={target:g}")], trials, games, base,
                          workers, executor, rungs=rungs)


def edge_tuning_right(answer: dict) -> tuple[bool, int]:
    """Whether suggestion 1 truly meets the seats target (its FIRST_BONUS is at most
    EDGE_TARGET), and how many suggestions that truly miss it are labelled as meeting
    every target."""
    def fair(suggestion):
        return suggestion["values"]["FIRST_BONUS"] <= EDGE_TARGET

    suggestions = answer["suggestions"]
    return (bool(suggestions) and fair(suggestions[0]),
            sum(s["within"] and not fair(s) for s in suggestions))


def edge_labels_wrong(answer: dict) -> tuple[int, int, int, int]:
    """Of the suggestions' seats labels, how many say the opposite of the truth (met for
    a setting beyond EDGE_TARGET, MISSED for one within), and of how many; of the one-step
    checks (each moving FIRST_BONUS back to today's 10, which truly misses the target),
    how many a truly fair suggestion's said not to matter, and of how many."""
    labels = wrong_labels = steps = wrong_steps = 0
    for suggestion in answer["suggestions"]:
        fair = suggestion["values"]["FIRST_BONUS"] <= EDGE_TARGET
        said = suggestion["figures"]["seats"]["verdict"]
        labels += 1
        wrong_labels += said == ("MISSED" if fair else "met")
        for step in suggestion["one_step"] if fair else ():
            steps += 1
            wrong_steps += not step["matters"]
    return wrong_labels, labels, wrong_steps, steps


def tuning_found(answer: dict) -> tuple[bool, bool]:
    """Whether the best suggestion misses no target (each met, or within chance of it:
    "meets every target" is said only where every 95% interval lies within), and whether
    its one-step check names both planted parts (the bonus and the Dragon) as mattering."""
    best = answer["suggestions"][0] if answer["suggestions"] else None
    if best is None:
        return False, False
    named = {step["knob"] for step in best["one_step"] if step["matters"]}
    return not best["missed"], named == {"FIRST_BONUS", "count[name=Dragon]"}
