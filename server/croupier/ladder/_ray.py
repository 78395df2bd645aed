"""The Ray executor (``--executor ray``, the optional extra ``croupier[ray]``).

The driver cuts the pending matches into batches; each batch is one Ray task, which runs a whole
local executor on its worker node (its own arbiter server, the bots launched there) into a
temporary folder, and returns each match's result with its replay as bytes. The bots of a batch
stay up across its matches (one bot pool per batch, on its worker), unless ``restart`` is
``per-match``, in lanes as on the local executor (a seating of a duplicate set is played by the
bot's process of that seating's lane: no process of any worker plays two seatings of a set);
what each pool did with the bots comes back with the batch. Only the driver
writes replay files and the store. A task whose node dies is retried by Ray on another node and
its matches are played again from scratch; the store takes each match id once, so a match that
was (partly) played twice still counts once.
"""

from __future__ import annotations

import asyncio
import socket
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import structlog

from croupier.errors import ConfigError, ExecutorError
from croupier.ladder._config import TournamentConfig
from croupier.ladder._play import MatchJob, Played, play_local
from croupier.transport import BotStats, Restart, SandboxOptions

#: Retries of a batch whose worker or node died (Ray's system-failure retries).
MAX_RETRIES = 5


#: What a batch tells of each bot: (mode, processes started, crashes), by display name.
BatchStats = dict[str, tuple[str, int, int]]


def play_batch(
    jobs: Sequence[MatchJob],
    concurrency: int,
    restart: Restart,
    sandbox: SandboxOptions | None,
) -> tuple[list[Played], BatchStats]:
    """Run on a worker: play ``jobs`` with the local executor, its bots in ``sandbox`` (refused
    where the worker cannot sandbox them, unless its mode is ``none``), and return them with
    their replays' bytes, and what its bot pool did (the worker's temporary folder is
    removed)."""
    import ray

    node = ray.get_runtime_context().get_node_id()[:12]
    out: list[Played] = []
    with tempfile.TemporaryDirectory(prefix="croupier-ray-") as tmp:
        folder = Path(tmp)

        def keep(played: Played) -> None:
            data = played.replay.read_bytes()
            out.append(
                Played(
                    played.slot,
                    played.seats,
                    played.rounds,
                    played.hello,
                    played.replay,
                    played.sha256,
                    f"ray:{node}",
                    played.cancelled,
                    data,
                )
            )

        stats = asyncio.run(
            play_local(
                jobs,
                folder,
                keep,
                concurrency=concurrency,
                worker=node,
                restart=restart,
                log_dir=folder / "logs",
                sandbox=sandbox,
            )
        )
    return out, {name: (s.mode, s.processes, s.crashes) for name, s in stats.items()}


#: The most matches in one batch: what a lost node can cost to replay, and how long the driver
#: waits before a batch's results are stored.
MAX_BATCH = 32


def batch_size_for(jobs: int, concurrency: int) -> int:
    """Matches per batch: the pending ones spread over one batch per slot in flight, at least 4
    and at most :data:`MAX_BATCH`. Every batch starts its own bot processes (one per bot and
    lane), so batches of a few matches spend their time starting bots: with 4 matches a batch,
    one node played at a quarter of the local executor's rate (0.51 with two batches per
    slot)."""
    per = -(-jobs // max(1, concurrency))
    return max(1, min(jobs, MAX_BATCH, max(4, per)))


#: How long the driver waits for a TCP connection to ``--address`` before it gives up (Ray's
#: own client would retry for minutes).
REACH_TIMEOUT_S = 5.0


def _first_line(exc: BaseException) -> str:
    """An exception's message as one line: its first non-empty line, whitespace collapsed."""
    lines = [" ".join(line.split()) for line in str(exc).splitlines() if line.strip()]
    return lines[0] if lines else type(exc).__name__


def check_reachable(address: str, timeout: float = REACH_TIMEOUT_S) -> None:
    """:class:`ExecutorError` unless a TCP connection to ``address`` (host:port) opens within
    ``timeout`` seconds."""
    host, sep, port = address.rpartition(":")
    if not sep or not port.isdigit():
        raise ConfigError(f"--address {address!r}: expected HOST:PORT (a Ray head's GCS port)")
    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=timeout):
            pass
    except OSError as exc:
        reason = "timed out" if isinstance(exc, TimeoutError) else (exc.strerror or str(exc))
        raise ExecutorError(
            f"ray: cannot reach the Ray cluster at {address} within {timeout:g} s ({reason}); "
            "is its head running (ray start --head), and is the port open?"
        ) from None


def connect_ray(ray: Any, address: str) -> None:
    """``ray.init``, every failure one line (:class:`ExecutorError`, exit status 3): an
    address that does not answer (within :data:`REACH_TIMEOUT_S`), a local instance that did
    not start in Ray's own time limit, a cluster of another Ray or Python version."""
    if address:
        check_reachable(address)
    try:
        ray.init(
            address=address or None,
            include_dashboard=False,
            log_to_driver=False,
            configure_logging=False,
        )
    except Exception as exc:  # (Ray raises a plain Exception when its start times out)
        text = _first_line(exc)
        where = f"the Ray cluster at {address}" if address else "a local Ray instance"
        if "version mismatch" in text.lower():
            raise ExecutorError(
                f"ray: {where} runs another version: {text} (install the same Ray and Python "
                "on the driver and every node)"
            ) from None
        if "timed out" in text.lower() or isinstance(exc, TimeoutError):
            raise ExecutorError(
                f"ray: {where} did not start in time: {text} (a loaded machine: try again, "
                "or start a cluster with ray start --head and pass --address)"
            ) from None
        raise ExecutorError(f"ray: cannot start or join {where}: {text}") from None


async def play_ray(
    jobs: Sequence[MatchJob],
    config: TournamentConfig,
    commit: Callable[[Played], None],
    *,
    concurrency: int,
    stop: Callable[[], bool],
    cancel: asyncio.Event | None,
    batch_size: int = 0,
    restart: Restart = "session",
    on_stats: Callable[[dict[str, BotStats]], None] | None = None,
) -> None:
    """Play ``jobs`` on the Ray cluster at ``config.address`` (a local one when empty), at most
    ``concurrency`` batches in flight, committing each match on the driver as its batch ends."""
    try:
        import ray
    except ImportError:
        raise ConfigError("the ray executor needs Ray: pip install 'croupier[ray]'") from None
    log = structlog.get_logger("croupier.ladder.ray")
    started_here = not ray.is_initialized()
    if started_here:
        connect_ray(ray, config.address)
    try:
        size = batch_size or batch_size_for(len(jobs), concurrency)
        batches = [list(jobs[i : i + size]) for i in range(0, len(jobs), size)]
        task = ray.remote(num_cpus=1, max_retries=MAX_RETRIES, retry_exceptions=False)(play_batch)
        in_flight: dict[Any, int] = {}
        queue = iter(enumerate(batches))
        log.info("ray_started", batches=len(batches), batch_size=size, concurrency=concurrency)

        def submit() -> bool:
            if stop() or (cancel is not None and cancel.is_set()):
                return False
            nxt = next(queue, None)
            if nxt is None:
                return False
            index, batch = nxt
            in_flight[task.remote(batch, size, restart, config.sandbox)] = index
            return True

        while len(in_flight) < concurrency and submit():
            pass
        while in_flight:
            ready, _ = await asyncio.to_thread(
                ray.wait, list(in_flight), num_returns=1, timeout=0.5
            )
            if cancel is not None and cancel.is_set():
                for ref in in_flight:
                    ray.cancel(ref, force=True)
                return
            for ref in ready:
                index = in_flight.pop(ref)
                try:
                    results, stats = ray.get(ref)
                except ray.exceptions.RayError as exc:
                    raise ExecutorError(
                        f"ray: a batch of {size} matches failed on every retry: {_first_line(exc)}"
                    ) from None
                for played in results:
                    commit(played)
                if on_stats is not None:
                    on_stats({n: BotStats(m, p, crashes=c) for n, (m, p, c) in stats.items()})
                log.info("ray_batch_done", batch=index)
                submit()
    finally:
        if started_here:
            ray.shutdown()
