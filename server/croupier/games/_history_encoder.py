"""The history half of every game's information-state tensor: the round's public actions in
order (OpenSpiel's information-state tensors of Leduc or Bridge hold the betting sequence the
same way), shared by the four encoders (``<game>/encoder.py``, ``encode_info``).

A game's information-state tensor is its position tensor (``encode``: the current position
only) followed by this block, built from the observation's ``history`` (this round's public
actions, the same for every seat) and nothing else:

=====================  =================  ======================================================
features               size               meaning
=====================  =================  ======================================================
entry[k]               slots x (4 + F)    the round's k-th public action, oldest first: the
                                          actor one-hot by relative seat (4), then F features of
                                          the action (per game: the action id one-hot, or its
                                          kind one-hot, chip amount / table chips and cards)
dropped                1                  1 when the round had more than ``slots`` public
                                          actions: the oldest were dropped (the last ``slots``
                                          are kept)
=====================  =================  ======================================================

Relative seat ``k`` is absolute seat ``(seat + k) % n`` as in the position tensors; a public
observation (``seat=None``) is encoded from seat 0's point of view. Entries beyond the round's
length stay zero. The Python SDK computes the same block from the wire (``croupier_bot.tensors``),
byte for byte.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache

import numpy as np

#: Width of the actor's one-hot (the most seats any game has).
SEATS = 4

#: What an action id contributes to its entry: the feature indices set to 1, and a chip amount
#: (0: none) written at the block's ``amount_at`` feature as a share of the table's chips.
Features = tuple[tuple[int, ...], int]


@dataclass(frozen=True)
class HistoryBlock:
    """One game's history block: ``slots`` entries of ``SEATS + features`` floats, then the
    ``dropped`` flag. ``decode`` gives an action id's :data:`Features` (cached per id)."""

    slots: int
    features: int
    decode: Callable[[int], Features]
    #: The feature that holds a chip amount (-1: the game has none).
    amount_at: int = -1
    _decoded: Callable[[int], Features] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_decoded", cache(self.decode))

    @property
    def width(self) -> int:
        """Floats per entry."""
        return SEATS + self.features

    @property
    def size(self) -> int:
        """Floats in the block."""
        return self.slots * self.width + 1

    def write(
        self,
        history: tuple[tuple[int, int], ...],
        seat: int | None,
        players: int,
        out: np.ndarray,
        offset: int,
        chips: float = 1.0,
    ) -> None:
        """Write the block for ``history`` (``(seat, action id)`` pairs) into ``out`` from
        ``offset`` (zeros there already); ``chips``: the table's chips, which amounts are
        divided by."""
        slots, width = self.slots, self.width
        if len(history) > slots:
            out[offset + slots * width] = 1.0
            history = history[-slots:]
        me = seat or 0
        decoded = self._decoded
        amount_col = SEATS + self.amount_at
        row = offset
        for actor, action in history:
            out[row + (actor - me) % players] = 1.0
            ones, amount = decoded(action)
            for j in ones:
                out[row + SEATS + j] = 1.0
            if amount:
                out[row + amount_col] = amount / chips
            row += width


__all__ = ["SEATS", "Features", "HistoryBlock"]
