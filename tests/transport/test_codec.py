"""The codec puts exactly the observation on the wire: decode what it encodes and compare."""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from croupier.arbiter import Clocks, DecisionRequest
from croupier.games import CHANCE, TERMINAL, get_game
from croupier.games.as_nas import AsNasObservation, DealResult
from croupier.transport._codec import CODECS, encode
from croupier.v1 import bot_pb2 as pb

GAME = get_game("as-nas")


def _result(msg: pb.AsNasDealResult) -> tuple[object, ...]:
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


def _check(obs: AsNasObservation, msg: pb.AsNasObservation) -> None:
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
    rngs = [np.random.default_rng(seed) for seed in range(3)]
    states = [GAME.initial_state({"deals": 6}) for _ in rngs]
    checked = 0
    while any(GAME.current_player(s) != TERMINAL for s in states):
        for i, rng in enumerate(rngs):
            state = states[i]
            player = GAME.current_player(state)
            if player == TERMINAL:
                continue
            if player == CHANCE:
                states[i] = GAME.apply_chance(state, GAME.sample_chance(state, rng))
                continue
            legal = GAME.legal_actions(state)
            labels = tuple(GAME.action_label(state, a) for a in legal)
            obs = GAME.observe(state, player)
            wire = encode(DecisionRequest(9, obs, legal, labels, Clocks(1, 2, 3)), CODECS["as-nas"])
            again = pb.PlayResponse.FromString(wire.SerializeToString())
            _check(obs, again.decision.observation.as_nas)
            assert [a.id for a in again.decision.legal_actions] == list(legal)
            assert [a.label for a in again.decision.legal_actions] == list(labels)
            assert [a.as_nas.move - 1 for a in again.decision.legal_actions] == list(legal)
            states[i] = GAME.apply(state, legal[rng.integers(len(legal))])
            checked += 1
    assert checked > 100
