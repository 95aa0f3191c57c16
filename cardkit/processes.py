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


def worker_pool(workers: int, initializer=None, initargs: tuple = ()) -> ProcessPoolExecutor:
    """A pool of ``workers`` processes that exit when this process ends, however it ends;
    each runs ``initializer(*initargs)`` first. Workers are forked where the system can
    (they start at once, with what the parent has imported)."""
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
    return ProcessPoolExecutor(workers, context, initializer=_start_worker,
                               initargs=(os.getpid(), initializer, initargs))


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
