"""Felduz on the wire: observations, action details and round results as ``croupier.v1``
messages."""

from __future__ import annotations

from functools import cache
from typing import cast

from croupier.games._chips_codec import (
    card_msgs,
    chip_action,
    chip_settlement,
    chip_table,
)
from croupier.games._codec_kit import GameCodec, history_encoder, merge_past
from croupier.games.felduz import rules as felduz
from croupier.v1 import bot_pb2 as pb
from croupier.v1 import felduz_pb2

_KINDS = {
    felduz.MoveKind.CHIPS: felduz_pb2.FELDUZ_MOVE_CHIPS,
    felduz.MoveKind.NO_BET: felduz_pb2.FELDUZ_MOVE_NO_BET,
    felduz.MoveKind.DRAW: felduz_pb2.FELDUZ_MOVE_DRAW,
    felduz.MoveKind.STAND: felduz_pb2.FELDUZ_MOVE_STAND,
    felduz.MoveKind.CONTINUE: felduz_pb2.FELDUZ_MOVE_CONTINUE,
    felduz.MoveKind.OPEN: felduz_pb2.FELDUZ_MOVE_OPEN,
    felduz.MoveKind.REVEAL: felduz_pb2.FELDUZ_MOVE_REVEAL,
    felduz.MoveKind.RESERVE: felduz_pb2.FELDUZ_MOVE_RESERVE,
}


def _detail(move: felduz.Move, out: felduz_pb2.FelduzAction) -> None:
    """Fill ``out`` with a Felduz move's typed fields."""
    out.move = _KINDS[move.kind]
    if move.chip is not None:
        chip_action(move.chip, out.chip)
    out.cards.extend(card_msgs(move.cards))


@cache
def _public(action: int) -> felduz_pb2.FelduzAction:
    """A Felduz action's typed fields when its id names everything (any id but a split's, so
    every public one): made once per id, a shared message copied, never modified."""
    out = felduz_pb2.FelduzAction()
    _detail(felduz.move(action), out)
    return out


_history = history_encoder(felduz_pb2.FelduzHistoryEntry, _public)


def _result(result: felduz.RoundResult, out: felduz_pb2.FelduzRoundResult) -> None:
    out.round = result.round
    out.dealer = result.dealer
    chip_settlement(result.settlement, out.settlement)
    for seat, field in enumerate(result.fields):
        reserve = result.reserves[seat]
        if field is not None and reserve is not None:
            out.shown.add(
                seat=seat,
                field=card_msgs(field),
                reserve=card_msgs(reserve),
                field_sum=felduz.field_sum(field),
                reserve_sum=felduz.field_sum(reserve),
            )
    for event in result.events:
        criterion = cast(felduz_pb2.FelduzCriterion, event.criterion + 1)
        out.events.add(criterion=criterion, seats=event.seats)


def _observation(obs: felduz.FelduzObservation, out: pb.Observation) -> None:
    msg = out.felduz
    merge_past(msg, "past_rounds", obs.past_rounds, _history, _result)
    msg.round = obs.round
    msg.round_cap = obs.round_cap
    msg.phase = cast(felduz_pb2.FelduzPhase, obs.phase + 1)
    if obs.to_act is not None:
        msg.to_act = obs.to_act
    if obs.turn is not None:
        msg.turn = obs.turn
    msg.turn_start = cast(felduz_pb2.FelduzTurnStart, obs.first + 1)
    chip_table(obs.table, obs.round_cap, msg.table)
    for s, opened in enumerate(obs.open_fields):
        msg.seats.add(
            open=card_msgs(opened),
            closed_count=obs.closed_counts[s],
            reserve_count=obs.reserve_counts[s],
            stood=obs.stood[s],
            chosen=obs.chosen[s],
        )
    msg.stock = obs.stock
    msg.closed.extend(card_msgs(obs.closed))
    msg.reserve.extend(card_msgs(obs.reserve))
    msg.history.extend(_history(obs.history))


def _action(obs: felduz.FelduzObservation, action: int, out: pb.LegalAction) -> None:
    if felduz.is_split(action):  # the one id whose cards depend on the hand (never public)
        _detail(felduz.move(action, obs.closed), out.felduz)
    else:
        out.felduz.CopyFrom(_public(action))


def _round(obs: felduz.FelduzObservation, out: pb.DealEnded) -> None:
    if obs.last_round is not None:
        _result(obs.last_round, out.felduz)


#: The Felduz codec registered in the game's spec.
CODEC = GameCodec(_observation, _action, _round)
