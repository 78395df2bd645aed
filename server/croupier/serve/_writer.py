"""The competition server's store writer: one thread that runs every write of the store in
order, off the event loop, and commits the writes that queued up together in one transaction
(group commit): under load, one fsync serves a batch of matches created, started or finished,
instead of one each.

Each write's caller is answered only once the transaction holding its write has committed, so
an answer still means "on disk". A write that raises is undone alone (its own savepoint,
:meth:`ServerStore.group`) and its caller gets the exception; the others of its group commit.

A fault of SQLite itself fails a whole group: if the COMMIT fails, or SQLite rolls the group's
transaction back on a write's error (disk full, I/O error, out of memory), every caller of the
group gets a :class:`~croupier.errors.StoreError` (none is told its write is on disk) and the
writes left in the group do not run. If the thread is stopped by a ``BaseException`` (a
``KeyboardInterrupt`` or ``SystemExit`` raised in it, or by a write), its group is rolled back
and every caller waiting, queued or still to come gets a :class:`StoreError` at once: nobody
waits for a thread that is gone. Both are logged (``store_commit_failed``,
``store_writer_stopped``).
"""

from __future__ import annotations

import asyncio
import contextlib
import queue
import sqlite3
import threading
from collections.abc import Callable
from typing import Any, TypeVar

import structlog

from croupier.errors import StoreError
from croupier.serve._store import ServerStore

T = TypeVar("T")

#: Most writes committed together.
MAX_GROUP = 256

_Item = tuple[Callable[[], Any], asyncio.Future[Any]]
_Outcome = tuple[asyncio.Future[Any], Any, BaseException | None]


class StoreWriter:
    """Runs ``fn()`` for :meth:`write` in its thread on ``store``'s connection; see the module
    docstring. :meth:`close` lets the queued writes finish, then ends the thread."""

    def __init__(self, store: ServerStore) -> None:
        self._store = store
        self._queue: queue.SimpleQueue[_Item | None] = queue.SimpleQueue()
        self._loop = asyncio.get_running_loop()
        self._log = structlog.get_logger("croupier.serve")
        #: Held to queue a write, and to stop taking them: no write is queued once stopped.
        self._lock = threading.Lock()
        #: Why the thread has stopped, once it has (every later write raises it).
        self._stopped: StoreError | None = None
        #: Transactions committed so far, and the writes in them.
        self.commits = 0
        self.writes = 0
        self._thread = threading.Thread(target=self._run, name="croupier-store-write", daemon=True)
        self._thread.start()

    async def write(self, fn: Callable[[], T]) -> T:
        """Run ``fn`` (store writes, or anything that must follow the writes before it) after
        the writes before it; return its result once it is committed. :class:`StoreError` if
        it was not committed (see the module docstring)."""
        future: asyncio.Future[T] = self._loop.create_future()
        with self._lock:
            if self._stopped is not None:
                raise StoreError(str(self._stopped))
            self._queue.put((fn, future))
        return await future

    def close(self) -> None:
        """Finish the queued writes, then stop the thread (waits for it)."""
        self._queue.put(None)
        self._thread.join()

    def _run(self) -> None:
        group: list[_Item] = []
        #: The outcomes of a committed group, until they are handed to the loop.
        done: list[_Outcome] | None = None
        try:
            while True:
                item = self._queue.get()
                if item is None:
                    return
                group = [item]
                stop = False
                while len(group) < MAX_GROUP:
                    try:
                        more = self._queue.get_nowait()
                    except queue.Empty:
                        break
                    if more is None:
                        stop = True
                        break
                    group.append(more)
                done = self._commit(group)
                self._hand(done)
                group, done = [], None
                if stop:
                    return
        except BaseException as exc:  # the thread ends here: nobody may wait for it
            self._stop(exc, group, done)

    def _commit(self, group: list[_Item]) -> list[_Outcome]:
        store = self._store
        outcomes: list[_Outcome] = []
        try:
            with store.group():
                for fn, future in group:
                    if store.group_lost is not None:  # the rest would be undone too
                        break
                    try:
                        outcomes.append((future, fn(), None))
                    except sqlite3.OperationalError as exc:  # undone alone; SQLite's fault
                        outcomes.append((future, None, StoreError(f"{store.path}: {exc}")))
                    except Exception as exc:  # that write is undone; it is its caller's error
                        outcomes.append((future, None, exc))
        except Exception as exc:  # the group failed: nothing of it is written
            error = exc if isinstance(exc, StoreError) else None
            message = str(error or f"{store.path}: the commit failed: {exc}")
            self._log.error("store_commit_failed", error=message, writes=len(group))
            return [(future, None, StoreError(message)) for _, future in group]
        self.commits += 1
        self.writes += len(group)
        return outcomes

    def _hand(self, outcomes: list[_Outcome]) -> None:
        with contextlib.suppress(RuntimeError):  # the loop has closed: nobody waits any more
            self._loop.call_soon_threadsafe(_settle, outcomes)

    def _stop(self, exc: BaseException, group: list[_Item], done: list[_Outcome] | None) -> None:
        """The thread is ending on ``exc``: answer the group it held (its outcomes if it was
        committed, else the error), then every write queued, and refuse every later one."""
        stopped = StoreError(
            f"{self._store.path}: the store's writer stopped ({type(exc).__name__}"
            f"{': ' + str(exc) if str(exc) else ''}): the write is not stored"
        )
        with self._lock:
            self._stopped = stopped
        self._log.error("store_writer_stopped", error=str(stopped))
        failed: list[_Outcome] = [(f, None, stopped) for _, f in group]
        outcomes = done if done is not None else failed
        while True:  # no write is queued after _stopped is set (write() holds the lock)
            try:
                item = self._queue.get_nowait()
            except queue.Empty:
                break
            if item is not None:
                outcomes.append((item[1], None, stopped))
        self._hand(outcomes)


def _settle(outcomes: list[_Outcome]) -> None:
    for future, result, error in outcomes:
        if future.done():  # its caller was cancelled
            continue
        if error is not None:
            future.set_exception(error)
        else:
            future.set_result(result)
