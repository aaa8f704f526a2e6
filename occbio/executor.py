"""Where the heavy work of a stage runs: here (with local worker processes) or on Dask.

Two shapes of work, the same under both executors:

* :meth:`ordered_map`: a function over a stream one reader produces (the pages of a dump),
  results in input order, memory bounded. The text stage cleans pages this way; locally in
  spawned processes (:class:`OrderedPool`), on Dask in batches sent to the workers ("one reader
  feeds the workers").
* :meth:`run_tasks`: independent tasks whose results come back as they finish (the align
  stage's shards of people). Large read-only data every task needs (the language background
  samples) is sent to each worker once, not with every task. A task that fails raises here; a
  worker that dies has its task run again elsewhere (Dask's ``retries``).

The caller writes every result to the run directory itself, so workers need no shared
filesystem, and the output cannot depend on which executor ran the tasks or in what order they
finished.
"""

from __future__ import annotations

import collections
import contextlib
import logging
import multiprocessing
import os
import re
import shutil
import tempfile
from collections.abc import Callable, Iterable, Iterator, Mapping
from itertools import islice
from pathlib import Path
from typing import Any, Protocol, TypeVar

__all__ = [
    "DaskExecutor",
    "Executor",
    "ExecutorUnavailable",
    "LazyExecutor",
    "LocalExecutor",
    "OrderedPool",
    "WORKERS_PER_CORE",
    "max_workers",
    "open_executor",
    "remove_scratch_leftovers",
    "resolve_workers",
]

log = logging.getLogger(__name__)
T = TypeVar("T")
R = TypeVar("R")


#: occbio's scratch folders in a run directory: a local Dask cluster's (:class:`DaskExecutor`)
#: and matplotlib's (:mod:`occbio.report.chart`), each ``.NAME-`` and mkdtemp's 8 characters.
_SCRATCH = re.compile(r"\.(dask|matplotlib)-[a-z0-9_]{8}")


def remove_scratch_leftovers(folder: Path) -> None:
    """Remove the scratch folders a killed run left in ``folder`` (the run directory, which the
    caller holds: no live occbio process uses them). Only folders named as occbio names them,
    never through a link."""
    with contextlib.suppress(OSError):
        for entry in os.scandir(folder):
            if _SCRATCH.fullmatch(entry.name) and entry.is_dir(follow_symlinks=False):
                shutil.rmtree(entry.path, ignore_errors=True)
                log.info("removed %s, a killed run's scratch folder", entry.path)


class ExecutorUnavailable(RuntimeError):
    """The executor asked for cannot run here (a missing package, an unreachable scheduler)."""


#: Worker processes per CPU core at most: more only queue up for the same cores (and a huge
#: ``--workers`` would spawn until the machine stops).
WORKERS_PER_CORE = 4


def max_workers() -> int:
    """The most worker processes a run may ask for on this machine."""
    return WORKERS_PER_CORE * (os.cpu_count() or 1)


def resolve_workers(workers: int) -> int:
    """``0`` means one worker per CPU core available to this process."""
    if workers > 0:
        return workers
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


class OrderedPool:
    """``map(fn, items)`` over worker processes, results in input order, memory bounded.

    Items are handed out ``batch * workers`` at a time, so a dump of any size never queues up
    in memory. With one worker everything runs in this process (easy to debug and profile).
    Workers are spawned, not forked (the parent may hold threads, e.g. progress bars), once
    per stage: each loads what ``initializer`` loads (a model) once.
    """

    def __init__(
        self,
        workers: int,
        initializer: Callable[..., None],
        initargs: tuple[object, ...] = (),
        *,
        batch: int = 64,
    ) -> None:
        self.workers = workers
        self.batch = batch
        self._pool = None
        if workers <= 1:
            initializer(*initargs)
        else:
            ctx = multiprocessing.get_context("spawn")
            self._pool = ctx.Pool(workers, initializer=initializer, initargs=initargs)

    def map(self, fn: Callable[[T], R], items: Iterable[T]) -> Iterator[R]:
        if self._pool is None:
            yield from map(fn, items)
            return
        it = iter(items)
        size = self.batch * self.workers
        while block := list(islice(it, size)):
            yield from self._pool.imap(
                fn, block, chunksize=max(1, len(block) // (self.workers * 4))
            )

    def __enter__(self) -> OrderedPool:
        return self

    def __exit__(self, *exc: object) -> None:
        if self._pool is not None:
            self._pool.terminate()
            self._pool.join()
            # the pool's queues hold named semaphores (/dev/shm/sem.mp-*), unlinked when the
            # pool is collected: now, not when the process exits
            self._pool = None


class _Mapper(Protocol):
    def map(self, fn: Callable[[T], R], items: Iterable[T]) -> Iterator[R]: ...

    def __enter__(self) -> Any: ...

    def __exit__(self, *exc: object) -> None: ...


class Executor(Protocol):
    """What the stages ask of an executor."""

    name: str
    workers: int

    def ordered_map(
        self, initializer: Callable[..., None], initargs: tuple[object, ...], *, small: bool
    ) -> _Mapper: ...

    def run_tasks(
        self,
        fn: Callable[..., R],
        tasks: Iterable[Any],
        *,
        shared: Mapping[str, Any] | None = None,
    ) -> Iterator[R]: ...

    def close(self) -> None: ...


class LocalExecutor:
    """This machine: page cleaning in ``workers`` spawned processes, tasks in this process.

    Tasks run here because the encoder they call uses every core on its own (threads); a
    second copy of the model per process would only share the same cores.
    """

    name = "local"

    def __init__(self, workers: int = 0) -> None:
        self.workers = resolve_workers(workers)
        self._chosen = workers

    def ordered_map(
        self, initializer: Callable[..., None], initargs: tuple[object, ...], *, small: bool
    ) -> OrderedPool:
        # Spawning workers costs about a second: left to choose, a few items run here.
        workers = 1 if small and self._chosen == 0 else self.workers
        return OrderedPool(workers, initializer, initargs)

    def run_tasks(
        self,
        fn: Callable[..., R],
        tasks: Iterable[Any],
        *,
        shared: Mapping[str, Any] | None = None,
    ) -> Iterator[R]:
        for task in tasks:
            yield fn(task, **(shared or {}))

    def close(self) -> None:
        return None


# -- Dask ---------------------------------------------------------------------------------------

#: Initializers already run in this (worker) process, by (function, arguments).
_initialized: set[tuple[str, str]] = set()


def _call_batch(
    fn: Callable[[T], R],
    initializer: Callable[..., None],
    initargs: tuple[object, ...],
    items: list[T],
) -> list[R]:
    """Runs on a Dask worker: the initializer once per process, then ``fn`` over the batch."""
    key = (f"{initializer.__module__}.{initializer.__qualname__}", repr(initargs))
    if key not in _initialized:
        initializer(*initargs)
        _initialized.add(key)
    return [fn(item) for item in items]


class _DaskOrderedMap:
    """Batches of items to the workers, results back in input order, a bounded window."""

    def __init__(
        self,
        client: Any,
        workers: int,
        initializer: Callable[..., None],
        initargs: tuple[object, ...],
        batch: int,
    ) -> None:
        self.client = client
        self.window = 2 * workers
        self.initializer = initializer
        self.initargs = initargs
        self.batch = batch

    def map(self, fn: Callable[[T], R], items: Iterable[T]) -> Iterator[R]:
        it = iter(items)
        pending: collections.deque[Any] = collections.deque()
        try:
            while True:
                while len(pending) < self.window and (block := list(islice(it, self.batch))):
                    pending.append(
                        self.client.submit(
                            _call_batch, fn, self.initializer, self.initargs, block, pure=False
                        )
                    )
                if not pending:
                    return
                future = pending.popleft()
                yield from future.result()
                future.release()
        finally:
            if pending:
                self.client.cancel(list(pending))

    def __enter__(self) -> _DaskOrderedMap:
        return self

    def __exit__(self, *exc: object) -> None:
        return None


class DaskExecutor:
    """A Dask cluster: the scheduler at ``scheduler``, else a ``LocalCluster`` of ``workers``
    single-threaded worker processes on this machine, whose scratch files (spilled data, locks)
    go to a temporary folder in ``scratch`` (the run directory; the system's temporary folder
    when ``None``), removed at :meth:`close`."""

    name = "dask"

    def __init__(
        self,
        scheduler: str | None = None,
        workers: int = 0,
        *,
        retries: int = 2,
        scratch: Path | None = None,
    ) -> None:
        logger = logging.getLogger("distributed")
        level = logger.level
        try:
            import dask
            from distributed import Client, LocalCluster
        except ImportError:
            raise ExecutorUnavailable(
                "--executor dask needs Dask's distributed scheduler: "
                "pip install 'dask[distributed]'"
            ) from None
        finally:  # importing distributed sets its loggers to INFO: the caller chose already
            logger.setLevel(level)
        self.retries = retries
        self._cluster = None
        self._scratch: tempfile.TemporaryDirectory[str] | None = None
        if scheduler:
            try:
                self.client = Client(scheduler, timeout="10s")
            except (OSError, TimeoutError) as exc:
                raise ExecutorUnavailable(
                    f"cannot reach the Dask scheduler at {scheduler} ({exc})"
                ) from None
        else:
            if scratch is not None:
                scratch.mkdir(parents=True, exist_ok=True)
            # a kill leaves it: the next run in ``scratch`` removes it (remove_scratch_leftovers)
            self._scratch = tempfile.TemporaryDirectory(prefix=".dask-", dir=scratch)
            # the scheduler's and the workers' dask-scratch-space (else in $TMPDIR, left there)
            with dask.config.set({"temporary-directory": self._scratch.name}):
                self._cluster = LocalCluster(
                    n_workers=resolve_workers(workers),
                    threads_per_worker=1,
                    processes=True,
                    dashboard_address=None,
                    # no dashboard, and the scheduler's HTTP endpoint on a free loopback port,
                    # not 0.0.0.0:8787 (taken by another cluster, or open to the network)
                    scheduler_kwargs={"dashboard_address": "127.0.0.1:0"},
                    # a task's failure reaches the client through its future; what the
                    # workers log themselves is shutdown noise (a heartbeat racing the
                    # scheduler's close on a busy machine), printed as a traceback
                    silence_logs=logging.CRITICAL,
                    local_directory=self._scratch.name,
                )
            self.client = Client(self._cluster)
        self.workers = max(1, len(self.client.scheduler_info().get("workers", {})))
        log.info("executor: Dask, %d worker(s) at %s", self.workers, self.client.scheduler.address)

    def ordered_map(
        self, initializer: Callable[..., None], initargs: tuple[object, ...], *, small: bool
    ) -> _DaskOrderedMap:
        return _DaskOrderedMap(self.client, self.workers, initializer, initargs, batch=64)

    def run_tasks(
        self,
        fn: Callable[..., R],
        tasks: Iterable[Any],
        *,
        shared: Mapping[str, Any] | None = None,
    ) -> Iterator[R]:
        from distributed import as_completed

        # Each shared value goes to every worker once; tasks refer to it by its future. Its key is
        # this call's own (hash=False): a key from the value's hash is the same in the next call
        # with the same value, and this call's release, arriving after the next call's scatter,
        # would drop the data under the next call's tasks ("lost dependencies").
        scattered = {
            key: self.client.scatter([value], broadcast=True, hash=False)[0]
            for key, value in (shared or {}).items()
        }
        it = iter(tasks)
        running = as_completed()
        inflight: set[Any] = set()

        def submit(task: Any) -> None:
            future = self.client.submit(fn, task, **scattered, pure=False, retries=self.retries)
            inflight.add(future)
            running.add(future)

        try:
            for task in islice(it, 2 * self.workers):
                submit(task)
            for future in running:
                inflight.discard(future)
                result = future.result()
                future.release()
                for task in islice(it, 1):
                    submit(task)
                yield result
        finally:
            if inflight:
                self.client.cancel(list(inflight))
            for future in scattered.values():
                future.release()

    def close(self) -> None:
        self.client.close()
        if self._cluster is not None:
            self._cluster.close()
        if self._scratch is not None:
            self._scratch.cleanup()


def open_executor(
    kind: str, *, scheduler: str | None = None, workers: int = 0, scratch: Path | None = None
) -> Executor:
    """The executor a run asked for (``local`` or ``dask``); ``scratch``: where a local Dask
    cluster's scratch folder goes (the run directory)."""
    if kind == "dask":
        return DaskExecutor(scheduler, workers, scratch=scratch)
    if scheduler:
        raise ExecutorUnavailable("--scheduler needs --executor dask")
    return LocalExecutor(workers)


class LazyExecutor:
    """The run's executor, opened when a stage first has work for it (a cluster takes seconds
    to start, and a run whose stages are all done needs none), closed by the caller."""

    def __init__(
        self,
        kind: str,
        *,
        scheduler: str | None = None,
        workers: int = 0,
        scratch: Path | None = None,
    ) -> None:
        if scheduler and kind != "dask":
            raise ExecutorUnavailable("--scheduler needs --executor dask")
        self.name = kind
        self._args = (kind, scheduler, workers, scratch)
        self._executor: Executor | None = None

    def _get(self) -> Executor:
        if self._executor is None:
            kind, scheduler, workers, scratch = self._args
            self._executor = open_executor(
                kind, scheduler=scheduler, workers=workers, scratch=scratch
            )
        return self._executor

    @property
    def workers(self) -> int:
        return self._get().workers

    def ordered_map(
        self, initializer: Callable[..., None], initargs: tuple[object, ...], *, small: bool
    ) -> _Mapper:
        return self._get().ordered_map(initializer, initargs, small=small)

    def run_tasks(
        self,
        fn: Callable[..., R],
        tasks: Iterable[Any],
        *,
        shared: Mapping[str, Any] | None = None,
    ) -> Iterator[R]:
        return self._get().run_tasks(fn, tasks, shared=shared)

    def close(self) -> None:
        if self._executor is not None:
            self._executor.close()
            self._executor = None

    def __enter__(self) -> LazyExecutor:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
