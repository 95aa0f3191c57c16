"""Worker processes that end with the command that started them.

A process pool's workers wait for work from the process that started them. If that
process is killed (``kill -9``, a closed terminal), nothing tells them, and they would run
on with nobody to hand them work, holding their memory. Each worker started here looks
at its parent twice a second and exits as soon as it is gone.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
import time
from concurrent.futures import ProcessPoolExecutor

PARENT_CHECK = 0.5  # seconds between a worker's looks at its parent


def pool_context():
    """The multiprocessing context of the pools: forked where the system can (workers
    start at once, with what the parent has imported); for the Events they share."""
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("fork" if "fork" in methods else "spawn")


def worker_pool(workers: int, initializer=None, initargs: tuple = ()) -> ProcessPoolExecutor:
    """A pool of ``workers`` processes that exit when this process ends, however it ends;
    each runs ``initializer(*initargs)`` first."""
    return ProcessPoolExecutor(workers, pool_context(), initializer=_start_worker,
                               initargs=(os.getpid(), initializer, initargs))


def ignore_interrupt() -> None:
    """For a worker's initializer: Ctrl-C reaches the whole process group, and it is the
    parent's to handle (it keeps what the workers finished)."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _start_worker(parent: int, initializer, initargs: tuple) -> None:
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
    """``function(*args)`` run in a child process that may take ``seconds`` and ``memory``
    bytes of address space: for parsers of untrusted files written in other languages,
    which can hang or abort the whole process instead of raising. Returns what it returns
    (it must pickle); raises :class:`JobFailed` for what it raised and
    :class:`LimitExceeded` when it hung or died."""
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
    receive, send = context.Pipe(duplex=False)
    child = context.Process(target=_run_child, args=(send, seconds, memory, function, args),
                            daemon=True, name="cardkit-reader")
    child.start()
    send.close()
    try:
        if not receive.poll(seconds):
            raise LimitExceeded("time")
        try:
            kind, value = receive.recv()
        except EOFError:  # it died without answering: killed for its memory, or aborted
            raise LimitExceeded("memory") from None
    finally:
        if child.is_alive():
            child.kill()
        child.join()
        receive.close()
    if kind == "raised":
        raise JobFailed(*value)
    return value


def _run_child(send, seconds: float, memory: int, function, args: tuple) -> None:
    import signal

    try:
        import resource
        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    except (ImportError, ValueError, OSError):  # not on this system: the time bound stays
        pass
    if hasattr(signal, "alarm"):  # ends it even if its parent was killed meanwhile
        signal.alarm(int(seconds) + 2)
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 2)  # a native library's crash report is not the user's to read
    try:
        send.send(("returned", function(*args)))
    except MemoryError:
        os._exit(1)
    except Exception as error:  # sent as text: a native library's exceptions may not pickle
        send.send(("raised", (type(error).__name__, str(error))))
