"""One game of a run played to its end (:func:`play_one`): each seat's bot asked for its
move, seeing only what its seat sees, until the game is over; its :class:`Result`. A
mistake in a designer's rules becomes a message naming the game that shows it, and a game
that never ends is played again by the checker (:mod:`.check`) to say why.

Game ``i`` of a run draws its chance from ``Random(f"{seed}:{i}")`` and the bot in seat
``s`` from ``Random(f"{seed}:{i}:{s}")`` (:mod:`.runner` plays many, on workers).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from functools import lru_cache

from ..common.processes import TimeUp, time_limit
from ..rules.errors import RulesError
from ..toolkit import CardGame, Game, RandomBot, State
from ..toolkit.kept_outside import KeptOutside
from .rules_file import (BadOutcome, RulesFileError, check_outcome, designer_traceback,
                         error_text, kept_outside)
from .run_setup import Setup, game_of, new_bot, seat_bots

MAX_MOVES = 100_000  # a game still going after this many moves has a bug: say so
CHECKED_GAMES = 50  # a run's first games check every move against moves(); --check, all


@dataclass
class Result:
    """One finished game."""

    index: int
    returns: list[float]
    scores: list[float]
    moves: int  # moves made: each claim, answer and pass
    figures: dict = field(default_factory=dict)
    cards: list | None = None  # each seat's cards drawn, played and held (card_record())
    turns: int | None = None  # turns as the players count them (turns()); None: not counted
    seat_figures: list | None = None  # each seat's own figures (seat_figures())

    @property
    def length(self) -> int:
        """How long the game lasted as the players count it: turns, else moves."""
        return self.moves if self.turns is None else self.turns


class NeverEnds(RuntimeError):
    """A game that made MAX_MOVES moves without ending: a bug in the game or a bot."""


class NoLegalMove(RuntimeError):
    """A game that is not over offers the seat to play no move: a bug in the game."""


def play_one(setup: Setup, index: int, watch=None) -> Result:
    """Play game ``index`` of the run ``setup`` describes; ``watch(state, seat, move)``,
    if given, is told of each move before it is made. An error in a designer's rules
    raises RulesFileError with their traceback and the game that shows it."""
    game = game_of(setup)
    try:
        with time_limit(setup.game_timeout):
            rng = random.Random(f"{setup.seed}:{index}")
            if index < CHECKED_GAMES or not setup.rules_file:
                state = game.new_state(setup.players, rng, setup.cards)
            else:  # the run's first games have checked every move
                state = game.new_state(setup.players, rng, setup.cards, checking=False)
            return _play(game, state, setup, index, watch)
    except (RulesFileError, BrokenPipeError):  # the log's reader went away: not the rules'
        raise
    except TimeUp as exc:
        raise too_long(setup, index, exc) from None
    except (Exception, SystemExit) as exc:  # exit() in a rules file is a mistake too
        if not setup.rules_file:
            raise
        where = f"{game_named(setup, index)}, after {_moves_made(exc)} moves"
        if isinstance(exc, KeptOutside):
            raise kept_outside(exc, setup.rules_file) from None
        if isinstance(exc, RulesError) and exc.fix:  # the toolkit's refusal: what and fix
            raise RulesFileError(f"{where}: {exc.what}", exc.fix) from None
        if isinstance(exc, BadOutcome):
            raise RulesFileError(f"{where}: {exc}", exc.fix) from None
        if isinstance(exc, SystemExit):
            raise RulesFileError(f"{where}: the rules called exit({exc.code!r})",
                                 "end a game with self.end(); a rules file must not end "
                                 "the program", designer_traceback(exc, setup.rules_file)
                                 ) from None
        if isinstance(exc, NoLegalMove):
            raise RulesFileError(f"{where}: {exc}", "offer a move on every turn (a pass), or "
                                 "end the game") from None
        if isinstance(exc, NeverEnds):
            raise never_ends(setup, index, where) from None
        raise RulesFileError(f"{where}: {error_text(exc)}",
                             f"see the game with --seed {setup.seed} --log {index}",
                             designer_traceback(exc, setup.rules_file)) from None


def never_ends(setup: Setup, index: int, where: str) -> RulesFileError:
    """Game ``index`` made MAX_MOVES moves: the message says what ``--check``'s checks find
    in that game played with random moves (a card doubled, a move refused), if anything."""
    from .check import check_rules  # late: only a game that never ends is checked

    found = check_rules(setup, 1, first=index).defect
    cause = (f"; --check finds in this game with random moves, after {len(found.moves)} "
             f"move{'s' * (len(found.moves) != 1)}: {found.what}") if found else ""
    return RulesFileError(f"{where}: the game did not end within {MAX_MOVES:,} moves{cause}",
                          found.fix if found else "make sure every game ends: a last round, "
                          "an empty deck; add --check to check every move of random games")


def game_named(setup: Setup, index: int) -> str:
    """Game ``index`` of a run as messages name it: '.../rules.py: game 3 (seed 1)'."""
    return f"{setup.rules_file or setup.game}: game {index} (seed {setup.seed})"


def too_long(setup: Setup, index: int, stuck: BaseException | None = None) -> RulesFileError:
    """A game that ran past ``setup.game_timeout``: ``stuck`` is the TimeUp raised where
    it was (None when its worker had to be ended from outside)."""
    seconds = f"{setup.game_timeout:g} s"
    if stuck is None:
        what = f"{game_named(setup, index)}: the game did not end within {seconds} (its " \
               "worker process was ended)"
    else:
        what = (f"{game_named(setup, index)}, after {_moves_made(stuck)} moves: the game did "
                f"not end within {seconds}")
    detail = designer_traceback(stuck, setup.rules_file) if stuck and setup.rules_file else ""
    return RulesFileError(what, "look for a loop that never ends in the rules"
                          + (" (where it was is below)" if detail else "")
                          + "; if the games are only slow, give --game-timeout more seconds "
                          "(0: no bound)", detail)


def _play(game: Game, state: State, setup: Setup, index: int, watch) -> Result:
    specs = seat_bots(setup, index)
    rngs = [random.Random(f"{setup.seed}:{index}:{seat}") for seat in range(setup.players)]
    if not watch and _plain_card_game(type(state)) and all(
            game.bots[spec.name] is RandomBot and not spec.params for spec in specs):
        moves = _played_at_random(state, [rng.randrange for rng in rngs], setup, index)
        return _game_result(state, setup, index, moves)
    bots = [new_bot(game, spec) for spec in specs]
    # a bot that neither looks nor searches (random play) is asked without a word more:
    # this loop runs every move, and a game of many cheap decisions feels each step
    blind = [not bot.observes and not bot.searches and not watch for bot in bots]
    chooses = [bot.choose for bot in bots]
    is_over, current_player, legal_moves, apply = (state.is_over, state.current_player,
                                                   state.legal_moves, state.apply)
    moves = 0
    try:
        while not is_over():
            if moves == MAX_MOVES:
                raise NeverEnds(f"{setup.game} game {index} (seed {setup.seed}) made "
                                f"{MAX_MOVES:,} moves without ending")
            seat = current_player()
            legal = legal_moves()
            if not legal:
                raise NoLegalMove(f"seat {seat} has no legal move, but the game is not over")
            if blind[seat]:
                apply(chooses[seat](None, legal, rngs[seat]))
                moves += 1
                continue
            bot = bots[seat]
            seen = state.observation(seat) if bot.observes else None
            if bot.searches:  # samples of what the seat may believe, never the game itself
                move = bot.choose(seen, legal, rngs[seat], state.samples(seat))
            else:
                move = bot.choose(seen, legal, rngs[seat])
            if watch:
                watch(state, seat, move)
            apply(move)
            moves += 1
    except BaseException as exc:  # a timer's TimeUp too
        exc.moves_made = moves  # for the message: how far the game got
        raise
    return _game_result(state, setup, index, moves)


def _game_result(state: State, setup: Setup, index: int, moves: int) -> Result:
    """The finished game's Result."""
    try:  # what the report adds up, as the game gave it; a designer's checked
        if isinstance(state, CardGame) and not state.checking:
            state.refuse_undeclared()  # the rules keep only declared state: once, at the end
        checked, players = setup.rules_file, setup.players
        scores = state.scores()
        if checked:
            check_outcome("scores", scores, players)
        if isinstance(state, CardGame):  # scored once: its returns from these scores
            returns = state.returns_of(scores)
            checked_returns = checked and type(state).returns is not CardGame.returns
        else:
            returns, checked_returns = state.returns(), checked
        if checked_returns:  # the toolkit's own returns are a share a seat as they stand
            check_outcome("returns", returns, players)
        figures = state.figures()
        if checked:
            check_outcome("figures", figures, players)
        seat_figures = state.seat_figures()
        if checked and seat_figures is not None:
            check_outcome("seat_figures", seat_figures, players)
        return Result(index, list(returns), list(scores), moves, figures, state.card_record(),
                      state.turns(), seat_figures)
    except BaseException as exc:
        exc.moves_made = moves
        raise


def _played_at_random(state: CardGame, picks: list, setup: Setup, index: int) -> int:
    """Play ``state`` to its end, each seat's move chosen as :class:`RandomBot` chooses
    it (``picks[seat]``: its rng's randrange), without asking the bot: the moves a game
    of many cheap decisions makes feel every step of this loop. The moves made."""
    moves = 0
    try:
        if state.checking:  # each move checked against those offered
            offered, apply = state.offered_moves, state.apply
            while not state.ended and moves < MAX_MOVES:
                legal = offered()
                if not legal:
                    break
                apply(legal[picks[state.seat](len(legal))])
                moves += 1
        else:  # past the run's checked games: the toolkit's own loop, with no check
            moves = state.play_at_random(picks, MAX_MOVES)
        if not state.ended:
            if moves == MAX_MOVES:
                raise NeverEnds(f"{setup.game} game {index} (seed {setup.seed}) made "
                                f"{MAX_MOVES:,} moves without ending")
            raise NoLegalMove(f"seat {state.seat} has no legal move, but the game is not over")
    except BaseException as exc:
        if not hasattr(exc, "moves_made"):  # the toolkit's loop notes how far it got
            exc.moves_made = moves
        raise
    return moves


@lru_cache(maxsize=None)
def _plain_card_game(game: type) -> bool:
    """Whether ``game`` is a CardGame that keeps the toolkit's own turn order, moves and
    end (a rules file may write its own; then the runner asks it)."""
    return issubclass(game, CardGame) and all(
        getattr(game, name) is getattr(CardGame, name)
        for name in ("is_over", "current_player", "legal_moves"))


def _moves_made(exc: Exception) -> int:
    return getattr(exc, "moves_made", 0)
