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

#: What grpcio's asyncio client reports when its write fails because the server has just ended
#: the stream: its own INTERNAL in place of the server's status (grpc/grpc#36066; the SDK takes
#: it as a refusal and dials again, croupier_bot._client._rpc_error). Such an end is tried again.
_WRITE_RACE = (grpc.StatusCode.INTERNAL, "Internal error from Core")


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
                dials = (
                    (stub.Session, pb.SessionRequest(hello=hello)),
                    (stub.Play, pb.PlayRequest(hello=pb.Hello(token="any"))),
                )
                for dial, first in dials:
                    for _ in range(5):
                        call = dial()
                        # (the server may have ended the stream before the hello is written)
                        with contextlib.suppress(grpc.aio.AioRpcError, asyncio.InvalidStateError):
                            await call.write(first)
                        try:  # (no welcome either way)
                            got = await call.read()
                        except grpc.aio.AioRpcError:
                            got = grpc.aio.EOF
                        assert got is grpc.aio.EOF
                        end = (await call.code(), await call.details())
                        if end != _WRITE_RACE:
                            break
                    ends.append(end)
            return ends
        finally:
            await server.stop()

    stopping = (grpc.StatusCode.UNAVAILABLE, "the server is stopping: dial again")
    assert asyncio.run(main()) == [stopping, stopping]
