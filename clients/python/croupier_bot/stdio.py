"""The client-side stdio bridge: a program that speaks only the stdio protocol (one JSON object
per line on stdin, one action per line on stdout: ``docs/protocol.md``, "Bots without gRPC")
plays as a bot that connects by itself, e.g. a registered bot of a competition server::

    python -m croupier_bot.stdio --connect HOST:PORT --key KEY [--tls-ca CA.pem] -- CMD ARGS...

With ``--key`` (or ``CROUPIER_SESSION_TOKEN``) the bridge opens a bot session with that key and
stays up: for every seat the server hands it, it starts CMD afresh and plays that one match
between CMD's pipes and the seat's messages, all seats on the session's one stream (protocol 3;
an arbiter from before it hands each seat out to be played on a ``Play`` stream of its own), up
to ``--capacity`` matches at a time (each its own CMD process), until the server ends the
session. If the session's stream breaks (the network, or the server was killed and restarted)
it dials a new one with the same key, with backoff, for ``--reconnect`` seconds (default
``CROUPIER_SESSION_RECONNECT_S``, else 300; 0: it does not); the programs already running go on
meanwhile, and their seats are handed to the new session within their reconnect window. With
``--token`` (or ``CROUPIER_TOKEN``) it plays the one seat that token admits and exits.

The stdio protocol is the one ``croupier match --bot stdio:CMD`` runs (the server's bridge,
``croupier.transport._stdio``): each ``PlayResponse`` reaches CMD as one line of protobuf's
canonical JSON with every field written; each line CMD writes is an action id answering its
oldest unanswered decision, or ``{"request_id": "7", "action_id": 4}`` naming the request;
blank lines are ignored and any other line goes to the arbiter as a message that is not an
action (rejected; the default action is played). CMD's stderr is the bridge's. CMD gets the
bridge's environment without the address, tokens and key, plus ``CROUPIER_SEED`` (the seat's
seed). The lines are mapped to and from the messages by ``croupier_proto.v1.stdio``, the code
the server's bridge runs too. This module imports only the stubs package ``croupier_proto`` and
grpc, never the server.

Exit status: 0 when the session (or the match) ended normally, 1 when the connection broke
(in a session: and did not come back within ``--reconnect``), 2 for a usage error or a
refusal (one ``croupier_bot.stdio: error: ...`` line on stderr).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import sys
import time
from collections import deque
from collections.abc import Callable, Sequence
from pathlib import Path

import grpc

from croupier_proto.v1 import PROTOCOL_VERSION, bot_pb2_grpc
from croupier_proto.v1 import bot_pb2 as pb
from croupier_proto.v1.stdio import (
    HELLO_WAIT_S,
    MAX_LINE_BYTES,
    bot_name,
    parse_hello,
    parse_reply,
    read_line,
    to_line,
)

__all__ = [
    "HIDDEN_ENV",
    "MAX_LINE_BYTES",
    "MAX_RECEIVE_BYTES",
    "BridgeError",
    "main",
    "parse_reply",
    "play_seat",
    "play_stdio",
    "program_name",
    "serve_stdio",
    "to_line",
]

#: Largest message accepted from the arbiter (decision messages grow with the match).
MAX_RECEIVE_BYTES = 64 << 20
#: The bridge's own variables, which the program does not get (it speaks stdio only).
HIDDEN_ENV = (
    "CROUPIER_ADDRESS",
    "CROUPIER_SESSION_RECONNECT_S",
    "CROUPIER_TOKEN",
    "CROUPIER_SESSION_TOKEN",
    "CROUPIER_SESSION_CAPACITY",
    "CROUPIER_SESSION_FD",
    "CROUPIER_KEY",
)
_REASON_KEY = "croupier-reason"
_PROG = "croupier_bot.stdio"
#: How long a session dials again after its stream breaks (seconds), unless ``--reconnect``
#: says: a tournament that launches the bridge sets it to 0 (croupier_bot's ENV_SESSION_RECONNECT).
ENV_SESSION_RECONNECT = "CROUPIER_SESSION_RECONNECT_S"
DEFAULT_SESSION_RECONNECT_S = 300.0
#: The pause before dialling a broken session again, doubled after each failed try up to the
#: cap, each drawn between half and all of it; and the refusals of a session dialled again that
#: are worth another try (the server still holds the old one, or limits attempts for a moment).
_BACKOFF_FIRST_S = 0.1
_BACKOFF_CAP_S = 5.0
_RETRY_REASONS = {"", "SESSION_TAKEN", "TOO_MANY_ATTEMPTS"}
#: A seat's Play stream dialled again after a drop: refusals worth another try while its window
#: lasts (the arbiter has not yet noticed that the old stream is gone, or cannot be reached),
#: and the pause between tries (as the SDKs).
_SEAT_RETRY_REASONS = {"SEAT_TAKEN", ""}
_SEAT_RETRY_PAUSE_S = 0.1
#: The oldest protocol version the bridge speaks: 2, to an arbiter that refuses 3.
OLDEST_PROTOCOL_VERSION = 2


class BridgeError(Exception):
    """A refusal or a broken connection; ``status`` is the exit status it means."""

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.status = status


#: The name a program plays under in Hello: the last argument naming a file, else its own name
#: (:func:`croupier_proto.v1.stdio.bot_name`).
program_name = bot_name


def _rpc_error(exc: grpc.aio.AioRpcError) -> BridgeError:
    reason = dict(exc.trailing_metadata() or ()).get(_REASON_KEY, "")
    tail = f" [{reason}]" if reason else ""
    refused = exc.code() in (
        grpc.StatusCode.UNAUTHENTICATED,
        grpc.StatusCode.PERMISSION_DENIED,
        grpc.StatusCode.FAILED_PRECONDITION,
        grpc.StatusCode.INVALID_ARGUMENT,
        grpc.StatusCode.ALREADY_EXISTS,
    )
    return BridgeError(f"{exc.code().name}: {exc.details()}{tail}", 2 if refused else 1)


async def play_seat(
    channel: grpc.aio.Channel,
    program: Sequence[str],
    token: str,
    *,
    seed: int | None = None,
    name: str = "",
) -> int:
    """Start ``program`` and play the seat ``token`` admits between its pipes and a Play stream
    of ``channel``; return the program's exit status (1 if it left before the match ended).
    :class:`BridgeError` when the arbiter refuses the seat.

    If the stream drops after the Welcome and the seat has a reconnect window
    (``Welcome.reconnect_grace_ms``), the bridge dials in again with the same token until the
    window has passed (each drop its own window), as the SDKs do; the program goes on. What the
    arbiter sends again is not repeated to it: the second Welcome, and a decision it already
    has; a decision it has answered is answered again with the same reply."""
    env = {k: v for k, v in os.environ.items() if k not in HIDDEN_ENV}
    if seed is not None:
        env["CROUPIER_SEED"] = str(seed)
    try:
        proc = await asyncio.create_subprocess_exec(
            *program,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            env=env,
            limit=MAX_LINE_BYTES,
        )
    except OSError as exc:
        raise BridgeError(f"cannot start {program[0]}: {exc.strerror or exc}", 2) from None
    assert proc.stdin is not None  # both piped above
    assert proc.stdout is not None
    stdin, stdout = proc.stdin, proc.stdout
    # the program's first line may be a hello naming it (waited for HELLO_WAIT_S; --name wins)
    first = asyncio.create_task(read_line(stdout))
    await asyncio.wait({first}, timeout=HELLO_WAIT_S)
    said = parse_hello(first.result()) if first.done() else None
    hello = pb.Hello(
        token=token,
        bot_name=name or (said and said[0]) or bot_name(program),
        bot_version=(said and said[1]) or "stdio",
        protocol_version=PROTOCOL_VERSION,
    )
    pending: deque[int] = deque()
    last = 0
    stub = bot_pb2_grpc.BotServiceStub(channel)
    call = stub.Play()
    ended = False
    grace_s = 0.0  # the seat's reconnect window, from its Welcome
    welcomed = rejoined = False  # the seat was admitted; the current stream was
    replied: pb.PlayRequest | None = None  # the last reply sent (again, if asked again)

    async def forward(response: pb.PlayResponse) -> None:
        with contextlib.suppress(ConnectionError):  # it stopped reading: its clock runs
            stdin.write(to_line(response))
            await stdin.drain()

    async def stream() -> None:
        """One Play stream, arbiter -> program, until MatchEnd (or the arbiter ends it
        before); :class:`grpc.aio.AioRpcError` if it broke or was refused."""
        nonlocal last, ended, grace_s, welcomed, rejoined
        await call.write(pb.PlayRequest(hello=hello))
        while (response := await call.read()) is not grpc.aio.EOF:
            kind = response.WhichOneof("kind")
            if kind == "welcome":
                rejoined = True
                if welcomed:  # back after a drop: the program has had its Welcome
                    if response.events:
                        await forward(pb.PlayResponse(events=response.events))
                    continue
                welcomed = True
                grace_s = response.welcome.reconnect_grace_ms / 1000
            elif kind == "decision":
                request_id = response.decision.request_id
                again = replied is not None and replied.action.request_id == request_id
                if request_id in pending or again:  # asked again after a drop
                    if response.events:
                        await forward(pb.PlayResponse(events=response.events))
                    if again and replied is not None:  # answered, and the answer was lost
                        with contextlib.suppress(grpc.aio.AioRpcError, asyncio.InvalidStateError):
                            await call.write(replied)
                    continue
                last = request_id
                pending.append(last)
            await forward(response)
            if kind == "match_end":
                ended = True
                return

    async def downstream() -> None:
        """Arbiter -> program, until MatchEnd; the stream dialled again after a drop while the
        seat's window lasts."""
        nonlocal call, rejoined
        give_up = 0.0
        while True:
            rejoined = False  # (set when this stream is welcomed)
            try:
                await stream()
                return
            except grpc.aio.AioRpcError as exc:
                reason = str(dict(exc.trailing_metadata() or ()).get(_REASON_KEY, ""))
                now = time.monotonic()
                if rejoined:
                    give_up = now + grace_s  # a new drop: its own window
                elif not (welcomed and reason in _SEAT_RETRY_REASONS):
                    raise  # a refusal
                if grace_s <= 0 or now >= give_up:
                    raise
            await asyncio.sleep(_SEAT_RETRY_PAUSE_S)
            call = stub.Play()

    async def upstream() -> None:
        """Program -> arbiter, until the program closes its stdout."""
        nonlocal replied
        line = await first
        if parse_hello(line) is not None:  # (used above, or too late to use: never a reply)
            line = await read_line(stdout)
        while line:
            reply = parse_reply(line, pending, last)
            if reply is not None:
                if reply.WhichOneof("kind") == "action":
                    replied = reply
                with contextlib.suppress(grpc.aio.AioRpcError, asyncio.InvalidStateError):
                    await call.write(reply)  # (the stream of the moment: a new one after a drop)
            line = await read_line(stdout)

    # A race, not a TaskGroup: which of the two ends first (the program's stdout, or the
    # arbiter's stream) decides how the seat ends; neither's end is a failure of the other.
    reader = asyncio.create_task(upstream())
    writer = asyncio.create_task(downstream())
    try:
        done, _ = await asyncio.wait({reader, writer}, return_when=asyncio.FIRST_COMPLETED)
        if writer not in done:  # the program closed its stdout mid-match: it left
            writer.cancel()
            call.cancel()
            print(f"{_PROG}: the program closed its stdout before the match ended", file=sys.stderr)
            return 1
        try:
            writer.result()
        except grpc.aio.AioRpcError as exc:
            raise _rpc_error(exc) from None
        if not ended:
            print(f"{_PROG}: the arbiter ended the stream before the match ended", file=sys.stderr)
            return 1
        with contextlib.suppress(grpc.aio.AioRpcError, asyncio.InvalidStateError):
            await call.done_writing()
        stdin.close()
        await reader  # what the program still writes is read and dropped
        return await proc.wait()
    finally:
        for task in (first, reader, writer):
            task.cancel()
        if proc.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                proc.kill()
            await proc.wait()


def _channel(address: str, tls_ca: Path | None) -> grpc.aio.Channel:
    options = [("grpc.max_receive_message_length", MAX_RECEIVE_BYTES)]
    if tls_ca is None:
        return grpc.aio.insecure_channel(address, options=options)
    credentials = grpc.ssl_channel_credentials(root_certificates=tls_ca.read_bytes())
    return grpc.aio.secure_channel(address, credentials, options=options)


async def _ready(channel: grpc.aio.Channel, address: str, timeout_s: float) -> None:
    try:
        await asyncio.wait_for(channel.channel_ready(), timeout_s)
    except TimeoutError:
        raise BridgeError(f"cannot reach the server at {address}", 1) from None


class _SessionLost(Exception):
    """The Session stream broke (``welcomed``: after its welcome, a new drop), or a session
    dialled again was refused for a reason a moment may cure."""

    def __init__(self, error: BridgeError, *, welcomed: bool) -> None:
        super().__init__(str(error))
        self.error = error
        self.welcomed = welcomed


async def _session_stream(
    channel: grpc.aio.Channel, hello: pb.SessionHello, *, again: bool, seated: _Seated
) -> None:
    """One Session stream: hand each SeatAssignment to ``seated``; return when the server ends
    it with status OK; :class:`_SessionLost` if it breaks after the welcome (or, ``again``, is
    refused for a reason a moment may cure); :class:`BridgeError` for a refusal."""
    call = bot_pb2_grpc.BotServiceStub(channel).Session()
    welcomed = False
    try:
        await call.write(pb.SessionRequest(hello=hello))
        welcome = await call.read()
        if welcome is grpc.aio.EOF or welcome.WhichOneof("kind") != "welcome":
            raise BridgeError("the server did not welcome the session", 1)
        welcomed = True
        seated.welcomed(welcome.welcome.session_id)
        while (response := await call.read()) is not grpc.aio.EOF:
            if response.WhichOneof("kind") == "seat":
                seated(response.seat)
    except grpc.aio.AioRpcError as exc:
        reason = str(dict(exc.trailing_metadata() or ()).get(_REASON_KEY, ""))
        if welcomed or (again and reason in _RETRY_REASONS):
            raise _SessionLost(_rpc_error(exc), welcomed=welcomed) from None
        raise _rpc_error(exc) from None
    finally:
        call.cancel()  # (a no-op once the stream has ended)


class _Seated:
    """What a session does with the seats it is handed (each played by a fresh program, in a
    task of its own that outlives a broken session) and with a welcome after a drop."""

    def __init__(self, channel: grpc.aio.Channel, program: Sequence[str], name: str) -> None:
        self.channel, self.program, self.name = channel, program, name
        # (a set, not a TaskGroup: one seat's failure must not end the others' matches)
        self.tasks: set[asyncio.Task[int]] = set()
        self.dropped_at: float | None = None
        self.sessions = 0  # streams welcomed so far

    def __call__(self, seat: pb.SeatAssignment) -> None:
        task = asyncio.create_task(
            play_seat(self.channel, self.program, seat.token, seed=seat.seed, name=self.name)
        )
        self.tasks.add(task)
        task.add_done_callback(self._finished)

    def _finished(self, task: asyncio.Task[int]) -> None:
        self.tasks.discard(task)
        if not task.cancelled() and (exc := task.exception()) is not None:
            print(f"{_PROG}: a match failed: {exc}", file=sys.stderr)

    def welcomed(self, session_id: str) -> None:
        self.sessions += 1
        if self.dropped_at is not None:
            away = time.monotonic() - self.dropped_at
            print(f"{_PROG}: session back after {away:.1f}s ({session_id})", file=sys.stderr)
            self.dropped_at = None


class _Program:
    """One seat's program in a multiplexed session (protocol 3): the seat's messages go to its
    stdin as lines, each line it writes goes back (``send``) as the seat's reply under its
    ``seat_ref`` on the current stream. What the arbiter sends again after the session broke is
    not repeated to it (the second Welcome, a decision it already has); a decision it has
    answered is answered again with the same reply."""

    def __init__(
        self, program: Sequence[str], seed: int, send: Callable[[pb.SeatReply], None]
    ) -> None:
        self.program, self.seed, self.send = program, seed, send
        self.ref = 0  # its seat_ref on the current stream
        self.pending: deque[int] = deque()
        self.last = 0
        self.replied: pb.SeatReply | None = None
        self.welcomed = self.ended = False
        self.proc: asyncio.subprocess.Process | None = None
        self.reader: asyncio.Task[None] | None = None

    async def start(self) -> None:
        env = {k: v for k, v in os.environ.items() if k not in HIDDEN_ENV}
        env["CROUPIER_SEED"] = str(self.seed)
        try:
            self.proc = await asyncio.create_subprocess_exec(
                *self.program,
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                env=env,
                limit=MAX_LINE_BYTES,
            )
        except OSError as exc:
            why = exc.strerror or exc
            print(f"{_PROG}: cannot start {self.program[0]}: {why}", file=sys.stderr)
            self.send(pb.SeatReply(seat_ref=self.ref, leave=True))
            self.ended = True
            return
        self.reader = asyncio.create_task(self._upstream())

    def _forward(self, response: pb.PlayResponse) -> None:
        if self.proc is None or self.proc.stdin is None or self.proc.stdin.is_closing():
            return
        self.proc.stdin.write(to_line(response))  # (no wait: one program never holds up another)

    def deliver(self, response: pb.PlayResponse) -> None:
        """One of the seat's messages, to the program."""
        kind = response.WhichOneof("kind")
        if kind == "welcome":
            if self.welcomed:  # handed again after the session broke: it has had its Welcome
                if response.events:
                    self._forward(pb.PlayResponse(events=response.events))
                return
            self.welcomed = True
        elif kind == "decision":
            request_id = response.decision.request_id
            replied = self.replied
            again = replied is not None and replied.action.request_id == request_id
            if request_id in self.pending or again:  # asked again after the session broke
                if response.events:
                    self._forward(pb.PlayResponse(events=response.events))
                if again and replied is not None:  # answered, and the answer was lost
                    self.send(pb.SeatReply(seat_ref=self.ref, action=replied.action))
                return
            self.last = request_id
            self.pending.append(request_id)
        self._forward(response)
        if kind == "match_end":
            self.ended = True
            if self.proc is not None and self.proc.stdin is not None:
                self.proc.stdin.close()

    async def _upstream(self) -> None:
        """Program -> arbiter, until the program closes its stdout."""
        assert self.proc is not None
        assert self.proc.stdout is not None
        stdout = self.proc.stdout
        lines = 0
        while True:
            line = await read_line(stdout)
            if not line:
                break
            lines += 1
            if lines == 1 and parse_hello(line) is not None:
                continue  # its hello: the session said its own name (SessionHello) already
            if self.ended:
                continue  # what it still writes after the match is read and dropped
            reply = parse_reply(line, self.pending, self.last)
            if reply is None:
                continue
            out = pb.SeatReply(seat_ref=self.ref)
            if reply.WhichOneof("kind") == "action":
                out.action.CopyFrom(reply.action)
                self.replied = out
            self.send(out)  # (no action: a message that is not one, rejected)
        if not self.ended:
            print(f"{_PROG}: the program closed its stdout before the match ended", file=sys.stderr)
            self.ended = True
            self.send(pb.SeatReply(seat_ref=self.ref, leave=True))

    async def finish(self) -> int:
        """Wait for the program to end (it is killed if it has not within a second of the
        match's end); its exit status."""
        if self.proc is None:
            return 1
        try:
            async with asyncio.timeout(1.0):
                if self.reader is not None:
                    await self.reader
                return await self.proc.wait()
        except TimeoutError:
            with contextlib.suppress(ProcessLookupError):
                self.proc.kill()
            return await self.proc.wait()


class _Multiplexed:
    """The seats of a multiplexed session, by token (the same seat on every stream of the
    session), each played by its own program."""

    def __init__(self, program: Sequence[str]) -> None:
        self.program = program
        self.by_token: dict[str, _Program] = {}
        self.refs: dict[int, _Program] = {}
        self.outgoing: asyncio.Queue[pb.SeatReply] = asyncio.Queue()
        self.ending: set[asyncio.Task[int]] = set()

    def new_stream(self) -> None:
        self.refs = {}
        self.outgoing = asyncio.Queue()  # what was to go on a broken stream is dropped

    def _send(self, reply: pb.SeatReply) -> None:
        self.outgoing.put_nowait(reply)

    async def handle(self, item: pb.SeatMessage) -> None:
        if item.HasField("assignment"):
            token = item.assignment.token
            seat = self.by_token.get(token)
            if seat is None:
                seat = _Program(self.program, item.assignment.seed, lambda r: self._send(r))
                self.by_token[token] = seat
                seat.ref = item.seat_ref
                await seat.start()
            seat.ref = item.seat_ref
            self.refs[item.seat_ref] = seat
        seat = self.refs.get(item.seat_ref)
        if seat is None:
            return
        seat.deliver(item.message)
        if seat.ended:
            self.refs.pop(item.seat_ref, None)
            for token, held in list(self.by_token.items()):
                if held is seat:
                    del self.by_token[token]
            task = asyncio.create_task(seat.finish())
            self.ending.add(task)
            task.add_done_callback(self.ending.discard)

    async def close(self) -> None:
        for seat in self.by_token.values():  # seats never finished: their programs go
            if seat.proc is not None and seat.proc.returncode is None:
                with contextlib.suppress(ProcessLookupError):
                    seat.proc.kill()
            task = asyncio.create_task(seat.finish())
            self.ending.add(task)
        if self.ending:  # (gather: every program is waited for, whichever finish fails)
            await asyncio.gather(*self.ending, return_exceptions=True)


async def _mux_stream(
    channel: grpc.aio.Channel,
    hello: pb.SessionHello,
    seats: _Multiplexed,
    *,
    again: bool,
    welcomed: Callable[[str], None],
) -> None:
    """One multiplexed Session stream (protocol 3): every seat's messages to its program, the
    programs' replies back, those ready at once in one message; raises as
    :func:`_session_stream` does."""
    call = bot_pb2_grpc.BotServiceStub(channel).Session()
    seats.new_stream()
    queue = seats.outgoing
    was_welcomed = False

    async def writer() -> None:
        while True:
            out = pb.SessionRequest()
            out.replies.append(await queue.get())
            while not queue.empty():
                out.replies.append(queue.get_nowait())
            await call.write(out)

    sending: asyncio.Task[None] | None = None
    try:
        await call.write(pb.SessionRequest(hello=hello))
        welcome = await call.read()
        if welcome is grpc.aio.EOF or welcome.WhichOneof("kind") != "welcome":
            raise BridgeError("the server did not welcome the session", 1)
        was_welcomed = True
        welcomed(welcome.welcome.session_id)
        sending = asyncio.create_task(writer())
        while (response := await call.read()) is not grpc.aio.EOF:
            for item in response.seat_messages:
                await seats.handle(item)
    except grpc.aio.AioRpcError as exc:
        reason = str(dict(exc.trailing_metadata() or ()).get(_REASON_KEY, ""))
        if was_welcomed or (again and reason in _RETRY_REASONS):
            raise _SessionLost(_rpc_error(exc), welcomed=was_welcomed) from None
        raise _rpc_error(exc) from None
    finally:
        if sending is not None:
            sending.cancel()
            with contextlib.suppress(asyncio.CancelledError, grpc.aio.AioRpcError):
                await sending
        call.cancel()  # (a no-op once the stream has ended)


async def serve_stdio(
    program: Sequence[str],
    address: str,
    key: str,
    *,
    capacity: int = 1,
    tls_ca: Path | None = None,
    name: str = "",
    connect_timeout_s: float = 30.0,
    reconnect_s: float = DEFAULT_SESSION_RECONNECT_S,
) -> int:
    """Open a bot session with ``key`` and play every seat handed to it with a fresh
    ``program``, up to ``capacity`` at a time, until the server ends the session (0). If the
    session's stream breaks, dial a new one with the same key for ``reconnect_s`` seconds
    (each drop its own window); :class:`BridgeError` (status 1) if it does not come back."""
    hello = pb.SessionHello(
        token=key,
        bot_name=name or bot_name(program),
        bot_version="stdio",
        protocol_version=PROTOCOL_VERSION,
        capacity=max(1, capacity),
    )
    async with _channel(address, tls_ca) as channel:
        await _ready(channel, address, connect_timeout_s)
        seated = _Seated(channel, program, name)
        multiplexed = _Multiplexed(program)
        try:
            pause = _BACKOFF_FIRST_S
            while True:
                again = seated.dropped_at is not None
                try:
                    if hello.protocol_version > OLDEST_PROTOCOL_VERSION:
                        await _mux_stream(
                            channel, hello, multiplexed, again=again, welcomed=seated.welcomed
                        )
                    else:
                        await _session_stream(channel, hello, again=again, seated=seated)
                    return 0  # the server ended the session
                except BridgeError as exc:
                    older = "[PROTOCOL_VERSION]" in str(exc) and seated.sessions == 0
                    if not (older and hello.protocol_version > OLDEST_PROTOCOL_VERSION):
                        raise
                    hello.protocol_version = OLDEST_PROTOCOL_VERSION  # from before protocol 3
                except _SessionLost as lost:
                    now = time.monotonic()
                    if lost.welcomed:  # a new drop: its own window
                        seated.dropped_at, pause = now, _BACKOFF_FIRST_S
                        if reconnect_s > 0:
                            print(
                                f"{_PROG}: session dropped ({lost.error}); dialling again "
                                f"for up to {reconnect_s:g}s",
                                file=sys.stderr,
                            )
                    dropped_at = seated.dropped_at
                    if dropped_at is None or now >= dropped_at + reconnect_s:
                        raise lost.error from None
                    await asyncio.sleep(
                        min(dropped_at + reconnect_s - now, random.uniform(pause / 2, pause))
                    )
                    pause = min(pause * 2, _BACKOFF_CAP_S)
        finally:
            if seated.tasks:  # the seats already handed out are played to the end
                await asyncio.gather(*seated.tasks, return_exceptions=True)
            await multiplexed.close()


async def play_stdio(
    program: Sequence[str],
    address: str,
    token: str,
    *,
    tls_ca: Path | None = None,
    name: str = "",
    connect_timeout_s: float = 30.0,
) -> int:
    """Play the one seat ``token`` admits with ``program``; return its exit status."""
    seed = os.environ.get("CROUPIER_SEED", "")
    async with _channel(address, tls_ca) as channel:
        await _ready(channel, address, connect_timeout_s)
        return await play_seat(
            channel, program, token, seed=int(seed) if seed.isdigit() else None, name=name
        )


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=f"python -m {_PROG}",
        description="Run a stdio-protocol program as a bot that connects to a Croupier server.",
    )
    parser.add_argument("--connect", metavar="ADDR", help="server address (CROUPIER_ADDRESS)")
    parser.add_argument("--key", help="a registered bot's key: serve a session (stays up)")
    parser.add_argument("--token", help="a seat token: play that one match")
    parser.add_argument("--tls-ca", type=Path, metavar="FILE", help="CA certificate (PEM): TLS")
    parser.add_argument(
        "--capacity", type=int, default=1, help="matches at a time in a session (default 1)"
    )
    parser.add_argument("--name", default="", help="bot name in Hello (default: the program's)")
    parser.add_argument(
        "--reconnect",
        type=float,
        metavar="S",
        help="in a session: dial again for S seconds after its stream breaks "
        f"({ENV_SESSION_RECONNECT}, else {DEFAULT_SESSION_RECONNECT_S:g}; 0: do not)",
    )
    parser.add_argument("program", nargs=argparse.REMAINDER, help="-- CMD ARGS...")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    program = list(args.program)
    if program[:1] == ["--"]:
        program = program[1:]

    def fail(message: str) -> int:
        print(f"{_PROG}: error: {message}", file=sys.stderr)
        return 2

    address = args.connect or os.environ.get("CROUPIER_ADDRESS", "")
    key = args.key or os.environ.get("CROUPIER_SESSION_TOKEN", "")
    token = args.token or os.environ.get("CROUPIER_TOKEN", "")
    if not program:
        return fail("no program: give it after --")
    if not address:
        return fail("no server address: pass --connect ADDR (or set CROUPIER_ADDRESS)")
    if not key and not token:
        return fail("no credentials: pass --key KEY (a session) or --token TOKEN (one match)")
    if args.capacity < 1:
        return fail(f"--capacity must be at least 1, got {args.capacity}")
    if args.tls_ca is not None and not args.tls_ca.is_file():
        return fail(f"--tls-ca {args.tls_ca}: no such file")
    reconnect_s = args.reconnect
    if reconnect_s is None:
        raw = os.environ.get(ENV_SESSION_RECONNECT, "")
        try:
            reconnect_s = float(raw) if raw else DEFAULT_SESSION_RECONNECT_S
        except ValueError:
            return fail(f"{ENV_SESSION_RECONNECT} must be a number of seconds, got {raw!r}")
    if not reconnect_s >= 0:  # (NaN too)
        return fail(f"--reconnect must be 0 or more seconds, got {reconnect_s:g}")
    try:
        if key:
            return asyncio.run(
                serve_stdio(
                    program,
                    address,
                    key,
                    capacity=args.capacity,
                    tls_ca=args.tls_ca,
                    name=args.name,
                    reconnect_s=reconnect_s,
                )
            )
        return asyncio.run(play_stdio(program, address, token, tls_ca=args.tls_ca, name=args.name))
    except BridgeError as exc:
        print(f"{_PROG}: error: {exc}", file=sys.stderr)
        return exc.status
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
