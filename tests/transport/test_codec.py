"""The codec puts exactly the observation on the wire: decode what it encodes and compare."""

from __future__ import annotations

import itertools
from fractions import Fraction

from wire_kit import decisions, round_trip

from croupier.games import get_game, get_spec
from croupier.games.as_nas.rules import AsNasObservation, DealResult
from croupier.v1 import as_nas_pb2

GAME = get_game("as-nas")
CODEC = get_spec("as-nas").codec


def _result(msg: as_nas_pb2.AsNasDealResult) -> tuple[object, ...]:
    shown = {h.seat: tuple(r - 1 for r in h.ranks) for h in msg.shown}
    return (
        msg.deal_index,
        msg.dealer,
        tuple(shown.get(s) for s in range(4)),
        tuple(msg.winners),
        msg.pot,
        tuple(Fraction(d.numerator, d.denominator) for d in msg.deltas),
    )


def _expected_result(result: DealResult) -> tuple[object, ...]:
    return (result.deal_index, result.dealer, result.revealed, result.winners, result.pot,
            result.deltas)  # fmt: skip


def _check(obs: AsNasObservation, msg: as_nas_pb2.AsNasObservation) -> None:
    assert msg.deal_index == obs.deal_index
    assert msg.dealer == obs.dealer
    assert msg.to_act == obs.to_act
    assert tuple(r - 1 for r in msg.hand) == obs.hand
    assert tuple(s.stake for s in msg.seats) == obs.stakes
    assert tuple(s.folded for s in msg.seats) == obs.folded
    assert tuple(s.looked for s in msg.seats) == obs.looked
    assert tuple(Fraction(s.total.numerator, s.total.denominator) for s in msg.seats) == obs.totals
    assert (msg.high_bet, msg.pot) == (obs.high, obs.pot)
    assert tuple((h.seat, h.move - 1) for h in msg.history) == obs.history
    assert len(msg.past_deals) == len(obs.past_deals)
    for wire, past in zip(msg.past_deals, obs.past_deals, strict=True):
        assert tuple((h.seat, h.move - 1) for h in wire.history) == past.history
        assert _result(wire.result) == _expected_result(past.result)


def test_every_decision_of_several_matches_decodes_to_its_observation() -> None:
    """Several interleaved matches also exercise the codec's cache of finished deals."""
    matches = [decisions(GAME, {"deals": 6}, seed) for seed in range(3)]
    checked = 0
    for steps in itertools.zip_longest(*matches):
        for state, _ in filter(None, steps):
            request, decision = round_trip(GAME, CODEC, state)
            _check(request.observation, decision.observation.as_nas)
            moves = [a.as_nas.move - 1 for a in decision.legal_actions]
            assert moves == list(request.legal_actions)
            checked += 1
    assert checked > 100
