"""Measuring the arbiter's own lag, so that no bot is charged for time the arbiter lost.

One ticker per event loop wakes up every :data:`TICK_S` while any match on that loop runs; a
wake-up later than that by more than :data:`STALL_S` means the event loop did not run for a while
(the process was stopped or starved, a garbage collection, a long encode, another match's work).
Each such stall is kept as an interval, and :meth:`LagMonitor.between` tells how much of a
decision's time fell inside one, counting a stall still going on (no tick for too long) up to now.

Every match holds a :class:`LagMonitor`; the monitors of the matches on one loop share its
ticker (the stalls are the loop's, whichever match looks), so a loop hosting many matches wakes
up :data:`TICK_S` apart, not once per match per tick.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import weakref

#: How often the ticker looks at the clock.
TICK_S = 0.02
#: A tick this much later than due counts as arbiter lag (scheduling noise is below it).
STALL_S = 0.01
#: Stalls remembered (older ones end long before any pending decision began).
KEEP = 256


class _Ticker:
    """The loop's stalls, recorded by one task while at least one monitor uses it."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        #: ``(due, seen)`` intervals, in time order and disjoint (each starts after the last).
        self.stalls: collections.deque[tuple[float, float]] = collections.deque(maxlen=KEEP)
        self.last = loop.time()
        self.users = 0
        self.task: asyncio.Task[None] | None = None

    async def tick(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(TICK_S)
            now = loop.time()
            due = self.last + TICK_S
            if now - due > STALL_S:
                self.stalls.append((due, now))
            self.last = now


_TICKERS: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Ticker] = (
    weakref.WeakKeyDictionary()
)


class LagMonitor:
    """The stalls of the event loop a match runs on; :meth:`start` it once per match and
    :meth:`stop` it at the end."""

    def __init__(self) -> None:
        self._ticker: _Ticker | None = None

    def start(self) -> None:
        loop = asyncio.get_running_loop()
        ticker = _TICKERS.get(loop)
        if ticker is None or ticker.task is None:
            ticker = _Ticker(loop)
            ticker.task = loop.create_task(ticker.tick())
            _TICKERS[loop] = ticker
        ticker.users += 1
        self._ticker = ticker

    async def stop(self) -> None:
        ticker, self._ticker = self._ticker, None
        if ticker is None:
            return
        ticker.users -= 1
        if ticker.users == 0 and ticker.task is not None:
            task, ticker.task = ticker.task, None
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    def between(self, start: float, end: float) -> float:
        """Seconds of arbiter stall inside ``[start, end]`` (``end`` is usually now)."""
        ticker = self._ticker
        if ticker is None:
            return 0.0
        total = 0.0
        due = ticker.last + TICK_S
        if end - due > STALL_S:  # stalled right now: the tick has not run yet
            total += max(0.0, end - max(due, start))
        for a, b in reversed(ticker.stalls):  # newest first: the older ones end before start
            if b <= start:
                break
            total += max(0.0, min(b, end) - max(a, start))
        return total
