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
peer (``unix-abstract:croupier-gate-TOKEN-N``), :func:`._peers.peer_key` turns it into the
peer ``gate:TOKEN``, and the per-peer limits hold for each bot on its own. A gate accepts at
most :data:`MAX_CONNECTIONS` connections at once (more wait in the kernel's queue, then are
refused), so a bot holds at most twice that many of the arbiter's descriptors. It closes with
the bot.

The cost: each message of a bot that plays on gRPC is copied once more by the arbiter (bots
on their session pipes, :mod:`._pipe`, do not use the socket).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import secrets
import socket
from pathlib import Path

#: The start of a gate's upstream address (abstract, in the arbiter's network namespace), then
#: ``TOKEN-N``; :func:`._peers.peer_key` reads it.
GATE_PREFIX = "croupier-gate-"
#: Connections one bot may hold to its arbiter at once (an SDK holds one; a session that
#: redials may briefly hold two).
MAX_CONNECTIONS = 8
#: Connections that may wait to be accepted (the kernel's queue).
_BACKLOG = 4
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
        self._count = 0
        self._listener: socket.socket | None = None
        self._accepting: asyncio.Task[None] | None = None
        self._connections: set[asyncio.Task[None]] = set()

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
            except BaseException:
                self._room.release()
                raise
            self._count += 1
            task = asyncio.create_task(self._forward(bot, self._count))
            self._connections.add(task)
            task.add_done_callback(self._connections.discard)

    async def _forward(self, bot: socket.socket, n: int) -> None:
        """Forward one connection of the bot to the arbiter's socket, from an address that
        names this gate, until either end closes it."""
        ends: list[asyncio.StreamWriter] = []
        try:
            up = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            try:
                up.setblocking(False)
                up.bind(f"\0{GATE_PREFIX}{self.token}-{n}")
                await asyncio.get_running_loop().sock_connect(up, str(self._upstream))
            except BaseException:
                up.close()
                raise
            bot_reader, bot_writer = await asyncio.open_unix_connection(sock=bot)
            ends.append(bot_writer)
            up_reader, up_writer = await asyncio.open_unix_connection(sock=up)
            ends.append(up_writer)
            await asyncio.gather(_pump(bot_reader, up_writer), _pump(up_reader, bot_writer))
        except OSError:
            pass  # the arbiter's socket is gone (it stops), or the bot dropped the connection
        finally:
            for end in ends:
                end.close()
            if not ends:
                bot.close()
            self._room.release()


async def _pump(source: asyncio.StreamReader, sink: asyncio.StreamWriter) -> None:
    """Copy ``source`` to ``sink`` until either ends; then end both directions."""
    try:
        while chunk := await source.read(_CHUNK):
            sink.write(chunk)
            await sink.drain()
    except OSError:
        pass
    finally:
        sink.close()
