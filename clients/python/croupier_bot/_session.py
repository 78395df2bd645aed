"""The session loop: a process that stays up and plays every seat the arbiter hands it, multiplexed
on the session's one stream (protocol 3) or each on a Play stream of its own (protocol 2)."""

from __future__ import annotations

import asyncio
import contextlib
import copy
import os
import random
import socket
import sys
import time
import traceback
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import grpc
from google.protobuf.message import DecodeError

from croupier_bot._client import (
    _BUSY,
    _SESSION_BACKOFF_CAP_S,
    _SESSION_BACKOFF_FIRST_S,
    BUSY_RETRY_S,
    OLDEST_PROTOCOL_VERSION,
    Bot,
    BotError,
    Seat,
    Tls,
    _channel,
    _older_arbiter,
    _play_seat,
    _ready,
    _rpc_error,
)
from croupier_proto.v1 import PROTOCOL_VERSION, bot_pb2_grpc
from croupier_proto.v1 import bot_pb2 as pb

#: How long a session dials again after its Session stream breaks (seconds; 0: it does not).
#: A tournament that launches the bot sets it to 0: a launched bot does not outlive its arbiter.
ENV_SESSION_RECONNECT = "CROUPIER_SESSION_RECONNECT_S"
#: The default of a bot that connects by itself (a competition server's registered bot): long
#: enough for the server to be restarted or the network to come back.
DEFAULT_SESSION_RECONNECT_S = 300.0


@dataclass(frozen=True)
class SessionSummary:
    """What a session (a process that stayed up for many matches) played: ``matches`` and
    ``failed`` count every session it opened (``sessions``: more than 1 when its Session stream
    broke and it dialled in again); ``session_id`` is the last one's."""

    session_id: str
    matches: int
    failed: int
    sessions: int = 1


#: Refusals of a session dialled again after a drop that are worth another try: the server
#: still holds the old session (it has not noticed the drop yet: SESSION_TAKEN), limits this
#: address's attempts for a moment, or cannot be reached (no reason).
_SESSION_RETRY_REASONS = {"", "SESSION_TAKEN", "TOO_MANY_ATTEMPTS"}


class _SessionLost(Exception):
    """The Session stream broke (``welcomed``: after its SessionWelcome, so a new drop), or a
    session dialled again was refused for a reason a moment may cure."""

    def __init__(self, error: BotError, *, welcomed: bool) -> None:
        super().__init__(str(error))
        self.error = error
        self.welcomed = welcomed


def _session_reconnect_s(reconnect_s: float | None) -> float:
    if reconnect_s is not None:
        return max(0.0, reconnect_s)
    raw = os.environ.get(ENV_SESSION_RECONNECT, "")
    if not raw:
        return DEFAULT_SESSION_RECONNECT_S
    try:
        return max(0.0, float(raw))
    except ValueError:
        raise BotError(
            f"{ENV_SESSION_RECONNECT} must be a number of seconds, got {raw!r}"
        ) from None


async def _session_stream(
    channel: grpc.aio.Channel,
    hello: Any,
    *,
    again: bool,
    welcomed: Callable[[Any], None],
    seated: Callable[[Any], None],
) -> None:
    """One Session stream: send ``hello``, hand its SessionWelcome to ``welcomed`` and each
    SeatAssignment to ``seated``; return when the arbiter ends it with status OK.
    :class:`_SessionLost` if it breaks after the welcome (or, ``again``: dialled again after a
    drop, is refused for a reason a moment may cure); :class:`BotError` for a refusal."""
    call = bot_pb2_grpc.BotServiceStub(channel).Session()
    welcome = None
    hello_sent = False
    try:
        await call.write(pb.SessionRequest(hello=hello))
        hello_sent = True
        first = await call.read()
        if first is grpc.aio.EOF or first.WhichOneof("kind") != "welcome":
            raise BotError("the arbiter did not welcome the session")
        welcome = first.welcome
        welcomed(welcome)
        while (response := await call.read()) is not grpc.aio.EOF:
            if response.WhichOneof("kind") == "seat":
                seated(response.seat)
    except grpc.aio.AioRpcError as exc:
        welcomed_ = welcome is not None
        raise _session_error(exc, hello_sent=hello_sent, welcomed=welcomed_, again=again) from None
    finally:
        call.cancel()  # (a no-op once the stream has ended)


def _session_error(
    exc: grpc.aio.AioRpcError, *, hello_sent: bool, welcomed: bool, again: bool
) -> Exception:
    """What a Session stream that ended with ``exc`` raises: :class:`_SessionLost` when it
    broke after its welcome, was refused for room, or (``again``: dialled again after a drop)
    was refused for a reason a moment may cure; else the refusal itself (a :class:`BotError`)."""
    error = _rpc_error(exc, hello_sent=hello_sent)
    if welcomed or error.reason == _BUSY or (again and error.reason in _SESSION_RETRY_REASONS):
        return _SessionLost(error, welcomed=welcomed)
    return error


#: In a multiplexed session the replies to the decisions of one message go back in one message,
#: unless computing them takes longer than this (seconds): then those computed so far go at once,
#: so that a decision's reply waits at most about this long for the others' (its clock runs).
REPLY_BATCH_S = 0.002


def _answers(items: Any, seats: _Seats) -> Iterator[tuple[list[Any], bool]]:
    """The SeatReplies to one message's seat items, each seat's from its own bot, in batches:
    ``(replies, more to come)``. A batch goes once its first reply has waited
    :data:`REPLY_BATCH_S` for the others'; the last one, with whatever is left, only if
    non-empty."""
    clock = time.perf_counter
    out: list[Any] = []
    started = 0.0
    for item in items:
        action, leave = seats.handle(item)
        if leave:
            out.append(pb.SeatReply(seat_ref=item.seat_ref, leave=True))
            continue
        if action is None:
            continue
        reply = pb.SeatReply(seat_ref=item.seat_ref)
        reply.action.request_id = item.message.decision.request_id
        reply.action.action_id = action
        out.append(reply)
        if not started:
            started = clock()
        elif clock() - started > REPLY_BATCH_S:  # the first has waited long enough
            yield out, True
            out, started = [], 0.0
    if out:
        yield out, False


class _Replies:
    """The writer of a multiplexed stream's replies: a task of its own, so that reading and
    playing the next message never waits for a write in flight. Each write takes every reply
    queued by then (never waiting to batch); a write that fails (the stream ended) loses them,
    as the stream's end does."""

    def __init__(self, call: Any) -> None:
        self._call = call
        self._queued: list[Any] = []
        self._wake = asyncio.Event()
        self._task = asyncio.create_task(self._run())

    def put(self, replies: Any) -> None:
        if self._task.done():  # the writer failed unexpectedly: so does the stream
            self._task.result()
        self._queued.extend(replies)
        self._wake.set()

    async def _run(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            while self._queued:
                out = pb.SessionRequest()
                out.replies.extend(self._queued)
                self._queued.clear()
                # too late (a seat's match ended meanwhile)? what follows is still read
                with contextlib.suppress(grpc.aio.AioRpcError, asyncio.InvalidStateError):
                    await self._call.write(out)

    async def close(self) -> None:
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._task


class _Seats:
    """The seats a multiplexed session plays: each a :class:`Seat` with its own deep copy of the
    bot (taken before any match), known by its token (across the session's streams: a seat
    handed again after a drop is the same one) and by its ``seat_ref`` on the current stream."""

    def __init__(self, template: Bot, name: str) -> None:
        self.template, self.name = template, name
        self.by_token: dict[str, tuple[Seat, str]] = {}  # token -> (seat, match id)
        self.refs: dict[int, str] = {}  # seat_ref on the current stream -> token
        self.played = 0
        self.failed = 0

    def new_stream(self) -> None:
        self.refs = {}

    def _fail(self, token: str, exc: BaseException) -> None:
        self.by_token.pop(token, None)
        self.played += 1
        self.failed += 1
        print(f"{self.name}: a match failed:", file=sys.stderr)
        traceback.print_exception(exc, file=sys.stderr)

    def handle(self, item: Any) -> tuple[int | None, bool]:
        """One SeatMessage: ``(action id to send, or None; leave the seat)``."""
        ref = item.seat_ref
        if item.HasField("assignment"):
            token = item.assignment.token
            self.refs[ref] = token
            if token not in self.by_token:
                seat = Seat(copy.deepcopy(self.template), item.assignment.seed)
                self.by_token[token] = (seat, item.assignment.match_id)
        token = self.refs.get(ref, "")
        found = self.by_token.get(token)
        if found is None:  # a seat that failed here (or none this process was handed)
            return None, False
        seat = found[0]
        try:
            action = seat(item.message)
        except Exception as exc:  # the bot's own code failed: it leaves this seat only
            self._fail(token, exc)
            return None, True
        if seat.end is not None:
            del self.by_token[token]
            del self.refs[ref]
            self.played += 1
        return action, False

    def unfinished(self) -> int:
        """Seats still held when the session is over for good: counted as failed."""
        left = len(self.by_token)
        self.played += left
        self.failed += left
        self.by_token.clear()
        return left


async def _mux_stream(
    channel: grpc.aio.Channel,
    hello: Any,
    seats: _Seats,
    *,
    again: bool,
    welcomed: Callable[[Any], None],
) -> None:
    """One multiplexed Session stream (protocol 3): send ``hello``, hand its SessionWelcome to
    ``welcomed``, then play every seat on it (:class:`_Seats`), answering the decisions of each
    message in one message; return when the arbiter ends it with status OK. Raises as
    :func:`_session_stream` does."""
    call = bot_pb2_grpc.BotServiceStub(channel).Session()
    welcome = None
    seats.new_stream()
    replies: _Replies | None = None
    hello_sent = False
    try:
        await call.write(pb.SessionRequest(hello=hello))
        hello_sent = True
        first = await call.read()
        if first is grpc.aio.EOF or first.WhichOneof("kind") != "welcome":
            raise BotError("the arbiter did not welcome the session")
        welcome = first.welcome
        welcomed(welcome)
        replies = _Replies(call)
        while (response := await call.read()) is not grpc.aio.EOF:
            for out, more in _answers(response.seat_messages, seats):
                replies.put(out)
                if more:
                    await asyncio.sleep(0)  # (the writer's turn)
    except grpc.aio.AioRpcError as exc:
        welcomed_ = welcome is not None
        raise _session_error(exc, hello_sent=hello_sent, welcomed=welcomed_, again=again) from None
    finally:
        if replies is not None:
            await replies.close()
        call.cancel()  # (a no-op once the stream has ended)


#: The descriptor of a launched bot's session pipe: its Session stream without gRPC, as frames
#: (a 4-byte big-endian length, then the message) on an inherited unix socket (docs/protocol.md,
#: "The session pipe").
ENV_SESSION_FD = "CROUPIER_SESSION_FD"
_HEADER = 4
#: The largest frame taken from the arbiter (what the C++ kit and the stdio bridge accept on
#: gRPC; a decision message is a few KiB).
_MAX_FRAME = 64 << 20


def _frame(message: Any) -> bytes:
    data: bytes = message.SerializeToString()
    return len(data).to_bytes(_HEADER, "big") + data


def _pipe_socket(raw: str) -> socket.socket | None:
    """The session pipe ``CROUPIER_SESSION_FD`` names, or None (with a line on stderr) when it
    is not an open stream socket: the session is dialled on gRPC instead."""
    try:
        fd = int(raw)
        sock = socket.socket(fileno=fd)
    except (ValueError, OSError) as exc:
        print(f"{ENV_SESSION_FD}={raw!r} is not a usable socket ({exc}): using gRPC",
              file=sys.stderr)  # fmt: skip
        return None
    if sock.type != socket.SOCK_STREAM:
        sock.detach()
        print(f"{ENV_SESSION_FD}={raw!r} is not a stream socket: using gRPC", file=sys.stderr)
        return None
    sock.set_inheritable(False)  # this process's alone: not handed on to what it starts
    return sock


def _pipe_session(sock: socket.socket, hello: Any, seats: _Seats) -> str | None:
    """Play the session on its pipe (protocol 3, the frames of :data:`ENV_SESSION_FD`) until
    the arbiter ends it (the pipe's end); return the session id, or None if the arbiter closed
    the pipe without welcoming the session (it refused it: the caller dials gRPC, which says
    why)."""
    seats.new_stream()
    with sock, sock.makefile("rb") as pipe:

        def read() -> bytes | None:
            header = pipe.read(_HEADER)
            if len(header) < _HEADER:
                return None  # the end (or a frame cut short: the arbiter is gone)
            size = int.from_bytes(header, "big")
            if size > _MAX_FRAME:
                raise BotError(f"the arbiter sent a frame of {size} bytes: more than {_MAX_FRAME}")
            data: bytes = pipe.read(size)
            return data if len(data) == size else None

        def parse(data: bytes) -> Any:
            try:
                return pb.SessionResponse.FromString(data)
            except DecodeError:
                raise BotError("the arbiter sent a frame that is no SessionResponse") from None

        def send(out: Any) -> None:
            # too late (the arbiter ended the session meanwhile)? the next read says so
            with contextlib.suppress(OSError):
                sock.sendall(_frame(out))

        try:
            sock.sendall(_frame(pb.SessionRequest(hello=hello)))
            first = read()
        except OSError as exc:
            raise BotError(f"the session pipe failed: {exc}") from None
        if first is None:  # refused (a version, a token): gRPC hears why, and may fall back
            return None
        welcome = parse(first)
        if welcome.WhichOneof("kind") != "welcome":
            raise BotError("the arbiter did not welcome the session")
        try:
            while (data := read()) is not None:
                for out, _ in _answers(parse(data).seat_messages, seats):
                    send(pb.SessionRequest(replies=out))
        except OSError:
            pass  # the pipe broke: the arbiter is gone, and the session with it
    return str(welcome.welcome.session_id)


def serve(
    bot: Bot,
    *,
    address: str | None = None,
    token: str | None = None,
    capacity: int | None = None,
    connect_timeout_s: float = 30.0,
    tls: Tls | None = None,
    reconnect_s: float | None = None,
) -> SessionSummary:
    """Serve a bot session: play every seat the arbiter hands this process, each with its own
    deep copy of ``bot`` (taken before any match: per-match state starts afresh), up to
    ``capacity`` at a time, until the arbiter ends the session. The seats come multiplexed on
    the session's one stream (protocol 3), the decisions of each message answered in one
    message; an arbiter from before protocol 3 hands each out to be played on a Play stream of
    its own instead.

    ``address``, ``token`` and ``capacity`` default to ``CROUPIER_ADDRESS``,
    ``CROUPIER_SESSION_TOKEN`` and the smaller of ``bot.capacity`` and
    ``CROUPIER_SESSION_CAPACITY`` (1 if neither says). :class:`BotError` if the arbiter refuses.

    If the Session stream breaks (the network, or the server was killed and restarted), a new
    session is dialled with the same token, with backoff, for ``reconnect_s`` seconds (default
    ``CROUPIER_SESSION_RECONNECT_S``, else 300; 0: it is not, and the session ends); each drop
    has a window of its own. The seats held go on: handed again on the new stream while their
    reconnect window lasts (protocol 3), or on their own Play streams (2). A session the arbiter
    ends (status OK) or refuses is not dialled again.

    A bot the arbiter launched with a session pipe (``CROUPIER_SESSION_FD``, and no ``address``
    given here) plays its session there instead: the same messages without gRPC, far cheaper
    per message; the session ends with the pipe (a launched bot does not dial again).
    """
    # taken once: the descriptor is closed after the session, and its number may be reused
    raw = os.environ.pop(ENV_SESSION_FD, "") if address is None else ""
    sock = _pipe_socket(raw) if raw else None
    if sock is not None:
        template = copy.deepcopy(bot)
        hello = pb.SessionHello(
            token=token if token is not None else os.environ.get("CROUPIER_SESSION_TOKEN", ""),
            bot_name=bot.name,
            bot_version=bot.version,
            protocol_version=PROTOCOL_VERSION,
            capacity=_session_capacity(bot, capacity),
        )
        seats = _Seats(template, bot.name)
        session_id = _pipe_session(sock, hello, seats)
        if session_id is not None:
            if seats.unfinished():
                print(f"{bot.name}: the session ended with seats unfinished", file=sys.stderr)
            return SessionSummary(session_id, seats.played, seats.failed, 1)
        print(f"{bot.name}: the arbiter closed the session pipe unwelcomed: dialling gRPC",
              file=sys.stderr)  # fmt: skip
    return asyncio.run(
        serve_async(
            bot,
            address=address,
            token=token,
            capacity=capacity,
            connect_timeout_s=connect_timeout_s,
            tls=tls,
            reconnect_s=reconnect_s,
        )
    )


def _session_capacity(bot: Bot, capacity: int | None) -> int:
    if capacity is not None:
        return max(1, capacity)
    asked = os.environ.get("CROUPIER_SESSION_CAPACITY", "")
    wanted = [c for c in (bot.capacity, int(asked) if asked.isdigit() else None) if c]
    return max(1, min(wanted)) if wanted else 1


async def serve_async(
    bot: Bot,
    *,
    address: str | None = None,
    token: str | None = None,
    capacity: int | None = None,
    connect_timeout_s: float = 30.0,
    tls: Tls | None = None,
    reconnect_s: float | None = None,
) -> SessionSummary:
    """:func:`serve` for code that already runs an asyncio loop."""
    address = address or os.environ.get("CROUPIER_ADDRESS", "")
    token = token if token is not None else os.environ.get("CROUPIER_SESSION_TOKEN", "")
    if not address:
        raise BotError("no arbiter address: set CROUPIER_ADDRESS or pass address=")
    window = _session_reconnect_s(reconnect_s)
    template = copy.deepcopy(bot)  # the pristine bot: each match plays a copy of it
    hello = pb.SessionHello(
        token=token,
        bot_name=bot.name,
        bot_version=bot.version,
        protocol_version=PROTOCOL_VERSION,
        capacity=_session_capacity(bot, capacity),
    )
    played = failed = sessions = 0
    session_id = ""
    dropped_at: float | None = None  # when the session being dialled again broke
    # The Play streams of the seats handed out (protocol 2): a set, not a TaskGroup, since one
    # seat's failure must not end the others, nor a broken session the seats it handed out.
    seats: set[asyncio.Task[Any]] = set()

    def finished(task: asyncio.Task[Any]) -> None:
        nonlocal played, failed
        seats.discard(task)
        played += 1
        if not task.cancelled() and (exc := task.exception()) is not None:
            failed += 1
            print(f"{bot.name}: a match failed:", file=sys.stderr)
            traceback.print_exception(exc, file=sys.stderr)

    def welcomed(welcome: Any) -> None:
        nonlocal session_id, sessions, dropped_at
        session_id = welcome.session_id
        sessions += 1
        if dropped_at is not None:
            away = time.monotonic() - dropped_at
            print(f"{bot.name}: session back after {away:.1f}s ({session_id})", file=sys.stderr)
            dropped_at = None

    def seated(seat: Any) -> None:
        task = asyncio.create_task(
            _play_seat(channel, copy.deepcopy(template), seat.token, seat.seed)
        )
        seats.add(task)
        task.add_done_callback(finished)

    multiplexed = _Seats(template, bot.name)
    async with _channel(address, tls) as channel:
        await _ready(channel, address, connect_timeout_s)
        try:
            pause = _SESSION_BACKOFF_FIRST_S
            busy_until = time.monotonic() + BUSY_RETRY_S
            while True:
                again = dropped_at is not None
                try:
                    if hello.protocol_version > OLDEST_PROTOCOL_VERSION:
                        await _mux_stream(
                            channel, hello, multiplexed, again=again, welcomed=welcomed
                        )
                    else:
                        await _session_stream(
                            channel, hello, again=again, welcomed=welcomed, seated=seated
                        )
                    break  # the arbiter ended the session
                except BotError as exc:
                    if not (sessions == 0 and _older_arbiter(exc, hello)):
                        raise
                    hello.protocol_version = OLDEST_PROTOCOL_VERSION  # from before protocol 3
                except _SessionLost as lost:
                    now = time.monotonic()
                    if dropped_at is None and not lost.welcomed:  # the first dial: no room yet
                        if now >= busy_until:
                            raise lost.error from None
                        await asyncio.sleep(random.uniform(pause / 2, pause))
                        pause = min(pause * 2, _SESSION_BACKOFF_CAP_S)
                        continue
                    if lost.welcomed:  # a new drop: its own window
                        dropped_at, pause = now, _SESSION_BACKOFF_FIRST_S
                        if window > 0:
                            print(
                                f"{bot.name}: session dropped ({lost.error}); dialling again "
                                f"for up to {window:g}s",
                                file=sys.stderr,
                            )
                    assert dropped_at is not None  # (set by the drop that led here)
                    left = dropped_at + window - now
                    if left <= 0:
                        raise lost.error from None
                    await asyncio.sleep(min(left, random.uniform(pause / 2, pause)))
                    pause = min(pause * 2, _SESSION_BACKOFF_CAP_S)
        finally:
            # the session is over (or broke for good): the seats handed out are played to the
            # end (protocol 2); those a multiplexed session still held are lost
            if seats:
                await asyncio.gather(*seats, return_exceptions=True)
            if multiplexed.unfinished():
                print(f"{bot.name}: the session ended with seats unfinished", file=sys.stderr)
    played += multiplexed.played
    failed += multiplexed.failed
    return SessionSummary(session_id, played, failed, sessions)
