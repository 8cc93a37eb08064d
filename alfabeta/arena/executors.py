"""Where games run: a local process pool (the default), a Dask cluster, or the calling thread.

Each backend wraps a ``concurrent.futures.Executor`` and adds what a long run needs: a window
of games kept in flight, a restart after a worker died (local pools; Dask reschedules by
itself), and a teardown that stops the games in flight at once (Ctrl-C, a decided SPRT).

- ``None`` / ``"local"``: ``ProcessPoolExecutor`` with ``concurrency`` workers, started from a
  fork server that has alfabeta imported; workers ignore SIGINT, so Ctrl-C reaches only the
  driver, which then ends them.
- ``"dask://HOST:PORT"``: the Dask scheduler there (the ``dask`` extra).
- ``"dask-local:N"``: a Dask ``LocalCluster`` of N single-threaded worker processes on
  loopback.
- ``"serial"``: the calling thread (what a human player needs: the terminal).

A worker whose alfabeta version differs from the driver's is refused.
"""

from __future__ import annotations

import logging
import multiprocessing
import signal
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from typing import Any

from alfabeta.core import AlfabetaError, InvalidOptionError

WINDOW_PER_WORKER = 2  # games queued per worker: one playing, one ready to start


class ArenaError(AlfabetaError):
    """A run that cannot go on: workers of another version, a pool that keeps dying."""


def _ignore_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _version() -> str:
    from alfabeta import __version__

    return __version__


class SerialExecutor(Executor):
    """Runs each job in ``submit``, in the calling thread."""

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Future:
        """Run ``fn(*args, **kwargs)`` now and return a finished Future with its result or error."""
        future: Future = Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except BaseException as error:
            if isinstance(error, (KeyboardInterrupt, SystemExit)):
                raise
            future.set_exception(error)
        return future


class Backend:
    """An executor with the run's controls. ``window`` is how many games to keep in flight."""

    description = "serial"

    def __init__(self, executor: Executor, window: int) -> None:
        self.executor = executor
        self.window = window

    @property
    def in_process(self) -> bool:
        """True when jobs run in the driver's own process (with the driver's catalog)."""
        return isinstance(self.executor, SerialExecutor)

    def restart(self) -> bool:
        """Replace a broken executor; False when this backend cannot."""
        return False

    def terminate(self) -> None:
        """Stop now: pending games are cancelled and running ones abandoned."""
        self.executor.shutdown(wait=False, cancel_futures=True)

    def close(self) -> None:
        """Release the backend's workers."""
        self.executor.shutdown(wait=True)


class LocalBackend(Backend):
    """Games in a local process pool (forkserver), one worker per concurrent game."""

    def __init__(self, concurrency: int) -> None:
        self.concurrency = concurrency
        self.description = f"local process pool of {concurrency}"
        super().__init__(self._pool(), concurrency * WINDOW_PER_WORKER)

    def _pool(self) -> ProcessPoolExecutor:
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(["alfabeta.arena.jobs"])
        return ProcessPoolExecutor(self.concurrency, mp_context=context, initializer=_ignore_sigint)

    def restart(self) -> bool:
        """Replace a broken pool (a killed worker) with a fresh one; True when it could."""
        self.terminate()
        self.executor = self._pool()
        return True

    def terminate(self) -> None:
        """Stop the pool's workers without waiting for their games."""
        processes = list((getattr(self.executor, "_processes", None) or {}).values())
        self.executor.shutdown(wait=False, cancel_futures=True)
        for process in processes:  # Python < 3.14 has no public way to end running jobs
            if process.is_alive():
                process.terminate()
        for process in processes:
            process.join(5)


class DaskBackend(Backend):
    """Games on a Dask cluster (a scheduler address, or a local cluster), each a task; every worker
    must run the driver's alfabeta version."""

    def __init__(self, address: str | None, workers: int = 2) -> None:
        try:
            from distributed import Client, LocalCluster
        except ImportError:
            raise InvalidOptionError(
                "the dask executor needs the dask extra: pip install 'alfabeta[dask]'"
            ) from None
        self.cluster = None
        if address is None:
            self.cluster = LocalCluster(
                n_workers=workers,
                threads_per_worker=1,
                processes=True,
                host="127.0.0.1",
                dashboard_address=None,
                silence_logs=logging.ERROR,
            )
            self.client = Client(self.cluster)
            self.description = f"Dask LocalCluster of {workers}"
        else:
            try:
                self.client = Client(address, timeout="10s")
            except OSError as error:
                raise ArenaError(f"cannot reach the Dask scheduler at {address}: {error}") from None
            self.description = f"Dask cluster at {address}"
        versions = self.client.run(_version)
        ours = _version()
        strangers = {w: v for w, v in versions.items() if v != ours}
        if strangers:
            self.close()
            worker, version = next(iter(strangers.items()))
            raise ArenaError(
                f"Dask worker {worker} runs alfabeta {version}, this driver {ours}: install the "
                "same version on every worker"
            )
        size = max(1, len(versions))
        super().__init__(self.client.get_executor(pure=False), size * WINDOW_PER_WORKER)

    def terminate(self) -> None:
        """Stop handing out games without waiting for those running."""
        self.executor.shutdown(wait=False)

    def close(self) -> None:
        """Close the client, and the local cluster if this backend started one."""
        self.client.close()
        if self.cluster is not None:
            self.cluster.close()


def open_backend(spec: str | None, concurrency: int = 1) -> Backend:
    """The backend named by ``spec`` (see the module docstring)."""
    if isinstance(concurrency, bool) or not isinstance(concurrency, int) or concurrency < 1:
        raise InvalidOptionError(f"concurrency {concurrency!r}: expected a whole number >= 1")
    if spec in (None, "", "local"):
        return LocalBackend(concurrency)
    if spec == "serial":
        return Backend(SerialExecutor(), 1)
    if spec.startswith("dask://"):
        return DaskBackend("tcp://" + spec[len("dask://") :])
    if spec.startswith("dask-local"):
        _, _, count = spec.partition(":")
        try:
            workers = int(count) if count else concurrency
        except ValueError:
            workers = 0
        if workers < 1:
            raise InvalidOptionError(f"--executor {spec!r}: expected dask-local:N with N >= 1")
        return DaskBackend(None, workers)
    raise InvalidOptionError(
        f"--executor {spec!r}: expected local, serial, dask://HOST:PORT or dask-local:N"
    )
