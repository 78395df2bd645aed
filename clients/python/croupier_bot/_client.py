"""The SDK's one loop on gRPC: dial, hello, answer decisions, return the match end (the session
loop around it, a process that stays up and plays every seat the arbiter hands it, is
:mod:`._session`'s; the bot and its seat, without a transport, are :mod:`._bot`'s)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import time
from typing import Any

import grpc

from croupier_bot._bot import Bot, BotError, Seat, Tls, _pem
from croupier_proto.v1 import PROTOCOL_VERSION, bot_pb2_grpc
from croupier_proto.v1 import bot_pb2 as pb

_REASON_KEY = "croupier-reason"  # croupier.transport.REASON_KEY (not imported: server-side)


def _channel(address: str, tls: Tls | None) -> grpc.aio.Channel:
    """A channel to ``address``: TLS with ``tls`` (default: :meth:`Tls.from_env`), except to a
    ``unix:`` address (the arbiter's local socket is plaintext; a launched bot dials it)."""
    tls = tls if tls is not None else Tls.from_env()
    if tls is None or address.startswith("unix:"):
        return grpc.aio.insecure_channel(address, options=_CHANNEL_OPTIONS)
    if (tls.cert is None) != (tls.key is None):
        raise BotError("mutual TLS needs both a certificate and its key (CROUPIER_TLS_CERT/KEY)")
    credentials = grpc.ssl_channel_credentials(
        root_certificates=_pem(tls.ca, "CA"),
        private_key=_pem(tls.key, "key"),
        certificate_chain=_pem(tls.cert, "certificate"),
    )
    options: list[tuple[str, str | int]] = list(_CHANNEL_OPTIONS)
    if tls.server_name:
        options.append(("grpc.ssl_target_name_override", tls.server_name))
    return grpc.aio.secure_channel(address, credentials, options=options)


def play(
    bot: Bot,
    *,
    address: str | None = None,
    token: str | None = None,
    connect_timeout_s: float = 30.0,
    tls: Tls | None = None,
) -> Any:
    """Play one match and return the ``MatchEnd`` message; :class:`BotError` on refusal/failure.

    ``address`` and ``token`` default to ``CROUPIER_ADDRESS`` and ``CROUPIER_TOKEN``, ``tls``
    to :meth:`Tls.from_env` (plaintext unless ``CROUPIER_TLS_CA`` or ``CROUPIER_TLS`` is set).
    Runs its own asyncio loop (grpc.aio streams are faster than the threaded sync API); the
    bot's hooks are plain functions called on that loop.
    """
    return asyncio.run(
        play_async(bot, address=address, token=token, connect_timeout_s=connect_timeout_s, tls=tls)
    )


async def play_async(
    bot: Bot,
    *,
    address: str | None = None,
    token: str | None = None,
    connect_timeout_s: float = 30.0,
    tls: Tls | None = None,
) -> Any:
    """:func:`play` for code that already runs an asyncio loop (several bots in one process)."""
    address = address or os.environ.get("CROUPIER_ADDRESS", "")
    token = token if token is not None else os.environ.get("CROUPIER_TOKEN", "")
    if not address:
        raise BotError("no arbiter address: set CROUPIER_ADDRESS or pass address=")
    seed = os.environ.get("CROUPIER_SEED", "")
    async with _channel(address, tls) as channel:
        await _ready(channel, address, connect_timeout_s)
        return await _play_seat(channel, bot, token, int(seed) if seed.isdigit() else None)


async def _ready(channel: grpc.aio.Channel, address: str, timeout_s: float) -> None:
    try:
        await asyncio.wait_for(channel.channel_ready(), timeout_s)
    except TimeoutError:
        raise BotError(f"cannot reach the arbiter at {address}") from None


def _rpc_error(exc: grpc.aio.AioRpcError, *, hello_sent: bool = True) -> BotError:
    """``exc`` as the SDK acts on it. A stream that failed while its Hello was being written
    with gRPC core's INTERNAL error was ended by the arbiter as the Hello went out: refused
    before its Hello was read, which only the per-peer limits do (TOO_MANY_ATTEMPTS; grpcio
    then reports INTERNAL, not the arbiter's status: seen in about one refusal in ten), so it
    counts as that refusal and is tried again."""
    code = exc.code().name
    if not hello_sent and exc.code() is grpc.StatusCode.INTERNAL:
        return BotError(f"{code}: the arbiter ended the stream as its Hello was sent", _BUSY, code)
    reason = dict(exc.trailing_metadata() or ()).get(_REASON_KEY, "")
    return BotError(f"{code}: {exc.details()}", str(reason), code)


#: The channel dials again quickly after a dropped connection (gRPC's default first backoff is
#: a second, a good part of a short reconnect window).
_CHANNEL_OPTIONS = [
    ("grpc.initial_reconnect_backoff_ms", 100),
    ("grpc.min_reconnect_backoff_ms", 100),
    ("grpc.max_reconnect_backoff_ms", 1000),
]
#: Refusals worth another try while the seat's reconnect window lasts: the arbiter has not yet
#: noticed that the old stream is gone (SEAT_TAKEN), or cannot be reached for a moment.
_RETRY_REASONS = {"SEAT_TAKEN", ""}
_RETRY_PAUSE_S = 0.1
#: The oldest protocol version the SDK speaks: 2, to an arbiter that refuses 3 (from before
#: multiplexed sessions: a Play stream is the same in both; a session then gets its seats as
#: assignments to play on Play streams of their own).
OLDEST_PROTOCOL_VERSION = 2


def _older_arbiter(error: BotError, hello: Any) -> bool:
    """Whether ``error`` refused ``hello`` for a protocol version an older arbiter does not
    speak yet (then the SDK says hello again in the oldest it speaks)."""
    return error.reason == "PROTOCOL_VERSION" and hello.protocol_version > OLDEST_PROTOCOL_VERSION


#: The arbiter's per-peer limits refused a stream before reading its Hello ("try again later":
#: the address is flooded, or many bots behind it dialled at once); a stream that says Hello with
#: a valid token gets in once there is room, so the SDK dials again, with backoff, for up to
#: :data:`BUSY_RETRY_S`.
_BUSY = "TOO_MANY_ATTEMPTS"
BUSY_RETRY_S = 30.0
#: The pause before dialling a broken session again: the first, doubled after each failed try
#: up to the cap, each drawn between half and all of it (jitter: the bots a restarted server
#: had do not all dial at the same instant).
_SESSION_BACKOFF_FIRST_S = 0.1
_SESSION_BACKOFF_CAP_S = 5.0


class _StreamLost(Exception):
    """The Play stream ended or broke before MatchEnd (``error``: what to raise if the seat
    cannot be played on; ``welcomed``: the stream had been admitted, so this is a new drop)."""

    def __init__(self, error: BotError, *, welcomed: bool) -> None:
        super().__init__(str(error))
        self.error = error
        self.welcomed = welcomed


async def _play_seat(channel: grpc.aio.Channel, bot: Bot, token: str, seed: int | None) -> Any:
    """Play the seat ``token`` admits on a Play stream of ``channel``; return the MatchEnd.

    If the stream drops after the Welcome and the seat has a reconnect window, dial in again
    with the same token until the window has passed: the arbiter sends the Welcome and the
    pending decision again. Each drop has a window of its own, as in the arbiter."""
    hello = pb.Hello(
        token=token, bot_name=bot.name, bot_version=bot.version, protocol_version=PROTOCOL_VERSION
    )
    seat = Seat(bot, seed)
    give_up = 0.0
    busy_until = time.monotonic() + BUSY_RETRY_S  # (before its first Welcome)
    pause = _RETRY_PAUSE_S
    while True:
        try:
            return await _play_stream(channel, seat, hello, retrying=give_up > 0)
        except BotError as exc:
            if not _older_arbiter(exc, hello):
                raise
            hello.protocol_version = OLDEST_PROTOCOL_VERSION  # an arbiter from before protocol 3
        except _StreamLost as lost:
            window = seat.match.reconnect_grace_ms / 1000 if seat.match is not None else 0.0
            now = time.monotonic()
            if lost.welcomed:  # a new drop (not a refused retry): its own window
                give_up = now + window
            elif seat.match is None and lost.error.reason == _BUSY and now < busy_until:
                await asyncio.sleep(random.uniform(pause / 2, pause))  # refused for room
                pause = min(pause * 2, _SESSION_BACKOFF_CAP_S)
                continue
            if window <= 0 or now >= give_up:
                raise lost.error from None
            await asyncio.sleep(_RETRY_PAUSE_S)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(channel.channel_ready(), max(0.01, give_up - now))


async def _play_stream(channel: grpc.aio.Channel, seat: Seat, hello: Any, *, retrying: bool) -> Any:
    """One Play stream of the seat; :class:`_StreamLost` if it ends before MatchEnd after a
    Welcome (or, ``retrying``, is refused for a reason a moment may cure)."""
    call = bot_pb2_grpc.BotServiceStub(channel).Play()
    welcomed = False
    hello_sent = False
    try:
        await call.write(pb.PlayRequest(hello=hello))
        hello_sent = True
        while (response := await call.read()) is not grpc.aio.EOF:
            welcomed = welcomed or response.WhichOneof("kind") == "welcome"
            action = seat(response)
            if action is not None:
                request = pb.PlayRequest()  # filled in place: no copy of a sub-message
                reply = request.action
                reply.request_id = response.decision.request_id
                reply.action_id = action
                # too late (the match ended meanwhile)? MatchEnd is still there to be read
                with contextlib.suppress(grpc.aio.AioRpcError, asyncio.InvalidStateError):
                    await call.write(request)
            elif seat.end is not None:
                await call.done_writing()
                return seat.end
    except grpc.aio.AioRpcError as exc:
        error = _rpc_error(exc, hello_sent=hello_sent)
        if welcomed or error.reason == _BUSY or (retrying and error.reason in _RETRY_REASONS):
            raise _StreamLost(error, welcomed=welcomed) from None
        raise error from None
    except BaseException:
        call.cancel()  # a hook failed: leave the seat (in a session the channel stays up)
        raise
    error = BotError("the arbiter closed the stream before the match ended")
    if welcomed:
        raise _StreamLost(error, welcomed=True)
    raise error
