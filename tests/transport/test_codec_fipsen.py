"""The Fipsen codec puts exactly the observation on the wire: decode what it encodes and compare
field by field with the observation it came from (and the action details with the action ids)."""

from __future__ import annotations

from fractions import Fraction

from wire_kit import decisions, round_end, round_trip

from croupier.games import TERMINAL, get_game, get_spec
from croupier.games._rules import PastRound
from croupier.games.fipsen.rules import (
    BIDS,
    Action,
    DealOutcome,
    DealResult,
    FipsenObservation,
    Phase,
    Trick,
    card_rank,
    card_suit,
    move,
    trick_winner,
)
from croupier.v1 import fipsen_pb2, score_pb2

GAME = get_game("fipsen")
CODEC = get_spec("fipsen").codec
PHASES = {
    fipsen_pb2.FIPSEN_PHASE_SIEBENER_FIPS: Phase.SIEBENER_FIPS,
    fipsen_pb2.FIPSEN_PHASE_BIDDING: Phase.BIDDING,
    fipsen_pb2.FIPSEN_PHASE_SKAT: Phase.SKAT,
    fipsen_pb2.FIPSEN_PHASE_DISCARD: Phase.DISCARD,
    fipsen_pb2.FIPSEN_PHASE_TRUMP: Phase.TRUMP,
    fipsen_pb2.FIPSEN_PHASE_PLAY: Phase.PLAY,
    fipsen_pb2.FIPSEN_PHASE_STOP_OR_DURCH: Phase.STOP_OR_DURCH,
    fipsen_pb2.FIPSEN_PHASE_BETWEEN_DEALS: Phase.DEAL,
    fipsen_pb2.FIPSEN_PHASE_OVER: Phase.OVER,
}


def _cards(cards: list[fipsen_pb2.FipsenCard]) -> tuple[int, ...]:
    for c in cards:
        assert (c.suit - 1, c.rank - 1) == (card_suit(c.id), card_rank(c.id))
    return tuple(c.id for c in cards)


def _bid(msg: fipsen_pb2.FipsenBid) -> int | None:
    if msg.tricks == 0:
        return None
    bid = (msg.tricks, msg.hand, msg.ruten, msg.durch, msg.kieker)
    return int(Action.BID_BASE) + [tuple(b) for b in BIDS].index(bid)


def _history(entries: list[fipsen_pb2.FipsenHistoryEntry]) -> tuple[tuple[int, int], ...]:
    for e in entries:
        _check_detail(e.action_id, e.action)
    return tuple((e.seat, e.action_id) for e in entries)


def _scores(scores: list[score_pb2.Score]) -> tuple[Fraction, ...]:
    return tuple(Fraction(s.numerator, s.denominator) for s in scores)


def _tricks(
    history: tuple[tuple[int, int], ...], dealer: int, trump: int | None
) -> tuple[Trick, ...]:
    """The finished tricks a deal's public actions imply: the wire's deal result does not repeat
    them, the engine's does."""
    plays = [(s, a - Action.PLAY_BASE) for s, a in history if Action.PLAY_BASE <= a < Action.STOP]
    tricks, leader = [], (dealer + 1) % 4
    for k in range(0, len(plays) - 3, 4):
        assert [s for s, _ in plays[k : k + 4]] == [(leader + i) % 4 for i in range(4)]
        cards = tuple(c for _, c in plays[k : k + 4])
        assert trump is not None
        winner = trick_winner(cards, leader, trump)
        tricks.append(Trick(leader, cards, winner))
        leader = winner
    return tuple(tricks)


def _result(msg: fipsen_pb2.FipsenDealResult, history: tuple[tuple[int, int], ...]) -> DealResult:
    trump = msg.trump - 1 if msg.trump else None
    return DealResult(
        deal_index=msg.deal_index,
        dealer=msg.dealer,
        outcome=DealOutcome(msg.outcome - 1),
        declarer=msg.declarer if msg.HasField("declarer") else None,
        contract=_bid(msg.contract),
        trump=trump,
        hand=msg.hand,
        ruten=msg.ruten,
        durch=msg.durch,
        declarer_tricks=msg.declarer_tricks,
        value=msg.value,
        revealed=_cards(list(msg.revealed)),
        deltas=_scores(list(msg.deltas)),
        tricks=_tricks(history, msg.dealer, trump),
    )


def decode(msg: fipsen_pb2.FipsenObservation, seat: int | None, phase: Phase) -> FipsenObservation:
    """The observation the message describes (``phase`` only disambiguates between deals)."""
    wire_phase = PHASES[msg.phase]
    assert wire_phase == phase or (wire_phase is Phase.DEAL and phase is Phase.DRAW_DEALER)
    return FipsenObservation(
        seat=seat,
        deal_index=msg.deal_index,
        num_deals=msg.num_deals,
        dealer=msg.dealer,
        phase=phase,
        to_act=msg.to_act if msg.HasField("to_act") else None,
        hand=_cards(list(msg.hand)),
        history=_history(list(msg.history)),
        standing_bid=_bid(msg.standing_bid),
        passed=tuple(msg.passed),
        declarer=msg.declarer if msg.HasField("declarer") else None,
        contract=_bid(msg.contract),
        trump=msg.trump - 1 if msg.trump else None,
        hand_applied=msg.hand_applied,
        ruten_applied=msg.ruten_applied,
        durch_applied=msg.durch_applied,
        skat_taken=msg.skat_taken,
        skat=_cards(list(msg.skat)),
        discards=_cards(list(msg.discards)),
        tricks=tuple(Trick(t.leader, _cards(list(t.cards)), t.winner) for t in msg.tricks),
        trick_leader=msg.trick_leader if msg.HasField("trick_leader") else None,
        trick_cards=_cards(list(msg.trick_cards)),
        declarer_tricks=msg.declarer_tricks,
        defender_tricks=msg.defender_tricks,
        totals=_scores(list(msg.totals)),
        past_deals=tuple(_past(p) for p in msg.past_deals),
    )


def _past(msg: fipsen_pb2.FipsenPastDeal) -> PastRound[DealResult]:
    history = _history(list(msg.history))
    return PastRound(history, _result(msg.result, history))


def _check_detail(action: int, detail: fipsen_pb2.FipsenAction) -> None:
    bid = move(action).bid
    if bid is not None:
        kind = fipsen_pb2.FIPSEN_MOVE_KIEKER if bid.kieker else fipsen_pb2.FIPSEN_MOVE_BID
        assert detail.move == kind
        assert _bid(detail.bid) == action
    elif Action.DISCARD_BASE <= action < Action.TRUMP_BASE:
        assert detail.move == fipsen_pb2.FIPSEN_MOVE_DISCARD
        assert detail.card.id == action - Action.DISCARD_BASE
    elif Action.PLAY_BASE <= action < Action.STOP:
        assert detail.move == fipsen_pb2.FIPSEN_MOVE_PLAY
        assert detail.card.id == action - Action.PLAY_BASE
    elif Action.TRUMP_BASE <= action < Action.PLAY_BASE:
        assert detail.move == fipsen_pb2.FIPSEN_MOVE_TRUMP
        assert detail.trump - 1 == action - Action.TRUMP_BASE
    else:
        names = {0: "PASS", 1: "HOLD", 31: "SIEBENER_FIPS", 32: "DECLINE_FIPS", 33: "TAKE_SKAT",
                 34: "PLAY_HAND", 89: "STOP", 90: "DURCH"}  # fmt: skip
        assert fipsen_pb2.FipsenMove.Name(detail.move) == f"FIPSEN_MOVE_{names[action]}"


def test_every_decision_and_deal_end_decodes_to_its_observation() -> None:
    checked = ended = 0
    for seed in range(4):
        for state, after in decisions(GAME, {"deals": 5}, seed):
            request, decision = round_trip(GAME, CODEC, state)
            obs = request.observation
            assert decode(decision.observation.fipsen, obs.seat, obs.phase) == obs
            for a in decision.legal_actions:
                _check_detail(a.id, a.fipsen)
                if a.id == Action.HOLD:
                    assert _bid(a.fipsen.bid) == obs.standing_bid
            checked += 1
            if GAME.round_index(after) != GAME.round_index(state) or (
                GAME.current_player(after) == TERMINAL
            ):
                seat_obs, event = round_end(GAME, CODEC, after, 0)
                assert seat_obs.last_deal is not None
                history = seat_obs.past_deals[-1].history
                assert _result(event.deal_ended.fipsen, history) == seat_obs.last_deal
                ended += 1
    assert checked > 200
    assert ended == 20
