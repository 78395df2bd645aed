"""As-Nas on the wire: observations, action details and deal results as ``croupier.v1`` messages."""

from __future__ import annotations

from functools import cache, lru_cache
from typing import cast

from croupier.games._codec_kit import (
    GameCodec,
    deal_header,
    finished_round,
    message_field,
    score,
    uint_field,
)
from croupier.games.as_nas import rules as as_nas
from croupier.v1 import as_nas_pb2, score_pb2
from croupier.v1 import bot_pb2 as pb


def _rank(rank: int) -> as_nas_pb2.AsNasRank:
    return cast(as_nas_pb2.AsNasRank, rank + 1)


def _move(action: int) -> as_nas_pb2.AsNasMove:
    return cast(as_nas_pb2.AsNasMove, action + 1)


def _result(result: as_nas.DealResult, out: as_nas_pb2.AsNasDealResult) -> None:
    out.deal_index = result.deal_index
    out.dealer = result.dealer
    for seat, ranks in enumerate(result.revealed):
        if ranks is not None:
            out.shown.add(seat=seat, ranks=[_rank(r) for r in ranks])
    out.winners.extend(result.winners)
    out.pot = result.pot
    out.deltas.extend(score(d) for d in result.deltas)


@cache
def _entry(seat: int, action: int) -> as_nas_pb2.AsNasHistoryEntry:
    """One public action's history entry: made once, shared (callers copy it, never change it)."""
    return as_nas_pb2.AsNasHistoryEntry(seat=seat, move=_move(action))


def _history(history: tuple[tuple[int, int], ...]) -> list[as_nas_pb2.AsNasHistoryEntry]:
    return [_entry(s, a) for s, a in history]


@lru_cache(maxsize=4096)
def _seat(stake: int, folded: bool, looked: bool, num: int, den: int) -> as_nas_pb2.AsNasSeat:
    """One seat's public line (its total ``num/den``), made once for each value it takes and
    shared, as :func:`_entry` (keyed by integers: a ``Fraction``'s hash is slow)."""
    total = score_pb2.Score(numerator=num, denominator=den)
    return as_nas_pb2.AsNasSeat(stake=stake, folded=folded, looked=looked, total=total)


def _observation(obs: as_nas.AsNasObservation, out: pb.Observation) -> None:
    msg = out.as_nas
    deal_header(msg, obs)
    msg.to_act = obs.to_act if obs.to_act is not None else 0
    msg.hand.extend([_rank(r) for r in obs.hand])
    lines = zip(obs.stakes, obs.folded, obs.looked, obs.totals, strict=True)
    msg.seats.extend([_seat(s, f, k, t.numerator, t.denominator) for s, f, k, t in lines])
    msg.high_bet = obs.high
    msg.pot = obs.pot
    msg.history.extend(_history(obs.history))


@cache
def _entry_field(seat: int, action: int) -> bytes:
    """A history entry as its ``AsNasObservation.history`` field (9), serialized once."""
    return message_field(b"\x4a", _entry(seat, action).SerializeToString())


@lru_cache(maxsize=4096)
def _seat_field(stake: int, folded: bool, looked: bool, num: int, den: int) -> bytes:
    """A seat's line as its ``AsNasObservation.seats`` field (6), serialized once."""
    return message_field(b"\x32", _seat(stake, folded, looked, num, den).SerializeToString())


@lru_cache(maxsize=1024)
def _hand_field(hand: tuple[int, ...]) -> bytes:
    """The hand as its packed ``AsNasObservation.hand`` field (5); nothing when empty."""
    return message_field(b"\x2a", bytes(r + 1 for r in hand)) if hand else b""


def _observation_bytes(obs: as_nas.AsNasObservation) -> bytes:
    """The serialized ``Observation`` that :func:`_observation` fills, from bytes made once."""
    lines = zip(obs.stakes, obs.folded, obs.looked, obs.totals, strict=True)
    body = b"".join(
        [
            uint_field(b"\x08", obs.deal_index),
            uint_field(b"\x10", obs.num_deals),
            uint_field(b"\x18", obs.dealer),
            uint_field(b"\x20", obs.to_act or 0),
            _hand_field(obs.hand),
            *[_seat_field(s, f, k, t.numerator, t.denominator) for s, f, k, t in lines],
            uint_field(b"\x38", obs.high),
            uint_field(b"\x40", obs.pot),
            *[_entry_field(s, a) for s, a in obs.history],
        ]
    )
    return message_field(b"\x0a", body)


@lru_cache(maxsize=1024)
def _detail(action: int, stake: int) -> bytes:
    """A legal action's ``LegalAction.as_nas`` field (10), serialized once."""
    return message_field(b"\x52", uint_field(b"\x08", action + 1) + uint_field(b"\x10", stake))


def _detail_bytes(obs: as_nas.AsNasObservation, action: int) -> bytes:
    """What :func:`_action` sets, serialized."""
    return _detail(action, _stake_after(obs, action))


def _stake_after(obs: as_nas.AsNasObservation, action: int) -> int:
    """The acting seat's stake after ``action``."""
    if action == as_nas.Action.CALL:
        return obs.high
    if action == as_nas.Action.RAISE:
        return obs.high + 1
    return obs.stakes[obs.to_act if obs.to_act is not None else 0]


def _action(obs: as_nas.AsNasObservation, action: int, out: pb.LegalAction) -> None:
    out.as_nas.move = _move(action)
    out.as_nas.stake_after = _stake_after(obs, action)


def _round(obs: as_nas.AsNasObservation, out: pb.DealEnded) -> None:
    finished_round(obs.past_deals, _history, _result, out.as_nas, out.as_nas_past)


#: The As-Nas codec registered in the game's spec.
CODEC = GameCodec(
    _observation,
    _action,
    _round,
    observation_bytes=_observation_bytes,
    detail_bytes=_detail_bytes,
)
