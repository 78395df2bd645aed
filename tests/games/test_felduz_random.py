"""Felduz random play: 1,000 matches at each of 2, 3 and 4 players, invariants after every step.

The bulk uses a small stack (20 chips, A = 1 doubling every 5 rounds, cap 40 rounds) so that
matches see eliminations and many rounds quickly; a few matches use the default parameters.
Every generator is seeded explicitly, so a failure reproduces.
"""

from __future__ import annotations

import itertools
from collections import Counter

import numpy as np
import pytest
from felduz_kit import G, all_cards, random_match

from croupier.games import CHANCE, TERMINAL, cards40, chips
from croupier.games.felduz.rules import (
    CONTINUE,
    DRAW,
    NUM_ACTIONS,
    QUALIFY,
    RESERVE,
    REVEAL,
    SPLIT,
    STAND,
    Criterion,
    FelduzState,
    First,
    Phase,
    field_sum,
    reserve_cards,
    showdown,
)

SEED = 20_261_130
SMALL = {"stack": 20, "amphora": 1, "double_every": 5, "round_cap": 40}
MATCHES = 1_000
#: Matches in which every seat's observation is checked at every step (the public one always is).
VIEW_MATCHES = 300
DECK = list(range(cards40.DECK_SIZE))


def check_state(state: FelduzState, total: int, views: bool = True) -> None:
    """Invariants of any state; with ``views``, also of every seat's observation."""
    table = state.table
    n = state.config.players
    assert sum(chips.chips(table)) == total, "chips are not conserved"
    assert all(s >= 0 for s in table.stacks)
    assert all(c <= table.cap or table.round < 0 for c in table.committed)
    player = G.current_player(state)
    if player < 0:
        assert G.legal_actions(state) == ()
        if state.phase is Phase.DEAL:
            assert all_cards(state) == []
        return
    assert all_cards(state) == DECK, "cards are not conserved"
    assert table.out_round[player] < 0, "an eliminated seat acts"
    assert table.live[player], "a seat out of the round acts"
    legal = G.legal_actions(state)
    assert legal, "no legal action"
    assert all(a < b for a, b in itertools.pairwise(legal)), "not strictly ascending"
    assert legal[0] >= 0
    assert legal[-1] < NUM_ACTIONS
    assert G.default_action(state) in legal
    answering = table.bet is not None
    assert (chips.OUT in legal) == answering, "OUT outside an answer (or missing in one)"
    for s in range(n):
        if table.out_round[s] >= 0:
            assert state.open[s] == state.closed[s] == state.reserve[s] == ()
        elif state.phase is Phase.OPENING:
            assert len(state.closed[s]) == 5
        elif s == state.turn_seat and state.first is First.DRAW and state.phase <= Phase.REVEAL:
            assert len(state.closed[s]) == 3  # drawn, not yet revealed
        elif not table.live[s]:  # out of the round, possibly in the middle of its turn
            assert len(state.closed[s]) + len(state.reserve[s]) in (2, 3)
        else:
            assert len(state.closed[s]) + len(state.reserve[s]) == 2
            assert len(state.reserve[s]) == 0 or field_sum(state.open[s] + state.closed[s]) >= 40
    if state.stood[player] and not answering and state.phase is not Phase.RESERVE:
        assert state.phase is Phase.BET, "a seat that stood draws again"
    pub = G.observe(state, None)
    assert pub.closed == pub.reserve == ()
    assert pub.to_act == player
    for s in range(n if views else 0):
        obs = G.observe(state, s)
        if state.phase is not Phase.OPENING:
            assert obs.closed == state.closed[s]
            assert obs.open_fields == pub.open_fields == state.open
        assert obs.reserve == state.reserve[s]
        assert obs.table == pub.table == table
        assert obs.history == pub.history == state.history
        others = [o for o in range(n) if o != s]
        assert [obs.closed_counts[o] for o in others] == [pub.closed_counts[o] for o in others]
        assert obs.reserve_counts == pub.reserve_counts


def check_round_end(before: FelduzState, after: FelduzState, seen: Counter[str]) -> None:
    """A round just ended: check its result against the last state of the round."""
    result = after.past[-1].result
    settlement = result.settlement
    pot = sum(settlement.shares)
    assert pot == settlement.pot
    assert result.round == before.table.round
    assert result.dealer == before.table.dealer
    seen["rounds"] += 1
    if not settlement.showdown:
        seen["lone winner"] += 1
        assert result.events == ()
        assert all(f is None for f in result.fields)
        assert settlement.winners == (_after_answer(before),)
        return
    seen["showdown"] += 1
    fields = {s: f for s, f in enumerate(result.fields) if f is not None}
    reserves = {s: r for s, r in enumerate(result.reserves) if r is not None}
    assert len(fields) >= 2
    assert set(reserves) == set(fields)
    for s, field in fields.items():
        assert before.stood[s] or s == before.turn_seat
        held = before.open[s] + before.closed[s] + before.reserve[s]
        assert sorted(field + reserves[s]) == sorted(held)
        if before.phase is not Phase.RESERVE or s != before.turn_seat:
            assert reserves[s] == before.reserve[s]
            assert field == tuple(sorted(before.open[s] + before.closed[s]))
    assert result.events == showdown(fields, reserves)
    assert settlement.winners == result.events[-1].seats
    decided = result.decided_by
    assert decided is not None
    seen[f"decided by {decided.name}"] += 1
    sums = {s: field_sum(f) for s, f in fields.items()}
    qualified = [v for v in sums.values() if v >= QUALIFY]
    if qualified:
        assert all(sums[w] == min(qualified) for w in settlement.winners)


def _after_answer(before: FelduzState) -> int:
    """The seat left alone by the OUT that ended the round."""
    live = [s for s, alive in enumerate(before.table.live) if alive]
    bet = before.table.bet
    assert bet is not None
    assert len(live) == 2
    return next(s for s in live if s != bet.to_act)


def run_matches(players: int, matches: int, params: dict[str, int], tag: int) -> Counter[str]:
    seen: Counter[str] = Counter()
    total_chips = players * params.get("stack", 100)
    for m in range(matches):
        rng = np.random.default_rng([SEED, tag, players, m])
        steps = random_match(rng, {"players": players, **params})
        views = m < VIEW_MATCHES
        check_state(steps[0][0], total_chips, views)
        for before, player, value, after in steps:
            check_state(after, total_chips, views)
            if player == CHANCE:
                continue
            seen["decisions"] += 1
            if value == DRAW:
                assert before.stock
                assert not before.stood[player]
            elif value == STAND and not before.stock:
                seen["stand on an empty stock"] += 1
            elif RESERVE <= value < NUM_ACTIONS and reserve_cards(value):
                seen["reserve"] += 1
            elif value == chips.OUT and before.table.bet is not None:
                seen["out"] += 1
                if player == before.table.bet.bettor:
                    seen["bettor out"] += 1
            assert G.is_public(before, value) == (
                not (SPLIT <= value < REVEAL or RESERVE <= value < NUM_ACTIONS)
            )
            if value == CONTINUE:
                assert G.current_player(after) != player or after.phase is Phase.DEAL
            if len(after.past) > len(before.past):
                check_round_end(before, after, seen)
        final = steps[-1][3]
        assert G.current_player(final) == TERMINAL
        table = final.table
        assert chips.match_over(table, params.get("round_cap", 300))
        seen["eliminations"] += sum(r >= 0 for r in table.out_round)
        seen["matches at the cap"] += len(chips.seated(table)) > 1
        places = G.ranking(final)
        assert min(places) == 1
        if m < 20:  # determinism: the recorded outcomes and actions re-simulate
            state = G.initial_state({"players": players, **params})
            for _, player, value, after in steps:
                state = G.apply_chance(state, value) if player == CHANCE else G.apply(state, value)
                assert state == after
    return seen


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_matches_keep_every_invariant(players: int) -> None:
    seen = run_matches(players, MATCHES, SMALL, 0)
    # the random play reached the interesting situations (otherwise the checks prove little)
    assert seen["rounds"] >= 3 * MATCHES
    assert seen["showdown"] >= MATCHES
    assert seen["lone winner"] >= MATCHES
    assert seen["eliminations"] >= MATCHES
    assert seen["reserve"] >= 50
    assert seen["bettor out"] >= 200
    for criterion in (Criterion.QUALIFIED, Criterion.POINTS, Criterion.LENGTH, Criterion.RANK):
        assert seen[f"decided by {criterion.name}"] >= 10, (criterion, seen)


def test_matches_stop_at_the_round_cap() -> None:
    seen = run_matches(2, 50, {**SMALL, "round_cap": 2}, 2)
    assert seen["matches at the cap"] >= 10


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_few_default_matches(players: int) -> None:
    seen = run_matches(players, 5, {}, 1)
    assert seen["rounds"] >= 5


def test_a_match_is_a_function_of_its_chance_outcomes_and_actions() -> None:
    one = random_match(np.random.default_rng(5), {"players": 3})
    two = random_match(np.random.default_rng(5), {"players": 3})
    assert [(p, v) for _, p, v, _ in one] == [(p, v) for _, p, v, _ in two]
    assert one[-1][3] == two[-1][3]
