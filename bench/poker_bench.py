"""Poker ranking speed (run by `make bench`): cardkit against treys, same process.

1,000,000 random 5-card hands, dealt once and parsed once into each library's own card
integers before timing, so only ranking is timed. Also Ragusa's rotated ranking (relabel
each card for the player's foundation, then rank) and Bluff the Bullet's ranking, which
should be in the same class. Target (issue 4): cardkit at least as fast as treys.
"""

from __future__ import annotations

import random
import time

from treys import Card as TreysCard
from treys import Evaluator

from cardkit.rules import bullet, poker, ragusa

HANDS = 1_000_000
REPEATS = 3


def best_time(run) -> float:
    times = []
    for _ in range(REPEATS):
        started = time.perf_counter()
        run()
        times.append(time.perf_counter() - started)
    return min(times)


def main() -> None:
    rng = random.Random(54)
    deck = [poker.Card(r, s) for r in poker.RANKS for s in poker.SUITS]
    dealt = [rng.sample(deck, 5) for _ in range(HANDS)]
    ours = [tuple(poker.encode(c) for c in hand) for hand in dealt]
    theirs = [[TreysCard.new(str(c).replace("10", "T")[:-1] + c.suit.lower()) for c in hand]
              for hand in dealt]
    evaluator = Evaluator()
    score = poker.score
    five = evaluator._five
    evaluate = evaluator.evaluate

    # Same answers first: treys ranks 1 (best) .. 7462, cardkit 7462 (best) .. 1.
    for mine, other in zip(ours[:20000], theirs[:20000]):
        assert score(*mine) == 7463 - five(other)

    t_ours = best_time(lambda: [score(a, b, c, d, e) for a, b, c, d, e in ours])
    t_evaluate = best_time(lambda: [evaluate(h[:2], h[2:]) for h in theirs])
    t_five = best_time(lambda: [five(h) for h in theirs])

    table = ragusa.rotation_table(4)
    t_ragusa = best_time(lambda: [score(table[a], table[b], table[c], table[d], table[e])
                                  for a, b, c, d, e in ours])
    values = [tuple(bullet.PRIMES[rng.randint(1, 7)] for _ in range(5)) for _ in range(HANDS)]
    bullet_score = bullet.score
    t_bullet = best_time(lambda: [bullet_score(a, b, c, d, e) for a, b, c, d, e in values])

    rate = lambda seconds: f"{HANDS / seconds / 1e6:5.2f} M hands/s"
    print(f"\n{HANDS:,} random 5-card hands, best of {REPEATS}, same process")
    print(f"  cardkit standard ranking        {rate(t_ours)}")
    print(f"  treys Evaluator.evaluate        {rate(t_evaluate)}  "
          f"cardkit is {t_evaluate / t_ours:.2f}x as fast (target >= 1)")
    print(f"  treys Evaluator._five (inner)   {rate(t_five)}  "
          f"cardkit is {t_five / t_ours:.2f}x as fast")
    print(f"  cardkit Ragusa, rotated scale   {rate(t_ragusa)}  "
          f"{t_ragusa / t_ours:.2f}x the standard ranking's time")
    print(f"  cardkit Bluff the Bullet        {rate(t_bullet)}  "
          f"{t_bullet / t_ours:.2f}x the standard ranking's time")


if __name__ == "__main__":
    main()
