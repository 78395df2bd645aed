"""Tensor features of the chip state shared by Felduz and Scauver, relative to the observer.

Relative seat ``k`` is absolute seat ``(seat + k) % n``; seats beyond ``n`` stay zero, so the
size is the same for 2, 3 and 4 players. Chip counts are divided by the table's total chips.

=====================  =======  ===============================================================
features               size     meaning
=====================  =======  ===============================================================
seats[k] (k = 0..3)    4 x 7    present, stack, committed, live, eliminated, dealer, to answer
table                  5        pot, A, cap, bet level, max level (all / total chips)
=====================  =======  ===============================================================
"""

from __future__ import annotations

from typing import Any

import numpy as np

from croupier.games import chips
from croupier.games._history_encoder import Features, HistoryBlock

SEAT_FEATURES = 7
#: Length of the chip features.
SIZE = chips.MAX_PLAYERS * SEAT_FEATURES + 5


def total(table: chips.Table) -> float:
    """The table's chips (stacks and this round's commitments), which chips are divided by."""
    return float(sum(table.stacks) + sum(table.committed)) or 1.0


def encode_table(table: chips.Table, seat: int | None, out: np.ndarray, offset: int) -> None:
    """Write the chip features into ``out[offset : offset + SIZE]``."""
    n = len(table.stacks)
    me = seat or 0
    total_chips = total(table)
    bet = table.bet
    for k in range(n):
        s = (me + k) % n
        row = offset + k * SEAT_FEATURES
        out[row] = 1.0
        out[row + 1] = table.stacks[s] / total_chips
        out[row + 2] = table.committed[s] / total_chips
        out[row + 3] = table.live[s]
        out[row + 4] = table.out_round[s] >= 0
        out[row + 5] = table.dealer == s
        out[row + 6] = bet is not None and bet.to_act == s
    row = offset + chips.MAX_PLAYERS * SEAT_FEATURES
    out[row] = chips.pot(table) / total_chips
    out[row + 1] = table.amphora / total_chips
    out[row + 2] = table.cap / total_chips
    out[row + 3] = bet.level / total_chips if bet is not None else 0.0
    out[row + 4] = bet.max_level / total_chips if bet is not None else 0.0


def encode_info(
    obs: Any, position: np.ndarray, size: int, history: HistoryBlock, info_size: int
) -> np.ndarray:
    """A chip game's information state: ``position`` (``size`` floats, the game's encoding of
    ``obs``), then ``history`` of ``obs`` (the round's public actions, bet amounts as shares of
    the table's chips): a float32 vector of ``info_size``."""
    out = np.zeros(info_size, dtype=np.float32)
    out[:size] = position
    table = obs.table
    history.write(obs.history, obs.seat, len(table.stacks), out, size, total(table))
    return out


def chip_features(chip: chips.ChipMove) -> Features:
    """A chip move's history features: its kind (the ``ChipKind`` value), and the amount of a
    bet or a raise."""
    bets = chip.kind is chips.ChipKind.BET or chip.kind is chips.ChipKind.RAISE
    return (int(chip.kind),), chip.amount if bets else 0
