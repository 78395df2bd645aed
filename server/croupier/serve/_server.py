"""The competition server: one long-running process hosting the bot port (``BotService``: Play
and Session, on the existing :class:`~croupier.transport.ArbiterServer`) and the control port
(``ControlService``), with health and reflection (v1 and v1alpha) on both, everything lasting in
one SQLite store (``docs/server.md``).

::

    server = CompetitionServer(config)
    await server.start()          # binds both ports; marks what a killed server left as aborted
    match = await server.play(MatchOrder("fipsen", ("alice", "bundled:random")))
    await server.stop()

Roles (:class:`Role`) come from the key a call presents (``authorization: Bearer KEY``): the
operator key (from ``CROUPIER_OPERATOR_KEY``, or the key file, generated mode 0600 at the first
start and never logged), a registered bot's key (given once by :meth:`register_bot`, stored
only as its SHA-256; the same key opens ``BotService.Session`` on the bot port), the spectator
key, or no key at all (a spectator, where the configuration allows anonymous spectators).

The hooks a scheduler uses (the continuous ladder, ``serve/_scheduler.py``):
:meth:`CompetitionServer.connected_bots`, :meth:`CompetitionServer.play` (run a match to its
end and commit it), :meth:`CompetitionServer.submit` (start one, do not wait),
:meth:`CompetitionServer.finished_matches` and :attr:`CompetitionServer.store`.
"""

from __future__ import annotations

import asyncio
import contextlib
import enum
import functools
import hashlib
import hmac
import os
import secrets
import signal
import sqlite3
import tomllib
from collections.abc import Callable, Coroutine, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, TypeVar

import grpc
import structlog
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_health.v1._async import HealthServicer

from croupier.arbiter import (
    ClockRules,
    Match,
    MatchConfig,
    random_seed,
    searchable,
    searchable_warning,
)
from croupier.errors import ConfigError, CroupierError, StoreError
from croupier.games import GAMES, get_game
from croupier.ladder import (
    MatchRecord,
    Played,
    Progress,
    Schedule,
    SeatRecord,
    Slot,
    Standings,
    TournamentConfig,
    check_launch,
    parse_config,
    resolve_bot,
    run_tournament,
    store_standings,
)
from croupier.ladder._config import with_runtime
from croupier.ladder._server_store import (
    ABORTED,
    CANCELLED,
    FINISHED,
    PENDING,
    RUNNING,
    RegisteredBot,
    ServerMatch,
    ServerStore,
    now_ms,
    open_server_store,
)
from croupier.ladder._stats import standings
from croupier.ladder._store import read_store
from croupier.runner import new_match_id, run_match
from croupier.serve._config import ServeConfig, is_loopback
from croupier.serve._scheduler import LadderScheduler
from croupier.serve._watch import MatchFeed
from croupier.serve._web import ControlSpectator, WebServer
from croupier.serve._writer import StoreWriter
from croupier.transport import (
    ArbiterServer,
    BotPool,
    BotSession,
    Isolation,
    PeerLimits,
    SandboxMode,
    SandboxOptions,
    TlsConfig,
    default_sandbox_mode,
    parse_bot_command,
    sandbox_isolation,
    sandbox_refusal,
    server_credentials,
    server_ssl_context,
    split_address,
)
from croupier.transport._reflection import enable_reflection
from croupier.transport._server import UNREQUESTED_WAIT_S
from croupier.v1 import bot_pb2, control_pb2, control_pb2_grpc

T = TypeVar("T")

#: A test hook, off unless this environment variable is "1": the server SIGKILLs itself once a
#: tournament's store has committed a match and before the server's store records it (the
#: window :func:`_mirror_committed` closes at the next start; tests/serve/test_restart.py).
_KILL_BEFORE_MIRROR = "CROUPIER_TEST_KILL_BEFORE_MIRROR"

#: The environment variable that holds the operator key (instead of the key file).
ENV_OPERATOR_KEY = "CROUPIER_OPERATOR_KEY"
#: ``CreateMatch`` names a bot the server ships (not a registered one) with this prefix.
BUNDLED_PREFIX = "bundled:"
#: Streams the control port serves at once.
MAX_CONTROL_STREAMS = 4096
#: Largest control request (a tournament's TOML text is the biggest).
MAX_CONTROL_MESSAGE_BYTES = 1 << 20
#: Most matches one ``CreateMatches`` call may create, and the longest batch name.
MAX_BATCH = 1000
MAX_BATCH_NAME = 48
#: What a bot whose key was revoked, changed or that was disabled is told as its session ends
#: (and what its seats' ``disconnect`` faults say).
_REVOKED = "the bot's key was revoked by the server's operator"
_CHANGED = "the bot's key was changed by the server's operator: the old key admits nothing"
_DISABLED = "bot {name!r} is disabled on this server by its operator"
#: A registered bot's name: letters, digits, ``-``, ``_``, ``.``, 1 to 64 of them.
_NAME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.")


class Role(enum.Enum):
    """What a caller may do (``control.proto``, top comment)."""

    OPERATOR = "operator"
    BOT = "bot"
    SPECTATOR = "spectator"


@dataclass(frozen=True, slots=True)
class Caller:
    """Who made a call: the role, and for a registered bot its name."""

    role: Role
    bot_name: str = ""


class AuthError(CroupierError):
    """A key that admits no role (UNAUTHENTICATED)."""


class NotFoundError(CroupierError):
    """No such match, bot or tournament (NOT_FOUND)."""


class StateError(CroupierError):
    """The request does not fit the thing's state (FAILED_PRECONDITION)."""


class ExistsError(StateError):
    """A match id (or bot name) that is used already (ALREADY_EXISTS)."""


E = TypeVar("E", bound=BaseException)


def with_reason(exc: E, reason: str) -> E:
    """``exc`` carrying the stable reason the control API sends with it (``croupier-reason``:
    a ``ControlErrorReason`` name without its prefix, e.g. ``BOT_NOT_FOUND``)."""
    exc.croupier_reason = reason  # type: ignore[attr-defined]
    return exc


def reason_of(exc: BaseException) -> str:
    """The stable reason :func:`with_reason` gave ``exc`` (``""``: none)."""
    return str(getattr(exc, "croupier_reason", ""))


def key_hash(key: str) -> str:
    """What the server keeps of a key: its SHA-256 (keys are 256-bit random tokens, so a
    plain hash is enough; nothing else is ever stored or logged)."""
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def new_key(prefix: str) -> str:
    """A fresh key: ``<prefix>_`` and 256 random bits, URL-safe."""
    return f"{prefix}_{secrets.token_urlsafe(32)}"


def _load_or_make_key(path: Path, prefix: str) -> str:
    """The key in ``path``; made (mode 0600, created exclusively) when the file is absent."""
    try:
        text = path.read_text(encoding="utf-8").strip()
    except FileNotFoundError:
        text = ""
    except OSError as exc:
        raise ConfigError(f"cannot read the key file {path}: {exc.strerror or exc}") from None
    else:
        if not text:
            raise ConfigError(f"the key file {path} is empty")
        if path.stat().st_mode & 0o077:
            raise ConfigError(f"the key file {path} is readable by others: chmod 600 it")
        return text
    key = new_key(prefix)
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(key + "\n")
            f.flush()
            os.fsync(f.fileno())
    except OSError as exc:
        raise ConfigError(f"cannot write the key file {path}: {exc.strerror or exc}") from None
    return key


def bearer(metadata: Sequence[tuple[str, str | bytes]] | None) -> str | None:
    """The key of ``authorization: Bearer KEY`` in call metadata, or ``None`` when absent."""
    for name, value in metadata or ():
        if name.lower() != "authorization":
            continue
        text = value.decode("utf-8", "replace") if isinstance(value, bytes) else value
        scheme, _, key = text.strip().partition(" ")
        if scheme.lower() != "bearer" or not key.strip():
            raise AuthError("the authorization metadata must be 'Bearer <key>'")
        return key.strip()
    return None


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


@dataclass(eq=False)
class _Running:
    """A match this process is playing (or about to)."""

    record: ServerMatch
    cancel: asyncio.Event = field(default_factory=asyncio.Event)
    reason: str = ""
    rounds: int = 0
    task: asyncio.Task[ServerMatch] | None = None


@dataclass(frozen=True, slots=True)
class BotStatus:
    """A registered bot, whether it is connected now, and what its session said of itself
    (its SessionHello's version and name: a self-description, never its identity)."""

    bot: RegisteredBot
    connected: bool
    version: str
    reported_name: str = ""


def tls_config(config: ServeConfig) -> TlsConfig | None:
    """The TLS files of both ports (``None``: plaintext)."""
    tls = config.tls
    return None if tls is None else TlsConfig(tls.cert, tls.key, tls.client_ca)


def credentials(config: ServeConfig) -> grpc.ServerCredentials | None:
    """The control port's TLS credentials (``None``: plaintext), loaded by the transport's one
    TLS helper: one error line for a file that cannot be read or does not fit."""
    tls = tls_config(config)
    return None if tls is None else server_credentials(tls)


def _refuse_plaintext(config: ServeConfig) -> None:
    """A plaintext port on an address others can reach is refused unless allowed."""
    if config.allow_insecure_remote:
        return
    if config.tls is not None:  # every port speaks it (launched bots use the unix socket)
        return
    plain = [("bot_listen", config.bot_listen), ("control_listen", config.control_listen)]
    if config.web_listen:  # the page is plain HTTP without [tls]
        plain.append(("web_listen", config.web_listen))
    for key, address in plain:
        if not is_loopback(address):
            raise ConfigError(
                f"serve.{key} = {address!r} is not a loopback address and is served in "
                "plaintext: configure [tls] (or --tls-cert/--tls-key), bind 127.0.0.1, or pass "
                "--allow-insecure-remote"
            )


def _ready_hook(hook: Callable[[Match], None] | None) -> Callable[[str, Match], None] | None:
    """``run_match``'s ``on_ready`` for a :attr:`MatchOrder.on_ready` hook."""
    if hook is None:
        return None
    return lambda _address, match: hook(match)


class _TournamentWatch:
    """The server's view of the matches of one tournament it runs (a
    :class:`~croupier.ladder.MatchWatch`): each match is recorded among the server's matches as
    it starts (running), and its replay writer feeds a :class:`MatchFeed` registered in
    :attr:`CompetitionServer.feeds`, so that it is listed with its live decision count and
    watched live like the server's own matches. The feed stays registered until the server's
    store says how the match ended: the tournament's commit (``_mirror``) for a finished one,
    an abort for one cut off."""

    def __init__(self, server: CompetitionServer, config: TournamentConfig) -> None:
        self.server, self.config = server, config
        #: The matches started and not yet recorded as ended in the server's store.
        self.live: set[str] = set()
        #: The writes of its committed matches (``_mirror``) not yet done.
        self.mirrors: set[asyncio.Task[Any]] = set()

    def starting(self, slot: Slot) -> MatchFeed:
        server = self.server
        old = server.feeds.get(slot.match_id)
        if old is not None:  # a second attempt (a bot would not start): its watchers end
            old.close()
        feed = server.feeds[slot.match_id] = MatchFeed(slot.match_id)
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

        server._spawn(server._write(write, server._wstore))
        return feed

    def ended(self, slot: Slot, played: Played | None) -> None:
        feed = self.server.feeds.get(slot.match_id)
        if feed is not None:
            feed.close()  # it keeps its records: a watcher still gets the whole match
        if played is not None and not played.cancelled:
            return  # the tournament commits it, then _mirror finishes it and drops the feed
        if not self.server._stopping:  # (when stopping, stop() records it)
            detail = "the match could not be played" if played is None else "cancelled"
            self.server._spawn(self.abort(slot.match_id, detail))

    async def abort(self, match_id: str, detail: str) -> None:
        """Record a match cut off as aborted (with its partial replay), drop its feed."""
        server = self.server
        if match_id not in self.live:
            return
        replay = self.config.out / f"{match_id}.jsonl"
        sha, decisions = await asyncio.to_thread(_digest, replay)  # off the writer
        await server._write(
            server._wstore.end_match,
            match_id,
            ABORTED,
            ended_ms=now_ms(),
            detail=detail,
            decisions=decisions,
            replay_path=os.path.relpath(replay, server.config.state_dir) if sha else "",
            replay_sha256=sha,
        )
        self.done(match_id)

    def done(self, match_id: str) -> None:
        """The server's store has recorded the match's end: watchers now go to its file."""
        self.live.discard(match_id)
        feed = self.server.feeds.pop(match_id, None)
        if feed is not None:
            feed.close()


class CompetitionServer:
    """``croupier serve``'s process: see the module docstring."""

    def __init__(self, config: ServeConfig) -> None:
        self.config = config
        self._log = structlog.get_logger("croupier.serve")
        self._store: ServerStore | None = None
        self._reads: ServerStore | None = None  # a second connection, for the reader thread
        self._loop_store: ServerStore | None = None  # a third, for sync reads on the loop
        # the store is used off the event loop: every write in one thread, in order, those
        # queued together committed together (one fsync); reads in another thread, on their
        # own connection (WAL: readers never wait on writers)
        self._writer: StoreWriter | None = None
        self._reader: ThreadPoolExecutor | None = None
        self._registered: dict[str, RegisteredBot] = {}
        self._arbiter: ArbiterServer | None = None
        self._pool: BotPool | None = None
        self._control: grpc.aio.Server | None = None
        self._health = HealthServicer()
        self._operator_hash = ""
        self._spectator_hash = ""
        self._spectator_key = ""
        self._web: WebServer | None = None
        self._web_channel: grpc.aio.Channel | None = None
        self._bot_keys: dict[str, str] = {}  # key hash -> registered bot name
        self._bundled: set[str] = set()  # bundled bots added to the pool
        self._running: dict[str, _Running] = {}
        self._slots: asyncio.Semaphore | None = None
        self._stopping = False
        self._tournaments: dict[str, Any] = {}
        self._watches: dict[str, _TournamentWatch] = {}  # by tournament, while it runs
        self._tasks: set[asyncio.Task[Any]] = set()
        #: Live feeds of pending and running matches by id (its own and its tournaments'),
        #: for WatchMatch and the live decision counts.
        self.feeds: dict[str, MatchFeed] = {}
        #: Called with every match once it has ended (finished, cancelled or aborted).
        self.on_match_end: list[Callable[[ServerMatch], None]] = []
        self.bot_address = ""
        self.control_address = ""
        #: The continuous ladder (``[ladder]`` in the configuration), once started.
        self.ladder: LadderScheduler | None = None
        #: The web page's URL (``http://HOST:PORT/``, ``https://`` with TLS), when
        #: ``web_listen`` is set.
        self.web_url = ""

    # -- life -----------------------------------------------------------------------------------

    @property
    def store(self) -> ServerStore:
        """The store, for reading on the event loop's thread (a connection of its own: the
        server's writes run in another thread on another connection)."""
        if self._loop_store is None:
            raise RuntimeError("the server is not started")
        return self._loop_store

    @property
    def _wstore(self) -> ServerStore:
        if self._store is None:
            raise RuntimeError("the server is not started")
        return self._store

    @property
    def arbiter(self) -> ArbiterServer:
        if self._arbiter is None:
            raise RuntimeError("the server is not started")
        return self._arbiter

    @property
    def pool(self) -> BotPool:
        if self._pool is None:
            raise RuntimeError("the server is not started")
        return self._pool

    async def start(self) -> None:
        """Bind both ports and start serving; :class:`ConfigError` (one line) if it cannot, or
        if it would launch bots without a sandbox (``sandbox`` is not ``none``)."""
        config = self.config
        _refuse_plaintext(config)
        if problem := await asyncio.to_thread(sandbox_refusal, self.sandbox, "croupier serve"):
            raise ConfigError(problem)
        creds = credentials(config)
        try:
            config.state_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
            config.replay_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
            config.log_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
        except OSError as exc:
            raise ConfigError(f"cannot create {config.state_dir}: {exc.strerror or exc}") from None
        self._load_keys()
        self._store = open_server_store(config.store_path)
        try:  # a tournament's match its store committed is finished here, not aborted
            mirrored = _mirror_committed(self._store, config.state_dir)
            aborted = _abort_unfinished(self._store, config.state_dir, config.replay_dir)
        except (sqlite3.Error, StoreError) as exc:  # (a full disk: one line, not a traceback)
            self._store.close()
            self._store = None
            message = str(exc) if isinstance(exc, StoreError) else f"{config.store_path}: {exc}"
            raise StoreError(message) from None
        if mirrored:
            self._log.info("matches_mirrored_at_start", count=len(mirrored), match_ids=mirrored)
        if aborted:
            self._log.warning("matches_aborted_at_start", count=len(aborted), match_ids=aborted)
        self._reads = open_server_store(config.store_path)
        self._loop_store = open_server_store(config.store_path)
        self._writer = StoreWriter(self._store)
        self._reader = ThreadPoolExecutor(1, thread_name_prefix="croupier-store-read")
        self._slots = asyncio.Semaphore(config.max_matches)
        try:
            await self._start_ports(creds)
            from croupier.serve._ladder import start_ladder  # it imports this module

            self.ladder = await start_ladder(self)
        except BaseException:
            await self.stop()
            raise
        self._log.info(
            "server_started",
            bot_address=self.bot_address,
            control_address=self.control_address,
            tls=creds is not None,
            registered_bots=len(self._bot_keys),
        )

    def _load_keys(self) -> None:
        config = self.config
        operator = os.environ.get(ENV_OPERATOR_KEY, "").strip()
        if not operator:
            operator = _load_or_make_key(config.operator_key_path, "op")
        self._operator_hash = key_hash(operator)
        self._spectator_key = _load_or_make_key(config.spectator_key_path, "sp")
        self._spectator_hash = key_hash(self._spectator_key)

    async def _start_ports(self, creds: grpc.ServerCredentials | None) -> None:
        config = self.config
        limits = PeerLimits(
            pending=config.bot_pending_per_peer,
            probation=config.bot_probation_per_peer,
            failed_hellos=config.bot_failed_hellos_per_peer,
        )
        arbiter = ArbiterServer(
            config.bot_listen,
            max_streams=config.max_bot_streams,
            tls=tls_config(config),
            limits=limits,
        )
        self._arbiter = arbiter
        self.bot_address = await arbiter.start()
        self._pool = BotPool(
            arbiter,
            config.log_dir,
            capacity=config.bot_capacity,
            sandbox=self.sandbox,
            remote_grace_s=config.reconnect_grace_s,
        )
        for bot in self.store.registered_bots():  # (the reading connection)
            self._add_registered(bot)
        arbiter.bots.session_lookup = self._session_for_key

        from croupier.serve._control import ControlServicer  # the servicer calls back into us

        server = grpc.aio.server(
            maximum_concurrent_rpcs=MAX_CONTROL_STREAMS,
            options=[
                ("grpc.max_receive_message_length", MAX_CONTROL_MESSAGE_BYTES),
                ("grpc.so_reuseport", 0),
                # as on the bot port: a call waiting for the busy loop is not cancelled at 30 s
                ("grpc.server_max_unrequested_time_in_server", UNREQUESTED_WAIT_S),
            ],
        )
        servicer = ControlServicer(self)
        control_pb2_grpc.add_ControlServiceServicer_to_server(servicer, server)  # type: ignore[no-untyped-call]
        health_pb2_grpc.add_HealthServicer_to_server(self._health, server)
        control_name = control_pb2.DESCRIPTOR.services_by_name["ControlService"].full_name
        enable_reflection(
            server, (control_name, health_pb2.DESCRIPTOR.services_by_name["Health"].full_name)
        )
        try:
            if creds is None:
                port = server.add_insecure_port(config.control_listen)
            else:
                port = server.add_secure_port(config.control_listen, creds)
        except RuntimeError:
            port = 0
        if not port:
            raise ConfigError(
                f"cannot listen on {config.control_listen}: the address is taken or not this "
                "machine's"
            )
        # the web page's backend calls this service as a spectator, over a private socket in
        # the state folder (0700): whatever TLS the public port has
        web_socket = config.state_dir / "control.sock"
        if config.web_listen:
            web_socket.unlink(missing_ok=True)
            if not server.add_insecure_port(f"unix:{web_socket}"):
                raise ConfigError(f"cannot listen on unix:{web_socket}")
        self._control = server
        await server.start()
        host = config.control_listen.rpartition(":")[0]
        self.control_address = f"{host}:{port}"
        serving = health_pb2.HealthCheckResponse.SERVING
        await self._health.set("", serving)
        await self._health.set(control_name, serving)
        if config.web_listen:
            await self._start_web(web_socket)

    async def _start_web(self, socket: Path) -> None:
        """The spectators' page (``croupier.serve._web``), a spectator client of this server;
        over HTTPS with the server's TLS (the same certificate, key and client CA)."""
        host, port = split_address(self.config.web_listen)
        tls = tls_config(self.config)
        self._web_channel = grpc.aio.insecure_channel(f"unix:{socket}")
        self._web = WebServer(
            ControlSpectator(self._web_channel, self._spectator_key),
            host.strip("[]"),
            int(port),
            tls=None if tls is None else server_ssl_context(tls),
        )
        try:
            await self._web.start()
        except OSError as exc:
            raise ConfigError(
                f"cannot listen on {self.config.web_listen}: {exc.strerror or exc}"
            ) from None
        shown = f"[{host.strip('[]')}]" if ":" in host.strip("[]") else host
        self.web_url = f"{self._web.scheme}://{shown}:{self._web.port}/"

    async def stop(self, grace: float = 1.0) -> None:
        """Stop: running matches are cut off and recorded as aborted, the bots the server
        started are stopped, both ports close."""
        self._stopping = True
        if self.ladder is not None:
            self.ladder.halt()  # no new ladder matches; the running ones end below
        for running in list(self._running.values()):
            running.reason = "the server stopped before the match ended"
            running.cancel.set()
        tasks = [r.task for r in self._running.values() if r.task is not None]
        if tasks:
            await asyncio.gather(*tasks, return_exceptions=True)
        if self.ladder is not None:
            await self.ladder.stop()
        tournaments = [t for t in self._tournaments.values() if not t.done()]
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
        if self._web is not None:
            await self._web.stop()
            self._web = None
        if self._web_channel is not None:
            await self._web_channel.close()
            self._web_channel = None
        with contextlib.suppress(Exception):
            await self._health.enter_graceful_shutdown()
        try:
            if self._pool is not None:  # registered bots are told to dial again, not to go
                await self._pool.close(remotes_come_back=True)
        finally:
            try:
                if self._control is not None:
                    await self._control.stop(grace)
            finally:
                if self._arbiter is not None:
                    await self._arbiter.stop(grace)
                if self._writer is not None:
                    self._writer.close()
                if self._reader is not None:
                    self._reader.shutdown(wait=True)
                self._writer = self._reader = None
                for store in (self._store, self._reads, self._loop_store):
                    if store is not None:
                        store.close()
                self._store = self._reads = self._loop_store = None
        self._log.info("server_stopped")

    async def _write(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Run ``fn`` (a write of the store) in the writer thread, after the writes before it;
        its result once committed (``serve/_writer.py``)."""
        assert self._writer is not None
        return await self._writer.write(functools.partial(fn, *args, **kwargs))

    async def _read(self, fn: Callable[..., T], *args: Any) -> T:
        """Run ``fn(reads, *args)`` in the reader thread on the reading connection."""
        assert self._reader is not None
        assert self._reads is not None
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._reader, functools.partial(fn, self._reads, *args))

    def _spawn(self, coro: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]:
        task = asyncio.create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    # -- roles ----------------------------------------------------------------------------------

    def authenticate(self, metadata: Sequence[tuple[str, str | bytes]] | None) -> Caller:
        """The caller a call's metadata names; :class:`AuthError` for a key that admits nothing
        (or no key, where anonymous spectators are not allowed)."""
        key = bearer(metadata)
        if key is None:
            if self.config.anonymous_spectators:
                return Caller(Role.SPECTATOR)
            raise AuthError("this server admits no anonymous callers: pass a key")
        digest = key_hash(key)
        if hmac.compare_digest(digest, self._operator_hash):
            return Caller(Role.OPERATOR)
        if hmac.compare_digest(digest, self._spectator_hash):
            return Caller(Role.SPECTATOR)
        name = self._bot_keys.get(digest)
        if name is not None:
            return Caller(Role.BOT, name)
        raise AuthError("the key admits no role on this server")

    # -- registered bots ------------------------------------------------------------------------

    def _add_registered(self, bot: RegisteredBot) -> None:
        if not bot.revoked_ms:  # (a revoked bot's stored hash is of a key nobody holds)
            self._bot_keys[bot.key_sha256] = bot.name
        self._registered[bot.name] = bot
        # the pool's session token is internal and random: a bot presents its key, which
        # _session_for_key turns into the session (the key itself is never held)
        self.pool.add_remote(bot.name, secrets.token_urlsafe(32))

    def _session_for_key(self, key: str) -> BotSession | None:
        name = self._bot_keys.get(key_hash(key))
        if name is None:
            return None
        if self._registered[name].disabled:  # a session that refuses the bot, BOT_DISABLED
            refused = BotSession()
            refused.refuse(bot_pb2.ERROR_REASON_BOT_DISABLED, _DISABLED.format(name=name))
            return refused
        return self.pool.remote_session(name)

    def registered_bot(self, name: str) -> RegisteredBot:
        """The registered bot ``name``; :class:`NotFoundError` (``BOT_NOT_FOUND``) if none."""
        bot = self._registered.get(name)
        if bot is None:
            raise with_reason(NotFoundError(f"no registered bot named {name!r}"), "BOT_NOT_FOUND")
        return bot

    def seatable(self, name: str, game: str) -> bool:
        """Whether the registered bot ``name`` may be seated in ``game`` now: it plays that
        game, is not disabled and has a key (the ladder's filter; :meth:`_check_order` says
        why not in one line)."""
        bot = self._registered.get(name)
        return bot is not None and not bot.disabled and not bot.revoked_ms and bot.plays(game)

    def _check_games(self, games: Sequence[str]) -> tuple[str, ...]:
        unknown = []
        for game in games:
            try:
                get_game(game)
            except ConfigError:
                unknown.append(game)
        if unknown:
            known = ", ".join(GAMES)
            raise with_reason(
                ConfigError(f"games: unknown game {unknown[0]!r} (the games: {known})"),
                "GAME_UNKNOWN",
            )
        return tuple(sorted(set(games)))

    async def register_bot(self, name: str, owner: str, games: Sequence[str] = ()) -> str:
        """Register a bot that plays ``games`` (empty: every game); return its key (shown
        once: only its hash is kept)."""
        if not name or len(name) > 64 or not set(name) <= _NAME_CHARS:
            raise with_reason(
                ConfigError(f"bot name {name!r}: use 1 to 64 letters, digits, '-', '_' or '.'"),
                "BAD_NAME",
            )
        if name.startswith("bundled"):
            raise with_reason(
                ConfigError(f"bot name {name!r}: names starting 'bundled' are reserved"),
                "BAD_NAME",
            )
        if len(owner) > 200:
            raise with_reason(ConfigError("owner: at most 200 characters"), "BAD_NAME")
        checked = self._check_games(games)
        key = new_key("bot")
        if name in self._registered:
            raise with_reason(
                ExistsError(f"a bot named {name!r} is already registered"), "BOT_EXISTS"
            )
        try:
            bot = await self._write(self._wstore.register_bot, name, owner, key_hash(key), checked)
        except ConfigError as exc:  # (registered meanwhile)
            raise with_reason(ExistsError(str(exc)), "BOT_EXISTS") from None
        self._add_registered(bot)
        self._log.info("bot_registered", bot=name, owner=owner, games=list(checked))
        return key

    def _changed(self, bot: RegisteredBot, old: RegisteredBot) -> None:
        """Take a bot's stored change in: its key as the store now holds it."""
        self._bot_keys.pop(old.key_sha256, None)
        if not bot.revoked_ms:
            self._bot_keys[bot.key_sha256] = bot.name
        self._registered[bot.name] = bot
        if self.ladder is not None:
            self.ladder.wake()

    def _end_session(self, name: str, reason: int, message: str) -> None:
        """The bot's live session and the Play streams of its seats end now (see
        :meth:`BotPool.end_remote`)."""
        lost = self.pool.end_remote(name, reason, message)
        self._log.info("bot_session_ended", bot=name, seats_lost=lost, detail=message)

    async def revoke_key(self, name: str) -> RegisteredBot:
        """Revoke the bot's key for good: the store forgets its hash (a restart does not bring
        it back), its live session and seats end (TOKEN_UNKNOWN); it keeps its name, history
        and rating, and has no key until :meth:`rotate_key`. :class:`StateError`
        (``KEY_REVOKED``) if it was revoked already."""
        old = self.registered_bot(name)
        if old.revoked_ms:
            raise with_reason(
                StateError(
                    f"bot {name!r} has no key: it was revoked already (croupier ctl rotate "
                    "gives it a new one)"
                ),
                "KEY_REVOKED",
            )
        nobody = key_hash(new_key("revoked"))  # a key nobody holds, so the column stays unique
        bot = await self._write(self._wstore.revoke_bot_key, name, nobody, now_ms())
        self._changed(bot, old)
        self._end_session(name, bot_pb2.ERROR_REASON_TOKEN_UNKNOWN, _REVOKED)
        self._log.info("bot_key_revoked", bot=name)
        return bot

    async def rotate_key(self, name: str) -> tuple[str, RegisteredBot]:
        """Give the bot a new key (returned once; only its hash is stored): the old key stops
        working, and its live session and seats end (TOKEN_UNKNOWN)."""
        old = self.registered_bot(name)
        key = new_key("bot")
        bot = await self._write(self._wstore.set_bot_key, name, key_hash(key))
        self._changed(bot, old)
        self._end_session(name, bot_pb2.ERROR_REASON_TOKEN_UNKNOWN, _CHANGED)
        self._log.info("bot_key_rotated", bot=name)
        return key, bot

    async def set_disabled(self, name: str, disabled: bool) -> RegisteredBot:
        """Disable the bot (it is not seated, its key opens no session: BOT_DISABLED; its live
        session and seats end) or enable it again. Its history and rating stay."""
        old = self.registered_bot(name)
        if old.disabled == disabled:
            return old
        bot = await self._write(self._wstore.set_bot_disabled, name, disabled)
        self._changed(bot, old)
        if disabled:
            self._end_session(name, bot_pb2.ERROR_REASON_BOT_DISABLED, _DISABLED.format(name=name))
        self._log.info("bot_disabled" if disabled else "bot_enabled", bot=name)
        return bot

    async def set_games(self, name: str, games: Sequence[str]) -> RegisteredBot:
        """The games the bot plays from now on (empty: every game): it is seated only in those
        (matches already created play on)."""
        old = self.registered_bot(name)
        checked = self._check_games(games)
        bot = await self._write(self._wstore.set_bot_games, name, checked)
        self._changed(bot, old)
        self._log.info("bot_games_set", bot=name, games=list(checked))
        return bot

    def bots(self) -> list[BotStatus]:
        """The registered bots, by name, with whether each is connected now."""
        out = []
        for bot in sorted(self._registered.values(), key=lambda b: b.name):
            session = self.pool.remote_session(bot.name)
            live = session.connected.is_set() and not session.ended.is_set()
            said, version = self.pool.reported(bot.name)
            out.append(BotStatus(bot, live, version or bot.bot_version, said))
        return out

    def connected_bots(self) -> list[str]:
        """The names of the registered bots with a session open now (a scheduler's pool)."""
        return [s.bot.name for s in self.bots() if s.connected]

    # -- matches --------------------------------------------------------------------------------

    def _entry(self, name: str) -> Any:
        """What ``run_match`` takes for a seat of bot ``name``."""
        if name.startswith(BUNDLED_PREFIX):
            bundled = name.removeprefix(BUNDLED_PREFIX)
            key = f"bundled-{bundled}"  # the pool's name for it names its log files
            if bundled not in self._bundled:
                self.pool.add(key, parse_bot_command(bundled))
                self._bundled.add(bundled)
            return self.pool.assigner(key)
        return self.pool.assigner(name)

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
        for name in order.bots:
            if name.startswith(BUNDLED_PREFIX):
                try:
                    parse_bot_command(name.removeprefix(BUNDLED_PREFIX))
                except ConfigError as exc:
                    raise ConfigError(f"{name}: {exc}") from None
                continue
            bot = self.registered_bot(name)
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
        if self._stopping:
            raise StateError("the server is stopping")
        record = self._new_record(order, order.match_id or new_match_id(order.game))
        if record.match_id in self._running:
            raise ExistsError(f"match {record.match_id} exists already")

        async def create() -> bool:
            if not await self._write(self._wstore.create_match, record):
                return False
            if not self._stopping:  # (stored as the server stops: its next start aborts it)
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
        if self._stopping:
            raise StateError("the server is stopping")
        if not orders:
            raise ConfigError("matches: name at least one match")
        if len(orders) > MAX_BATCH:
            raise ConfigError(f"matches: at most {MAX_BATCH} in one call, got {len(orders)}")
        if batch and (
            len(batch) > MAX_BATCH_NAME or not set(batch) <= _NAME_CHARS or batch[0] == "."
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
            taken = await self._write(self._wstore.create_matches, records)
            if taken is None and not self._stopping:  # (as in submit)
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
        """Cancel a pending or running match (it ends as cancelled, unrated); NotFoundError or
        StateError (it has ended) otherwise."""
        running = self._running.get(match_id)
        if running is None:
            record = self.store.get_match(match_id)
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
        return await self.get_match(match_id)

    async def get_match(self, match_id: str) -> ServerMatch:
        """A match as stored; while it runs, with the decisions played so far (its feed's
        count: the store has the count once the match has ended)."""
        record = await self._read(ServerStore.get_match, match_id)
        if record is None:
            raise NotFoundError(f"no match {match_id!r}")
        return await self._live(record)

    async def _live(self, record: ServerMatch) -> ServerMatch:
        """``record`` with the live decision count of its feed, if it is running."""
        if record.state != RUNNING:
            return record
        feed = self.feeds.get(record.match_id)
        if feed is not None:
            return replace(record, decisions=feed.decisions)
        # read as running, but its feed has gone since: it has just ended, read it again
        again = await self._read(ServerStore.get_match, record.match_id)
        return record if again is None else again

    def is_running(self, match_id: str) -> bool:
        return match_id in self._running

    async def list_matches(
        self, state: str | None, limit: int, after: tuple[int, str] | None
    ) -> list[ServerMatch]:
        """A page of matches, newest first (see :meth:`ServerStore.list_matches`); the
        running ones with their decisions so far (see :meth:`get_match`)."""
        rows = await self._read(ServerStore.list_matches, state, limit, after)
        return [await self._live(r) for r in rows]

    async def replay_file(self, match_id: str) -> tuple[Path, ServerMatch]:
        """The replay of a match that has ended (its file, as stored) and the match."""
        record = await self.get_match(match_id)
        if record.state in (PENDING, RUNNING) or match_id in self._running:
            raise StateError(f"match {match_id} has not ended: its replay is still being written")
        if not record.replay_path:
            raise NotFoundError(f"match {match_id} has no replay")
        return self.config.state_dir / record.replay_path, record

    def finished_matches(self, tournament: str = "", game: str | None = None) -> list[ServerMatch]:
        """The finished matches of ``tournament`` in the order they finished (ratings order);
        read on the caller's thread (the event loop's)."""
        return self.store.finished(tournament, game)

    def deal_set_open(self, record: ServerMatch) -> bool:
        """Whether ``record`` belongs to a duplicate set whose deals may still be played at
        another seating (by its tournament while that runs, or by the ladder while a seating of
        the set runs or is queued). Such a match, even finished, shows cards that are hidden
        in its sibling seatings: only operators may watch it then."""
        if not record.deal_set:
            return False
        if record.tournament:
            task = self._tournaments.get(record.tournament)
            return task is not None and not task.done()
        return self.ladder is not None and self.ladder.deal_set_open(record.deal_set)

    async def watch_source(self, match_id: str) -> MatchFeed | Path:
        """What WatchMatch streams a match from: its live feed while this process has it
        pending or playing, else its replay file."""
        feed = self.feeds.get(match_id)
        if feed is not None:
            return feed
        record = await self.get_match(match_id)
        if record.replay_path:
            return self.config.state_dir / record.replay_path
        return _replay_written(record, self.config.state_dir, self.config.replay_dir)

    # -- standings and tournaments ----------------------------------------------------------------

    async def standings(self, tournament: str = "") -> tuple[str, Standings]:
        """The game and the standings of ``tournament`` (``""``: the server's own matches of
        the continuous ladder's game, or of the latest finished match's game if no ladder is
        configured), recomputed from the stored results."""
        if tournament:
            path = self._tournament_dir(tournament) / "store.sqlite"
            if not path.is_file():
                raise NotFoundError(f"no tournament {tournament!r}")
            info, table = await asyncio.to_thread(store_standings, path)
            return str(info["game"]), table
        return await self._read(_own_standings, self.config.ladder_game)

    async def standings_warning(self, tournament: str = "") -> str:
        """One line for the standings of ``tournament`` (``""``: the server's own) when some of
        its launched bots ran without a sandbox (``--sandbox none``); ``""`` otherwise."""
        if tournament:
            path = self._tournament_dir(tournament) / "store.sqlite"
            if not path.is_file():
                return ""
            info, _ = await asyncio.to_thread(store_standings, path)
            weak = sorted(
                name
                for name, bot in info["bots"].items()
                if bot.isolation and not Isolation(bot.isolation).isolated
            )
            if not weak:
                return ""
            return f"bots {', '.join(weak)} ran without a sandbox (--sandbox none)"
        how = await asyncio.to_thread(sandbox_isolation, self.sandbox.mode)
        if how.isolated:
            return ""
        return f"this server launches its bots without a sandbox: {how.summary}"

    @functools.cached_property
    def sandbox(self) -> SandboxOptions:
        """How this server launches bots (``bundled:`` bots, its tournaments'): the configured
        mode and limits; its state folder and config file are no bot's to see."""
        config = self.config
        mode = default_sandbox_mode() if not config.sandbox else SandboxMode(config.sandbox)
        private = [config.state_dir]
        if Path(config.source).is_file():
            private.append(Path(config.source))
        return SandboxOptions(mode=mode, limits=config.bot_limits, forbidden=tuple(private))

    def _tournament_dir(self, name: str) -> Path:
        if not name or len(name) > 64 or not set(name) <= _NAME_CHARS or name.startswith("."):
            raise ConfigError(
                f"tournament name {name!r}: use 1 to 64 letters, digits, '-', '_', '.'"
            )
        return self.config.state_dir / "tournaments" / name

    async def create_tournament(self, config_toml: str) -> tuple[str, int]:
        """Start a tournament from its TOML text (``docs/ladder.md``) in the server's state
        folder; return its name and how many matches it schedules. Its finished matches are
        listed with the server's (tournament = its name)."""
        if self._stopping:
            raise StateError("the server is stopping")
        try:
            data = tomllib.loads(config_toml)
        except tomllib.TOMLDecodeError as exc:
            raise ConfigError(f"config_toml: not valid TOML: {exc}") from None
        base = self.config.state_dir / "tournaments"
        parsed = parse_config(data, "config_toml", base=base)
        if any(b.remote for b in parsed.bots):
            raise ConfigError("config_toml: remote bots are not supported here; name commands")
        if parsed.tls is not None:
            raise ConfigError("config_toml: tls: the server's tournaments have no remote bots")
        folder = self._tournament_dir(parsed.name)
        if parsed.name in self._tournaments or folder.exists():  # (also from before a restart)
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
            sandbox=self.sandbox,
        )
        resolved = {b.name: resolve_bot(b) for b in config.bots}
        await asyncio.to_thread(check_launch, config, resolved, "the server")
        total = Schedule(config).total()
        folder.mkdir(mode=0o700, parents=True)
        self._tournaments[parsed.name] = self._spawn(self._run_tournament(config))
        self._log.info("tournament_created", tournament=parsed.name, matches=total)
        return parsed.name, total

    async def _run_tournament(self, config: TournamentConfig) -> None:
        log = self._log.bind(tournament=config.name)
        cancel = asyncio.Event()
        watch = self._watches[config.name] = _TournamentWatch(self, config)

        def mirror(progress: Progress) -> None:
            record = progress.record
            if record is None or self._store is None:
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
            task = self._spawn(self._mirror(mine, record, replay, watch))
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
            if not self._stopping:  # (stop() records what the stop cut off)
                self._watches.pop(config.name, None)
                await asyncio.gather(*watch.mirrors, return_exceptions=True)
                for match_id in sorted(watch.live):  # a match left open: not committed
                    await watch.abort(match_id, "the tournament ended before the match did")

    async def _mirror(
        self, mine: ServerMatch, record: MatchRecord, replay: Path, watch: _TournamentWatch
    ) -> None:
        """Record a tournament's finished match among the server's matches (recorded as
        running when it started; created here if that write has not landed), then drop its
        feed: watchers go to its replay file from now on."""

        decisions = await asyncio.to_thread(_decisions, replay)

        def write(store: ServerStore) -> None:
            store.create_match(mine)  # (no-op: it was recorded when it started)
            _finish_mirrored(store, record, replay, self.config.state_dir, decisions)

        if os.environ.get(_KILL_BEFORE_MIRROR) == "1":  # tests only: see _KILL_BEFORE_MIRROR
            os.kill(os.getpid(), signal.SIGKILL)
        await self._write(write, self._wstore)
        watch.done(record.match_id)

    async def _play(self, running: _Running, order: MatchOrder) -> ServerMatch:
        record = running.record
        match_id = record.match_id
        log = self._log.bind(match_id=match_id)
        assert self._slots is not None
        # watchers wait on the feed from now on, pending or running; it is dropped once the
        # store says where the replay is (WatchMatch then streams the file)
        self.feeds[match_id] = MatchFeed(match_id)
        try:
            async with self._slots:
                if running.cancel.is_set():
                    return await self._end_unplayed(running)
                await self._write(self._wstore.mark_running, match_id, now_ms())
                return await self._run(running, order, log)
        finally:
            self._running.pop(match_id, None)
            feed = self.feeds.pop(match_id, None)
            if feed is not None:
                feed.close()
            final = None
            with contextlib.suppress(Exception):  # (the server is being torn down)
                final = await self._read(ServerStore.get_match, match_id)
            if final is not None:
                for hook in self.on_match_end:
                    try:
                        hook(final)
                    except Exception:  # a hook's failure is its own; the match is stored
                        log.exception("match_end_hook_failed")

    async def _end_unplayed(self, running: _Running) -> ServerMatch:
        state = ABORTED if self._stopping else CANCELLED
        await self._write(
            self._wstore.end_match,
            running.record.match_id,
            state,
            ended_ms=now_ms(),
            detail=running.reason,
        )
        return await self.get_match(running.record.match_id)

    async def _run(self, running: _Running, order: MatchOrder, log: Any) -> ServerMatch:
        record = running.record
        match_id = record.match_id
        config = self.config
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
            entries = [self._entry(name) for name in record.bots]
            run = await run_match(
                mc,
                entries,
                config.replay_dir,
                server=self.arbiter,
                match_id=match_id,
                cancel=running.cancel,
                progress=progress,
                on_ready=_ready_hook(order.on_ready),
                listener=self.feeds.get(match_id),
            )
        except (CroupierError, OSError) as exc:
            log.warning("match_failed", error=str(exc))
            await self._write(
                self._wstore.end_match, match_id, ABORTED, ended_ms=now_ms(), detail=str(exc)
            )
            return await self.get_match(match_id)
        replay = run.replay
        rel = os.path.relpath(replay, config.state_dir)
        sha, decisions = await asyncio.to_thread(_digest, replay)  # off the writer
        if run.result.cancelled:
            state = ABORTED if self._stopping else CANCELLED
            await self._write(
                self._wstore.end_match,
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
            return await self.get_match(match_id)
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
        committed = await self._write(
            self._wstore.finish_match,
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
        return await self.get_match(match_id)


def _own_standings(store: ServerStore, game: str) -> tuple[str, Standings]:
    """The server's own standings (see :meth:`CompetitionServer.standings`), in the reader."""
    if not game:
        latest = [m for m in store.list_matches(FINISHED, 50) if not m.tournament]
        game = latest[0].game if latest else ""
    matches = store.finished("", game) if game else []
    names = sorted({s.bot for m in matches for s in m.seats})
    seats = int(matches[0].params.get("players", 2)) if matches else 2
    return game, standings([m.record() for m in matches], names, seats)


def _finish_mirrored(
    store: ServerStore, record: MatchRecord, replay: Path, state_dir: Path, decisions: int
) -> bool:
    """Finish, in the server's store, a tournament's match its own store has committed."""
    return store.finish_match(
        record.match_id,
        ended_ms=now_ms(),
        rounds=record.rounds_played,
        decisions=decisions,
        replay_path=os.path.relpath(replay, state_dir),
        replay_sha256=record.replay_sha256,
        seats=tuple(sorted(record.seats, key=lambda s: s.seat)),
    )


def _mirror_committed(store: ServerStore, state_dir: Path) -> list[str]:
    """At start, before the unfinished are aborted: finish the tournament matches the server's
    store holds as open that their tournament's store has committed (the server was killed
    between the two commits), in one transaction; return their ids."""
    wanted: dict[str, set[str]] = {}
    for match in store.unfinished():
        if match.tournament:
            wanted.setdefault(match.tournament, set()).add(match.match_id)
    found: list[tuple[MatchRecord, Path]] = []
    for name, ids in sorted(wanted.items()):
        path = state_dir / "tournaments" / name / "store.sqlite"
        try:
            held = read_store(path)
        except ConfigError:  # no store (yet): nothing of it was committed
            continue
        try:
            found += [(r, path.parent / r.replay_path) for r in held.matches() if r.match_id in ids]
        finally:
            held.close()
    done = []
    with store.group():
        for record, replay in found:
            if _finish_mirrored(store, record, replay, state_dir, _decisions(replay)):
                done.append(record.match_id)
    return done


def _replay_written(match: ServerMatch, state_dir: Path, replay_dir: Path) -> Path:
    """Where a match's replay is written while it plays (before the store records its path):
    its tournament's ``replays/`` folder, else the server's replay folder."""
    if match.tournament:
        return state_dir / "tournaments" / match.tournament / "replays" / f"{match.match_id}.jsonl"
    return replay_dir / f"{match.match_id}.jsonl"


def _abort_unfinished(store: ServerStore, state_dir: Path, replay_dir: Path) -> list[str]:
    """At start, after :func:`_mirror_committed`: record every match a stopped or killed
    server left pending or running as aborted, each with what its partial replay holds (its
    decisions, its path and SHA-256, so it can be fetched and watched), in one transaction;
    return their ids. A match that left no replay file is aborted with none."""
    detail = "the server stopped before the match ended"
    ended = now_ms()
    done = []
    with store.group():
        for match in store.unfinished():
            replay = _replay_written(match, state_dir, replay_dir)
            sha, decisions = _digest(replay)
            rel = os.path.relpath(replay, state_dir) if sha else ""
            if store.end_match(
                match.match_id,
                ABORTED,
                ended_ms=ended,
                detail=detail,
                decisions=decisions,
                replay_path=rel,
                replay_sha256=sha,
            ):
                done.append(match.match_id)
    return done


def _digest(path: Path) -> tuple[str, int]:
    """A replay's SHA-256 and its decisions ("", 0 when there is no file)."""
    return (_sha256(path), _decisions(path)) if path.is_file() else ("", 0)


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as f:
        while chunk := f.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest()


def _decisions(path: Path) -> int:
    """The action records of a replay (the decisions played; 0 when there is no file)."""
    if not path.is_file():
        return 0
    with path.open("rb") as f:
        return sum(1 for line in f if line.startswith(b'{"type":"action"'))
