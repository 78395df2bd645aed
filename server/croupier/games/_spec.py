"""One game, one place: the :class:`GameSpec` a game package declares, and the checks on it.

Each game is a package ``croupier/games/<game>/`` (``rules``, ``codec``, ``encoder``,
``narrator``, ``record``, ``resample``) whose ``__init__`` declares one ``SPEC`` (its bots and
playthrough; the parts are read from those modules as they are used); :mod:`croupier.games`
registers it.
Transport, encoding, replay, the CLI and playthroughs find every per-game part through the spec,
and the SDKs read theirs from the contract, so adding a game touches its package, its ``.proto``
(with its entries in ``bot.proto``'s four oneofs), its rules doc and one line of
``pyproject.toml`` (CONTRIBUTING.md; ``tests/games/test_new_game.py`` tries it).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # (annotations only: declaring a game imports neither numpy nor protobuf)
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


#: Where a game package keeps each part (CONTRIBUTING.md, "Adding a game"): the module below
#: the package, and the name in it (an encoder is the module's ``SIZE``, ``encode``,
#: ``INFO_SIZE``, ``encode_info`` and ``bounds``).
_LAYOUT: dict[str, tuple[str, str]] = {
    "game": ("rules", "GAME"),
    "codec": ("codec", "CODEC"),
    "encoder": ("encoder", ""),
    "narrator": ("narrator", "NARRATOR"),
    "round_record": ("record", "round_record"),
    "resample": ("resample", "resample"),
}


class GameSpec:
    """Everything about one game, registered once in :mod:`croupier.games`: its rules
    (``game``), wire codec, tensor encoder, narrator, bundled bots, golden playthrough and the
    record of a finished round.

    A game package declares its spec with ``package=__name__``: each of its parts is then read
    from the package's own module (``rules.GAME``, ``codec.CODEC``, ``encoder.SIZE``, ``encode``,
    ``INFO_SIZE``, ``encode_info`` and ``bounds``, ``narrator.NARRATOR``, ``record.round_record``,
    ``resample.resample``) when it is first used, so that reading a replay imports the rules and
    not the wire codec (protobuf), and ``croupier --version`` no game at all. A part given as an
    argument is used as it is."""

    __slots__ = ("_package", "_parts", "bots", "playthrough")

    bots: Bots
    playthrough: Playthrough

    def __init__(
        self,
        *,
        bots: Bots,
        playthrough: Playthrough,
        package: str | None = None,
        game: Game[Any] | None = None,
        codec: GameCodec | None = None,
        encoder: Encoder | None = None,
        narrator: Narrator | None = None,
        round_record: Callable[[Any], dict[str, Any]] | None = None,
        resample: Callable[..., Any] | None = None,
    ) -> None:
        self.bots = bots
        self.playthrough = playthrough
        self._package = package
        given = {
            "game": game,
            "codec": codec,
            "encoder": encoder,
            "narrator": narrator,
            "round_record": round_record,
            "resample": resample,
        }
        self._parts: dict[str, Any] = {k: v for k, v in given.items() if v is not None}

    def _part(self, name: str) -> Any:
        """Part ``name``: given, or read from the package's module once (``None``: neither)."""
        if name in self._parts:
            return self._parts[name]
        if self._package is None:
            return None
        module_name, attr = _LAYOUT[name]
        try:
            module = importlib.import_module(f"{self._package}.{module_name}")
        except ModuleNotFoundError as exc:
            if exc.name != f"{self._package}.{module_name}":
                raise
            return None  # no such module: the part is missing (``missing_parts`` says so)
        if attr:
            value = getattr(module, attr, None)
        elif hasattr(module, "SIZE") and hasattr(module, "encode"):
            value = Encoder(
                module.SIZE,
                module.encode,
                getattr(module, "INFO_SIZE", 0),
                getattr(module, "encode_info", None),
                getattr(module, "bounds", _unit),
            )
        else:
            value = None
        if value is not None:
            self._parts[name] = value
        return value

    @property
    def game(self) -> Game[Any]:
        """The rules (``rules.GAME``): the contract of :mod:`croupier.games._api`."""
        value: Game[Any] = self._part("game")
        return value

    @property
    def codec(self) -> GameCodec:
        """How observations, action details and round results go on the wire (``codec.CODEC``)."""
        value: GameCodec = self._part("codec")
        return value

    @property
    def encoder(self) -> Encoder:
        """The tensor encodings of observations (``encoder.SIZE``, ``encode``, ``INFO_SIZE``,
        ``encode_info``, ``bounds``)."""
        value: Encoder = self._part("encoder")
        return value

    @property
    def narrator(self) -> Narrator:
        """The hand history's game-specific lines (``narrator.NARRATOR``)."""
        value: Narrator = self._part("narrator")
        return value

    @property
    def round_record(self) -> Callable[[Any], dict[str, Any]]:
        """The JSON-able record of the round that has just ended, from the public observation
        after it (``record.round_record``): the ``result`` of a replay's ``round_end`` record."""
        value: Callable[[Any], dict[str, Any]] = self._part("round_record")
        return value

    @property
    def resample(self) -> Callable[..., Any]:
        """``resample(observation, rng, params=None)``: a full state consistent with a seat's
        observation, built from it alone (``resample.resample``; ``docs/research.md``)."""
        value: Callable[..., Any] = self._part("resample")
        return value

    @property
    def name(self) -> str:
        """The game's name (``as-nas``), as on the command line and in replays."""
        return self.game.info.name

    @property
    def package(self) -> str | None:
        """The game package that declared this spec (``croupier.games.as_nas``); ``None`` for
        a spec whose parts were all given. Other layers find the package's files beside it
        (``croupier serve`` its ``web.js``, the page's board renderer)."""
        return self._package

    @property
    def wire_name(self) -> str:
        """The game's name on the wire (``as_nas``): its entry in each of ``bot.proto``'s
        oneofs (``Observation.game``, ``LegalAction.detail``, ``DealEnded.game``, and
        ``DealEnded.past`` as ``<wire_name>_past``), its ``.proto`` file and ``_pb2`` module,
        and its package: the name with ``_`` for ``-``."""
        return self.name.replace("-", "_")

    def replace(self, **changes: Any) -> GameSpec:
        """A spec with ``changes`` (parts, ``bots``, ``playthrough``) and every other part of
        this one (``None`` for a part: without it)."""
        parts = {name: self._part(name) for name in _LAYOUT}
        fields = {"bots": self.bots, "playthrough": self.playthrough, **parts, **changes}
        return GameSpec(**fields)

    def __repr__(self) -> str:
        where = f"package={self._package!r}" if self._package else "parts given"
        return f"GameSpec({where}, bots={self.bots!r})"


#: The callables each part must provide, by part.
_CALLABLES: dict[str, tuple[str, ...]] = {
    "game": (
        "initial_state", "num_players", "current_player", "legal_actions", "legal_runs",
        "is_legal", "apply",
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
