"""The only place proto types meet arbiter types: arbiter messages <-> ``croupier.v1`` messages.

Everything a seat receives is encoded from the arbiter message addressed to it, whose game part
was built by ``game.observe(state, seat)``; the game's own fields are filled by its codec
(``croupier/games/<game>/codec.py``, found through the game's spec): the codec adds nothing
from any other source.

The codec decides what goes on the wire, and keeps a decision request bounded (protocol 2): the
observation's current round only (a finished round goes out once, in its ``DealEnded``), and a
run of betting amounts as one legal action with an amount range.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from functools import partial
from typing import Any

from croupier import PROTOCOL_VERSION
from croupier.arbiter import (
    ActionEvent,
    ClockKind,
    DecisionRequest,
    Fault,
    Inbound,
    MatchOver,
    Outbound,
    Outcome,
    Rejection,
    Reply,
    RoundEnded,
    RoundStarted,
    Unexpected,
    Welcome,
)
from croupier.games import (
    ActionRuns,
    GameCodec,
    SerializedOnce,
    message_field,
    score,
    uint_field,
    varint,
)
from croupier.v1 import bot_pb2 as pb

#: ``MatchEnd.seed`` is a uint64: it carries the seed only below this; ``seed_decimal`` always.
UINT64_LIMIT = 1 << 64


def reveal_seed(end: pb.MatchEnd, seed: int) -> None:
    """Put the match seed into ``end`` (``seed_decimal``, and ``seed`` when it fits)."""
    end.seed_decimal = str(seed)
    end.seed = seed if seed < UINT64_LIMIT else 0


#: One public event goes to every seat: encode it once.
_EVENTS = SerializedOnce(256)
#: ... and, for :func:`encode_bytes`, once as the ``PlayResponse.events`` field it makes.
_EVENT_FIELDS = SerializedOnce(256)


# ---- arbiter -> bot ----------------------------------------------------------------------------

_REJECT = {
    Fault.ILLEGAL_ACTION: pb.REJECT_REASON_ILLEGAL_ACTION,
    Fault.STALE_REQUEST: pb.REJECT_REASON_STALE_REQUEST,
    Fault.TIMEOUT: pb.REJECT_REASON_TOO_LATE,
    Fault.UNEXPECTED_MESSAGE: pb.REJECT_REASON_UNEXPECTED_MESSAGE,
}


_OUTCOME = {
    Outcome.NORMAL: pb.SEAT_OUTCOME_NORMAL,
    Outcome.TIMEOUTS: pb.SEAT_OUTCOME_TIMEOUTS,
    Outcome.ILLEGAL_ACTIONS: pb.SEAT_OUTCOME_ILLEGAL_ACTIONS,
    Outcome.DISCONNECTED: pb.SEAT_OUTCOME_DISCONNECTED,
    Outcome.FORFEITED: pb.SEAT_OUTCOME_FORFEITED,
}


#: Arbiter messages that travel as ``PlayResponse.events`` (batched by the transport).
EVENT_TYPES = (ActionEvent, RoundStarted, RoundEnded)


EventMessage = ActionEvent | RoundStarted | RoundEnded


def encode_event(message: EventMessage, codec: GameCodec, out: pb.Event) -> None:
    """Fill ``out`` with the wire form of one public event."""
    out.step = message.step
    if isinstance(message, ActionEvent):
        taken = out.action_taken
        taken.seat = message.seat
        taken.action_id = message.action
        taken.label = message.label
        taken.by_arbiter = message.by_arbiter
    elif isinstance(message, RoundStarted):
        out.deal_started.deal_index = message.round_index
        out.deal_started.dealer = message.dealer
    else:
        ended = out.deal_ended
        ended.deal_index = message.round_index
        ended.deltas.extend(score(d) for d in message.deltas)
        ended.totals.extend(score(t) for t in message.totals)
        codec.round_detail(message.observation, ended)


def encode(
    message: Outbound | None, codec: GameCodec, events: Sequence[EventMessage] = ()
) -> pb.PlayResponse:
    """The wire form of one arbiter message (``None``: events only) preceded by ``events``.
    An event message goes last among the events: every event takes the same path."""
    if isinstance(message, EVENT_TYPES):
        return encode(None, codec, (*events, message))
    response = _encode(message, codec)
    for event in events:
        response.events.add().MergeFromString(
            _EVENTS.get(event, partial(_event_bytes, event, codec))
        )
    return response


def _event_bytes(event: EventMessage, codec: GameCodec) -> bytes:
    """The serialized ``Event``: an action taken or a deal started put together field by field
    (one goes to every seat after nearly every decision), a deal's end serialized from its
    message (:func:`encode_event`)."""
    if isinstance(event, ActionEvent):
        taken = (
            uint_field(b"\x08", event.seat)
            + uint_field(b"\x10", event.action)
            + (message_field(b"\x1a", event.label.encode()) if event.label else b"")
            + (b"\x20\x01" if event.by_arbiter else b"")
        )
        return uint_field(b"\x08", event.step) + message_field(b"\x12", taken)
    if isinstance(event, RoundStarted):
        started = uint_field(b"\x08", event.round_index) + uint_field(b"\x10", event.dealer)
        return uint_field(b"\x08", event.step) + message_field(b"\x1a", started)
    msg = pb.Event()
    encode_event(event, codec, msg)
    data: bytes = msg.SerializeToString()
    return data


_EVENTS_TAG = b"\x1a"  # PlayResponse.events = 3, length-delimited


def _event_field(event: EventMessage, codec: GameCodec) -> bytes:
    data = _EVENTS.get(event, partial(_event_bytes, event, codec))
    return _EVENTS_TAG + varint(len(data)) + data


def encode_bytes(
    message: Outbound | None, codec: GameCodec, events: Sequence[EventMessage] = ()
) -> bytes:
    """``encode(message, codec, events).SerializeToString()``, byte for byte, put together
    without parsing each event's cached bytes into the message and serializing them again: the
    message's own part, then (field 3) every event in order, fields in ascending number as
    protobuf writes them (a Welcome or decision, 1 and 2, before the events; a rejection or
    match end, 4 and 5, after them)."""
    if isinstance(message, EVENT_TYPES):
        events, message = (*events, message), None
    tail = b"".join([_EVENT_FIELDS.get(e, partial(_event_field, e, codec)) for e in events])
    if message is None:
        return tail
    if isinstance(message, DecisionRequest) and codec.detail_bytes:
        decision = _decision_bytes(message, codec, codec.detail_bytes)
        return message_field(b"\x12", decision) + tail
    head: bytes = _encode(message, codec).SerializeToString()
    if isinstance(message, DecisionRequest | Welcome):
        return head + tail
    return tail + head


def _encode(message: Outbound | None, codec: GameCodec) -> pb.PlayResponse:
    """The wire form of one arbiter message that is not an event (``None``: an empty one)."""
    if message is None:
        return pb.PlayResponse()
    if isinstance(message, DecisionRequest):
        response = pb.PlayResponse()
        decision = response.decision
        decision.request_id = message.request_id
        codec.observation(message.observation, decision.observation)
        clocks = decision.clocks
        clocks.move_time_ms = message.clocks.move_time_ms
        clocks.time_bank_ms = message.clocks.time_bank_ms
        clocks.last_latency_us = message.clocks.last_latency_us
        _legal_actions(message, codec, decision)
        return response
    if isinstance(message, Rejection):
        return pb.PlayResponse(
            rejected=pb.ActionRejected(
                request_id=message.request_id,
                reason=_REJECT[message.fault],
                message=message.message,
                default_played=message.default_played,
            )
        )
    if isinstance(message, MatchOver):
        result = message.result
        end = pb.MatchEnd(
            cancelled=result.cancelled,
            results=[
                pb.SeatResult(
                    seat=r.seat,
                    bot_name=r.name,
                    score=score(r.score),
                    place=r.place,
                    outcome=_OUTCOME[r.outcome],
                    timeouts=r.timeouts,
                    rejected=r.rejected,
                    forfeits=r.forfeits,
                )
                for r in result.seats
            ],
        )
        if result.revealed:  # (a duplicate seating's is withheld: docs/protocol.md, MatchEnd)
            reveal_seed(end, result.seed)
            end.salt = result.salt
            end.chance_script_sha256 = result.script_digest
            end.terms_sha256 = result.terms_digest
        return pb.PlayResponse(match_end=end)
    if isinstance(message, Welcome):
        return pb.PlayResponse(
            welcome=pb.Welcome(
                match_id=message.match_id,
                seat=message.seat,
                num_seats=message.num_seats,
                game=message.game,
                rules_version=message.rules_version,
                params=message.params,
                protocol_version=PROTOCOL_VERSION,
                clock_rules=pb.ClockRules(
                    move_time_ms=message.clock.move_time_ms,
                    time_bank_ms=message.clock.time_bank_ms,
                    kind=_CLOCK_KINDS[message.clock.kind],
                    margin_ms=message.clock.margin_ms,
                    seat_cap_ms=message.clock.seat_cap_ms,
                    match_cap_ms=message.clock.match_cap_ms,
                    cpu_wall_guard_ms=message.clock.cpu_wall_guard_ms,
                ),
                deal_commitment=message.commitment,
                match_commitment=message.match_commitment,
                reconnect_grace_ms=message.reconnect_grace_ms,
            )
        )
    raise TypeError(f"no wire form for {type(message).__name__}")


_CLOCK_KINDS = {ClockKind.WALL: pb.CLOCK_KIND_WALL, ClockKind.CPU: pb.CLOCK_KIND_CPU}


def _legal_entries(
    message: DecisionRequest, codec: GameCodec
) -> Iterator[tuple[int, str, tuple[int, int, int] | None]]:
    """The legal actions as they go on the wire, ascending by id, as ``(id, label, amounts)``:
    one entry per action (``amounts`` ``None``), except that each run of betting actions (every
    allowed bet or raise) is one entry for its lowest amount with the run's amount range
    ``(lowest, highest, step)``, which the SDKs expand back into one action per amount. The ids
    and labels are read by position for the entries sent only: a run's are never listed."""
    actions = ActionRuns.of_ids(message.legal_actions)  # (the arbiter's are runs already)
    labels = message.labels
    runs = {start: (stop, lowest, step) for start, stop, lowest, step in codec.amount_runs(actions)}
    if not runs:  # one entry per id: read them in one pass (a few ids; no run to skip)
        for action, label in zip(actions, labels, strict=True):
            yield action, label, None
        return
    i, n = 0, len(actions)
    while i < n:
        action, run = actions[i], runs.get(i)
        if run is None:
            yield action, labels[i], None
            i += 1
            continue
        stop, lowest, step = run
        yield action, labels[i], (lowest, lowest + actions[stop - 1] - action, step)
        i = stop


def _legal_actions(message: DecisionRequest, codec: GameCodec, out: pb.DecisionRequest) -> None:
    """The legal actions on the wire (:func:`_legal_entries`), with the game's details."""
    add, detail, observation = out.legal_actions.add, codec.action_detail, message.observation
    for action, label, amounts in _legal_entries(message, codec):
        legal = add(id=action, label=label)
        detail(observation, action, legal)
        if amounts is not None:
            legal.amounts.lowest, legal.amounts.highest, legal.amounts.step = amounts


def _decision_bytes(
    message: DecisionRequest,
    codec: GameCodec,
    detail_bytes: Callable[[Any, int], bytes],
) -> bytes:
    """The serialized ``DecisionRequest`` that :func:`_encode` builds, for a codec that makes
    its own bytes (``GameCodec.detail_bytes``, and ``observation_bytes`` if it has them, else
    the observation's message is serialized), put together field by
    field in ascending order as protobuf writes them (a 0 left out): the request id, the
    observation, each legal action as :func:`_legal_actions` lists them, the clocks. Building
    and serializing the message costs several times as much, and a decision is the arbiter's
    most frequent message."""
    observation, clocks = message.observation, message.clocks
    if codec.observation_bytes is not None:
        seen = codec.observation_bytes(observation)
    else:  # (the message, serialized: where a game's cost is in its legal actions)
        built = pb.Observation()
        codec.observation(observation, built)
        seen = built.SerializeToString()
    parts = [
        uint_field(b"\x08", message.request_id),
        message_field(b"\x12", seen) if seen else b"",
    ]
    for action, label, amounts in _legal_entries(message, codec):
        entry = uint_field(b"\x08", action) + (
            message_field(b"\x12", label.encode()) if label else b""
        )
        if amounts is not None:
            lowest, highest, step = amounts
            entry += message_field(
                b"\x1a",
                uint_field(b"\x08", lowest)
                + uint_field(b"\x10", highest)
                + uint_field(b"\x18", step),
            )
        parts.append(message_field(b"\x1a", entry + detail_bytes(observation, action)))
    times = (
        uint_field(b"\x08", clocks.move_time_ms)
        + uint_field(b"\x10", clocks.time_bank_ms)
        + uint_field(b"\x18", clocks.last_latency_us)
    )
    parts.append(message_field(b"\x22", times))
    return b"".join(parts)


# ---- bot -> arbiter ----------------------------------------------------------------------------


def decode(request: pb.PlayRequest, received_at: float = 0.0) -> Inbound:
    """The arbiter's reading of one bot message after the handshake, read off the connection
    at ``received_at`` (event-loop time; 0: not known)."""
    kind = request.WhichOneof("kind")
    if kind == "action":
        action = request.action
        return Reply(action.request_id, action.action_id, received_at)
    return Unexpected(
        "an empty message" if kind is None else f"a {kind} message after the handshake"
    )
