"""The seats of a session, without a transport: each a :class:`Seat` with its own copy of the
bot, the replies to one message's decisions in batches, and what a session played. Both ways of
playing a session use them: its pipe (:mod:`._pipe`) and its gRPC stream (:mod:`._session`)."""

from __future__ import annotations

import copy
import os
import sys
import time
import traceback
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from croupier_bot._bot import Bot, Seat
from croupier_proto.v1 import bot_pb2 as pb


@dataclass(frozen=True)
class SessionSummary:
    """What a session (a process that stayed up for many matches) played: ``matches`` and
    ``failed`` count every session it opened (``sessions``: more than 1 when its Session stream
    broke and it dialled in again); ``session_id`` is the last one's."""

    session_id: str
    matches: int
    failed: int
    sessions: int = 1


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


def _session_capacity(bot: Bot, capacity: int | None) -> int:
    if capacity is not None:
        return max(1, capacity)
    asked = os.environ.get("CROUPIER_SESSION_CAPACITY", "")
    wanted = [c for c in (bot.capacity, int(asked) if asked.isdigit() else None) if c]
    return max(1, min(wanted)) if wanted else 1
