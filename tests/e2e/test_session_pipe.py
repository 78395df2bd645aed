"""The session pipe end to end: a launched session bot's Session stream on a socket pair of its
own (``CROUPIER_SESSION_FD``, :mod:`croupier.transport._pipe`), with real bot processes seated by
a :class:`BotPool` on a real arbiter.

The SDK's bots play there with no change to their code and play exactly what they play on gRPC;
a seat on the pipe is sent what its gRPC stream carries, byte for byte; each bot holds its own
pipe and no other; a hostile frame ends only its own bot's seats.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from e2e_kit import RANDOM, Kit, config, flattened, read_stream
from pipe_kit import one_decision_on_a_pipe
from serve_kit import node_program
from test_multiplexed import MUX, NODE_RANDOM, _normal, _records

from croupier.arbiter import Outcome
from croupier.runner import MatchRun, run_match
from croupier.transport import ArbiterServer, BotPool, SandboxOptions, _cgroups

pytestmark = pytest.mark.e2e


async def _play(
    tmp: Path,
    bots: dict[str, list[str]],
    tables: Sequence[Sequence[Any]],
    *,
    pipe: bool = True,
    concurrency: int = 2,
    seed: int = 300,
    deals: int = 3,
) -> tuple[list[MatchRun], int, ArbiterServer]:
    """One match per table (pool names, or a seat assigner as it is), ``concurrency`` at a
    time; the runs in table order, how many sessions came on a pipe, the stopped server."""
    server = ArbiterServer()
    await server.start()
    (tmp / "logs").mkdir(parents=True, exist_ok=True)
    streams = tmp / "streams"
    streams.mkdir(exist_ok=True)
    streams.chmod(0o777)
    sandbox = SandboxOptions(writable=(streams,))
    pool = BotPool(server, tmp / "logs", capacity=concurrency, pipe=pipe, sandbox=sandbox)
    for name, argv in bots.items():
        pool.add(name, argv)
    runs: list[MatchRun | None] = [None] * len(tables)
    queue = list(enumerate(tables))

    async def worker() -> None:
        while queue:
            i, table = queue.pop(0)
            seats = [pool.assigner(s) if isinstance(s, str) else s for s in table]
            conf = config(seed=seed + i, deals=deals)
            runs[i] = await run_match(
                conf, seats, tmp / "out", server=server, match_id=f"p{i:02}", sandbox=sandbox
            )

    try:
        await asyncio.gather(*(worker() for _ in range(concurrency)))
    finally:
        await pool.close()
        await server.stop()
    assert all(r is not None for r in runs)
    return [r for r in runs if r is not None], server.bots.pipes, server


def _log(tmp: Path, name: str) -> str:
    return "\n".join(p.read_text() for p in sorted((tmp / "logs").glob(f"{name}.*.log")))


def test_sdk_session_bots_play_on_their_pipes_exactly_as_on_grpc(tmp_path: Path) -> None:
    """Four SDK random bots, four matches two at a time: on their pipes (four sessions there)
    and again with no pipe (none): every seat plays to the end, and each match's replay is the
    same record for record (timings aside) both ways."""
    bots = {f"r{i}": RANDOM for i in range(4)}
    tables = [["r0", "r1", "r2", "r3"], ["r1", "r2", "r3", "r0"]] * 2
    piped, pipes, _ = asyncio.run(_play(tmp_path / "a", bots, tables))
    plain, none, _ = asyncio.run(_play(tmp_path / "b", bots, tables, pipe=False))
    assert (pipes, none) == (4, 0)
    assert all(_normal(run) for run in piped + plain)
    assert [_records(run) for run in piped] == [_records(run) for run in plain]
    assert "unwelcomed" not in _log(tmp_path / "a", "r0")


def test_a_seat_on_the_pipe_is_sent_what_its_grpc_stream_carries(tmp_path: Path) -> None:
    """The raw multiplexed bot records what seat 0 is sent, once on its gRPC Session stream and
    once on its pipe, same seeds and opponents: the same items, byte for byte, and the same
    replay."""
    kit = Kit(tmp_path)
    runs = []
    for name, extra in (("grpc", []), ("pipe", ["--pipe"])):
        record = tmp_path / name / "streams"
        record.mkdir(parents=True)
        record.chmod(0o777)
        mux = [*MUX, "--record", str(tmp_path / name / "streams"), "--name", "recorder", *extra]
        bots = {"mux": mux}
        (run,), pipes, _ = asyncio.run(
            _play(tmp_path / name, bots, [["mux", kit.random, kit.random, kit.random]], deals=4)
        )
        assert pipes == (1 if extra else 0)
        assert _normal(run)
        runs.append(run)
    on_grpc = flattened(read_stream(tmp_path / "grpc" / "streams" / "p00.seat0.bin"))
    on_pipe = flattened(read_stream(tmp_path / "pipe" / "streams" / "p00.seat0.bin"))
    assert len(on_grpc) > 20
    assert on_grpc == on_pipe
    assert _records(runs[0]) == _records(runs[1])


@pytest.mark.parametrize("attack", ["oversize", "cut", "flood", "garbage"])
def test_a_hostile_frame_on_a_pipe_ends_only_its_own_bots_seats(
    tmp_path: Path, attack: str
) -> None:
    """A frame claiming a gigabyte, one cut short by the bot's exit, or a flood of messages
    that answer nothing ends that bot's pipe: its seat faults as a disconnection, the match
    plays on to its end with the others, and the arbiter serves the next match. Bytes that are
    no message are skipped, as on gRPC."""
    bots = {"mux": [*MUX, "--pipe", "--attack", attack], "r": RANDOM}
    runs, pipes, _ = asyncio.run(
        _play(tmp_path, bots, [["mux", "r", "r", "r"], ["r", "r", "r", "r"]], concurrency=1)
    )
    assert f"attack {attack}" in _log(tmp_path, "mux")
    hostile, after = runs
    outcomes = [s.outcome for s in hostile.result.seats]
    expected = Outcome.NORMAL if attack == "garbage" else Outcome.DISCONNECTED
    assert outcomes == [expected, Outcome.NORMAL, Outcome.NORMAL, Outcome.NORMAL]
    assert _normal(after)
    assert pipes >= 2  # (the random bots' too)
    # the hostile bot, still alive when its pipe ended, was stopped before the pool closed:
    # nothing of it is left, not even its control group
    setup = _cgroups.machine_setup()
    left = [p for h in setup.hierarchies for p in h.parent.glob(f"croupier-{os.getpid()}-*")]
    assert left == []


def test_each_launched_bot_holds_its_own_pipe_and_no_other(tmp_path: Path) -> None:
    """Two session bots at once: each process holds exactly one socket, its pipe, whose other
    end is this process (the arbiter), when the bot's PID namespace lets it see that pid."""
    census = Kit(tmp_path).bot("fd_census")
    bots = {"a": census, "b": census, "r": RANDOM}
    runs, pipes, _ = asyncio.run(_play(tmp_path, bots, [["a", "b", "r", "r"]], concurrency=1))
    assert _normal(runs[0])
    assert pipes == 4  # (a process never holds two seats of a match: two "r" processes)
    for name in ("a", "b"):
        log = _log(tmp_path, name)
        assert "sockets=1 pipe=" in log, log
        peer = int(log.split("pipe_peer_pid=")[1].split()[0])
        assert peer in (0, os.getpid())


@pytest.mark.parametrize("pipe", [True, False], ids=["pipe", "grpc"])
def test_the_node_sdk_plays_on_its_pipe_as_on_grpc(tmp_path: Path, pipe: bool) -> None:
    """The Node SDK's random bot in a session among Python ones: on its pipe when it has one
    (four sessions there), on gRPC otherwise; every seat plays to the end both ways."""
    node = [node_program(), str(NODE_RANDOM)]
    bots = {"node": node, "r": RANDOM}
    tables = [["node", "r", "r", "r"], ["r", "node", "r", "r"]]
    runs, pipes, _ = asyncio.run(_play(tmp_path, bots, tables, pipe=pipe))
    assert all(_normal(run) for run in runs)
    assert [run.result.seats[i].bot_name for i, run in enumerate(runs)] == ["node-random"] * 2
    assert pipes == (4 if pipe else 0)
    assert "unwelcomed" not in _log(tmp_path, "node")


def test_a_node_bot_on_its_pipe_loads_no_grpc_library(tmp_path: Path) -> None:
    """The Node SDK on its pipe (de)serializes with the contract ``proto-loader`` read and dials
    nothing, so it never loads ``@grpc/grpc-js``. The Node random bot, a real process on a
    pipe of this test's (standing for the arbiter), is welcomed, answers a decision, and ends
    with the pipe; ``NODE_DEBUG=module`` lists every module it loaded."""
    log = tmp_path / "node.err"
    status = one_decision_on_a_pipe(
        [node_program(), str(NODE_RANDOM)], log, {"NODE_DEBUG": "module"}
    )
    text = log.read_text()
    assert status == 0, text[-2000:]
    assert "@grpc/proto-loader" in text  # (the module list is there)
    assert "@grpc/grpc-js" not in text
