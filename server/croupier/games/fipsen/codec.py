"""Fipsen on the wire: observations, action details and deal results as ``croupier.v1`` messages."""

from __future__ import annotations

from functools import cache
from typing import cast

from croupier.games._codec_kit import GameCodec, deal_header, history_encoder, merge_past, score
from croupier.games.fipsen import rules as fipsen
from croupier.v1 import bot_pb2 as pb
from croupier.v1 import fipsen_pb2


def _card(card: int) -> fipsen_pb2.FipsenCard:
    return fipsen_pb2.FipsenCard(
        id=card,
        suit=cast(fipsen_pb2.FipsenSuit, fipsen.card_suit(card) + 1),
        rank=cast(fipsen_pb2.FipsenRank, fipsen.card_rank(card) + 1),
    )


#: Every card's message, made once.
_FIPSEN_CARDS = tuple(_card(c) for c in range(fipsen.DECK_SIZE))


def _cards(cards: tuple[int, ...]) -> list[fipsen_pb2.FipsenCard]:
    return [_FIPSEN_CARDS[c] for c in cards]


def _suit(suit: int | None) -> fipsen_pb2.FipsenSuit:
    return cast(fipsen_pb2.FipsenSuit, 0 if suit is None else suit + 1)


def _bid(bid: fipsen.Bid, out: fipsen_pb2.FipsenBid) -> None:
    out.tricks = bid.tricks
    out.hand, out.ruten, out.durch, out.kieker = bid.hand, bid.ruten, bid.durch, bid.kieker


def _bid_of(action: int, out: fipsen_pb2.FipsenBid) -> None:
    """The bid a bid id names (a standing bid, a contract)."""
    bid = fipsen.move(action).bid
    if bid is not None:
        _bid(bid, out)


_FIPSEN_MOVES = {
    fipsen.MoveKind.PASS: fipsen_pb2.FIPSEN_MOVE_PASS,
    fipsen.MoveKind.HOLD: fipsen_pb2.FIPSEN_MOVE_HOLD,
    fipsen.MoveKind.BID: fipsen_pb2.FIPSEN_MOVE_BID,
    fipsen.MoveKind.SIEBENER_FIPS: fipsen_pb2.FIPSEN_MOVE_SIEBENER_FIPS,
    fipsen.MoveKind.DECLINE_FIPS: fipsen_pb2.FIPSEN_MOVE_DECLINE_FIPS,
    fipsen.MoveKind.TAKE_SKAT: fipsen_pb2.FIPSEN_MOVE_TAKE_SKAT,
    fipsen.MoveKind.PLAY_HAND: fipsen_pb2.FIPSEN_MOVE_PLAY_HAND,
    fipsen.MoveKind.DISCARD: fipsen_pb2.FIPSEN_MOVE_DISCARD,
    fipsen.MoveKind.TRUMP: fipsen_pb2.FIPSEN_MOVE_TRUMP,
    fipsen.MoveKind.PLAY: fipsen_pb2.FIPSEN_MOVE_PLAY,
    fipsen.MoveKind.STOP: fipsen_pb2.FIPSEN_MOVE_STOP,
    fipsen.MoveKind.DURCH: fipsen_pb2.FIPSEN_MOVE_DURCH,
}


@cache
def _detail(action: int) -> fipsen_pb2.FipsenAction:
    """The typed fields of an action id's move (the bid a HOLD takes over is added by the
    caller): made once per id, a shared message that callers copy and never modify."""
    move = fipsen.move(action)
    out = fipsen_pb2.FipsenAction(move=_FIPSEN_MOVES[move.kind])
    if move.bid is not None:
        if move.bid.kieker:
            out.move = fipsen_pb2.FIPSEN_MOVE_KIEKER
        _bid(move.bid, out.bid)
    if move.card is not None:
        out.card.CopyFrom(_FIPSEN_CARDS[move.card])
    if move.suit is not None:
        out.trump = _suit(move.suit)
    return out


_history = history_encoder(fipsen_pb2.FipsenHistoryEntry, _detail)


def _result(result: fipsen.DealResult, out: fipsen_pb2.FipsenDealResult) -> None:
    out.deal_index = result.deal_index
    out.dealer = result.dealer
    out.outcome = cast(fipsen_pb2.FipsenDealOutcome, result.outcome + 1)
    if result.declarer is not None:
        out.declarer = result.declarer
    if result.contract is not None:
        _bid_of(result.contract, out.contract)
    out.trump = _suit(result.trump)
    out.hand, out.ruten, out.durch = result.hand, result.ruten, result.durch
    out.declarer_tricks = result.declarer_tricks
    out.value = result.value
    out.revealed.extend(_cards(result.revealed))
    out.deltas.extend(score(d) for d in result.deltas)


_FIPSEN_PHASES = {
    fipsen.Phase.DRAW_DEALER: fipsen_pb2.FIPSEN_PHASE_BETWEEN_DEALS,
    fipsen.Phase.DEAL: fipsen_pb2.FIPSEN_PHASE_BETWEEN_DEALS,
    fipsen.Phase.SIEBENER_FIPS: fipsen_pb2.FIPSEN_PHASE_SIEBENER_FIPS,
    fipsen.Phase.BIDDING: fipsen_pb2.FIPSEN_PHASE_BIDDING,
    fipsen.Phase.SKAT: fipsen_pb2.FIPSEN_PHASE_SKAT,
    fipsen.Phase.DISCARD: fipsen_pb2.FIPSEN_PHASE_DISCARD,
    fipsen.Phase.TRUMP: fipsen_pb2.FIPSEN_PHASE_TRUMP,
    fipsen.Phase.PLAY: fipsen_pb2.FIPSEN_PHASE_PLAY,
    fipsen.Phase.STOP_OR_DURCH: fipsen_pb2.FIPSEN_PHASE_STOP_OR_DURCH,
    fipsen.Phase.OVER: fipsen_pb2.FIPSEN_PHASE_OVER,
}


def _observation(obs: fipsen.FipsenObservation, out: pb.Observation) -> None:
    msg = out.fipsen
    merge_past(msg, "past_deals", obs.past_deals, _history, _result)
    deal_header(msg, obs)
    msg.phase = _FIPSEN_PHASES[obs.phase]
    if obs.to_act is not None:
        msg.to_act = obs.to_act
    msg.hand.extend(_cards(obs.hand))
    msg.history.extend(_history(obs.history))
    if obs.standing_bid is not None:
        _bid_of(obs.standing_bid, msg.standing_bid)
    msg.passed.extend(obs.passed)
    if obs.declarer is not None:
        msg.declarer = obs.declarer
    if obs.contract is not None:
        _bid_of(obs.contract, msg.contract)
    msg.trump = _suit(obs.trump)
    msg.hand_applied = obs.hand_applied
    msg.ruten_applied = obs.ruten_applied
    msg.durch_applied = obs.durch_applied
    msg.skat_taken = obs.skat_taken
    msg.skat.extend(_cards(obs.skat))
    msg.discards.extend(_cards(obs.discards))
    for trick in obs.tricks:
        msg.tricks.add(leader=trick.leader, cards=_cards(trick.cards), winner=trick.winner)
    if obs.trick_leader is not None:
        msg.trick_leader = obs.trick_leader
    msg.trick_cards.extend(_cards(obs.trick_cards))
    msg.declarer_tricks = obs.declarer_tricks
    msg.defender_tricks = obs.defender_tricks
    msg.totals.extend(score(t) for t in obs.totals)


def _action(obs: fipsen.FipsenObservation, action: int, out: pb.LegalAction) -> None:
    out.fipsen.CopyFrom(_detail(action))
    if action == fipsen.Action.HOLD and obs.standing_bid is not None:
        _bid_of(obs.standing_bid, out.fipsen.bid)


def _round(obs: fipsen.FipsenObservation, out: pb.DealEnded) -> None:
    if obs.last_deal is not None:
        _result(obs.last_deal, out.fipsen)


#: The Fipsen codec registered in the game's spec.
CODEC = GameCodec(_observation, _action, _round)
