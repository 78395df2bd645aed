"""As-Nas's deals: the seat's own hand once it looked, the rest of the 20 cards uniformly."""

from __future__ import annotations

from typing import Any

from croupier_proto.v1.deal._kit import (
    Bits,
    Deal,
    place,
)

_AS_NAS_SEATS = 4


def sample(msg: Any, seat: int, rng: Bits) -> Deal:
    """As-Nas: the seat's own hand once it looked (ranks: copies are interchangeable), the rest
    of the 20 cards dealt uniformly. No move is hidden."""
    n = _AS_NAS_SEATS
    dealer = int(msg.dealer)
    own: list[int] = []
    if msg.seats[seat].looked and len(msg.hand) == 5:
        copies = [0] * 5
        for wire_rank in msg.hand:
            rank = int(wire_rank) - 1
            own.append(4 * rank + copies[rank])
            copies[rank] += 1
    unseen = sorted(set(range(20)) - set(own))
    others = [s for s in range(n) if s != seat or not own]
    caps = [5] * len(others)
    slots = place(rng, [unseen], [range(len(others))], caps)
    hands: list[tuple[int, ...]] = [()] * n
    for s, cards in zip(others, slots, strict=True):
        hands[s] = tuple(cards)
    if own:
        hands[seat] = tuple(sorted(own))
    deck = [0] * 20
    for k in range(n):
        for i, card in enumerate(hands[(dealer - 1 - k) % n]):
            deck[k + n * i] = card
    return Deal(tuple(deck), ((),) * n, tuple(hands))
