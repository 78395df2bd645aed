"""Property tests (hypothesis) for As-Nas: no leak, determinism, conservation.

States are reached by playing from the start: a hypothesis-drawn seed feeds the chance events
(through ``sample_chance``) and a drawn list of choices picks among the legal actions.
"""

from __future__ import annotations

import itertools
from collections import Counter
from typing import Any

import walk
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from croupier.games import TERMINAL, get_game
from croupier.games.as_nas.rules import Action

G = get_game("as-nas")
LOOK = int(Action.LOOK)

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
seeds = st.integers(min_value=0, max_value=2**32 - 1)
choices = st.lists(st.integers(min_value=0, max_value=7), min_size=0, max_size=80)
deal_counts = st.integers(min_value=1, max_value=3)


def drive(seed: int, picks: list[int], deals: int) -> list[Any]:
    """Every state from the start: chance from ``seed``, decisions by ``picks`` (one per step)."""
    return walk.drive(G, {"deals": deals}, seed, picks)


def views(state: Any) -> list[Any]:
    return [G.observe(state, seat) for seat in (None, 0, 1, 2, 3)]


# -- (a) no leak -----------------------------------------------------------------------------------


def visible_seats(state: Any, viewer: int | None) -> set[int]:
    """Seats whose ranks ``viewer`` may know: its own once looked, and hands shown at showdown."""
    seats = set()
    if viewer is not None and G.observe(state, None).looked[viewer]:
        seats.add(viewer)
    result = G.observe(state, None).last_deal
    if G.current_player(state) == TERMINAL and result is not None:
        # The match ended with this deal: its showdown hands are public.
        seats |= {s for s in range(4) if result.revealed[s] is not None}
    return seats


def redeal(state: Any, keep: set[int], order: list[int]) -> tuple[tuple[int, ...], ...]:
    """New hands: seats in ``keep`` hold the same ranks (any copies), the other seats share the
    remaining cards; ``order`` (a permutation of the 20 ids) decides which physical cards go where.
    """
    pool = list(order)
    hands: dict[int, list[int]] = {}
    for seat in sorted(keep):
        hands[seat] = []
        for rank in (card // 4 for card in state.hands[seat]):
            card = next(c for c in pool if c // 4 == rank)
            pool.remove(card)
            hands[seat].append(card)
    for seat in range(4):
        if seat not in keep:
            hands[seat], pool = pool[:5], pool[5:]
    assert pool == []
    return tuple(tuple(sorted(hands[seat])) for seat in range(4))


@SETTINGS
@given(seed=seeds, picks=choices, deals=deal_counts, data=st.data())
def test_no_leak_a_seat_sees_the_same_whatever_it_may_not_see(
    seed: int, picks: list[int], deals: int, data: st.DataObject
) -> None:
    state = drive(seed, picks, deals)[-1]
    player = G.current_player(state)
    event("betting" if player >= 0 else "match over" if player == TERMINAL else "chance node")
    if not any(state.hands):  # a chance node between deals: no cards out
        assert all(obs.hand == () for obs in views(state))
        return
    for viewer in (None, 0, 1, 2, 3):
        keep = visible_seats(state, viewer)
        event(f"seats kept: {len(keep)}")
        order = data.draw(st.permutations(range(20)), label=f"re-deal for {viewer}")
        other = state._replace(hands=redeal(state, keep, order))
        assert Counter(c for h in other.hands for c in h) == Counter(range(20))
        mine, theirs = G.observe(state, viewer), G.observe(other, viewer)
        assert theirs == mine
        assert repr(theirs) == repr(mine)
        # Nor does the re-deal change whose turn it is or what that seat may do.
        assert G.current_player(other) == G.current_player(state)
        assert G.legal_actions(other) == G.legal_actions(state)


@SETTINGS
@given(seed=seeds, picks=choices, deals=deal_counts)
def test_no_leak_check_is_sharp_a_looked_hand_does_show(
    seed: int, picks: list[int], deals: int
) -> None:
    """The companion of the no-leak property: what a seat may see does change its view."""
    state = drive(seed, picks, deals)[-1]
    player = G.current_player(state)
    if player < 0:
        return
    if LOOK in G.legal_actions(state):
        state = G.apply(state, LOOK)
    hands = list(state.hands)
    other_seat = (player + 1) % 4
    hands[player], hands[other_seat] = hands[other_seat], hands[player]
    swapped = state._replace(hands=tuple(hands))
    same_ranks = sorted(c // 4 for c in state.hands[player]) == sorted(
        c // 4 for c in state.hands[other_seat]
    )
    assert (G.observe(swapped, player) == G.observe(state, player)) == same_ranks
    assert G.observe(swapped, None) == G.observe(state, None)


# -- (b) determinism -------------------------------------------------------------------------------


@SETTINGS
@given(seed=seeds, picks=choices, deals=deal_counts)
def test_same_seed_and_same_choices_give_the_same_trajectory(
    seed: int, picks: list[int], deals: int
) -> None:
    first = drive(seed, picks, deals)
    second = drive(seed, picks, deals)
    assert first == second
    assert [views(s) for s in first] == [views(s) for s in second]
    assert [G.returns(s) for s in first] == [G.returns(s) for s in second]


# -- (c) conservation ------------------------------------------------------------------------------


@SETTINGS
@given(seed=seeds, picks=choices, deals=deal_counts)
def test_cards_and_points_are_conserved(seed: int, picks: list[int], deals: int) -> None:
    states = drive(seed, picks, deals)
    for before, after in itertools.pairwise(states):
        for state in (before, after):
            assert sum(G.returns(state)) == 0
            pub = G.observe(state, None)
            assert pub.pot == sum(pub.stakes)
            if G.current_player(state) >= 0:
                cards = [c for hand in state.hands for c in hand]
                assert sorted(cards) == list(range(20))  # 20 distinct ids, every card dealt
                assert [len(hand) for hand in state.hands] == [5] * 4
        result = G.observe(after, None).last_deal
        if result is not None and result != G.observe(before, None).last_deal:
            # A deal just ended: the settlement is zero-sum and is what the totals moved by.
            assert sum(result.deltas) == 0
            moved = tuple(a - b for a, b in zip(G.returns(after), G.returns(before), strict=True))
            assert moved == result.deltas
            # The settled pot is the pot before the closing action plus what that action put in:
            # nothing (FOLD, HOLD), a call to H, or a raise to H + 1.
            pub = G.observe(before, None)
            stake = pub.stakes[pub.to_act]
            assert result.pot - pub.pot in {0, pub.high - stake, pub.high + 1 - stake}
            assert all(-4 <= d <= 12 for d in result.deltas)
