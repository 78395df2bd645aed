"""The arbiter's end of one bot session: a bot process that dials once (``BotService.Session``)
and is handed seats, each of which it plays on a Play stream of its own (protocol 2) or on the
Session stream itself (protocol 3, multiplexed: ``croupier.transport._mux``).

Whoever expects the bot (the :class:`~croupier.transport.BotPool`, or a competition server for a
bot that connects from anywhere) registers a :class:`BotSession` under a token with
``BotServicer.open_session``; the servicer attaches the bot's stream to it when it says hello."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable
from dataclasses import dataclass


class Closing(Exception):
    """The server is shutting down: a stream handler ends now, without waiting any longer."""


@dataclass(frozen=True, slots=True)
class Assignment:
    """A seat handed to a session: the seat token (the servicer finds the match by it) and the
    bot's seed for that match."""

    token: str
    seed: int


class BotSession:
    """One expected (and then connected) bot session.

    Events tell its owner what the bot did: :attr:`connected` once it said hello, :attr:`per_match`
    if it said hello on a Play stream with the session token instead (it knows only the per-match
    protocol), :attr:`ended` once its Session stream is gone.
    """

    def __init__(self, token: str | None = None) -> None:
        self.token = token or secrets.token_urlsafe(24)
        self.session_id = secrets.token_hex(4)
        #: The name its owner knows the bot by (a competition server's registered name; ""
        #: when none): who it is. ``bot_name`` is what its SessionHello says of itself.
        self.name = ""
        self.bot_name = ""
        self.bot_version = ""
        self.capacity = 0
        #: The protocol version of its stream (set on attach): 3 carries its seats on it
        #: (multiplexed), 2 hands them out to be played on Play streams.
        self.protocol_version = 0
        self.connected = asyncio.Event()
        self.per_match = asyncio.Event()
        self.ended = asyncio.Event()
        #: Seats to hand the bot, in order; ``None`` ends the session.
        self.queue: asyncio.Queue[Assignment | None] = asyncio.Queue()
        #: Set by :meth:`close`: the stream ends UNAVAILABLE rather than OK.
        self.come_back = False
        #: Set by :meth:`refuse`: the ``ErrorReason`` value and message the stream ends with
        #: (and a new stream is refused with) instead of OK.
        self.refusal: tuple[int, str] | None = None
        #: Set by the stream that serves the session: called whenever :attr:`queue` gets
        #: something (a multiplexed stream takes it without waiting on the queue).
        self.listener: Callable[[], None] | None = None
        self._attached = False

    @property
    def multiplexed(self) -> bool:
        """Whether its seats are played on its Session stream (protocol 3)."""
        return self.protocol_version >= 3

    def attach(self, bot_name: str, bot_version: str, capacity: int, protocol_version: int) -> bool:
        """The bot said hello; False if a connection already holds this session."""
        if self._attached or self.ended.is_set() or self.refusal is not None:
            return False
        self._attached = True
        self.bot_name, self.bot_version, self.capacity = bot_name, bot_version, max(1, capacity)
        self.protocol_version = protocol_version
        self.connected.set()
        return True

    def _put(self, item: Assignment | None) -> None:
        self.queue.put_nowait(item)
        if self.listener is not None:
            self.listener()

    def assign(self, token: str, seed: int) -> None:
        """Hand the bot the seat whose token is ``token`` (the caller keeps within capacity)."""
        self._put(Assignment(token, seed))

    def close(self, come_back: bool = False) -> None:
        """End the session: the stream closes once queued seats are sent, with status OK (no
        more seats: the bot's work is done), or with ``come_back`` UNAVAILABLE (the server is
        stopping and will be back: a bot that redials a broken session dials again)."""
        self.come_back = come_back
        self._put(None)

    def refuse(self, reason: int, message: str) -> None:
        """End the session at once with an error (``reason``, an ``ErrorReason`` value): the
        seats queued and not yet sent are dropped; a stream that tries to attach is refused so
        (the bot's key was revoked or changed, or the bot was disabled)."""
        self.refusal = (reason, message)
        while not self.queue.empty():
            self.queue.get_nowait()
        self._put(None)

    def detach(self) -> None:
        """The Session stream is gone."""
        self.ended.set()
