"""The competition server's store writer: one thread that runs every write of the store in
order, off the event loop, and commits the writes that queued up together in one transaction
(group commit): under load, one fsync serves a batch of matches created, started or finished,
instead of one each.

Each write's caller is answered only once the transaction holding its write has committed, so
an answer still means "on disk". A write that raises is undone alone (its own savepoint,
:meth:`ServerStore.group`) and its caller gets the exception; the others of its group commit.
"""

from __future__ import annotations

import asyncio
import contextlib
import queue
import threading
from collections.abc import Callable
from typing import Any, TypeVar

from croupier.ladder._server_store import ServerStore

T = TypeVar("T")

#: Most writes committed together.
MAX_GROUP = 256

_Item = tuple[Callable[[], Any], asyncio.Future[Any]]


class StoreWriter:
    """Runs ``fn()`` for :meth:`write` in its thread on ``store``'s connection; see the module
    docstring. :meth:`close` lets the queued writes finish, then ends the thread."""

    def __init__(self, store: ServerStore) -> None:
        self._store = store
        self._queue: queue.SimpleQueue[_Item | None] = queue.SimpleQueue()
        self._loop = asyncio.get_running_loop()
        #: Transactions committed so far, and the writes in them.
        self.commits = 0
        self.writes = 0
        self._thread = threading.Thread(target=self._run, name="croupier-store-write", daemon=True)
        self._thread.start()

    async def write(self, fn: Callable[[], T]) -> T:
        """Run ``fn`` (store writes, or anything that must follow the writes before it) after
        the writes before it; return its result once it is committed."""
        future: asyncio.Future[T] = self._loop.create_future()
        self._queue.put((fn, future))
        return await future

    def close(self) -> None:
        """Finish the queued writes, then stop the thread (waits for it)."""
        self._queue.put(None)
        self._thread.join()

    def _run(self) -> None:
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
            self._commit(group)
            if stop:
                return

    def _commit(self, group: list[_Item]) -> None:
        outcomes: list[tuple[asyncio.Future[Any], Any, BaseException | None]] = []
        try:
            with self._store.group():
                for fn, future in group:
                    try:
                        outcomes.append((future, fn(), None))
                    except Exception as exc:  # that write is undone; it is its caller's error
                        outcomes.append((future, None, exc))
        except Exception as exc:  # the commit failed: nothing of the group is written
            outcomes = [(future, None, exc) for _, future in group]
        else:
            self.commits += 1
            self.writes += len(group)
        with contextlib.suppress(RuntimeError):  # the loop has closed: nobody waits any more
            self._loop.call_soon_threadsafe(_settle, outcomes)


def _settle(outcomes: list[tuple[asyncio.Future[Any], Any, BaseException | None]]) -> None:
    for future, result, error in outcomes:
        if future.done():  # its caller was cancelled
            continue
        if error is not None:
            future.set_exception(error)
        else:
            future.set_result(result)
