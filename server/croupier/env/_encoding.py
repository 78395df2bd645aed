"""The tensors a policy sees: a game's encoder (``games/<game>/encoder.py``, through its spec)
of the kind asked for, its size and bounds, and the legal-action mask."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from croupier.errors import ConfigError
from croupier.games import get_spec

#: The tensor kinds: the current position (the encoders' ``encode``, the default), or the
#: information state (``encode_info``: the position and the round's public actions).
KINDS = ("position", "info")


@dataclass(frozen=True, slots=True)
class Tensors:
    """One game's tensors of one kind: ``encode(observation)`` is a ``float32`` vector of
    ``size`` entries, each within ``[low, high]`` for the match's parameters; masks have
    ``num_actions`` entries."""

    game: str
    kind: str
    size: int
    encode: Callable[[Any], np.ndarray]
    low: float
    high: float
    num_actions: int


def tensors(game: str, kind: str = "position", params: Mapping[str, int] | None = None) -> Tensors:
    """The tensors of ``kind`` for ``game`` (parameters: the defaults updated by ``params``);
    :class:`ConfigError` for an unknown game, kind or parameter."""
    if kind not in KINDS:
        raise ConfigError(f"unknown tensor kind {kind!r} (known: {', '.join(KINDS)})")
    spec = get_spec(game)
    info = spec.game.info
    full = info.make_params(params)
    encoder = spec.encoder
    low, high = encoder.bounds(full)
    if kind == "position":
        return Tensors(game, kind, encoder.size, encoder.encode, low, high,
                       info.num_distinct_actions)  # fmt: skip
    assert encoder.encode_info is not None  # (registration checks every game has one)
    return Tensors(game, kind, encoder.info_size, encoder.encode_info, low, high,
                   info.num_distinct_actions)  # fmt: skip


def action_mask(num_actions: int, legal: tuple[int, ...]) -> np.ndarray:
    """An ``int8`` vector of ``num_actions`` entries, 1 at each legal id."""
    mask = np.zeros(num_actions, dtype=np.int8)
    if legal:
        mask[list(legal)] = 1
    return mask
