"""The gRPC arbiter server: the bot stream (``croupier.v1.BotService``), health checking and
reflection. One server hosts any number of matches; a seat token routes a stream to its seat."""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass
from typing import cast

import grpc
import structlog
from google.protobuf.message import DecodeError
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_health.v1._async import HealthServicer
from grpc_reflection.v1alpha import reflection

from croupier import PROTOCOL_VERSION
from croupier.arbiter import ClaimError, Inbound, Match, MatchOver, SeatLink, Unexpected
from croupier.errors import ConfigError
from croupier.games import get_spec
from croupier.games._codec_kit import GameCodec
from croupier.transport._codec import EVENT_TYPES, EventMessage, decode, encode
from croupier.transport._sessions import BotSession
from croupier.v1 import bot_pb2 as pb
from croupier.v1 import bot_pb2_grpc

#: Longest time a public event waits to be batched with later messages to the same bot.
EVENT_FLUSH_S = 0.05

#: A bot may have at most this many messages the match has not read yet (a well-behaved bot has
#: one: its reply); more is flooding, and the seat is closed.
MAX_UNREAD = 16
#: Time a new stream has to send its Hello.
HELLO_TIMEOUT_S = 10.0
#: A write that cannot complete for this long means the bot stopped reading: the seat is closed.
WRITE_TIMEOUT_S = 30.0
#: Largest message a bot may send (a reply is a few bytes; a Hello well under 1 KiB).
MAX_BOT_MESSAGE_BYTES = 64 * 1024

#: After MatchEnd, how long the arbiter waits for the bot to close its side of the stream.
CLOSE_GRACE_S = 5.0

#: Trailing-metadata key carrying the stable :class:`ErrorReason` name of a stream error.
REASON_KEY = "croupier-reason"

_CLAIM_ERRORS = {
    ClaimError.Kind.SEAT_TAKEN: (grpc.StatusCode.ALREADY_EXISTS, pb.ERROR_REASON_SEAT_TAKEN),
    ClaimError.Kind.SEAT_CLOSED: (grpc.StatusCode.FAILED_PRECONDITION, pb.ERROR_REASON_SEAT_CLOSED),
    ClaimError.Kind.MATCH_OVER: (grpc.StatusCode.FAILED_PRECONDITION, pb.ERROR_REASON_MATCH_OVER),
}


@dataclass(frozen=True, slots=True)
class _Entry:
    match: Match
    link: SeatLink
    codec: GameCodec


class BotServicer(bot_pb2_grpc.BotServiceServicer):
    """Serves ``Play``: handshake, then pumps the seat's outbox to the bot and its replies in;
    and ``Session``: hands a bot that stays up the seats its owner assigns it."""

    def __init__(self) -> None:
        self._seats: dict[str, _Entry] = {}
        self._sessions: dict[str, BotSession] = {}
        self._log = structlog.get_logger("croupier.transport")

    def open_session(self, token: str | None = None) -> BotSession:
        """Expect a bot session under ``token`` (a fresh one by default)."""
        session = BotSession(token)
        self._sessions[session.token] = session
        return session

    def close_session(self, session: BotSession) -> None:
        """End ``session`` (its stream closes with OK) and forget its token."""
        session.close()
        self._sessions.pop(session.token, None)

    def add_match(self, match: Match) -> None:
        codec = get_spec(match.game.info.name).codec
        for link in match.seats:
            self._seats[link.token] = _Entry(match, link, codec)

    def remove_match(self, match: Match) -> None:
        for link in match.seats:
            self._seats.pop(link.token, None)

    async def _abort(
        self, context: grpc.aio.ServicerContext, code: grpc.StatusCode, reason: int, message: str
    ) -> None:
        name = pb.ErrorReason.Name(reason).removeprefix("ERROR_REASON_")
        self._log.info("stream_ended_with_error", reason=name, code=code.name, detail=message)
        await context.abort(code, message, trailing_metadata=((REASON_KEY, name),))

    async def Play(self, request_iterator: object, context: grpc.aio.ServicerContext) -> None:
        try:
            async with asyncio.timeout(HELLO_TIMEOUT_S):
                first = await context.read()
        except DecodeError:  # bytes that are not a PlayRequest: no Hello either
            first = pb.PlayRequest()
        except TimeoutError:  # a connection that never speaks does not hold a stream open
            first = pb.PlayRequest()
        if first is grpc.aio.EOF or first.WhichOneof("kind") != "hello":
            await self._abort(
                context,
                grpc.StatusCode.INVALID_ARGUMENT,
                pb.ERROR_REASON_HELLO_EXPECTED,
                "the first message must be a Hello",
            )
            return
        hello = first.hello
        if hello.protocol_version != PROTOCOL_VERSION:
            await self._abort(
                context,
                grpc.StatusCode.FAILED_PRECONDITION,
                pb.ERROR_REASON_PROTOCOL_VERSION,
                f"protocol version {hello.protocol_version} is not supported; "
                f"this arbiter speaks {PROTOCOL_VERSION}",
            )
            return
        entry = self._seats.get(hello.token)
        if entry is None and (session := self._sessions.get(hello.token)) is not None:
            session.per_match.set()
            await self._abort(
                context,
                grpc.StatusCode.FAILED_PRECONDITION,
                pb.ERROR_REASON_SESSION_EXPECTED,
                "this is a session token: open BotService.Session with it",
            )
            return
        if entry is None:
            await self._abort(
                context,
                grpc.StatusCode.UNAUTHENTICATED,
                pb.ERROR_REASON_TOKEN_UNKNOWN,
                "the token admits no seat",
            )
            return
        try:
            entry.link.claim(hello.bot_name, hello.bot_version)
        except ClaimError as exc:
            code, reason = _CLAIM_ERRORS[exc.kind]
            await self._abort(context, code, reason, str(exc))
            return
        await self._pump(context, entry)

    async def Session(self, request_iterator: object, context: grpc.aio.ServicerContext) -> None:
        try:
            async with asyncio.timeout(HELLO_TIMEOUT_S):
                first = await context.read()
        except (DecodeError, TimeoutError):
            first = pb.SessionRequest()
        if first is grpc.aio.EOF or first.WhichOneof("kind") != "hello":
            await self._abort(
                context,
                grpc.StatusCode.INVALID_ARGUMENT,
                pb.ERROR_REASON_SESSION_HELLO_EXPECTED,
                "the first message must be a SessionHello",
            )
            return
        hello = first.hello
        if hello.protocol_version != PROTOCOL_VERSION:
            await self._abort(
                context,
                grpc.StatusCode.FAILED_PRECONDITION,
                pb.ERROR_REASON_PROTOCOL_VERSION,
                f"protocol version {hello.protocol_version} is not supported; "
                f"this arbiter speaks {PROTOCOL_VERSION}",
            )
            return
        session = self._sessions.get(hello.token)
        if session is None:
            await self._abort(
                context,
                grpc.StatusCode.UNAUTHENTICATED,
                pb.ERROR_REASON_TOKEN_UNKNOWN,
                "the token admits no session",
            )
            return
        if not session.attach(hello.bot_name, hello.bot_version, hello.capacity):
            await self._abort(
                context,
                grpc.StatusCode.ALREADY_EXISTS,
                pb.ERROR_REASON_SESSION_TAKEN,
                "the session token already has a connected session",
            )
            return
        try:
            await self._serve_session(context, session)
        finally:
            session.detach()

    async def _serve_session(self, context: grpc.aio.ServicerContext, session: BotSession) -> None:
        log = self._log.bind(session_id=session.session_id, bot=session.bot_name)
        log.info("session_opened", version=session.bot_version, capacity=session.capacity)
        welcome = pb.SessionWelcome(
            session_id=session.session_id,
            protocol_version=PROTOCOL_VERSION,
            capacity=session.capacity,
        )
        await context.write(pb.SessionResponse(welcome=welcome))

        async def read_until_closed() -> None:
            # the bot sends nothing after its hello; its end of the stream closing ends the session
            with contextlib.suppress(grpc.RpcError, asyncio.InvalidStateError, ConnectionError):
                while await context.read() is not grpc.aio.EOF:
                    pass

        reader = asyncio.create_task(read_until_closed())
        handed = 0
        try:
            while True:
                getter = asyncio.ensure_future(session.queue.get())
                await asyncio.wait({getter, reader}, return_when=asyncio.FIRST_COMPLETED)
                if not getter.done():
                    getter.cancel()
                    return  # the bot hung up
                assignment = getter.result()
                if assignment is None:
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

    async def _pump(self, context: grpc.aio.ServicerContext, entry: _Entry) -> None:
        link, codec = entry.link, entry.codec
        log = self._log.bind(match_id=entry.match.match_id, seat=link.seat, bot=link.bot_name)
        log.info("bot_joined", version=link.bot_version)
        await context.write(encode(entry.match.welcome(link.seat), codec))

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
                            link.leave("the bot closed its stream")
                            return
                        message = decode(request)
                    if link.over:
                        continue  # the match is over: what still comes is read and dropped
                    if link.inbox.qsize() >= MAX_UNREAD:
                        flooded.set()
                        link.leave(f"flooding: more than {MAX_UNREAD} messages not yet read")
                        return
                    link.inbox.put_nowait(message)
            except (grpc.RpcError, asyncio.InvalidStateError, ConnectionError) as exc:
                link.leave(f"the stream broke: {type(exc).__name__}")

        flooded = asyncio.Event()
        reader = asyncio.create_task(read_replies())
        finished = False

        async def write(response: pb.PlayResponse) -> bool:
            """Write, unless the bot has stopped reading for WRITE_TIMEOUT_S (then it is gone)."""
            try:
                async with asyncio.timeout(WRITE_TIMEOUT_S):
                    await context.write(response)
                return True
            except TimeoutError:
                link.leave("the bot stopped reading its stream")
                return False

        outbox = link.outbox
        try:
            while True:
                # the next message with the events before it; or, once the oldest has waited
                # EVENT_FLUSH_S with nothing else to go with, the events alone
                batch = await outbox.get_batch(EVENT_FLUSH_S)
                message = batch[-1]
                if message is None:
                    return
                if isinstance(message, EVENT_TYPES):
                    if not await write(encode(None, codec, cast("list[EventMessage]", batch))):
                        return
                    continue
                events = cast("list[EventMessage]", batch[:-1])
                if not await write(encode(message, codec, events)):
                    return
                if isinstance(message, MatchOver):
                    finished = True
                    return
        finally:
            if finished:  # let the bot close its side first, so a reply it was still sending
                # (after a timeout, say) does not meet a closed stream and hide its MatchEnd
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(CLOSE_GRACE_S):
                        await asyncio.shield(reader)
            reader.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await reader
            if not finished:
                link.leave("the connection was lost")
            log.info("bot_stream_closed", finished=finished)
            if flooded.is_set():
                await self._abort(
                    context,
                    grpc.StatusCode.RESOURCE_EXHAUSTED,
                    pb.ERROR_REASON_FLOODING,
                    f"more than {MAX_UNREAD} messages not yet read; the seat is closed",
                )


class ArbiterServer:
    """A running gRPC server on ``address`` (``host:port``; port 0 picks a free one)."""

    def __init__(self, address: str = "127.0.0.1:0") -> None:
        self._requested = address
        self.server = grpc.aio.server(
            options=[("grpc.max_receive_message_length", MAX_BOT_MESSAGE_BYTES)]
        )
        self.bots = BotServicer()
        self.health = HealthServicer()
        self.address = ""
        bot_pb2_grpc.add_BotServiceServicer_to_server(self.bots, self.server)
        health_pb2_grpc.add_HealthServicer_to_server(self.health, self.server)
        reflection.enable_server_reflection(
            (
                pb.DESCRIPTOR.services_by_name["BotService"].full_name,
                health_pb2.DESCRIPTOR.services_by_name["Health"].full_name,
                reflection.SERVICE_NAME,
            ),
            self.server,
        )

    async def start(self) -> str:
        """Bind and start; return the address bots should dial."""
        host = self._requested.rsplit(":", 1)[0]
        try:
            port = self.server.add_insecure_port(self._requested)
        except RuntimeError as exc:
            raise ConfigError(f"cannot listen on {self._requested}: {exc}") from exc
        await self.server.start()
        self.address = f"{host}:{port}"
        serving = health_pb2.HealthCheckResponse.SERVING
        await self.health.set("", serving)
        await self.health.set(pb.DESCRIPTOR.services_by_name["BotService"].full_name, serving)
        return self.address

    async def stop(self, grace: float = 1.0) -> None:
        """Stop serving; streams still open get ``grace`` seconds."""
        await self.health.enter_graceful_shutdown()
        await self.server.stop(grace)
