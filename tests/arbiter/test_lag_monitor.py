"""The arbiter's lag monitor: every match on a loop sees the loop's stalls, through one ticker.

A stall is made by blocking the event loop with ``time.sleep`` (what a long encode or another
match's work does); the charged time of a decision is its wall time less the stalls inside it.
"""

from __future__ import annotations

import asyncio
import time

from croupier.arbiter._lag import STALL_S, TICK_S, LagMonitor

BLOCK_S = 0.15  # each stall: well above STALL_S + TICK_S


async def _stall(loop: asyncio.AbstractEventLoop) -> tuple[float, float]:
    """Block the loop for BLOCK_S after letting the ticker run; the blocked interval."""
    await asyncio.sleep(3 * TICK_S)
    start = loop.time()
    time.sleep(BLOCK_S)
    end = loop.time()
    await asyncio.sleep(3 * TICK_S)  # the ticker sees it
    return start, end


def test_every_monitor_on_a_loop_counts_the_loops_stalls_and_only_inside_the_window() -> None:
    async def main() -> None:
        loop = asyncio.get_running_loop()
        first, second = LagMonitor(), LagMonitor()
        first.start()
        second.start()
        try:
            t0 = loop.time()
            stalls = [await _stall(loop) for _ in range(3)]
            t1 = loop.time()
            for monitor in (first, second):
                whole = monitor.between(t0, t1)
                # each stall counts, less up to a tick of its start (before the ticker was due);
                # a loaded machine may add stalls of its own, never remove one
                assert 3 * (BLOCK_S - TICK_S) <= whole <= t1 - t0
                # a window starting inside the first stall: the rest of it, and the others
                (a, b), rest = stalls[0], stalls[1:]
                mid = (a + b) / 2
                part = monitor.between(mid, t1)
                assert part >= (b - mid) + len(rest) * (BLOCK_S - TICK_S)
                assert whole - part >= (mid - a) - TICK_S
                # a window before the monitor saw anything holds none
                assert monitor.between(t0 - 1.0, t0) == 0.0
        finally:
            await first.stop()
            await second.stop()

    asyncio.run(main())


def test_a_stall_still_going_on_counts_up_to_now() -> None:
    async def main() -> None:
        loop = asyncio.get_running_loop()
        monitor = LagMonitor()
        monitor.start()
        try:
            await asyncio.sleep(3 * TICK_S)
            start = loop.time()
            time.sleep(BLOCK_S)  # the ticker has not run since
            now = loop.time()
            lag = monitor.between(start, now)
            assert BLOCK_S - TICK_S - STALL_S <= lag <= now - start
        finally:
            await monitor.stop()

    asyncio.run(main())


def test_the_matches_of_a_loop_share_one_ticker_that_stops_with_the_last() -> None:
    async def main() -> None:
        before = len(asyncio.all_tasks())
        monitors = [LagMonitor() for _ in range(20)]
        for monitor in monitors:
            monitor.start()
        assert len(asyncio.all_tasks()) == before + 1  # one wake-up per tick, not twenty
        for monitor in monitors[:-1]:
            await monitor.stop()
        loop = asyncio.get_running_loop()
        start, end = await _stall(loop)
        assert monitors[-1].between(start, end + TICK_S) >= BLOCK_S - TICK_S
        await monitors[-1].stop()
        await asyncio.sleep(0)
        assert len(asyncio.all_tasks()) == before
        assert monitors[-1].between(start, end) == 0.0  # stopped: nothing is charged off
        again = LagMonitor()  # a later match starts a fresh ticker
        again.start()
        assert len(asyncio.all_tasks()) == before + 1
        await again.stop()

    asyncio.run(main())
