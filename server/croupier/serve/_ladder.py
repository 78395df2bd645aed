"""``croupier serve``'s continuous ladder: the backend that plays the ladder's matches through
the server's match service (:class:`ServeBackend`), and :func:`start_ladder`, which the server
calls once its ports are up. The ``[ladder]`` table of its configuration is read by
:func:`~croupier.serve._config.parse_ladder_config`.

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
from collections.abc import Callable, Iterable

import structlog

from croupier.arbiter import Match, MatchConfig, searchable, searchable_warning
from croupier.ladder import MatchRecord, Seeder
from croupier.serve._bots import Bots
from croupier.serve._config import ServeConfig, parse_ladder_config
from croupier.serve._errors import StateError
from croupier.serve._matches import Matches, MatchOrder
from croupier.serve._scheduler import (
    LadderConfig,
    LadderMatch,
    LadderScheduler,
    LadderState,
    RateMatch,
)
from croupier.serve._store import CANCELLED, FINISHED, ServerStore
from croupier.transport import BotPool


class ServeBackend:
    """The ladder's matches played by the server's ``matches`` (:meth:`Matches.play`): the
    registered ``bots`` are the server's, seated from its ``pool``, its clocks apply, and each
    finished match is stored by the server in one transaction (the ratings are their fold, not
    stored apart); ``store`` is a connection for reads on the event loop's thread."""

    def __init__(
        self,
        bots: Bots,
        matches: Matches,
        pool: BotPool,
        store: ServerStore,
        config: LadderConfig,
    ) -> None:
        self._bots = bots
        self._matches = matches
        self._pool = pool
        self._store = store
        self._config = config

    def registered(self) -> Iterable[str]:
        # only the bots that play the ladder's game and may be seated (not disabled, with a
        # key): a bot declared for other games never takes a seat here
        return [s.bot.name for s in self._bots.statuses() if self._seatable(s.bot.name)]

    def _seatable(self, name: str) -> bool:
        return self._bots.seatable(name, self._config.game)

    def connected(self, name: str) -> bool:
        # (a bot whose games, key or state changed since it joined the ladder is left out)
        return self._seatable(name) and self._pool.connected(name)

    def room(self, name: str) -> int:
        return self._pool.room(name) if self._seatable(name) else 0

    def add_bot(self, name: str) -> None:
        self._pool.assigner(name)  # KeyError if it is no registered bot

    def history(self) -> list[MatchRecord]:
        return [m.record() for m in self._matches.finished("", self._config.game)]

    def used_ids(self) -> Iterable[str]:
        return [m.match_id for m in self._store.list_matches(None, 1 << 40)]

    async def play(
        self,
        match: LadderMatch,
        config: MatchConfig,
        rate: RateMatch,
        on_ready: Callable[[Match], None],
    ) -> tuple[LadderState, MatchRecord | None]:
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
        playing = asyncio.ensure_future(self._matches.play(order))
        cancelled = asyncio.ensure_future(match.cancel_event.wait())
        try:
            await asyncio.wait({playing, cancelled}, return_when=asyncio.FIRST_COMPLETED)
            if cancelled.done() and not playing.done():
                with contextlib.suppress(Exception):
                    self._matches.cancel(match.match_id, "cancelled by the ladder")
            stored = await playing
        except StateError:  # the server began to stop after the ladder chose this match
            return "aborted", None
        finally:
            cancelled.cancel()
        if stored.state == FINISHED:
            return "finished", stored.record()
        return ("cancelled" if stored.state == CANCELLED else "aborted"), None


async def start_ladder(
    serve: ServeConfig, bots: Bots, matches: Matches, pool: BotPool, store: ServerStore
) -> LadderScheduler | None:
    """Start the ladder the server's configuration describes (``None`` if it has none), its
    matches played by ``matches`` (see :class:`ServeBackend`)."""
    config = parse_ladder_config(serve.ladder, serve.source)
    if config is None:
        return None
    if config.seed is None:
        seeds = Seeder(store.secret())
    else:
        seeds = Seeder.explicit(config.seed)
        if searchable(config.seed):
            structlog.get_logger("croupier.serve").warning(
                "searchable_seed", detail=searchable_warning(config.seed, "[ladder] seed")
            )
    backend = ServeBackend(bots, matches, pool, store, config)
    scheduler = LadderScheduler(config, backend, seeds=seeds)
    await scheduler.start()
    return scheduler
