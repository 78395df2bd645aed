"""The Ray executor (``--executor ray``, the optional extra ``croupier[ray]``).

One actor per node (:class:`NodePlayer`) holds a whole local executor for the run: its own
arbiter server and bot pool on that node, so the bots' processes start once per node and stay
up across every batch it plays (unless ``restart`` is ``per-match``), in lanes as on the local
executor (a seating of a duplicate set is played by the bot's process of that seating's lane:
no process of any node plays two seatings of a set). ``concurrency`` is the number of matches
played at once over the cluster, shared among the nodes by their CPUs (:func:`shares`). The
driver hands each idle node's actor its next batch of pending matches (its share of what is
left, 4 to :data:`MAX_BATCH`) and stores each match's result and replay (returned as bytes) as
the batch comes back; only the driver writes replay files and the store. When a node dies its
actor dies with it: the driver puts that batch's matches back at the head of the queue for the
nodes still alive, which play them again from scratch; the store takes each match id once, so a
match that was (partly) played twice still counts once.

Why actors and not a task per batch (the first design): every task started its own bot pool, so
on one node the run started each bot once per batch, and a task's share of the CPU went to
starting Python bots: one node played at 0.66 x the local executor's rate with two batches per
run (0.25 x with batches of 4), against the issue's goal of 0.8 x.
"""

from __future__ import annotations

import asyncio
import contextlib
import shutil
import socket
import tempfile
from collections import Counter, deque
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import structlog

from croupier._owned_dirs import make_owned_dir
from croupier.errors import ConfigError, ExecutorError
from croupier.ladder._config import TournamentConfig
from croupier.ladder._play import MAX_RETRIES, LocalPlayer, MatchJob, Played, ResolvedBot
from croupier.transport import BotStats, Restart, SandboxOptions

#: The most matches in one batch: what a lost node can cost to replay, and how long the driver
#: waits before a batch's results are stored.
MAX_BATCH = 32
#: The fewest matches in a batch (while that many are pending): fewer round trips to the driver.
MIN_BATCH = 4
#: How long the driver waits for a node's actor to end its bots when the run is over (seconds).
CLOSE_TIMEOUT_S = 30.0
#: A node actor's match folder (bots' logs, a batch's replays) is named with this, ``PID-``.
TMP_PREFIX = "croupier-ray-"

#: What a batch tells of each bot: (mode, processes started, crashes), by display name.
BatchStats = dict[str, tuple[str, int, int]]


class NodePlayer:
    """A Ray actor on one node: a :class:`LocalPlayer` of ``bots`` kept for the whole run, with
    ``concurrency`` matches at once, its bots launched in ``sandbox`` (refused where the node
    cannot sandbox them, unless the mode is ``none``), in a temporary folder removed by
    :meth:`close`."""

    def __init__(
        self,
        bots: Sequence[ResolvedBot],
        concurrency: int,
        restart: Restart,
        sandbox: SandboxOptions | None,
    ) -> None:
        import ray

        self._node = ray.get_runtime_context().get_node_id()[:12]
        self._tmp = make_owned_dir(TMP_PREFIX)  # a killed actor's is swept by the next
        self._player = LocalPlayer(
            bots,
            self._tmp / "logs",
            concurrency=concurrency,
            restart=restart,
            sandbox=sandbox,
        )

    async def play(self, jobs: Sequence[MatchJob]) -> tuple[list[Played], BatchStats]:
        """Play ``jobs``; return them with their replays' bytes, and what the pool did with the
        bots since the last batch."""
        out: list[Played] = []
        folder = Path(tempfile.mkdtemp(dir=self._tmp, prefix="batch-"))

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
                    f"ray:{self._node}",
                    played.cancelled,
                    data,
                )
            )

        try:
            await self._player.play(jobs, folder, keep, worker=self._node)
        finally:
            shutil.rmtree(folder, ignore_errors=True)
        stats: BatchStats = {
            name: (s.mode, s.processes, s.crashes) for name, s in self._player.stats_since().items()
        }
        return out, stats

    async def close(self) -> None:
        """End the bots and the server; remove the folder."""
        try:
            await self._player.__aexit__(None, None, None)
        finally:
            shutil.rmtree(self._tmp, ignore_errors=True)


def shares(nodes: Sequence[dict[str, Any]], concurrency: int) -> dict[str, int]:
    """Matches at once per node (by node id) for ``concurrency`` over the cluster: the alive
    nodes that have CPUs, in proportion to their CPUs (largest remainders), each at least one
    while there are enough (a node left with none plays nothing)."""
    alive = sorted(
        (
            (str(n["NodeID"]), float(n.get("Resources", {}).get("CPU", 0)))
            for n in nodes
            if n.get("Alive")
        ),
        key=lambda x: -x[1],
    )
    alive = [(node, cpus) for node, cpus in alive if cpus > 0]
    if not alive or concurrency < 1:
        return {}
    if concurrency <= len(alive):
        return {node: 1 for node, _ in alive[:concurrency]}
    total = sum(cpus for _, cpus in alive)
    exact = {node: 1 + (concurrency - len(alive)) * cpus / total for node, cpus in alive}
    out = {node: int(x) for node, x in exact.items()}
    left = concurrency - sum(out.values())
    for node in sorted(exact, key=lambda n: out[n] - exact[n])[:left]:
        out[node] += 1
    return out


def batch_size_for(pending: int, share: int, total: int) -> int:
    """Matches for a node of ``share`` (of ``total`` matches at once) when ``pending`` are left:
    its share of them, at least :data:`MIN_BATCH` (or all that are left) and at most
    :data:`MAX_BATCH`. The node's bots stay up between batches, so small batches cost only a
    round trip to the driver; a big one keeps the node busy to the end of the run."""
    fair = -(-pending * share // max(1, total))
    return max(1, min(pending, MAX_BATCH, max(MIN_BATCH, fair)))


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


class _Node:
    """The driver's handle on one node's actor."""

    def __init__(self, node: str, share: int, actor: Any) -> None:
        self.node = node
        self.share = share
        self.actor = actor
        self.batch: list[MatchJob] | None = None  # the batch it is playing


async def play_ray(
    jobs: Sequence[MatchJob],
    config: TournamentConfig,
    commit: Callable[[Played], None],
    *,
    concurrency: int,
    stop: Callable[[], bool],
    cancel: asyncio.Event | None,
    restart: Restart = "session",
    on_stats: Callable[[dict[str, BotStats]], None] | None = None,
) -> None:
    """Play ``jobs`` on the Ray cluster at ``config.address`` (a local one when empty),
    ``concurrency`` matches at once over its nodes, committing each match on the driver as its
    batch comes back. :class:`ExecutorError` when a batch fails for another reason than its
    node dying, when a match was lost with its node :data:`MAX_RETRIES` times over, or when no
    node is left."""
    try:
        import ray
        from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy
    except ImportError:
        raise ConfigError("the ray executor needs Ray: pip install 'croupier[ray]'") from None
    log = structlog.get_logger("croupier.ladder.ray")
    started_here = not ray.is_initialized()
    if started_here:
        connect_ray(ray, config.address)
    bots = list({b.name: b for job in jobs for b in job.bots}.values())
    # the actor needs no CPU of Ray's: its matches are not Ray tasks, and a CPU held for the
    # whole run would keep a replacement from being placed on a node that has one CPU
    remote = ray.remote(num_cpus=0, max_restarts=0, max_task_retries=0)(NodePlayer)
    nodes: dict[str, _Node] = {}
    gone: set[str] = set()  # nodes lost in this run (a node that comes back has a new id)
    pending: deque[MatchJob] = deque(jobs)
    lost: Counter[str] = Counter()  # match id -> times its node died under it
    in_flight: dict[Any, _Node] = {}
    try:

        def place() -> None:
            """An actor on every alive node that has a share and none yet, and was not lost
            in this run."""
            plan = shares(ray.nodes(), concurrency)  # type: ignore[no-untyped-call]
            for node, share in plan.items():
                if node in nodes or node in gone:
                    continue
                strategy = NodeAffinitySchedulingStrategy(node_id=node, soft=False)
                actor = remote.options(scheduling_strategy=strategy).remote(
                    bots, share, restart, config.sandbox
                )
                nodes[node] = _Node(node, share, actor)
            log.info("ray_nodes", nodes={n[:12]: s for n, s in plan.items()})

        def submit(entry: _Node) -> None:
            if not pending or stop() or (cancel is not None and cancel.is_set()):
                return
            total = sum(n.share for n in nodes.values())
            size = batch_size_for(len(pending), entry.share, total)
            entry.batch = [pending.popleft() for _ in range(size)]
            in_flight[entry.actor.play.remote(entry.batch)] = entry

        await asyncio.to_thread(place)
        if not nodes:
            raise ExecutorError("ray: the cluster has no node with a CPU to play on")
        for entry in list(nodes.values()):
            submit(entry)
        while in_flight:
            ready, _ = await asyncio.to_thread(
                ray.wait, list(in_flight), num_returns=1, timeout=0.5
            )
            if cancel is not None and cancel.is_set():
                return
            for ref in ready:
                entry = in_flight.pop(ref)
                batch, entry.batch = entry.batch or [], None
                try:
                    results, stats = ray.get(ref)
                except ray.exceptions.RayActorError as exc:
                    # the node (or the actor's process) died: its matches go back to the queue
                    del nodes[entry.node]
                    gone.add(entry.node)  # (Ray may not have marked it dead yet)
                    with contextlib.suppress(Exception):  # (unreachable rather than dead)
                        ray.kill(entry.actor)
                    for job in batch:
                        lost[job.slot.match_id] += 1
                        if lost[job.slot.match_id] > MAX_RETRIES:
                            raise ExecutorError(
                                f"ray: match {job.slot.match_id} was lost with its node "
                                f"{MAX_RETRIES + 1} times: {_first_line(exc)}"
                            ) from None
                    pending.extendleft(reversed(batch))
                    log.warning("ray_node_lost", node=entry.node[:12], matches=len(batch))
                    await asyncio.to_thread(place)  # (a node that came back, or a new one)
                    idle = [n for n in nodes.values() if n.batch is None]
                    if not nodes:
                        raise ExecutorError(
                            f"ray: no node left to play on: {_first_line(exc)}"
                        ) from None
                    for other in idle:
                        submit(other)
                    continue
                except ray.exceptions.RayError as exc:
                    raise ExecutorError(
                        f"ray: a batch of {len(batch)} matches failed on node "
                        f"{entry.node[:12]}: {_first_line(exc)}"
                    ) from None
                for played in results:
                    commit(played)
                if on_stats is not None:
                    on_stats({n: BotStats(m, p, crashes=c) for n, (m, p, c) in stats.items()})
                log.info("ray_batch_done", node=entry.node[:12], matches=len(batch))
                submit(entry)
    finally:
        await asyncio.to_thread(_close, ray, [n.actor for n in nodes.values()], cancel)
        if started_here:
            ray.shutdown()


def _close(ray: Any, actors: list[Any], cancel: asyncio.Event | None) -> None:
    """End each node's bots and server (at once on a cancel: the actors are killed, and their
    bots die with them), then the actors."""
    if not (cancel is not None and cancel.is_set()):
        refs = [a.close.remote() for a in actors]
        ray.wait(refs, num_returns=len(refs), timeout=CLOSE_TIMEOUT_S)
    for actor in actors:
        with contextlib.suppress(Exception):  # (one that died with its node)
            ray.kill(actor)
