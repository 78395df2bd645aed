"""How the arbiter's gRPC services go on a server: ``BotService`` with responses that may be bytes
put together already, a health service whose ``Watch`` streams are bounded, and the listening
address read as host and port."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

import grpc
from grpc_health.v1 import health_pb2
from grpc_health.v1._async import HealthServicer

from croupier.errors import ConfigError
from croupier.transport._mux import serialize
from croupier.v1 import bot_pb2 as pb
from croupier.v1 import bot_pb2_grpc

#: Health ``Watch`` streams served at once; they end (OK) when the server shuts down.
MAX_WATCHERS = 64
#: How long a shutdown waits for every watcher to be written NOT_SERVING (one that does not
#: read may hold its write up) before the streams end.
TELL_WATCHERS_S = 1.0


class _Telling:
    """A Watch stream's context that notes when NOT_SERVING has been written to it."""

    def __init__(self, context: Any) -> None:
        self._context = context
        self.told = asyncio.Event()

    async def write(self, response: health_pb2.HealthCheckResponse) -> None:
        await self._context.write(response)
        if response.status == health_pb2.HealthCheckResponse.NOT_SERVING:
            self.told.set()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._context, name)


class BoundedHealth(HealthServicer):  # type: ignore[misc]  # grpc_health has no types
    """gRPC health checking whose ``Watch`` streams are bounded (:data:`MAX_WATCHERS`) and end
    (with NOT_SERVING, then OK) when the server shuts down, instead of being cancelled."""

    def __init__(self) -> None:
        super().__init__()
        self._closing: asyncio.Event | None = None
        self._watchers: set[_Telling] = set()

    def _closing_event(self) -> asyncio.Event:
        if self._closing is None:
            self._closing = asyncio.Event()
        return self._closing

    async def Watch(self, request: health_pb2.HealthCheckRequest, context: Any) -> None:
        if len(self._watchers) >= MAX_WATCHERS or self._closing_event().is_set():
            await context.abort(grpc.StatusCode.RESOURCE_EXHAUSTED, "too many health watchers")
            return
        telling = _Telling(context)
        self._watchers.add(telling)
        inner = asyncio.ensure_future(super().Watch(request, telling))
        closing = asyncio.ensure_future(self._closing_event().wait())
        try:
            await asyncio.wait({inner, closing}, return_when="FIRST_COMPLETED")
        finally:
            self._watchers.discard(telling)
            closing.cancel()
            inner.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await inner

    async def close(self) -> None:
        """End every Watch stream, once each has been written NOT_SERVING (at most
        :data:`TELL_WATCHERS_S`: a fixed pause was too short on a loaded machine, and a watcher
        then saw its stream end without being told)."""
        waits = [asyncio.ensure_future(w.told.wait()) for w in self._watchers]
        try:
            if waits:
                await asyncio.wait(waits, timeout=TELL_WATCHERS_S)
        finally:
            for wait in waits:
                wait.cancel()
        self._closing_event().set()
        await asyncio.sleep(0)


def add_bot_service(servicer: bot_pb2_grpc.BotServiceServicer, server: grpc.aio.Server) -> None:
    """``BotService`` on ``server``, as ``bot_pb2_grpc`` would add it, except that a response may
    also be bytes put together already (a multiplexed session's messages: :mod:`._mux`)."""
    handlers = {
        "Play": grpc.stream_stream_rpc_method_handler(
            servicer.Play,
            request_deserializer=pb.PlayRequest.FromString,
            response_serializer=serialize,
        ),
        "Session": grpc.stream_stream_rpc_method_handler(
            servicer.Session,
            request_deserializer=pb.SessionRequest.FromString,
            response_serializer=serialize,
        ),
    }
    service = pb.DESCRIPTOR.services_by_name["BotService"].full_name
    server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler(service, handlers),))


def split_address(address: str) -> tuple[str, str]:
    """``host`` and ``port`` of ``HOST:PORT`` (``[::1]:5000`` for IPv6); :class:`ConfigError`
    unless the port is a number from 0 to 65535 and there is a host."""
    host, sep, port = address.rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 <= int(port) <= 65535:
        raise ConfigError(f"{address!r} is not HOST:PORT with a port from 0 to 65535")
    if host.startswith("[") != host.endswith("]"):
        raise ConfigError(f"{address!r}: unbalanced brackets around an IPv6 host")
    return host, str(int(port))


def is_loopback(address: str) -> bool:
    """True for an address only this machine can reach (127.x, ::1, localhost, unix:)."""
    if address.startswith("unix:"):
        return True
    host, _ = split_address(address)
    host = host.strip("[]").lower()
    return host == "localhost" or host.startswith("127.") or host == "::1"
