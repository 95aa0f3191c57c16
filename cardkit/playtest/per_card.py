"""Is this card too strong? Each distinct card's figures over many games, and the cards
that stand out.

For each card (by name) and each of drawn, played and held at the end: how often a seat
did so, and the share of its games such a seat won, against what the other cards of the
same games give (a card's "usual"), with a 95% interval. In a game, each card a seat did
so with is a slot taking that seat's return; if the card were like any other, its slots
would be a random few of the game's slots, winning as often as the slots on average.
Set against the other cards, not against every game: where drawing many cards goes with
winning, or holding any at the end with losing, every card would look strong (or weak)
against a seat's usual rate (Ragusa's standard deck: 105 of its 156 figures). Games are
the strata of a Cochran-Mantel-Haenszel test: the variance is that of drawing the card's
slots from the game's without replacement, which stays honest however the seats' returns
hang together, and in the tails where an interval from the card's own games does not.

The verdict (:func:`card_verdict`) names the cards beyond chance with every judged figure
tested together (Benjamini-Hochberg), or says how many games a small effect would need.
These figures show what goes with a card in these bots' games, not what it causes: a
card a winner draws late, or that a good position lets a seat play, looks strong too.
"""

from __future__ import annotations

import math
from statistics import NormalDist

from .stats import Z95, benjamini_hochberg
from .tally import EVENTS, tally_of

TOO_RARE = 30  # seat-games under which a card's figure is not judged
FALSE_DISCOVERIES = 0.05  # the share of the named cards chance may name, on average
EFFECT = 0.03  # the effect (of a seat's wins) a power estimate is given for
POWER = 0.8  # how often an effect is to be found, in a power estimate
VERBS = {"drawn": ("draws it", "draws another card"),  # what a seat did, with it and not
         "played": ("plays it", "plays another card"),
         "held": ("holds it at the end", "holds another card at the end")}


def card_figures(results, players: int) -> list[dict] | None:
    """One entry a card name, strongest first (by the win-rate change of a seat that drew
    it); None when the game keeps no record of cards. ``results``: a Tally or a list of
    Results. A figure is ``significant`` when the card verdict names it.

    >>> from cardkit.playtest.game_loop import Result
    >>> games = [Result(i, [1.0, 0.0] if i % 4 else [0.0, 1.0], [0, 0], 9, {},
    ...                 [{"drawn": ["Dragon", "Imp"] if i % 4 else ["Imp"], "played": [],
    ...                   "held": []}, {"drawn": ["Imp"], "played": [], "held": []}])
    ...          for i in range(40)]
    >>> dragon = card_figures(games, 2)[0]["drawn"]
    >>> dragon["seat_games"], dragon["won"], round(dragon["usual"], 3), dragon["judged"]
    (30, 1.0, 0.667, True)
    """
    tally = tally_of(results, players)
    if not tally.card_games:
        return None
    figures = []
    for name in sorted({name for name, _ in tally.cards}):
        entry = {"card": name}
        for number, event in enumerate(EVENTS):
            counts = tally.cards.get((name, event), (0, 0.0, 0.0, 0.0))
            entry[event] = _figure(*counts, tally.card_games)
            # a figure the same as an earlier one (every card drawn is held at the end) is
            # one test, not two: testing it twice would cost the others power
            entry[event]["same_as"] = next(
                (earlier for earlier in EVENTS[:number]
                 if tally.cards.get((name, earlier), (0, 0.0, 0.0, 0.0)) == counts), None)
        figures.append(entry)
    found = benjamini_hochberg({(index, event): entry[event]["p"]
                                for index, entry in enumerate(figures) for event in EVENTS
                                if _tested(entry[event])}, FALSE_DISCOVERIES)
    for index, event in found:
        figures[index][event]["significant"] = True
    return sorted(figures, key=lambda f: -_strength(f))


def _figure(seat_games: int, wins: float, expected: float, variance: float,
            games: int) -> dict:
    if not seat_games:
        return {"seat_games": 0, "a_game": 0.0, "won": 0.0, "usual": 0.0, "change": 0.0,
                "interval": [0.0, 0.0], "judged": False, "significant": False, "p": 1.0}
    seat_games = round(seat_games)
    won, usual = wins / seat_games, expected / seat_games
    spread = math.sqrt(variance)
    p = math.erfc(abs(wins - expected) / spread / math.sqrt(2)) if spread else \
        float(wins == expected)  # two-sided, normal
    half = Z95 * spread / seat_games
    return {"seat_games": seat_games, "a_game": seat_games / games, "won": won,
            "usual": usual, "change": won - usual,
            "interval": [won - usual - half, won - usual + half],
            "judged": seat_games >= TOO_RARE, "significant": False, "p": p}


def _tested(figure: dict) -> bool:
    """Whether a card figure is one of those the card verdict tests: judged, and not the
    same as an earlier figure of the card."""
    return figure["judged"] and not figure.get("same_as")


def _strength(entry: dict) -> float:
    """How far a seat that drew (else played, else held) the card wins above its usual;
    cards too rare to judge go last."""
    for event in EVENTS:
        if entry[event]["judged"]:
            return entry[event]["change"]
    return -2.0


def shown(figure: dict) -> str:
    """'won 62.5% of its games (the other cards 50.0%: +12.5 percentage points, 95%:
    +2.1 to +21.3)' or 'too rare to judge'.

    >>> shown(_figure(10, 5.0, 5.0, 2.5, 10))
    'too rare to judge (10 seat-games)'
    """
    if not figure["judged"]:
        return f"too rare to judge ({figure['seat_games']} seat-games)"
    low, high = figure["interval"]
    return (f"won {figure['won']:.1%} of its games (the other cards {figure['usual']:.1%}"
            f": {figure['change'] * 100:+.1f} percentage points, 95%: {low * 100:+.1f} to "
            f"{high * 100:+.1f})")


def card_verdict(cards: list[dict] | None, games: int) -> dict | None:
    """The cards that stand out beyond chance, each in one sentence, every judged figure
    (a card drawn, played or held) tested together; or, when none does, how many games a
    card that moved its seat's wins by EFFECT would need to be found. None when the game
    keeps no record of cards."""
    if cards is None:
        return None
    judged = [card[event] for card in cards for event in EVENTS if _tested(card[event])]
    sentences = []
    for card in cards:
        found = [event for event in EVENTS if card[event]["significant"]]
        if found:
            event = min(found, key=lambda e: card[e]["p"])
            sentences.append(_sentence(card["card"], event, card[event]))
    # where a seat's result is the same whichever of its cards it had (one player), no
    # figure has any spread: no number of games can find a card
    apart = any(figure["interval"][1] > figure["interval"][0] for figure in judged)
    return {"tested": len(judged), "games": games, "sentences": sentences,
            "needed": None if sentences or not judged or not apart else
            _games_needed(cards, games, len(judged))}


def _sentence(name: str, event: str, figure: dict) -> str:
    """'Silk Bolt: a seat that draws it wins 57.9% of its games, 7.8 percentage points
    more than a seat that draws another card in the same games (95%: +6.2 to +9.5)'."""
    low, high = figure["interval"]
    with_it, with_another = VERBS[event]
    return (f"{name}: a seat that {with_it} wins {figure['won']:.1%} of its games, "
            f"{abs(figure['change']) * 100:.1f} percentage points "
            f"{'more' if figure['change'] > 0 else 'less'} than a seat that {with_another} "
            f"in the same games (95%: {low * 100:+.1f} to {high * 100:+.1f})")


def _games_needed(cards: list[dict], games: int, tested: int) -> int:
    """About how many games would find, POWER of the time, a card drawn as often as the
    typical card whose seat's wins it moved by EFFECT, with ``tested`` figures tested
    together (a lone real effect must pass the strictest line, FALSE_DISCOVERIES/tested)."""
    drawn = sorted((card["drawn"] for card in cards if card["drawn"]["judged"]),
                   key=lambda figure: figure["a_game"]) or \
        [card[e] for card in cards for e in EVENTS if card[e]["judged"]]
    typical = drawn[len(drawn) // 2]
    rate = min(max(typical["usual"], 0.01), 0.99)
    normal = NormalDist()
    z = normal.inv_cdf(1 - FALSE_DISCOVERIES / (2 * tested)) + normal.inv_cdf(POWER)
    seat_games = z * z * rate * (1 - rate) / (EFFECT * EFFECT)
    return _round_up(seat_games / (typical["seat_games"] / games))


def _round_up(value: float) -> int:
    """``value`` rounded up to two significant figures: 12,345 -> 13,000."""
    step = 10 ** max(0, math.floor(math.log10(max(value, 1))) - 1)
    return int(math.ceil(value / step) * step)


def verdict_sentences(verdict: dict) -> list[str]:
    """The card verdict as the terminal and the report open with it."""
    together = f"{verdict['tested']} card figures tested together"
    if verdict["sentences"]:
        count = len(verdict["sentences"])
        return [f"{count} card{'s' * (count != 1)} stand{'s' * (count == 1)} out beyond "
                f"chance ({together}; at most 1 in 20 named by chance):",
                *verdict["sentences"]]
    if not verdict["tested"]:
        return [f"No card was drawn in {TOO_RARE} seat-games or more: too few games to "
                "judge the cards."]
    if verdict["needed"] is None:
        return [f"No card can stand out here ({together}): a seat's result is the same "
                "whichever cards it had in each game, so no number of games can tell one "
                "card from another."]
    return [f"No card stands out beyond chance in {verdict['games']:,} games ({together}); "
            f"a card that moved its seat's wins by {EFFECT * 100:.0f} percentage points "
            f"would need about {verdict['needed']:,} games to be found."]
