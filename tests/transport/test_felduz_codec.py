"""The Felduz codec puts exactly the observation on the wire: decode what it encodes and compare.

Covers every phase, each action's typed detail (checked against its label), the finished rounds
with their showdown events, and the round-end message.
"""

from __future__ import annotations

import itertools

from wire_kit import decisions, round_end, round_trip

from croupier.games import TERMINAL, cards40, chips, get_game, get_spec
from croupier.games.felduz.rules import FelduzObservation, RoundResult, field_sum
from croupier.v1 import chips_pb2, felduz_pb2

GAME = get_game("felduz")
CODEC = get_spec("felduz").codec


def _cards(msg: object) -> tuple[int, ...]:
    out = []
    for card in msg:  # type: ignore[attr-defined]
        assert card.value == cards40.VALUES[card.id]
        assert card.label == cards40.CARD_LABELS[card.id]
        out.append(card.id)
    return tuple(out)


def _result(msg: felduz_pb2.FelduzRoundResult, result: RoundResult) -> None:
    assert (msg.round, msg.dealer) == (result.round, result.dealer)
    s = msg.settlement
    assert tuple(s.winners) == result.settlement.winners
    assert (s.pot, tuple(s.shares)) == (result.settlement.pot, result.settlement.shares)
    assert tuple(s.eliminated) == result.settlement.eliminated
    assert s.showdown == result.settlement.showdown
    shown = {f.seat: f for f in msg.shown}
    assert set(shown) == {i for i, f in enumerate(result.fields) if f is not None}
    for seat, f in shown.items():
        assert _cards(f.field) == result.fields[seat]
        assert _cards(f.reserve) == result.reserves[seat]
        assert f.field_sum == field_sum(_cards(f.field))
        assert f.reserve_sum == field_sum(_cards(f.reserve))
    assert [(e.criterion - 1, tuple(e.seats)) for e in msg.events] == [
        (e.criterion, e.seats) for e in result.events
    ]


def _check(obs: FelduzObservation, msg: felduz_pb2.FelduzObservation) -> None:
    assert (msg.round, msg.round_cap, msg.phase - 1) == (obs.round, obs.round_cap, obs.phase)
    assert (msg.to_act if msg.HasField("to_act") else None) == obs.to_act
    assert (msg.turn if msg.HasField("turn") else None) == obs.turn
    assert msg.turn_start - 1 == obs.first
    t = msg.table
    assert tuple(t.stacks) == obs.table.stacks
    assert tuple(t.committed) == obs.table.committed
    assert tuple(t.live) == obs.table.live
    assert (t.amphora, t.cap, t.pot) == (obs.table.amphora, obs.table.cap, chips.pot(obs.table))
    assert t.HasField("bet") == (obs.table.bet is not None)
    assert [_cards(s.open) for s in msg.seats] == list(obs.open_fields)
    assert tuple(s.closed_count for s in msg.seats) == obs.closed_counts
    assert tuple(s.reserve_count for s in msg.seats) == obs.reserve_counts
    assert tuple(s.stood for s in msg.seats) == obs.stood
    assert tuple(s.chosen for s in msg.seats) == obs.chosen
    assert msg.stock == obs.stock
    assert _cards(msg.closed) == obs.closed
    assert _cards(msg.reserve) == obs.reserve
    assert [(h.seat, h.action_id) for h in msg.history] == list(obs.history)
    assert len(msg.past_rounds) == len(obs.past_rounds)
    for wire, past in zip(msg.past_rounds, obs.past_rounds, strict=True):
        assert [(h.seat, h.action_id) for h in wire.history] == list(past.history)
        _result(wire.result, past.result)


def _label_of(detail: felduz_pb2.FelduzAction) -> str:
    """The label an action's typed fields describe (the engine's labels, rebuilt)."""
    cards = "[" + " ".join(c.label for c in detail.cards) + "]"
    move = detail.move
    if move == felduz_pb2.FELDUZ_MOVE_CHIPS:
        names = {chips_pb2.CHIP_MOVE_IN: "In", chips_pb2.CHIP_MOVE_OUT: "Out"}
        if detail.chip.move in names:
            return names[detail.chip.move]
        kind = "Bet" if detail.chip.move == chips_pb2.CHIP_MOVE_BET else "Raise"
        return f"{kind}:{detail.chip.amount}"
    if move == felduz_pb2.FELDUZ_MOVE_OPEN:
        return f"Open:{cards}"
    if move == felduz_pb2.FELDUZ_MOVE_REVEAL:
        return f"Reveal:{detail.cards[0].label}"
    if move == felduz_pb2.FELDUZ_MOVE_RESERVE:
        return f"Reserve:{cards}"
    words = {
        felduz_pb2.FELDUZ_MOVE_NO_BET: "NoBet",
        felduz_pb2.FELDUZ_MOVE_DRAW: "Draw",
        felduz_pb2.FELDUZ_MOVE_STAND: "Stand",
        felduz_pb2.FELDUZ_MOVE_CONTINUE: "Continue",
    }
    return words[move]


def test_every_decision_of_several_matches_decodes_to_its_observation() -> None:
    """Matches are interleaved, which also exercises the codec's cache of finished rounds."""
    matches = [decisions(GAME, {"players": 2 + seed % 3, "stack": 15}, seed) for seed in range(8)]
    checked, rounds, moves = 0, 0, set()
    for steps in itertools.zip_longest(*matches):
        for state, after in filter(None, steps):
            request, decision = round_trip(GAME, CODEC, state)
            _check(request.observation, decision.observation.felduz)
            for action, label in zip(decision.legal_actions, request.labels, strict=True):
                assert action.label == label
                assert _label_of(action.felduz) == label
                moves.add(action.felduz.move)
            checked += 1
            ended_round = GAME.round_index(after) != GAME.round_index(state)
            if not ended_round and GAME.current_player(after) != TERMINAL:
                continue
            seat_obs, event = round_end(GAME, CODEC, after, GAME.current_player(state))
            assert seat_obs.last_round is not None
            _result(event.deal_ended.felduz, seat_obs.last_round)
            rounds += 1
    assert checked > 300
    assert rounds > 10
    assert len(moves) == 8  # every kind of move went through the codec
