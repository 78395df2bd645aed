"""One game, one place: the :class:`GameSpec` a game package declares, and the checks on it.

Each game is a package ``croupier/games/<game>/`` (``rules``, ``codec``, ``encoder``,
``narrator``) whose ``__init__`` declares one ``SPEC``; :mod:`croupier.games` registers it.
Transport, encoding, replay, the CLI and playthroughs find every per-game part through the spec,
so adding a game touches its package, its proto messages and its rules doc (CONTRIBUTING.md).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from croupier.games._api import Game
from croupier.games._codec_kit import GameCodec
from croupier.games._narrate import Narrator


def _unit(params: Mapping[str, int]) -> tuple[float, float]:
    return 0.0, 1.0


@dataclass(frozen=True, slots=True)
class Encoder:
    """Tensor encodings of the game's observations (outside the rules, Hanabi's
    ``observation_encoder``): ``encode(observation)``, the position, is a float vector of
    ``size`` entries; ``encode_info(observation)``, the information state (the position and
    the round's public actions, :mod:`croupier.games._history_encoder`), one of ``info_size``;
    ``bounds(params)`` the lowest and highest value any entry of either takes in a match of
    those (complete) parameters."""

    size: int
    encode: Callable[[Any], np.ndarray]
    info_size: int = 0
    encode_info: Callable[[Any], np.ndarray] | None = None
    bounds: Callable[[Mapping[str, int]], tuple[float, float]] = _unit


@dataclass(frozen=True, slots=True)
class Bots:
    """The game's bundled bots. ``lineup`` fills the seats in turn when a match names no bot;
    ``bundled`` maps each bot's short name (``croupier match --bot NAME``) to its module in
    ``croupier_bots``. The random bot, which plays every game, is not listed here."""

    lineup: tuple[str, ...]
    bundled: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Playthrough:
    """The configuration of the game's golden playthrough (``tests/golden/<game>.txt``)."""

    params: Mapping[str, int]
    seed: int


@dataclass(frozen=True, slots=True)
class GameSpec:
    """Everything about one game, registered once in :mod:`croupier.games`."""

    game: Game[Any]
    codec: GameCodec
    encoder: Encoder
    narrator: Narrator
    bots: Bots
    playthrough: Playthrough
    #: The JSON-able record of the round that has just ended, from the public observation
    #: after it (``<game>/record.py``): the ``result`` of a replay's ``round_end`` record.
    round_record: Callable[[Any], dict[str, Any]]
    #: ``resample(observation, rng, params=None)``: a full state consistent with a seat's
    #: observation, built from it alone (``<game>/resample.py``; ``docs/research.md``).
    resample: Callable[..., Any]

    @property
    def name(self) -> str:
        """The game's name (``as-nas``), as on the command line and in replays."""
        return self.game.info.name


#: The callables each part must provide, by part.
_CALLABLES: dict[str, tuple[str, ...]] = {
    "game": (
        "initial_state", "num_players", "current_player", "legal_actions", "apply",
        "sample_chance", "apply_chance", "chance_label", "observe", "returns", "action_label",
        "default_action", "round_index", "dealer", "is_public", "ranking",
    ),
    "codec": ("observation", "action_detail", "round_detail"),
    "encoder": ("encode", "encode_info", "bounds"),
    "narrator": ("round_header", "private", "round_end"),
}  # fmt: skip


def missing_parts(spec: object) -> list[str]:
    """What ``spec`` lacks to be a complete game, as ``part`` or ``part.member`` names (empty
    when complete). :func:`croupier.games.register` refuses a spec with anything missing."""
    missing: list[str] = []
    for part, members in _CALLABLES.items():
        value = getattr(spec, part, None)
        if value is None:
            missing.append(part)
            continue
        missing += [f"{part}.{m}" for m in members if not callable(getattr(value, m, None))]
    info = getattr(getattr(spec, "game", None), "info", None)
    if getattr(spec, "game", None) is not None and info is None:
        missing.append("game.info")
    encoder = getattr(spec, "encoder", None)
    if encoder is not None and not (isinstance(encoder.size, int) and encoder.size > 0):
        missing.append("encoder.size")
    info_size = getattr(encoder, "info_size", 0)
    if encoder is not None and not (isinstance(info_size, int) and info_size > 0):
        missing.append("encoder.info_size")
    bots = getattr(spec, "bots", None)
    if bots is None or not getattr(bots, "lineup", ()):
        missing.append("bots.lineup")
    if not callable(getattr(spec, "round_record", None)):
        missing.append("round_record")
    if not callable(getattr(spec, "resample", None)):
        missing.append("resample")
    playthrough = getattr(spec, "playthrough", None)
    if playthrough is None or not isinstance(getattr(playthrough, "seed", None), int):
        missing.append("playthrough")
    return missing
