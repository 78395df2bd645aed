"""Measuring the arbiter's own lag, so that no bot is charged for time the arbiter lost.

A *stall* is time the event loop could not take a bot's reply: one iteration of the loop that
ran callbacks for longer than :data:`STALL_S` (a long encode, a garbage collection, another
match's work, a flood of hostile streams), or a wait for I/O that overslept its timeout by more
than :data:`STALL_S` (the process was stopped or starved of CPU). While a match runs, the loop's
selector is timed (each ``select`` call: when it began, its timeout, when it returned), so each
stall is kept as an interval with the clock's own resolution, and :meth:`LagMonitor.between`
tells exactly how much of a decision's time fell inside one, counting an iteration still running
up to now. One ticker per loop wakes up every :data:`TICK_S`, so that no wait for I/O is longer
than that and a stopped process always shows as an oversleep.

(On a loop whose selector cannot be timed, the ticker's own lateness is the measure, as before
issue 19: a wake-up later than due by more than :data:`STALL_S` counts from when it was due.
That is coarse: a loop that is merely busy shows as stalls every :data:`TICK_S` and decisions
charged in whole ticks.)

Every match holds a :class:`LagMonitor`; the monitors of the matches on one loop share its
ticker (the stalls are the loop's, whichever match looks), so a loop hosting many matches wakes
up :data:`TICK_S` apart, not once per match per tick.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import weakref
from typing import Any

#: The longest wait for I/O while a match runs (the ticker's period).
TICK_S = 0.02
#: An iteration of callbacks this long, or an oversleep this long, is a stall (arbiter lag).
STALL_S = 0.002
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
        #: The loop's timed selector, while installed (else the ticker's lateness is used).
        self.timed: _TimedSelector | None = None
        #: When the loop's current iteration began running callbacks (its select returned).
        self.iteration = loop.time()

    async def tick(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(TICK_S)
            now = loop.time()
            due = self.last + TICK_S
            if self.timed is None and now - due > STALL_S:
                self.stalls.append((due, now))
            self.last = now

    def install(self, loop: asyncio.AbstractEventLoop) -> None:
        """Time ``loop``'s selector, if it has one (the standard selector event loop)."""
        inner = getattr(loop, "_selector", None)
        if inner is not None and callable(getattr(inner, "select", None)):
            self.timed = _TimedSelector(inner, self, loop.time)
            setattr(loop, "_selector", self.timed)  # noqa: B010  # a private attribute
            self.iteration = loop.time()

    def uninstall(self, loop: asyncio.AbstractEventLoop) -> None:
        timed = self.timed
        self.timed = None
        if timed is None:
            return
        inner = timed.inner
        if getattr(loop, "_selector", None) is timed:
            setattr(loop, "_selector", inner)  # noqa: B010  # a private attribute


class _TimedSelector:
    """A selector that notes each iteration of callbacks and each wait on the ticker's stalls;
    everything else is the wrapped selector's."""

    def __init__(self, inner: Any, ticker: _Ticker, clock: Any) -> None:
        self.inner = inner
        self._ticker = ticker
        self._clock = clock

    def select(self, timeout: float | None = None) -> Any:
        ticker, began = self._ticker, self._clock()
        if began - ticker.iteration > STALL_S:  # the iteration that just ended ran long
            ticker.stalls.append((ticker.iteration, began))
        try:
            return self.inner.select(timeout)
        finally:
            now = self._clock()
            if timeout is not None and now - (began + timeout) > STALL_S:  # overslept
                ticker.stalls.append((began + timeout, now))
            ticker.iteration = now

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


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
            ticker.install(loop)
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
            ticker.uninstall(asyncio.get_running_loop())
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    def between(self, start: float, end: float) -> float:
        """Seconds of arbiter stall inside ``[start, end]`` (``end`` is usually now)."""
        ticker = self._ticker
        if ticker is None:
            return 0.0
        total = 0.0
        if ticker.timed is not None:  # the iteration running now, if it has run long
            if end - ticker.iteration > STALL_S:
                total += max(0.0, end - max(ticker.iteration, start))
        elif end - (due := ticker.last + TICK_S) > STALL_S:  # no tick for too long
            total += max(0.0, end - max(due, start))
        for a, b in reversed(ticker.stalls):  # newest first: the older ones end before start
            if b <= start:
                break
            total += max(0.0, min(b, end) - max(a, start))
        return total
