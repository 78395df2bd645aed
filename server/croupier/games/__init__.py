"""The games Croupier runs, each a package declaring one :class:`GameSpec`, registered here once.

``get_game(name)`` returns a game's rules (the contract of :mod:`croupier.games._api`),
``get_spec(name)`` everything about it (rules, wire codec, tensor encoder, narrator, bundled
bots, golden playthrough); ``GAMES`` lists the names. No other layer keeps a per-game table.

What the other layers use of the games' shared pieces is exported here too: the wire codec's
record and helpers (``GameCodec``, ``SerializedOnce``, ``score``) and the one driver of play
outside a live match (``play``, ``with_chance``), each imported when it is first read
(:mod:`croupier._lazy`: a command that only reads a game imports neither protobuf nor these).
"""

from __future__ import annotations

import importlib
import pkgutil
from typing import TYPE_CHECKING, Any

from croupier._lazy import facade
from croupier.errors import ConfigError
from croupier.games._api import CHANCE, TERMINAL, Game, GameInfo, ParamSpec, places
from croupier.games._legal import ActionRuns, Labels
from croupier.games._spec import Bots, Encoder, GameSpec, Playthrough, missing_parts

if TYPE_CHECKING:
    from croupier.games._codec_kit import (
        GameCodec,
        SerializedOnce,
        message_field,
        score,
        uint_field,
        varint,
    )
    from croupier.games._drive import play, with_chance

# These are imported from their module when first read (croupier._lazy): protobuf is imported
# by a command that puts a game on the wire, the driver by one that plays outside a match.
__getattr__, __dir__ = facade(
    __name__,
    {
        "GameCodec": "_codec_kit",
        "SerializedOnce": "_codec_kit",
        "score": "_codec_kit",
        "message_field": "_codec_kit",
        "uint_field": "_codec_kit",
        "varint": "_codec_kit",
        "play": "_drive",
        "with_chance": "_drive",
    },
)

_REGISTRY: dict[str, GameSpec] = {}


def _packages() -> dict[str, str]:
    """Every game package below this one (a package, not a module: ``chips`` and ``cards40``
    are shared pieces, not games), by the game's name: the package's with ``-`` for ``_``
    (``as_nas`` is ``as-nas``). Listed, not imported: a package is imported when its game is
    first asked for (:func:`get_spec`), so a command that plays or reads one game imports that
    one, and ``croupier --version`` none."""
    return {
        found.name.replace("_", "-"): f"{__name__}.{found.name}"
        for found in pkgutil.iter_modules(__path__)
        if found.ispkg
    }


_PACKAGES = _packages()


def _load(name: str) -> GameSpec | None:
    """The registered spec of ``name``, importing its package first if it has one. A package's
    parts are read as they are used (:class:`GameSpec`): here only its rules, for the name;
    the conformance test checks every part of every package (``missing_parts``)."""
    spec = _REGISTRY.get(name)
    if spec is None and name in _PACKAGES:
        declared = importlib.import_module(_PACKAGES[name]).SPEC
        game = declared.game
        if game is None or game.info.name != name:
            said = "no rules" if game is None else repr(game.info.name)
            raise ConfigError(f"the game package {_PACKAGES[name]} declares {said}, not {name!r}")
        _add(declared, check=False)
        spec = declared
    return spec


def _add(spec: GameSpec, *, check: bool = True) -> None:
    missing = missing_parts(spec) if check else []
    if missing:
        raise ConfigError(f"game spec is incomplete: missing {', '.join(missing)}")
    if spec.name in _REGISTRY:
        raise ConfigError(f"a game called {spec.name!r} is registered already")
    _REGISTRY[spec.name] = spec


def register(spec: GameSpec) -> None:
    """Add a game; :class:`ConfigError` naming what is missing, or a name already taken (by a
    registered game or a game package)."""
    if not missing_parts(spec):
        _load(spec.name)  # a game package of that name takes the name first
    _add(spec)


def get_spec(name: str) -> GameSpec:
    """Everything about the game called ``name``; :class:`ConfigError` listing the known names."""
    spec = _load(name)
    if spec is None:
        raise ConfigError(f"unknown game {name!r} (known: {', '.join(GAMES)})")
    return spec


def get_game(name: str) -> Game[Any]:
    """The rules of the game called ``name``; :class:`ConfigError` listing the known names."""
    return get_spec(name).game


def bundled_bots() -> dict[str, str]:
    """Every game's bundled bots: short name -> module in ``croupier_bots`` (imports every
    game package)."""
    for name in GAMES:
        _load(name)
    return {
        name: module for spec in _REGISTRY.values() for name, module in spec.bots.bundled.items()
    }


#: Names of the game packages' games, as used on the command line and in replays.
GAMES: tuple[str, ...] = tuple(sorted(_PACKAGES))

__all__ = [
    "CHANCE",
    "GAMES",
    "TERMINAL",
    "ActionRuns",
    "Bots",
    "Encoder",
    "Game",
    "GameCodec",
    "GameInfo",
    "GameSpec",
    "Labels",
    "ParamSpec",
    "Playthrough",
    "SerializedOnce",
    "bundled_bots",
    "get_game",
    "get_spec",
    "message_field",
    "missing_parts",
    "places",
    "play",
    "register",
    "score",
    "uint_field",
    "varint",
    "with_chance",
]
