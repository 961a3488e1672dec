"""The batch audit on a Dask distributed cluster (optional extra ``pytest-coldstart[dask]``).

``connect("tcp://HOST:8786")`` joins an existing scheduler; ``connect("local")`` starts a
``distributed.LocalCluster`` on this machine (worker processes, loopback only, its
HTTP server on a free port). Either way the batch submits ``batch.audit_one`` through the client's
``concurrent.futures`` executor: the workers read the runs (and the audit cache) from the
path they all see, write each report and cache entry there, and send back only the small
``Outcome``. A worker that dies mid-run loses nothing: the scheduler runs its tasks again
elsewhere, and the atomic, locked cache write makes a repeated audit land on the same entry.
"""

from __future__ import annotations

import os
from typing import Any

from pytest_coldstart.run.errors import UsageError

#: How long to wait for a remote scheduler before giving up (seconds).
CONNECT_TIMEOUT = 30


class Connection:
    """A client (and the LocalCluster it started, if any); ``close`` ends both."""

    def __init__(self, client: Any, cluster: Any = None):
        self.client, self.cluster = client, cluster

    def get_executor(self) -> Any:
        # pure=False: Dask would otherwise hand a repeated (run, cache, target) task the result
        # it still holds from an earlier batch instead of asking the cache again.
        return self.client.get_executor(pure=False)

    def close(self) -> None:
        self.client.close()
        if self.cluster is not None:
            self.cluster.close()


def connect(scheduler: str, jobs: int | None = None) -> tuple[Connection, str]:
    """(connection, a description for the summary) for ``scheduler`` ("local" or an address)."""
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise UsageError("--scheduler needs Dask distributed: pip install 'pytest-coldstart[dask]'") from None
    if scheduler == "local":
        workers = jobs or os.cpu_count() or 1
        cluster = LocalCluster(  # type: ignore[no-untyped-call]
            n_workers=workers,
            threads_per_worker=1,
            processes=True,
            host="127.0.0.1",
            dashboard_address="127.0.0.1:0",  # its HTTP server (metrics) on a free loopback port: two clusters never clash
        )
        client = Client(cluster)  # type: ignore[no-untyped-call]
        return Connection(client, cluster), f"a local Dask cluster of {workers} worker processes"
    if "://" not in scheduler:
        raise UsageError(f"--scheduler {scheduler!r}: expected 'local' or an address such as tcp://HOST:8786")
    try:
        client = Client(scheduler, timeout=CONNECT_TIMEOUT)  # type: ignore[no-untyped-call]
    except (OSError, TimeoutError) as exc:
        raise UsageError(f"--scheduler {scheduler}: cannot connect ({exc})") from None
    workers = len(client.scheduler_info().get("workers", {}))
    return Connection(client), f"the Dask cluster at {scheduler} ({workers} workers)"
