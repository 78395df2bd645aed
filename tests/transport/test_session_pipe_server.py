"""The arbiter's end of a session pipe (:meth:`BotServicer.serve_pipe`), on a real server and a
real socket pair: a pipe its bot never speaks on is let go when the bot's process ends (what the
bot started may still hold it), and bytes that are no message do not end a protocol 2 session."""

from __future__ import annotations

import asyncio
import contextlib
import socket
from collections.abc import AsyncIterator
from dataclasses import dataclass

import pytest

from croupier.transport import ArbiterServer
from croupier.transport._sessions import BotSession
from croupier.v1 import bot_pb2 as pb


def _frame(message: pb.SessionRequest | bytes) -> bytes:
    data = message if isinstance(message, bytes) else message.SerializeToString()
    return len(data).to_bytes(4, "big") + data


def test_an_unused_pipe_is_let_go_when_its_bot_exits_though_held_open() -> None:
    async def main() -> None:
        server = ArbiterServer()
        await server.start()
        ours, theirs = socket.socketpair()
        exited: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        try:
            serving = asyncio.ensure_future(server.bots.serve_pipe(ours, exited))
            await asyncio.sleep(0.2)
            assert not serving.done()  # the pipe is open and quiet: nothing to serve yet
            exited.set_result(0)  # the process ended; `theirs` (a child of it, say) holds on
            await asyncio.wait_for(serving, 5)
            assert server.bots.pipes == 0
        finally:
            theirs.close()
            await server.stop()

    asyncio.run(main())


@dataclass
class _Piped:
    """A protocol 2 session welcomed on a pipe: the server, the session, the task serving the
    pipe, the bot's end (and the future standing for its process's exit)."""

    server: ArbiterServer
    session: BotSession
    serving: asyncio.Future[None]
    writer: asyncio.StreamWriter
    exited: asyncio.Future[int]


@contextlib.asynccontextmanager
async def _protocol_2_session() -> AsyncIterator[_Piped]:
    server = ArbiterServer()
    await server.start()
    session = server.bots.open_session()
    ours, theirs = socket.socketpair()
    exited: asyncio.Future[int] = asyncio.get_running_loop().create_future()
    serving = asyncio.ensure_future(server.bots.serve_pipe(ours, exited))
    reader, writer = await asyncio.open_unix_connection(sock=theirs)
    try:
        hello = pb.SessionHello(token=session.token, protocol_version=2, capacity=1)
        writer.write(_frame(pb.SessionRequest(hello=hello)))
        size = int.from_bytes(await reader.readexactly(4), "big")
        welcome = pb.SessionResponse.FromString(await reader.readexactly(size))
        assert welcome.welcome.protocol_version == 2
        yield _Piped(server, session, serving, writer, exited)
    finally:
        writer.close()
        exited.cancel()
        await server.stop()


def test_bytes_that_are_no_message_do_not_end_a_protocol_2_pipe_session() -> None:
    async def main() -> None:
        async with _protocol_2_session() as piped:
            piped.writer.write(_frame(b"\xff\xff\xff\xff not a SessionRequest"))
            await piped.writer.drain()
            await asyncio.sleep(0.3)
            assert not piped.serving.done()
            assert not piped.session.ended.is_set()
            piped.writer.close()  # the bot hangs up: the session ends, quietly
            await asyncio.wait_for(piped.serving, 5)
            assert piped.serving.exception() is None
            assert piped.server.bots.pipes == 1

    asyncio.run(main())


def test_a_protocol_2_pipe_session_flooded_with_messages_ends() -> None:
    """In protocol 2 a bot sends nothing after its hello: more than the pipe's cap of messages
    (64) is a flood, and ends the session (a frame costs a bot next to nothing)."""

    async def main() -> None:
        async with _protocol_2_session() as piped:
            piped.writer.write(_frame(pb.SessionRequest()) * 200)
            await piped.writer.drain()
            await asyncio.wait_for(piped.serving, 5)
            assert piped.session.ended.is_set()

    asyncio.run(main())


def test_a_write_to_a_pipe_whose_bot_is_gone_raises_at_once() -> None:
    """The writer's fast path (``write_now``, no wait when the pipe's buffer is empty) fails
    the write that finds the bot's end closed, as ``write`` does: the session ends then, and
    no decision is taken as written that never left."""
    from croupier.transport._pipe import PipeContext

    async def main() -> None:
        ours, theirs = socket.socketpair()
        reader, writer = await asyncio.open_connection(sock=ours)
        context = PipeContext(reader, writer, 1 << 20)
        assert context.write_now(b"first") is True  # an open pipe takes it at once
        theirs.close()
        with pytest.raises(ConnectionResetError):
            context.write_now(b"x" * 100)
        writer.close()

    asyncio.run(main())
