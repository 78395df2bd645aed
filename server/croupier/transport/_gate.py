"""Each launched bot's own door to the arbiter's unix socket (its *gate*), so the per-peer
limits (:mod:`._peers`) tell one launched bot from another.

Every launched bot used to dial the one unix socket of its arbiter, and gRPC names every such
connection ``unix:``: the bots were one peer, so none was limited (else one bot's flood would
have put them all on probation). One sandboxed bot could then hold streams open without a
``Hello`` until the server's stream cap (1,024, enforced by gRPC before the arbiter sees a
stream) was full, and every other bot of its arbiter that plays on gRPC was refused: an
attack made every honest seat of a ``croupier match`` and of a per-match tournament a
no-show; or it opened connections by the thousand until the arbiter ran out of descriptors.

A gate is a unix socket of its own in the arbiter's socket folder, bound into the bot's
sandbox where the arbiter's socket was (so the bot dials the same address). The arbiter
accepts on it and forwards each connection's bytes to its real socket from a client socket
bound to an abstract address that names the gate: gRPC reports that address as the stream's
peer (``unix-abstract:croupier-gate-TOKEN-SUFFIX``), :func:`._peers.peer_key` turns it into
the peer ``gate:TOKEN``, and the per-peer limits hold for each bot on its own. A gate accepts
connections from its bot's process tree only (``SO_PEERCRED``: a bot without namespaces sees
every gate's path), at most :data:`MAX_CONNECTIONS` at once (more wait in the kernel's queue,
then are refused), so a bot holds at most twice that many of the arbiter's descriptors; and it
counts the streams its bot opens, cutting a connection past :data:`STREAM_BURST` at once and
:data:`STREAMS_PER_S` a second (refused streams cost the arbiter far more than the bot). It
closes with the bot.

The cost: each message of a bot that plays on gRPC is copied once more by the arbiter (bots
on their session pipes, :mod:`._pipe`, do not use the socket).
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import os
import secrets
import socket
import struct
from collections.abc import Callable
from pathlib import Path

#: The start of a gate's upstream address (abstract, in the arbiter's network namespace), then
#: ``TOKEN-SUFFIX`` (a random suffix a connection); :func:`._peers.peer_key` reads it.
GATE_PREFIX = "croupier-gate-"
#: Connections one bot may hold to its arbiter at once (an SDK holds one; a session that
#: redials may briefly hold two).
MAX_CONNECTIONS = 8
#: Connections that may wait to be accepted (the kernel's queue).
_BACKLOG = 4
#: Streams a bot may open at once, then per second (summed over its connections): an SDK opens
#: one a seat or one a session, some tens a second in the fastest tournaments. Past them the
#: connection is cut: every stream reaches the arbiter's Python (its limits refuse a flood's,
#: but each refusal costs it ~100 microseconds, and a bot can send HEADERS frames by the
#: million), and each stream holds a place under gRPC's cap on the streams served at once,
#: which honest bots need.
STREAM_BURST = 256
STREAMS_PER_S = 128.0
#: How long the place of a connection cut for its streams stays taken (the bot's others go on).
CUT_PAUSE_S = 1.0
_PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
#: How long a closed connection may take to write what is queued for it before it is dropped.
_LINGER_S = 1.0
#: How long the gate waits after a failed accept (out of descriptors) before the next.
_ACCEPT_RETRY_S = 0.1
#: ``struct ucred``: pid, uid, gid.
_CREDS = struct.Struct("3i")
#: How many parents a connecting process may be below the bot's.
_MAX_DEPTH = 32


def _bind_unique(sock: socket.socket, prefix: str) -> None:
    """Bind ``sock`` to an abstract address ``prefix`` + a random suffix (not a count: a
    process without a network namespace of its own could take the next names first)."""
    for attempt in range(3):
        try:
            sock.bind(f"\0{prefix}{secrets.token_hex(6)}")
            return
        except OSError as exc:
            if exc.errno != errno.EADDRINUSE or attempt == 2:
                raise


_CHUNK = 65536


class BotGate:
    """One launched bot's socket (:attr:`path`), forwarded to the arbiter's ``upstream``. It
    accepts a connection only while the bot holds fewer than ``max_connections``: the others
    wait in the socket's short queue (the kernel's, not the arbiter's descriptors), and a bot
    that tries more finds its connects refused."""

    def __init__(self, upstream: Path, max_connections: int = MAX_CONNECTIONS) -> None:
        self.token = secrets.token_hex(8)
        self.path = upstream.parent / f"bot-{self.token}.sock"
        self._upstream = upstream
        self._room = asyncio.Semaphore(max_connections)
        self._listener: socket.socket | None = None
        self._accepting: asyncio.Task[None] | None = None
        self._connections: set[asyncio.Task[None]] = set()
        self._tokens = float(STREAM_BURST)
        self._refilled = 0.0
        self.cut = 0  # connections cut for opening streams too fast
        #: The bot's process (``bwrap``'s, when sandboxed), once started: only it and its
        #: descendants may connect (a bot without namespaces sees every gate's path).
        self.owner: int | None = None

    async def open(self) -> None:
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            listener.bind(str(self.path))
            os.chmod(self.path, 0o666)  # the bot may run as a uid of its own
            listener.listen(_BACKLOG)
            listener.setblocking(False)
        except BaseException:
            listener.close()
            with contextlib.suppress(FileNotFoundError):
                self.path.unlink()
            raise
        self._listener = listener
        self._accepting = asyncio.create_task(self._accept(listener))

    async def close(self) -> None:
        """Stop listening and end every connection (the bot is gone)."""
        accepting, self._accepting = self._accepting, None
        tasks = [*self._connections, *([accepting] if accepting is not None else [])]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        listener, self._listener = self._listener, None
        if listener is not None:
            listener.close()
            with contextlib.suppress(FileNotFoundError):
                self.path.unlink()

    async def _accept(self, listener: socket.socket) -> None:
        loop = asyncio.get_running_loop()
        while True:
            await self._room.acquire()
            try:
                bot, _ = await loop.sock_accept(listener)
            except OSError:  # (out of descriptors, an aborted connect): the gate stays open
                self._room.release()
                await asyncio.sleep(_ACCEPT_RETRY_S)
                continue
            except BaseException:
                self._room.release()
                raise
            if not self._from_bot(bot):
                bot.close()
                self._room.release()
                continue
            task = asyncio.create_task(self._forward(bot))
            self._connections.add(task)
            task.add_done_callback(self._connections.discard)

    def _from_bot(self, connection: socket.socket) -> bool:
        """Whether the process at the other end is the bot's (its process or a descendant)."""
        if self.owner is None:
            return False
        try:
            creds = connection.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, _CREDS.size)
        except OSError:
            return False
        pid = _CREDS.unpack(creds)[0]
        for _ in range(_MAX_DEPTH):
            if pid == self.owner:
                return True
            if pid <= 1:
                return False
            try:  # the parent: the field after the name, which may hold spaces or parentheses
                pid = int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                return False
        return False

    async def _forward(self, bot: socket.socket) -> None:
        """Forward one connection of the bot to the arbiter's socket, from an address that
        names this gate, until either end closes it."""
        ends: list[asyncio.StreamWriter] = []
        streams = _Streams()
        try:
            up = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            try:
                up.setblocking(False)
                _bind_unique(up, f"{GATE_PREFIX}{self.token}-")
                await asyncio.get_running_loop().sock_connect(up, str(self._upstream))
            except BaseException:
                up.close()
                raise
            bot_reader, bot_writer = await asyncio.open_unix_connection(sock=bot)
            ends.append(bot_writer)
            up_reader, up_writer = await asyncio.open_unix_connection(sock=up)
            ends.append(up_writer)
            await asyncio.gather(
                _pump(bot_reader, up_writer, lambda chunk: self._allow(streams, chunk)),
                _pump(up_reader, bot_writer),
            )
        except OSError:
            pass  # the arbiter's socket is gone (it stops), or the bot dropped the connection
        finally:
            try:
                await _close(ends)
            finally:
                if not ends:
                    bot.close()
                try:
                    if streams.cut:  # (a bot cut off for its streams waits for its next one)
                        await asyncio.sleep(CUT_PAUSE_S)
                finally:
                    self._room.release()  # (only once its descriptors are gone)

    def _allow(self, streams: _Streams, chunk: bytes) -> bool:
        """Take the streams ``chunk`` opens from the bot's allowance (:data:`STREAM_BURST`,
        refilled at :data:`STREAMS_PER_S`); ``False`` once it is spent: the connection is cut."""
        opened = streams.opened(chunk)
        if not opened:
            return True
        now = asyncio.get_running_loop().time()
        self._tokens = min(STREAM_BURST, self._tokens + (now - self._refilled) * STREAMS_PER_S)
        self._refilled = now
        self._tokens -= opened
        if self._tokens < 0:
            self.cut += 1
            streams.cut = True
            return False
        return True


async def _close(ends: list[asyncio.StreamWriter]) -> None:
    """Close ``ends``: what is queued for each is still written for up to :data:`_LINGER_S`,
    then dropped, so a bot that never reads holds no descriptor of the arbiter's."""
    for end in ends:
        end.close()
    try:
        if ends:
            closing = [asyncio.ensure_future(_closed(end)) for end in ends]
            await asyncio.wait(closing, timeout=_LINGER_S)
    finally:
        for end in ends:
            end.transport.abort()


async def _closed(end: asyncio.StreamWriter) -> None:
    with contextlib.suppress(Exception):  # (a reset connection: closed all the same)
        await end.wait_closed()


class _Streams:
    """Counts the HTTP/2 streams a bot opens on one connection as its bytes pass: after the
    client preface, each frame is a 9-byte head (length, type, flags, stream id) and a payload;
    a ``HEADERS`` frame (type 1) with a stream id above the last is a new stream. (Bytes that are
    not HTTP/2 are miscounted only for the bot's own connection, which gRPC then ends.)"""

    def __init__(self) -> None:
        self._skip = len(_PREFACE)  # bytes of the current payload (or the preface) still to pass
        self._head = b""
        self._last = 0
        self.cut = False  # the connection was cut for its streams

    def opened(self, chunk: bytes) -> int:
        new = 0
        at, end = 0, len(chunk)
        while at < end:
            if self._skip:
                step = min(self._skip, end - at)
                self._skip -= step
                at += step
                continue
            take = chunk[at : at + 9 - len(self._head)]
            self._head += take
            at += len(take)
            if len(self._head) < 9:
                break
            head, self._head = self._head, b""
            self._skip = int.from_bytes(head[:3], "big")
            stream = int.from_bytes(head[5:9], "big") & 0x7FFFFFFF
            if head[3] == 1 and stream > self._last:
                self._last = stream
                new += 1
        return new


async def _pump(
    source: asyncio.StreamReader,
    sink: asyncio.StreamWriter,
    allow: Callable[[bytes], bool] | None = None,
) -> None:
    """Copy ``source`` to ``sink`` until either ends, or ``allow`` refuses a chunk; then end
    both directions."""
    try:
        while chunk := await source.read(_CHUNK):
            if allow is not None and not allow(chunk):
                break
            sink.write(chunk)
            await sink.drain()
    except OSError:
        pass
    finally:
        sink.close()
