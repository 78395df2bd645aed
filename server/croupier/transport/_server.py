"""The gRPC arbiter server: the bot stream (``croupier.v1.BotService``), health checking and
reflection. One server hosts any number of matches; a seat token routes a stream to its seat."""

from __future__ import annotations

import asyncio
import collections
import contextlib
import math
import shutil
import socket
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, cast

import grpc
import structlog
from google.protobuf.message import DecodeError
from grpc_health.v1 import health_pb2, health_pb2_grpc

from croupier import PROTOCOL_VERSION
from croupier.arbiter import (
    ClaimError,
    DecisionRequest,
    Inbound,
    Match,
    MatchOver,
    Unexpected,
)
from croupier.errors import ConfigError
from croupier.games import get_spec
from croupier.transport._closing import ClosingGate
from croupier.transport._codec import EVENT_TYPES, EventMessage, decode, encode, encode_bytes
from croupier.transport._mux import (
    MAX_UNREAD,
    SHUTDOWN_WRITE_S,
    WRITE_TIMEOUT_S,
    SeatEntry,
    SessionMux,
)
from croupier.transport._peers import PeerBook, PeerLimits, peer_key, shown_peer
from croupier.transport._pipe import serve_pipe
from croupier.transport._reflection import enable_reflection
from croupier.transport._service import BoundedHealth, add_bot_service, split_address
from croupier.transport._sessions import BotSession, Closing
from croupier.transport._socket_dir import SOCKET_NAME, make_socket_dir
from croupier.transport._tls import TlsConfig, server_credentials
from croupier.v1 import bot_pb2 as pb
from croupier.v1 import bot_pb2_grpc

#: Time a new stream has to send its Hello.
HELLO_TIMEOUT_S = 10.0
#: Largest message a bot may send (a reply is a few bytes; a Hello well under 1 KiB).
MAX_BOT_MESSAGE_BYTES = 64 * 1024

#: After MatchEnd, how long the arbiter waits for the bot to close its side of the stream.
CLOSE_GRACE_S = 5.0

#: Streams the server serves at once (more are refused with RESOURCE_EXHAUSTED by gRPC itself).
MAX_CONCURRENT_STREAMS = 1024
#: How long a call may wait in gRPC core for the busy event loop to take it before gRPC cancels
#: it (its default is 30 s; thousands of seats dialling at once take longer to let in).
UNREQUESTED_WAIT_S = 600
#: The per-peer limits' defaults (see :class:`PeerLimits` and docs/protocol.md, "Limits").
MAX_PENDING_PER_PEER = PeerLimits().pending
MAX_FAILED_HELLOS_PER_PEER = PeerLimits().failed_hellos
#: A connection that carries no stream for this long is closed (GOAWAY; a client dials again
#: when it next needs it): a peer does not hold idle connections (file descriptors) for nothing.
CONNECTION_IDLE_S = 60.0
#: Largest metadata (headers) a client may send with a call.
MAX_METADATA_BYTES = 16 * 1024

#: Trailing-metadata key carrying the stable :class:`ErrorReason` name of a stream error.
REASON_KEY = "croupier-reason"

#: The oldest protocol version the arbiter still speaks: 2, whose sessions hand their seats out
#: to be played on Play streams of their own (``PROTOCOL_VERSION``, 3, multiplexes them on the
#: Session stream; a Play stream is the same in both). CHANGELOG.md, "Protocol versions".
OLDEST_PROTOCOL_VERSION = 2

#: The status a session refused by its owner (:meth:`BotSession.refuse`) ends with, by reason.
_REFUSAL_CODES: dict[int, grpc.StatusCode] = {
    pb.ERROR_REASON_TOKEN_UNKNOWN: grpc.StatusCode.UNAUTHENTICATED,
    pb.ERROR_REASON_BOT_DISABLED: grpc.StatusCode.PERMISSION_DENIED,
}

_CLAIM_ERRORS = {
    ClaimError.Kind.SEAT_TAKEN: (grpc.StatusCode.ALREADY_EXISTS, pb.ERROR_REASON_SEAT_TAKEN),
    ClaimError.Kind.SEAT_CLOSED: (grpc.StatusCode.FAILED_PRECONDITION, pb.ERROR_REASON_SEAT_CLOSED),
    ClaimError.Kind.MATCH_OVER: (grpc.StatusCode.FAILED_PRECONDITION, pb.ERROR_REASON_MATCH_OVER),
}


_Closing = Closing  # the server is shutting down (raised out of the waits of a stream handler)


class BotServicer(ClosingGate, bot_pb2_grpc.BotServiceServicer):
    """Serves ``Play``: handshake, then pumps the seat's outbox to the bot and its replies in.

    Unauthenticated peers are bounded by ``limits`` (see :mod:`._peers`), on loopback too; a
    stream with a valid token always gets in. :meth:`close` ends every stream handler at once,
    so none is cancelled mid-wait at shutdown.
    """

    def __init__(self, limits: PeerLimits | None = None) -> None:
        ClosingGate.__init__(self)
        self._seats: dict[str, SeatEntry] = {}
        self._sessions: dict[str, BotSession] = {}
        self._log = structlog.get_logger("croupier.transport")
        self.peers = PeerBook(limits or PeerLimits())
        #: Connections (gRPC peer strings, which name the client's port) with an attached
        #: session: their Play streams are the session's seats, never counted against the peer.
        self._session_peers: collections.Counter[str] = collections.Counter()
        #: Messages written to bots so far (Play and Session streams): what a benchmark divides by
        #: the decisions to count writes per decision.
        self.writes = 0
        #: Streams refused for their peer's limits before their Hello was read (TOO_MANY_ATTEMPTS,
        #: "try again later") so far: how often the limits turned a dialler away.
        self.refused_busy = 0
        #: Sessions served on a launched bot's session pipe (:mod:`._pipe`) so far.
        self.pipes = 0
        #: Finds the session a token opens when no session is registered under the token itself:
        #: a competition server's registered bots present their key, which it keeps only hashed.
        self.session_lookup: Callable[[str], BotSession | None] | None = None

    def seat_entry(self, token: str) -> SeatEntry | None:
        """The match, seat and codec ``token`` admits to (``None``: none now)."""
        return self._seats.get(token)

    def find_session(self, token: str) -> BotSession | None:
        """The session ``token`` opens (registered under it, or found by :attr:`session_lookup`)."""
        session = self._sessions.get(token)
        if session is None and self.session_lookup is not None:
            session = self.session_lookup(token)
        return session

    async def close(self) -> None:
        """Make every stream handler end now (the server is about to stop)."""
        self.end_waits()
        await asyncio.sleep(0)

    def open_session(self, token: str | None = None) -> BotSession:
        """Expect a bot session under ``token`` (a fresh one by default)."""
        session = BotSession(token)
        self._sessions[session.token] = session
        return session

    def close_session(self, session: BotSession, come_back: bool = False) -> None:
        """End ``session`` (its stream closes with OK; ``come_back``: UNAVAILABLE, so that a
        bot which redials a broken session comes back) and forget its token."""
        session.close(come_back)
        self._sessions.pop(session.token, None)

    def add_match(self, match: Match) -> None:
        codec = get_spec(match.game.info.name).codec
        for link in match.seats:
            self._seats[link.token] = SeatEntry(match, link, codec)

    def remove_match(self, match: Match) -> None:
        for link in match.seats:
            self._seats.pop(link.token, None)

    async def _refuse_version(
        self, context: grpc.aio.ServicerContext, version: int, key: str | None = None
    ) -> bool:
        """End the stream of a bot that speaks another protocol version (True if refused)."""
        if OLDEST_PROTOCOL_VERSION <= version <= PROTOCOL_VERSION:
            return False
        await self._abort(
            context,
            grpc.StatusCode.FAILED_PRECONDITION,
            pb.ERROR_REASON_PROTOCOL_VERSION,
            f"protocol version {version} is not supported; this arbiter speaks "
            f"{OLDEST_PROTOCOL_VERSION} to {PROTOCOL_VERSION}",
            key,
        )
        return True

    async def _abort(
        self,
        context: grpc.aio.ServicerContext,
        code: grpc.StatusCode,
        reason: int,
        message: str,
        key: str | None = None,
    ) -> None:
        """End the stream with ``code`` and ``reason``. The refusal of a stream not yet admitted
        (``key``: its peer) is logged once per peer and window, with how many were not."""
        name = pb.ErrorReason.Name(reason).removeprefix("ERROR_REASON_")
        if key is None:
            self._log.info("stream_ended_with_error", reason=name, code=code.name, detail=message)
        elif self.peers.should_log(key, asyncio.get_running_loop().time()):
            self._log.info(
                "stream_refused",
                reason=name,
                code=code.name,
                detail=message,
                peer=key,
                not_logged=self.peers.unlogged.pop(key, 0),
            )
        await context.abort(code, message, trailing_metadata=((REASON_KEY, name),))

    async def _first_message(
        self, context: grpc.aio.ServicerContext, empty: Any, admits: Callable[[str], bool]
    ) -> tuple[Any, str | None]:
        """Read a new stream's first message under its peer's limits: ``(message, key)``, the
        message ``empty`` if none came in time or it was not one, and ``key`` the peer the
        stream counts against (``None``: not limited). A stream of a peer over its limits is on
        probation: its first message must be a hello that ``admits`` (a valid token) and come
        within the probation time, or it is refused with TOO_MANY_ATTEMPTS (``(None, key)``).
        Not limited: a peer on the unix socket itself (this user's processes; launched bots
        come through their gates, each a peer of its own: :mod:`._gate`). A connection that
        carries attached sessions may hold a stream per seat they may be handed at once, on
        top (no more: its session's token does not make its other streams free)."""
        peer = context.peer() or ""
        key = peer_key(peer)
        limited = key != "unix"
        book, limits = self.peers, self.peers.limits
        now = asyncio.get_running_loop().time()
        probation = limited and book.over(key, now, self._session_peers.get(peer, 0))
        waiting: list[Any] = []  # this stream's place on probation: [started, timeout scope]
        if probation and not book.make_room(key, now):
            await self._refuse_busy(context, key)
            return None, key
        if limited and not probation:
            book.add(book.pending, key, 1)

        def on_probation(scope: asyncio.Timeout) -> None:
            waiting[:] = [now, scope]
            book.waiting.setdefault(key, collections.deque()).append(waiting)

        try:
            first = await self.unless_closing(
                context.read(),
                limits.probation_s if probation else HELLO_TIMEOUT_S,
                on_probation if probation else None,
            )
        except (DecodeError, TimeoutError):  # no message in time, or bytes that are not one
            first = empty
        finally:
            if probation:
                book.leave(key, waiting)
            elif limited:
                book.add(book.pending, key, -1)
        if first is grpc.aio.EOF:
            first = empty
        if probation and (first.WhichOneof("kind") != "hello" or not admits(first.hello.token)):
            await self._refuse_busy(context, key)
            return None, key
        return first, key if limited else None

    async def _refuse_busy(self, context: grpc.aio.ServicerContext, key: str) -> None:
        self.refused_busy += 1
        await self._abort(
            context,
            grpc.StatusCode.RESOURCE_EXHAUSTED,
            pb.ERROR_REASON_TOO_MANY_ATTEMPTS,
            "too many connections or refused Hellos from this address; try again later",
            key,
        )

    @staticmethod
    async def _stopping(context: grpc.aio.ServicerContext) -> None:
        """End a stream the server cannot serve because it is stopping: UNAVAILABLE, which the
        SDKs take as a dropped connection to dial again (an OK end before any welcome, as
        before, was taken as a refusal: a Node bot redialling a restarting server gave up)."""
        await context.abort(grpc.StatusCode.UNAVAILABLE, "the server is stopping: dial again")

    def _seat_or_session(self, token: str) -> bool:
        return token in self._seats or self.find_session(token) is not None

    def _session_token(self, token: str) -> bool:
        return self.find_session(token) is not None

    async def Play(self, request_iterator: object, context: grpc.aio.ServicerContext) -> None:
        admitted = False
        key: str | None = None
        first: Any = None
        try:
            first, key = await self._first_message(context, pb.PlayRequest(), self._seat_or_session)
            if first is None:
                return  # refused on probation (not counted as a further failure)
            admitted = await self._handshake(context, first, key)
        except _Closing:
            admitted = True  # not the peer's failure
            if first is None:  # dialled as the server stops: "dial again", not a silent end
                await self._stopping(context)
        finally:  # (a refusal leaves by the exception context.abort raises)
            if not admitted and key is not None and first is not None:
                self.peers.failed(key, asyncio.get_running_loop().time())

    async def _handshake(
        self, context: grpc.aio.ServicerContext, first: Any, key: str | None
    ) -> bool:
        """Admit the stream whose first message is ``first`` to its seat (then play it: see
        :meth:`_pump`); ``False`` if it was refused."""
        if first.WhichOneof("kind") != "hello":
            await self._abort(
                context,
                grpc.StatusCode.INVALID_ARGUMENT,
                pb.ERROR_REASON_HELLO_EXPECTED,
                "the first message must be a Hello",
                key or "",
            )
            return False
        hello = first.hello
        if await self._refuse_version(context, hello.protocol_version, key or ""):
            return False
        entry = self._seats.get(hello.token)
        if entry is None and (session := self.find_session(hello.token)) is not None:
            session.per_match.set()
            await self._abort(
                context,
                grpc.StatusCode.FAILED_PRECONDITION,
                pb.ERROR_REASON_SESSION_EXPECTED,
                "this is a session token: open BotService.Session with it",
            )
            return False
        if entry is None:
            await self._abort(
                context,
                grpc.StatusCode.UNAUTHENTICATED,
                pb.ERROR_REASON_TOKEN_UNKNOWN,
                "the token admits no seat",
                key or "",
            )
            return False
        peer = shown_peer(context.peer() or "")
        try:
            connection = entry.link.claim(hello.bot_name, hello.bot_version, peer)
        except ClaimError as exc:
            code, reason = _CLAIM_ERRORS[exc.kind]
            await self._abort(context, code, reason, str(exc))
            return False
        if connection == 1:
            entry.link.peer = peer  # (the replay header records where the bot first joined)
        await self._pump(context, entry, connection, hello.protocol_version)
        return True

    async def Session(self, request_iterator: object, context: grpc.aio.ServicerContext) -> None:
        admitted = False
        key: str | None = None
        first: Any = None
        try:
            first, key = await self._first_message(
                context, pb.SessionRequest(), self._session_token
            )
            if first is None:
                return
            admitted = await self._session_handshake(context, first, key)
        except _Closing:
            admitted = True
            if first is None:  # dialled as the server stops: "dial again", not a silent end
                await self._stopping(context)
        finally:
            if not admitted and key is not None and first is not None:
                self.peers.failed(key, asyncio.get_running_loop().time())

    async def serve_pipe(self, sock: socket.socket, exited: Awaitable[Any]) -> None:
        """Serve a launched bot's session pipe until it ends (:func:`._pipe.serve_pipe`)."""
        await serve_pipe(self, sock, exited, MAX_BOT_MESSAGE_BYTES)

    async def _session_handshake(
        self, context: grpc.aio.ServicerContext, first: Any, key: str | None
    ) -> bool:
        if first.WhichOneof("kind") != "hello":
            await self._abort(
                context,
                grpc.StatusCode.INVALID_ARGUMENT,
                pb.ERROR_REASON_SESSION_HELLO_EXPECTED,
                "the first message must be a SessionHello",
                key or "",
            )
            return False
        hello = first.hello
        if await self._refuse_version(context, hello.protocol_version, key or ""):
            return False
        session = self.find_session(hello.token)
        if session is None:
            await self._abort(
                context,
                grpc.StatusCode.UNAUTHENTICATED,
                pb.ERROR_REASON_TOKEN_UNKNOWN,
                "the token admits no session",
                key or "",
            )
            return False
        if session.refusal is not None:  # a known key its owner refused: not a guess
            await self._refuse_session(context, session)
            return True
        version = hello.protocol_version
        if not session.attach(hello.bot_name, hello.bot_version, hello.capacity, version):
            await self._abort(
                context,
                grpc.StatusCode.ALREADY_EXISTS,
                pb.ERROR_REASON_SESSION_TAKEN,
                "the session token already has a connected session",
            )
            return False
        peer = context.peer() or ""
        # (at most the probation's size: a capacity is what the bot says, and streams past
        # it still get in on probation with their seats' tokens)
        seats = min(max(1, session.capacity), self.peers.limits.probation)
        self._session_peers[peer] += seats
        try:
            await self._serve_session(context, session)
        finally:
            session.detach()
            self._session_peers[peer] -= seats
            if self._session_peers[peer] <= 0:
                del self._session_peers[peer]
        return True

    async def _refuse_session(self, context: grpc.aio.ServicerContext, session: BotSession) -> None:
        """End a Session stream with the refusal its owner set (:meth:`BotSession.refuse`)."""
        assert session.refusal is not None
        reason, message = session.refusal
        code = _REFUSAL_CODES.get(reason, grpc.StatusCode.FAILED_PRECONDITION)
        await self._abort(context, code, reason, message)

    async def _serve_session(self, context: grpc.aio.ServicerContext, session: BotSession) -> None:
        # (who the bot is, where its owner named it; what its hello said comes after)
        log = self._log.bind(
            session_id=session.session_id, bot=session.name or session.bot_name
        ).bind(says=session.bot_name)
        log.info("session_opened", version=session.bot_version, capacity=session.capacity)
        welcome = pb.SessionWelcome(
            session_id=session.session_id,
            protocol_version=session.protocol_version,
            capacity=session.capacity,
        )
        await context.write(pb.SessionResponse(welcome=welcome))
        if session.multiplexed:
            await self._serve_mux(context, session, log)
            return

        async def read_until_closed() -> None:
            # the bot sends nothing after its hello; its end of the stream closing ends the
            # session (on a pipe, so do more than its cap of messages: all answer nothing here)
            cap, read = getattr(context, "idle_cap", None) or math.inf, 0
            with contextlib.suppress(grpc.RpcError, asyncio.InvalidStateError, ConnectionError):
                while (read := read + 1) <= cap + 1:
                    with contextlib.suppress(DecodeError):  # (not a message, on a pipe: skipped)
                        if await context.read() is grpc.aio.EOF:
                            return
                log.warning("session_pipe_flooded", messages=read - 1)

        reader = asyncio.create_task(read_until_closed())
        handed = 0
        try:
            while True:
                if reader.done() or self._closing_event().is_set():
                    return  # the bot hung up, or the server is shutting down
                if not session.queue.empty():
                    # seats queued already (many matches created at once): taken without a
                    # wait, so the hand-off costs one write per seat, not tasks and wake-ups
                    assignment = session.queue.get_nowait()
                else:
                    getter = asyncio.ensure_future(session.queue.get())
                    closing = asyncio.ensure_future(self._closing_event().wait())
                    waits = {getter, reader, closing}
                    await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
                    closing.cancel()
                    if not getter.done():
                        getter.cancel()
                        return  # the bot hung up, or the server is shutting down
                    assignment = getter.result()
                if assignment is None:
                    if session.refusal is not None:
                        await self._refuse_session(context, session)
                    if session.come_back:  # no reason attached: to the bot, a broken session
                        await context.abort(
                            grpc.StatusCode.UNAVAILABLE, "the server is stopping: dial again"
                        )
                    return
                entry = self._seats.get(assignment.token)
                if entry is None:  # the match ended (or was dropped) before the seat was sent
                    continue
                seat = pb.SeatAssignment(
                    match_id=entry.match.match_id,
                    game=entry.match.game.info.name,
                    seat=entry.link.seat,
                    token=assignment.token,
                    seed=assignment.seed,
                )
                async with asyncio.timeout(WRITE_TIMEOUT_S):
                    await context.write(pb.SessionResponse(seat=seat))
                handed += 1
        except TimeoutError:
            log.warning("session_stopped_reading")
        finally:
            reader.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await reader
            log.info("session_closed", seats=handed)

    async def _serve_mux(
        self, context: grpc.aio.ServicerContext, session: BotSession, log: Any
    ) -> None:
        """Play the session's seats on its own stream (protocol 3: :mod:`._mux`)."""
        mux = SessionMux(self, context, session, log)
        try:
            await mux.serve()
        finally:
            log.info("session_closed", seats=mux.seats_handed, multiplexed=True)
        if self.closing:
            return
        if session.refusal is not None:
            await self._refuse_session(context, session)
        elif session.come_back:  # no reason attached: to the bot, a broken session
            await self._stopping(context)

    async def _pump(
        self,
        context: grpc.aio.ServicerContext,
        entry: SeatEntry,
        connection: int = 1,
        version: int = PROTOCOL_VERSION,
    ) -> None:
        """Play the seat on this stream, connection number ``connection`` of its token (more
        than 1: the bot came back within its grace window, and is sent the pending decision
        again after the Welcome); ``version``: the protocol version its Hello said."""
        link, codec = entry.link, entry.codec
        name = entry.match.registered_name(link.seat) or link.bot_name
        log = self._log.bind(match_id=entry.match.match_id, seat=link.seat, bot=name)
        log.info("bot_joined", version=link.bot_version, connection=connection)
        welcome = encode(entry.match.welcome(link.seat), codec)
        welcome.welcome.protocol_version = version
        await context.write(welcome)

        async def read_replies() -> None:
            try:
                while True:
                    message: Inbound
                    try:
                        request = await context.read()
                    except DecodeError:  # the stream goes on; the message is rejected
                        message = Unexpected("bytes that are not a PlayRequest")
                    else:
                        if request is grpc.aio.EOF:
                            link.lost("the bot closed its stream", connection)
                            return
                        message = decode(request, loop.time())  # the clock stops now
                    if link.over or link.connection != connection:
                        continue  # the match is over (or the bot is back on another stream)
                    if link.inbox.qsize() >= MAX_UNREAD:
                        flooded.set()
                        link.leave(f"flooding: more than {MAX_UNREAD} messages not yet read")
                        return
                    link.inbox.put_nowait(message)
            except (grpc.RpcError, asyncio.InvalidStateError, ConnectionError) as exc:
                link.lost(f"the stream broke: {type(exc).__name__}", connection)

        loop = asyncio.get_running_loop()
        flooded = asyncio.Event()
        reader = asyncio.create_task(read_replies())
        finished = False

        async def write(response: pb.PlayResponse | bytes, decision: int = 0) -> bool:
            """Write, unless the bot has stopped reading for WRITE_TIMEOUT_S (then it is gone).
            For decision request ``decision``, tell the match when it was written: its clock
            starts then, not while the arbiter was encoding or queueing it."""
            self.writes += 1
            try:
                if self._closing_event().is_set():  # shutting down: what is queued, briefly
                    async with asyncio.timeout(SHUTDOWN_WRITE_S):
                        await context.write(response)
                else:
                    await self.unless_closing(context.write(response), WRITE_TIMEOUT_S)
                if decision and not link.over:
                    link.written(decision, loop.time())
                return True
            except TimeoutError:
                link.leave("the bot stopped reading its stream")
                return False

        outbox = link.outbox
        flush_ms = entry.match.config.event_flush_ms
        linger_s = flush_ms / 1000 if flush_ms > 0 else math.inf  # 0: with the next message
        try:
            resent = link.resync() if connection > 1 else None
            sent = resent is None or await write(encode_bytes(resent, codec), resent.request_id)
            if not sent:
                return
            while True:
                # the next message with the events before it; or, once the oldest has waited
                # linger_s with nothing else to go with, the events alone; or nothing once
                # this stream's reader has ended (the bot may come back on another)
                if not self._closing_event().is_set():
                    if link.grace_s > 0 and not link.launched:  # it may come back elsewhere
                        batch = await self.unless_closing(_batch_or_end(outbox, reader, linger_s))
                    else:
                        batch = await self.unless_closing(outbox.get_batch(linger_s))
                elif outbox.empty():
                    return
                else:  # shutting down: what is still queued (MatchEnd, say) goes out first
                    batch = await outbox.get_batch(0.0)
                message = batch[-1]
                if message is None:
                    return
                if isinstance(message, EVENT_TYPES):
                    alone = cast("list[EventMessage]", batch)
                    if not await write(encode_bytes(None, codec, alone)):
                        return
                    continue
                events = cast("list[EventMessage]", batch[:-1])
                decision = message.request_id if isinstance(message, DecisionRequest) else 0
                if not await write(encode_bytes(message, codec, events), decision):
                    return
                if isinstance(message, MatchOver):
                    finished = True
                    return
        except _Closing:
            return
        except (grpc.RpcError, asyncio.InvalidStateError, ConnectionError):
            return  # the stream broke while being written: the finally says the bot is lost
        finally:
            if finished:  # let the bot close its side first, so a reply it was still sending
                # (after a timeout, say) does not meet a closed stream and hide its MatchEnd
                with contextlib.suppress(TimeoutError, _Closing):
                    await self.unless_closing(asyncio.shield(reader), CLOSE_GRACE_S)
            reader.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await reader
            if not finished:
                link.lost("the connection was lost", connection)
            log.info("bot_stream_closed", finished=finished)
            if flooded.is_set() and not self._closing_event().is_set():
                await self._abort(
                    context,
                    grpc.StatusCode.RESOURCE_EXHAUSTED,
                    pb.ERROR_REASON_FLOODING,
                    f"more than {MAX_UNREAD} messages not yet read; the seat is closed",
                )


async def _batch_or_end(outbox: Any, reader: asyncio.Task[None], linger_s: float) -> list[Any]:
    """The outbox's next batch (events lingering up to ``linger_s``), or ``[None]`` once
    ``reader`` (the stream's reader) has ended and nothing is ready: the stream is over, but the
    seat's messages stay queued for the bot's next connection."""
    getter = asyncio.ensure_future(outbox.get_batch(linger_s))
    try:
        await asyncio.wait({getter, reader}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        if not getter.done():
            getter.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await getter
    if getter.cancelled():
        return [None]
    batch: list[Any] = getter.result()
    return batch


class ArbiterServer:
    """A running gRPC server on ``address`` (``host:port``; port 0 picks a free one).

    With ``unix_socket`` (the default) it also listens on a unix socket in a private directory
    of its own (:attr:`unix_socket`, this user's only), which each launched bot reaches through
    a gate of its own (:mod:`._gate`): the one way into a sandboxed bot's network namespace.
    ``limits`` bound what one peer may do before it shows a valid token (:class:`PeerLimits`;
    on loopback and per launched bot too: only the socket itself, this user's, is exempt). With
    ``tls`` the network listener speaks TLS only
    (a plaintext client cannot connect); the unix socket stays plaintext (see :mod:`._tls`).
    ``max_streams`` bounds the streams served at once (more are refused with
    RESOURCE_EXHAUSTED), in all and on one connection.
    """

    def __init__(
        self,
        address: str = "127.0.0.1:0",
        *,
        unix_socket: bool = True,
        limits: PeerLimits | None = None,
        max_streams: int = MAX_CONCURRENT_STREAMS,
        tls: TlsConfig | None = None,
    ) -> None:
        self._requested = address
        #: The TLS files of the network listener, or ``None`` for plaintext.
        self.tls = tls
        self._want_socket = unix_socket
        self._socket_dir: Path | None = None
        #: The unix socket the server also listens on (after :meth:`start`), or ``None``.
        self.unix_socket: Path | None = None
        self.server = grpc.aio.server(
            maximum_concurrent_rpcs=max_streams,
            options=[
                # bounded input: a message (a bot's is a few bytes, a Hello well under 1 KiB)
                # and its headers; larger ones end the call with RESOURCE_EXHAUSTED
                ("grpc.max_receive_message_length", MAX_BOT_MESSAGE_BYTES),
                ("grpc.max_metadata_size", MAX_METADATA_BYTES),
                # a connection with no stream for this long is closed (GOAWAY)
                ("grpc.max_connection_idle_ms", int(CONNECTION_IDLE_S * 1000)),
                # one connection (a session bot's) may carry every seat it plays
                ("grpc.max_concurrent_streams", max_streams),
                # calls that arrive while the event loop is busy wait in gRPC core until it
                # takes them; past these (default 1000, then at random up to 3000) they are
                # refused with CANCELLED: many seats dialling at once must all be let in
                ("grpc.server.max_pending_requests", max_streams),
                ("grpc.server.max_pending_requests_hard_limit", 2 * max_streams),
                # ... and one that waits there longer than this (default 30 s) is CANCELLED
                ("grpc.server_max_unrequested_time_in_server", UNREQUESTED_WAIT_S),
                # a port another server holds is an error, not a share (bots routed at random)
                ("grpc.so_reuseport", 0),
            ],
        )
        self.bots = BotServicer(limits)
        self.health = BoundedHealth()
        self.address = ""
        add_bot_service(self.bots, self.server)
        health_pb2_grpc.add_HealthServicer_to_server(self.health, self.server)
        enable_reflection(
            self.server,
            (
                pb.DESCRIPTOR.services_by_name["BotService"].full_name,
                health_pb2.DESCRIPTOR.services_by_name["Health"].full_name,
            ),
            idle_s=HELLO_TIMEOUT_S,
        )

    async def start(self) -> str:
        """Bind and start; return the address bots should dial."""
        host, _ = split_address(self._requested)
        credentials = None if self.tls is None else server_credentials(self.tls)
        try:
            if credentials is None:
                port = self.server.add_insecure_port(self._requested)
            else:
                port = self.server.add_secure_port(self._requested, credentials)
        except RuntimeError:
            port = 0
        if not port:
            raise ConfigError(
                f"cannot listen on {self._requested}: the address is taken or not this machine's"
            )
        if self._want_socket:
            self._socket_dir = make_socket_dir()
            path = self._socket_dir / SOCKET_NAME
            if not self.server.add_insecure_port(f"unix:{path}"):
                raise ConfigError(f"cannot listen on the unix socket {path}")
            self.unix_socket = path
        await self.server.start()
        if self.unix_socket is not None:
            # this user's only: a launched bot, whatever its uid, dials its own gate (._gate),
            # which forwards to this socket under the bot's own per-peer limits
            self.unix_socket.chmod(0o600)
        self.address = f"{host}:{port}"
        serving = health_pb2.HealthCheckResponse.SERVING
        await self.health.set("", serving)
        await self.health.set(pb.DESCRIPTOR.services_by_name["BotService"].full_name, serving)
        return self.address

    async def stop(self, grace: float = 1.0) -> None:
        """Stop serving; streams still open get ``grace`` seconds."""
        await self.health.enter_graceful_shutdown()
        await self.bots.close()
        await self.health.close()
        await self.server.stop(grace)
        if self._socket_dir is not None:
            shutil.rmtree(self._socket_dir, ignore_errors=True)
            self._socket_dir = None
