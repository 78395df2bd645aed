"""A pool of bot processes that stay up across matches (bot sessions), for runners that play many
matches on one server: ``run_match`` takes a pool's :meth:`BotPool.assigner` in place of an argv.

How the pool tells the two kinds of bots apart: the first time a bot is needed, the pool launches
it in session mode (``CROUPIER_SESSION_TOKEN`` set, and ``CROUPIER_TOKEN`` set to the same session
token). A bot that opens ``BotService.Session`` with it serves seats from then on, as many at a
time as its ``SessionHello.capacity`` says (the pool starts another process of the same bot when
all are full). A bot that knows only the per-match protocol says Hello on ``Play`` with the session
token, is refused with ``SESSION_EXPECTED`` (it exits), and is launched per match from then on, as
``croupier match`` launches it; so is a bot that opens neither within ``session_timeout_s``.

A session bot that exits (crashes) or drops its session while it holds seats: each of those seats
is told its bot left, so the match records it as that seat's fault (``disconnected``, "the bot
process exited with code N"); the crash is counted, and the next seat the bot is handed starts a
fresh process. With ``restart="per-match"`` every seat gets a fresh process that plays only it.

**Lanes** (duplicate sets): an assigner for lane ``k`` (:meth:`BotPool.assigner` with ``lane``)
seats the bot only in processes of that lane, which play nothing else. A tournament seats
seating ``k`` of every duplicate set in lane ``k``, so a process never holds two seatings of a
set, and never plays a second seating of a set it has played, though no process is restarted
for it: a bot has one session process per seating index instead of one in all (more when a
lane's process is full, as without lanes). Lanes share no writable storage: each process runs in
a sandbox of its own, with its own private ``/tmp``, and the pool binds no shared directory
(``SandboxOptions.writable``) into a lane's sandbox. A bot launched per match needs no lanes.

A remote bot (:meth:`BotPool.add_remote`) is one the pool does not start: a competitor runs it
anywhere with the session token the pool made, and the pool hands it seats the same way while its
session is connected. If it drops, the seats it held are disconnected and the same token admits
its next connection.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import os
import secrets
from collections.abc import AsyncIterator, Coroutine
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, Protocol, runtime_checkable

import structlog

from croupier.arbiter import SeatLink
from croupier.errors import BotLaunchError
from croupier.transport._launcher import BotExit, BotProcess, launch_bot
from croupier.transport._pipe import pipe_pair
from croupier.transport._sandbox import SandboxOptions
from croupier.transport._server import ArbiterServer
from croupier.transport._sessions import BotSession

#: ``"session"``: keep a bot's process up across matches (restarted after a crash);
#: ``"per-match"``: a fresh process for every seat.
Restart = Literal["session", "per-match"]

#: How long a bot launched in session mode has to open its session (or to show it cannot).
SESSION_TIMEOUT_S = 10.0
#: How long a bot whose session dropped has to exit, so that its exit status can be reported.
EXIT_WAIT_S = 0.5


@runtime_checkable
class SeatAssigner(Protocol):
    """Gets a bot to play ``link``'s seat of match ``match_id`` on the server at ``address``.

    ``run_match`` calls :meth:`assign` once per such seat after the match is registered on the
    server and before it starts; the bot then joins with the seat's token like any other.
    """

    async def assign(self, link: SeatLink, match_id: str, address: str) -> None: ...


@dataclass
class BotStats:
    """What the pool did with one bot."""

    #: ``"session"`` or ``"per-match"`` once known, ``""`` before.
    mode: str = ""
    processes: int = 0
    seats: int = 0
    #: Session processes that ended while the pool still wanted them.
    crashes: int = 0
    #: The most seats one session process held at once.
    peak_load: int = 0
    pids: list[int] = field(default_factory=list)
    #: The protocol version its last session spoke (3: its seats multiplexed on the session's
    #: stream; 2: each on a Play stream of its own); 0 before any session. (Last: the fields
    #: before it are also given by position.)
    protocol: int = 0


@dataclass(eq=False)
class _Instance:
    """One running session process of a bot."""

    process: BotProcess
    session: BotSession
    #: The lane it plays (None: the bot's seats outside lanes).
    lane: int | None = None
    #: The seats it holds now, with their match ids.
    active: dict[SeatLink, str] = field(default_factory=dict)
    dead: bool = False
    monitor: asyncio.Task[None] | None = None


@dataclass(eq=False)
class _Bot:
    name: str
    argv: list[str]
    restart: Restart
    stats: BotStats = field(default_factory=BotStats)
    instances: list[_Instance] = field(default_factory=list)
    #: Held while a seat is placed until the bot's mode is known (its first launch tells)...
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    #: ...and, always, its lane's: a lane's process starting holds up no other lane's seats.
    lane_locks: dict[int | None, asyncio.Lock] = field(default_factory=dict)
    #: Session processes launched so far (names their logs; counted before each launch).
    launches: int = 0

    @contextlib.asynccontextmanager
    async def placing(self, lane: int | None) -> AsyncIterator[None]:
        """Hold what placing a seat in ``lane`` needs (see ``lock`` and ``lane_locks``)."""
        async with contextlib.AsyncExitStack() as held:
            if not self.stats.mode:
                await held.enter_async_context(self.lock)
            await held.enter_async_context(self.lane_locks.setdefault(lane, asyncio.Lock()))
            yield


@dataclass(eq=False)
class _Remote:
    """A bot that connects by itself with a session token."""

    name: str
    token: str
    session: BotSession
    stats: BotStats = field(default_factory=BotStats)
    active: dict[SeatLink, str] = field(default_factory=dict)
    monitor: asyncio.Task[None] | None = None
    #: The name and version its last session said in its SessionHello.
    said: tuple[str, str] = ("", "")


class _Assigner:
    """A pool's :class:`SeatAssigner` for one of its bots (in one of its lanes)."""

    def __init__(self, pool: BotPool, name: str, lane: int | None = None) -> None:
        self._pool, self.name, self.lane = pool, name, lane

    async def assign(self, link: SeatLink, match_id: str, address: str) -> None:
        await self._pool.assign(self.name, link, match_id, address, lane=self.lane)


class BotPool:
    """Bot processes kept up across the matches of one :class:`ArbiterServer`.

    ``log_dir`` receives one log per process (``NAME.N.log`` for a session process,
    ``MATCH.seatK.log`` for one launched per match). ``capacity`` is the number of matches at a time
    the pool asks a session bot to play (``CROUPIER_SESSION_CAPACITY``; the bot may say fewer).
    ``sandbox`` sets how its bots are isolated (the mode, limits, directories they may
    write); each reaches the server by its unix socket and never sees ``log_dir``.
    ``remote_grace_s`` > 0: when a remote bot's session drops, the seats it holds are not taken
    from it; each match gives its seat that long to come back on its own Play stream (the
    matches' ``reconnect_grace_s``), and records the disconnect fault only after it. A seat it
    had been handed but not yet joined is handed again to its next session.
    ``pipe`` (the default): each launched session bot also gets a session pipe of its own
    (:mod:`._pipe`), which a bot that knows it (the Python and Node SDKs, the C++ kit) plays
    its session on instead of gRPC; False: none (every bot on gRPC, as before it existed).
    Use as ``async with BotPool(...) as pool``, or call :meth:`close` at the end.
    """

    def __init__(
        self,
        server: ArbiterServer,
        log_dir: Path,
        *,
        restart: Restart = "session",
        capacity: int | None = None,
        session_timeout_s: float = SESSION_TIMEOUT_S,
        sandbox: SandboxOptions | None = None,
        remote_grace_s: float = 0.0,
        pipe: bool = True,
    ) -> None:
        self._server = server
        self._pipe = pipe
        self._remote_grace_s = remote_grace_s
        self._base_sandbox = sandbox or SandboxOptions()
        self._log_dir = log_dir
        self._restart = restart
        self._capacity = capacity or os.cpu_count() or 1
        self._session_timeout_s = session_timeout_s
        self._bots: dict[str, _Bot] = {}
        self._remotes: dict[str, _Remote] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._monitors: set[asyncio.Task[None]] = set()  # the session processes' monitors
        self._per_match: dict[int, BotProcess] = {}  # by pid, until stopped
        self._exits: list[BotExit] = []
        self._closed = asyncio.Event()
        self._log = structlog.get_logger("croupier.pool")

    async def __aenter__(self) -> BotPool:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    def add(self, name: str, argv: list[str], *, restart: Restart | None = None) -> None:
        """Declare the bot ``name`` (its command line); nothing is started until it is needed."""
        if name in self._bots or name in self._remotes:
            raise ValueError(f"bot {name!r} is already in the pool")
        bot = _Bot(name, list(argv), restart or self._restart)
        if bot.restart == "per-match":
            bot.stats.mode = "per-match"
        self._bots[name] = bot

    def add_remote(self, name: str, token: str | None = None) -> str:
        """Declare the remote bot ``name``, which connects by itself (from anywhere) with a
        session; return its session token (``token``, or a fresh one) to give its owner."""
        if name in self._bots or name in self._remotes:
            raise ValueError(f"bot {name!r} is already in the pool")
        session = self._server.bots.open_session(token)
        session.name = name
        remote = _Remote(name, session.token, session)
        remote.stats.mode = "session"
        remote.monitor = asyncio.ensure_future(self._watch_remote(remote))
        self._remotes[name] = remote
        return session.token

    def end_remote(self, name: str, reason: int, message: str) -> int:
        """End the remote bot ``name``'s session at once and take its seats from it (its key
        was revoked or changed, or it was disabled): its Session stream ends with the error
        ``reason`` (an ``ErrorReason`` value) and ``message``; every seat it holds or was
        handed loses its bot now, with no reconnect window, and the Play streams of those
        seats end (each match records a ``disconnect`` fault with ``message``); the bot's next
        session starts afresh. Return how many seats it lost."""
        remote = self._remotes[name]
        self.reported(name)
        held = [link for link in remote.active if not link.done.is_set()]
        remote.active.clear()
        for link in held:
            link.leave(message)
        session = remote.session
        if session.connected.is_set() and not session.ended.is_set():
            session.refuse(reason, message)
            self._server.bots.close_session(session)  # (forgets its token; refused already)
            remote.session = self._open_remote_session(remote)
        self._log.info("remote_session_ended_by_owner", bot=name, seats_lost=len(held))
        return len(held)

    def _open_remote_session(self, remote: _Remote) -> BotSession:
        """The remote bot's next session, under its token."""
        session = self._server.bots.open_session(remote.token)
        session.name = remote.name
        return session

    def assigner(self, name: str, *, lane: int | None = None) -> SeatAssigner:
        """The :class:`SeatAssigner` that seats the bot ``name``, for ``run_match``'s ``bots``;
        with ``lane``, only in processes of that lane (see the module docstring; a remote bot,
        which the pool does not start, has no lanes)."""
        if name not in self._bots and name not in self._remotes:
            raise KeyError(name)
        return _Assigner(self, name, None if name in self._remotes else lane)

    def remote_session(self, name: str) -> BotSession:
        """The remote bot ``name``'s current session: connected while
        ``connected.is_set() and not ended.is_set()`` (a fresh one is opened after each drop)."""
        return self._remotes[name].session

    def reported(self, name: str) -> tuple[str, str]:
        """The name and version the remote bot ``name`` said in its SessionHello, now or last
        (``("", "")`` before it ever connected): what it says of itself, not who it is."""
        remote = self._remotes[name]
        session = remote.session
        if session.connected.is_set():
            remote.said = (session.bot_name, session.bot_version)
        return remote.said

    def connected(self, name: str) -> bool:
        """Whether the remote bot ``name`` has its session open now."""
        session = self._remotes[name].session
        return session.connected.is_set() and not session.ended.is_set()

    def room(self, name: str) -> int:
        """How many more seats the remote bot ``name`` can take now: 0 while it is not
        connected (its session dropped, or it never dialled in), else its session's capacity
        less the seats it holds. A scheduler seats only bots with room."""
        if not self.connected(name):
            return 0
        remote = self._remotes[name]
        session = remote.session
        held = sum(1 for link in remote.active if not link.done.is_set())
        return max(0, session.capacity - held)

    def stats(self, name: str) -> BotStats:
        if name in self._remotes:
            return self._remotes[name].stats
        return self._bots[name].stats

    @property
    def exits(self) -> tuple[BotExit, ...]:
        """How the processes that have ended so far ended."""
        return tuple(self._exits)

    # -- seating -------------------------------------------------------------------------------

    async def assign(
        self, name: str, link: SeatLink, match_id: str, address: str, *, lane: int | None = None
    ) -> None:
        """Get the bot ``name`` to play ``link``'s seat (in ``lane``); see :class:`SeatAssigner`."""
        if name in self._remotes:
            await self._assign_remote(self._remotes[name], link, match_id)
            return
        bot = self._bots[name]
        bot.stats.seats += 1
        seed = link.bot_seed
        try:
            if bot.restart == "per-match" or bot.stats.mode == "per-match":
                await self._launch_per_match(bot, link, match_id, address, seed, lane)
                return
            async with bot.placing(lane):
                instance = self._free_instance(bot, match_id, lane)
                if instance is None and bot.stats.mode != "per-match":  # (found while waiting)
                    instance = await self._start_session(bot, lane)
                if instance is not None:
                    instance.active[link] = match_id
                    link.launched = True  # a process of the pool's: its death is a crash
                    bot.stats.peak_load = max(bot.stats.peak_load, len(instance.active))
            if instance is None:
                if bot.stats.mode == "per-match":
                    await self._launch_per_match(bot, link, match_id, address, seed, lane)
                else:
                    link.leave("the bot process ended before it opened its session")
                return
        except BotLaunchError as exc:
            link.leave(str(exc))
            self._log.warning("bot_not_started", bot=name, detail=str(exc))
            return
        instance.session.assign(link.token, seed)

    async def _assign_remote(self, remote: _Remote, link: SeatLink, match_id: str) -> None:
        """Hand the seat to the remote bot's session once it is connected and has room (it
        cannot be started for it): wait up to ``session_timeout_s``, else the seat is a no-show."""
        remote.stats.seats += 1
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self._session_timeout_s
        while True:
            session = remote.session
            for held in [held for held in remote.active if held.done.is_set()]:
                del remote.active[held]
            live = session.connected.is_set() and not session.ended.is_set()
            if (
                live
                and len(remote.active) < session.capacity
                and match_id not in remote.active.values()
            ):
                remote.stats.protocol = session.protocol_version
                remote.active[link] = match_id
                remote.stats.peak_load = max(remote.stats.peak_load, len(remote.active))
                session.assign(link.token, link.bot_seed)
                return
            remaining = deadline - loop.time()
            if remaining <= 0:
                link.leave("the remote bot was not connected, or had no room, in time")
                return
            # for the connection, for room (a held seat's match to end), or for a new session
            events = [session.ended, *(held.done for held in remote.active)]
            if not live:
                events.append(session.connected)
            waits = {asyncio.ensure_future(event.wait()) for event in events}
            try:
                await asyncio.wait(waits, timeout=remaining, return_when=asyncio.FIRST_COMPLETED)
            finally:
                for waiter in waits:
                    waiter.cancel()

    async def _watch_remote(self, remote: _Remote) -> None:
        """When the remote bot's session ends, its seats lose their bot (unless there is a
        reconnect window: then each match waits for its seat's own stream to come back), and
        its token admits the next connection."""
        while True:
            session = remote.session
            await session.ended.wait()
            if remote.session is not session:  # ended by end_remote, which did the rest
                continue
            self.reported(remote.name)
            held = [link for link in remote.active if not link.done.is_set()]
            if self._remote_grace_s > 0:
                remote.active = {link: remote.active[link] for link in held}
            else:
                for link in held:
                    link.leave("the bot's session ended")
                remote.active.clear()
            self._server.bots.close_session(remote.session)
            if self._closed.is_set():
                return
            remote.stats.crashes += 1
            self._log.warning("remote_session_ended", bot=remote.name, seats_lost=len(held))
            remote.session = self._open_remote_session(remote)
            if self._remote_grace_s > 0 and held:
                self._spawn(self._hand_again(remote, remote.session, held))

    async def _hand_again(
        self, remote: _Remote, session: BotSession, links: list[SeatLink]
    ) -> None:
        """Seats held by a session that dropped: those its bot had not joined yet (it may never
        have got them: lost on the wire, or still queued), and, if the next session is
        multiplexed (protocol 3), those it had joined and may come back to within their
        reconnect window (they were played on the dropped stream itself). Once the bot's next
        session connects, hand it each one its match still needs (a session that ends first
        leaves them to the next one: see :meth:`_watch_remote`); a protocol 2 session's bot
        comes back to its joined seats on their own Play streams."""

        def wanted(link: SeatLink, multiplexed: bool) -> bool:
            if link.done.is_set() or link.closed or link not in remote.active:
                return False
            if not link.joined.is_set():
                return True
            return multiplexed and link.away_since is not None

        while not (session.ended.is_set() or self._closed.is_set()):
            links = [link for link in links if wanted(link, True)]
            if not links:
                return
            if session.connected.is_set():
                links = [link for link in links if wanted(link, session.multiplexed)]
                for link in links:
                    session.assign(link.token, link.bot_seed)
                if links:
                    self._log.info("seats_handed_again", bot=remote.name, seats=len(links))
                return
            events = [session.connected, session.ended, self._closed]
            for link in links:
                events.append(link.done)
                if not link.joined.is_set():
                    events.append(link.joined)
            waits = {asyncio.ensure_future(event.wait()) for event in events}
            try:
                await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
            finally:
                for waiter in waits:
                    waiter.cancel()

    def _free_instance(self, bot: _Bot, match_id: str, lane: int | None) -> _Instance | None:
        """The least loaded live process of ``lane`` with room, and no seat of ``match_id``
        already: one process never holds two seats of a match, so no bot sees what two seats
        see."""
        for instance in bot.instances:  # seats whose match is over are free again
            for link in [link for link in instance.active if link.done.is_set()]:
                del instance.active[link]
        live = [
            i
            for i in bot.instances
            if not i.dead
            and i.lane == lane
            and len(i.active) < max(1, i.session.capacity)
            and match_id not in i.active.values()
        ]
        return min(live, key=lambda i: len(i.active)) if live else None

    async def _start_session(self, bot: _Bot, lane: int | None) -> _Instance | None:
        """Launch the bot in session mode (in ``lane``) and wait until it opens its session (an
        instance), shows it speaks only the per-match protocol or exits (None;
        ``bot.stats.mode`` tells which)."""
        session = self._server.bots.open_session()
        try:
            ours, theirs = pipe_pair() if self._pipe else (None, None)
        except OSError as exc:  # out of descriptors: this seat's launch fails, not the run
            self._server.bots.close_session(session)
            raise BotLaunchError(f"cannot make the bot's session pipe: {exc.strerror}") from exc
        n = bot.launches
        bot.launches += 1
        log_name = f"{bot.name}.{n}.log" if lane is None else f"{bot.name}.lane{lane}.{n}.log"
        try:
            process = await launch_bot(
                bot.argv,
                link=None,
                address=self._server.address,
                # the process's own seed: random (each match's seed comes with its seat), so
                # nobody can compute it from the bot's name, as they could from a derived one
                seed=secrets.randbits(32),
                match_id="",
                log_path=self._log_dir / log_name,
                session=(session.token, self._capacity),
                sandbox=self._sandbox(shared=lane is None),
                pipe=theirs,
            )
        except BaseException as exc:
            if isinstance(exc, BotLaunchError):
                self._server.bots.close_session(session)
            if ours is not None:
                ours.close()
            raise
        finally:
            if theirs is not None:
                theirs.close()  # the bot's own now: the pipe ends when the bot does
        if ours is not None:
            self._spawn(self._server.bots.serve_pipe(ours, asyncio.shield(process.watcher)))
        bot.stats.processes += 1
        bot.stats.pids.append(process.process.pid)
        waits: set[asyncio.Future[Any]] = {
            asyncio.ensure_future(session.connected.wait()),
            asyncio.ensure_future(session.per_match.wait()),
            asyncio.ensure_future(asyncio.shield(process.watcher)),
        }
        try:
            await asyncio.wait(
                waits, timeout=self._session_timeout_s, return_when=asyncio.FIRST_COMPLETED
            )
        except BaseException:  # cancelled (a match given up): the process is stopped, not left
            self._server.bots.close_session(session)  # running untracked until the pool ends
            self._spawn(self._stop_untracked(process))
            raise
        finally:
            for waiter in waits:
                waiter.cancel()
        log = self._log.bind(bot=bot.name, pid=process.process.pid, lane=lane)
        exited = process.watcher.done()
        if session.connected.is_set() and not exited:
            bot.stats.mode = "session"
            bot.stats.protocol = session.protocol_version
            instance = _Instance(process, session, lane)
            instance.monitor = asyncio.create_task(self._monitor(bot, instance))
            self._monitors.add(instance.monitor)
            instance.monitor.add_done_callback(self._monitors.discard)
            bot.instances.append(instance)
            log.info("session_bot_started", capacity=session.capacity)
            return instance
        self._server.bots.close_session(session)
        self._exits.append(await process.stop())
        if session.per_match.is_set() or not exited:
            # it knows only Play, or said nothing in time: seat it the way croupier match does
            bot.stats.mode = "per-match"
            log.info("bot_is_per_match", said_so=session.per_match.is_set())
        else:
            log.warning("session_bot_failed", code=process.process.returncode)
        return None

    async def _stop_untracked(self, process: BotProcess) -> None:
        self._exits.append(await process.stop())

    async def _monitor(self, bot: _Bot, instance: _Instance) -> None:
        """Wait for the process to end or its session to drop; then its seats lose their bot."""
        watcher = asyncio.ensure_future(asyncio.shield(instance.process.watcher))
        ended = asyncio.ensure_future(instance.session.ended.wait())
        either: set[asyncio.Future[Any]] = {watcher, ended}
        try:
            await asyncio.wait(either, return_when=asyncio.FIRST_COMPLETED)
        finally:
            watcher.cancel()
            ended.cancel()
        instance.dead = True
        if not instance.process.watcher.done():  # a crash drops the session first: the exit
            with contextlib.suppress(TimeoutError):  # status follows within a poll or two
                async with asyncio.timeout(EXIT_WAIT_S):
                    await asyncio.shield(instance.process.watcher)
        with contextlib.suppress(ValueError):
            bot.instances.remove(instance)
        self._server.bots.close_session(instance.session)
        stop = asyncio.ensure_future(instance.process.stop())
        code = instance.process.process.returncode
        if code is None:
            reason = "the bot's session ended"
        else:
            reason = f"the bot process exited with code {code}"
        holding = [link for link in instance.active if not link.done.is_set()]
        for link in holding:
            if code is not None:
                link.process_exited(code)
            link.leave(reason)
        if not self._closed.is_set():
            bot.stats.crashes += 1
            self._log.warning(
                "session_bot_ended", bot=bot.name, reason=reason, seats_lost=len(holding)
            )
        self._exits.append(await stop)

    async def _launch_per_match(
        self, bot: _Bot, link: SeatLink, match_id: str, address: str, seed: int, lane: int | None
    ) -> None:
        process = await launch_bot(
            bot.argv,
            link=link,
            address=address,
            seed=seed,
            match_id=match_id,
            log_path=self._log_dir / f"{match_id}.seat{link.seat}.log",
            sandbox=self._sandbox(shared=lane is None),
        )
        bot.stats.processes += 1
        bot.stats.pids.append(process.process.pid)
        self._per_match[process.process.pid] = process
        self._spawn(self._stop_when_done(process, link))

    async def _stop_when_done(self, process: BotProcess, link: SeatLink) -> None:
        done = asyncio.ensure_future(link.done.wait())
        closed = asyncio.ensure_future(self._closed.wait())  # the process never outlives the pool
        either: set[asyncio.Future[Any]] = {done, closed}
        try:
            await asyncio.wait(either, return_when=asyncio.FIRST_COMPLETED)
        finally:
            done.cancel()
            closed.cancel()
        self._exits.append(await process.stop())
        self._per_match.pop(process.process.pid, None)

    def _sandbox(self, *, shared: bool = True) -> SandboxOptions:
        """Every bot of the pool in its sandbox: it reaches the server by its unix socket and
        never sees the logs' directory (``croupier.transport._sandbox``). ``shared`` False (a
        lane's process): no directory shared with other sandboxes is bound writable into it,
        so lanes cannot talk through storage that outlives them."""
        return dataclasses.replace(
            self._base_sandbox,
            socket=self._server.unix_socket,
            hidden=(*self._base_sandbox.hidden, self._log_dir),
            writable=self._base_sandbox.writable if shared else (),
        )

    def _spawn(self, coro: Coroutine[Any, Any, None]) -> None:
        """Run ``coro`` until it ends or the pool closes (:meth:`close` awaits it). Not a
        TaskGroup's: these tasks (a per-match process each) start and end at any time over the
        pool's life, and one that fails must not cancel the others' matches."""
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # -- the end ---------------------------------------------------------------------------------

    async def close(self, remotes_come_back: bool = False) -> tuple[BotExit, ...]:
        """End every session (its bot exits by itself, or is stopped) and stop what remains;
        return how every process the pool started ended. ``remotes_come_back``: the remote bots'
        sessions end UNAVAILABLE, not OK (a server that stops to start again: their SDKs dial
        again), so they are seated again once it is back."""
        self._closed.set()
        instances = [i for bot in self._bots.values() for i in bot.instances]
        for instance in instances:
            self._server.bots.close_session(instance.session)
        # every monitor still running: also those of instances already gone from their bot,
        # which may still be stopping their process (and removing its control group)
        monitors = {i.monitor for i in instances if i.monitor is not None} | self._monitors
        # gathered, not a TaskGroup: each bot is stopped and its exit recorded whatever became
        # of the others (a failed monitor must not cancel its siblings' shutdown)
        await asyncio.gather(*monitors, return_exceptions=True)
        for remote in self._remotes.values():  # its bot finishes its matches and goes
            self._server.bots.close_session(remote.session, come_back=remotes_come_back)
            if remote.monitor is not None:
                remote.monitor.cancel()
        await asyncio.gather(
            *(r.monitor for r in self._remotes.values() if r.monitor), return_exceptions=True
        )
        # per-match processes saw _closed too: each is stopped now if it still plays
        await asyncio.gather(*self._tasks, return_exceptions=True)
        return tuple(self._exits)
