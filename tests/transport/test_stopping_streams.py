"""A Session or Play stream dialled while the arbiter stops ends UNAVAILABLE ("the server is
stopping: dial again"), which the SDKs take as a dropped connection and dial again: not with an
OK end before any welcome, which they take as a refusal (a Node bot redialling a server that
was stopping to restart gave up for good: tests/serve/test_serve_sessions_back.py)."""

from __future__ import annotations

import asyncio
import contextlib

import grpc

from croupier import PROTOCOL_VERSION
from croupier.transport import ArbiterServer
from croupier.v1 import bot_pb2 as pb
from croupier.v1 import bot_pb2_grpc


def test_a_stream_dialled_as_the_server_stops_is_told_to_dial_again() -> None:
    async def main() -> list[tuple[grpc.StatusCode, str]]:
        server = ArbiterServer()
        address = await server.start()
        session = server.bots.open_session()
        try:
            await server.bots.close()  # stopping: every handler ends now (the port still open)
            ends = []
            async with grpc.aio.insecure_channel(address) as channel:
                stub = bot_pb2_grpc.BotServiceStub(channel)
                hello = pb.SessionHello(token=session.token, protocol_version=PROTOCOL_VERSION)
                for call, first in (
                    (stub.Session(), pb.SessionRequest(hello=hello)),
                    (stub.Play(), pb.PlayRequest(hello=pb.Hello(token="any"))),
                ):
                    # (the server may have ended the stream before the hello is written)
                    with contextlib.suppress(grpc.aio.AioRpcError, asyncio.InvalidStateError):
                        await call.write(first)
                    try:  # (no welcome either way)
                        got = await call.read()
                    except grpc.aio.AioRpcError:
                        got = grpc.aio.EOF
                    assert got is grpc.aio.EOF
                    ends.append((await call.code(), await call.details()))
            return ends
        finally:
            await server.stop()

    stopping = (grpc.StatusCode.UNAVAILABLE, "the server is stopping: dial again")
    assert asyncio.run(main()) == [stopping, stopping]
