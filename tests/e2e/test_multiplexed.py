"""Multiplexed sessions (protocol 3) end to end: every seat of a bot process on its one Session
stream, over real gRPC, with real bot processes seated by a :class:`BotPool` on one arbiter.

The raw protocol 3 bot is ``tests/e2e/bots/mux_bot.py``: it answers out of order, records what
each seat is sent, and can die mid-batch. A seat on the stream is sent exactly what its own
Play stream would carry, byte for byte; answers may come in any order; each decision is charged
from the write that carried it; a stream that breaks loses every seat on it (a launched bot's
seats fault, a remote bot's come back on its next session within their window).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import itertools
import os
import random
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import grpc
import pytest
from e2e_kit import RANDOM, Kit, config, flattened, read_stream
from serve_kit import node_program

from croupier.arbiter import Outcome
from croupier.replay import read_replay, verify
from croupier.runner import MatchRun, run_match
from croupier.transport import REASON_KEY, ArbiterServer, BotPool, SandboxOptions
from croupier.v1 import bot_pb2 as pb
from croupier.v1 import bot_pb2_grpc
from croupier_bot import LegalActions

pytestmark = pytest.mark.e2e

MUX = [sys.executable, str(Path(__file__).parent / "bots" / "mux_bot.py")]
NODE_RANDOM = Path(__file__).resolve().parents[2] / "clients" / "node" / "examples" / "random.js"


async def _play(
    tmp: Path,
    bots: dict[str, list[str]],
    tables: Sequence[Sequence[str]],
    *,
    concurrency: int,
    deals: int = 2,
    seed: int = 100,
) -> tuple[list[MatchRun], BotPool]:
    """One match per table (pool names by seat), ``concurrency`` at a time, every bot a pooled
    session bot (capacity ``concurrency``); the runs in table order and the closed pool."""
    server = ArbiterServer()
    await server.start()
    streams = tmp / "streams"
    streams.mkdir(parents=True, exist_ok=True)
    streams.chmod(0o777)
    (tmp / "logs").mkdir(parents=True, exist_ok=True)
    pool = BotPool(
        server, tmp / "logs", capacity=concurrency, sandbox=SandboxOptions(writable=(streams,))
    )
    for name, argv in bots.items():
        pool.add(name, argv)
    runs: list[MatchRun | None] = [None] * len(tables)
    queue = list(enumerate(tables))

    async def worker() -> None:
        while queue:
            i, table = queue.pop(0)
            seats = [pool.assigner(name) for name in table]
            conf = config(seed=seed + i, deals=deals)
            runs[i] = await run_match(conf, seats, tmp / "out", server=server, match_id=f"m{i:02}")

    try:
        await asyncio.gather(*(worker() for _ in range(concurrency)))
    finally:
        await pool.close()
        await server.stop()
    return [r for r in runs if r is not None], pool


def _normal(run: MatchRun) -> bool:
    return all(s.outcome is Outcome.NORMAL for s in run.result.seats)


def _log(tmp: Path, name: str) -> str:
    return "\n".join(p.read_text() for p in sorted((tmp / "logs").glob(f"{name}.*.log")))


@pytest.mark.parametrize("stream", ["grpc", "pipe"])
def test_many_seats_share_one_stream_answered_out_of_order_each_charged_from_its_write(
    tmp_path: Path, stream: str
) -> None:
    """One process plays seat 0 of three matches at once on its one stream (its gRPC Session
    stream, or its session pipe); it holds the replies of its second and third seats 150 and
    300 ms, so they leave out of the order they were asked in, mixed in messages with the
    others'; every match plays normally, and each decision is charged at least the time the
    bot held it (its clock started when the message carrying it was written, not at a later
    write to the process)."""
    holds = ["--hold-ms", "2:150", "--hold-ms", "3:300", *(["--pipe"] if stream == "pipe" else [])]
    bots = {"x": [*MUX, *holds], "r1": RANDOM, "r2": RANDOM, "r3": RANDOM}
    tables = [list(bots)] * 6
    runs, pool = asyncio.run(_play(tmp_path, bots, tables, concurrency=3))
    assert len(runs) == 6
    assert all(_normal(r) for r in runs), [r.result for r in runs]
    for run in runs:
        verify(read_replay(run.replay))
    stats = pool.stats("x")
    assert (stats.mode, stats.processes, stats.crashes) == ("session", 1, 0)
    assert stats.peak_load == 3
    log = _log(tmp_path, "x")
    assert "welcome protocol_version=3" in log
    seats_per_message = [int(n) for n in re.findall(r"^message n=\d+ seats=(\d+)", log, re.M)]
    assert max(seats_per_message) >= 2, "no message carried two seats' items"
    # every held reply was charged at least what it was held: (match, request id) -> ms
    held = {
        (m, int(rid)): float(ms)
        for m, rid, ms in re.findall(
            r"^held match=(\S+) seat=0 request_id=(\d+) ms=(\S+)", log, re.M
        )
    }
    assert len(held) >= 6
    charged = {}
    for run in runs:
        for number, action in enumerate(Kit.records(run.replay, "action", seat=0), start=1):
            charged[(run.result.match_id, number)] = action["wall_us"]
    for key, ms in held.items():
        assert charged[key] >= (ms - 20) * 1000, (key, ms, charged[key])
    # and out of order: some reply left after a reply to a decision asked later
    asked = [int(i) for i in re.findall(r"^reply n=\d+ asked=(\d+)", log, re.M)]
    assert len(asked) == sum(len(Kit.records(r.replay, "action", seat=0)) for r in runs)
    assert any(a > b for a, b in itertools.pairwise(asked)), "answers came in order"


def test_a_seat_on_the_stream_is_sent_what_its_play_stream_carries(tmp_path: Path) -> None:
    """The same match (seed, deals, every bot's choices) twice: seat 0 played by the raw
    ``recorder`` on a Play stream of its own, then by the multiplexed bot in a session; what the
    seat was sent is the same, item by item, byte for byte, and so is the replay."""
    kit = Kit(tmp_path)
    play_stream = kit.streams / "play.bin"
    first = kit.run(
        [kit.bot("recorder", play_stream), kit.random, kit.random, kit.random],
        out="a", seed=31, deals=4, match_id="as-nas-mux",
    )  # fmt: skip

    async def multiplexed() -> MatchRun:
        server = ArbiterServer()
        await server.start()
        logs = tmp_path / "logs"
        logs.mkdir(exist_ok=True)
        pool = BotPool(server, logs, sandbox=SandboxOptions(writable=(kit.streams,)))
        pool.add("mux", [*MUX, "--record", str(kit.streams), "--name", "recorder"])
        try:
            seats: list[Any] = [pool.assigner("mux"), kit.random, kit.random, kit.random]
            conf = config(seed=31, deals=4)
            return await run_match(
                conf, seats, tmp_path / "b", server=server, match_id="as-nas-mux",
                sandbox=SandboxOptions(writable=(kit.streams,)),
            )  # fmt: skip
        finally:
            await pool.close()
            await server.stop()

    second = asyncio.run(multiplexed())
    assert _normal(first)
    assert _normal(second)
    on_play = flattened(read_stream(play_stream))
    on_mux = flattened(read_stream(kit.streams / "as-nas-mux.seat0.bin"))
    assert len(on_play) > 20
    assert on_play == on_mux
    assert _records(first) == _records(second)


def test_no_seat_of_a_busy_stream_is_sent_another_seats_items(tmp_path: Path) -> None:
    """No leak between the seats of one stream: one process plays seat 0 of three matches at
    once (its replies held so that messages carry several seats' items), and each seat is sent
    exactly, byte for byte, what the same seat of the same match is sent on a Play stream of its
    own; nothing of another seat (another match's hand, say) reaches it under its seat_ref."""
    kit = Kit(tmp_path)
    seeds = {f"busy{i}": 40 + i for i in range(3)}
    alone = {}
    for match_id, seed in seeds.items():
        stream = kit.streams / f"{match_id}.play.bin"
        run = kit.run(
            [kit.bot("recorder", stream), kit.random, kit.random, kit.random],
            out="a", seed=seed, deals=3, match_id=match_id,
        )  # fmt: skip
        assert _normal(run)
        alone[match_id] = flattened(read_stream(stream))

    async def multiplexed() -> tuple[list[MatchRun], BotPool]:
        server = ArbiterServer()
        await server.start()
        logs = tmp_path / "logs"
        logs.mkdir(exist_ok=True)
        sandbox = SandboxOptions(writable=(kit.streams,))
        pool = BotPool(server, logs, capacity=3, sandbox=sandbox)
        holds = ["--hold-ms", "1:40", "--hold-ms", "2:80"]
        pool.add("mux", [*MUX, "--record", str(kit.streams), "--name", "recorder", *holds])
        try:
            runs = await asyncio.gather(
                *(
                    run_match(
                        config(seed=seed, deals=3),
                        [pool.assigner("mux"), kit.random, kit.random, kit.random],
                        tmp_path / "b",
                        server=server,
                        match_id=match_id,
                        sandbox=sandbox,
                    )
                    for match_id, seed in seeds.items()
                )
            )
        finally:
            await pool.close()
            await server.stop()
        return list(runs), pool

    runs, pool = asyncio.run(multiplexed())
    assert all(_normal(r) for r in runs), [r.result for r in runs]
    assert (pool.stats("mux").processes, pool.stats("mux").peak_load) == (1, 3)
    seats_per_message = [
        int(n) for n in re.findall(r"^message n=\d+ seats=(\d+)", _log(tmp_path, "mux"), re.M)
    ]
    assert max(seats_per_message) >= 2, "no message carried two seats' items"
    for match_id in seeds:
        on_mux = flattened(read_stream(kit.streams / f"{match_id}.seat0.bin"))
        assert len(alone[match_id]) > 20
        assert on_mux == alone[match_id], match_id


#: Replay fields that differ between two runs of one seed: wall-clock readings, the salt and
#: what the commitment binds it into, and where each bot connected from.
_RUN_FIELDS = {"time_us", "started_at", "ended_at", "wall_us", "lag_us", "cpu_us", "salt",
               "commitment", "deal_commitment", "peer"}  # fmt: skip


def _records(run: MatchRun) -> list[Any]:
    def strip(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: strip(v) for k, v in value.items() if k not in _RUN_FIELDS}
        if isinstance(value, list):
            return [strip(v) for v in value]
        return value

    replay = read_replay(run.replay)
    return [strip(replay.header)] + [strip(r.data) for r in replay.records]


def test_a_launched_bot_dying_mid_batch_loses_every_seat_it_held(tmp_path: Path) -> None:
    """The multiplexed bot holds every reply, answers the first once two of its seats wait for
    one, and dies (status 3) with the others unanswered: each seat it held faults as a crash in
    its match, nobody else's; the pool starts it afresh for the next matches."""
    marker = tmp_path / "streams" / "broke-once"
    (tmp_path / "streams").mkdir(parents=True)
    hold = [x for ref in range(1, 4) for x in ("--hold-ms", f"{ref}:100")]
    bots = {"x": [*MUX, "--break", str(marker), *hold], "r1": RANDOM, "r2": RANDOM}
    bots["r3"] = RANDOM
    runs, pool = asyncio.run(_play(tmp_path, bots, [list(bots)] * 6, concurrency=3))
    assert marker.exists()
    assert "breaking after answering" in _log(tmp_path, "x")
    broken = [r for r in runs if not _normal(r)]
    assert len(broken) >= 2, "the bot should have held two seats or more when it died"
    for run in broken:
        assert run.result.seats[0].outcome is Outcome.DISCONNECTED
        assert all(s.outcome is Outcome.NORMAL for s in run.result.seats[1:])
        faults = [r["fault"] for r in Kit.records(run.replay, seat=0) if r.get("fault")]
        assert faults[:1] == ["crash"], faults
        verify(read_replay(run.replay))
    later = [r for r in runs if _normal(r)]
    assert later, "the restarted bot should have played the later matches"
    stats = pool.stats("x")
    assert (stats.processes, stats.crashes) == (2, 1)


class _Remote:
    """A raw protocol 3 remote bot, in the test's process: plays every seat it is handed with
    the recorder's choices; ``break_at``: once that many decisions wait for it, answers the
    first and cancels its stream (a network failure mid-batch), then dials a new session."""

    def __init__(self, address: str, token: str, break_at: int = 0) -> None:
        self.address, self.token, self.break_at = address, token, break_at
        self.rngs: dict[str, random.Random] = {}  # by seat token: the same seat on any stream
        self.streams = 0
        self.handed_again = 0
        self.resent = 0
        self.answered: set[tuple[str, int]] = set()

    async def run(self) -> None:
        async with grpc.aio.insecure_channel(self.address) as channel:
            stub = bot_pb2_grpc.BotServiceStub(channel)
            while await self._stream(stub):
                pass

    async def _stream(self, stub: Any) -> bool:
        """One Session stream: True if it was broken on purpose (dial again)."""
        call = stub.Session()
        hello = pb.SessionHello(token=self.token, bot_name="remote", protocol_version=3,
                                capacity=4)  # fmt: skip
        try:
            await call.write(pb.SessionRequest(hello=hello))
            welcome = await call.read()
        except grpc.aio.AioRpcError as exc:
            reason = dict(exc.trailing_metadata() or ()).get(REASON_KEY, "")
            if reason == "SESSION_TAKEN":  # the arbiter has not seen the old stream go yet
                await asyncio.sleep(0.05)
                return True
            raise
        assert welcome.welcome.protocol_version == 3
        self.streams += 1
        refs: dict[int, str] = {}
        pending: list[pb.SeatReply] = []
        while (response := await call.read()) is not grpc.aio.EOF:
            for item in response.seat_messages:
                if item.HasField("assignment"):
                    token = item.assignment.token
                    if token in self.rngs:
                        self.handed_again += 1
                    else:
                        self.rngs[token] = random.Random(item.assignment.seed)
                    refs[item.seat_ref] = token
                if not item.message.HasField("decision"):
                    continue
                token = refs[item.seat_ref]
                d = item.message.decision
                if (token, d.request_id) in self.answered:
                    self.resent += 1  # its answer was lost with the stream: the same again
                reply = pb.SeatReply(seat_ref=item.seat_ref)
                reply.action.request_id = d.request_id
                reply.action.action_id = self.rngs[token].choice(LegalActions(d.legal_actions).ids)
                pending.append(reply)
            if self.break_at and len(pending) >= self.break_at:
                first = pending[0]
                await call.write(pb.SessionRequest(replies=[first]))
                self.answered.add((refs[first.seat_ref], first.action.request_id))
                self.break_at = 0
                call.cancel()  # mid-batch: the other decisions unanswered
                return True
            if pending and not self.break_at:
                await call.write(pb.SessionRequest(replies=pending))
                pending = []
        return False


def test_a_remote_session_broken_mid_batch_comes_back_to_every_seat(tmp_path: Path) -> None:
    """A remote bot (reconnect window 10 s) whose stream breaks while two of its seats wait for
    an answer dials a new session: every seat it held is handed to it again (the same token),
    its pending decision with it, and every match ends normally, the drop and the return in
    its replay."""

    async def scenario() -> tuple[list[MatchRun], _Remote]:
        server = ArbiterServer()
        await server.start()
        pool = BotPool(server, tmp_path, capacity=4, remote_grace_s=10)
        token = pool.add_remote("far")
        for name in ("r1", "r2", "r3"):
            pool.add(name, RANDOM)
        remote = _Remote(server.address, token, break_at=2)
        bot = asyncio.create_task(remote.run())
        try:
            await asyncio.wait_for(pool.remote_session("far").connected.wait(), 10)
            conf = dataclasses.replace(config(deals=3), reconnect_grace_s=10)
            runs = await asyncio.gather(
                *(
                    run_match(
                        dataclasses.replace(conf, seed=i),
                        [pool.assigner(n) for n in ("far", "r1", "r2", "r3")],
                        tmp_path / "out",
                        server=server,
                        match_id=f"far{i}",
                    )
                    for i in range(3)
                )
            )
        finally:
            await pool.close()
            await server.stop()
            with contextlib.suppress(grpc.aio.AioRpcError):
                await asyncio.wait_for(bot, 10)
        return list(runs), remote

    runs, remote = asyncio.run(scenario())
    assert remote.streams == 2
    assert remote.handed_again >= 2
    assert all(_normal(r) for r in runs), [r.result for r in runs]
    dropped = [r for r in runs if Kit.records(r.replay, "dropped")]
    assert len(dropped) >= 2
    for run in dropped:
        assert Kit.records(run.replay, "rejoined"), "a seat dropped and never came back"
        verify(read_replay(run.replay))


def test_a_protocol_2_session_is_still_handed_seats_to_play_on_play_streams(
    tmp_path: Path,
) -> None:
    """An old bot (protocol 2) is not refused: its session is welcomed with version 2 and
    handed SeatAssignments, each played on a Play stream whose Welcome says 2, as before."""
    bots = {"old": [*MUX, "--protocol", "2"], "r1": RANDOM, "r2": RANDOM, "r3": RANDOM}
    runs, pool = asyncio.run(_play(tmp_path, bots, [list(bots)] * 3, concurrency=2))
    assert all(_normal(r) for r in runs)
    log = _log(tmp_path, "old")
    assert "welcome protocol_version=2" in log
    assert log.count("seat assignment received") == 3
    assert log.count("play stream welcome protocol_version=2") == 3
    assert "message n=" not in log
    assert pool.stats("old").processes == 1


@pytest.mark.parametrize("sdk", ["python", "node"])
def test_the_sdks_speak_protocol_2_to_an_arbiter_from_before_protocol_3(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, sdk: str
) -> None:
    """An arbiter that speaks only protocol 2 (one from before multiplexing) refuses an SDK's
    hello in 3 (``PROTOCOL_VERSION``); the SDK says it again in 2 and plays its seats on Play
    streams of their own."""
    import croupier.transport._server as server_module

    monkeypatch.setattr(server_module, "PROTOCOL_VERSION", 2)

    async def scenario() -> tuple[MatchRun, int, int | None]:
        server = ArbiterServer()
        await server.start()
        pool = BotPool(server, tmp_path)
        token = pool.add_remote("far")
        for name in ("r1", "r2", "r3"):
            pool.add(name, RANDOM)
        env = {**os.environ, "CROUPIER_ADDRESS": server.address, "CROUPIER_SESSION_TOKEN": token,
               "CROUPIER_SESSION_RECONNECT_S": "0"}  # fmt: skip
        argv = RANDOM if sdk == "python" else [node_program(), str(NODE_RANDOM)]
        bot = await asyncio.create_subprocess_exec(*argv, env=env)
        try:
            await asyncio.wait_for(pool.remote_session("far").connected.wait(), 20)
            version = pool.remote_session("far").protocol_version
            seats = [pool.assigner(n) for n in ("far", "r1", "r2", "r3")]
            run = await run_match(config(), seats, tmp_path / "out", server=server)
        finally:
            await pool.close()
            await server.stop()
            code = await asyncio.wait_for(bot.wait(), 30)
        return run, version, code

    run, version, code = asyncio.run(scenario())
    assert version == 2
    assert _normal(run)
    assert code == 0
