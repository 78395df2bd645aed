"""What makes a server's stream handlers stop waiting at once when it closes: every wait of
theirs is a timeout scope (:meth:`ClosingGate.unless_closing`) or a future
(:meth:`ClosingGate.until_woken`) that closing ends, so none is cancelled mid-wait at shutdown."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from croupier.transport._sessions import Closing


class ClosingGate:
    """The closing state of a server (``BotServicer`` is one) and its pending waits."""

    def __init__(self) -> None:
        self._closing: asyncio.Event | None = None
        self._waits: set[asyncio.Timeout] = set()  # the pending waits closing interrupts
        self._wakers: set[asyncio.Future[None]] = set()  # ... and the futures it resolves

    def _closing_event(self) -> asyncio.Event:
        if self._closing is None:
            self._closing = asyncio.Event()
        return self._closing

    @property
    def closing(self) -> bool:
        """Whether the server is shutting down (:meth:`end_waits` was called)."""
        return self._closing_event().is_set()

    def end_waits(self) -> None:
        """Start closing: every pending wait ends now, as if timed out, every waker resolved."""
        self._closing_event().set()
        now = asyncio.get_running_loop().time()
        for scope in list(self._waits):
            scope.reschedule(now)
        for waker in list(self._wakers):
            if not waker.done():
                waker.set_result(None)

    async def unless_closing(
        self,
        awaitable: Any,
        timeout: float | None = None,
        on_scope: Callable[[asyncio.Timeout], None] | None = None,
    ) -> Any:
        """Await ``awaitable`` (TimeoutError after ``timeout``), or raise :class:`Closing`.

        The wait is a timeout scope that closing makes expire at once (and that ``on_scope`` is
        handed): no task is started per wait (a stream waits for every message it sends)."""
        closing = self._closing_event()
        if closing.is_set():
            if asyncio.iscoroutine(awaitable):
                awaitable.close()  # never started
            raise Closing
        try:
            async with asyncio.timeout(timeout) as scope:
                self._waits.add(scope)
                if on_scope is not None:
                    on_scope(scope)
                try:
                    return await awaitable
                finally:
                    self._waits.discard(scope)
        except TimeoutError:
            if closing.is_set():
                raise Closing from None
            raise

    async def until_woken(self, waker: asyncio.Future[None]) -> None:
        """Await ``waker``, which closing resolves at once (then :attr:`closing` is true), or
        raise :class:`Closing` if closing has begun. No timeout scope: a session's writer waits
        so between every two writes."""
        if self.closing:
            raise Closing
        self._wakers.add(waker)
        try:
            await waker
        finally:
            self._wakers.discard(waker)


__all__ = ["ClosingGate"]
