"""Bounded decision messages (protocol 2): a request carries the current round only and a run of
bets or raises as one entry with an amount range; the Python SDK hands bot code the same
observation and the same legal actions as before (every finished round, one entry per action).

The "before" is built here from the rules alone: one ``LegalAction`` per legal id with the
codec's typed fields, and the rules' own record of the finished rounds.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np
import pytest
from wire_kit import decisions

from croupier.arbiter import ClockRules, Clocks, RoundEnded, Welcome, decision_request
from croupier.games import TERMINAL, chips, get_spec
from croupier.games._drive import play, with_chance
from croupier.transport import play_local
from croupier.transport._codec import encode
from croupier_bot import Bot, Decision, LegalActions, Seat
from croupier_bot import proto as pb

#: Long enough for several rounds; chip games with stacks big enough for long bet runs.
PARAMS: dict[str, dict[str, int]] = {
    "as-nas": {"deals": 8},
    "fipsen": {"deals": 3},
    "felduz": {"players": 3, "stack": 300, "round_cap": 6, "double_every": 0},
    "scauver": {"players": 3, "stack": 300, "round_cap": 6, "double_every": 0},
}
FIELD = {"as-nas": ("as_nas", "past_deals"), "fipsen": ("fipsen", "past_deals"),
         "felduz": ("felduz", "past_rounds"), "scauver": ("scauver", "past_rounds")}  # fmt: skip


class _Keep(Bot):
    def __init__(self) -> None:
        self.seen: list[Decision] = []

    def act(self, decision: Decision) -> int:
        self.seen.append(decision)
        return decision.legal_ids[0]


def _full_legal(spec: Any, request: Any) -> list[bytes]:
    """The legal actions as protocol 1 sent them: one entry per id, typed fields from the codec."""
    out = []
    for action, label in zip(request.legal_actions, request.labels, strict=True):
        legal = pb.LegalAction(id=action, label=label)
        spec.codec.action_detail(request.observation, action, legal)
        out.append(legal.SerializeToString(deterministic=True))
    return out


def _history_ids(game: str, entry: Any) -> tuple[tuple[int, int], ...]:
    if game == "as-nas":  # As-Nas entries name the move (action id + 1)
        return tuple((h.seat, h.move - 1) for h in entry.history)
    return tuple((h.seat, h.action_id) for h in entry.history)


@pytest.mark.parametrize("game", sorted(PARAMS))
def test_the_sdk_shows_bot_code_every_finished_round_and_every_legal_action(game: str) -> None:
    """Drive a random match seat by seat as the arbiter does (decisions, each round's end with
    the next message); at every decision the SDK's view equals what protocol 1 carried."""
    spec = get_spec(game)
    rules, codec = spec.game, spec.codec
    params = rules.info.make_params(PARAMS[game])
    oneof, field = FIELD[game]
    n = rules.num_players(rules.initial_state(params))
    bots = [_Keep() for _ in range(n)]
    seats = [Seat(bot) for bot in bots]
    for seat, respond in enumerate(seats):
        respond(encode(Welcome("t", seat, n, game, 1, dict(params), ClockRules(0, 0)), codec))
    pending: list[list[RoundEnded]] = [[] for _ in range(n)]
    start = rules.returns(rules.initial_state(params))
    checked = ranged = 0

    def choose(state: Any, legal: Any, rng: np.random.Generator) -> int:
        """Now and then a bet (so runs go out), mostly passive (so the match lasts)."""
        calm = [a for a in legal if rules.action_label(state, a) in ("In", "Proceed", "NoBet")]
        if calm and rng.random() < 0.8:
            return int(calm[0])
        return int(legal[rng.integers(len(legal))])

    for i, (state, after) in enumerate(decisions(rules, params, 7, choose)):
        seat = rules.current_player(state)
        request = decision_request(rules, state, seat, i + 1, Clocks(0, 0, 0))
        wire = encode(request, codec, pending[seat])
        pending[seat] = []
        seats[seat](wire)
        seen = bots[seat].seen[-1]
        # the legal actions, byte for byte as protocol 1 listed them
        assert seen.legal_ids == list(request.legal_actions)
        expanded = [a.SerializeToString(deterministic=True) for a in seen.legal_actions]
        assert expanded == _full_legal(spec, request)
        ranged += any(a.HasField("amounts") for a in wire.decision.legal_actions)
        # the finished rounds, as the rules recorded them
        past = getattr(getattr(seen.observation, oneof), field)
        expected = getattr(rules.observe(state, seat), field)
        assert len(past) == len(expected)
        for kept, record in zip(past, expected, strict=True):
            assert _history_ids(game, kept) == record.history
        # the current round's fields are the wire's
        assert (
            getattr(seen.observation, oneof).history
            == getattr(wire.decision.observation, oneof).history
        )
        checked += 1
        if rules.current_player(after) == TERMINAL or (
            rules.round_index(after) != rules.round_index(state)
        ):
            totals = rules.returns(after)
            deltas = tuple(t - s for t, s in zip(totals, start, strict=True))
            start = totals
            ended = RoundEnded(0, rules.round_index(state), deltas, totals,
                               rules.observe(after, None))  # fmt: skip
            for queue in pending:
                queue.append(ended)
    assert checked > 30
    assert len(past) >= 2  # several rounds were kept
    if game in ("felduz", "scauver"):
        assert ranged > 5  # bet runs went out as ranges


def test_the_wire_request_no_longer_carries_finished_rounds() -> None:
    for name in ("as-nas", "fipsen", "felduz", "scauver"):
        oneof, field = FIELD[name]
        message = getattr(pb.Observation(), oneof)
        assert field not in message.DESCRIPTOR.fields_by_name, name


def _first_betting_request(stack: int) -> tuple[Any, pb.DecisionRequest]:
    spec = get_spec("scauver")
    rules = spec.game
    params = rules.info.make_params({"stack": stack})
    rng = np.random.default_rng(1)

    def passive(state: Any, player: int) -> int:
        legal = rules.legal_actions(state)
        return int(legal[0])

    for ply in play(rules, rules.initial_state(params), with_chance(rules, rng, passive)):
        state = ply.after
        betting = rules.current_player(state) >= 0 and any(
            chips.BET <= a < chips.RAISE for a in rules.legal_actions(state)
        )
        if betting:
            request = decision_request(rules, state, rules.current_player(state), 1,
                                       Clocks(0, 0, 0))  # fmt: skip
            return request, encode(request, spec.codec).decision
    raise AssertionError("no betting step")


def test_a_run_of_bets_is_one_entry_of_a_few_bytes_and_expands_to_every_amount() -> None:
    _, small = _first_betting_request(10)
    big_request, big = _first_betting_request(1000)
    assert len(big_request.legal_actions) > 900
    (run,) = [a for a in big.legal_actions if a.HasField("amounts")]
    assert (run.amounts.lowest, run.amounts.step) == (1, 1)
    assert run.label == "Bet:1"
    assert run.scauver.chip.amount == 1
    assert run.amounts.highest == big_request.legal_actions[-3] - big_request.legal_actions[0] + 1
    assert len(big.legal_actions) == len(small.legal_actions)  # one entry however many amounts
    assert big.ByteSize() < small.ByteSize() + 16  # a few bytes more for larger numbers
    actions = LegalActions(big.legal_actions)
    assert len(actions) == len(big_request.legal_actions)
    assert [a.label for a in actions[:3]] == ["Bet:1", "Bet:2", "Bet:3"]
    assert actions[-3].label == big_request.labels[-3]
    assert actions[-3].scauver.chip.amount == int(big_request.labels[-3].split(":")[1])
    assert not actions[5].HasField("amounts")


def test_an_amount_range_with_a_step_expands_to_ids_that_step_with_the_amounts() -> None:
    entry = pb.LegalAction(id=2 + 4, label="Bet:4", amounts=pb.AmountRange(lowest=4, highest=16,
                                                                            step=4))  # fmt: skip
    entry.felduz.move = pb.FELDUZ_MOVE_CHIPS
    entry.felduz.chip.move = pb.CHIP_MOVE_BET
    entry.felduz.chip.amount = 4
    fold = pb.LegalAction(id=4004, label="NoBet")
    actions = LegalActions([entry, fold])
    assert actions.ids == [6, 10, 14, 18, 4004]
    assert [a.id for a in actions] == actions.ids
    assert [a.label for a in actions] == ["Bet:4", "Bet:8", "Bet:12", "Bet:16", "NoBet"]
    assert [a.felduz.chip.amount for a in actions[:4]] == [4, 8, 12, 16]
    assert actions[-1] is fold
    with pytest.raises(IndexError):
        actions[5]


def test_in_process_play_hands_the_sdk_every_finished_round() -> None:
    """``play_local`` sends each round's end too, so a bot reading past rounds works there."""

    class Counting(Bot):
        def __init__(self) -> None:
            self.max_past = 0
            self.deals_seen = 0

        def act(self, decision: Decision) -> int:
            past = decision.observation.as_nas.past_deals
            assert len(past) == decision.observation.as_nas.deal_index
            assert all(p.result.deal_index == i for i, p in enumerate(past))
            self.max_past = max(self.max_past, len(past))
            return decision.legal_ids[-1]

        def on_event(self, event: Any) -> None:
            self.deals_seen += event.WhichOneof("kind") == "deal_ended"

    bots = [Counting() for _ in range(4)]
    scores = play_local("as-nas", {"deals": 5}, 3, [Seat(b) for b in bots])
    assert sum(scores) == Fraction(0)
    assert max(b.max_past for b in bots) == 4
    assert all(b.deals_seen == 5 for b in bots)  # the last deal's end comes after the last act
