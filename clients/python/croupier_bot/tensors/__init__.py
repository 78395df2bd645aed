"""The arbiter's tensor encodings, computed from the wire: what ``Decision.tensor()`` and
``Decision.action_mask()`` return, byte for byte the tensors ``croupier.env`` gives a policy
trained in-process (``docs/research.md``), so a policy trained there plays as a bot unchanged.

Two kinds per game (the feature tables are in the arbiter's ``croupier/games/<game>/encoder.py``):

* ``"position"``: the current position, seats relative to the bot's;
* ``"info"``: the information state, the position followed by the round's public actions in
  order (``croupier.games._history_encoder``).

Both are ``float32`` vectors of a fixed size per game (:func:`size`). The action mask is an
``int8`` vector with one entry per action id of the game (:func:`num_actions`), 1 for the legal
ones. Needs numpy (``pip install "croupier-bot[tensors]"``); the rest of the SDK does not.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Iterable
from types import ModuleType
from typing import Any

import numpy as np

#: The tensor kinds.
KINDS = ("position", "info")
#: Each game's module of this package, by the game's name (``Welcome.game``): the module's name
#: with ``-`` for ``_`` (``as_nas`` is ``as-nas``), which is also its observation's field
#: (``Observation.game``). Found, not listed: a game's module needs no line here.
_GAMES: dict[str, str] = {
    found.name.replace("_", "-"): found.name
    for found in pkgutil.iter_modules(__path__)
    if not found.name.startswith("_")
}


def _module(game: str) -> ModuleType:
    if game not in _GAMES:
        raise ValueError(f"no tensors for the game {game!r} (known: {', '.join(_GAMES)})")
    return importlib.import_module(f"{__name__}.{_GAMES[game]}")


def _kind(kind: str) -> str:
    if kind not in KINDS:
        raise ValueError(f"no tensor kind {kind!r} (known: {', '.join(KINDS)})")
    return kind


def size(game: str, kind: str = "position") -> int:
    """Length of ``game``'s tensor of ``kind``."""
    module = _module(game)
    return int(module.SIZE if _kind(kind) == "position" else module.INFO_SIZE)


def num_actions(game: str) -> int:
    """Number of action ids of ``game``: the length of its action mask."""
    return int(_module(game).NUM_ACTIONS)


def encode(game: str, observation: Any, seat: int, kind: str = "position") -> np.ndarray:
    """The tensor of ``kind`` of ``seat``'s ``observation`` (a ``croupier.v1.Observation``, or
    the SDK's view of one) in ``game``."""
    module = _module(game)
    wire = getattr(observation, "wire", observation)  # an ObservationView: the message itself
    field = _GAMES[game]
    if wire.WhichOneof("game") != field:
        raise ValueError(f"the observation is not one of {game}")
    message = getattr(wire, field)
    encoded: np.ndarray = (module.position if _kind(kind) == "position" else module.info)(
        message, seat
    )
    return encoded


def action_mask(game: str, legal_ids: Iterable[int]) -> np.ndarray:
    """An ``int8`` vector of :func:`num_actions` entries, 1 at each of ``legal_ids``."""
    mask = np.zeros(num_actions(game), dtype=np.int8)
    mask[list(legal_ids)] = 1
    return mask


__all__ = ["KINDS", "action_mask", "encode", "num_actions", "size"]
