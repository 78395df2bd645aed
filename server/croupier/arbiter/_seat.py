"""One seat's link between the arbiter and whatever carries its messages (the gRPC transport)."""

from __future__ import annotations

import asyncio
import collections
import dataclasses
import math
import unicodedata
from collections.abc import Callable

from croupier.arbiter._types import (
    ActionEvent,
    Clocks,
    DecisionRequest,
    Dropped,
    Gone,
    Inbound,
    Outbound,
    Rejoined,
    RoundEnded,
    RoundStarted,
)
from croupier.errors import ClaimError

#: Public events: they may wait to travel with the next message to the same bot.
EVENTS = (ActionEvent, RoundStarted, RoundEnded)

#: Longest bot name and version kept from a Hello, in characters (the rest is cut).
NAME_MAX = 64


def clean_name(text: str, limit: int = NAME_MAX) -> str:
    """A bot-supplied name made safe to print: control and format characters (ESC, CR, LF,
    bidirectional overrides...) removed, surrounding blanks stripped, at most ``limit`` chars."""
    kept = "".join(c for c in text if unicodedata.category(c) not in ("Cc", "Cf", "Cs", "Co"))
    return kept.strip()[:limit]


class Outbox:
    """The messages for one seat's bot, first in first out, with one reader at a time.

    :meth:`get` hands them over one by one (as an ``asyncio.Queue`` would); :meth:`get_batch`
    waits for the next message that is not a public event and returns it with the events queued
    before it, so the transport writes them in one go and is not woken for every event the table
    sees (with four seats, three of every four events are for seats with nothing to do).

    A transport that carries many seats on one stream sets :attr:`listener` instead of waiting:
    it is called with each message queued (``True`` for a public event) and takes what it wants
    with :meth:`take_all`; no task waits on the outbox then.

    While :attr:`holding` (the match expects to ask the seat soon: :meth:`hold`), public events
    wait for the seat's next message however long that takes: no events-only message is sent to
    a seat about to get a decision anyway.
    """

    def __init__(self) -> None:
        self._items: collections.deque[Outbound | None] = collections.deque()
        #: Told of every message queued (``listener(is_event)``), while set; and told
        #: ``listener(True)`` again when :attr:`holding` ends with events queued.
        self.listener: Callable[[bool], None] | None = None
        #: Public events wait for the next message, whatever their linger time (see :meth:`hold`).
        self.holding = False
        self._waiter: asyncio.Future[None] | None = None
        self._wake_on_events = True  # what the waiter waits for: anything, or a non-event
        self._linger_s = 0.0  # ... or for the oldest event to have waited this long
        self._timer: asyncio.TimerHandle | None = None
        self._since = 0.0  # when the oldest event still queued was queued

    def put_nowait(self, item: Outbound | None) -> None:
        event = isinstance(item, EVENTS)
        first = not self._items
        self._items.append(item)
        if event and first:
            loop = asyncio.get_running_loop()
            self._since = loop.time()
        if self.listener is not None:
            self.listener(event)
            return
        waiter = self._waiter
        if waiter is None or waiter.done():
            return
        if self._wake_on_events or not event:
            waiter.set_result(None)
        elif first and self._timer is None and self._linger_s < math.inf and not self.holding:
            # the events go alone if nothing follows in time
            self._timer = loop.call_at(self._since + self._linger_s, _wake, waiter)

    @property
    def since(self) -> float:
        """When the oldest public event still queued was queued (event-loop time)."""
        return self._since

    def hold(self, holding: bool) -> None:
        """Make public events wait for the seat's next message (``True``: the match will ask the
        seat soon), or go on their own again once they have lingered (``False``: events
        already overdue go now)."""
        if holding == self.holding:
            return
        self.holding = holding
        if holding or not self._items:
            return
        if self.listener is not None:
            self.listener(True)
            return
        waiter = self._waiter
        if waiter is None or waiter.done() or self._wake_on_events or self._timer is not None:
            return
        if self._linger_s < math.inf:
            loop = asyncio.get_running_loop()
            self._timer = loop.call_at(self._since + self._linger_s, _wake, waiter)

    def empty(self) -> bool:
        return not self._items

    def holds(self, item: Outbound) -> bool:
        """Whether ``item`` (that very message) is still queued."""
        return any(queued is item for queued in self._items)

    def qsize(self) -> int:
        return len(self._items)

    def take_all(self) -> list[Outbound | None]:
        """Everything queued, in order (the outbox is then empty)."""
        items = list(self._items)
        self._items.clear()
        return items

    def get_nowait(self) -> Outbound | None:
        if not self._items:
            raise asyncio.QueueEmpty
        return self._items.popleft()

    async def get(self) -> Outbound | None:
        """The next message (``None``: the connection is gone)."""
        while not self._items:
            await self._wait(wake_on_events=True, linger_s=0.0)
        return self._items.popleft()

    async def get_batch(self, linger_s: float) -> list[Outbound | None]:
        """The queued public events up to and including the next other message (or ``None``);
        or only events, once the oldest of them has waited ``linger_s`` (``math.inf``: never)."""
        loop = asyncio.get_running_loop()
        items = self._items
        while True:
            for i, item in enumerate(items):
                if not isinstance(item, EVENTS):
                    batch = [items.popleft() for _ in range(i + 1)]
                    if items:
                        self._since = loop.time()
                    return batch
            if items and not self.holding and loop.time() >= self._since + linger_s:
                batch = list(items)
                items.clear()
                return batch
            await self._wait(wake_on_events=False, linger_s=linger_s)

    async def _wait(self, *, wake_on_events: bool, linger_s: float) -> None:
        loop = asyncio.get_running_loop()
        waiter: asyncio.Future[None] = loop.create_future()
        self._waiter, self._wake_on_events, self._linger_s = waiter, wake_on_events, linger_s
        if not wake_on_events and self._items and linger_s < math.inf and not self.holding:
            self._timer = loop.call_at(self._since + linger_s, _wake, waiter)
        try:
            await waiter
        finally:
            self._waiter = None
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None


def _wake(waiter: asyncio.Future[None]) -> None:
    if not waiter.done():
        waiter.set_result(None)


class Inbox:
    """A seat's messages from its bot, first in first out, read by one task (the match): what
    an ``asyncio.Queue`` does, plus :meth:`get_until`, a wait with a deadline that costs one
    timer instead of an ``asyncio.timeout`` scope (the match waits so once per decision)."""

    def __init__(self) -> None:
        self._items: collections.deque[Inbound] = collections.deque()
        self._waiter: asyncio.Future[None] | None = None

    def put_nowait(self, item: Inbound) -> None:
        self._items.append(item)
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    def get_nowait(self) -> Inbound:
        if not self._items:
            raise asyncio.QueueEmpty
        return self._items.popleft()

    def empty(self) -> bool:
        return not self._items

    def qsize(self) -> int:
        return len(self._items)

    async def get(self) -> Inbound:
        """The next message, waiting as long as it takes."""
        return await self.get_until(math.inf)

    async def get_until(self, deadline: float) -> Inbound:
        """The next message; ``TimeoutError`` if none has come when the event loop's clock
        reaches ``deadline`` (a message already queued is returned whatever the time)."""
        items = self._items
        while not items:
            loop = asyncio.get_running_loop()
            waiter: asyncio.Future[None] = loop.create_future()
            self._waiter = waiter
            timer = loop.call_at(deadline, _wake, waiter) if deadline < math.inf else None
            try:
                await waiter
            finally:
                self._waiter = None
                if timer is not None:
                    timer.cancel()
            if not items:  # the timer woke it
                raise TimeoutError
        return items.popleft()


class SeatLink:
    """The arbiter's end of one seat: an outbox the transport drains, an inbox it fills.

    A token admits exactly one connection at a time: while it is connected, further claims fail
    (no seat theft). Once its connection ends the seat is closed for the rest of the match,
    unless the match gives it a grace window (:attr:`grace_s`, never for a launched bot): then
    the same token may claim it again within the window (reconnect with resync), and only when
    the window passes has the bot left.
    """

    def __init__(self, seat: int, token: str) -> None:
        self.seat = seat
        self.token = token
        #: Messages for the bot; ``None`` tells the transport the connection is gone.
        self.outbox = Outbox()
        self.inbox = Inbox()
        self.bot_name = ""
        self.bot_version = ""
        #: The seed for the bot's own randomness in this seat (``CROUPIER_SEED``,
        #: ``SeatAssignment.seed``): set by the match from its seed (see ``_seeds.bot_seed``).
        self.bot_seed = 0
        self.joined = asyncio.Event()
        self.abandoned = asyncio.Event()  # the bot left (or its process died) before/while playing
        self.left_reason = ""
        self.closed = False  # set by the arbiter: no more messages will be sent
        self.over = False  # set by the arbiter when the match is over
        #: Set once the match no longer needs this seat's bot (it is over, or the runner gave up on
        #: it): a bot serving many matches may then be handed another seat in its place.
        self.done = asyncio.Event()
        #: Set by the launcher: the CPU seconds the seat's bot process tree has used so far
        #: (the CPU clock charges its difference); ``None`` for a bot that dialed in.
        self.cpu_meter: Callable[[], float] | None = None
        #: Set by the transport: where the bot connected from (``ipv4:127.0.0.1:5500``).
        self.peer = ""
        #: Set by the launcher: the seat's bot is a process the arbiter started, and (once it
        #: has ended) its exit status; ``crashed`` is set when that status is not 0: a launched
        #: bot that dies mid-match (rather than exiting cleanly, too early) has crashed.
        self.launched = False
        self.crashed = asyncio.Event()
        self.exit_code: int | None = None
        #: The decision request last written to the connection (:meth:`written`): its id, the
        #: event-loop time, and the bot's CPU seconds then (read only while ``cpu_at_write``).
        self.written_id = 0
        self.written_at = 0.0
        self.written_cpu = 0.0
        #: Set by the match while a decision is charged CPU time.
        self.cpu_at_write = False
        self._claimed = False
        #: Set by the match: how long a bot whose connection ends may take to come back (0:
        #: not at all). A launched bot never gets one: its connection ending means it is gone.
        self.grace_s = 0.0
        #: The current connection's number (1 for the first claim, +1 for each return).
        self.connection = 0
        #: While the bot is away inside its grace window: the event-loop time it left.
        self.away_since: float | None = None
        self._expiry: asyncio.TimerHandle | None = None
        #: Set by the match while a decision is pending (and when its clock started): resent
        #: to a bot that comes back (:meth:`resync`).
        self.pending: DecisionRequest | None = None
        self.pending_since = 0.0

    def claim(self, bot_name: str, bot_version: str, peer: str = "") -> int:
        """Admit one connection and return its number; raise :class:`ClaimError` if the seat
        cannot take it. The name and version are kept as :func:`clean_name` makes them. A
        bot that comes back within its grace window keeps the name it joined with."""
        if self.over:
            raise ClaimError(ClaimError.Kind.MATCH_OVER, "the match is over")
        if self.closed or self.abandoned.is_set():
            raise ClaimError(ClaimError.Kind.SEAT_CLOSED, f"seat {self.seat} is closed")
        if self._claimed:
            if self.away_since is None:  # its connection is up: nobody else may take it
                raise ClaimError(ClaimError.Kind.SEAT_TAKEN, f"seat {self.seat} is already taken")
            return self._rejoin(peer)
        self._claimed = True
        self.connection = 1
        self.bot_name, self.bot_version = clean_name(bot_name), clean_name(bot_version)
        self.joined.set()
        return self.connection

    def _rejoin(self, peer: str) -> int:
        if self._expiry is not None:
            self._expiry.cancel()
            self._expiry = None
        self.away_since = None
        self.connection += 1
        self.inbox.put_nowait(Rejoined(asyncio.get_running_loop().time(), peer))
        return self.connection

    def lost(self, reason: str, connection: int) -> None:
        """Connection number ``connection`` ended: with a grace window the bot may come back
        (the match is told it dropped), else it has left (:meth:`leave`). A connection that was
        already replaced, or a seat already away or gone, changes nothing."""
        if connection != self.connection or self.away_since is not None:
            return
        if self.abandoned.is_set():
            return
        if self.grace_s <= 0 or self.launched or self.over:
            self.leave(reason)
            return
        loop = asyncio.get_running_loop()
        self.away_since = loop.time()
        self.inbox.put_nowait(Dropped(reason, self.away_since))
        self._expiry = loop.call_later(self.grace_s, self._expire, reason)

    def _expire(self, reason: str) -> None:
        self._expiry = None
        if self.away_since is not None and not self.over:
            self.leave(f"{reason}, and it did not come back within {self.grace_s:g} s")

    def resync(self) -> DecisionRequest | None:
        """What a connection that came back must be sent first: the pending decision (same
        request id and observation, the clocks showing what is left of them), unless it is
        still queued in the outbox and goes out anyway."""
        request = self.pending
        if request is None or self.outbox.holds(request):
            return None
        if self.written_id != request.request_id:
            # the lost connection took it off the outbox but its write was never noted (it
            # broke as the bytes left): the clock runs from when it was sent, not from the resend
            self.written_id, self.written_at = request.request_id, self.pending_since
        elapsed_ms = int((asyncio.get_running_loop().time() - self.pending_since) * 1000)
        clocks = request.clocks
        move_ms = max(0, clocks.move_time_ms - elapsed_ms)
        bank_ms = max(0, clocks.time_bank_ms - max(0, elapsed_ms - clocks.move_time_ms))
        return dataclasses.replace(request, clocks=Clocks(move_ms, bank_ms, clocks.last_latency_us))

    def expect_soon(self, soon: bool) -> None:
        """The match will ask this seat soon (its public events wait for that decision: no
        events-only message), or no longer expects to (they go after the linger time)."""
        self.outbox.hold(soon)

    def send(self, message: Outbound) -> None:
        """Queue a message for the bot, unless the seat is closed."""
        if not self.closed:
            self.outbox.put_nowait(message)

    def process_exited(self, code: int) -> None:
        """The launched bot's process ended with ``code`` (told before :meth:`leave`); any
        status but 0 (a signal too) makes its departure a crash."""
        self.exit_code = code
        if code != 0:
            self.crashed.set()

    def written(self, request_id: int, at: float) -> None:
        """The transport wrote decision request ``request_id`` to the connection at ``at``
        (event-loop time): the seat's clock starts then, not while the request was encoded or
        queued. Noted on the link, not queued: the match reads it when it next looks. A request
        written again (resent to a bot that came back within its grace window) keeps the time of
        its first write: dropping gains a bot no thinking time. A write noted while the bot is
        away (the lost connection's, returning late) happened before the drop was seen."""
        if request_id == self.written_id:
            return
        if self.away_since is not None:
            at = min(at, self.away_since)
        self.written_id, self.written_at = request_id, at
        if self.cpu_at_write and self.cpu_meter is not None:
            self.written_cpu = self.cpu_meter()

    def leave(self, reason: str) -> None:
        """The connection ended or the process died; tell the arbiter once."""
        if self._expiry is not None:
            self._expiry.cancel()
            self._expiry = None
        if not self.abandoned.is_set():
            self.left_reason = reason
            self.abandoned.set()
            self.inbox.put_nowait(Gone(reason))
            self.outbox.put_nowait(None)
