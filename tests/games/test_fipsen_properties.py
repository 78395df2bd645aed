"""Property tests (hypothesis) for Fipsen: no leak (in the observation, on the wire and in the
tensor encoding), determinism, conservation.

States are reached by playing from the start: a hypothesis-drawn seed feeds the chance events
and a drawn list of choices picks among the legal actions. A "re-deal" of what a viewer may not
see is a permutation of the hidden cards applied to the whole state (other hands, the Skat and
stock, the declarer's discards), so every structural relation of the state is kept.
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from typing import Any

import numpy as np
import walk
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from croupier.arbiter import Clocks, DecisionRequest, RoundEnded
from croupier.games import get_game, get_spec
from croupier.games.fipsen.rules import DECK_SIZE, Phase, stacked_deal
from croupier.transport._codec import encode

G = get_game("fipsen")
CODEC = get_spec("fipsen").codec
SIZE, ENCODE = get_spec("fipsen").encoder.size, get_spec("fipsen").encoder.encode

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
seeds = st.integers(min_value=0, max_value=2**32 - 1)
choices = st.lists(st.integers(min_value=0, max_value=40), min_size=0, max_size=120)
deal_counts = st.integers(min_value=1, max_value=3)


def drive(seed: int, picks: list[int], deals: int) -> list[Any]:
    """Every state from the start: chance from ``seed``, decisions by ``picks`` (one per step).

    A pick below 8 plays the lowest legal action (PASS when bidding), so bidding often ends in
    a low contract."""
    return walk.drive(
        G,
        {"deals": deals},
        seed,
        picks,
        lambda legal, pick: legal[0 if pick < 8 else pick % len(legal)],
    )


def visible(state: Any, viewer: int | None) -> set[int]:
    """Cards ``viewer`` may see: its hand, the cards played, and as declarer what it took and
    discarded."""
    seen = {c for t in state.tricks for c in t.cards} | set(state.trick)
    if viewer is not None:
        seen |= set(state.hands[viewer])
        if viewer == state.declarer:
            seen |= set(state.taken) | set(state.discards)
    return seen


def relabel(state: Any, viewer: int | None, order: list[int]) -> Any:
    """``state`` with the cards ``viewer`` cannot see permuted among themselves by ``order``."""
    hidden = sorted(set(range(DECK_SIZE)) - visible(state, viewer))
    shuffled = [hidden[i] for i in order if i < len(hidden)]
    mapping = dict(zip(hidden, shuffled, strict=True))

    def move(cards: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(sorted(mapping.get(c, c) for c in cards))

    return state._replace(
        hands=tuple(move(h) for h in state.hands),
        skat=move(state.skat),
        stock=move(state.stock),
        taken=move(state.taken),
        discards=move(state.discards),
    )


def wire(state: Any, seat: int) -> bytes:
    """The exact bytes the arbiter would send ``seat`` now: its deal-end event and decision."""
    obs = G.observe(state, seat)
    messages: list[Any] = [RoundEnded(7, state.round_index, (Fraction(0),) * 4, G.returns(state),
                                      obs)]  # fmt: skip
    if G.current_player(state) == seat:
        legal = G.legal_actions(state)
        labels = tuple(G.action_label(state, a) for a in legal)
        messages.append(DecisionRequest(3, obs, legal, labels, Clocks(2000, 30000, 5)))
    return b"".join(encode(m, CODEC).SerializeToString(deterministic=True) for m in messages)


# -- (a) no leak -----------------------------------------------------------------------------------


@SETTINGS
@given(seed=seeds, picks=choices, deals=deal_counts, data=st.data())
def test_no_leak_a_seat_sees_the_same_whatever_it_may_not_see(
    seed: int, picks: list[int], deals: int, data: st.DataObject
) -> None:
    state = drive(seed, picks, deals)[-1]
    event(state.phase.name)
    for viewer in (None, 0, 1, 2, 3):
        order = data.draw(st.permutations(range(DECK_SIZE)), label=f"re-deal for {viewer}")
        other = relabel(state, viewer, order)
        assert G.observe(other, viewer) == G.observe(state, viewer)
        assert G.current_player(other) == G.current_player(state)
        if viewer is not None:
            assert wire(other, viewer) == wire(state, viewer)
            mine = ENCODE(G.observe(state, viewer))
            assert mine.shape == (SIZE,)
            assert np.array_equal(ENCODE(G.observe(other, viewer)), mine)
            if G.current_player(state) == viewer:
                assert G.legal_actions(other) == G.legal_actions(state)


@SETTINGS
@given(seed=seeds, picks=choices, deals=deal_counts)
def test_no_leak_check_is_sharp_an_own_card_does_show(
    seed: int, picks: list[int], deals: int
) -> None:
    """The companion: swapping a card the seat holds with one it cannot see changes its view
    and its bytes, and the public view only where the card is public."""
    state = drive(seed, picks, deals)[-1]
    player = G.current_player(state)
    if player < 0:
        return
    mine = state.hands[player]
    other_seat = (player + 1) % 4
    theirs = state.hands[other_seat]
    if not mine or not theirs:
        return
    hands = list(state.hands)
    hands[player] = tuple(sorted((*mine[1:], theirs[0])))
    hands[other_seat] = tuple(sorted((*theirs[1:], mine[0])))
    swapped = state._replace(hands=tuple(hands))
    assert G.observe(swapped, player) != G.observe(state, player)
    assert wire(swapped, player) != wire(state, player)
    assert G.observe(swapped, None) == G.observe(state, None)


def fips_deal(rng: np.random.Generator, role: int) -> tuple[int, ...]:
    """A deal outcome giving the seat in ``role`` (0 = V .. 3 = D) four sevens and an Ace,
    everything else shuffled."""
    fips = (0, 8, 16, 24, int(rng.choice([7, 15, 23])))
    rest = [int(c) for c in rng.permutation(DECK_SIZE) if c not in fips]
    hands = [tuple(rest[5 * k : 5 * k + 5]) for k in range(3)]
    hands.insert(role, fips)
    return stacked_deal(tuple(hands), tuple(rest[15:17]), tuple(rest[17:20]))


def test_a_siebener_fips_offer_is_invisible_to_the_others() -> None:
    """Every offer state looks to the other seats (and the public) exactly like the state after
    declining it, and the declined offer is not a public action."""
    rng = np.random.default_rng(5)
    for k in range(200):
        dealer, role = k % 4, (k // 4) % 4
        state = G.apply_chance(G.initial_state({"deals": 1}), (dealer,))
        state = G.apply_chance(state, fips_deal(rng, role))
        assert state.phase is Phase.SIEBENER_FIPS
        assert G.current_player(state) == (dealer + 1 + role) % 4
        declined = G.apply(state, G.default_action(state))
        assert not G.is_public(state, G.default_action(state))
        for seat in (None, *(s for s in range(4) if s != state.to_act)):
            assert G.observe(state, seat) == G.observe(declined, seat)
            if seat is not None and G.current_player(declined) != seat:
                assert wire(state, seat) == wire(declined, seat)


# -- (b) determinism -------------------------------------------------------------------------------


@SETTINGS
@given(seed=seeds, picks=choices, deals=deal_counts)
def test_same_seed_and_same_choices_give_the_same_trajectory(
    seed: int, picks: list[int], deals: int
) -> None:
    first = drive(seed, picks, deals)
    second = drive(seed, picks, deals)
    assert first == second
    assert [G.observe(s, 0) for s in first] == [G.observe(s, 0) for s in second]


# -- (c) conservation ------------------------------------------------------------------------------


@SETTINGS
@given(seed=seeds, picks=choices, deals=deal_counts)
def test_cards_and_points_are_conserved(seed: int, picks: list[int], deals: int) -> None:
    states = drive(seed, picks, deals)
    for before, after in itertools.pairwise(states):
        if G.current_player(after) >= 0:
            played = [c for t in after.tricks for c in t.cards] + list(after.trick)
            dead = [c for c in (*after.skat, *after.stock) if c not in after.taken]
            held = [c for h in after.hands for c in h]
            assert sorted(held + played + list(after.discards) + dead) == list(range(DECK_SIZE))
        result = G.observe(after, None).last_deal
        if result is not None and result != G.observe(before, None).last_deal:
            moved = tuple(a - b for a, b in zip(G.returns(after), G.returns(before), strict=True))
            assert moved == result.deltas
            assert sum(1 for d in result.deltas if d) <= 1  # only the declarer scores
