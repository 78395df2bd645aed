"""No leak on the wire: the bytes sent to a seat's bot do not change when any card that seat may
not see changes (others' hands, and its own before it looks; physical copy indices never show).

The property is checked on the exact messages the arbiter sends (``DecisionRequest`` and
``RoundEnded`` built from ``observe``), encoded by the transport codec and serialized
deterministically, and on the tensor encoding.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from croupier.arbiter import Clocks, DecisionRequest, RoundEnded
from croupier.encoding import encoder
from croupier.games import CHANCE, TERMINAL, get_game
from croupier.games.as_nas import COPIES, DECK_SIZE, NUM_SEATS, AsNasState, card_rank
from croupier.transport._codec import CODECS, encode

GAME = get_game("as-nas")
CODEC = CODECS["as-nas"]
SIZE, ENCODE = encoder("as-nas")


def _walk(seed: int, steps: int) -> AsNasState:
    """A reachable decision state: random play for ``steps`` decisions from ``seed``."""
    rng = np.random.default_rng(seed)
    state = GAME.initial_state({"deals": 3})
    taken = 0
    while True:
        player = GAME.current_player(state)
        if player == CHANCE:
            state = GAME.apply_chance(state, GAME.sample_chance(state, rng))
            continue
        if player == TERMINAL:
            return _walk(seed + 1, steps // 2)
        if taken == steps:
            return state
        legal = GAME.legal_actions(state)
        state = GAME.apply(state, int(legal[rng.integers(len(legal))]))
        taken += 1


def _redeal(state: AsNasState, seat: int, rng: np.random.Generator) -> AsNasState:
    """Re-deal every card ``seat`` cannot see, keeping what it can (its ranks once looked)."""
    cards = list(rng.permutation(DECK_SIZE))
    own: list[int] = []
    if state.looked[seat]:
        for rank in sorted(card_rank(c) for c in state.hands[seat]):
            card = next(c for c in cards if card_rank(c) == rank)
            cards.remove(card)
            own.append(card)
    else:
        own, cards = cards[:5], cards[5:]
    hands = []
    for s in range(NUM_SEATS):
        if s == seat:
            hands.append(tuple(sorted(int(c) for c in own)))
        else:
            hands.append(tuple(sorted(int(c) for c in cards[:5])))
            cards = cards[5:]
    return state._replace(hands=tuple(hands))


def _wire(state: AsNasState, seat: int) -> bytes:
    obs = GAME.observe(state, seat)
    messages = [
        RoundEnded(7, state.deal_index, (Fraction(0),) * 4, GAME.returns(state), obs),
    ]
    if GAME.current_player(state) == seat:
        legal = GAME.legal_actions(state)
        labels = tuple(GAME.action_label(state, a) for a in legal)
        messages.append(DecisionRequest(3, obs, legal, labels, Clocks(2000, 30000, 5)))
    return b"".join(encode(m, CODEC).SerializeToString(deterministic=True) for m in messages)


@settings(max_examples=300, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    steps=st.integers(0, 40),
    seat=st.integers(0, NUM_SEATS - 1),
    redeal_seed=st.integers(0, 2**32 - 1),
)
def test_bytes_to_a_seat_ignore_cards_it_cannot_see(
    seed: int, steps: int, seat: int, redeal_seed: int
) -> None:
    state = _walk(seed, steps)
    other = _redeal(state, seat, np.random.default_rng(redeal_seed))
    assert _wire(other, seat) == _wire(state, seat)
    assert np.array_equal(ENCODE(GAME.observe(other, seat)), ENCODE(GAME.observe(state, seat)))
    assert GAME.observe(other, None) == GAME.observe(state, None)


def test_the_check_can_fail_a_visible_card_changes_the_bytes() -> None:
    """Sanity of the property: changing a card the seat HAS seen does change its bytes."""
    state = _walk(11, 0)
    seat = GAME.current_player(state)
    state = GAME.apply(state, 0)  # LOOK
    hands = list(state.hands)
    mine = hands[seat]
    # swap one own card for a card of another rank held by someone else
    other_seat, swap_from = next(
        (s, c)
        for s in range(NUM_SEATS)
        if s != seat
        for c in hands[s]
        if card_rank(c) != card_rank(mine[0])
    )
    hands[seat] = tuple(sorted((*mine[1:], swap_from)))
    hands[other_seat] = tuple(sorted((*(c for c in hands[other_seat] if c != swap_from), mine[0])))
    changed = state._replace(hands=tuple(hands))
    assert _wire(changed, seat) != _wire(state, seat)


def test_encoding_has_the_declared_size_and_shows_the_hand_only_after_looking() -> None:
    state = _walk(5, 0)
    seat = GAME.current_player(state)
    before = ENCODE(GAME.observe(state, seat))
    assert before.shape == (SIZE,)
    assert before.dtype == np.float32
    assert before[:5].sum() == 0
    after = ENCODE(GAME.observe(GAME.apply(state, 0), seat))
    assert after[:5].sum() == 5 / COPIES
