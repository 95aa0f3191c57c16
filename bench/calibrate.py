"""The verdicts' calibration in full (``make calibrate``, issue 38): each verdict of
``cardkit simulate`` run many times from fixed seeds on games whose answer is known
(tests/known_games), printing how often it names something where nothing is off, with a
95% upper bound, and how often it finds what is (also ``--tune``'s answer on a game with
planted imbalances); it fails (exit 1) where a rate is beyond
what 5% allows. tests/test_known_games.py runs a small version in ``make test``.

It takes about five minutes on two idle cores; ``--quick`` runs a tenth of it.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from known_games.verdicts import (coin_flip_setup, compare_verdicts,  # noqa: E402
                                  edge_labels_wrong, edge_tuning, edge_tuning_right,
                                  most_false_alarms, nim_setup, planted_tuning,
                                  seat_and_card_verdicts, shown, skill_verdicts, tuning_found)

WORKERS = 2


def main(scale: float) -> int:
    failed = []

    def check(what: str, alarms: int, runs: int) -> None:
        bad = alarms > most_false_alarms(runs)
        failed.extend([what] * bad)
        print(f"  {what}: false alarms in {shown(alarms, runs)}" + ("  TOO MANY" if bad else ""),
              flush=True)

    def found(what: str, hits: int, runs: int, least: float) -> None:
        bad = hits < least * runs
        failed.extend([what] * bad)
        print(f"  {what}: found in {hits} of {runs} runs ({hits / runs:.0%}; wanted "
              f"{least:.0%})" + ("  TOO FEW" if bad else ""), flush=True)

    def runs(count: int) -> int:
        return max(3, round(count * scale))

    started = time.perf_counter()
    print("Coin flip, 4 seats, random bots: nothing is off (1,000 games a run)")
    named = seat_and_card_verdicts(coin_flip_setup(), runs(400), 1000, WORKERS)
    check("seat sentence", named["seat"], named["runs"])
    check("card verdict", named["card"], named["runs"])
    print("Coin flip with a planted card, the Dragon (2,000 games a run, as the docs' "
          "example)")
    named = seat_and_card_verdicts(coin_flip_setup(boost=0.08), runs(100), 2000, WORKERS)
    found("the Dragon named", named["dragon"], named["runs"], 0.8)
    print("Coin flip against its deck in the reverse order: the same game dealt differently "
          "(300 games a side)")
    comparisons = runs(400)
    check("compare verdict", compare_verdicts(coin_flip_setup(), comparisons, 300, WORKERS),
          comparisons)
    print("Coin flip, 2 seats: skill cannot matter (a ladder of 200 games a rung: random, "
          "heuristic, search at 25 iterations; each step a test)")
    ladders = runs(200)
    check("skill verdict", skill_verdicts(coin_flip_setup(2), ladders, 200, WORKERS, (25,)),
          ladders)
    print("Nim: skill decides (the same ladder)")
    ladders = runs(20)
    found("skill found", skill_verdicts(nim_setup(), ladders, 200, WORKERS, (25,)), ladders,
          0.8)
    print("The planted game (seat 0's coin weighted by 20 points, two over-strong Dragons): "
          "--tune of FIRST_BONUS 0..20 and the Dragons 0..3 toward seats=5 and card-edge=5, "
          "81 points, 1,000 fresh games; each run from its own seed")
    tunings = runs(10)
    answers = [tuning_found(planted_tuning(seed, 81, 1000, workers=WORKERS))
               for seed in range(1, tunings + 1)]
    found("a setting missing no target", sum(within for within, _ in answers), tunings, 0.9)
    found("both planted parts named", sum(named for _, named in answers), tunings, 0.9)
    print("The known game of one constant (FIRST_BONUS is seat 0's edge in points, 0 is "
          "fair): --tune of FIRST_BONUS 0..20 from today's 10 toward seats=5, 27 points, "
          "1,000 fresh games; each run from its own seed")
    tuned = [edge_tuning(seed, workers=WORKERS) for seed in range(1, tunings + 1)]
    answers = [edge_tuning_right(answer) for answer in tuned]
    found("suggestion 1 truly fair", sum(fair for fair, _ in answers), tunings, 0.9)
    wrong = [sum(column) for column in zip(*map(edge_labels_wrong, tuned))]
    print(f"  seats labels opposite to the truth: {wrong[0]} of {wrong[1]}; one-step checks "
          f"of a fair suggestion said not to matter: {wrong[2]} of {wrong[3]}", flush=True)
    mislabelled = sum(count for _, count in answers)
    failed.extend(["unfair settings labelled as meeting every target"] * (mislabelled > 0))
    print(f"  unfair settings labelled 'meets every target': {mislabelled} in {tunings} runs "
          "(wanted 0)" + ("  TOO MANY" if mislabelled else ""), flush=True)
    print(f"{time.perf_counter() - started:.0f} s" + (f"; failed: {', '.join(failed)}"
                                                      if failed else "; all within 5%"))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(0.1 if "--quick" in sys.argv else 1.0))
