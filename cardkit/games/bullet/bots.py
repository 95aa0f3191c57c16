"""Bluff the Bullet's own bot, the card sharp (:class:`CardSharpBot`), and the measures
it plays by: a hand's :func:`power`, a claim's :func:`stake_of` for the seat, and the
:func:`bluff_chance` of the card on top of the chain."""

from __future__ import annotations

from collections import Counter
from functools import cache

from ...toolkit.state import Bot
from .state import ACTION, SLOTS, card, label


@cache
def power(values: tuple[int, ...]) -> int:
    """A bot's rough measure of a hand, in the categories' order: 10 x the sum of the
    squared group sizes (five of a kind 250 ... high card 50), plus the value of the
    biggest group. 0 is an unknown card, counted as a card of its own.

    >>> power((6, 6, 6, 5, 5)), power((6, 6, 0, 0, 1)), power((7, 5, 4, 2, 1))
    (136, 76, 57)
    """
    counts = [0] * 8
    for value in values:
        counts[value] += 1
    unknown, counts[0] = counts[0], 0
    top = max(range(8), key=lambda v: (counts[v], v))
    return 10 * (sum(c * c for c in counts) + unknown) + top


def _values(hand: tuple) -> tuple[int, ...]:
    """A hand as an observation shows it -> its values, 0 for a card not seen."""
    return tuple(c[1] if c else 0 for c in hand)


def _with(values: tuple[int, ...], slot: int, value: int) -> tuple[int, ...]:
    return values[:slot] + (value,) + values[slot + 1:]


def stake_of(obs: dict, claim: tuple) -> int:
    """What a turn's card would do to the observing seat, in :func:`power` points: its
    own card +10; a crow or cup on its hand, the change to it (an unknown card counted
    as a card of its own; no change counts -1); a claimant's crow or cup on its own
    hand -3 (it helps a rival); a look at its hand -2; anything else 0.

    >>> mine = (("cup", 2), ("crow", 2), ("key", 5), ("cup", 1), ("key", 3))
    >>> obs = {"seat": 0, "hands": (mine, (("cup", 5), None, None, None, None))}
    >>> stake_of(obs, (1, "cup", ((0, 0), (1, 0)), None))  # 2s for 5s: it gains
    3
    >>> stake_of(obs, (1, "crow", ((0, 1),), None))  # breaks its pair of 2s
    -17
    """
    me, hands = obs["seat"], obs["hands"]
    seat, stated, targets, _ = claim
    if seat == me:
        return 10
    if stated == "key":
        return -2 if targets[0] == me else 0
    values = _values(hands[me])
    for (owner, slot), (other, there) in zip(targets, targets[::-1]):
        if owner == me:
            incoming = hands[other][there] if stated == "cup" else None
            return (power(_with(values, slot, incoming[1] if incoming else 0))
                    - power(values)) or -1
    return -3 if any(owner == seat for owner, _ in targets) else 0


class CardSharpBot(Bot):
    """A tavern card sharp: builds its own hand with crows and swaps, breaks up the
    leader's (the opponent whose known cards look best), looks at hands it cannot see,
    calls claims its card counting doubts, and shoots claims that hurt it.

    * ``bluff_rate``: the chance of making the best play when it needs a bluff (a card
      that does not show the stated ability) rather than the best true play; also scales
      the chance of shooting with a card that is no bullet.
    * ``call_threshold``: call a claim that does not help it when the estimated chance of
      a bluff reaches this: the share of unseen cards not of the stated suit, over the
      cards the claimant held, blended with the claimant's record of bluffs shown.
    * ``aggression``: the chance of shooting a claim that hurts it with a bullet it holds.

    A penalty it chooses takes the card that leaves the victim's known cards weakest.
    """

    fair = True  # plays from its observation alone: the search follows it

    PARAMS = {"bluff_rate": 0.3, "call_threshold": 0.6, "aggression": 0.7}

    def choose(self, observation, moves, rng):
        if moves[0] == "pass":
            return self._answer(observation, moves, rng)
        if moves[0][0] == "discard":
            return self._penalty(observation, moves, rng)
        return self._turn(observation, moves, rng)

    def _turn(self, obs, moves, rng):
        """Value every play with :func:`power`: what arrives in its own hand (gain) and
        in the leader's (loss); a look is worth 2 a card it has not seen."""
        me, hands, players = obs["seat"], obs["hands"], obs["players"]
        values = [_values(hand) for hand in hands]
        leader = max((s for s in range(players) if s != me), key=lambda s: power(values[s]))
        change = [None] * players  # seat -> slot -> arriving value -> points for this bot
        for seat, sign in ((me, 1), (leader, -1)):
            before = power(values[seat])
            change[seat] = [[sign * (power(_with(values[seat], i, v)) - before)
                             for v in range(8)] for i in range(SLOTS)]
        held = {label(c): c for c in obs["action"]}

        def worth(move) -> int:
            ability = move[2]
            if ability == "key":
                return 2 * hands[move[3]].count(None)
            (a, i) = move[3]
            if ability == "crow":  # the played card arrives
                return change[a][i][held[move[1]][1]] if change[a] else 0
            (b, j) = move[4]  # a swap: each card arrives where the other was
            return ((change[a][i][values[b][j]] if change[a] else 0)
                    + (change[b][j][values[a][i]] if change[b] else 0))

        scored = [(worth(m), m) for m in moves]
        honest = [(w, m) for w, m in scored if held[m[1]][0] == m[2]]
        if honest and not rng.random() < self.params["bluff_rate"]:
            scored = honest
        top = max(w for w, _ in scored)
        best = [m for w, m in scored if w == top]
        return best[rng.randrange(len(best))]

    def _answer(self, obs, moves, rng):
        """Pass on a claim that helps it; call one that does not when a bluff looks
        likely; shoot one that hurts it, a real bullet (its lowest) before another card."""
        chain = obs["chain"]
        stake = stake_of(obs, chain[0]) * (-1) ** (len(chain) - 1)
        if stake > 0:
            return "pass"
        if bluff_chance(obs) >= self.params["call_threshold"]:
            return "call"
        shots = sorted(moves[2:], key=lambda m: (card(m[1])[0] != "bullet", card(m[1])[1]))
        if stake < 0 and shots:
            odds = self.params["aggression"]
            if card(shots[0][1])[0] != "bullet":
                odds *= self.params["bluff_rate"]
            if rng.random() < odds:
                return shots[0]
        return "pass"

    @staticmethod
    def _penalty(obs, moves, rng):
        values = _values(obs["hands"][moves[0][1]])
        if not any(values):
            return moves[rng.randrange(len(moves))]
        return min(moves, key=lambda m: (power(_with(values, m[2], 0)), -values[m[2]]))


def bluff_chance(obs: dict) -> float:
    """The chance that the top card of the chain is a bluff, as this seat can tell: the
    chance that none of the cards its player held (2 on its turn, else its Action Cards
    and this one) shows the stated suit, drawing from the cards this seat has not seen;
    blended with the player's record (2 imaginary plays at that chance, plus the cards
    it has played and the bluffs among them). 1 when no card of the suit is unseen.

    >>> obs = {"chain": ((1, "crow", ((0, 0),), None),), "suits": {"crow": 2, "cup": 2},
    ...        "hands": (), "action": (("cup", 1),), "discard": (("crow", 3),),
    ...        "action_counts": (1, 1), "record": ((0, 0), (2, 2))}
    >>> round(bluff_chance(obs), 3)  # 1 crow of 2 unseen cards, held 2: 0.25; and 2 of 2
    0.625
    """
    seat, stated = obs["chain"][-1][:2]
    seen = Counter(c[0] for c in obs["action"] + obs["discard"])
    seen.update(c[0] for hand in obs["hands"] for c in hand if c)
    seen.update(c[3][0] for c in obs["chain"] if c[3])
    unseen = obs["suits"][stated] - seen[stated]
    if unseen <= 0:
        return 1.0
    share = unseen / (sum(obs["suits"].values()) - sum(seen.values()))
    held = ACTION if len(obs["chain"]) == 1 else obs["action_counts"][seat] + 1
    played, bluffs = obs["record"][seat]
    return (2 * (1 - share) ** held + bluffs) / (2 + played)

