"""Play games with bots, in parallel, reproducibly.

Game ``i`` of a run draws its chance from ``Random(f"{seed}:{i}")`` and the bot in seat
``s`` from ``Random(f"{seed}:{i}:{s}")``, so a game depends only on the seed and its index:
the same seed gives the same games whatever the number of worker processes. A worker gets
a :class:`Setup` (plain data) and a range of indexes, and returns plain results, so any
executor that can pickle them could take the work.

A game may take ``Setup.game_timeout`` seconds of CPU time (in the process that plays it,
where it can set a timer; CPU time, so that a busy machine slows a game without ending it);
with worker processes, the parent also ends a worker whose game takes half as long again
(and a second), and names the game of a worker that died.

Why one module: playing a game, handing chunks of them to workers, watching the workers
and stopping (Ctrl-C, SIGTERM, a game past its time) share one protocol (Setup,
play_range, the workers' slots, Stopped); split, each part would need the others' insides.
"""

from __future__ import annotations

import random
import signal
import threading
import time
from collections import deque
from concurrent.futures import CancelledError
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import islice

from ..common.processes import (TimeUp, WorkerSlots, deferred_interrupts, ignore_interrupt,
                                pool_context, sigterm_interrupts, time_limit, time_limits,
                                worker_pool)
from ..games import load_game
from ..rules.errors import RulesError
from ..toolkit import CardGame, Game, RandomBot, State
from ..toolkit.game import KeptOutside
from ..toolkit.search import SearchBot
from ..toolkit.state import param_text
from .rules_file import (BadOutcome, RulesFileError, check_outcome, designer_traceback,
                         error_text, kept_outside, load_rules)

MAX_MOVES = 100_000  # a game still going after this many moves has a bug: say so
CHECKED_GAMES = 50  # a run's first games check every move against moves(); --check, all
CHUNK = 50  # games a worker plays per task: enough to amortise the hand-off
WATCH_EVERY = 0.25  # seconds between the parent's looks at its workers while it waits
KILL_AFTER = 1.5  # a game still going after this many times its bound, and KILL_GRACE
KILL_GRACE = 1.0  # seconds more (its worker's timer is late by a tick at most): ended
WINDOW = 3  # chunks a worker handed out at a time: enough to keep it busy, few to hold
STOP_GRACE = 2.0  # seconds a stopped run waits for its games under way, then ends them
SIGNAL_GRACE = 1.0  # seconds for this process's own SIGTERM to come after its workers'


@dataclass(frozen=True)
class BotSpec:
    """A bot by name, with parameters that differ from its defaults."""

    name: str
    params: tuple[tuple[str, float | str], ...] = ()  # a word names a bot (playout=heuristic)

    def __str__(self) -> str:
        return self.name + (":" + ",".join(f"{k}={param_text(v)}" for k, v in self.params)
                            if self.params else "")


def new_bot(game: Game, spec: BotSpec):
    """The bot ``spec`` names, for ``game``: cardkit's search bot is told the game's bots,
    for playouts by one of them (``playout=heuristic``); any other bot, a designer's
    searching one too, is made from its parameters alone. Raises RulesError for a bad
    parameter."""
    made = game.bots[spec.name]
    params = dict(spec.params)
    return made(bots=game.bots, **params) if issubclass(made, SearchBot) else made(**params)


@dataclass(frozen=True)
class Setup:
    """Everything that decides a run's games, except which of them to play."""

    game: str
    players: int
    seed: int
    bots: tuple[BotSpec, ...]  # one a seat
    cards: object = None  # a designer's deck, from the game's cards_from_deck; None: bundled
    rules_file: str | None = None  # a designer's game: its rules file (``game`` names the deck)
    game_timeout: float | None = None  # seconds of CPU time a game may take; None: no bound
    rotate: bool = False  # the bots move round the seats from game to game (seat_bots)
    constants: tuple = ()  # (name, value) set in a designer's rules file: a sweep's point


def seat_bots(setup: Setup, index: int) -> tuple[BotSpec, ...]:
    """Each seat's bot in game ``index``: as ``setup.bots`` gives them, or rotated, seat
    ``s`` taking bot ``(s + index) % players``, which depends on the game alone (the same
    under any workers).

    >>> two = Setup("blofa", 2, 1, (BotSpec("heuristic"), BotSpec("random")), rotate=True)
    >>> [str(bot) for bot in seat_bots(two, 1)]
    ['random', 'heuristic']
    """
    if not setup.rotate:
        return setup.bots
    return tuple(setup.bots[(seat + index) % setup.players] for seat in range(setup.players))


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


def game_of(setup: Setup) -> Game:
    """The game a run plays: a bundled one by name, or the designer's rules file."""
    return load_rules(setup.rules_file, setup.constants) if setup.rules_file else \
        load_game(setup.game)


def play_one(setup: Setup, index: int, watch=None) -> Result:
    """Play game ``index`` of the run ``setup`` describes; ``watch(state, seat, move)``,
    if given, is told of each move before it is made. An error in a designer's rules
    raises RulesFileError with their traceback and the game that shows it."""
    game = game_of(setup)
    try:
        with time_limit(setup.game_timeout):
            state = game.new_state(setup.players, random.Random(f"{setup.seed}:{index}"),
                                   setup.cards)
            if index >= CHECKED_GAMES and isinstance(state, CardGame):
                state.checking = False  # the run's first games have checked every move
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
    from .check import check_rules  # check plays its games through this module

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
    try:
        given = {}  # what the report adds up, as the game gave it; a designer's checked
        for method in ("scores", "returns", "figures", "seat_figures"):  # returns uses scores
            given[method] = state.returns_of(given["scores"]) if method == "returns" and \
                isinstance(state, CardGame) else getattr(state, method)()  # scored once
            if setup.rules_file:
                check_outcome(method, given[method], setup.players)
        return Result(index, list(given["returns"]), list(given["scores"]), moves,
                      given["figures"], state.card_record(), state.turns(),
                      given["seat_figures"])
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


_stopping = None  # in a worker process: the Event its parent sets on Ctrl-C
_slots = None  # in a worker process: where it tells its parent which game it plays


def _start_worker(stopping, slots: WorkerSlots) -> None:
    global _stopping, _slots
    ignore_interrupt()  # Ctrl-C is the parent's to handle: it sets ``stopping``
    _stopping, _slots = stopping, slots
    slots.take()
    time_limits().__enter__()  # for the worker's life: it plays games only


def play_range(setup: Setup, start: int, stop: int) -> list[Result]:
    """Games ``start`` .. ``stop``-1; in a worker, those played before its parent stops
    the run."""
    found = []
    try:
        for index in range(start, stop):
            if _stopping is not None and _stopping.is_set():
                break
            if _slots is not None:
                _slots.begin(setup.seed, index)
            found.append(play_one(setup, index))
    finally:  # a game that failed is not under way any more
        if _slots is not None:
            _slots.end()
    return found


class Stopped(Exception):
    """Ctrl-C stopped a run: ``finished`` holds what was done by then (for play_runs, each
    run's finished games in game order)."""

    def __init__(self, finished):
        super().__init__("stopped")
        self.finished = finished


def play_many(setup: Setup, games: int, workers: int = 1, on_done=None,
              executor=None) -> list[Result]:
    """Play games 0 .. games-1; ``on_done(n)`` is told after each n finished games. The
    results come back in game order, whatever the workers. ``executor`` (anything with
    ``submit``, such as a Dask client) plays them instead of this machine's processes.
    Ctrl-C raises :class:`Stopped` with the games finished by then. Every result is kept:
    for a long run, :func:`play_into` a Tally."""
    try:
        return play_runs([setup], games, workers, on_done, executor)[0]
    except Stopped as stop:
        raise Stopped(stop.finished[0]) from None


def play_runs(setups: list[Setup], games: int, workers: int = 1, on_done=None,
              executor=None) -> list[list[Result]]:
    """Play games 0 .. games-1 of every run in ``setups``, as :func:`play_into`, keeping
    each run's results in game order. Ctrl-C raises :class:`Stopped` with each run's
    finished games."""
    found: list[list[Result]] = [[] for _ in setups]
    try:
        play_into(setups, games, lambda run, start, chunk: found[run].extend(chunk), workers,
                  on_done, executor)
    except Stopped:
        raise Stopped([sorted(results, key=lambda r: r.index) for results in found]) from None
    return found


@sigterm_interrupts()  # SIGTERM stops a run as Ctrl-C does
def play_into(setups: list[Setup], games: int, take, workers: int = 1, on_done=None,
              executor=None) -> None:
    """Play games 0 .. games-1 of every run in ``setups`` (a sweep's points, a
    comparison's two decks) side by side: their games are shared among the workers at
    once, a chunk of each run in turn. ``take(run, start, results)`` is given each chunk
    of CHUNK games from ``start`` as it is played, in game order for each run, and the
    chunk is not kept: memory stays flat however many games. At most WINDOW chunks a
    worker are handed out at a time.

    Ctrl-C (or SIGTERM): the chunks under way are taken as far as they got (those not
    begun, empty; those still going after STOP_GRACE seconds, ended), then :class:`Stopped`
    is raised (its ``finished`` None)."""
    tasks = ((run, start, min(start + CHUNK, games))  # made as handed out: none kept
             for start in range(0, games, CHUNK) for run in range(len(setups)))
    try:
        if executor is not None:
            with deferred_interrupts() as interrupted:
                return _gather(executor, setups, tasks, take, on_done,
                               WINDOW * _capacity(executor, workers),
                               check=_checks(interrupted, getattr(executor, "check", None)))
        if workers <= 1 or games <= CHUNK and len(setups) == 1:
            return _play_here(setups, tasks, take, on_done)
        with deferred_interrupts() as interrupted:
            return _play_on_pool(setups, tasks, take, workers, on_done, interrupted)
    except KeyboardInterrupt:  # before the first game was awaited
        raise Stopped(None) from None


def in_step(take, runs: int):
    """A ``take`` for :func:`play_into` that waits until every one of ``runs`` runs has
    played the chunk from the same start, then gives ``take(start, chunks)`` their chunks
    together (in run order), each cut to the games all of them finished: runs compared
    game by game (a comparison Ctrl-C stopped) keep the same games, paired by index."""
    held: dict[int, dict] = {}  # start -> run -> its chunk

    def taking(run: int, start: int, chunk: list[Result]) -> None:
        chunks = held.setdefault(start, {})
        chunks[run] = chunk
        if len(chunks) == runs:
            del held[start]
            common = min(map(len, chunks.values()))  # a chunk is its first games
            take(start, [chunks[each][:common] for each in sorted(chunks)])
    return taking


def _capacity(executor, workers: int) -> int:
    """How many tasks ``executor`` plays at once: a Dask cluster's threads, else
    ``workers``."""
    threads = getattr(executor, "nthreads", None)
    return max(1, sum(threads().values())) if callable(threads) else max(1, workers)


def _play_on_pool(setups: list[Setup], tasks, take, workers: int, on_done,
                  interrupted) -> None:
    """The tasks played by this machine's worker processes, watched (see _Watch);
    ``interrupted()`` raises for a Ctrl-C or SIGTERM received meanwhile."""
    stopping, slots = pool_context().Event(), WorkerSlots(workers)
    with worker_pool(workers, _start_worker, (stopping, slots)) as pool:
        watch = _Watch(pool, slots, setups)
        try:
            return _gather(pool, setups, tasks, take, on_done, WINDOW * workers, stopping,
                           _checks(interrupted, watch.check))
        except BrokenProcessPool:
            if watch.all_terminated():  # SIGTERM to the whole group: this process's own too
                _wait_for_signal(interrupted)
            raise watch.lost() from None


def _wait_for_signal(interrupted) -> None:
    """Raise :class:`Stopped` if a Ctrl-C or SIGTERM comes within SIGNAL_GRACE seconds
    (``interrupted()`` raises for one noted)."""
    deadline = time.monotonic() + SIGNAL_GRACE
    try:
        while time.monotonic() < deadline:
            interrupted()
            time.sleep(0.02)
    except KeyboardInterrupt:
        raise Stopped(None) from None


@time_limits()
def _play_here(setups: list[Setup], tasks, take, on_done) -> None:
    for run, start, stop in tasks:
        chunk = []
        try:
            for index in range(start, stop):
                chunk.append(play_one(setups[run], index))
        except KeyboardInterrupt:
            take(run, start, chunk)
            raise Stopped(None) from None
        take(run, start, chunk)
        if on_done:
            on_done(len(chunk))


def _gather(executor, setups: list[Setup], tasks, take, on_done, window: int,
            stopping=None, check=None) -> None:
    """Each task's games, taken in order, with at most ``window`` tasks submitted and not
    yet taken; ``check()`` is called while waiting (see _result). On Ctrl-C: tasks not
    begun are cancelled; with this machine's workers (``stopping``), those under way end
    after their current game and are taken, unless a second Ctrl-C comes first; with
    another executor, those done are taken."""
    queued = iter(tasks)
    waiting: deque = deque()  # (run, start, future), in task order

    def submit():
        for run, start, stop in islice(queued, window - len(waiting)):
            waiting.append((run, start, executor.submit(play_range, setups[run], start,
                                                        stop)))

    try:
        submit()
        while waiting:
            run, start, future = waiting[0]
            chunk = _result(future, check)
            waiting.popleft()
            take(run, start, chunk)
            if on_done:
                on_done(len(chunk))
            submit()
    except KeyboardInterrupt:
        if stopping is not None:
            stopping.set()
            check = _checks(check, _given_up_after(STOP_GRACE))
        for _, _, future in waiting:
            future.cancel()
        try:
            for run, start, future in waiting:
                take(run, start, _finished(future, stopping is not None, check))
        except (KeyboardInterrupt, _GivenUp):  # a second Ctrl-C, or games still going
            if stopping is not None:       # STOP_GRACE after the first: given up
                executor.kill()
        raise Stopped(None) from None


class _GivenUp(BaseException):
    """The games under way when a run was stopped did not end within STOP_GRACE."""


def _given_up_after(seconds: float):
    """A check that raises :class:`_GivenUp` once ``seconds`` have passed (wall time: how
    long the user waits for a stop)."""
    deadline = time.monotonic() + seconds

    def check():
        if time.monotonic() > deadline:
            raise _GivenUp
    return check


def _finished(future, wait: bool, check=None) -> list[Result]:
    """A task's games once it is done (``wait``: for it to end, calling ``check()``
    meanwhile), none if it did not run or failed."""
    try:
        return _result(future, check) if wait or future.done() else []
    except (Exception, CancelledError):  # cancelled, or failed: nothing finished
        return []


def _checks(*checks):
    """One check that makes each of ``checks`` (None: none) in turn."""
    def check():
        for each in checks:
            if each is not None:
                each()
    return check


def _result(future, check=None):
    """What ``future`` gives, calling ``check()`` every WATCH_EVERY seconds while it is
    not done: it raises to stop waiting (a game past its time, a cluster gone). Waits on
    its done callback, which both kinds of future have (a Dask future's result() with a
    short timeout, called again and again, can fail by itself)."""
    if check is not None:
        check()  # at each result too: a Ctrl-C noted while results come in fast
        if not future.done():
            done = threading.Event()
            future.add_done_callback(lambda _: done.set())
            while not done.wait(WATCH_EVERY):
                check()
    return future.result()


class _Watch:
    """A parent's eye on its worker processes (which game each plays, since when)."""

    def __init__(self, pool, slots: WorkerSlots, setups: list[Setup]):
        self.pool, self.slots, self.setups = pool, slots, setups

    def check(self) -> None:
        """End the workers and raise RulesFileError if a game has taken KILL_AFTER times
        its bound of CPU time and KILL_GRACE more: its worker could not stop it (a loop in
        code that no timer reaches)."""
        for _, (seed, index), seconds in self.slots.busy():
            setup = self._setup(seed)
            if setup.game_timeout and \
                    seconds > KILL_AFTER * setup.game_timeout + KILL_GRACE:
                self.pool.kill()
                raise too_long(setup, index)

    def all_terminated(self) -> bool:
        """Whether every worker process ended, each by SIGTERM (sent to the whole
        process group: ``timeout``, a CI cancel)."""
        processes = self.pool.processes()
        for process in processes:
            process.join(SIGNAL_GRACE)
        return bool(processes) and all(process.exitcode == -signal.SIGTERM
                                       for process in processes)

    def lost(self) -> RulesFileError:
        """What to say when a worker process died (``os._exit()``, a crash, killed): the
        game it was playing, or the lowest numbered of them if several did."""
        processes = self.pool.processes()
        for process in processes:  # the pool ends the others (SIGTERM) once one has died
            process.join(5)
        died = {process.pid: process.exitcode for process in processes
                if process.exitcode != -signal.SIGTERM}
        busy = sorted((index, seed, pid) for pid, (seed, index), _ in self.slots.busy())
        playing = [game for game in busy if game[2] in died] or busy
        if not playing:
            first = self.setups[0]
            return RulesFileError(f"{first.rules_file or first.game}: a worker process ended "
                                  "between games", "see whether the machine ran out of "
                                  "memory, or play with --workers 1")
        index, seed, pid = playing[0]
        setup, code = self._setup(seed), died.get(pid)
        how = "" if code is None else f" (killed by signal {-code})" if code < 0 else \
            f" (exit code {code})"  # None: reaped by the pool before it was read
        return RulesFileError(f"{game_named(setup, index)}: the worker process playing it "
                              f"ended{how} before the game did",
                              "look for os._exit() or what else ends a process in the "
                              "rules, or see whether the machine ran out of memory; see the "
                              f"game with --seed {setup.seed} --log {index}")

    def _setup(self, seed: float) -> Setup:
        """The run whose seed a worker gave (a float in the slots)."""
        return next((setup for setup in self.setups if float(setup.seed) == seed),
                    self.setups[0])
