"""Measuring the arbiter's own lag, so that no bot is charged for time the arbiter lost.

A :class:`LagMonitor` wakes up every :data:`TICK_S`; a wake-up later than that by more than
:data:`STALL_S` means the event loop did not run for a while (the process was stopped or starved,
a garbage collection, a long encode, another match's work). Each such stall is kept as an
interval, and :meth:`LagMonitor.between` tells how much of a decision's time fell inside one,
counting a stall still going on (no tick for too long) up to now.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib

#: How often the monitor looks at the clock.
TICK_S = 0.02
#: A tick this much later than due counts as arbiter lag (scheduling noise is below it).
STALL_S = 0.01
#: Stalls remembered (older ones end long before any pending decision began).
KEEP = 256


class LagMonitor:
    """Records the intervals in which the event loop stalled; start it once per match."""

    def __init__(self) -> None:
        self._stalls: collections.deque[tuple[float, float]] = collections.deque(maxlen=KEEP)
        self._last = 0.0
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        loop = asyncio.get_running_loop()
        self._last = loop.time()
        self._task = loop.create_task(self._tick())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def _tick(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(TICK_S)
            now = loop.time()
            due = self._last + TICK_S
            if now - due > STALL_S:
                self._stalls.append((due, now))
            self._last = now

    def between(self, start: float, end: float) -> float:
        """Seconds of arbiter stall inside ``[start, end]`` (``end`` is usually now)."""
        if self._task is None:
            return 0.0
        intervals = list(self._stalls)
        due = self._last + TICK_S
        if end - due > STALL_S:  # stalled right now: the tick has not run yet
            intervals.append((due, end))
        return sum(max(0.0, min(b, end) - max(a, start)) for a, b in intervals)
