"""A session's entry point, :func:`serve`, and its session pipe: a bot the arbiter launched with
a socket of its own (``CROUPIER_SESSION_FD``) plays every seat it is handed there, in frames,
with no gRPC and no asyncio loop, so it imports neither (their import was a fifth of a Python
bot's start-up CPU). Any other session is dialled on gRPC by :mod:`._session`, imported only
then."""

from __future__ import annotations

import contextlib
import copy
import os
import socket
import sys
from typing import Any

from google.protobuf.message import DecodeError

from croupier_bot._bot import Bot, BotError, Tls
from croupier_bot._seats import SessionSummary, _answers, _Seats, _session_capacity
from croupier_proto.v1 import PROTOCOL_VERSION
from croupier_proto.v1 import bot_pb2 as pb

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
    import asyncio  # (only here: a pipe session runs no loop)

    from croupier_bot._session import serve_async

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
