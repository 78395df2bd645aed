"""The history half of the information-state tensors, from the wire: the round's public actions
in order (``croupier.games._history_encoder`` on the arbiter's side, whose bytes these are).

Each game's module turns one ``<Game>HistoryEntry`` into :data:`Features` (the feature indices
set to 1 and a chip amount); :func:`write` lays the entries out: ``slots`` entries of the
actor's relative seat one-hot (4) and ``features`` floats, then the ``dropped`` flag (1 when the
round had more than ``slots`` public actions and the oldest were left out).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

#: Width of the actor's one-hot (the most seats any game has).
SEATS = 4

#: An entry's features: the indices set to 1, and a chip amount (0: none).
Features = tuple[tuple[int, ...], int]


def size(slots: int, features: int) -> int:
    """Floats in a block of ``slots`` entries of ``features`` features."""
    return slots * (SEATS + features) + 1


def write(
    entries: Sequence[Any],
    seat: int,
    players: int,
    out: np.ndarray,
    offset: int,
    *,
    slots: int,
    features: int,
    decode: Callable[[Any], tuple[int, Features]],
    amount_at: int = -1,
    chips: float = 1.0,
) -> None:
    """Write the block for ``entries`` (the wire's history entries; ``decode(entry)`` gives the
    actor's seat and the entry's features) into ``out`` from ``offset``."""
    width = SEATS + features
    kept = list(entries)
    if len(kept) > slots:
        out[offset + slots * width] = 1.0
        kept = kept[-slots:]
    amount_col = SEATS + amount_at
    row = offset
    for entry in kept:
        actor, (ones, amount) = decode(entry)
        out[row + (actor - seat) % players] = 1.0
        for j in ones:
            out[row + SEATS + j] = 1.0
        if amount:
            out[row + amount_col] = amount / chips
        row += width


#: ``fill(msg, seat, out)``: write a game's position features into ``out`` from 0.
Fill = Callable[[Any, int, np.ndarray], None]
#: ``position(msg, seat)`` or ``info(msg, seat)``: a tensor of a seat's observation message.
Tensor = Callable[[Any, int], np.ndarray]


def tensors(
    fill: Fill,
    size: int,
    info_size: int,
    *,
    slots: int,
    features: int,
    decode: Callable[[Any], tuple[int, Features]],
    players: int | None = None,
    amount_at: int = -1,
    chips: Callable[[Any], float] | None = None,
) -> tuple[Tensor, Tensor]:
    """A game's ``position(msg, seat)`` (``size`` floats, written by ``fill``) and ``info(msg,
    seat)`` (the position, then the round's public actions, :func:`write`: ``slots`` entries of
    ``features``, ``players`` seats or, None, those of ``msg.seats``; a chip amount at
    ``amount_at`` divided by ``chips(msg)``)."""

    def position(msg: Any, seat: int) -> np.ndarray:
        """The position tensor of ``seat``'s observation ``msg``."""
        out = np.zeros(size, dtype=np.float32)
        fill(msg, seat, out)
        return out

    def info(msg: Any, seat: int) -> np.ndarray:
        """The information-state tensor: the position, then the round's public actions."""
        out = np.zeros(info_size, dtype=np.float32)
        fill(msg, seat, out)
        n = players if players is not None else len(msg.seats)
        write(
            msg.history, seat, n, out, size, slots=slots, features=features, decode=decode,
            amount_at=amount_at, chips=chips(msg) if chips is not None else 1.0,
        )  # fmt: skip
        return out

    return position, info
