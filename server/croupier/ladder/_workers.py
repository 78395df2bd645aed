"""The local executor on more than one core (``workers`` > 1).

One arbiter is one asyncio event loop: on one core it plays at most what that core can run
(about 4,000 decisions a second here), however many cores the machine has. With ``workers = N``
the tournament's process (the **driver**) starts N worker processes (:func:`main`); each holds a
whole local executor of its own, a :class:`~croupier.ladder._play.LocalPlayer` (its own arbiter
server and bot pool, in lanes), kept for the run, so each bot's processes start once per worker
and stay up across everything that worker plays. ``concurrency`` is shared among the workers (as
evenly as it divides; each plays at least one match at a time). The driver hands each worker
single matches, keeping as many in flight as its share, and stores each result as it comes back:
each worker writes its replays in the run's replay folder, and only the driver writes the store.
A worker's bots' logs go to ``worker-K`` in the run's log folder.

When a worker dies, its bots die with it (their lifeline is the worker's), and the matches it
was playing go back to the head of the queue and are played again from scratch by a worker
started in its place (a match's partial replay is removed first); the store takes each match
id once, so none is lost and none counts twice. A match lost with its worker
:data:`~croupier.ladder._play.MAX_RETRIES` + 1 times stops the run (:class:`ExecutorError`).
A worker reads its orders on its standard input: when the driver is gone, however it died, the
worker reads end of file, cancels what it plays, ends its bots and exits.

The driver and a worker speak in frames (:mod:`croupier.ladder._frames`) on the worker's
standard input and output. The driver sends the worker's settings, then
one ``("job", MatchJob)`` per match; the worker answers ``("played", Played, stats)`` per
finished match (``stats``: what its pool did with each bot since its last answer), or
``("error", kind, line)`` when a match failed for another reason than its bots (the run stops).

Not with remote bots (their seat tokens come from one arbiter's listener), TLS (which serves
only them), or the server's live view of a match (``watch``): each needs the one arbiter.
"""

from __future__ import annotations

import asyncio
import contextlib
import pickle
import socket
from collections import Counter, deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import structlog

from croupier._logging import configure_logging
from croupier.errors import ConfigError, ExecutorError
from croupier.ladder._frames import (
    HelperChannel,
    end_helper,
    helper_main,
    read_frame,
    send,
    start_helper,
)
from croupier.ladder._play import MAX_RETRIES, LocalPlayer, MatchJob, Played, ResolvedBot
from croupier.transport import BotStats, Restart, SandboxOptions

#: How long the driver waits for a worker to end its bots and exit when the run is over.
CLOSE_TIMEOUT_S = 30.0


def worker_shares(workers: int, concurrency: int) -> list[int]:
    """Matches at once per worker: ``concurrency`` shared among ``workers`` as evenly as it
    divides (no more workers than matches at once)."""
    count = max(1, min(workers, concurrency))
    return [concurrency // count + (1 if k < concurrency % count else 0) for k in range(count)]


@dataclass(frozen=True, slots=True)
class WorkerSettings:
    """What a worker is told first: the bots, its share, how to launch them, where to write."""

    bots: tuple[ResolvedBot, ...]
    share: int
    restart: Restart
    sandbox: SandboxOptions
    log_dir: Path
    out_dir: Path
    lanes: bool
    name: str
    log_level: int


@dataclass(eq=False)
class _Worker:
    """The driver's handle on one worker process."""

    index: int
    share: int
    process: asyncio.subprocess.Process
    in_flight: dict[str, MatchJob] = field(default_factory=dict)
    gone: bool = False


async def play_workers(
    jobs: Sequence[MatchJob],
    commit: Callable[[Played], None],
    *,
    workers: int,
    concurrency: int,
    out_dir: Path,
    log_dir: Path,
    restart: Restart,
    sandbox: SandboxOptions,
    stop: Callable[[], bool],
    cancel: asyncio.Event | None,
    on_stats: Callable[[dict[str, BotStats]], None],
    lanes: bool = True,
) -> None:
    """Play ``jobs`` on ``workers`` worker processes, ``concurrency`` matches at once over
    them, committing each finished match here as it comes back. No new match starts once
    ``stop()`` is true or ``cancel`` is set (a set ``cancel`` also ends the running ones,
    unrecorded). :class:`ExecutorError` (or the :class:`ConfigError` a worker met) when a match
    fails for another reason than its worker dying, or was lost with its worker
    :data:`MAX_RETRIES` + 1 times."""
    log = structlog.get_logger("croupier.ladder.workers")
    bots = tuple({b.name: b for job in jobs for b in job.bots}.values())
    host = socket.gethostname()
    level = structlog.get_logger().bind().get_effective_level()
    pending: deque[MatchJob] = deque(jobs)
    lost: Counter[str] = Counter()
    events: asyncio.Queue[tuple[_Worker | None, Any]] = asyncio.Queue()  # None: the driver
    running: dict[int, _Worker] = {}
    readers: set[asyncio.Task[None]] = set()

    def halted() -> bool:
        return stop() or (cancel is not None and cancel.is_set())

    async def start(index: int, share: int) -> _Worker:
        process = await start_helper("croupier.ladder._workers")
        worker = _Worker(index, share, process)
        settings = WorkerSettings(
            bots,
            share,
            restart,
            sandbox,
            log_dir / f"worker-{index}",
            out_dir,
            lanes,
            f"{host}#w{index}",
            level,
        )
        send(worker.process, settings)
        task = asyncio.create_task(_read(worker, events))
        readers.add(task)
        task.add_done_callback(readers.discard)
        running[index] = worker
        return worker

    def take(worker: _Worker) -> MatchJob:
        """The first pending job for ``worker``: a seating of a duplicate set goes to the worker
        of its lane (seating k to worker k mod N), so each worker starts lanes for its own
        seatings only; another worker's when none is left (one more lane there)."""
        count = len(shares)
        for i, job in enumerate(pending):
            if not job.slot.deal_set or job.slot.seating % count == worker.index:
                del pending[i]
                return job
        return pending.popleft()

    def submit(worker: _Worker) -> None:
        while not worker.gone and len(worker.in_flight) < worker.share and pending:
            if halted():
                return
            job = take(worker)
            worker.in_flight[job.slot.match_id] = job
            send(worker.process, ("job", job))

    async def watch_cancel() -> None:
        if cancel is not None:
            await cancel.wait()
            await events.put((None, ("cancel",)))

    shares = worker_shares(workers, concurrency)
    canceller = asyncio.create_task(watch_cancel())
    try:
        for index, share in enumerate(shares):
            submit(await start(index, share))
        while any(w.in_flight for w in running.values()):
            worker, message = await events.get()
            kind = message[0]
            if worker is None:  # ("cancel",)
                return
            if kind == "played":
                played, stats = message[1], message[2]
                worker.in_flight.pop(played.slot.match_id, None)
                if not played.cancelled:
                    commit(played)
                if stats:
                    on_stats(stats)
                submit(worker)
            elif kind == "error":
                error = ConfigError if message[1] == "ConfigError" else ExecutorError
                raise error(message[2])
            elif kind == "gone" and not worker.gone:
                worker.gone = True
                del running[worker.index]
                batch = list(worker.in_flight.values())
                for job in batch:
                    lost[job.slot.match_id] += 1
                    if lost[job.slot.match_id] > MAX_RETRIES:
                        raise ExecutorError(
                            f"workers: match {job.slot.match_id} was lost with its worker "
                            f"{MAX_RETRIES + 1} times ({message[1]})"
                        )
                pending.extendleft(reversed(batch))
                log.warning("worker_lost", worker=worker.index, matches=len(batch), why=message[1])
                if pending and not halted():
                    submit(await start(worker.index, worker.share))
    finally:
        canceller.cancel()
        await _close(list(running.values()))
        for task in list(readers):
            task.cancel()


async def _read(worker: _Worker, events: asyncio.Queue[tuple[_Worker | None, Any]]) -> None:
    """Put each of the worker's frames on ``events``, then ``("gone", why)`` at its end."""
    stdout = worker.process.stdout
    assert stdout is not None
    why = "its output ended"
    try:
        while True:
            await events.put((worker, await read_frame(stdout)))
    except asyncio.IncompleteReadError:
        status = await worker.process.wait()
        why = f"it exited with status {status}" if status >= 0 else f"killed by signal {-status}"
    except (OSError, pickle.UnpicklingError, EOFError) as exc:
        why = f"its output could not be read: {exc}"
        with contextlib.suppress(ProcessLookupError):
            worker.process.kill()
    await events.put((worker, ("gone", why)))


async def _close(workers: list[_Worker]) -> None:
    """End each worker: its input closes; it cancels the matches it still holds (none, unless
    the run was cancelled or failed), ends its bots and exits, killed after
    :data:`CLOSE_TIMEOUT_S`."""
    await asyncio.gather(*(end_helper(w.process, CLOSE_TIMEOUT_S) for w in workers))


# ---- the worker's side ----------------------------------------------------------------------


def main() -> None:
    """A worker: plays what its driver sends (see :func:`croupier.ladder._frames.helper_main`)."""
    helper_main(_serve)


async def _serve(channel: HelperChannel) -> None:
    settings = await channel.receive()
    if not isinstance(settings, WorkerSettings):
        return
    _configure_logging(settings.log_level)
    cancel = asyncio.Event()
    player = LocalPlayer(
        settings.bots,
        settings.log_dir,
        concurrency=settings.share,
        restart=settings.restart,
        sandbox=settings.sandbox,
        lanes=settings.lanes,
    )

    async def play(job: MatchJob) -> None:
        reported = False

        def done(played: Played) -> None:
            nonlocal reported
            reported = True
            channel.send(("played", played, player.stats_since()))

        try:
            await player.play([job], settings.out_dir, done, concurrency=1, cancel=cancel,
                              worker=settings.name)  # fmt: skip
            if not (reported or cancel.is_set()):
                raise ExecutorError(f"match {job.slot.match_id} ended unplayed")
        except Exception as exc:  # (one line to the driver, which stops the run)
            kind = "ConfigError" if isinstance(exc, ConfigError) else "ExecutorError"
            line = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            channel.send(("error", kind, f"worker {settings.name}: {line}"))

    tasks: set[asyncio.Task[None]] = set()
    try:
        async with player:
            while (message := await channel.receive()) is not None and message[0] == "job":
                task = asyncio.create_task(play(message[1]))
                tasks.add(task)
                task.add_done_callback(tasks.discard)
            # the end of the input: the driver closes it once every match it gave has come back,
            # so a match still held here is one nobody will store (the run was cancelled or
            # stopped on an error, or the driver was killed): it ends now, unrecorded
            cancel.set()
            await asyncio.gather(*tasks)
    except OSError:  # (the driver is gone: nothing to tell)
        cancel.set()


def _configure_logging(level: int) -> None:
    """The driver's log level (its lines on the shared standard error)."""
    configure_logging({20: 1, 10: 2}.get(level, 0))
