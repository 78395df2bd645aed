"""The match service: the server's own matches (created by the control API, by the ladder or
by a program using the server as a library), from their order to their stored end, and what
is read of them (a match, a page of matches, a replay, the server's own standings).

A match is stored (pending) before it starts, played on the bot port's
:class:`~croupier.transport.ArbiterServer` by the bots of the
:class:`~croupier.transport.BotPool` (registered bots, ``bundled:`` bots the server launches),
fed live to its watchers (a :class:`~croupier.serve.MatchFeed` in ``feeds``), and stored again
once it has ended: finished (in one transaction with its seats), cancelled or aborted.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import structlog

from croupier.arbiter import (
    ClockRules,
    Match,
    MatchConfig,
    random_seed,
    searchable,
    searchable_warning,
)
from croupier.errors import ConfigError, CroupierError
from croupier.games import get_game
from croupier.ladder import SeatRecord, Standings, standings
from croupier.runner import new_match_id, run_match
from croupier.serve._bots import Bots
from croupier.serve._config import ServeConfig
from croupier.serve._errors import (
    NAME_CHARS,
    ExistsError,
    NotFoundError,
    StateError,
    reason_of,
    with_reason,
)
from croupier.serve._storage import Storage, digest, replay_written
from croupier.serve._store import (
    ABORTED,
    CANCELLED,
    FINISHED,
    PENDING,
    RUNNING,
    ServerMatch,
    ServerStore,
    now_ms,
)
from croupier.serve._watch import MatchFeed
from croupier.transport import ArbiterServer, BotPool, parse_bot_command

#: ``CreateMatch`` names a bot the server ships (not a registered one) with this prefix.
BUNDLED_PREFIX = "bundled:"
#: The entry of a seat a person plays from the web page (``MatchOrder.human_seats``; no
#: registered name has a ``:``, and the control API cannot seat it).
HUMAN_SEAT = "human:web"
#: Most matches one ``CreateMatches`` call may create, and the longest batch name.
MAX_BATCH = 1000
MAX_BATCH_NAME = 48


@dataclass(frozen=True, slots=True)
class MatchOrder:
    """A match to play: the game, the bots by seat (registered names, or ``bundled:NAME``),
    parameter overrides, the seed (``None``: an unguessable one), the match id (``None``: a
    fresh one; a scheduler passes ids derived from its schedule so that a retried match is
    refused, never counted twice), the tournament label, and a chance script (duplicate sets)."""

    game: str
    bots: tuple[str, ...]
    params: Mapping[str, int] = field(default_factory=dict)
    seed: int | None = None
    match_id: str | None = None
    tournament: str = ""
    chance_script: tuple[tuple[int, ...], ...] = ()
    deal_set: str = ""
    #: Called with the arbiter's match once its seats are handed out (the ladder's scheduler).
    on_ready: Callable[[Match], None] | None = None
    #: Seats (entry :data:`HUMAN_SEAT`) a person plays from the web page: their tokens go to
    #: ``on_ready``'s caller, which dials in with them (``serve/_play.py``).
    human_seats: tuple[int, ...] = ()


@dataclass(eq=False)
class _Running:
    """A match this process is playing (or about to)."""

    record: ServerMatch
    cancel: asyncio.Event = field(default_factory=asyncio.Event)
    reason: str = ""
    rounds: int = 0
    task: asyncio.Task[ServerMatch] | None = None


def _ready_hook(hook: Callable[[Match], None] | None) -> Callable[[str, Match], None] | None:
    """``run_match``'s ``on_ready`` for a :attr:`MatchOrder.on_ready` hook."""
    if hook is None:
        return None
    return lambda _address, match: hook(match)


class Matches:
    """The server's own matches (see the module docstring): stored in ``storage``, seated from
    ``bots`` (registered) and the ``pool``, played on ``arbiter`` under ``config``'s clocks,
    at most ``config.max_matches`` at once, fed to ``feeds``."""

    def __init__(
        self,
        config: ServeConfig,
        storage: Storage,
        bots: Bots,
        pool: BotPool,
        arbiter: ArbiterServer,
        feeds: dict[str, MatchFeed],
    ) -> None:
        self._config = config
        self._storage = storage
        self._bots = bots
        self._pool = pool
        self._arbiter = arbiter
        self._feeds = feeds
        self._log = structlog.get_logger("croupier.serve")
        self._running: dict[str, _Running] = {}
        self._slots = asyncio.Semaphore(config.max_matches)
        self._bundled: set[str] = set()  # bundled bots added to the pool
        #: Set as the server stops: no new match; a match cut off is aborted, not cancelled.
        self.stopping = False
        #: Called with every match once it has ended (finished, cancelled or aborted).
        self.on_match_end: list[Callable[[ServerMatch], None]] = []

    async def stop(self) -> None:
        """Cut every pending and running match off (each is recorded as aborted) and wait for
        them to be stored."""
        self.stopping = True
        for running in list(self._running.values()):
            running.reason = "the server stopped before the match ended"
            running.cancel.set()
        # (not a TaskGroup: each match was started on its own and is awaited to its stored
        # end whatever another's fate)
        tasks = [r.task for r in self._running.values() if r.task is not None]
        if tasks:
            await asyncio.gather(*tasks, return_exceptions=True)

    # -- creating -------------------------------------------------------------------------------

    def _entry(self, name: str) -> Any:
        """What ``run_match`` takes for a seat of bot ``name``."""
        if name.startswith(BUNDLED_PREFIX):
            bundled = name.removeprefix(BUNDLED_PREFIX)
            key = f"bundled-{bundled}"  # the pool's name for it names its log files
            if bundled not in self._bundled:
                self._pool.add(key, parse_bot_command(bundled))
                self._bundled.add(bundled)
            return self._pool.assigner(key)
        return self._pool.assigner(name)

    def _check_order(self, order: MatchOrder) -> tuple[dict[str, int], int]:
        try:
            game = get_game(order.game)
        except ConfigError as exc:
            raise ConfigError(f"game: {exc}") from None
        params = game.info.make_params(dict(order.params))
        seats = int(params["players"])
        if len(order.bots) != seats:
            raise ConfigError(
                f"{order.game} with these parameters has {seats} seats, "
                f"{len(order.bots)} bots were named"
            )
        seen: set[str] = set()
        for seat, name in enumerate(order.bots):
            if (name == HUMAN_SEAT) != (seat in order.human_seats):
                raise ConfigError(f"seat {seat}: {HUMAN_SEAT!r} is only a web page's human seat")
            if name == HUMAN_SEAT:
                continue
            if name.startswith(BUNDLED_PREFIX):
                try:
                    parse_bot_command(name.removeprefix(BUNDLED_PREFIX))
                except ConfigError as exc:
                    raise ConfigError(f"{name}: {exc}") from None
                continue
            bot = self._bots.get(name)
            if bot.revoked_ms:
                raise with_reason(
                    StateError(
                        f"bot {name!r} cannot be seated: its key was revoked (croupier ctl "
                        "rotate gives it a new one)"
                    ),
                    "KEY_REVOKED",
                )
            if bot.disabled:
                raise with_reason(
                    StateError(f"bot {name!r} cannot be seated: it is disabled"),
                    "BOT_DISABLED",
                )
            if not bot.plays(order.game):
                raise with_reason(
                    StateError(
                        f"bot {name!r} does not play {order.game} (it plays "
                        f"{', '.join(bot.games)}; croupier ctl games changes that)"
                    ),
                    "GAME_NOT_PLAYED",
                )
            if name in seen:
                raise ConfigError(f"{name!r} is named twice: a registered bot holds one seat")
            seen.add(name)
        if order.seed is None:
            return params, random_seed()
        if searchable(order.seed):
            self._log.warning(
                "searchable_seed", detail=searchable_warning(order.seed, "the match's seed")
            )
        return params, order.seed

    async def submit(self, order: MatchOrder) -> ServerMatch:
        """Record a new match (pending) and start it; return its record. :class:`ConfigError`
        for a bad order, :class:`ExistsError` for a match id already used."""
        if self.stopping:
            raise StateError("the server is stopping")
        record = self._new_record(order, order.match_id or new_match_id(order.game))
        if record.match_id in self._running:
            raise ExistsError(f"match {record.match_id} exists already")

        async def create() -> bool:
            if not await self._storage.write(self._storage.writes.create_match, record):
                return False
            if not self.stopping:  # (stored as the server stops: its next start aborts it)
                self._start_match(record, order)
            return True

        # shielded: a caller that gives up (its deadline, a cancel) while the write is queued
        # must not leave the match stored but never started
        if not await asyncio.shield(create()):
            raise ExistsError(f"match {record.match_id} exists already")
        return record

    async def submit_many(self, orders: Sequence[MatchOrder], batch: str = "") -> list[ServerMatch]:
        """Record new matches (pending) in one store transaction and start them; return their
        records in order. All or none: :class:`ConfigError` for a bad order (naming its index)
        or batch name, :class:`ExistsError` if a match id is used already. With ``batch``,
        match ``i`` is ``<batch>-<i>`` (four digits or more), so a retried batch is refused,
        never created twice; without, each gets a fresh id (``MatchOrder.match_id`` is ignored)."""
        if self.stopping:
            raise StateError("the server is stopping")
        if not orders:
            raise ConfigError("matches: name at least one match")
        if len(orders) > MAX_BATCH:
            raise ConfigError(f"matches: at most {MAX_BATCH} in one call, got {len(orders)}")
        if batch and (
            len(batch) > MAX_BATCH_NAME or not set(batch) <= NAME_CHARS or batch[0] == "."
        ):
            raise ConfigError(
                f"batch {batch!r}: use 1 to {MAX_BATCH_NAME} letters, digits, '-', '_', '.'"
            )
        records = []
        for i, order in enumerate(orders):
            match_id = f"{batch}-{i:04d}" if batch else new_match_id(order.game)
            try:
                records.append(self._new_record(order, match_id))
            except CroupierError as exc:
                raise with_reason(type(exc)(f"matches[{i}]: {exc}"), reason_of(exc)) from None
        taken = next((r.match_id for r in records if r.match_id in self._running), None)
        if taken is not None:
            raise ExistsError(f"match {taken} exists already: the batch is not created again")

        async def create() -> str | None:
            taken = await self._storage.write(self._storage.writes.create_matches, records)
            if taken is None and not self.stopping:  # (as in submit)
                for record, order in zip(records, orders, strict=True):
                    self._start_match(record, order)
                self._log.info("matches_created", count=len(records), batch=batch)
            return taken

        # shielded, as in submit: stored means started, whether or not the caller still waits
        if (taken := await asyncio.shield(create())) is not None:
            raise ExistsError(f"match {taken} exists already: the batch is not created again")
        return records

    def _new_record(self, order: MatchOrder, match_id: str) -> ServerMatch:
        """A checked order's pending record (ConfigError or NotFoundError for a bad order)."""
        params, seed = self._check_order(order)
        return ServerMatch(
            match_id=match_id,
            game=order.game,
            params=params,
            seed=seed,
            state=PENDING,
            tournament=order.tournament,
            bots=tuple(order.bots),
            created_ms=now_ms(),
            deal_set=order.deal_set,
        )

    def _start_match(self, record: ServerMatch, order: MatchOrder) -> None:
        """Start playing a match the store has recorded as pending."""
        running = _Running(record)
        self._running[record.match_id] = running
        running.task = asyncio.ensure_future(self._play(running, order))
        self._log.info(
            "match_created", match_id=record.match_id, game=order.game, bots=list(order.bots)
        )

    async def play(self, order: MatchOrder) -> ServerMatch:
        """Play a match to its end and return it as stored (finished, cancelled or aborted)."""
        record = await self.submit(order)
        running = self._running.get(record.match_id)
        if running is None or running.task is None:  # stored as the server stopped: not played
            return record  # (pending; the next start records it aborted)
        return await asyncio.shield(running.task)

    def cancel(self, match_id: str, reason: str = "cancelled by the operator") -> None:
        """Cancel a pending or running match: it ends as cancelled, unrated (finished if its
        last action was played before the cancel reached it; aborted if the server stops or
        the match fails first); NotFoundError or StateError (it has ended) otherwise."""
        running = self._running.get(match_id)
        if running is None:
            record = self._storage.loop.get_match(match_id)
            if record is None:
                raise NotFoundError(f"no match {match_id!r}")
            if record.tournament and record.state in (PENDING, RUNNING):
                raise StateError(
                    f"match {match_id} is played by tournament {record.tournament!r}, "
                    "whose matches are not cancelled one by one"
                )
            raise StateError(f"match {match_id} has ended ({record.state})")
        running.reason = reason
        running.cancel.set()
        self._log.info("match_cancel_requested", match_id=match_id, reason=reason)

    async def wait_ended(self, match_id: str) -> ServerMatch:
        """Wait until the match has ended and return its stored record."""
        running = self._running.get(match_id)
        if running is not None and running.task is not None:
            return await asyncio.shield(running.task)
        return await self.get(match_id)

    # -- reading --------------------------------------------------------------------------------

    async def get(self, match_id: str) -> ServerMatch:
        """A match as stored; while it runs, with the decisions played so far (its feed's
        count: the store has the count once the match has ended)."""
        record = await self._storage.read(ServerStore.get_match, match_id)
        if record is None:
            raise NotFoundError(f"no match {match_id!r}")
        return await self._live(record)

    async def _live(self, record: ServerMatch) -> ServerMatch:
        """``record`` with the live decision count of its feed, if it is running."""
        if record.state != RUNNING:
            return record
        feed = self._feeds.get(record.match_id)
        if feed is not None:
            return replace(record, decisions=feed.decisions)
        # read as running, but its feed has gone since: it has just ended, read it again
        again = await self._storage.read(ServerStore.get_match, record.match_id)
        return record if again is None else again

    async def page(
        self, state: str | None, limit: int, after: tuple[int, str] | None
    ) -> list[ServerMatch]:
        """A page of matches, newest first (see :meth:`ServerStore.list_matches`); the
        running ones with their decisions so far (see :meth:`get`)."""
        rows = await self._storage.read(ServerStore.list_matches, state, limit, after)
        return [await self._live(r) for r in rows]

    async def replay_file(self, match_id: str) -> tuple[Path, ServerMatch]:
        """The replay of a match that has ended (its file, as stored) and the match."""
        record = await self.get(match_id)
        if record.state in (PENDING, RUNNING) or match_id in self._running:
            raise StateError(f"match {match_id} has not ended: its replay is still being written")
        if not record.replay_path:
            raise NotFoundError(f"match {match_id} has no replay")
        return self._config.state_dir / record.replay_path, record

    async def ended(self, match_id: str) -> tuple[ServerMatch, Path | None, Path]:
        """A match that has ended, its replay file (``None``: none was written) and the folder
        of the logs of the bots this server launches (a seat's own record: ``serve/_seats.py``)."""
        record = await self.get(match_id)
        if record.state in (PENDING, RUNNING) or match_id in self._running:
            raise StateError(f"match {match_id} has not ended: its seats are read once it has")
        path = self._config.state_dir / record.replay_path if record.replay_path else None
        return record, path, self._config.log_dir

    def finished(self, tournament: str = "", game: str | None = None) -> list[ServerMatch]:
        """The finished matches of ``tournament`` in the order they finished (ratings order);
        read on the caller's thread (the event loop's)."""
        return self._storage.loop.finished(tournament, game)

    async def watch_source(self, match_id: str) -> MatchFeed | Path:
        """What WatchMatch streams a match from: its live feed while this process has it
        pending or playing (a tournament's too), else its replay file."""
        feed = self._feeds.get(match_id)
        if feed is not None:
            return feed
        record = await self.get(match_id)
        if record.replay_path:
            return self._config.state_dir / record.replay_path
        return replay_written(record, self._config.state_dir, self._config.replay_dir)

    async def standings(self) -> tuple[str, Standings]:
        """The game and standings of the server's own matches: of the continuous ladder's game,
        or of the latest finished match's game if no ladder is configured."""
        return await self._storage.read(_own_standings, self._config.ladder_game)

    # -- playing --------------------------------------------------------------------------------

    async def _play(self, running: _Running, order: MatchOrder) -> ServerMatch:
        record = running.record
        match_id = record.match_id
        log = self._log.bind(match_id=match_id)
        # watchers wait on the feed from now on, pending or running; it is dropped once the
        # store says where the replay is (WatchMatch then streams the file)
        self._feeds[match_id] = MatchFeed(match_id)
        try:
            async with self._slots:
                if running.cancel.is_set():
                    return await self._end_unplayed(running)
                await self._storage.write(self._storage.writes.mark_running, match_id, now_ms())
                return await self._run(running, order, log)
        finally:
            self._running.pop(match_id, None)
            feed = self._feeds.pop(match_id, None)
            if feed is not None:
                feed.close()
            final = None
            with contextlib.suppress(Exception):  # (the server is being torn down)
                final = await self._storage.read(ServerStore.get_match, match_id)
            if final is not None:
                for hook in self.on_match_end:
                    try:
                        hook(final)
                    except Exception:  # a hook's failure is its own; the match is stored
                        log.exception("match_end_hook_failed")

    async def _end_unplayed(self, running: _Running) -> ServerMatch:
        state = ABORTED if self.stopping else CANCELLED
        await self._storage.write(
            self._storage.writes.end_match,
            running.record.match_id,
            state,
            ended_ms=now_ms(),
            detail=running.reason,
        )
        return await self.get(running.record.match_id)

    async def _run(self, running: _Running, order: MatchOrder, log: Any) -> ServerMatch:
        record = running.record
        match_id = record.match_id
        config = self._config
        store = self._storage.writes
        mc = MatchConfig(
            game=record.game,
            params=dict(record.params),
            seed=record.seed,
            clock=ClockRules(config.move_ms, config.bank_ms),
            connect_timeout_s=config.connect_timeout_s,
            reconnect_grace_s=config.reconnect_grace_s,
            event_flush_ms=config.event_flush_ms,
            chance_script=order.chance_script,
            # who each seat's bot is, whatever its Hello says (bound by the commitment)
            seat_roster=tuple({"registered_name": name} for name in record.bots),
            withhold_reveal=bool(order.deal_set),  # a duplicate seating: see docs/protocol.md
        )

        def progress(done: int) -> None:
            running.rounds = done

        try:
            entries = [
                None if seat in order.human_seats else self._entry(name)
                for seat, name in enumerate(record.bots)
            ]
            run = await run_match(
                mc,
                entries,
                config.replay_dir,
                server=self._arbiter,
                match_id=match_id,
                cancel=running.cancel,
                progress=progress,
                on_ready=_ready_hook(order.on_ready),
                listener=self._feeds.get(match_id),
            )
        except (CroupierError, OSError) as exc:
            log.warning("match_failed", error=str(exc))
            await self._storage.write(
                store.end_match, match_id, ABORTED, ended_ms=now_ms(), detail=str(exc)
            )
            return await self.get(match_id)
        replay = run.replay
        rel = os.path.relpath(replay, config.state_dir)
        feed = self._feeds.get(match_id)  # (its count: announced decisions, no re-simulation)
        played = None if feed is None else feed.decisions
        sha, decisions = await asyncio.to_thread(digest, replay, played)  # off the writer
        if run.result.cancelled:
            state = ABORTED if self.stopping else CANCELLED
            await self._storage.write(
                store.end_match,
                match_id,
                state,
                ended_ms=now_ms(),
                detail=running.reason or run.result.cancel_reason or "cancelled",
                rounds=running.rounds,
                decisions=decisions,
                replay_path=rel if sha else "",
                replay_sha256=sha,
            )
            log.info("match_ended", state=state)
            return await self.get(match_id)
        seats = tuple(
            SeatRecord(
                r.seat,
                record.bots[r.seat],
                r.score,
                r.place,
                r.outcome.value,
                r.timeouts,
                r.rejected,
            )
            for r in run.result.seats
        )
        committed = await self._storage.write(
            store.finish_match,
            match_id,
            ended_ms=now_ms(),
            rounds=running.rounds,
            decisions=decisions,
            replay_path=rel,
            replay_sha256=sha,
            seats=seats,
        )
        log.info(
            "match_committed" if committed else "match_already_ended",
            bots=list(record.bots),
            scores=[str(s.score) for s in seats],
            outcomes=[s.outcome for s in seats],
        )
        return await self.get(match_id)


def _own_standings(store: ServerStore, game: str) -> tuple[str, Standings]:
    """The server's own standings (see :meth:`Matches.standings`), in the reader thread."""
    if not game:
        latest = [m for m in store.list_matches(FINISHED, 50) if not m.tournament]
        game = latest[0].game if latest else ""
    matches = store.finished("", game) if game else []
    # a person's match against bots is not the ladder's
    matches = [m for m in matches if all(s.bot != HUMAN_SEAT for s in m.seats)]
    names = sorted({s.bot for m in matches for s in m.seats})
    seats = int(matches[0].params.get("players", 2)) if matches else 2
    return game, standings([m.record() for m in matches], names, seats)
