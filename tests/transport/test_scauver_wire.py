"""Scauver on the wire: the codec puts exactly the observation on the wire (decode and compare),
typed action details name the cards, and the bytes and tensors sent to a seat do not change
when anything the seat may not see changes."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scauver_kit import redeal, walk
from wire_kit import decisions, round_trip, seat_bytes

from croupier.games import cards40, chips, get_game, get_spec
from croupier.games.scauver import rules as sc
from croupier.v1 import bot_pb2 as pb
from croupier.v1 import scauver_pb2

G = get_game("scauver")
CODEC = get_spec("scauver").codec
SIZE, ENCODE = get_spec("scauver").encoder.size, get_spec("scauver").encoder.encode


def _ids(cards: Any) -> tuple[int, ...]:
    return tuple(c.id for c in cards)


def _field(msg: scauver_pb2.ScauverField) -> sc.Field:
    return (_ids(msg.left), _ids(msg.right))


def _check_result(result: sc.RoundResult, msg: scauver_pb2.ScauverRoundResult) -> None:
    assert (msg.round, msg.dealer) == (result.round_index, result.dealer)
    assert tuple(_field(f) for f in msg.fields) == result.fields
    assert msg.decided_by == int(result.decided_by) + 1
    assert tuple(msg.settlement.shares) == result.settlement.shares
    assert tuple(msg.settlement.winners) == result.winners
    assert msg.settlement.showdown == result.settlement.showdown
    assert len(msg.showings) == len(result.showings)
    for wire, showing in zip(msg.showings, result.showings, strict=True):
        assert wire.seat == showing.seat
        assert _field(wire.field) == (showing.left, showing.right)
        assert wire.difference == showing.difference
        assert wire.linked == (showing.link is not None)
        if showing.link is not None:
            link = showing.link
            assert (_ids(wire.link.left), _ids(wire.link.right)) == (link.left, link.right)
            assert wire.link.value == link.value
            assert (wire.link.greater_cards, wire.link.lesser_cards) == link.shape
            assert wire.score == showing.score


def _check(obs: sc.ScauverObservation, msg: scauver_pb2.ScauverObservation) -> None:
    table = obs.table
    assert tuple(msg.table.stacks) == table.stacks
    assert tuple(msg.table.committed) == table.committed
    assert tuple(msg.table.live) == table.live
    assert msg.table.pot == chips.pot(table)
    assert msg.table.HasField("bet") == (table.bet is not None)
    # while the turn seat's bet is answered, the wire says BET (the rules have moved on to PLACE)
    answering = obs.phase is sc.Phase.PLACE and table.bet is not None
    expected = (
        scauver_pb2.SCAUVER_PHASE_BET
        if answering
        else max(int(obs.phase), scauver_pb2.SCAUVER_PHASE_DEAL)
    )
    assert msg.phase == expected
    assert msg.HasField("to_act") == (obs.to_act is not None)
    assert msg.to_act == (obs.to_act or 0)
    assert msg.HasField("turn_seat") == (obs.turn_seat is not None)
    assert msg.turn_seat == (obs.turn_seat or 0)
    assert msg.turn == obs.turn
    assert _ids(msg.hand) == obs.hand
    assert all(
        c.value == cards40.VALUES[c.id] and c.label == cards40.CARD_LABELS[c.id] for c in msg.hand
    )
    assert tuple(s.hand_size for s in msg.seats) == obs.hand_sizes
    assert tuple(s.opened for s in msg.seats) == obs.opened
    assert tuple(_field(s.field) for s in msg.seats) == obs.fields
    assert msg.stock_size == obs.stock_size
    assert tuple((h.seat, h.action_id) for h in msg.history) == obs.history
    assert len(msg.past_rounds) == len(obs.past_rounds)
    for wire, past in zip(msg.past_rounds, obs.past_rounds, strict=True):
        assert tuple((h.seat, h.action_id) for h in wire.history) == past.history
        _check_result(past.result, wire.result)


def _check_detail(state: Any, action: int, detail: scauver_pb2.ScauverAction) -> None:
    """The typed detail says what the label says."""
    label = G.action_label(state, action)
    if detail.move == scauver_pb2.SCAUVER_MOVE_CHIPS:
        assert label == chips.chip_label(action)
        return
    names = {scauver_pb2.SCAUVER_MOVE_FOLD: "Fold", scauver_pb2.SCAUVER_MOVE_PROCEED: "Proceed"}
    names[scauver_pb2.SCAUVER_MOVE_NO_BET] = "NoBet"
    if detail.move in names:
        assert label == names[detail.move]
        return
    flank = {scauver_pb2.SCAUVER_FLANK_LEFT: "L", scauver_pb2.SCAUVER_FLANK_RIGHT: "R"}
    shown = [f"{p.card.label}→{flank[p.flank]}" for p in detail.placements]
    if detail.move == scauver_pb2.SCAUVER_MOVE_OPEN:
        assert label == "Open:[" + " ".join(shown) + "]"
    elif detail.move == scauver_pb2.SCAUVER_MOVE_PLACE_PAIR:
        assert label == "Place:" + ",".join(shown)
    else:
        assert detail.move == scauver_pb2.SCAUVER_MOVE_PLACE
        assert label == "Place:" + shown[0]


def test_every_decision_of_several_matches_decodes_to_its_observation() -> None:
    checked = 0
    for seed, players in ((1, 2), (2, 3), (3, 4)):
        params = {"players": players, "stack": 6, "round_cap": 12}
        for state, _ in decisions(G, params, seed, _mostly_passive):
            request, decision = round_trip(G, CODEC, state)
            _check(request.observation, decision.observation.scauver)
            for action, legal_msg in zip(
                request.legal_actions, decision.legal_actions, strict=True
            ):
                _check_detail(state, action, legal_msg.scauver)
            checked += 1
    assert checked > 200


def _mostly_passive(state: Any, legal: Sequence[int], rng: np.random.Generator) -> int:
    """The passive action (if any) four times in five, else any legal action."""
    passive = [a for a in legal if a in (sc.PROCEED, sc.NO_BET, chips.IN)]
    return int(passive[0] if passive and rng.random() < 0.8 else legal[rng.integers(len(legal))])


def test_a_round_result_goes_on_the_wire_with_the_chosen_links() -> None:
    state = walk(8, 400, 3)  # well into a match: finished rounds with showdowns
    obs = G.observe(state, None)
    assert any(p.result.showings for p in obs.past_rounds)
    msg = pb.DealEnded()
    CODEC.round_detail(obs, msg)
    _check_result(obs.last_round, msg.scauver)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32 - 1),
    decisions=st.integers(0, 60),
    players=st.integers(2, 4),
    viewer=st.integers(0, 3),
    redeal_seed=st.integers(0, 2**32 - 1),
)
def test_bytes_and_tensors_to_a_seat_ignore_what_it_cannot_see(
    seed: int, decisions: int, players: int, viewer: int, redeal_seed: int
) -> None:
    state = walk(seed, decisions, players)
    viewer %= players
    other = redeal(state, viewer, np.random.default_rng(redeal_seed))
    assert seat_bytes(G, CODEC, other, viewer) == seat_bytes(G, CODEC, state, viewer)
    assert np.array_equal(ENCODE(G.observe(other, viewer)), ENCODE(G.observe(state, viewer)))


def test_the_check_can_fail_an_own_card_changes_the_bytes() -> None:
    state = walk(4, 5, 3)
    seat = G.current_player(state)
    hands = list(state.hands)
    stock = list(state.stock)
    mine = list(hands[seat])
    mine[0], stock[0] = stock[0], mine[0]
    hands[seat] = tuple(sorted(mine))
    changed = state._replace(hands=tuple(hands), stock=tuple(stock))
    assert seat_bytes(G, CODEC, changed, seat) != seat_bytes(G, CODEC, state, seat)


def test_encoding_has_the_declared_size_and_shows_the_own_hand_only() -> None:
    state = walk(5, 0, 4)
    seat = G.current_player(state)
    own = ENCODE(G.observe(state, seat))
    public = ENCODE(G.observe(state, None))
    assert own.shape == public.shape == (SIZE,)
    assert own.dtype == np.float32
    hand = slice(33, 73)
    assert own[hand].sum() == 5
    assert public[hand].sum() == 0
