"""The spectators' web page (``croupier serve --web-listen HOST:PORT``, docs/server.md,
"Spectating").

One page (``serve/static/``: HTML, JS and CSS, no build step) shows the lobby (the registered
bots, connected or not), the standings, the running and the finished matches, a live board of
any match and the playback of a finished one. Its backend is a **spectator client of the
control API**: every piece of data it serves comes from ControlService calls made with a
spectator's credentials (ListBots, GetStandings, ListMatches, WatchMatch without a seat), so
the page can be sent nothing the public view does not hold: the server's roles decide, not
this module. The one exception is ``/api/pages/...`` (a page per bot, the paged lists, the
featured match), answered by ``serve/_pages.py`` from the store and its public facts only.

The HTTP side is stdlib asyncio, not a framework: the page needs only GET of a few fixed paths
and one server-sent-event stream per watched match, and ``croupier serve`` then needs no
dependency beyond grpcio. Each connection carries one request (``Connection: close``); the
request head is bounded in size and time; static files come from a fixed table, never from a
path the client names. The human seats' page (``/play``, :mod:`croupier.serve._human`, with
``human=``) adds the one kind of ``POST`` served (``/api/play/*``: a body of at most 4 KiB, with
its Content-Length); it holds a seat's own stream, never a spectator's. With an
:class:`ssl.SSLContext` (the server's ``[tls]``) the page is served over HTTPS only: a plaintext
request fails the TLS handshake and is never answered.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import ssl
from collections.abc import AsyncGenerator, AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from importlib import resources
from typing import Any, Protocol
from urllib.parse import parse_qs, unquote, urlsplit

import grpc
import structlog
from google.protobuf import json_format
from google.protobuf.message import Message

from croupier.games import GAMES, get_spec
from croupier.serve._human import MAX_BODY, HumanDesk, HumanError
from croupier.serve._pages import PageError
from croupier.v1 import control_pb2 as cpb
from croupier.v1 import control_pb2_grpc

_log = structlog.get_logger("croupier.web")

#: Limits on a request head (the line and headers) and the time it may take to arrive.
HEAD_MAX, HEAD_TIMEOUT_S = 16 * 1024, 10.0
#: A comment line on an idle event stream this often, so a dead client is noticed.
KEEPALIVE_S = 15.0
_MATCH_ID = re.compile(r"[A-Za-z0-9._:-]{1,200}")
_STATES = {
    "running": cpb.MATCH_STATE_RUNNING,
    "finished": cpb.MATCH_STATE_FINISHED,
    "pending": cpb.MATCH_STATE_PENDING,
    "cancelled": cpb.MATCH_STATE_CANCELLED,
    "aborted": cpb.MATCH_STATE_ABORTED,
}
_STATIC = {
    "/": ("index.html", "text/html; charset=utf-8"),
    "/static/dom.js": ("dom.js", "text/javascript; charset=utf-8"),
    "/static/app.js": ("app.js", "text/javascript; charset=utf-8"),
    "/static/style.css": ("style.css", "text/css; charset=utf-8"),
    "/static/pages.js": ("pages.js", "text/javascript; charset=utf-8"),
}
#: The human seat's page (served when the server seats humans: ``human=``).
_PLAY_STATIC = {
    "/play": ("play.html", "text/html; charset=utf-8"),
    "/static/play.js": ("play.js", "text/javascript; charset=utf-8"),
}
_SECURITY_HEADERS = (
    "X-Content-Type-Options: nosniff\r\n"
    "Referrer-Policy: no-referrer\r\n"
    "X-Frame-Options: DENY\r\n"
    "Content-Security-Policy: default-src 'self'; img-src 'self' data:; "
    "frame-ancestors 'none'\r\n"
)
_EVENT_STREAM_HEAD = (
    "HTTP/1.1 200 OK\r\n"
    "Content-Type: text/event-stream; charset=utf-8\r\n"
    "Cache-Control: no-store\r\n"
    "Connection: close\r\n" + _SECURITY_HEADERS + "\r\n"
)
_REASONS = {
    400: "Bad Request",
    403: "Forbidden",
    404: "Not Found",
    409: "Conflict",
    503: "Service Unavailable",
}


class Spectator(Protocol):
    """What the page reads: the control API's public calls."""

    async def list_bots(self) -> cpb.ListBotsResponse: ...
    async def standings(self) -> cpb.GetStandingsResponse: ...
    async def list_matches(self, state: int, limit: int) -> cpb.ListMatchesResponse: ...
    def watch(
        self, match_id: str, *, snapshot: bool = False
    ) -> AsyncIterator[cpb.WatchMatchResponse]: ...


class PublicPages(Protocol):
    """The bot pages, standings, paged lists and featured match (``serve/_pages.py``): the
    answer to ``GET /api/pages<path>``, or :class:`~croupier.serve._pages.PageError`."""

    async def get(self, path: str, query: dict[str, list[str]]) -> Any: ...


class ControlSpectator:
    """:class:`Spectator` over a channel to a ControlService, with a spectator's key (``None``:
    anonymous). It never asks for a seat's view."""

    def __init__(self, channel: grpc.aio.Channel, key: str | None = None) -> None:
        self._stub = control_pb2_grpc.ControlServiceStub(channel)
        self._metadata = (("authorization", f"Bearer {key}"),) if key else ()

    async def list_bots(self) -> cpb.ListBotsResponse:
        reply: cpb.ListBotsResponse = await self._stub.ListBots(
            cpb.ListBotsRequest(), metadata=self._metadata
        )
        return reply

    async def standings(self) -> cpb.GetStandingsResponse:
        reply: cpb.GetStandingsResponse = await self._stub.GetStandings(
            cpb.GetStandingsRequest(), metadata=self._metadata
        )
        return reply

    async def list_matches(self, state: int, limit: int) -> cpb.ListMatchesResponse:
        request = cpb.ListMatchesRequest(state=state, limit=limit)  # type: ignore[arg-type]
        reply: cpb.ListMatchesResponse = await self._stub.ListMatches(
            request, metadata=self._metadata
        )
        return reply

    async def watch(
        self, match_id: str, *, snapshot: bool = False
    ) -> AsyncIterator[cpb.WatchMatchResponse]:
        call = self._stub.WatchMatch(
            cpb.WatchMatchRequest(match_id=match_id, snapshot=snapshot), metadata=self._metadata
        )
        try:
            async for message in call:
                yield message
        finally:
            call.cancel()


def as_json(message: Message) -> Any:
    """A message as the page reads it: proto3 JSON with the .proto field names."""
    return json_format.MessageToDict(message, preserving_proto_field_name=True)


def _static(name: str) -> bytes:
    return resources.files("croupier.serve").joinpath("static", name).read_bytes()


def _game_boards() -> bytes:
    """``/static/games.js``: every game's board renderer, the ``web.js`` its package ships
    beside its spec (a game without one gets the page's plain board)."""
    found = []
    for name in GAMES:
        package = get_spec(name).package
        script = resources.files(package).joinpath("web.js") if package else None
        if script is not None and script.is_file():
            found.append(script.read_bytes())
    return b"\n".join(found)


class _HttpError(Exception):
    def __init__(self, status: int, reason: str, message: str) -> None:
        super().__init__(message)
        self.status, self.reason = status, reason


_GRPC_HTTP = {
    grpc.StatusCode.NOT_FOUND: (404, "Not Found"),
    grpc.StatusCode.PERMISSION_DENIED: (403, "Forbidden"),
    grpc.StatusCode.UNAUTHENTICATED: (403, "Forbidden"),
    grpc.StatusCode.INVALID_ARGUMENT: (400, "Bad Request"),
    grpc.StatusCode.FAILED_PRECONDITION: (409, "Conflict"),
}


@dataclass
class _Request:
    method: str
    path: str
    query: dict[str, list[str]]
    body: bytes = b""


class WebServer:
    """The page's HTTP server on ``host:port`` (port 0: any free one, see :attr:`port`); HTTPS
    only with ``tls`` (a server context: ``croupier.transport.server_ssl_context``). With
    ``human`` it also serves the human seats' page (``/play``, :mod:`croupier.serve._human`);
    without a ``spectator`` (``croupier match --bot human``) it serves that page alone."""

    def __init__(
        self,
        spectator: Spectator | None,
        host: str = "127.0.0.1",
        port: int = 0,
        *,
        head_timeout_s: float = HEAD_TIMEOUT_S,
        tls: ssl.SSLContext | None = None,
        pages: PublicPages | None = None,
        human: HumanDesk | None = None,
    ) -> None:
        self.spectator = spectator
        #: The ``/api/pages/...`` answers (``None``: not served).
        self.pages = pages
        self.human = human
        self.host, self.port = host, port
        self.head_timeout_s = head_timeout_s
        self.tls = tls
        #: ``https`` with TLS, else ``http``.
        self.scheme = "http" if tls is None else "https"
        self._server: asyncio.Server | None = None
        self._static = {path: (_static(name), kind) for path, (name, kind) in _STATIC.items()}
        self._static["/static/games.js"] = (_game_boards(), "text/javascript; charset=utf-8")
        if human is not None:
            self._static.update(
                (path, (_static(name), kind)) for path, (name, kind) in _PLAY_STATIC.items()
            )
            if spectator is None:
                self._static["/"] = self._static["/play"]
        self._streams: set[asyncio.Task[Any]] = set()

    async def start(self) -> None:
        self._server = await asyncio.start_server(
            self._serve,
            self.host,
            self.port,
            limit=HEAD_MAX,
            ssl=self.tls,
            # the handshake is part of the head's time: a client that never finishes it is dropped
            ssl_handshake_timeout=self.head_timeout_s if self.tls is not None else None,
        )
        self.port = self._server.sockets[0].getsockname()[1]
        _log.info("web_started", host=self.host, port=self.port, tls=self.tls is not None)

    async def stop(self) -> None:
        if self._server is not None:
            self._server.close()
            for task in list(self._streams):
                task.cancel()
            await self._server.wait_closed()
            self._server = None

    # -- one connection ---------------------------------------------------------------------------

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        if task is not None:
            self._streams.add(task)
        try:
            request = await self._read(reader)
            await self._route(request, writer)
        except _HttpError as exc:
            await self._json(writer, {"error": str(exc)}, exc.status, exc.reason)
        except HumanError as exc:
            await self._json(writer, {"error": str(exc)}, exc.status, _REASONS[exc.status])
        except (ConnectionError, asyncio.IncompleteReadError, TimeoutError):
            pass
        except asyncio.CancelledError:
            pass
        finally:
            if task is not None:
                self._streams.discard(task)
            with contextlib.suppress(Exception):
                writer.close()
                await writer.wait_closed()

    async def _read(self, reader: asyncio.StreamReader) -> _Request:
        try:
            async with asyncio.timeout(self.head_timeout_s):
                head = await reader.readuntil(b"\r\n\r\n")
        except (asyncio.LimitOverrunError, ValueError):
            raise _HttpError(
                431, "Request Header Fields Too Large", "request head too large"
            ) from None
        if len(head) > HEAD_MAX:
            raise _HttpError(431, "Request Header Fields Too Large", "request head too large")
        line = head.split(b"\r\n", 1)[0].decode("latin-1")
        parts = line.split(" ")
        if len(parts) != 3 or not parts[2].startswith("HTTP/1."):
            raise _HttpError(400, "Bad Request", "not an HTTP/1 request line")
        method, target = parts[0], parts[1]
        url = urlsplit(target)
        path = unquote(url.path)
        body = b""
        if method == "POST" and self.human is not None and path.startswith("/api/play/"):
            body = await self._body(reader, head)  # the human seat's page: a token or an action
        elif method not in ("GET", "HEAD"):
            raise _HttpError(405, "Method Not Allowed", f"{method} is not served")
        return _Request(method, path, parse_qs(url.query), body)

    async def _body(self, reader: asyncio.StreamReader, head: bytes) -> bytes:
        length = -1
        for line in head.split(b"\r\n")[1:]:
            name, _, value = line.partition(b":")
            if name.strip().lower() == b"content-length" and value.strip().isdigit():
                length = int(value.strip())
        if length < 0:
            raise _HttpError(411, "Length Required", "a POST needs a Content-Length")
        if length > MAX_BODY:
            raise _HttpError(413, "Content Too Large", f"a body holds at most {MAX_BODY} bytes")
        async with asyncio.timeout(self.head_timeout_s):
            return await reader.readexactly(length)

    async def _route(self, request: _Request, writer: asyncio.StreamWriter) -> None:
        path = request.path
        if path in self._static:
            body, kind = self._static[path]
            await self._send(writer, body, kind, head_only=request.method == "HEAD")
            return
        if self.human is not None and path.startswith("/api/play/"):
            await self._play(request, writer, self.human)
            return
        if self.spectator is None:
            raise _HttpError(404, "Not Found", f"no page {path}")
        spectator = self.spectator
        handlers: dict[str, Callable[[], Awaitable[Any]]] = {
            "/api/bots": lambda: self._call(spectator.list_bots()),
            "/api/standings": lambda: self._call(spectator.standings()),
            "/api/matches": lambda: self._matches(request),
        }
        if path in handlers:
            await self._json(writer, await handlers[path]())
            return
        if self.pages is not None and path.startswith("/api/pages/"):  # (serve/_pages.py)
            try:
                answer = await self.pages.get(path.removeprefix("/api/pages"), request.query)
            except PageError as exc:
                raise _HttpError(exc.status, _REASONS.get(exc.status, "Error"), str(exc)) from None
            await self._json(writer, answer)
            return
        parts = path.split("/")
        if (
            len(parts) == 5
            and parts[:3] == ["", "api", "matches"]
            and parts[4]
            in (
                "watch",
                "replay",
            )
        ):
            match_id = parts[3]
            if not _MATCH_ID.fullmatch(match_id):
                raise _HttpError(400, "Bad Request", "not a match identifier")
            if parts[4] == "watch":
                await self._events(writer, match_id)
            else:
                await self._json(writer, await self._replay(match_id))
            return
        raise _HttpError(404, "Not Found", f"no page {path}")

    async def _play(self, request: _Request, writer: asyncio.StreamWriter, desk: HumanDesk) -> None:
        """A human seat's page: ``POST join`` (a seat token), ``GET <secret>/events`` (the
        seat's messages as server-sent events), ``POST <secret>/act`` (an action)."""
        parts = request.path.split("/")[3:]
        if parts == ["join"] and request.method == "POST":
            await self._json(writer, desk.join(request.body))
        elif parts == ["config"] and request.method in ("GET", "HEAD"):
            offer = desk.vs_bots.describe() if desk.vs_bots is not None else {"vs_bots": "off"}
            await self._json(writer, {**offer, "join": desk.address is not None})
        elif parts == ["vs-bots"] and request.method == "POST" and desk.vs_bots is not None:
            await self._json(writer, await desk.vs_bots.start(request.body))
        elif len(parts) == 2 and parts[1] == "act" and request.method == "POST":
            await self._json(writer, await desk.answer(parts[0], request.body))
        elif len(parts) == 2 and parts[1] == "events" and request.method == "GET":
            await self._lines(writer, desk.seat(parts[0]).follow())
        else:
            raise _HttpError(404, "Not Found", f"no page {request.path}")

    async def _lines(self, writer: asyncio.StreamWriter, lines: AsyncIterator[str]) -> None:
        """JSON texts as server-sent events (one ``data:`` line each), then ``event: close``."""
        writer.write(_EVENT_STREAM_HEAD.encode())
        await writer.drain()
        iterator = aiter(lines)
        pending: asyncio.Future[str] | None = None
        try:
            while True:
                if pending is None:
                    pending = asyncio.ensure_future(anext(iterator))
                done, _ = await asyncio.wait({pending}, timeout=KEEPALIVE_S)
                if not done:
                    writer.write(b": keepalive\n\n")
                    await writer.drain()
                    continue
                try:
                    line = pending.result()
                except StopAsyncIteration:
                    break
                finally:
                    pending = None
                writer.write(f"data: {line}\n\n".encode())
                await writer.drain()
            writer.write(b"event: close\ndata: {}\n\n")
            await writer.drain()
        finally:
            if pending is not None:
                pending.cancel()

    async def _call(self, pending: Awaitable[Message]) -> Any:
        try:
            return as_json(await pending)
        except grpc.RpcError as exc:
            raise self._translate(exc) from None

    @staticmethod
    def _translate(exc: grpc.RpcError) -> _HttpError:
        code = exc.code() if hasattr(exc, "code") else grpc.StatusCode.UNKNOWN
        status, reason = _GRPC_HTTP.get(code, (502, "Bad Gateway"))
        details = exc.details() if hasattr(exc, "details") else ""
        return _HttpError(status, reason, f"{code.name}: {details}")

    async def _matches(self, request: _Request) -> Any:
        state_name = (request.query.get("state") or [""])[0]
        if state_name and state_name not in _STATES:
            raise _HttpError(400, "Bad Request", f"unknown state {state_name[:20]!r}")
        assert self.spectator is not None
        return await self._call(
            self.spectator.list_matches(_STATES.get(state_name, cpb.MATCH_STATE_UNSPECIFIED), 50)
        )

    async def _replay(self, match_id: str) -> Any:
        """A finished match's whole public stream, for playback."""
        out = []
        assert self.spectator is not None
        try:
            async for message in self.spectator.watch(match_id):
                if message.WhichOneof("kind") == "started":
                    state = message.started.match.state
                    if state in (cpb.MATCH_STATE_RUNNING, cpb.MATCH_STATE_PENDING):
                        raise _HttpError(409, "Conflict", "the match is still being played")
                out.append(as_json(message))
        except grpc.RpcError as exc:
            raise self._translate(exc) from None
        return {"messages": out}

    async def _events(self, writer: asyncio.StreamWriter, match_id: str) -> None:
        """The live public stream as server-sent events: one ``data:`` line per message, from
        a snapshot of the match as it stands (``WatchMatchRequest.snapshot``): a late watcher
        is sent the view now and the last events, then one frame per step. A refusal or a
        failure of the stream ends it with an ``event: failed`` naming it."""
        assert self.spectator is not None
        stream = self.spectator.watch(match_id, snapshot=True)

        async def lines() -> AsyncGenerator[str, None]:
            try:
                async for message in stream:
                    yield json.dumps(as_json(message), ensure_ascii=False, separators=(",", ":"))
            finally:
                with contextlib.suppress(Exception):
                    await stream.aclose()  # type: ignore[attr-defined]

        texts = lines()
        try:
            await self._lines(writer, texts)
        except grpc.RpcError as exc:
            error = self._translate(exc)
            payload = json.dumps({"error": str(error)}, ensure_ascii=False)
            writer.write(f"event: failed\ndata: {payload}\n\n".encode())
            with contextlib.suppress(ConnectionError):
                await writer.drain()
        finally:  # stopped between two messages: closed here; stopped mid-read: _lines
            # cancelled that read, and the generator closes the stream as the cancel reaches it
            with contextlib.suppress(Exception):
                await texts.aclose()

    # -- responses --------------------------------------------------------------------------------

    async def _json(
        self, writer: asyncio.StreamWriter, data: Any, status: int = 200, reason: str = "OK"
    ) -> None:
        body = json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()
        await self._send(writer, body, "application/json; charset=utf-8", status, reason)

    @staticmethod
    async def _send(
        writer: asyncio.StreamWriter,
        body: bytes,
        kind: str,
        status: int = 200,
        reason: str = "OK",
        *,
        head_only: bool = False,
    ) -> None:
        head = (
            f"HTTP/1.1 {status} {reason}\r\n"
            f"Content-Type: {kind}\r\n"
            f"Content-Length: {len(body)}\r\n"
            "Cache-Control: no-store\r\n"
            "Connection: close\r\n" + _SECURITY_HEADERS + "\r\n"
        )
        writer.write(head.encode() + (b"" if head_only else body))
        await writer.drain()
