"""Worker processes that end with the command that started them.

A process pool's workers wait for work from the process that started them. If that
process is killed (``kill -9``, a closed terminal), nothing tells them, and they would run
on with nobody to hand them work, holding their memory. Each worker started here looks
at its parent twice a second and exits as soon as it is gone.

Games from a designer's file may never end: :func:`time_limit` bounds the CPU time of one
in the process playing it (CPU time, so that a machine busy with other work slows a game
without ending it), :class:`WorkerSlots` tells the parent which job each worker has been
doing and how much CPU time it took since, and :meth:`WorkerPool.kill` ends the workers at
once (a stuck game, a second Ctrl-C, any error: a pool left with an exception does not
play out its queue). SIGTERM stops work as Ctrl-C does (:func:`sigterm_interrupts`), and
neither may land inside a pool's bookkeeping, where it can leave a lock taken for good
(:func:`deferred_interrupts`).
"""

from __future__ import annotations

import math
import multiprocessing
import os
import signal
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager

PARENT_CHECK = 0.5  # seconds between a worker's looks at its parent
WALL_TIMES = 10  # a run_limited child may wait this many times its CPU time on the clock


def pool_context():
    """The multiprocessing context of the pools: forked where the system can (workers
    start at once, with what the parent has imported); for the Events they share."""
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("fork" if "fork" in methods else "spawn")


class WorkerPool(ProcessPoolExecutor):
    """A process pool whose workers can be ended at once, their jobs undone."""

    def __exit__(self, kind, error, traceback):
        if kind is not None:  # the work was given up (an error, Ctrl-C): none of it is
            self.kill()       # wanted, and a worker may be stuck in it
        return super().__exit__(kind, error, traceback)

    def kill(self) -> None:
        """End every worker now (SIGKILL): the pool is broken from then on."""
        for process in self.processes():
            process.kill()

    def processes(self) -> list:
        """The worker processes (multiprocessing.Process), alive or ended."""
        return list((self._processes or {}).values())  # no public way before Python 3.14


def worker_pool(workers: int, initializer=None, initargs: tuple = ()) -> WorkerPool:
    """A pool of ``workers`` processes that exit when this process ends, however it ends;
    each runs ``initializer(*initargs)`` first."""
    return WorkerPool(workers, pool_context(), initializer=_start_worker,
                      initargs=(os.getpid(), initializer, initargs))


def leave_stopping_to_the_parent() -> None:
    """For a worker's initializer: Ctrl-C and a SIGTERM sent to the whole process group
    (``timeout``, a CI cancel) reach every worker too, and are the parent's to handle: it
    keeps what the workers finished, then ends them. A worker that died of the signal
    instead would break the pool under the parent, which could then neither tell the
    signal from a crash nor, at times, get past the pool's own bookkeeping."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)


class Terminated(KeyboardInterrupt):
    """SIGTERM (kill, a service manager, a CI cancel), raised where Ctrl-C would be, so
    that work stops the same way: soon, keeping what was finished."""


_terminated = False  # whether SIGTERM has stopped work in this process


def terminated() -> bool:
    """Whether SIGTERM stopped work in this process (see :func:`sigterm_interrupts`)."""
    return _terminated


def note_terminated() -> None:
    """Record that SIGTERM stopped work in this process (:func:`terminated`)."""
    global _terminated
    _terminated = True


@contextmanager
def sigterm_interrupts():
    """While the block (or the function it decorates) runs, SIGTERM raises
    :class:`Terminated` in the main thread, where it lands. Outside the main thread,
    SIGTERM is left as it is."""

    def interrupt(number, frame):
        note_terminated()
        raise Terminated

    try:
        before = signal.signal(signal.SIGTERM, interrupt)
    except ValueError:  # not the main thread: no handler can be set
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, before)


@contextmanager
def deferred_interrupts():
    """While the block runs, Ctrl-C and SIGTERM are noted, not raised where they land:
    raised inside a process pool's bookkeeping, an exception can leave a lock taken for
    good (a deadlock) or be lost. Yields ``pending()``, to call where stopping is safe:
    it raises KeyboardInterrupt (:class:`Terminated` for SIGTERM) for a signal noted and
    not yet raised. Ctrl-C ignored (a job started in the background) stays ignored."""
    noted: list[int] = []

    def note(number, frame):
        if number == signal.SIGTERM:
            note_terminated()
        noted.append(number)

    def pending() -> None:
        if noted:
            raise Terminated if noted.pop(0) == signal.SIGTERM else KeyboardInterrupt

    if threading.current_thread() is not threading.main_thread():
        yield pending
        return
    before = {number: signal.getsignal(number) for number in (signal.SIGINT, signal.SIGTERM)}
    for number, handler in before.items():
        if handler is not signal.SIG_IGN:
            signal.signal(number, note)
    try:
        yield pending
    finally:
        for number, handler in before.items():
            signal.signal(number, handler)


class TimeUp(BaseException):
    """Raised by :func:`time_limit` where the code was when its time ran out; not an
    Exception, so that code catching every error does not keep running."""


TICK = 0.1  # seconds between the looks of time_limits' clock: how late a bound may be
_deadline: float | None = None  # under time_limits: the main thread's CPU time to stop at
_clock = False  # whether time_limits' clock runs


def _time_up(number, frame):
    raise TimeUp("the time ran out here")


def _tick(number, frame):  # signal handlers run in the main thread: its CPU time
    if _deadline is not None and time.thread_time() > _deadline:
        raise TimeUp("the time ran out here")


def _timers() -> bool:
    return hasattr(signal, "setitimer") and \
        threading.current_thread() is threading.main_thread()


class time_limit:
    """Raise :class:`TimeUp` in the block once it has taken ``seconds`` of CPU time
    (SIGPROF; under :func:`time_limits`, the main thread's). No bound for None or 0,
    outside the main thread, or where there is no such timer. A class, not a generator:
    a run enters one a game, and games can take well under a millisecond."""

    __slots__ = ("seconds", "how", "before")

    def __init__(self, seconds: float | None):
        self.seconds = seconds
        self.how = None  # how the bound is kept: "clock" (time_limits'), "timer", or none

    def __enter__(self) -> None:
        global _deadline
        if not self.seconds or not _timers():
            return
        if _clock:
            self.how = "clock"
            _deadline = time.thread_time() + self.seconds
        else:
            self.how = "timer"
            self.before = signal.signal(signal.SIGPROF, _time_up)
            signal.setitimer(signal.ITIMER_PROF, self.seconds)

    def __exit__(self, *raised) -> None:
        global _deadline
        if self.how == "clock":
            _deadline = None
        elif self.how == "timer":
            signal.setitimer(signal.ITIMER_PROF, 0)
            signal.signal(signal.SIGPROF, self.before)


@contextmanager
def time_limits():
    """While the block (or the function it decorates) runs, a clock looks every TICK
    seconds whether a :func:`time_limit` has run out, so that each costs no system call:
    for many short jobs (a game can take under a millisecond)."""
    global _clock
    if _clock or not _timers():
        yield
        return
    before = signal.signal(signal.SIGALRM, _tick)
    signal.setitimer(signal.ITIMER_REAL, TICK, TICK)
    _clock = True
    try:
        yield
    finally:
        _clock = False
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, before)


class WorkerSlots:
    """What each worker of a pool is doing and how much CPU time it has taken, for its
    parent to see: a worker takes a slot in its initializer, marks each job it begins (two
    numbers saying which) and ends."""

    FIELDS = 4  # a slot: the worker's pid, the job's two numbers, its CPU time as it began

    def __init__(self, workers: int):
        context = pool_context()
        self._slots = context.Array("d", workers * self.FIELDS, lock=False)
        self._taken = context.Value("i", 0)
        self._mine = None  # in a worker: the first index of its slot

    def take(self) -> None:
        """In a worker's initializer: claim the next free slot."""
        with self._taken.get_lock():
            self._mine = self._taken.value * self.FIELDS
            self._taken.value += 1
        self._slots[self._mine] = os.getpid()

    def begin(self, first: int, second: int) -> None:
        if self._mine is not None:
            at = self._mine
            self._slots[at + 1], self._slots[at + 2] = first, second
            self._slots[at + 3] = time.process_time() or -1.0  # what _cpu_time reads; -1: 0

    def end(self) -> None:
        if self._mine is not None:
            self._slots[self._mine + 3] = 0

    def busy(self) -> list[tuple[int, tuple[int, int], float]]:
        """Each worker busy with a job: (its pid, the job's numbers, seconds of CPU
        time it took since it began)."""
        found = []
        for at in range(0, len(self._slots), self.FIELDS):
            pid, first, second, began = self._slots[at:at + self.FIELDS]
            if began:
                found.append((int(pid), (int(first), int(second)),
                              _cpu_time(int(pid)) - max(began, 0.0)))
        return found


def _cpu_time(pid: int) -> float:
    """The CPU time (user and system) process ``pid`` has taken, as the system counts it
    for every process (/proc/PID/stat, in clock ticks), so that a parent reads it of its
    worker; 0 where the system does not say (a process gone, no /proc)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            fields = stat.read().rsplit(b")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _start_worker(parent: int, initializer, initargs: tuple) -> None:
    # a forked worker inherits its parent's handler, which is for the parent's work
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    threading.Thread(target=_exit_when_orphaned, args=(parent,), daemon=True,
                     name="cardkit-parent-watch").start()
    if initializer is not None:
        initializer(*initargs)


def _exit_when_orphaned(parent: int) -> None:
    """A killed parent's children are handed to another process: the parent's id changes."""
    while os.getppid() == parent:
        time.sleep(PARENT_CHECK)
    os._exit(1)


class LimitExceeded(Exception):
    """A job run by :func:`run_limited` took too long, or ran out of the memory it was
    given (or ended without an answer, which a reader that aborts does)."""

    def __init__(self, limit: str):
        super().__init__(limit)
        self.limit = limit  # 'time' or 'memory'


class JobFailed(Exception):
    """A job run by :func:`run_limited` raised: ``kind`` is the exception's class name."""

    def __init__(self, kind: str, message: str):
        super().__init__(f"{kind}: {message}")
        self.kind, self.message = kind, message


def run_limited(function, args: tuple, seconds: float, memory: int):
    """``function(*args)`` run in a child process that may take ``seconds`` of CPU time
    (a busy machine slows it without failing it; WALL_TIMES as long on the clock, for a
    child that waits without working) and ``memory`` bytes of address space: for parsers
    of untrusted files written in other languages, which can hang or abort the whole
    process instead of raising. Returns what it returns (it must pickle); raises
    :class:`JobFailed` for what it raised and :class:`LimitExceeded` when it hung or
    died."""
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
    receive, send = context.Pipe(duplex=False)
    child = context.Process(target=_run_child, args=(send, seconds, memory, function, args),
                            daemon=True, name="cardkit-reader")
    child.start()
    send.close()
    try:
        if not receive.poll(seconds * WALL_TIMES):
            raise LimitExceeded("time")
        try:
            kind, value = receive.recv()
        except EOFError:  # it died without answering: out of CPU time, memory, or aborted
            child.join()
            raise LimitExceeded("time" if child.exitcode in (-signal.SIGXCPU, -signal.SIGKILL)
                                else "memory") from None
    finally:
        if child.is_alive():
            child.kill()
        child.join()
        receive.close()
    if kind == "raised":
        raise JobFailed(*value)
    return value


def _run_child(send, seconds: float, memory: int, function, args: tuple) -> None:
    try:
        import resource
        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
        cpu = math.ceil(seconds)  # SIGXCPU at the soft limit, SIGKILL a second after
        resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
    except (ImportError, ValueError, OSError):  # not on this system: the clock's bound stays
        pass
    if hasattr(signal, "alarm"):  # ends it even if its parent was killed meanwhile
        signal.alarm(int(seconds * WALL_TIMES) + 2)
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 2)  # a native library's crash report is not the user's to read
    try:
        send.send(("returned", function(*args)))
    except MemoryError:
        os._exit(1)
    except Exception as error:  # sent as text: a native library's exceptions may not pickle
        send.send(("raised", (type(error).__name__, str(error))))
