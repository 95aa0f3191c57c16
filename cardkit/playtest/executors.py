"""Where the games are played: worker processes on this machine (the default), or a Dask
cluster when one machine is not enough (``--executor dask://HOST:PORT``, or the
``CARDKIT_EXECUTOR`` environment variable).

The runner hands out plain data (a :class:`~cardkit.playtest.run_setup.Setup` and a range of
game numbers) and takes back plain results, so a cluster plays the very same games as this
machine for the same seed. Each worker needs cardkit installed (``pip install
'cardkit[dask]'``) and, for a designer's game, the rules file at the same path.

A cluster is waited for at most ``seconds`` (``--executor-timeout``): to answer at all (an
address where something else listens never does), and, during a run, to have a worker.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from contextlib import contextmanager

ENV = "CARDKIT_EXECUTOR"
SCHEME = "dask://"
TIMEOUT = 30.0  # seconds to wait for a cluster to answer, or to have a worker again
LOOK_EVERY = 0.25  # seconds between looks at the cluster's workers, however often asked


class ExecutorError(Exception):
    """An executor that cannot be used: what went wrong and how to fix it."""

    def __init__(self, what: str, fix: str):
        super().__init__(what)
        self.what, self.fix, self.detail = what, fix, ""  # detail: as RulesFileError's


@contextmanager
def executor_for(address: str | None, seconds: float = TIMEOUT):
    """A :class:`Cluster` for ``address`` ('dask://HOST:PORT') while the block runs, or
    None (this machine's processes) for no address.

    >>> with executor_for(None) as executor:
    ...     executor is None
    True
    """
    if not address:
        yield None
        return
    if not address.startswith(SCHEME) or len(address) == len(SCHEME):
        raise ExecutorError(f"--executor {address}: not a Dask scheduler's address",
                            f"give {SCHEME}HOST:PORT (the scheduler prints its port, "
                            "8786 by default)")
    try:
        import distributed  # noqa: F401 (only to say what to install)
    except ImportError:
        raise ExecutorError("the Dask executor needs dask.distributed, which is not "
                            "installed", "pip install 'cardkit[dask]'") from None
    client = _connect(address, seconds)
    with client:
        yield Cluster(client, address, seconds)


def _connect(address: str, seconds: float):
    """A Dask client for ``address``, or ExecutorError after ``seconds``: Dask's own
    timeout bounds the connection, not the wait for a scheduler's answer, so it is made
    aside (a thread left behind, if it hangs, ends with the command)."""
    from distributed import Client

    made: dict = {}

    def connect():
        try:
            made["client"] = Client("tcp://" + address[len(SCHEME):], timeout=seconds)
        except Exception as error:
            made["error"] = error

    thread = threading.Thread(target=connect, daemon=True, name="cardkit-dask-connect")
    thread.start()
    thread.join(seconds + 1)  # Dask's timeout first, when it is the one that applies
    if "client" in made:
        return made["client"]
    why = made.get("error") or f"no answer in {seconds:g} s"
    raise ExecutorError(f"no Dask scheduler answers at {address} ({why})",
                        "start one with 'dask scheduler' and workers with 'dask worker "
                        "HOST:PORT', or check the address (--executor-timeout sets how long "
                        "to wait)")


class Cluster:
    """A Dask client as the runner uses it: ``submit(play_range, setup, start, stop)``,
    and ``check()`` while it waits, which raises ExecutorError once the cluster has had
    no worker (or no scheduler) for ``seconds``, saying how many games were played."""

    def __init__(self, client, address: str, seconds: float):
        self.client, self.address, self.seconds = client, address, seconds
        self.submitted: deque = deque()  # (future, games it plays), not yet counted
        self.played = 0  # games of the futures finished and counted
        self.idle_since: float | None = None
        self.looked = 0.0  # when check() last asked the scheduler

    def submit(self, function, setup, start: int, stop: int):
        future = self.client.submit(function, setup, start, stop)
        self._count_finished()
        self.submitted.append((future, stop - start))
        return future

    def nthreads(self) -> dict:
        """The cluster's workers and their threads, as Dask's client says."""
        return self.client.nthreads()

    def _count_finished(self) -> None:
        """Count the games of the futures finished, and let them go: what is kept stays
        as small as the runner's window, however many games."""
        for entry in list(self.submitted):
            if entry[0].status == "finished":
                self.played += entry[1]
                self.submitted.remove(entry)

    def check(self) -> None:
        if time.monotonic() - self.looked < LOOK_EVERY:
            return
        self.looked = time.monotonic()
        try:
            working = self.client.status == "running" and bool(
                self.client.nthreads(callback_timeout=self.seconds))
        except (OSError, TimeoutError):  # the scheduler does not answer
            working = False
        now = time.monotonic()
        if working or self.idle_since is None:
            self.idle_since = None if working else now
            return
        if now - self.idle_since >= self.seconds:
            self._count_finished()
            raise ExecutorError(f"the Dask cluster at {self.address} has had no worker for "
                                f"{self.seconds:g} s; {self.played:,} games were played",
                                "start workers with 'dask worker HOST:PORT' and run again, "
                                "or give --executor-timeout more seconds")
