"""The session loop on gRPC: a process that stays up and plays every seat the arbiter hands it,
multiplexed on the session's one stream (protocol 3) or each on a Play stream of its own
(protocol 2). The seats themselves are :mod:`._seats`'s, the session pipe
:mod:`._pipe`'s."""

from __future__ import annotations

import asyncio
import contextlib
import copy
import os
import random
import sys
import time
import traceback
from collections.abc import Callable
from typing import Any

import grpc

from croupier_bot._bot import Bot, BotError, Tls
from croupier_bot._client import (
    _BUSY,
    _SESSION_BACKOFF_CAP_S,
    _SESSION_BACKOFF_FIRST_S,
    BUSY_RETRY_S,
    OLDEST_PROTOCOL_VERSION,
    _channel,
    _older_arbiter,
    _play_seat,
    _ready,
    _rpc_error,
)
from croupier_bot._seats import SessionSummary, _answers, _Seats, _session_capacity
from croupier_proto.v1 import PROTOCOL_VERSION, bot_pb2_grpc
from croupier_proto.v1 import bot_pb2 as pb

#: How long a session dials again after its Session stream breaks (seconds; 0: it does not).
#: A tournament that launches the bot sets it to 0: a launched bot does not outlive its arbiter.
ENV_SESSION_RECONNECT = "CROUPIER_SESSION_RECONNECT_S"
#: The default of a bot that connects by itself (a competition server's registered bot): long
#: enough for the server to be restarted or the network to come back.
DEFAULT_SESSION_RECONNECT_S = 300.0


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
