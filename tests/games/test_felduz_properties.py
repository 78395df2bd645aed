"""Felduz properties (hypothesis): no leak, conservation, determinism, showdown symmetries.

No leak: re-deal everything a seat may not see (the other seats' closed fields and reserves, the
stock's order, and during the opening the other seats' hands and splits); its observation, the
exact bytes the arbiter would send it (decision request and round end, through the transport
codec) and its tensor encoding must not change.
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from typing import Any

import numpy as np
from felduz_kit import G, all_cards, random_match
from hypothesis import given, settings
from hypothesis import strategies as st

from croupier.arbiter import Clocks, DecisionRequest, RoundEnded
from croupier.games import TERMINAL, cards40, chips, get_spec
from croupier.games.felduz.rules import SPLITS, FelduzState, Phase, showdown
from croupier.transport._codec import encode

CODEC = get_spec("felduz").codec
SIZE, ENCODE = get_spec("felduz").encoder.size, get_spec("felduz").encoder.encode


def walk(seed: int, players: int, steps: int, **params: int) -> FelduzState:
    """A reachable decision state: the one before the ``steps``-th decision of a random match
    (its last decision if it has fewer)."""
    match = random_match(np.random.default_rng(seed), {"players": players, **params})
    decisions = [before for before, player, _, _ in match if player >= 0]
    return decisions[min(steps, len(decisions) - 1)]


def redeal(state: FelduzState, seat: int | None, rng: np.random.Generator) -> FelduzState:
    """Re-deal every card ``seat`` (``None``: a spectator) may not see, keeping all counts."""
    others = [s for s in chips.seated(state.table) if s != seat]
    pool = list(state.stock)
    for s in others:
        pool += [*state.closed[s], *state.reserve[s]]
    pool = [int(c) for c in rng.permutation(pool)]
    closed, reserve, splits = list(state.closed), list(state.reserve), list(state.splits)
    for s in others:
        k, r = len(closed[s]), len(reserve[s])
        closed[s], pool = tuple(sorted(pool[:k])), pool[k:]
        reserve[s], pool = tuple(sorted(pool[:r])), pool[r:]
        if splits[s] >= 0:
            splits[s] = int(rng.integers(len(SPLITS)))
    return state._replace(
        closed=tuple(closed), reserve=tuple(reserve), splits=tuple(splits), stock=tuple(pool)
    )


@settings(max_examples=400, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    players=st.integers(2, 4),
    steps=st.integers(0, 120),
    viewer=st.integers(-1, 3),
    redeal_seed=st.integers(0, 1_000),
)
def test_a_seat_cannot_see_what_the_rules_hide(
    seed: int, players: int, steps: int, viewer: int, redeal_seed: int
) -> None:
    state = walk(seed, players, steps, stack=30)
    seat = None if viewer < 0 or viewer >= players else viewer
    other = redeal(state, seat, np.random.default_rng(redeal_seed))
    assert all_cards(other) == all_cards(state)
    assert G.observe(other, seat) == G.observe(state, seat)
    if seat is not None:
        assert wire(other, seat) == wire(state, seat)
        assert np.array_equal(ENCODE(G.observe(other, seat)), ENCODE(G.observe(state, seat)))


def wire(state: FelduzState, seat: int) -> bytes:
    """The bytes the arbiter sends ``seat`` now: a round end and, if it acts, a decision."""
    obs = G.observe(state, seat)
    zeros = (Fraction(0),) * G.num_players(state)
    messages: list[Any] = [RoundEnded(7, G.round_index(state), zeros, G.returns(state), obs)]
    if G.current_player(state) == seat:
        legal = G.legal_actions(state)
        labels = tuple(G.action_label(state, a) for a in legal)
        messages.append(DecisionRequest(3, obs, legal, labels, Clocks(2000, 30000, 5)))
    return b"".join(encode(m, CODEC).SerializeToString(deterministic=True) for m in messages)


def test_the_check_can_fail_a_card_the_seat_sees_changes_its_bytes() -> None:
    state = walk(3, 2, 0)
    seat = state.turn_seat
    mine, theirs = state.closed[seat], state.closed[1 - seat]
    swapped = state._replace(
        closed=_swap(state.closed, seat, (*mine[1:], theirs[0]), (*theirs[1:], mine[0]))
    )
    assert wire(swapped, seat) != wire(state, seat)
    assert not np.array_equal(ENCODE(G.observe(swapped, seat)), ENCODE(G.observe(state, seat)))


def _swap(
    closed: tuple[tuple[int, ...], ...], seat: int, mine: tuple[int, ...], theirs: tuple[int, ...]
) -> tuple[tuple[int, ...], ...]:
    out = list(closed)
    out[seat], out[1 - seat] = tuple(sorted(mine)), tuple(sorted(theirs))
    return tuple(out)


@settings(max_examples=100, deadline=None)
@given(seed=st.integers(0, 10_000), players=st.integers(2, 4), split=st.integers(0, 9))
def test_during_the_opening_no_one_sees_another_seats_split(
    seed: int, players: int, split: int
) -> None:
    state = walk(seed, players, 0)
    assert state.phase is Phase.OPENING
    chooser = state.turn_seat
    one = G.apply(state, G.legal_actions(state)[split])
    two = G.apply(state, G.legal_actions(state)[(split + 1) % 10])
    for seat in (*range(players), None):
        if seat != chooser:
            assert G.observe(one, seat) == G.observe(two, seat)
    assert G.observe(one, chooser) != G.observe(two, chooser)


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    players=st.integers(2, 4),
    stack=st.integers(1, 40),
    amphora=st.integers(1, 5),
    double_every=st.integers(0, 4),
    round_cap=st.integers(1, 30),
)
def test_any_parameters_conserve_chips_and_cards_and_end(
    seed: int, players: int, stack: int, amphora: int, double_every: int, round_cap: int
) -> None:
    params = {
        "players": players,
        "stack": stack,
        "amphora": amphora,
        "double_every": double_every,
        "round_cap": round_cap,
    }
    steps = random_match(np.random.default_rng(seed), params)
    for _, _player, _, after in steps:
        assert sum(G.returns(after)) == players * stack
        if G.current_player(after) >= 0:
            assert all_cards(after) == list(range(40))
    final = steps[-1][3]
    assert G.current_player(final) == TERMINAL
    assert G.round_index(final) < round_cap
    # same seed, same play: the same match
    again = random_match(np.random.default_rng(seed), params)
    assert [(p, v) for _, p, v, _ in again] == [(p, v) for _, p, v, _ in steps]
    # survivors rank by chips, ahead of every eliminated seat
    places = G.ranking(final)
    table = final.table
    for s in chips.seated(table):
        for o in range(players):
            if table.out_round[o] >= 0:
                assert places[s] < places[o]
            elif chips.chips(table)[o] > chips.chips(table)[s]:
                assert places[o] < places[s]


@settings(max_examples=300, deadline=None)
@given(data=st.data(), players=st.integers(2, 4))
def test_showdown_is_symmetric_and_a_qualified_field_always_wins(
    data: st.DataObject, players: int
) -> None:
    cards = data.draw(st.permutations(range(40)))
    fields, reserves = {}, {}
    pos = 0
    for s in range(players):
        k = data.draw(st.integers(1, 9))
        r = data.draw(st.integers(0, 2))
        fields[s] = tuple(sorted(cards[pos : pos + k]))
        reserves[s] = tuple(sorted(cards[pos + k : pos + k + r]))
        pos += k + r
    events = showdown(fields, reserves)
    winners = events[-1].seats
    assert winners
    assert all(set(b.seats) <= set(a.seats) for a, b in itertools.pairwise(events))
    sums = {s: sum(cards40.VALUES[c] for c in f) for s, f in fields.items()}
    if any(v >= 40 for v in sums.values()):
        assert all(sums[w] >= 40 for w in winners)
    # relabel the seats: the same fields win
    order = data.draw(st.permutations(range(players)))
    moved = showdown(
        {order[s]: f for s, f in fields.items()}, {order[s]: r for s, r in reserves.items()}
    )
    assert set(moved[-1].seats) == {order[w] for w in winners}
    assert [e.criterion for e in moved] == [e.criterion for e in events]
