"""No leak on the wire: the bytes sent to a seat's bot do not change when any card that seat may
not see changes (others' hands, and its own before it looks; physical copy indices never show).

The property is checked on the exact messages the arbiter sends (``DecisionRequest`` and
``RoundEnded`` built from ``observe``), encoded by the transport codec and serialized
deterministically, and on the tensor encoding.
"""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from wire_kit import reach, seat_bytes

from croupier.games import get_game, get_spec
from croupier.games.as_nas.rules import COPIES, DECK_SIZE, NUM_SEATS, AsNasState, card_rank

GAME = get_game("as-nas")
CODEC = get_spec("as-nas").codec
PARAMS = {"deals": 3}
#: Picks that reach the first decision (past the opening chance steps).
FIRST = [0, 0]
SIZE, ENCODE = get_spec("as-nas").encoder.size, get_spec("as-nas").encoder.encode


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


@settings(max_examples=300, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    picks=st.lists(st.integers(0, 20), min_size=2, max_size=60),
    seat=st.integers(0, NUM_SEATS - 1),
    redeal_seed=st.integers(0, 2**32 - 1),
)
def test_bytes_to_a_seat_ignore_cards_it_cannot_see(
    seed: int, picks: list[int], seat: int, redeal_seed: int
) -> None:
    state = reach(GAME, PARAMS, seed, picks)
    other = _redeal(state, seat, np.random.default_rng(redeal_seed))
    assert seat_bytes(GAME, CODEC, other, seat) == seat_bytes(GAME, CODEC, state, seat)
    assert np.array_equal(ENCODE(GAME.observe(other, seat)), ENCODE(GAME.observe(state, seat)))
    assert GAME.observe(other, None) == GAME.observe(state, None)


def test_the_check_can_fail_a_visible_card_changes_the_bytes() -> None:
    """Sanity of the property: changing a card the seat HAS seen does change its bytes."""
    state = reach(GAME, PARAMS, 11, FIRST)
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
    assert seat_bytes(GAME, CODEC, changed, seat) != seat_bytes(GAME, CODEC, state, seat)


def test_encoding_has_the_declared_size_and_shows_the_hand_only_after_looking() -> None:
    state = reach(GAME, PARAMS, 5, FIRST)
    seat = GAME.current_player(state)
    before = ENCODE(GAME.observe(state, seat))
    assert before.shape == (SIZE,)
    assert before.dtype == np.float32
    assert before[:5].sum() == 0
    after = ENCODE(GAME.observe(GAME.apply(state, 0), seat))
    assert after[:5].sum() == 5 / COPIES
