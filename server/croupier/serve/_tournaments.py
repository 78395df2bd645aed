"""The tournament service: tournaments the server runs from their TOML text
(``CreateTournament``, ``docs/ladder.md``), each in its own folder of the state folder with its
own store, and their standings.

Each match of a tournament is also recorded among the server's matches (as running when it
starts, mirrored once the tournament's store has committed it), and fed live like the server's
own (:class:`_TournamentWatch`), so that it is listed and watched like any other.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import tomllib
from collections.abc import Coroutine
from pathlib import Path
from typing import Any

import structlog

from croupier.errors import ConfigError, CroupierError
from croupier.ladder import (
    MatchRecord,
    Played,
    Progress,
    Schedule,
    Slot,
    Standings,
    TournamentConfig,
    check_launch,
    parse_config,
    resolve_bot,
    run_tournament,
    store_standings,
    with_runtime,
)
from croupier.serve._config import ServeConfig
from croupier.serve._errors import NAME_CHARS, ExistsError, NotFoundError, StateError
from croupier.serve._storage import Storage, decisions, digest, finish_mirrored
from croupier.serve._store import ABORTED, PENDING, ServerMatch, ServerStore, now_ms
from croupier.serve._watch import MatchFeed
from croupier.transport import Isolation, SandboxOptions

#: A test hook, off unless this environment variable is "1": the server SIGKILLs itself once a
#: tournament's store has committed a match and before the server's store records it (the
#: window :func:`~croupier.serve._storage.mirror_committed` closes at the next start;
#: tests/serve/test_restart.py).
_KILL_BEFORE_MIRROR = "CROUPIER_TEST_KILL_BEFORE_MIRROR"


class _TournamentWatch:
    """The server's view of the matches of one tournament it runs (a
    :class:`~croupier.ladder.MatchWatch`): each match is recorded among the server's matches as
    it starts (running), and its replay writer feeds a :class:`MatchFeed` registered in the
    server's feeds, so that it is listed with its live decision count and watched live like the
    server's own matches. The feed stays registered until the server's store says how the match
    ended: the tournament's commit (``_mirror``) for a finished one, an abort for one cut off."""

    def __init__(self, service: Tournaments, config: TournamentConfig) -> None:
        self.service, self.config = service, config
        #: The matches started and not yet recorded as ended in the server's store.
        self.live: set[str] = set()
        #: The writes of its committed matches (``_mirror``) not yet done.
        self.mirrors: set[asyncio.Task[Any]] = set()

    def starting(self, slot: Slot) -> MatchFeed:
        service = self.service
        feeds = service.feeds
        old = feeds.get(slot.match_id)
        if old is not None:  # a second attempt (a bot would not start): its watchers end
            old.close()
        feed = feeds[slot.match_id] = MatchFeed(slot.match_id)
        self.live.add(slot.match_id)
        record = ServerMatch(
            match_id=slot.match_id,
            game=self.config.game,
            params=dict(self.config.params),
            seed=slot.seed,
            state=PENDING,
            tournament=self.config.name,
            bots=slot.bots,
            created_ms=now_ms(),
            deal_set=slot.deal_set,
        )

        def write(store: ServerStore) -> None:
            store.create_match(record)  # (no-op on a second attempt)
            store.mark_running(record.match_id, now_ms())

        service.spawn(service.storage.write(write, service.storage.writes))
        return feed

    def ended(self, slot: Slot, played: Played | None) -> None:
        feed = self.service.feeds.get(slot.match_id)
        if feed is not None:
            feed.close()  # it keeps its records: a watcher still gets the whole match
        if played is not None and not played.cancelled:
            return  # the tournament commits it, then _mirror finishes it and drops the feed
        if not self.service.stopping:  # (when stopping, stop() records it)
            detail = "the match could not be played" if played is None else "cancelled"
            self.service.spawn(self.abort(slot.match_id, detail))

    async def abort(self, match_id: str, detail: str) -> None:
        """Record a match cut off as aborted (with its partial replay), drop its feed."""
        storage = self.service.storage
        if match_id not in self.live:
            return
        replay = self.config.out / f"{match_id}.jsonl"
        sha, played = await asyncio.to_thread(digest, replay)  # off the writer
        await storage.write(
            storage.writes.end_match,
            match_id,
            ABORTED,
            ended_ms=now_ms(),
            detail=detail,
            decisions=played,
            replay_path=os.path.relpath(replay, self.service.state_dir) if sha else "",
            replay_sha256=sha,
        )
        self.done(match_id)

    def done(self, match_id: str) -> None:
        """The server's store has recorded the match's end: watchers now go to its file."""
        self.live.discard(match_id)
        feed = self.service.feeds.pop(match_id, None)
        if feed is not None:
            feed.close()


class Tournaments:
    """The tournaments one server runs (see the module docstring): in ``config``'s state
    folder, their matches recorded in ``storage`` and fed to ``feeds``, their bots launched
    as ``sandbox`` says."""

    def __init__(
        self,
        config: ServeConfig,
        storage: Storage,
        feeds: dict[str, MatchFeed],
        sandbox: SandboxOptions,
    ) -> None:
        self.state_dir = config.state_dir
        self.storage = storage
        self.feeds = feeds
        self._sandbox = sandbox
        self._log = structlog.get_logger("croupier.serve")
        self._running: dict[str, asyncio.Task[None]] = {}
        self._watches: dict[str, _TournamentWatch] = {}  # by tournament, while it runs
        self._tasks: set[asyncio.Task[Any]] = set()
        #: Set as the server stops: no new tournament; what the stop cuts off is recorded by
        #: :meth:`stop`.
        self.stopping = False

    def spawn(self, coro: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]:
        """Run ``coro`` as a task :meth:`stop` waits for (a tournament, a write of its)."""
        task = asyncio.create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def stop(self) -> None:
        """Cancel the tournaments, wait for what they left to write, and record their matches
        cut off as aborted."""
        self.stopping = True
        # (not TaskGroups: each task was started on its own, and each is awaited to its end
        # whatever another's fate: a failed write must not cut off the others)
        tournaments = [t for t in self._running.values() if not t.done()]
        for task in tournaments:
            task.cancel()
        await asyncio.gather(*tournaments, return_exceptions=True)
        while self._tasks:  # what they left to write (a match's start, a finished one's
            # mirror: short writes, not cut off, so a committed match is never called aborted)
            await asyncio.gather(*list(self._tasks), return_exceptions=True)
        for watch in list(self._watches.values()):  # the tournaments' matches cut off
            for match_id in sorted(watch.live):
                with contextlib.suppress(Exception):
                    await watch.abort(match_id, "the server stopped before the match ended")

    def running(self, name: str) -> bool:
        """Whether tournament ``name`` is being played now."""
        task = self._running.get(name)
        return task is not None and not task.done()

    def folder(self, name: str) -> Path:
        """Tournament ``name``'s folder; :class:`ConfigError` for a name that cannot be one."""
        if not name or len(name) > 64 or not set(name) <= NAME_CHARS or name.startswith("."):
            raise ConfigError(
                f"tournament name {name!r}: use 1 to 64 letters, digits, '-', '_', '.'"
            )
        return self.state_dir / "tournaments" / name

    async def standings(self, name: str) -> tuple[str, Standings]:
        """The game and standings of tournament ``name``, recomputed from its store."""
        path = self.folder(name) / "store.sqlite"
        if not path.is_file():
            raise NotFoundError(f"no tournament {name!r}")
        info, table = await asyncio.to_thread(store_standings, path)
        return str(info["game"]), table

    async def standings_warning(self, name: str) -> str:
        """One line when some of tournament ``name``'s launched bots ran without a sandbox
        (``--sandbox none``); ``""`` otherwise."""
        path = self.folder(name) / "store.sqlite"
        if not path.is_file():
            return ""
        info, _ = await asyncio.to_thread(store_standings, path)
        weak = sorted(
            bot_name
            for bot_name, bot in info["bots"].items()
            if bot.isolation and not Isolation(bot.isolation).isolated
        )
        if not weak:
            return ""
        return f"bots {', '.join(weak)} ran without a sandbox (--sandbox none)"

    async def create(self, config_toml: str) -> tuple[str, int]:
        """Start a tournament from its TOML text (``docs/ladder.md``) in the server's state
        folder; return its name and how many matches it schedules. Its finished matches are
        listed with the server's (tournament = its name)."""
        if self.stopping:
            raise StateError("the server is stopping")
        try:
            data = tomllib.loads(config_toml)
        except tomllib.TOMLDecodeError as exc:
            raise ConfigError(f"config_toml: not valid TOML: {exc}") from None
        base = self.state_dir / "tournaments"
        parsed = parse_config(data, "config_toml", base=base)
        if any(b.remote for b in parsed.bots):
            raise ConfigError("config_toml: remote bots are not supported here; name commands")
        if parsed.tls is not None:
            raise ConfigError("config_toml: tls: the server's tournaments have no remote bots")
        folder = self.folder(parsed.name)
        if parsed.name in self._running or folder.exists():  # (also from before a restart)
            raise ExistsError(
                f"a tournament named {parsed.name!r} exists already: a name is used once per "
                "state folder"
            )
        config = with_runtime(
            parsed,
            store=folder / "store.sqlite",
            out=folder / "replays",
            concurrency=parsed.concurrency or 2,
            executor="local",
            sandbox=self._sandbox,
        )
        resolved = {b.name: resolve_bot(b) for b in config.bots}
        await asyncio.to_thread(check_launch, config, resolved, "the server")
        total = Schedule(config).total()
        folder.mkdir(mode=0o700, parents=True)
        self._running[parsed.name] = self.spawn(self._run(config))
        self._log.info("tournament_created", tournament=parsed.name, matches=total)
        return parsed.name, total

    async def _run(self, config: TournamentConfig) -> None:
        log = self._log.bind(tournament=config.name)
        cancel = asyncio.Event()
        watch = self._watches[config.name] = _TournamentWatch(self, config)

        def mirror(progress: Progress) -> None:
            record = progress.record
            if record is None or self.storage.closed:
                return
            ordered = sorted(record.seats, key=lambda s: s.seat)
            mine = ServerMatch(
                match_id=record.match_id,
                game=config.game,
                params=dict(config.params),
                seed=record.seed,
                state=PENDING,
                tournament=config.name,
                bots=tuple(s.bot for s in ordered),
                created_ms=now_ms(),
                deal_set=record.deal_set,
            )
            replay = config.store.parent / record.replay_path
            task = self.spawn(self._mirror(mine, record, replay, watch))
            watch.mirrors.add(task)
            task.add_done_callback(watch.mirrors.discard)

        try:
            summary = await run_tournament(config, on_progress=mirror, cancel=cancel, watch=watch)
            log.info("tournament_finished", done=summary.done, total=summary.total)
        except asyncio.CancelledError:
            cancel.set()
            raise
        except CroupierError as exc:
            log.warning("tournament_failed", error=str(exc))
        finally:
            if not self.stopping:  # (stop() records what the stop cut off)
                self._watches.pop(config.name, None)
                # (not a TaskGroup: the mirrors were started one by one as matches committed,
                # and a failed write must not cut off the others)
                await asyncio.gather(*watch.mirrors, return_exceptions=True)
                for match_id in sorted(watch.live):  # a match left open: not committed
                    await watch.abort(match_id, "the tournament ended before the match did")

    async def _mirror(
        self, mine: ServerMatch, record: MatchRecord, replay: Path, watch: _TournamentWatch
    ) -> None:
        """Record a tournament's finished match among the server's matches (recorded as
        running when it started; created here if that write has not landed), then drop its
        feed: watchers go to its replay file from now on."""

        feed = self.feeds.get(record.match_id)  # (still registered: watch.done drops it)
        played = feed.decisions if feed is not None else await asyncio.to_thread(decisions, replay)

        def write(store: ServerStore) -> None:
            store.create_match(mine)  # (no-op: it was recorded when it started)
            finish_mirrored(store, record, replay, self.state_dir, played)

        if os.environ.get(_KILL_BEFORE_MIRROR) == "1":  # tests only: see _KILL_BEFORE_MIRROR
            os.kill(os.getpid(), signal.SIGKILL)
        await self.storage.write(write, self.storage.writes)
        watch.done(record.match_id)
