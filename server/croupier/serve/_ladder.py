"""``croupier serve``'s continuous ladder: the ``[ladder]`` table of its configuration
(:func:`parse_ladder_config`), the backend that plays the ladder's matches through the
:class:`~croupier.serve.CompetitionServer` (:class:`ServeBackend`), and :func:`start_ladder`,
which the server calls once its ports are up.

Every registered bot that plays the ladder's game takes part (not a disabled one, nor one whose
key is revoked): the scheduler looks for new registrations each time it fills the free places.
Ladder matches are the server's own matches (tournament ``""``): they are listed, watched and
cancelled like any other, stored in the server's store, and their ratings are the fold over the
server's finished matches of the ladder's game in the order they finished, the same fold
``GetStandings`` computes.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any

import structlog

from croupier.arbiter import (
    SEED_BITS,
    SEED_LIMIT,
    Match,
    MatchConfig,
    searchable,
    searchable_warning,
)
from croupier.errors import ConfigError
from croupier.games import get_game
from croupier.ladder._schedule import Seeder
from croupier.ladder._server_store import CANCELLED, FINISHED
from croupier.ladder._store import MatchRecord
from croupier.serve._scheduler import (
    LadderConfig,
    LadderMatch,
    LadderScheduler,
    LadderState,
    RateMatch,
)

if TYPE_CHECKING:
    from croupier.serve._server import CompetitionServer

#: The keys of the ``[ladder]`` table, with their kinds.
_KEYS: dict[str, type | tuple[type, ...]] = {
    "game": str,
    "params": dict,
    "name": str,
    "seats": int,
    "concurrency": int,
    "duplicate": bool,
    "allow_remote_duplicate": bool,
    "seatings": str,
    "exploration": (int, float),
    "closeness": (int, float),
    "seed": int,
    "enabled": bool,
}


def parse_ladder_config(table: Mapping[str, Any], source: str) -> LadderConfig | None:
    """The ladder of a ``[ladder]`` table (``None`` when there is none, or ``enabled =
    false``); :class:`ConfigError` in one line naming the key and ``source`` for a mistake."""

    def fail(key: str, message: str) -> ConfigError:
        return ConfigError(f"{source}: ladder.{key}: {message}")

    if not table or table.get("enabled", True) is False:
        return None
    for key, value in table.items():
        if key not in _KEYS:
            raise fail(key, f"unknown key (known: {', '.join(sorted(_KEYS))})")
        kind = _KEYS[key]
        if (isinstance(value, bool) and kind is not bool) or not isinstance(value, kind):
            raise fail(key, f"must be {_kind(kind)}, got {value!r}")
    if "game" not in table:
        raise fail("game", "missing (the game the ladder plays)")
    params = dict(table.get("params", {}))
    for key, value in params.items():
        if isinstance(value, bool) or not isinstance(value, int):
            raise fail(f"params.{key}", f"must be an integer, got {value!r}")
    config = LadderConfig(
        game=table["game"],
        params=params,
        name=table.get("name", "ladder"),
        seats=table.get("seats", 0),
        concurrency=table.get("concurrency", 4),
        duplicate=table.get("duplicate", False),
        allow_remote_duplicate=table.get("allow_remote_duplicate", False),
        seatings=table.get("seatings", "rotations"),
        exploration=float(table.get("exploration", 0.1)),
        closeness=float(table.get("closeness", 25 / 6)),
        seed=table.get("seed"),
    )
    if config.seed is not None and not 0 <= config.seed < SEED_LIMIT:
        raise fail("seed", f"must be from 0 to 2**{SEED_BITS} - 1, got {config.seed}")
    config.check_duplicate(source)
    if config.seatings not in ("rotations", "permutations"):
        raise fail("seatings", f"must be rotations or permutations, got {config.seatings!r}")
    if not 1 <= config.concurrency <= 100_000:
        raise fail("concurrency", f"must be from 1 to 100000, got {config.concurrency}")
    if not 0 <= config.exploration <= 1:
        raise fail("exploration", f"must be from 0 to 1, got {config.exploration}")
    if config.closeness <= 0:
        raise fail("closeness", f"must be more than 0, got {config.closeness}")
    if not config.name or not config.name.replace("-", "").replace("_", "").isalnum():
        raise fail("name", f"use letters, digits, '-' and '_', got {config.name!r}")
    try:
        get_game(config.game)
    except ConfigError as exc:
        raise fail("game", str(exc)) from None
    try:
        config.full_params()
    except ConfigError as exc:
        raise fail("params", str(exc).removeprefix("ladder: ")) from None
    return config


def _kind(kind: type | tuple[type, ...]) -> str:
    names = {bool: "true or false", int: "an integer", str: "a string", dict: "a table"}
    return "a number" if isinstance(kind, tuple) else names.get(kind, kind.__name__)


class ServeBackend:
    """The ladder's matches played by ``server`` (:meth:`CompetitionServer.play`): the
    registered bots are the server's, its clocks apply, and each finished match is stored by
    the server in one transaction (the ratings are their fold, not stored apart)."""

    def __init__(self, server: CompetitionServer, config: LadderConfig) -> None:
        self._server = server
        self._config = config

    def registered(self) -> Iterable[str]:
        # only the bots that play the ladder's game and may be seated (not disabled, with a
        # key): a bot declared for other games never takes a seat here
        return [s.bot.name for s in self._server.bots() if self._seatable(s.bot.name)]

    def _seatable(self, name: str) -> bool:
        return self._server.seatable(name, self._config.game)

    def connected(self, name: str) -> bool:
        # (a bot whose games, key or state changed since it joined the ladder is left out)
        return self._seatable(name) and self._server.pool.connected(name)

    def room(self, name: str) -> int:
        return self._server.pool.room(name) if self._seatable(name) else 0

    def add_bot(self, name: str) -> None:
        self._server.pool.assigner(name)  # KeyError if it is no registered bot

    def history(self) -> list[MatchRecord]:
        return [m.record() for m in self._server.finished_matches("", self._config.game)]

    def used_ids(self) -> Iterable[str]:
        return [m.match_id for m in self._server.store.list_matches(None, 1 << 40)]

    async def play(
        self,
        match: LadderMatch,
        config: MatchConfig,
        rate: RateMatch,
        on_ready: Callable[[Match], None],
    ) -> tuple[LadderState, MatchRecord | None]:
        from croupier.serve._server import MatchOrder, StateError  # it imports this module

        order = MatchOrder(
            game=config.game,
            bots=match.bots,
            params=dict(config.params),
            seed=config.seed,
            match_id=match.match_id,
            tournament="",
            chance_script=config.chance_script,
            deal_set=match.deal_set,
            on_ready=on_ready,
        )
        playing = asyncio.ensure_future(self._server.play(order))
        cancelled = asyncio.ensure_future(match.cancel_event.wait())
        try:
            await asyncio.wait({playing, cancelled}, return_when=asyncio.FIRST_COMPLETED)
            if cancelled.done() and not playing.done():
                with contextlib.suppress(Exception):
                    self._server.cancel(match.match_id, "cancelled by the ladder")
            stored = await playing
        except StateError:  # the server began to stop after the ladder chose this match
            return "aborted", None
        finally:
            cancelled.cancel()
        if stored.state == FINISHED:
            return "finished", stored.record()
        return ("cancelled" if stored.state == CANCELLED else "aborted"), None


async def start_ladder(server: CompetitionServer) -> LadderScheduler | None:
    """Start the ladder the server's configuration describes (``None`` if it has none)."""
    config = parse_ladder_config(server.config.ladder, server.config.source)
    if config is None:
        return None
    if config.seed is None:
        seeds = Seeder(server.store.secret())
    else:
        seeds = Seeder.explicit(config.seed)
        if searchable(config.seed):
            structlog.get_logger("croupier.serve").warning(
                "searchable_seed", detail=searchable_warning(config.seed, "[ladder] seed")
            )
    scheduler = LadderScheduler(config, ServeBackend(server, config), seeds=seeds)
    await scheduler.start()
    return scheduler
