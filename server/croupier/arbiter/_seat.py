"""One seat's link between the arbiter and whatever carries its messages (the gRPC transport)."""

from __future__ import annotations

import asyncio

from croupier.arbiter._types import Gone, Inbound, Outbound
from croupier.errors import ClaimError


class SeatLink:
    """The arbiter's end of one seat: an outbox the transport drains, an inbox it fills.

    A token admits exactly one connection, once: after a claim, further claims fail, and a seat
    whose bot has gone stays closed for the rest of the match.
    """

    def __init__(self, seat: int, token: str) -> None:
        self.seat = seat
        self.token = token
        #: Messages for the bot; ``None`` tells the transport the connection is gone.
        self.outbox: asyncio.Queue[Outbound | None] = asyncio.Queue()
        self.inbox: asyncio.Queue[Inbound] = asyncio.Queue()
        self.bot_name = ""
        self.bot_version = ""
        self.joined = asyncio.Event()
        self.abandoned = asyncio.Event()  # the bot left (or its process died) before/while playing
        self.left_reason = ""
        self.closed = False  # set by the arbiter: no more messages will be sent
        self.over = False  # set by the arbiter when the match is over
        self._claimed = False

    def claim(self, bot_name: str, bot_version: str) -> None:
        """Admit one connection; raise :class:`ClaimError` if the seat cannot take it."""
        if self.over:
            raise ClaimError(ClaimError.Kind.MATCH_OVER, "the match is over")
        if self.closed or self.abandoned.is_set():
            raise ClaimError(ClaimError.Kind.SEAT_CLOSED, f"seat {self.seat} is closed")
        if self._claimed:
            raise ClaimError(ClaimError.Kind.SEAT_TAKEN, f"seat {self.seat} is already taken")
        self._claimed = True
        self.bot_name, self.bot_version = bot_name, bot_version
        self.joined.set()

    def send(self, message: Outbound) -> None:
        """Queue a message for the bot, unless the seat is closed."""
        if not self.closed:
            self.outbox.put_nowait(message)

    def leave(self, reason: str) -> None:
        """The connection ended or the process died; tell the arbiter once."""
        if not self.abandoned.is_set():
            self.left_reason = reason
            self.abandoned.set()
            self.inbox.put_nowait(Gone(reason))
            self.outbox.put_nowait(None)
