"""The only place proto types meet rules types: arbiter messages <-> ``croupier.v1`` messages.

Everything a seat receives is encoded from the arbiter message addressed to it, whose game part
was built by ``game.observe(state, seat)``: the codec adds nothing from any other source.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import partial
from typing import Any, cast

from croupier import PROTOCOL_VERSION
from croupier.arbiter import (
    ActionEvent,
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
from croupier.games import _chips as chips
from croupier.games import as_nas, felduz
from croupier.transport._chips_codec import cards40, chip_action, chip_settlement, chip_table
from croupier.v1 import bot_pb2 as pb


def score(value: Fraction) -> pb.Score:
    """An exact score on the wire."""
    return pb.Score(numerator=value.numerator, denominator=value.denominator)


# ---- per-game parts ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class GameCodec:
    """How one game's observations, action details and round results go on the wire."""

    observation: Callable[[Any, pb.Observation], None]
    action_detail: Callable[[Any, int, pb.LegalAction], None]
    round_detail: Callable[[Any, pb.DealEnded], None]


def _rank(rank: int) -> pb.AsNasRank:
    return cast(pb.AsNasRank, rank + 1)


def _move(action: int) -> pb.AsNasMove:
    return cast(pb.AsNasMove, action + 1)


def _as_nas_result(result: as_nas.DealResult, out: pb.AsNasDealResult) -> None:
    out.deal_index = result.deal_index
    out.dealer = result.dealer
    for seat, ranks in enumerate(result.revealed):
        if ranks is not None:
            out.shown.add(seat=seat, ranks=[_rank(r) for r in ranks])
    out.winners.extend(result.winners)
    out.pot = result.pot
    out.deltas.extend(score(d) for d in result.deltas)


def _as_nas_history(history: tuple[tuple[int, int], ...]) -> list[pb.AsNasHistoryEntry]:
    return [pb.AsNasHistoryEntry(seat=s, move=_move(a)) for s, a in history]


class _SerializedOnce:
    """Serialize an immutable value's message once, keyed by the value's identity, and hand out
    the bytes: parsing them is C speed, rebuilding the message in Python is not. Holding the
    value keeps its ``id`` from being reused while it is cached."""

    def __init__(self, size: int = 256) -> None:
        self._size = size
        self._entries: dict[int, tuple[object, bytes]] = {}

    def get(self, value: object, build: Callable[[], bytes]) -> bytes:
        hit = self._entries.get(id(value))
        if hit is not None and hit[0] is value:
            return hit[1]
        data = build()
        if len(self._entries) >= self._size:
            self._entries.pop(next(iter(self._entries)))
        self._entries[id(value)] = (value, data)
        return data


def _past_deals_bytes(past: tuple[as_nas.PastDeal, ...]) -> bytes:
    msg = pb.AsNasObservation()
    for deal in past:
        entry = msg.past_deals.add(history=_as_nas_history(deal.history))
        _as_nas_result(deal.result, entry.result)
    data: bytes = msg.SerializeToString()
    return data


#: Finished deals never change, and every later observation repeats them.
_PAST_DEALS = _SerializedOnce(64)
#: One public event goes to every seat: encode it once.
_EVENTS = _SerializedOnce(256)


def _merge_past(msg: Any, past: tuple[Any, ...], build: Callable[[Any], bytes]) -> None:
    """Merge the finished rounds ``past`` into the observation message ``msg``, serialized by
    ``build`` once per ``past`` value (every later observation repeats them unchanged)."""
    if past:
        msg.MergeFromString(_PAST_DEALS.get(past, lambda: build(past)))


def _as_nas_observation(obs: as_nas.AsNasObservation, out: pb.Observation) -> None:
    msg = out.as_nas
    _merge_past(msg, obs.past_deals, _past_deals_bytes)
    msg.deal_index = obs.deal_index
    msg.num_deals = obs.num_deals
    msg.dealer = obs.dealer
    msg.to_act = obs.to_act if obs.to_act is not None else 0
    msg.hand.extend(_rank(r) for r in obs.hand)
    for s in range(len(obs.stakes)):
        seat = msg.seats.add(stake=obs.stakes[s], folded=obs.folded[s], looked=obs.looked[s])
        total = obs.totals[s]
        seat.total.numerator = total.numerator
        seat.total.denominator = total.denominator
    msg.high_bet = obs.high
    msg.pot = obs.pot
    msg.history.extend(_as_nas_history(obs.history))


def _as_nas_action(obs: as_nas.AsNasObservation, action: int, out: pb.LegalAction) -> None:
    seat = obs.to_act if obs.to_act is not None else 0
    stake = obs.stakes[seat]
    if action == as_nas.Action.CALL:
        stake = obs.high
    elif action == as_nas.Action.RAISE:
        stake = obs.high + 1
    out.as_nas.move = _move(action)
    out.as_nas.stake_after = stake


def _as_nas_round(obs: as_nas.AsNasObservation, out: pb.DealEnded) -> None:
    if obs.last_deal is not None:
        _as_nas_result(obs.last_deal, out.as_nas)


# ---- Felduz ----

_FELDUZ_MOVES = {
    felduz.NO_BET: pb.FELDUZ_MOVE_NO_BET,
    felduz.DRAW: pb.FELDUZ_MOVE_DRAW,
    felduz.STAND: pb.FELDUZ_MOVE_STAND,
    felduz.CONTINUE: pb.FELDUZ_MOVE_CONTINUE,
}


def _felduz_detail(action: int, hand: tuple[int, ...], out: pb.FelduzAction) -> None:
    """Fill ``out`` with a Felduz action's typed fields; ``hand`` (the acting seat's hand,
    sorted) is needed only for an opening split."""
    if chips.is_chip_action(action):
        out.move = pb.FELDUZ_MOVE_CHIPS
        chip_action(action, out.chip)
    elif action in _FELDUZ_MOVES:
        out.move = _FELDUZ_MOVES[action]
    elif action < felduz.REVEAL:
        out.move = pb.FELDUZ_MOVE_OPEN
        out.cards.extend(cards40(felduz.split_cards(hand, action - felduz.SPLIT)[0]))
    elif action < felduz.RESERVE:
        out.move = pb.FELDUZ_MOVE_REVEAL
        out.cards.extend(cards40((action - felduz.REVEAL,)))
    else:
        out.move = pb.FELDUZ_MOVE_RESERVE
        out.cards.extend(cards40(felduz.reserve_cards(action)))


def _felduz_history(history: tuple[tuple[int, int], ...]) -> list[pb.FelduzHistoryEntry]:
    entries = []
    for seat, action in history:
        entry = pb.FelduzHistoryEntry(seat=seat, action_id=action)
        _felduz_detail(action, (), entry.action)
        entries.append(entry)
    return entries


def _felduz_result(result: felduz.RoundResult, out: pb.FelduzRoundResult) -> None:
    out.round = result.round
    out.dealer = result.dealer
    chip_settlement(result.settlement, out.settlement)
    for seat, field in enumerate(result.fields):
        reserve = result.reserves[seat]
        if field is not None and reserve is not None:
            out.shown.add(
                seat=seat,
                field=cards40(field),
                reserve=cards40(reserve),
                field_sum=felduz.field_sum(field),
                reserve_sum=felduz.field_sum(reserve),
            )
    for event in result.events:
        criterion = cast(pb.FelduzCriterion, event.criterion + 1)
        out.events.add(criterion=criterion, seats=event.seats)


def _felduz_past(finished: felduz.PastRound) -> pb.FelduzPastRound:
    entry = pb.FelduzPastRound(history=_felduz_history(finished.history))
    _felduz_result(finished.result, entry.result)
    return entry


def _felduz_past_bytes(past: tuple[felduz.PastRound, ...]) -> bytes:
    data: bytes = pb.FelduzObservation(past_rounds=map(_felduz_past, past)).SerializeToString()
    return data


def _felduz_observation(obs: felduz.FelduzObservation, out: pb.Observation) -> None:
    msg = out.felduz
    _merge_past(msg, obs.past_rounds, _felduz_past_bytes)
    msg.round = obs.round
    msg.round_cap = obs.round_cap
    msg.phase = cast(pb.FelduzPhase, obs.phase + 1)
    if obs.to_act is not None:
        msg.to_act = obs.to_act
    if obs.turn is not None:
        msg.turn = obs.turn
    msg.turn_start = cast(pb.FelduzTurnStart, obs.first + 1)
    chip_table(obs.table, obs.round_cap, msg.table)
    for s, opened in enumerate(obs.open_fields):
        msg.seats.add(
            open=cards40(opened),
            closed_count=obs.closed_counts[s],
            reserve_count=obs.reserve_counts[s],
            stood=obs.stood[s],
            chosen=obs.chosen[s],
        )
    msg.stock = obs.stock
    msg.closed.extend(cards40(obs.closed))
    msg.reserve.extend(cards40(obs.reserve))
    msg.history.extend(_felduz_history(obs.history))


def _felduz_action(obs: felduz.FelduzObservation, action: int, out: pb.LegalAction) -> None:
    _felduz_detail(action, obs.closed, out.felduz)


def _felduz_round(obs: felduz.FelduzObservation, out: pb.DealEnded) -> None:
    if obs.last_round is not None:
        _felduz_result(obs.last_round, out.felduz)


CODECS: dict[str, GameCodec] = {
    "as-nas": GameCodec(_as_nas_observation, _as_nas_action, _as_nas_round),
    "felduz": GameCodec(_felduz_observation, _felduz_action, _felduz_round),
}


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
    """The wire form of one arbiter message (``None``: events only) preceded by ``events``."""
    response = _encode(message, codec)
    for event in events:
        if isinstance(event, RoundEnded):  # built from the seat's own observation
            encode_event(event, codec, response.events.add())
        else:
            response.events.add().MergeFromString(
                _EVENTS.get(event, partial(_event_bytes, event, codec))
            )
    return response


def _event_bytes(event: EventMessage, codec: GameCodec) -> bytes:
    msg = pb.Event()
    encode_event(event, codec, msg)
    data: bytes = msg.SerializeToString()
    return data


def _encode(message: Outbound | None, codec: GameCodec) -> pb.PlayResponse:
    if message is None:
        return pb.PlayResponse()
    if isinstance(message, EVENT_TYPES):
        response = pb.PlayResponse()
        encode_event(message, codec, response.events.add())
        return response
    if isinstance(message, DecisionRequest):
        response = pb.PlayResponse()
        decision = response.decision
        decision.request_id = message.request_id
        codec.observation(message.observation, decision.observation)
        clocks = decision.clocks
        clocks.move_time_ms = message.clocks.move_time_ms
        clocks.time_bank_ms = message.clocks.time_bank_ms
        clocks.last_latency_us = message.clocks.last_latency_us
        for action, label in zip(message.legal_actions, message.labels, strict=True):
            legal = decision.legal_actions.add(id=action, label=label)
            codec.action_detail(message.observation, action, legal)
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
        return pb.PlayResponse(
            match_end=pb.MatchEnd(
                cancelled=result.cancelled,
                results=[
                    pb.SeatResult(
                        seat=r.seat,
                        bot_name=r.bot_name,
                        score=score(r.score),
                        place=r.place,
                        outcome=_OUTCOME[r.outcome],
                        timeouts=r.timeouts,
                        rejected=r.rejected,
                    )
                    for r in result.seats
                ],
            )
        )
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
                ),
            )
        )
    raise TypeError(f"no wire form for {type(message).__name__}")


# ---- bot -> arbiter ----------------------------------------------------------------------------


def decode(request: pb.PlayRequest) -> Inbound:
    """The arbiter's reading of one bot message after the handshake."""
    if request.WhichOneof("kind") == "action":
        return Reply(request.action.request_id, request.action.action_id)
    kind = request.WhichOneof("kind")
    return Unexpected(
        "an empty message" if kind is None else f"a {kind} message after the handshake"
    )
