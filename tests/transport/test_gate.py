"""A launched bot's gate (``transport/_gate.py``): it counts the HTTP/2 streams its bot opens
from the bytes it forwards, however they are cut into reads (a new stream is a ``HEADERS``
frame with a stream id above the last; a frame's payload, whatever it holds, trailing
``HEADERS`` on an open stream, ``DATA`` and the client preface are not); a bot's streams
without a Hello count against it even on the connection of its own session; and it takes
connections from its bot's processes only."""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import struct
import subprocess
from collections.abc import AsyncIterator
from pathlib import Path

import grpc
import pytest

from croupier import PROTOCOL_VERSION
from croupier.arbiter import Match, MatchConfig
from croupier.replay import ReplayWriter
from croupier.transport import ArbiterServer
from croupier.transport._gate import _PREFACE, BotGate, _Streams
from croupier.v1 import bot_pb2 as pb
from croupier.v1 import bot_pb2_grpc


def _frame(kind: int, stream: int, payload: bytes = b"") -> bytes:
    head = struct.pack(">I", len(payload))[1:] + bytes([kind, 0x4]) + struct.pack(">I", stream)
    return head + payload


def _connection() -> tuple[bytes, int]:
    # a payload that looks like frame heads, to catch a counter that does not skip payloads
    decoy = _frame(1, 999) * 3
    parts = [_PREFACE, _frame(4, 0), _frame(1, 1, b"h"), _frame(0, 1, decoy), _frame(1, 3, decoy)]
    parts += [_frame(1, 1, b"trailers"), _frame(8, 0, b"\0\0\0\1"), _frame(1, 5), _frame(9, 5)]
    parts += [_frame(1, 7, b"x" * 70000), _frame(3, 7, b"\0\0\0\0")]
    return b"".join(parts), 4  # streams 1, 3, 5, 7


@pytest.mark.parametrize("seed", range(20))
def test_new_streams_are_counted_across_any_cut_of_the_bytes(seed: int) -> None:
    data, expected = _connection()
    rng = random.Random(seed)
    counter, at, counted = _Streams(), 0, 0
    while at < len(data):
        step = rng.choice([1, 2, 5, 9, 17, 100, 65536])
        counted += counter.opened(data[at : at + step])
        at += step
    assert counted == expected


def test_in_one_read() -> None:
    data, expected = _connection()
    assert _Streams().opened(data) == expected


def _play_hello(token: str) -> pb.PlayRequest:
    return pb.PlayRequest(
        hello=pb.Hello(token=token, bot_name="b", protocol_version=PROTOCOL_VERSION)
    )


@contextlib.asynccontextmanager
async def _hosting(
    tmp_path: Path, gates: int
) -> AsyncIterator[tuple[ArbiterServer, Match, list[BotGate]]]:
    """A server hosting a one-deal As-Nas match, and ``gates`` open gates to it whose bot is
    this process; all closed afterwards."""
    server = ArbiterServer()
    await server.start()
    opened: list[BotGate] = []
    try:
        assert server.unix_socket is not None
        match = Match(MatchConfig("as-nas", {"deals": 1}), "m", ReplayWriter(tmp_path / "r"))
        server.bots.add_match(match)
        for _ in range(gates):
            gate = BotGate(server.unix_socket)
            await gate.open()
            gate.owner = os.getpid()  # (the bots are this process)
            opened.append(gate)
        yield server, match, opened
    finally:
        for gate in opened:
            await gate.close()
        await server.stop(0)


async def _honest_joins(gate: BotGate, token: str) -> str:
    """What an honest bot behind ``gate`` is answered to its Hello: ``welcome``, or why not.
    Its channel has subchannels of its own: gRPC shares them between channels to the same
    address by default, and one refused just before (a foreign process's) may still be backing
    off, failing this call at once."""
    local = [("grpc.use_local_subchannel_pool", 1)]
    async with grpc.aio.insecure_channel(f"unix:{gate.path}", options=local) as channel:
        call = bot_pb2_grpc.BotServiceStub(channel).Play()
        try:
            await call.write(_play_hello(token))
            first = await asyncio.wait_for(call.read(), 10)
            return str(first.WhichOneof("kind"))
        except grpc.aio.AioRpcError as exc:
            return f"refused: {exc.code().name} {exc.details()}"
        finally:
            call.cancel()


@pytest.mark.parametrize("session", [False, True], ids=["plain", "after-its-session"])
def test_a_bot_s_streams_without_hello_count_against_it_even_on_its_session_s_connection(
    tmp_path: Path, session: bool
) -> None:
    """1,090 ``Play`` streams without a Hello through one gate over 7 s, as fast as the gate
    lets them through, also on the connection where its bot's session is attached: the other
    gate's bot still gets its seat. (A connection that carried a session was not limited at
    all: a launched session bot holds a valid session token of its own, and its flood then
    filled gRPC's cap: the honest Hello was refused, "Concurrent RPC limit exceeded".)"""

    async def scenario() -> tuple[str, int]:
        async with _hosting(tmp_path, 2) as (server, match, (bad, good)):
            owned = server.bots.open_session()
            async with grpc.aio.insecure_channel(f"unix:{bad.path}") as channel:
                stub = bot_pb2_grpc.BotServiceStub(channel)
                if session:
                    hello = pb.SessionHello(
                        token=owned.token, bot_name="evil", protocol_version=PROTOCOL_VERSION
                    )
                    attached = stub.Session()
                    await attached.write(pb.SessionRequest(hello=hello))
                    first = await asyncio.wait_for(attached.read(), 10)
                    assert first.WhichOneof("kind") == "welcome"
                # within the gate's stream allowance (256 at once, 128 a second): 250, then
                # 60 every half second; without a Hello each would be held 10 s
                calls = [stub.Play() for _ in range(250)]
                for _ in range(14):
                    await asyncio.sleep(0.5)
                    calls += [stub.Play() for _ in range(60)]
                held = sum(1 for call in calls if not call.done())
                answer = await _honest_joins(good, match.tokens[1])
                for call in calls:
                    call.cancel()
            return answer, held

    answer, held = asyncio.run(scenario())
    assert answer == "welcome", answer
    assert held < 400, held  # (pending, probation, and the last half second's not yet refused)


def test_a_gate_takes_connections_from_its_bot_s_processes_only(tmp_path: Path) -> None:
    """Without namespaces (isolation ``uid``) a bot sees every gate's path: another process
    that dials a bot's gate is closed at once, so it can neither take the bot's connections
    nor speak in its name."""

    async def scenario() -> tuple[str, str]:
        async with _hosting(tmp_path, 1) as (_, match, (gate,)):
            other = subprocess.Popen(["sleep", "30"])
            try:
                gate.owner = other.pid  # (a bot that is not this process)
                foreign = await _honest_joins(gate, match.tokens[0])
                gate.owner = os.getpid()
                own = await _honest_joins(gate, match.tokens[1])
                return foreign, own
            finally:
                other.kill()
                other.wait()

    foreign, own = asyncio.run(scenario())
    assert foreign.startswith("refused: UNAVAILABLE"), foreign
    assert own == "welcome", own
