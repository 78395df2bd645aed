"""Honest seats under attack (issue 19): junk from a process on the same machine, over real gRPC,
while real bot processes play. The attacker shares the honest bots' address (loopback), as bots
behind one NAT would share an attacker's: its limits must not become theirs."""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import subprocess
import time
from pathlib import Path

import grpc
import pytest
from e2e_kit import RANDOM, Kit, config
from serve_kit import node_program

from croupier import PROTOCOL_VERSION
from croupier.arbiter import Outcome
from croupier.runner import MatchRun, run_match
from croupier.transport import (
    ENV_ADDRESS,
    ENV_SESSION_CAPACITY,
    ENV_SESSION_TOKEN,
    REASON_KEY,
    ArbiterServer,
    BotPool,
    PeerLimits,
)
from croupier.transport._server import MAX_BOT_MESSAGE_BYTES
from croupier.v1 import bot_pb2 as pb
from croupier.v1 import bot_pb2_grpc

pytestmark = pytest.mark.e2e


def _normal(run: MatchRun) -> bool:
    return all(s.outcome is Outcome.NORMAL for s in run.result.seats)


async def _end(call: object) -> str:
    """How the stream ``call`` ended: its status code and croupier-reason."""
    try:
        while await asyncio.wait_for(call.read(), 10) is not grpc.aio.EOF:  # type: ignore[attr-defined]
            pass
    except grpc.aio.AioRpcError as exc:
        reason = dict(exc.trailing_metadata() or ()).get(REASON_KEY, "")
        return f"{exc.code().name}:{reason}"
    except TimeoutError:
        return "still open"
    return "OK"


def test_an_oversized_message_is_refused_without_hurting_the_honest_match(tmp_path: Path) -> None:
    async def main() -> tuple[MatchRun, list[str]]:
        server = ArbiterServer()
        address = await server.start()
        ends: list[str] = []
        stop = asyncio.Event()

        async def attack() -> None:
            big = random.Random(1).randbytes(4 * MAX_BOT_MESSAGE_BYTES)
            method = {
                "Play": "/croupier.v1.BotService/Play",
                "Session": "/croupier.v1.BotService/Session",
            }
            async with grpc.aio.insecure_channel(address) as channel:
                while not stop.is_set():
                    for name in ("Play", "Session"):
                        raw = channel.stream_stream(method[name])
                        call = raw()
                        with contextlib.suppress(grpc.aio.AioRpcError, asyncio.InvalidStateError):
                            await call.write(big)
                        ends.append(f"{name}:{await _end(call)}")
                    # headers far over the cap
                    call = bot_pb2_grpc.BotServiceStub(channel).Play(
                        metadata=(("x-junk", "j" * 64 * 1024),)
                    )
                    ends.append(f"metadata:{await _end(call)}")

        attacker = asyncio.create_task(attack())
        try:
            run = await run_match(config(seed=3, deals=4), [RANDOM] * 4, tmp_path, server=server)
        finally:
            stop.set()
            await attacker
            await server.stop()
        return run, ends

    run, ends = asyncio.run(main())
    assert _normal(run)
    assert len(ends) >= 3
    refused = {e.split(":", 1)[1].split(":")[0] for e in ends}
    assert refused == {"RESOURCE_EXHAUSTED"}, sorted(set(ends))


def test_session_junk_does_not_disturb_running_sessions(tmp_path: Path) -> None:
    """Four session processes dial over loopback (one connection each, several seats at once)
    while a local attacker holds Session and Play streams open without a Hello and sends junk
    on Session (bytes, guessed tokens, wrong versions, oversized): every match ends normally and
    no session is dropped. Today the held streams take every stream the server serves."""

    async def main() -> tuple[list[MatchRun], list[str], list[int]]:
        server = ArbiterServer(max_streams=200)
        address = await server.start()
        (tmp_path / "logs").mkdir()
        pool = BotPool(server, tmp_path / "logs")
        bots = []
        for n in range(4):
            token = pool.add_remote(f"honest{n}")
            env = {
                **os.environ,
                ENV_ADDRESS: address,
                ENV_SESSION_TOKEN: token,
                ENV_SESSION_CAPACITY: "4",
            }
            bots.append(subprocess.Popen(RANDOM, env=env, stdout=subprocess.DEVNULL))
        stop = asyncio.Event()
        ends: list[str] = []

        async def attack() -> None:
            rng = random.Random(7)
            channels = [grpc.aio.insecure_channel(address) for _ in range(3)]
            held = []
            for channel in channels:  # streams that never say Hello
                stub = bot_pb2_grpc.BotServiceStub(channel)
                held += [stub.Session() for _ in range(90)] + [stub.Play() for _ in range(10)]
            stub = bot_pb2_grpc.BotServiceStub(channels[0])
            raw = channels[0].stream_stream("/croupier.v1.BotService/Session")
            while not stop.is_set():
                kind = rng.randrange(4)
                call = raw()
                if kind == 0:
                    message = rng.randbytes(rng.randrange(1, 300))
                elif kind == 1:
                    hello = pb.SessionHello(
                        token=rng.randbytes(18).hex(), capacity=9, protocol_version=PROTOCOL_VERSION
                    )
                    message = pb.SessionRequest(hello=hello).SerializeToString()
                elif kind == 2:
                    hello = pb.SessionHello(token="t", protocol_version=rng.randrange(2, 99))
                    message = pb.SessionRequest(hello=hello).SerializeToString()
                else:
                    message = rng.randbytes(2 * MAX_BOT_MESSAGE_BYTES)
                with contextlib.suppress(grpc.aio.AioRpcError, asyncio.InvalidStateError):
                    await call.write(message)
                ends.append(await _end(call))
            for call in held:
                call.cancel()
            for channel in channels:
                await channel.close()

        attacker = asyncio.create_task(attack())
        await asyncio.sleep(1.0)  # the held streams are open before the sessions get seats
        runs: list[MatchRun] = []
        try:
            for round_ in range(3):
                tables = [[f"honest{(t + s) % 4}" for s in range(4)] for t in range(4)]
                runs += await asyncio.gather(
                    *(
                        run_match(
                            config(seed=10 * round_ + t, deals=2),
                            [pool.assigner(name) for name in table],
                            tmp_path / "out",
                            server=server,
                        )
                        for t, table in enumerate(tables)
                    )
                )
            sessions = [pool.stats(f"honest{n}").processes for n in range(4)]
        finally:
            stop.set()
            await attacker
            await pool.close()
            await server.stop()
            for bot in bots:
                bot.wait(10)
        return runs, ends, sessions

    runs, ends, sessions = asyncio.run(main())
    outcomes = [[s.outcome.value for s in run.result.seats] for run in runs]
    faults = [r.get("detail") for run in runs for r in Kit.records(run.replay, "fault")]
    assert all(_normal(run) for run in runs), (outcomes, faults[:4])
    assert all(_normal(run) for run in runs), outcomes
    assert len(runs) == 12
    assert ends
    assert "OK" not in ends
    assert "still open" not in ends
    assert sessions == [1, 1, 1, 1] or sessions == [0, 0, 0, 0]  # never dialled again


NODE_RANDOM = Path(__file__).resolve().parents[2] / "clients" / "node" / "examples" / "random.js"


@pytest.mark.parametrize("sdk", ["python", "node"])
def test_an_sdk_bot_refused_for_room_dials_again_until_it_gets_in(tmp_path: Path, sdk: str) -> None:
    """The per-peer limits may refuse a stream before reading its Hello ("try again later":
    TOO_MANY_ATTEMPTS) when its address has no room; the Python and Node SDKs then dial their
    Session (and each seat's Play stream) again with backoff instead of giving up. Before, the
    bot exited with status 2 at its first refusal and its seats were no-shows."""
    command = RANDOM if sdk == "python" else [node_program(), str(NODE_RANDOM)]

    async def main() -> tuple[MatchRun, int | None, list[str], int]:
        # one refused Hello puts loopback on probation for 1 s, with no room on it at all
        limits = PeerLimits(failed_hellos=1, probation=0, window_s=1.0)
        server = ArbiterServer(limits=limits)
        address = await server.start()
        (tmp_path / "logs").mkdir()
        pool = BotPool(server, tmp_path / "logs")
        token = pool.add_remote("honest")
        async with grpc.aio.insecure_channel(address) as channel:
            guess = bot_pb2_grpc.BotServiceStub(channel).Session()
            hello = pb.SessionHello(token="guess", protocol_version=PROTOCOL_VERSION)
            await guess.write(pb.SessionRequest(hello=hello))
            assert (await _end(guess)) == "UNAUTHENTICATED:TOKEN_UNKNOWN"
        env = {**os.environ, ENV_ADDRESS: address, ENV_SESSION_TOKEN: token}
        err = (tmp_path / "bot.err").open("wb")
        bot = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=err)
        # loopback stays over its limit (as if the guesses went on) until the bot has been
        # refused for room at least once, however late its process starts; then the window
        # runs out and its next dial must get in
        loop, deadline = asyncio.get_running_loop(), time.monotonic() + 60
        while server.bots.refused_busy == 0 and bot.poll() is None and time.monotonic() < deadline:
            server.bots.peers.failed("loopback", loop.time())
            await asyncio.sleep(0.1)
        refused = server.bots.refused_busy
        early = bot.poll()
        try:
            run = await run_match(
                config(seed=3, deals=1), [pool.assigner("honest"), RANDOM, RANDOM, RANDOM],
                tmp_path / "out", server=server,
            )  # fmt: skip
        finally:
            await pool.close()
            await server.stop()
            bot.wait(10)
            err.close()
        return run, early, (tmp_path / "bot.err").read_text().splitlines(), refused

    run, early, err, refused = asyncio.run(main())
    assert refused >= 1, "the bot was never refused for room: the test did not test its point"
    assert early is None, err  # it was still dialling, not gone
    assert _normal(run), [s.outcome for s in run.result.seats]
