"""The games Croupier runs, each a package declaring one :class:`GameSpec`, registered here once.

``get_game(name)`` returns a game's rules (the contract of :mod:`croupier.games._api`),
``get_spec(name)`` everything about it (rules, wire codec, tensor encoder, narrator, bundled
bots, golden playthrough); ``GAMES`` lists the names. No other layer keeps a per-game table.
"""

from __future__ import annotations

import importlib
import pkgutil
from typing import Any

from croupier.errors import ConfigError
from croupier.games._api import CHANCE, TERMINAL, Game, GameInfo, ParamSpec, places
from croupier.games._legal import ActionRuns, Labels
from croupier.games._spec import Bots, Encoder, GameSpec, Playthrough, missing_parts

_REGISTRY: dict[str, GameSpec] = {}


def register(spec: GameSpec) -> None:
    """Add a game; :class:`ConfigError` naming what is missing, or a name already taken."""
    missing = missing_parts(spec)
    if missing:
        raise ConfigError(f"game spec is incomplete: missing {', '.join(missing)}")
    if spec.name in _REGISTRY:
        raise ConfigError(f"a game called {spec.name!r} is registered already")
    _REGISTRY[spec.name] = spec


def get_spec(name: str) -> GameSpec:
    """Everything about the game called ``name``; :class:`ConfigError` listing the known names."""
    try:
        return _REGISTRY[name]
    except KeyError:
        raise ConfigError(f"unknown game {name!r} (known: {', '.join(GAMES)})") from None


def get_game(name: str) -> Game[Any]:
    """The rules of the game called ``name``; :class:`ConfigError` listing the known names."""
    return get_spec(name).game


def bundled_bots() -> dict[str, str]:
    """Every game's bundled bots: short name -> module in ``croupier_bots``."""
    return {
        name: module for spec in _REGISTRY.values() for name, module in spec.bots.bundled.items()
    }


def _discover() -> None:
    """Register the ``SPEC`` of every game package below this one (a package, not a module:
    ``chips`` and ``cards40`` are shared pieces, not games), in name order."""
    for found in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if found.ispkg:
            register(importlib.import_module(f"{__name__}.{found.name}").SPEC)


_discover()

#: Names of the registered games, as used on the command line and in replays.
GAMES: tuple[str, ...] = tuple(sorted(_REGISTRY))

__all__ = [
    "CHANCE",
    "GAMES",
    "TERMINAL",
    "ActionRuns",
    "Bots",
    "Encoder",
    "Game",
    "GameInfo",
    "GameSpec",
    "Labels",
    "ParamSpec",
    "Playthrough",
    "bundled_bots",
    "get_game",
    "get_spec",
    "missing_parts",
    "places",
    "register",
]
