"""Scauver on the wire: observations, action details and round results as ``croupier.v1``
messages."""

from __future__ import annotations

from functools import cache
from typing import cast

from croupier.games._chips_codec import (
    amount_runs,
    card_msg,
    card_msgs,
    chip_action,
    chip_settlement,
    chip_table,
)
from croupier.games._codec_kit import (
    GameCodec,
    finished_round,
    history_encoder,
    message_field,
    uint_field,
)
from croupier.games.scauver import rules as sc
from croupier.v1 import bot_pb2 as pb
from croupier.v1 import scauver_pb2

_FLANK = (scauver_pb2.SCAUVER_FLANK_LEFT, scauver_pb2.SCAUVER_FLANK_RIGHT)
_KINDS = {
    sc.MoveKind.CHIPS: scauver_pb2.SCAUVER_MOVE_CHIPS,
    sc.MoveKind.FOLD: scauver_pb2.SCAUVER_MOVE_FOLD,
    sc.MoveKind.PROCEED: scauver_pb2.SCAUVER_MOVE_PROCEED,
    sc.MoveKind.NO_BET: scauver_pb2.SCAUVER_MOVE_NO_BET,
    sc.MoveKind.PLACE: scauver_pb2.SCAUVER_MOVE_PLACE,
    sc.MoveKind.PLACE_PAIR: scauver_pb2.SCAUVER_MOVE_PLACE_PAIR,
    sc.MoveKind.OPEN: scauver_pb2.SCAUVER_MOVE_OPEN,
}


def _move(move: sc.Move, out: scauver_pb2.ScauverAction) -> None:
    """Fill ``out`` with the typed fields of a Scauver move."""
    out.move = _KINDS[move.kind]
    if move.chip is not None:
        chip_action(move.chip, out.chip)
    for card, flank in move.placements:
        out.placements.add(card=card_msg(card), flank=_FLANK[flank])


def _field(field: sc.Field, out: scauver_pb2.ScauverField) -> None:
    out.left.extend(card_msgs(field[sc.LEFT]))
    out.right.extend(card_msgs(field[sc.RIGHT]))


@cache
def _detail(action: int) -> scauver_pb2.ScauverAction:
    """A Scauver action's typed fields when its id names everything (any id but an opening's,
    so every public one): made once per id, a shared message copied, never modified."""
    out = scauver_pb2.ScauverAction()
    _move(sc.move(action), out)
    return out


_history = history_encoder(scauver_pb2.ScauverHistoryEntry, _detail)


def _result(result: sc.RoundResult, out: scauver_pb2.ScauverRoundResult) -> None:
    out.round = result.round_index
    out.dealer = result.dealer
    for field in result.fields:
        _field(field, out.fields.add())
    for showing in result.showings:
        msg = out.showings.add(seat=showing.seat, difference=showing.difference)
        _field((showing.left, showing.right), msg.field)
        link = showing.link
        if link is not None and showing.score is not None:
            msg.linked = True
            msg.score = showing.score
            msg.link.left.extend(card_msgs(link.left))
            msg.link.right.extend(card_msgs(link.right))
            msg.link.value = link.value
            msg.link.greater_cards, msg.link.lesser_cards = link.shape
    out.decided_by = cast(scauver_pb2.ScauverCriterion, int(result.decided_by) + 1)
    chip_settlement(result.settlement, out.settlement)


def _phase(obs: sc.ScauverObservation) -> scauver_pb2.ScauverPhase:
    """The wire phase: the rules move on to PLACE as soon as the turn seat bets, but while that
    bet is being answered (IN, OUT, RAISE) the wire still says BET, where the answers belong."""
    phase = obs.phase
    if phase is sc.Phase.DRAW_DEALER:
        return scauver_pb2.SCAUVER_PHASE_DEAL
    if phase is sc.Phase.PLACE and obs.table.bet is not None:
        return scauver_pb2.SCAUVER_PHASE_BET
    return cast(scauver_pb2.ScauverPhase, int(phase))


def _observation(obs: sc.ScauverObservation, out: pb.Observation) -> None:
    msg = out.scauver
    chip_table(obs.table, obs.round_cap, msg.table)
    msg.phase = _phase(obs)
    if obs.to_act is not None:
        msg.to_act = obs.to_act
    if obs.turn_seat is not None:
        msg.turn_seat = obs.turn_seat
    msg.turn = obs.turn
    msg.hand.extend(card_msgs(obs.hand))
    for s, field in enumerate(obs.fields):
        seat = msg.seats.add(hand_size=obs.hand_sizes[s], opened=obs.opened[s])
        _field(field, seat.field)
    msg.stock_size = obs.stock_size
    msg.history.extend(_history(obs.history))


def _action(obs: sc.ScauverObservation, action: int, out: pb.LegalAction) -> None:
    if sc.is_opening(action):  # the one id whose cards depend on the hand (never public)
        _move(sc.move(action, obs.hand), out.scauver)
    else:
        out.scauver.CopyFrom(_detail(action))


_SCAUVER_TAG = b"\x6a"  # LegalAction.scauver = 13, length-delimited
_OPEN_MOVE = uint_field(b"\x08", scauver_pb2.SCAUVER_MOVE_OPEN)  # ScauverAction.move = 1


@cache
def _placement_field(card: int, flank: int) -> bytes:
    """One placement as its ``ScauverAction.placements`` field (3), serialized once."""
    placement = scauver_pb2.ScauverPlacement(card=card_msg(card), flank=_FLANK[flank])
    return message_field(b"\x1a", placement.SerializeToString())


@cache
def _detail_field(action: int) -> bytes:
    """A legal action's ``LegalAction.scauver`` field for any id but an opening's (its typed
    fields name everything), serialized once per id."""
    return message_field(_SCAUVER_TAG, _detail(action).SerializeToString())


def _detail_bytes(obs: sc.ScauverObservation, action: int) -> bytes:
    """What :func:`_action` sets, serialized: an opening (80 of them legal at once, each
    depending on the hand) from its placements' fields, made once for each card and flank."""
    if sc.is_opening(action):
        placements = [_placement_field(c, f) for c, f in sc.open_choice(obs.hand, action)]
        return message_field(_SCAUVER_TAG, _OPEN_MOVE + b"".join(placements))
    return _detail_field(action)


def _round(obs: sc.ScauverObservation, out: pb.DealEnded) -> None:
    finished_round(obs.past_rounds, _history, _result, out.scauver, out.scauver_past)


#: The Scauver codec registered in the game's spec (its details as bytes; its observation is
#: serialized from the message: a decision's cost is in its legal actions).
CODEC = GameCodec(_observation, _action, _round, amount_runs, detail_bytes=_detail_bytes)
