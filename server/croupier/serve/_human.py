"""Human seats: a person plays one seat of a match from the browser (docs/server.md, "Human
seats"; ``croupier match --bot human``).

A :class:`HumanSeat` is a bot like any other to the arbiter: it dials the bot port with the
seat's token and holds the seat's ``Play`` stream, as the stdio bridge does for a program
(``croupier.transport``'s ``_stdio``). The arbiter therefore keeps its single code path for
clocks, faults and what a seat may see; a human who does not answer in time times out exactly
as a bot does. What the arbiter sends the seat is kept as the stdio protocol's lines
(``croupier.v1.stdio.to_line``: canonical JSON) and handed to the browser as server-sent events;
the browser answers with a POST naming the request and the action id, which goes to the arbiter
unchanged (the arbiter judges its legality, as for any bot).

The browser never holds the seat token: the :class:`HumanDesk` hands out a fresh random secret
per seat, and a secret reaches that one seat's messages and nothing else. A seat's messages are
kept for the seat's life so that a reloaded page is shown the whole match again.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
from collections.abc import AsyncIterator
from typing import Any

import grpc
import structlog

from croupier.v1 import PROTOCOL_VERSION, bot_pb2_grpc, stdio
from croupier.v1 import bot_pb2 as pb

_log = structlog.get_logger("croupier.human")

#: The ``--bot`` value (and the bundled name) of a seat a person plays from the browser.
HUMAN = "human"
#: Largest message a human seat accepts from the arbiter (as the stdio bridge).
MAX_RECEIVE_BYTES = 64 << 20
#: Largest request body the page may POST (a token or an action).
MAX_BODY = 4096
_REASON_KEY = "croupier-reason"


#: Ended seats a desk keeps (oldest forgotten first when a new seat is taken).
KEEP_ENDED = 64


class HumanError(Exception):
    """A request the page made that cannot be served: ``status`` is the HTTP status."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


class HumanSeat:
    """One seat's ``Play`` stream, held for a browser. :meth:`run` plays the match; the page
    reads :meth:`follow` and answers with :meth:`act`."""

    def __init__(self, address: str, token: str, name: str = HUMAN) -> None:
        self.address, self._token, self.name = address, token, name
        #: The page's key to this seat (never the seat token).
        self.secret = secrets.token_urlsafe(24)
        #: Every message the arbiter sent the seat so far, as JSON text (the stdio line).
        self.lines: list[str] = []
        #: True once the stream has ended (after MatchEnd, or an error: :attr:`error`).
        self.ended = False
        #: Set once a page has been sent every message, the match end included.
        self.delivered = asyncio.Event()
        self.error = ""
        self._changed = asyncio.Condition()
        self._call: Any = None
        self._open: set[int] = set()  # request ids sent and not yet answered

    async def _add(self, line: str) -> None:
        async with self._changed:
            self.lines.append(line)
            self._changed.notify_all()

    async def run(self) -> None:
        """Dial the arbiter, say Hello with the seat token, keep every message until MatchEnd."""
        hello = pb.Hello(
            token=self._token,
            bot_name=self.name,
            bot_version="browser",
            protocol_version=PROTOCOL_VERSION,
        )
        options = [("grpc.max_receive_message_length", MAX_RECEIVE_BYTES)]
        try:
            async with grpc.aio.insecure_channel(self.address, options=options) as channel:
                self._call = call = bot_pb2_grpc.BotServiceStub(channel).Play()
                await call.write(pb.PlayRequest(hello=hello))
                while (response := await call.read()) is not grpc.aio.EOF:
                    kind = response.WhichOneof("kind")
                    if kind == "decision":  # one open at a time: a newer one supersedes it
                        self._open = {response.decision.request_id}
                    await self._add(stdio.to_line(response).decode().rstrip("\n"))
                    if kind == "match_end":
                        with contextlib.suppress(grpc.aio.AioRpcError, asyncio.InvalidStateError):
                            await call.done_writing()
                        break
                else:
                    self.error = "the arbiter ended the stream before the match ended"
        except grpc.aio.AioRpcError as exc:
            reason = dict(exc.trailing_metadata() or ()).get(_REASON_KEY, "")
            self.error = f"{exc.code().name}: {exc.details()}" + (f" [{reason}]" if reason else "")
        finally:
            self._call = None
            async with self._changed:
                self.ended = True
                self._changed.notify_all()
            if self.error:
                _log.warning("human_seat_ended", error=self.error)

    async def act(self, request_id: int, action_id: int) -> None:
        """Answer the open decision ``request_id`` with ``action_id`` (the arbiter judges it)."""
        if self.ended or self._call is None:
            raise HumanError(409, "the match is over for this seat")
        if request_id not in self._open:
            raise HumanError(409, f"request {request_id} is not open (answered, or timed out)")
        self._open.discard(request_id)
        reply = pb.ActionReply(request_id=request_id, action_id=action_id)
        try:
            await self._call.write(pb.PlayRequest(action=reply))
        except (grpc.aio.AioRpcError, asyncio.InvalidStateError):
            raise HumanError(409, "the match is over for this seat") from None

    async def follow(self, start: int = 0) -> AsyncIterator[str]:
        """The seat's messages from number ``start`` on, as they come, until the stream ends."""
        index = start
        while True:
            async with self._changed:
                while not self.ended and len(self.lines) <= index:
                    await self._changed.wait()
                fresh, ended = self.lines[index:], self.ended
            for line in fresh:
                yield line
            index += len(fresh)
            if ended and index >= len(self.lines):
                self.delivered.set()
                return


class HumanDesk:
    """The human seats a web server serves, by secret. ``address`` is the bot port that
    :meth:`join` dials with a seat token a person pasted into the page (``None``: joining by
    token is off, only seats the owner opened with :meth:`open` are played)."""

    def __init__(self, address: str | None = None) -> None:
        self.address = address
        #: Starts a match against bots for the page (``POST /api/play/vs-bots``), where the
        #: server offers that (``croupier.serve``'s ``_play.VsBots``); ``None``: not here.
        self.vs_bots: Any = None
        self._seats: dict[str, HumanSeat] = {}
        self._tasks: set[asyncio.Task[None]] = set()

    def open(self, address: str, token: str, name: str = HUMAN) -> HumanSeat:
        """Take the seat of ``token`` on ``address`` now; its page is ``/play#<secret>``."""
        seat = HumanSeat(address, token, name)
        self._forget_ended()
        self._seats[seat.secret] = seat
        # each seat's stream lives on its own: one seat's failure must not end another's
        task = asyncio.get_running_loop().create_task(seat.run())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return seat

    def seats(self) -> list[HumanSeat]:
        """Every seat taken here and not forgotten, in the order taken."""
        return list(self._seats.values())

    def playing(self) -> int:
        """How many of the seats are still playing (their match has not ended)."""
        return sum(not seat.ended for seat in self._seats.values())

    def _forget_ended(self) -> None:
        """Keep the messages of the last :data:`KEEP_ENDED` ended seats only (a page opened
        again after the match can still read it), so that a long-running server does not keep
        every match a person ever played."""
        ended = [secret for secret, seat in self._seats.items() if seat.ended]
        for secret in ended[: max(0, len(ended) - KEEP_ENDED)]:
            del self._seats[secret]

    def seat(self, secret: str) -> HumanSeat:
        found = self._seats.get(secret)
        if found is None or not secrets.compare_digest(found.secret, secret):
            raise HumanError(403, "no seat for that key")
        return found

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(asyncio.CancelledError):
                await task

    # -- the page's requests ------------------------------------------------------------------

    def join(self, body: bytes) -> dict[str, Any]:
        """``POST /api/play/join`` with ``{"token": "..."}``: take that seat."""
        if self.address is None:
            raise HumanError(404, "this server does not seat humans by token")
        token = parse_object(body).get("token")
        if not isinstance(token, str) or not 0 < len(token) <= 200:
            raise HumanError(400, 'the body must be {"token": "<seat token>"}')
        return {"secret": self.open(self.address, token).secret}

    async def answer(self, secret: str, body: bytes) -> dict[str, Any]:
        """``POST /api/play/<secret>/act`` with ``{"request_id": N, "action_id": M}``."""
        seat = self.seat(secret)
        data = parse_object(body)
        request_id, action_id = data.get("request_id"), data.get("action_id")
        if not isinstance(request_id, int) or not isinstance(action_id, int):
            raise HumanError(400, 'the body must be {"request_id": N, "action_id": M}')
        if not (_count(request_id, 1 << 64) and _count(action_id, 1 << 32)):
            raise HumanError(400, "request_id and action_id must be counts (0 or more)")
        await seat.act(request_id, action_id)
        return {"ok": True}


def parse_object(body: bytes) -> dict[str, Any]:
    """A POST body that must be one JSON object (``HumanError`` 400 otherwise)."""
    try:
        data = json.loads(body or b"{}")
    except (ValueError, UnicodeDecodeError):
        raise HumanError(400, "the body is not JSON") from None
    if not isinstance(data, dict):
        raise HumanError(400, "the body must be a JSON object")
    return data


def _count(value: object, bound: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < bound
