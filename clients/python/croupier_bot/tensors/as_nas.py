"""As-Nas tensors from the wire (``croupier.v1.AsNasObservation``): the arbiter's
``croupier.games.as_nas.encoder``, byte for byte (its docstring lists the features)."""

from __future__ import annotations

from typing import Any

import numpy as np

from croupier_bot.tensors import _history

NUM_ACTIONS = 5
NUM_RANKS = 5
NUM_SEATS = 4
MAX_BET = 4
SEAT_FEATURES = 6
TOTAL_SCALE = 48.0
#: Length of the position tensor.
SIZE = NUM_RANKS + NUM_SEATS * SEAT_FEATURES + 3
_SLOTS = 24
#: Length of the information-state tensor.
INFO_SIZE = SIZE + _history.size(_SLOTS, NUM_ACTIONS)


def _position(msg: Any, seat: int, out: np.ndarray) -> None:
    for rank in msg.hand:  # AsNasRank: the rank + 1
        out[rank - 1] += 1.0 / 4
    base = NUM_RANKS
    for k in range(NUM_SEATS):
        s = (seat + k) % NUM_SEATS
        row = base + k * SEAT_FEATURES
        wire = msg.seats[s]
        out[row] = wire.stake / MAX_BET
        out[row + 1] = wire.folded
        out[row + 2] = wire.looked
        out[row + 3] = msg.dealer == s
        out[row + 4] = msg.to_act == s
        out[row + 5] = wire.total.numerator / wire.total.denominator / TOTAL_SCALE
    table = base + NUM_SEATS * SEAT_FEATURES
    out[table] = msg.high_bet / MAX_BET
    out[table + 1] = msg.pot / (MAX_BET * NUM_SEATS)
    out[table + 2] = msg.deal_index / msg.num_deals


def _entry(entry: Any) -> tuple[int, _history.Features]:
    return entry.seat, ((entry.move - 1,), 0)  # AsNasMove: the action id + 1


#: ``position(msg, seat)`` and ``info(msg, seat)``: the two tensors (``_history.tensors``).
position, info = _history.tensors(
    _position, SIZE, INFO_SIZE, slots=_SLOTS, features=NUM_ACTIONS, decode=_entry,
    players=NUM_SEATS,
)  # fmt: skip
