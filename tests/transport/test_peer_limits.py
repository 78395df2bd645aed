"""Unauthenticated peers are bounded, and shutdown ends every stream a client still holds
(health ``Watch``, a ``Play`` that never said Hello, a seated one) without a traceback."""

from __future__ import annotations

import asyncio
from pathlib import Path

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from croupier import PROTOCOL_VERSION
from croupier.arbiter import Match, MatchConfig
from croupier.replay import ReplayWriter
from croupier.transport import REASON_KEY, ArbiterServer
from croupier.transport._server import MAX_FAILED_HELLOS_PER_PEER, MAX_PENDING_PER_PEER
from croupier.transport._service import MAX_WATCHERS
from croupier.v1 import bot_pb2 as pb
from croupier.v1 import bot_pb2_grpc


def _reason(exc: grpc.aio.AioRpcError) -> str:
    return str(dict(exc.trailing_metadata() or ()).get(REASON_KEY, ""))


async def _refusal(channel: grpc.aio.Channel, token: str | None) -> str:
    """Open a Play stream (saying Hello with ``token`` unless None) and return its error."""
    call = bot_pb2_grpc.BotServiceStub(channel).Play()
    if token is not None:
        hello = pb.Hello(token=token, bot_name="x", protocol_version=PROTOCOL_VERSION)
        await call.write(pb.PlayRequest(hello=hello))
    try:
        await asyncio.wait_for(call.read(), 5)
    except grpc.aio.AioRpcError as exc:
        return _reason(exc)
    raise AssertionError("the stream was not refused")


def test_a_peer_holding_many_streams_without_hello_is_refused_more() -> None:
    async def main() -> None:
        server = ArbiterServer()  # the tests' peer is 127.0.0.1: limited too
        address = await server.start()
        try:
            async with grpc.aio.insecure_channel(address) as channel:
                held = [bot_pb2_grpc.BotServiceStub(channel).Play() for _ in range(8)]
                for call in held:  # make sure each stream is open on the server
                    await call.wait_for_connection()
                await asyncio.sleep(0.2)
                assert len(held) == MAX_PENDING_PER_PEER
                assert await _refusal(channel, None) == "TOO_MANY_ATTEMPTS"
                for call in held:
                    call.cancel()
        finally:
            await server.stop(0)

    asyncio.run(main())


def test_a_peer_guessing_tokens_is_refused_for_a_while() -> None:
    async def main() -> None:
        server = ArbiterServer()
        address = await server.start()
        try:
            async with grpc.aio.insecure_channel(address) as channel:
                for n in range(MAX_FAILED_HELLOS_PER_PEER):
                    assert await _refusal(channel, f"guess-{n}") == "TOKEN_UNKNOWN"
                assert await _refusal(channel, "one-more") == "TOO_MANY_ATTEMPTS"
        finally:
            await server.stop(0)

    asyncio.run(main())


def test_shutdown_ends_held_streams_without_a_traceback(capfd: pytest.CaptureFixture[str]) -> None:
    async def main() -> list[grpc.StatusCode]:
        server = ArbiterServer()
        address = await server.start()
        channel = grpc.aio.insecure_channel(address)
        stub = health_pb2_grpc.HealthStub(channel)
        watches = [stub.Watch(health_pb2.HealthCheckRequest()) for _ in range(MAX_WATCHERS)]
        for watch in watches:
            assert (await watch.read()).status == health_pb2.HealthCheckResponse.SERVING
        extra = stub.Watch(health_pb2.HealthCheckRequest())
        with pytest.raises(grpc.aio.AioRpcError) as refused:
            await extra.read()
        assert refused.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
        silent = bot_pb2_grpc.BotServiceStub(channel).Play()  # never says Hello
        await silent.wait_for_connection()
        await asyncio.sleep(0.1)
        started = asyncio.get_running_loop().time()
        await server.stop(5)
        assert asyncio.get_running_loop().time() - started < 2  # not the grace: they ended
        codes = []
        for watch in watches:  # NOT_SERVING, then the end of the stream, then its status
            last = await asyncio.wait_for(watch.read(), 5)
            assert last.status == health_pb2.HealthCheckResponse.NOT_SERVING
            assert await asyncio.wait_for(watch.read(), 5) is grpc.aio.EOF
            codes.append(await asyncio.wait_for(watch.code(), 5))
        await channel.close()
        return codes

    codes = asyncio.run(main())
    assert set(codes) == {grpc.StatusCode.OK}
    err = capfd.readouterr().err
    assert "Traceback" not in err
    assert "CancelledError" not in err


def test_shutdown_ends_seated_streams_at_once(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    """A seated bot's stream waits for its next message (the match has not started): stopping
    the server ends it at once, not after the grace, and without a traceback."""

    async def main() -> float:
        server = ArbiterServer()
        address = await server.start()
        match = Match(MatchConfig("as-nas", {"deals": 1}), "m-stop", ReplayWriter(tmp_path / "r"))
        server.bots.add_match(match)
        channel = grpc.aio.insecure_channel(address)
        call = bot_pb2_grpc.BotServiceStub(channel).Play()
        hello = pb.Hello(token=match.tokens[0], bot_name="b", bot_version="1",
                         protocol_version=PROTOCOL_VERSION)  # fmt: skip
        await call.write(pb.PlayRequest(hello=hello))
        assert (await call.read()).WhichOneof("kind") == "welcome"
        await asyncio.sleep(0.1)  # the stream handler now waits on the seat's outbox
        started = asyncio.get_running_loop().time()
        await server.stop(5)
        took = asyncio.get_running_loop().time() - started
        await channel.close()
        return took

    assert asyncio.run(main()) < 2  # not the grace: the handler ended
    err = capfd.readouterr().err
    assert "Traceback" not in err
    assert "CancelledError" not in err
