"""The session pipe: a launched session bot's own socket to the arbiter, carrying its Session
stream without gRPC.

A bot process that the arbiter launches to serve a session (``BotPool``) inherits one end of a
fresh ``socketpair`` (a unix stream socket: nobody else holds either end, and nothing on the
file system names it); ``CROUPIER_SESSION_FD`` gives its descriptor number. A bot that knows it
(the Python and Node SDKs, the C++ kit) speaks its Session stream there: exactly the
``SessionRequest`` and ``SessionResponse`` messages it would send and read on
``BotService.Session``, each as one *frame*, a 4-byte big-endian length then the serialized
message. The arbiter serves that stream as it serves the gRPC one (the same handshake, the
same multiplexed writer, :mod:`._mux`); the session's end is the socket's end, and an arbiter
that refuses the session (a wrong token, an unsupported version) closes it without a frame, the
reason in its log.

Why: the cost of a message on this machine is per message, not per byte, and gRPC's is large
(a ``grpc.aio`` stream: about 190 µs of the server's CPU and 200 of the client's per message);
a frame on a socket costs a few tens. A bot that ignores the variable dials gRPC as before (its
end of the pipe stays unused until it exits).

A frame longer than ``MAX_BOT_MESSAGE_BYTES`` (what the gRPC listener accepts) ends the pipe
before any of it is read, and so do more than :data:`MAX_IDLE_MESSAGES` messages in a row that
answer no decision (a flood, cheap for a bot here): the seats it carried fault as their bot's
disconnection.
"""

from __future__ import annotations

import asyncio
import socket
from collections.abc import Awaitable
from typing import Any, Protocol

import structlog

from croupier.transport._mux import serialize
from croupier.transport._sessions import Closing
from croupier.v1 import bot_pb2 as pb

#: The environment variable that names the bot's end of its session pipe.
ENV_SESSION_FD = "CROUPIER_SESSION_FD"
#: A frame's header: its length, 4 bytes, big-endian.
HEADER_BYTES = 4
#: A reader takes at most this many frames before it lets the event loop run (a frame already
#: buffered is read without a wait): a flood cannot hold the loop that times every seat's clock.
YIELD_EVERY = 16
#: Messages in a row that answer no decision (no reply for a seat's pending decision, no seat
#: given up; bytes that are no message) after which a pipe is ended as a flood: its seats are
#: disconnected. A bot of the SDKs sends none.
MAX_IDLE_MESSAGES = 64
#: The peer a pipe's stream reports (a unix socket: the arbiter's own bot, not rate-limited).
PIPE_PEER = "unix:session-pipe"


class PipeAborted(Exception):
    """The arbiter ended a pipe's stream with a status (what ``context.abort`` is on gRPC)."""


def pipe_pair() -> tuple[socket.socket, socket.socket]:
    """A new session pipe: ``(the arbiter's end, the bot's end)``; the bot's is inheritable."""
    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
    theirs.set_inheritable(True)
    return ours, theirs


class PipeContext:
    """What the ``Session`` handler uses of a ``grpc.aio.ServicerContext``, over a pipe."""

    #: Messages in a row that answer no decision before the pipe is taken for a flood and ended
    #: (:class:`._mux.SessionMux`): a frame costs a bot next to nothing, unlike a gRPC message.
    idle_cap = MAX_IDLE_MESSAGES

    def __init__(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, limit: int
    ) -> None:
        self._reader = reader
        self._writer = writer
        self._limit = limit
        self._first: bytes | None = None
        self._unyielded = 0

    def peer(self) -> str:
        return PIPE_PEER

    async def frame(self) -> bytes | None:
        """The next frame's message bytes; ``None`` at the end of the pipe. ConnectionError for
        a frame cut short or longer than the limit (nothing of it is read)."""
        if self._first is not None:
            data, self._first = self._first, None
            return data
        self._unyielded += 1
        if self._unyielded >= YIELD_EVERY:  # frames read without a wait: let the loop run
            self._unyielded = 0
            await asyncio.sleep(0)
        try:
            header = await self._reader.readexactly(HEADER_BYTES)
        except asyncio.IncompleteReadError as exc:
            if not exc.partial:
                return None
            raise ConnectionError("the session pipe ended inside a frame") from None
        size = int.from_bytes(header, "big")
        if size > self._limit:
            raise ConnectionError(f"a frame of {size} bytes: more than {self._limit}")
        try:
            return await self._reader.readexactly(size)
        except asyncio.IncompleteReadError:
            raise ConnectionError("the session pipe ended inside a frame") from None

    def unread(self, data: bytes) -> None:
        """Hand ``data`` (a frame read ahead) to the next :meth:`read`."""
        self._first = data

    async def read(self) -> Any:
        """The next ``SessionRequest``, or ``grpc.aio.EOF``; ``DecodeError`` for bytes that are
        not one (the frame is consumed: the stream goes on, as on gRPC)."""
        import grpc  # (imported already by whoever serves: the pipe runs beside the server)

        data = await self.frame()
        if data is None:
            return grpc.aio.EOF
        return pb.SessionRequest.FromString(data)

    async def write(self, message: Any) -> None:
        data = serialize(message)
        self._writer.write(len(data).to_bytes(HEADER_BYTES, "big") + data)
        await self._writer.drain()

    def write_now(self, message: Any) -> bool:
        """Write ``message`` if the pipe takes it with no wait (its buffer stays below the
        high-water mark, as it does unless the bot stops reading): ``True``. ``False``:
        nothing was written; :meth:`write` it (which waits for the buffer to drain).
        ``ConnectionResetError`` if the pipe broke on this write, as :meth:`write` raises."""
        transport = self._writer.transport
        if transport.is_closing() or transport.get_write_buffer_size():
            return False
        data = serialize(message)
        self._writer.write(len(data).to_bytes(HEADER_BYTES, "big") + data)
        if transport.is_closing():  # the send failed: the bot's end is gone
            raise ConnectionResetError("the session pipe broke")
        return True

    async def abort(self, code: Any, details: str = "", trailing_metadata: Any = ()) -> None:
        """End the stream: the pipe closes with no frame (the reason is in the arbiter's log)."""
        self._writer.close()
        raise PipeAborted(details)

    def close(self) -> None:
        self._writer.close()


class PipeHost(Protocol):
    """What :func:`serve_pipe` uses of the servicer (``BotServicer``)."""

    pipes: int

    async def unless_closing(self, awaitable: Any, timeout: float | None = None) -> Any: ...

    async def Session(self, request_iterator: object, context: Any) -> None: ...


async def serve_pipe(
    host: PipeHost, sock: socket.socket, exited: Awaitable[Any], limit: int
) -> None:
    """Serve a launched bot's session pipe until it ends: its Session stream, exactly as on
    gRPC (``host.Session``), once the bot speaks there; nothing if it never does (a bot that
    dials gRPC instead: its pipe stays quiet until ``exited``, its process's end, since what
    the bot started may hold the pipe open after it). Frames of more than ``limit`` bytes end
    it."""
    context = await open_pipe(sock, limit)
    first_frame = asyncio.ensure_future(host.unless_closing(context.frame()))
    gone = asyncio.ensure_future(exited)
    try:
        await asyncio.wait((first_frame, gone), return_when=asyncio.FIRST_COMPLETED)
        if not first_frame.done():  # the bot's process ended without a word on its pipe
            return
        first = first_frame.result()
        if first is None:  # the bot is gone, or never used its pipe
            return
        context.unread(first)
        host.pipes += 1
        await host.Session(None, context)
    except (Closing, PipeAborted, ConnectionError):
        pass
    except Exception:  # a bug: logged, and the bot's seats end with its pipe
        structlog.get_logger("croupier.transport").exception("session_pipe_failed")
    finally:
        for waiter in (first_frame, gone):
            waiter.cancel()
        context.close()


async def open_pipe(sock: socket.socket, limit: int) -> PipeContext:
    """The arbiter's end of a session pipe as a stream context."""
    reader, writer = await asyncio.open_unix_connection(sock=sock, limit=max(limit, 1 << 16))
    return PipeContext(reader, writer, limit)


__all__ = [
    "ENV_SESSION_FD",
    "PipeAborted",
    "PipeContext",
    "PipeHost",
    "open_pipe",
    "pipe_pair",
    "serve_pipe",
]
