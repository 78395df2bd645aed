"""Chip features shared by Felduz and Scauver, from the wire's ``ChipTable`` (the arbiter's
``croupier.games._chips_encoder``, byte for byte): relative seats, chips as shares of the
table's chips; :func:`tensors`, a chip game's ``position`` and ``info``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from croupier_bot.tensors import _history

MAX_PLAYERS = 4
#: ``ChipMove`` values of a bet and a raise (the moves with an amount).
_BET, _RAISE = 3, 4
SEAT_FEATURES = 7
#: Length of the chip features.
SIZE = MAX_PLAYERS * SEAT_FEATURES + 5


def total(table: Any) -> float:
    """The table's chips (stacks and this round's commitments), which chips are divided by."""
    return float(sum(table.stacks) + sum(table.committed)) or 1.0


def write(table: Any, seat: int, out: np.ndarray, offset: int) -> None:
    """Write the chip features of ``table`` (a ``croupier.v1.ChipTable``) from ``offset``."""
    n = len(table.stacks)
    chips = total(table)
    bet = table.bet if table.HasField("bet") else None
    for k in range(n):
        s = (seat + k) % n
        row = offset + k * SEAT_FEATURES
        out[row] = 1.0
        out[row + 1] = table.stacks[s] / chips
        out[row + 2] = table.committed[s] / chips
        out[row + 3] = table.live[s]
        out[row + 4] = table.eliminated_after_round[s] >= 0
        out[row + 5] = table.dealer == s
        out[row + 6] = bet is not None and bet.to_act == s
    row = offset + MAX_PLAYERS * SEAT_FEATURES
    out[row] = table.pot / chips
    out[row + 1] = table.amphora / chips
    out[row + 2] = table.cap / chips
    out[row + 3] = bet.level / chips if bet is not None else 0.0
    out[row + 4] = bet.max_level / chips if bet is not None else 0.0


def features(chip: Any) -> _history.Features:
    """A wire ``ChipAction``'s history features: its kind (the ``ChipMove`` value - 1, the
    arbiter's ``ChipKind``), and the amount of a bet or a raise."""
    return (chip.move - 1,), chip.amount if chip.move in (_BET, _RAISE) else 0


def _message_total(msg: Any) -> float:
    return total(msg.table)


def tensors(
    fill: _history.Fill,
    size: int,
    info_size: int,
    *,
    slots: int,
    features: int,
    decode: Callable[[Any], tuple[int, _history.Features]],
    amount_at: int,
) -> tuple[_history.Tensor, _history.Tensor]:
    """:func:`croupier_bot.tensors._history.tensors` of a chip game: the seats of
    ``msg.seats``, bet amounts as shares of the table's chips."""
    return _history.tensors(
        fill, size, info_size, slots=slots, features=features, decode=decode,
        amount_at=amount_at, chips=_message_total,
    )  # fmt: skip
