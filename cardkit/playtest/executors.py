"""Where the games are played: worker processes on this machine (the default), or a Dask
cluster when one machine is not enough (``--executor dask://HOST:PORT``, or the
``CARDKIT_EXECUTOR`` environment variable).

The runner hands out plain data (a :class:`~cardkit.playtest.runner.Setup` and a range of
game numbers) and takes back plain results, so a cluster plays the very same games as this
machine for the same seed. Each worker needs cardkit installed (``pip install
'cardkit[dask]'``) and, for a designer's game, the rules file at the same path.
"""

from __future__ import annotations

from contextlib import contextmanager

ENV = "CARDKIT_EXECUTOR"
SCHEME = "dask://"


class ExecutorError(Exception):
    """An executor that cannot be used: what went wrong and how to fix it."""

    def __init__(self, what: str, fix: str):
        super().__init__(what)
        self.what, self.fix = what, fix


@contextmanager
def executor_for(address: str | None):
    """A Dask client for ``address`` ('dask://HOST:PORT') while the block runs, or None
    (this machine's processes) for no address.

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
        from distributed import Client
    except ImportError:
        raise ExecutorError("the Dask executor needs dask.distributed, which is not "
                            "installed", "pip install 'cardkit[dask]'") from None
    where = "tcp://" + address[len(SCHEME):]
    try:
        client = Client(where, timeout="10s")
    except (OSError, TimeoutError) as error:
        raise ExecutorError(f"no Dask scheduler answers at {address} ({error})",
                            "start one with 'dask scheduler' and workers with 'dask "
                            "worker HOST:PORT', or check the address") from None
    with client:
        yield client
