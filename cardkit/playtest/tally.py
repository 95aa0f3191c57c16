"""A run's games added up as they come, so that memory stays flat however many are played.

A game is about 7 KB as a :class:`~cardkit.playtest.game_loop.Result` (its card record most of
all); a run keeps none of them. It keeps counts and sums, and how often each value came up
(a :class:`~collections.Counter` of lengths, scores, figures: a few dozen bytes a distinct
value, not a game), which is all the summary, the comparison and the plots need: a median
or a percentile is read off the counts exactly. games.csv's rows go to a temporary file.
"""

from __future__ import annotations

import pickle
import tempfile
from collections import Counter

from .game_loop import Result

EVENTS = ("drawn", "played", "held")


def is_number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


class FigureValues:
    """How often each value of one of the game's own figures came up."""

    def __init__(self):
        self.numbers: Counter = Counter()  # value -> games, for numbers
        self.others: Counter = Counter()  # str(value) -> games, for anything else
        self.only_none_besides = True  # no value but numbers and None

    def add(self, value) -> None:
        if is_number(value):
            self.numbers[value] += 1
        else:
            self.others[str(value)] += 1
            self.only_none_besides &= value is None

    @property
    def games(self) -> int:
        return self.numbers.total() + self.others.total()


class GameRows:
    """Each game of a run (without its card record) in a temporary file, in the order
    given: what games.csv is written from. The file has no name: it goes when the run
    does."""

    def __init__(self):
        self._file = tempfile.TemporaryFile()

    def add(self, results: list[Result]) -> None:
        pickle.dump([Result(r.index, r.returns, r.scores, r.moves, r.figures, None, r.turns,
                            r.seat_figures) for r in results], self._file)

    def __iter__(self):
        self._file.seek(0)
        while True:
            try:
                yield from pickle.load(self._file)
            except EOFError:
                return


class Tally:
    """What a run's games add up to so far; :meth:`add` each chunk of games as it comes.
    ``rows``, if given, keeps each game for games.csv; ``rotated``: the bots moved round
    the seats from game to game (see :func:`~cardkit.playtest.run_setup.seat_bots`)."""

    def __init__(self, players: int, rows: GameRows | None = None, rotated: bool = False):
        self.players, self.rows, self.rotated = players, rows, rotated
        self.games = self.decided = 0
        self.wins = [0.0] * players  # each seat's returns, summed
        self.bot_wins = [0.0] * players  # each bot's (by its place in --bots), summed
        self.lengths: Counter = Counter()  # Result.length -> games
        self.moves: Counter = Counter()
        self.turns: Counter = Counter()  # of the games that count turns
        self.scores = [Counter() for _ in range(players)]
        self.figures: dict[str, FigureValues] = {}  # in the order they first came up
        self.outcomes: Counter = Counter()  # outcome() -> games
        self.by_outcome: dict[str, dict[str, list]] = {}  # figure -> outcome -> [sum, games]
        self.seat_figured = 0  # games that keep each seat's figures
        self.winner_seats = self.other_seats = 0  # their seat-games that won, and did not
        # seat figure -> [winners' values, the others', each seat's sum]; a seat without
        # the figure counts 0, filled in at the end
        self.seat_figures: dict[str, list] = {}
        self.is_score: dict[str, bool] = {}  # seat figure -> equal to the seat's score so far
        self.card_games = 0  # games that keep a record of cards
        # (card, event) -> [seat-games that did so with it, their wins, the wins the game's
        # other cards give them, the variance of the difference]: see _add_cards
        self.cards: dict[tuple, list] = {}

    def add(self, results: list[Result]) -> None:
        for result in results:
            self._add(result)
        if self.rows is not None:
            self.rows.add(results)

    def _add(self, r: Result) -> None:
        self.games += 1
        for seat, share in enumerate(r.returns):
            self.wins[seat] += share
            self.bot_wins[(seat + r.index) % self.players if self.rotated else seat] += share
            self.scores[seat][r.scores[seat]] += 1
        self.decided += any(r.returns)
        self.lengths[r.length] += 1
        self.moves[r.moves] += 1
        if r.turns is not None:
            self.turns[r.turns] += 1
        won = outcome(r, self.players)
        self.outcomes[won] += 1
        for name, value in r.figures.items():
            self.figures.setdefault(name, FigureValues()).add(value)
            tally = self.by_outcome.setdefault(name, {}).setdefault(won, [0, 0])
            if is_number(value):
                tally[0] += value
            tally[1] += 1
        if r.seat_figures:
            self.seat_figured += 1
            for seat, (share, seat_figures) in enumerate(zip(r.returns, r.seat_figures)):
                self.winner_seats += share > 0
                self.other_seats += share <= 0
                for name, value in seat_figures.items():
                    won_values, other_values, by_seat = self.seat_figures.setdefault(
                        name, [Counter(), Counter(), [0] * self.players])
                    (won_values if share > 0 else other_values)[value] += 1
                    by_seat[seat] += value
                    self.is_score[name] = self.is_score.get(name, True) and \
                        value == r.scores[seat]
        if r.cards is not None:
            self.card_games += 1
            for event in EVENTS:
                self._add_cards(event, [(record[event], share)
                                        for record, share in zip(r.cards, r.returns)])

    def _add_cards(self, event: str, seats: list) -> None:
        """One game's cards in ``event`` (drawn...), each seat's with its return: each card
        set against the game's other card-slots (a slot: a card a seat did so with, taking
        that seat's return). If the card were like any other, its slots would be a random
        few of the game's, and its wins would be the slots' mean times its slots, with the
        variance of drawing that many slots without replacement (a stratum of
        Cochran-Mantel-Haenszel's test, the game the stratum)."""
        slots = sum(len(names) for names, _ in seats)
        if not slots:
            return
        won = sum(len(names) * y for names, y in seats)
        spread = (slots * sum(len(names) * y * y for names, y in seats) - won * won) / slots ** 2
        mine: dict = {}  # card -> [its slots, their wins]
        for names, y in seats:
            for name in names:
                found = mine.setdefault(name, [0, 0.0])
                found[0] += 1
                found[1] += y
        for name, (count, wins) in mine.items():
            sums = self.cards.setdefault((name, event), [0, 0.0, 0.0, 0.0])
            sums[0] += count
            sums[1] += wins
            sums[2] += count * won / slots
            if slots > 1:
                sums[3] += count * (slots - count) / (slots - 1) * spread

    @property
    def turns_counted(self) -> bool:
        """Every game counts turns as its players do."""
        return bool(self.games) and self.turns.total() == self.games


def outcome(result: Result, players: int) -> str:
    """What happened in a game: 'seat 2 won', 'tied', 'nobody won'; alone 'won', 'lost'."""
    won = [seat for seat, share in enumerate(result.returns) if share > 0]
    if players == 1:
        return "won" if won else "lost"
    return "nobody won" if not won else f"seat {won[0]} won" if len(won) == 1 else "tied"


def tally_of(results, players: int, rotated: bool = False) -> Tally:
    """``results`` as a Tally: a Tally as it is, a list of Results added up."""
    if isinstance(results, Tally):
        return results
    tally = Tally(players, rotated=rotated)
    tally.add(results)
    return tally
