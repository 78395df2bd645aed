"""A match's control variates computed in a process of their own, beside the arbiter.

The control variates of a finished match (:func:`~croupier.ladder._control.match_corrections`:
playouts from each of its chance events, and from the random bots' decisions) cost about as
much CPU as playing it (12-deal As-Nas between four random bots: 37 ms against the arbiter's
30 ms). In a thread of the arbiter's process they hold its interpreter lock while the arbiter's
event loop waits: a tournament played at half the rate it played without them. So once a local
executor has computed :data:`OFFLOAD_AFTER` matches' in a thread (a short run never starts a
process for them), it hands the rest to helper processes (:func:`main`), which compute them on
other cores while the arbiter plays: one, and another each time every helper is busy, up to half
the cores (:func:`most_helpers`; with the action terms on, a match's control variates cost
several times its play).

They are the same wherever they are computed: they depend only on the replay and the match's
seed. A helper that dies loses nothing: what it was computing is computed again in a thread,
and a new helper is started for the matches after (after :data:`MAX_LOSSES` helpers lost,
threads only). A helper reads its orders on its standard input (frames:
:mod:`croupier.ladder._frames`): when the arbiter's process is gone, however it died, the
helper reads end of file and exits.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import os
import pickle
from dataclasses import dataclass
from pathlib import Path

import structlog

from croupier._logging import configure_logging
from croupier.ladder._control import match_corrections
from croupier.ladder._frames import (
    HelperChannel,
    end_helper,
    helper_main,
    read_frame,
    send,
    start_helper,
)

#: Matches whose control variates a local executor computes in a thread before it starts the
#: helper process (which costs about a second of CPU to start).
OFFLOAD_AFTER = 8
#: Helpers lost (died, or unreadable) after which the control variates stay in threads.
MAX_LOSSES = 3
#: How long a helper may take to exit once its input is closed.
CLOSE_TIMEOUT_S = 10.0

#: The chance terms and the action terms of each seat (``None``: the replay could not be read).
Corrections = tuple[tuple[float | None, ...], tuple[float | None, ...]]


def most_helpers() -> int:
    """Helpers at most: half the cores (the other half for the arbiter and the bots), one at
    least."""
    return max(1, (os.cpu_count() or 1) // 2)


class _Lost(Exception):
    """The helper computing a match's control variates is gone."""


@dataclass(eq=False)
class _Helper:
    process: asyncio.subprocess.Process
    calls: dict[int, asyncio.Future[Corrections]]
    reader: asyncio.Task[None] | None = None


class ControlVariates:
    """``await control(replay, seed, seats, uniform)``: what
    :func:`~croupier.ladder._control.match_corrections` gives, computed in a thread for the
    first ``offload_after`` (default :data:`OFFLOAD_AFTER`) matches and in helper processes
    after, each match by the helper with the fewest in hand (a new one while every helper is
    busy, up to ``helpers``, default :func:`most_helpers`). :meth:`close` ends the helpers."""

    def __init__(self, offload_after: int | None = None, helpers: int | None = None) -> None:
        self._after = OFFLOAD_AFTER if offload_after is None else offload_after
        self._most = most_helpers() if helpers is None else max(1, helpers)
        self._count = 0
        self._helpers: list[_Helper] = []
        self._lost = 0
        self._ids = itertools.count()
        self._starting = asyncio.Lock()
        self._closed = False
        self._log = structlog.get_logger("croupier.ladder.offload")

    @property
    def helper_pids(self) -> list[int]:
        """The process ids of the helpers that run."""
        return [h.process.pid for h in self._helpers]

    async def __call__(
        self, replay: Path, seed: int, seats: int, uniform: frozenset[int]
    ) -> Corrections:
        self._count += 1
        helper = await self._ready()
        if helper is not None:
            key = next(self._ids)
            future: asyncio.Future[Corrections] = asyncio.get_running_loop().create_future()
            helper.calls[key] = future
            send(helper.process, ("control", key, replay, seed, seats, uniform))
            try:
                return await future
            except _Lost:
                pass  # (computed here instead)
            finally:
                helper.calls.pop(key, None)
        return await asyncio.to_thread(match_corrections, replay, seed, seats, uniform)

    async def _ready(self) -> _Helper | None:
        """The helper with the fewest matches in hand, one started now when every helper is
        busy and there may be more; ``None``: compute in a thread."""
        if self._count <= self._after or self._lost >= MAX_LOSSES or self._closed:
            return None
        async with self._starting:
            least = min(self._helpers, key=lambda h: len(h.calls), default=None)
            if (least is None or least.calls) and len(self._helpers) < self._most:
                process = await start_helper("croupier.ladder._offload")
                least = _Helper(process, {})
                least.reader = asyncio.create_task(self._read(least))
                self._helpers.append(least)
                self._log.info("control_helper_started", pid=process.pid)
        return least

    async def _read(self, helper: _Helper) -> None:
        """Hand each answer to its caller; when the helper's output ends, it is lost: its
        callers compute in a thread, and a new helper may start for the next match."""
        stdout = helper.process.stdout
        assert stdout is not None
        why = "its output ended"
        try:
            while True:
                _, key, result = await read_frame(stdout)
                future = helper.calls.get(key)
                if future is not None and not future.done():
                    future.set_result(result)
        except asyncio.IncompleteReadError:
            pass
        except (OSError, ValueError, pickle.UnpicklingError, EOFError) as exc:
            why = f"its output could not be read: {exc}"
            with contextlib.suppress(ProcessLookupError):
                helper.process.kill()
        status = await helper.process.wait()
        if helper in self._helpers:
            self._helpers.remove(helper)
        if not self._closed:
            self._lost += 1
            self._log.warning(
                "control_helper_lost", status=status, why=why, matches=len(helper.calls)
            )
        for future in helper.calls.values():
            if not future.done():
                future.set_exception(_Lost())

    async def close(self) -> None:
        """End the helpers: their input closes and they exit (killed after
        :data:`CLOSE_TIMEOUT_S`); control variates asked for after are computed in a thread."""
        self._closed = True
        helpers, self._helpers = self._helpers, []
        await asyncio.gather(*(self._end(h) for h in helpers))

    @staticmethod
    async def _end(helper: _Helper) -> None:
        try:
            await end_helper(helper.process, CLOSE_TIMEOUT_S)
        finally:
            if helper.reader is not None:
                await asyncio.gather(helper.reader, return_exceptions=True)


# ---- the helper's side ----------------------------------------------------------------------


async def _serve(channel: HelperChannel) -> None:
    """Answer each ``("control", key, replay, seed, seats, uniform)`` in turn until the end of
    the input."""
    while (message := await channel.receive()) is not None:
        _, key, replay, seed, seats, uniform = message
        try:
            channel.send(("control", key, match_corrections(replay, seed, seats, uniform)))
        except OSError:  # (the parent is gone: nobody to tell)
            return


def main() -> None:
    """The helper (see :func:`croupier.ladder._frames.helper_main`): its warnings on the
    standard error it shares with its parent."""
    configure_logging(0)
    helper_main(_serve)
