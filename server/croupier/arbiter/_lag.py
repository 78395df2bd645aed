"""Measuring the arbiter's own lag, so that no bot is charged for time the arbiter lost.

A *stall* is time in which the arbiter could not take a bot's reply:

- an iteration of the event loop that ran callbacks for longer than :data:`STALL_S` (a long
  encode, a garbage collection, another match's work, a flood of hostile streams);
- a wait for I/O that overslept its timeout by more than :data:`STALL_S` (the process was
  stopped);
- a wake-up for which the loop's thread, runnable again, waited for a CPU longer than
  :data:`STALL_S` (a loaded machine: the reply was there, the arbiter was not running).

While a match runs, the loop's selector is timed: each ``select`` call notes when it began, its
timeout and when it returned, and, around a wait that may block, the time the thread spent in
the kernel's run queue (``/proc/thread-self/schedstat``, in nanoseconds). So every stall is kept
as an interval to the clock's own resolution, and :meth:`LagMonitor.between` tells exactly how
much of a decision's time fell inside one, counting an iteration still running up to now: a
decision is charged its wall time less that, never a whole number of ticks. One ticker per loop
wakes up every :data:`TICK_S` while any match on that loop runs, so that no wait is longer than
that and a stopped process always shows as an oversleep.

(On a loop whose selector cannot be timed, the ticker's lateness is the measure, as before
issue 19: a wake-up later than due by more than :data:`STALL_S` counts from when it was due.
That is coarse: a loop that is merely busy shows as stalls every :data:`TICK_S`, and decisions
are charged whole ticks or nothing.)

Every match holds a :class:`LagMonitor`; the monitors of the matches on one loop share its
ticker (the loop's stalls are the same whichever match looks), so a loop hosting many matches
wakes up :data:`TICK_S` apart, not once per match per tick.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import os
import weakref
from collections.abc import Callable
from typing import Any

#: The longest wait for I/O while a match runs (the ticker's period).
TICK_S = 0.02
#: An iteration of callbacks this long, or an oversleep this long, is a stall (arbiter lag).
STALL_S = 0.002
#: Stalls remembered (older ones end long before any pending decision began).
KEEP = 4096

_SCHEDSTAT = "/proc/thread-self/schedstat"


def _open_schedstat() -> int | None:
    """A descriptor on the calling thread's scheduler statistics, or ``None`` where the kernel
    keeps none (read again with ``pread``: no open per reading)."""
    try:
        fd = os.open(_SCHEDSTAT, os.O_RDONLY)
    except OSError:
        return None
    try:
        int(os.pread(fd, 128, 0).split()[1])
    except (OSError, IndexError, ValueError):
        os.close(fd)
        return None
    return fd


class _Ticker:
    """The loop's stalls, recorded while at least one monitor uses it."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        #: ``(start, end)`` intervals, in time order and disjoint (each starts after the last).
        self.stalls: collections.deque[tuple[float, float]] = collections.deque(maxlen=KEEP)
        self.last = loop.time()
        self.users = 0
        self.task: asyncio.Task[None] | None = None
        #: The loop's timed selector, while installed (else the ticker's lateness is used).
        self.timed: _TimedSelector | None = None
        #: When the loop's current iteration began running callbacks (its select returned).
        self.iteration = loop.time()
        #: The loop thread's scheduler statistics (opened in that thread), or ``None``.
        self.schedstat: int | None = None

    async def tick(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(TICK_S)
            now = loop.time()
            due = self.last + TICK_S
            if self.timed is None and now - due > STALL_S:
                self.stalls.append((due, now))
            self.last = now

    def run_queue_s(self) -> float:
        """Seconds the loop's thread has waited for a CPU so far (0 where not known)."""
        if self.schedstat is None:
            return 0.0
        try:
            return int(os.pread(self.schedstat, 128, 0).split()[1]) / 1e9
        except (OSError, IndexError, ValueError):
            return 0.0

    def install(self, loop: asyncio.AbstractEventLoop) -> None:
        """Time ``loop``'s selector, if it has one (the standard selector event loop)."""
        inner = getattr(loop, "_selector", None)
        if inner is not None and callable(getattr(inner, "select", None)):
            self.schedstat = _open_schedstat()
            self.timed = _TimedSelector(inner, self, loop.time)
            setattr(loop, "_selector", self.timed)  # noqa: B010  # a private attribute
            self.iteration = loop.time()

    def uninstall(self, loop: asyncio.AbstractEventLoop) -> None:
        fd, self.schedstat = self.schedstat, None
        if fd is not None:
            os.close(fd)
        timed = self.timed
        self.timed = None
        if timed is None:
            return
        inner = timed.inner
        if getattr(loop, "_selector", None) is timed:
            setattr(loop, "_selector", inner)  # noqa: B010  # a private attribute


class _TimedSelector:
    """A selector that notes each stall on its ticker (an iteration of callbacks that ran long,
    a wait that overslept or that woke up to no CPU); all else is the wrapped selector's."""

    def __init__(self, inner: Any, ticker: _Ticker, clock: Callable[[], float]) -> None:
        self.inner = inner
        self._ticker = ticker
        self._clock = clock

    def select(self, timeout: float | None = None) -> Any:
        ticker, began = self._ticker, self._clock()
        if began - ticker.iteration > STALL_S:  # the iteration that just ended ran long
            ticker.stalls.append((ticker.iteration, began))
        may_block = timeout is None or timeout > 0  # (0: callbacks are ready; no wait)
        queued = ticker.run_queue_s() if may_block else 0.0
        try:
            return self.inner.select(timeout)
        finally:
            now = self._clock()
            ticker.iteration = now
            if may_block:
                stalled = now
                if timeout is not None and now - (began + timeout) > STALL_S:  # overslept
                    stalled = began + timeout
                starved = ticker.run_queue_s() - queued  # runnable, but no CPU
                if starved > STALL_S:
                    stalled = min(stalled, max(began, now - starved))
                if stalled < now:
                    ticker.stalls.append((stalled, now))

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
