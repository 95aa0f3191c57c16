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

One game is played by :mod:`.game_loop`; this module hands chunks of games to workers,
watches the workers and stops them (Ctrl-C, SIGTERM, a game past its time), which share one
protocol (play_range, the workers' slots, Stopped).
"""

from __future__ import annotations

import threading
import time
from collections import deque
from concurrent.futures import CancelledError
from concurrent.futures.process import BrokenProcessPool
from itertools import islice

from ..common.processes import (WorkerSlots, deferred_interrupts, leave_stopping_to_the_parent,
                                pool_context, sigterm_interrupts, time_limits, worker_pool)
from .game_loop import Result, game_named, play_one, too_long
from .rules_file import RulesFileError
from .run_setup import Setup

CHUNK = 50  # games a worker plays per task: enough to amortise the hand-off
WATCH_EVERY = 0.25  # seconds between the parent's looks at its workers while it waits
KILL_AFTER = 1.5  # a game still going after this many times its bound, and KILL_GRACE
KILL_GRACE = 1.0  # seconds more (its worker's timer is late by a tick at most): ended
WINDOW = 3  # chunks a worker handed out at a time: enough to keep it busy, few to hold
STOP_GRACE = 2.0  # seconds a stopped run waits for its games under way, then ends them


_stopping = None  # in a worker process: the Event its parent sets on Ctrl-C
_slots = None  # in a worker process: where it tells its parent which game it plays


def _start_worker(stopping, slots: WorkerSlots) -> None:
    global _stopping, _slots
    leave_stopping_to_the_parent()  # Ctrl-C and SIGTERM: the parent sets ``stopping``
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
            raise watch.lost() from None


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
    yet taken; ``check()`` is called while waiting (see _result). On Ctrl-C: with this
    machine's workers (``stopping``), tasks under way end after their current game and
    are taken, unless a second Ctrl-C comes first, and tasks not begun end with none; with
    another executor, tasks not begun are cancelled and those done are taken."""
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
        if stopping is not None:  # tasks not begun end at once, with no games: none is
            stopping.set()        # cancelled, as Python 3.11's pool, killed later, fails on
            check = _checks(check, _given_up_after(STOP_GRACE))  # a cancelled one
        else:
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

    def lost(self) -> RulesFileError:
        """What to say when a worker process died (``os._exit()``, a crash, killed): the
        game it was playing, or the lowest numbered of them if several did."""
        died = {process.pid: process.exitcode for process in self.pool.processes()
                if process.exitcode is not None}  # the others live on, SIGTERM ignored
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
