"""Tensor encodings of observations (outside the rules, after Hanabi's ``observation_encoder``).

``encoder(game)`` returns ``(size, encode)`` where ``encode(observation) -> numpy.ndarray``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from croupier.encoding import as_nas, felduz, fipsen, scauver
from croupier.errors import ConfigError

_ENCODERS: dict[str, tuple[int, Callable[[Any], np.ndarray]]] = {
    "as-nas": (as_nas.SIZE, as_nas.encode),
    "fipsen": (fipsen.SIZE, fipsen.encode),
    "scauver": (scauver.SIZE, scauver.encode),
    "felduz": (felduz.SIZE, felduz.encode),
}


def encoder(game: str) -> tuple[int, Callable[[Any], np.ndarray]]:
    """The encoding size and function of ``game``'s observations."""
    try:
        return _ENCODERS[game]
    except KeyError:
        raise ConfigError(f"no tensor encoding for {game!r}") from None


__all__ = ["encoder"]
