"""Scauver under random play and hypothesis: invariants at every step, determinism, no leak,
and the engine's link search against a brute-force reading of the rules.

Random matches use a policy that often plays the passive choice (``Proceed``, ``NoBet``,
``In``), so that rounds reach their showdowns; a random bet sequence otherwise ends most rounds
early. The bulk runs with a small stack and round cap so that 1,000 matches per player count
stay fast; a few matches run with the default parameters.
"""

from __future__ import annotations

import itertools
from collections import Counter
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scauver_kit import SMALL, pick, redeal, walk

from croupier.games import CHANCE, TERMINAL, cards40, chips, get_game
from croupier.games.scauver import rules as sc
from croupier.games.scauver.rules import Phase

G = get_game("scauver")
SEED = 20_261_130


def check(state: Any, total_chips: int, seen: Counter[str]) -> None:
    """Invariants of any state."""
    table = state.table
    assert sum(chips.chips(table)) == total_chips, "chips are not conserved"
    assert all(s >= 0 for s in table.stacks)
    player = G.current_player(state)
    if player == TERMINAL:
        assert G.legal_actions(state) == ()
        return
    if player == CHANCE:
        return
    legal = G.legal_actions(state)
    assert legal, "no legal action before the end"
    assert all(a < b for a, b in itertools.pairwise(legal)), "legal actions not ascending"
    assert table.live[player], "a seat out of the round acts"
    assert table.out_round[player] < 0, "an eliminated seat acts"
    # the 40 cards: hands, fields and the stock, each card once
    held = [c for hand in state.hands for c in hand]
    held += [c for field in state.fields for flank in field for c in flank]
    assert sorted(held + list(state.stock)) == list(range(cards40.DECK_SIZE))
    for seat, (left, right) in enumerate(state.fields):
        placed = len(left) + len(right)
        if table.out_round[seat] >= 0:
            assert placed == 0
            assert state.hands[seat] == ()
        elif state.phase is not Phase.OPENING:
            assert len(state.hands[seat]) + placed <= 8
            if placed < 8:
                assert max(len(left), len(right)) <= sc.FLANK_ROOM
    if state.phase is Phase.OPENING:
        seen["opening"] += 1
    if table.bet is not None:
        seen["answer"] += 1


def play_match(players: int, seed: int, params: dict[str, int], passive: float) -> Counter[str]:
    rng = np.random.default_rng([SEED, players, seed])
    state = G.initial_state({"players": players, **params})
    total = sum(chips.chips(state.table))
    seen: Counter[str] = Counter()
    rounds_before = 0
    for _ in range(200_000):
        check(state, total, seen)
        player = G.current_player(state)
        if player == TERMINAL:
            break
        if player == CHANCE:
            state = G.apply_chance(state, G.sample_chance(state, rng))
            continue
        state = G.apply(state, pick(state, rng, passive))
        seen["decisions"] += 1
        if len(state.past) > rounds_before:
            rounds_before = len(state.past)
            result = state.past[-1].result
            seen[result.decided_by.name] += 1
            seen["rounds"] += 1
            check_result(result, state)
    else:
        pytest.fail("the match did not end")
    assert G.current_player(state) == TERMINAL
    places = G.ranking(state)
    assert min(places) == 1
    return seen


def check_result(result: sc.RoundResult, state: Any) -> None:
    settlement = result.settlement
    assert sum(settlement.shares) == settlement.pot
    assert set(result.winners) == {s for s, share in enumerate(settlement.shares) if share}
    if settlement.showdown:
        seats = [s.seat for s in result.showings]
        assert set(result.winners) <= set(seats)
        for showing in result.showings:
            assert len(showing.left) == len(showing.right) == 4
            again = sc.show(showing.seat, (showing.left, showing.right))
            assert again == showing
    else:
        assert result.showings == ()
        assert len(result.winners) == 1


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_thousand_random_matches_keep_every_invariant(players: int) -> None:
    seen: Counter[str] = Counter()
    for match in range(1_000):
        seen += play_match(players, match, SMALL, passive=0.85 if match % 2 else 0.6)
    for match in range(3):  # default parameters
        seen += play_match(players, 10_000 + match, {}, passive=0.9)
    # random play reached the interesting situations (otherwise the checks prove little)
    assert seen["rounds"] >= 2_000
    assert seen["SCORE"] >= 200
    assert seen["LONE_WINNER"] >= 200
    assert seen["answer"] >= 1_000
    if players == 2:
        assert seen["TIE"] + seen["SIZE"] + seen["SHAPE"] + seen["HEIGHT"] >= 5


# -- determinism -----------------------------------------------------------------------------------


def trajectory(seed: int, players: int, moves: list[tuple[int, Any]] | None = None) -> list[Any]:
    """Every state of a match: from ``seed``, or re-simulated from recorded ``moves``."""
    rng = np.random.default_rng(seed)
    state = G.initial_state({"players": players, **SMALL})
    states = [state]
    recorded = iter(moves) if moves is not None else None
    while G.current_player(state) != TERMINAL:
        if recorded is not None:
            kind, value = next(recorded)
            assert kind == G.current_player(state)
        elif G.current_player(state) == CHANCE:
            kind, value = CHANCE, G.sample_chance(state, rng)
        else:
            kind, value = G.current_player(state), pick(state, rng, 0.7)
        state = G.apply_chance(state, value) if kind == CHANCE else G.apply(state, value)
        states.append((kind, value, state))
    return states


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 4))
def test_same_seed_and_choices_give_the_same_match(seed: int, players: int) -> None:
    one = trajectory(seed, players)
    assert trajectory(seed, players) == one
    moves = [(kind, value) for kind, value, _ in one[1:]]
    assert trajectory(seed + 1, players, moves) == one  # the moves alone, without the seed


# -- no leak ---------------------------------------------------------------------------------------


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32 - 1),
    decisions=st.integers(0, 40),
    players=st.integers(2, 4),
    viewer=st.integers(0, 3),
    redeal_seed=st.integers(0, 2**32 - 1),
)
def test_a_seat_sees_nothing_of_what_it_may_not_see(
    seed: int, decisions: int, players: int, viewer: int, redeal_seed: int
) -> None:
    state = walk(seed, decisions, players)
    viewer %= players
    other = redeal(state, viewer, np.random.default_rng(redeal_seed))
    assert G.observe(other, viewer) == G.observe(state, viewer)
    assert G.observe(other, None) == G.observe(state, None)
    if G.current_player(state) == viewer:  # the seat's choices depend only on what it sees
        assert G.legal_actions(other) == G.legal_actions(state)


def test_no_leak_during_the_opening_whatever_the_others_chose() -> None:
    """Every opening choice of the first seat leaves the later seats' views unchanged."""
    state = walk(3, 0, 3)
    assert state.phase is Phase.OPENING
    first = G.current_player(state)
    views = {
        tuple(G.observe(G.apply(state, a), s) for s in (None, *range(3)) if s != first)
        for a in G.legal_actions(state)
    }
    assert len(views) == 1
    own_views = {G.observe(G.apply(state, a), first) for a in G.legal_actions(state)}
    assert len(own_views) == 80  # the check can fail: the chooser sees its own choice


# -- the link search against a brute-force reading of the rules ------------------------------------


def brute_force(left: tuple[int, ...], right: tuple[int, ...]) -> tuple[Any, ...] | None:
    """The rules read literally on card values: every pair of 1–3 card vanguards with equal
    sums and no common value (two singles excluded), scored D x v; the lowest score, then the
    strongest by (v, shape, the greater vanguard's values high to low, then the lesser's)."""
    d = abs(sum(left) - sum(right))
    shapes = [(2, 1), (2, 2), (3, 1), (3, 2), (3, 3)]
    best = None
    for a in range(1, 4):
        for b in range(1, 4):
            for vl in itertools.combinations(left, a):
                for vr in itertools.combinations(right, b):
                    if sum(vl) != sum(vr) or set(vl) & set(vr) or a + b == 2:
                        continue
                    hl, hr = sorted(vl, reverse=True), sorted(vr, reverse=True)
                    if len(hl) > len(hr) or (len(hl) == len(hr) and hl >= hr):
                        greater, lesser = hl, hr
                    else:
                        greater, lesser = hr, hl
                    shape = shapes.index((len(greater), len(lesser)))
                    key = (-d * sum(vl), sum(vl), shape, greater, lesser)
                    if best is None or key > best:
                        best = key
    return best


@settings(max_examples=400, deadline=None)
@given(st.permutations(range(40)))
def test_engine_link_matches_a_brute_force_reading(deck: list[int]) -> None:
    left, right = tuple(deck[:4]), tuple(deck[4:8])
    showing = sc.show(0, (left, right))
    expected = brute_force(
        tuple(cards40.VALUES[c] for c in left), tuple(cards40.VALUES[c] for c in right)
    )
    if expected is None:
        assert showing.link is None
        return
    link = showing.link
    assert link is not None
    assert set(link.left) <= set(left)
    assert set(link.right) <= set(right)
    assert showing.score == -expected[0]
    assert link.value == expected[1] == sum(cards40.VALUES[c] for c in link.left)
    lv = sorted((cards40.VALUES[c] for c in link.left), reverse=True)
    rv = sorted((cards40.VALUES[c] for c in link.right), reverse=True)
    assert sorted([lv, rv], key=lambda v: (len(v), v), reverse=True) == [expected[3], expected[4]]


@settings(max_examples=300, deadline=None)
@given(players=st.integers(2, 4), top=st.integers(0, 2), data=st.data())
def test_showdown_winners_match_a_brute_force_reading(
    players: int, top: int, data: st.DataObject
) -> None:
    """The whole showdown (D, score, linked above unlinked, then strength, then the lower D)
    against the brute-force link of each player. The cards come from the lowest values only
    (8 to 10 of them), so that equal scores, shared values and repeated values are common."""
    values = 8 + top
    pool = [c for c in range(cards40.DECK_SIZE) if cards40.VALUES[c] <= values]
    dealt = data.draw(st.permutations(pool))[: 8 * players]
    showings = []
    keys = {}
    for seat in range(players):
        left, right = (
            tuple(dealt[8 * seat : 8 * seat + 4]),
            tuple(dealt[8 * seat + 4 : 8 * seat + 8]),
        )
        lv = tuple(cards40.VALUES[c] for c in left)
        rv = tuple(cards40.VALUES[c] for c in right)
        expected = brute_force(lv, rv)
        difference = abs(sum(lv) - sum(rv))
        keys[seat] = (0, -difference) if expected is None else (1, *expected)
        showing = sc.show(seat, (left, right))
        assert showing.difference == difference
        assert showing.score == (None if expected is None else -expected[0])
        showings.append(showing)
    best = max(keys.values())
    winners, _ = sc.evaluate(tuple(showings))
    assert winners == tuple(seat for seat, key in keys.items() if key == best)
