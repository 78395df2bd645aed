"""Pure rules of the games Croupier runs, behind one contract (:mod:`croupier.games._api`).

``get_game(name)`` returns the module object for a registered game; ``GAMES`` lists the names.
"""

from __future__ import annotations

from typing import Any

from croupier.errors import ConfigError
from croupier.games import as_nas, felduz, fipsen, scauver
from croupier.games._api import CHANCE, TERMINAL, Game, GameInfo, ParamSpec, places

_REGISTRY: dict[str, Game[Any]] = {
    g.info.name: g for g in (as_nas.GAME, felduz.GAME, fipsen.GAME, scauver.GAME)
}

#: Names of the registered games, as used on the command line and in replays.
GAMES: tuple[str, ...] = tuple(sorted(_REGISTRY))


def get_game(name: str) -> Game[Any]:
    """The game called ``name``; :class:`ConfigError` listing the known names otherwise."""
    try:
        return _REGISTRY[name]
    except KeyError:
        raise ConfigError(f"unknown game {name!r} (known: {', '.join(GAMES)})") from None


__all__ = ["CHANCE", "GAMES", "TERMINAL", "Game", "GameInfo", "ParamSpec", "get_game", "places"]
