"""A multiplexed session (protocol 3): every seat of one bot process on its one Session stream.

A bot that opens ``BotService.Session`` with ``protocol_version`` 3 is not sent
``SeatAssignment``s to play on Play streams of their own: the seats it is handed are joined for
it, and their messages travel on the Session stream itself, each a ``SeatMessage`` (the seat's
number on the stream, ``seat_ref``, and exactly the ``PlayResponse`` its Play stream would carry);
the bot answers in ``SessionRequest.replies``, any number at a time.

One writer per stream, and it never waits to batch: whenever something other than a public
event is queued for any of its seats (a decision, a rejection, a match end, a seat's welcome),
it writes one ``SessionResponse`` holding *everything* queued for the process at that moment,
every seat's events included. While a write is in flight more piles up, and the next write takes
it all: batches grow with the load and add no latency when the bot is idle. Public events alone
wake nothing; they go with the next write to the process, or on their own once the oldest has
waited its match's ``event_flush_ms`` with nothing else to go with, unless the match expects to
ask that seat soon (``SeatLink.expect_soon``): then they wait for its decision.

A decision's clock starts when the message carrying it has been written (``SeatLink.written``),
as on a Play stream: a decision queued while an earlier write was in flight is charged from its
own write. The stream carries at most one seat of a match (``BotPool`` never hands one process
two seats of a match), and a seat's items are built from that seat's own messages only.

A stream that ends or breaks ends every seat on it (``SeatLink.lost``): each rejoins within its
reconnect window, when it has one, on the session's next stream (the pool hands it again), or
faults as a disconnect.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import math
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, Protocol

import grpc
from google.protobuf.message import DecodeError

from croupier import PROTOCOL_VERSION
from croupier.arbiter import (
    ClaimError,
    DecisionRequest,
    Match,
    MatchOver,
    Reply,
    SeatLink,
    Unexpected,
)
from croupier.games import GameCodec, varint
from croupier.transport._codec import EVENT_TYPES, EventMessage, encode, encode_bytes
from croupier.transport._peers import shown_peer
from croupier.transport._sessions import Assignment, BotSession, Closing
from croupier.v1 import bot_pb2 as pb

#: A seat may have at most this many messages the match has not read yet (a well-behaved bot has
#: one: its reply), on a Play stream or here; more is flooding, and the seat is closed (here the
#: stream goes on for the others).
MAX_UNREAD = 16
#: A write that cannot complete for this long means the bot stopped reading: its seat (here: its
#: seats) leave.
WRITE_TIMEOUT_S = 30.0
#: At shutdown, how long writing what is still queued for a bot (match ends) may take.
SHUTDOWN_WRITE_S = 1.0


def _field(tag: bytes, payload: bytes) -> bytes:
    """A length-delimited field: its tag byte, the length, the bytes."""
    return tag + varint(len(payload)) + payload


# the wire tags (field number << 3 | 2, length-delimited; 0 for a varint) of what the writer
# puts together by hand: each seat's PlayResponse is serialized once, as on a Play stream, and
# wrapped without being parsed or copied again
_SEAT_MESSAGES = b"\x1a"  # SessionResponse.seat_messages = 3
_SEAT_REF = b"\x08"  # SeatMessage.seat_ref = 1 (varint)
_MESSAGE = b"\x12"  # SeatMessage.message = 2
_ASSIGNMENT = b"\x1a"  # SeatMessage.assignment = 3


def seat_message(ref: int, message: bytes, assignment: bytes = b"") -> bytes:
    """The ``SessionResponse.seat_messages`` entry of ``message`` (a serialized PlayResponse)
    for the seat ``ref`` (and its serialized ``SeatAssignment`` when it opens the seat)."""
    inner = _SEAT_REF + varint(ref) + _field(_MESSAGE, message)
    if assignment:
        inner += _field(_ASSIGNMENT, assignment)
    return _field(_SEAT_MESSAGES, inner)


def serialize(message: Any) -> bytes:
    """The response serializer of ``BotService``: a message, or bytes put together already."""
    if isinstance(message, bytes):
        return message
    data: bytes = message.SerializeToString()
    return data


@dataclass(frozen=True, slots=True)
class SeatEntry:
    """What a seat token admits to: the match, the seat's link and the game's wire codec."""

    match: Match
    link: SeatLink
    codec: GameCodec


class SeatHost(Protocol):
    """What a multiplexed stream uses of the servicer that runs it (``BotServicer``)."""

    #: Messages written to bots so far.
    writes: int

    @property
    def closing(self) -> bool:
        """Whether the server is shutting down."""
        ...

    def seat_entry(self, token: str) -> SeatEntry | None:
        """The seat ``token`` admits to (``None``: none now)."""
        ...

    async def unless_closing(self, awaitable: Any, timeout: float | None = None) -> Any:
        """Await ``awaitable`` (TimeoutError after ``timeout``), or raise :class:`Closing`."""
        ...

    async def until_woken(self, waker: asyncio.Future[None]) -> None:
        """Await ``waker``, resolved at once when the server starts closing; or raise
        :class:`Closing` if it is closing already."""
        ...


@dataclass(eq=False)
class _Seat:
    """One seat on the stream."""

    ref: int
    link: SeatLink
    match: Match
    codec: GameCodec
    connection: int
    #: Its match's ``event_flush_ms``, in seconds (``math.inf``: events never go alone).
    linger_s: float
    #: What opens the seat on this stream (its Welcome, the SeatAssignment; after a return,
    #: the pending decision again), written before anything from its outbox.
    opening: list[bytes] = field(default_factory=list)
    #: A decision resent on opening (its write is noted like any other).
    resent: int = 0


class SessionMux:
    """Serves one multiplexed Session stream (see the module docstring)."""

    def __init__(
        self,
        servicer: SeatHost,
        context: grpc.aio.ServicerContext,
        session: BotSession,
        log: Any,
    ) -> None:
        self._servicer = servicer
        self._context = context
        self._session = session
        self._log = log
        self._peer = context.peer() or ""
        self._loop = asyncio.get_running_loop()
        self._refs: dict[int, _Seat] = {}  # the live seats, by seat_ref
        self._next_ref = 1
        #: Seats with something queued, in the order they first had (a dict as ordered set).
        self._queued: dict[_Seat, None] = {}
        self._urgent = False  # something other than events is queued: write now
        self._linger_due = math.inf
        self._linger: asyncio.TimerHandle | None = None
        self._wake: asyncio.Future[None] | None = None
        self._ending = False  # the session was closed: no new seats; end once none is left
        self._reader: asyncio.Task[None] | None = None
        self._flooded = 0
        self.seats_handed = 0
        #: Decisions written on this stream not yet matched by a reply: a reply that comes for
        #: a seat already over (its match ended meanwhile) still answers one of them, and is
        #: not counted against a session pipe's flood cap.
        self._unanswered = 0
        self._flood = ""  # why the reader ended the stream, when it was a flood

    # -- what wakes the writer ----------------------------------------------------------------

    def _poke(self) -> None:
        wake = self._wake
        if wake is not None and not wake.done():
            wake.set_result(None)

    def _on_put(self, seat: _Seat, event: bool) -> None:
        """A message was queued for ``seat``: a public event waits (for the next write, or its
        linger time); anything else is written now."""
        self._queued[seat] = None
        if not event:
            if not self._urgent:
                self._urgent = True
                self._poke()
            return
        outbox = seat.link.outbox
        if seat.linger_s < math.inf and not outbox.holding:
            due = outbox.since + seat.linger_s
            if due < self._linger_due:
                self._linger_due = due
                if self._linger is not None:
                    self._linger.cancel()
                self._linger = self._loop.call_at(due, self._lingered)

    def _lingered(self) -> None:
        self._linger = None
        self._urgent = True
        self._poke()

    # -- seats --------------------------------------------------------------------------------

    def _take_assignments(self) -> None:
        queue = self._session.queue
        while not queue.empty():
            assignment = queue.get_nowait()
            if assignment is None:
                self._ending = True
                continue
            if not self._ending:
                self._open(assignment)

    def _open(self, assignment: Assignment) -> None:
        """Join the seat ``assignment`` names for the bot, and queue its opening."""
        entry = self._servicer.seat_entry(assignment.token)
        if entry is None:  # the match ended (or was dropped) before the seat was handed
            return
        link = entry.link
        session = self._session
        try:
            connection = link.claim(session.bot_name, session.bot_version, shown_peer(self._peer))
        except ClaimError as exc:
            self._log.info("seat_not_joined", match_id=entry.match.match_id, detail=str(exc))
            return
        if connection == 1:
            link.peer = shown_peer(self._peer)  # (the replay's header: where it first joined)
        config = entry.match.config
        linger_s = config.event_flush_ms / 1000 if config.event_flush_ms > 0 else math.inf
        seat = _Seat(self._next_ref, link, entry.match, entry.codec, connection, linger_s)
        self._next_ref += 1
        self._refs[seat.ref] = seat
        welcome = encode(entry.match.welcome(link.seat), entry.codec)
        welcome.welcome.protocol_version = PROTOCOL_VERSION
        opening = pb.SeatAssignment(
            match_id=entry.match.match_id,
            game=entry.match.game.info.name,
            seat=link.seat,
            token=assignment.token,
            seed=assignment.seed,
        )
        seat.opening.append(
            seat_message(seat.ref, welcome.SerializeToString(), opening.SerializeToString())
        )
        resent = link.resync() if connection > 1 else None
        if resent is not None:
            seat.opening.append(seat_message(seat.ref, encode_bytes(resent, seat.codec)))
            seat.resent = resent.request_id
        link.outbox.listener = functools.partial(self._on_put, seat)
        self._queued[seat] = None
        self._urgent = True
        self.seats_handed += 1
        self._log.info(
            "bot_joined",
            match_id=entry.match.match_id,
            seat=link.seat,
            seat_ref=seat.ref,
            connection=connection,
        )

    def _close_seat(self, seat: _Seat) -> None:
        """The seat is done on this stream (its match ended for it, or its bot left)."""
        self._refs.pop(seat.ref, None)
        self._queued.pop(seat, None)
        if seat.link.outbox.listener is not None:
            seat.link.outbox.listener = None

    # -- the writer ---------------------------------------------------------------------------

    def _batch(self) -> tuple[bytes, list[tuple[_Seat, int]], list[_Seat]]:
        """Everything queued for the process, as one SessionResponse; with the decisions it
        carries (whose writes are to be noted) and the seats it ends."""
        parts: list[bytes] = []
        decisions: list[tuple[_Seat, int]] = []
        ended: list[_Seat] = []
        queued, self._queued = self._queued, {}
        self._urgent = False
        self._linger_due = math.inf
        if self._linger is not None:
            self._linger.cancel()
            self._linger = None
        for seat in queued:
            if seat.opening:
                parts += seat.opening
                seat.opening = []
                if seat.resent:
                    decisions.append((seat, seat.resent))
                    seat.resent = 0
            for message, events in _messages(seat.link.outbox.take_all()):
                if message is None and not events:  # the connection is gone: the seat ends
                    ended.append(seat)
                    break
                parts.append(seat_message(seat.ref, encode_bytes(message, seat.codec, events)))
                if isinstance(message, DecisionRequest):
                    decisions.append((seat, message.request_id))
                elif isinstance(message, MatchOver):
                    ended.append(seat)
        return b"".join(parts), decisions, ended

    async def _write(self, data: bytes) -> None:
        servicer = self._servicer
        servicer.writes += 1
        if servicer.closing:  # shutting down: what is queued, briefly
            async with asyncio.timeout(SHUTDOWN_WRITE_S):
                await self._context.write(data)
        else:
            write_now = getattr(self._context, "write_now", None)  # (a session pipe's)
            if write_now is not None and write_now(data):
                return  # taken whole by the pipe's buffer: nothing to wait for
            await servicer.unless_closing(self._context.write(data), WRITE_TIMEOUT_S)

    async def _flush(self) -> None:
        data, decisions, ended = self._batch()
        if data:
            await self._write(data)
            self._unanswered += len(decisions)
            at = self._loop.time()
            for seat, request_id in decisions:
                if not seat.link.over and seat.link.connection == seat.connection:
                    seat.link.written(request_id, at)
        for seat in ended:
            self._close_seat(seat)

    async def serve(self) -> None:
        """Write the seats' messages until the session ends (its owner closed it and no seat is
        left), the bot hangs up, the stream breaks or the server shuts down."""
        session, servicer = self._session, self._servicer
        session.listener = self._poke
        self._reader = asyncio.create_task(self._read())
        self._reader.add_done_callback(lambda _: self._poke())
        reason = "the session's stream ended"
        try:
            while True:
                self._take_assignments()
                if servicer.closing:
                    if self._queued:
                        await self._flush()
                    return
                if self._urgent:
                    await self._flush()
                    continue
                if self._reader.done():
                    reason = self._flood or "the bot closed the session's stream"
                    return
                if self._ending and all(s.link.done.is_set() for s in self._refs.values()):
                    return
                if session.refusal is not None:
                    return
                self._wake = self._loop.create_future()
                try:
                    await servicer.until_woken(self._wake)
                except Closing:  # the loop's next turn writes what is queued, and ends
                    pass
                finally:
                    self._wake = None
        except Closing:
            pass  # the server is shutting down
        except TimeoutError:
            reason = "the bot stopped reading its stream"
            self._log.warning("session_stopped_reading")
            for seat in list(self._refs.values()):
                seat.link.leave(reason)
        except (grpc.RpcError, asyncio.InvalidStateError, ConnectionError) as exc:
            reason = f"the session's stream broke: {type(exc).__name__}"
        finally:
            session.listener = None
            if self._linger is not None:
                self._linger.cancel()
            reader = self._reader
            reader.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await reader
            for seat in list(self._refs.values()):
                self._close_seat(seat)
                if not seat.link.over:
                    seat.link.lost(reason, seat.connection)

    # -- the reader ---------------------------------------------------------------------------

    async def _read(self) -> None:
        """The bot's replies, each to its seat's inbox (read off the connection now: the clock
        stops); until the bot closes its side or the stream breaks."""
        context, loop, refs = self._context, self._loop, self._refs
        # (a session pipe's: messages in a row that answer nothing end it, see ._pipe)
        idle_cap: int | None = getattr(context, "idle_cap", None)
        idle = 0
        try:
            while True:
                if idle_cap is not None and idle > idle_cap:
                    self._log.warning("session_pipe_flooded", messages=idle)
                    self._flood = f"flooding: {idle} messages in a row that answer no decision"
                    return
                idle += 1
                try:
                    request = await context.read()
                except DecodeError:  # not a SessionRequest: it answers no seat
                    continue
                if request is grpc.aio.EOF:
                    return
                received_at = loop.time()
                if request.replies and self._unanswered > 0:  # (answers, if late ones)
                    self._unanswered = max(0, self._unanswered - len(request.replies))
                    idle = 0
                for reply in request.replies:
                    seat = refs.get(reply.seat_ref)
                    if seat is None:  # a seat already over on this stream, or none of its own
                        continue
                    link = seat.link
                    if link.over or link.connection != seat.connection:
                        continue
                    idle = 0
                    if link.inbox.qsize() >= MAX_UNREAD:
                        self._flooded += 1
                        link.leave(f"flooding: more than {MAX_UNREAD} messages not yet read")
                        continue
                    if reply.leave:  # the bot gives the seat up (its own code failed, say)
                        link.leave("the bot left its seat")
                        continue
                    if reply.HasField("action"):
                        action = reply.action
                        link.inbox.put_nowait(
                            Reply(action.request_id, action.action_id, received_at)
                        )
                    else:
                        link.inbox.put_nowait(Unexpected("a reply without an action"))
        except (grpc.RpcError, asyncio.InvalidStateError, ConnectionError):
            return


def _messages(
    items: list[Any],
) -> Iterator[tuple[Any, list[EventMessage]]]:
    """A seat's queued items as PlayResponses: ``(message, events before it)``; trailing events
    as ``(None, events)``; the connection's end (``None`` queued) as ``(None, [])`` last."""
    events: list[EventMessage] = []
    for item in items:
        if isinstance(item, EVENT_TYPES):
            events.append(item)
            continue
        if item is None:
            if events:
                yield None, events
            yield None, []
            return
        yield item, events
        events = []
    if events:
        yield None, events


__all__ = ["SeatEntry", "SeatHost", "SessionMux", "seat_message", "serialize"]
