"""The competition server: one long-running process hosting the bot port (``BotService``: Play
and Session, on the existing :class:`~croupier.transport.ArbiterServer`) and the control port
(``ControlService``), with health and reflection (v1 and v1alpha) on both, everything lasting in
one SQLite store (``docs/server.md``).

::

    server = CompetitionServer(config)
    await server.start()          # binds both ports; marks what a killed server left as aborted
    match = await server.play(MatchOrder("fipsen", ("alice", "bundled:random")))
    await server.stop()

:class:`CompetitionServer` composes the server's parts, each with one job, each given what it
uses when it is made (none reaches back into the server):

========================== ====================================================================
``serve/_auth.py``         :class:`~croupier.serve._auth.Keys`: the key files, who a key is
``serve/_storage.py``      :class:`~croupier.serve._storage.Storage`: the store's connections
                           and threads, made whole at start
``serve/_bots.py``         :class:`~croupier.serve._bots.Bots`: the registered bots
``serve/_matches.py``      :class:`~croupier.serve._matches.Matches`: the server's own matches
``serve/_tournaments.py``  :class:`~croupier.serve._tournaments.Tournaments`: the tournaments
``serve/_ladder.py``       the continuous ladder (``serve/_scheduler.py``) on the matches
``serve/_watch.py``        :class:`~croupier.serve._watch.MatchFeed`: a running match's
                           records, for the live board and ``WatchMatch``
``serve/_seats.py``        a seat's own view and log of an ended match (self-service)
``serve/_control.py``      the ``ControlService`` servicer on the parts above
``serve/_pages.py``        :class:`~croupier.serve._pages.Pages`: the web page's bot pages
                           and standings
``serve/_human.py``        :class:`~croupier.serve._human.HumanDesk`: human seats in the
                           browser (``serve/_play.py``: "play vs bots")
``serve/_ports.py``        the control port (from a thread of its own: ``serve/_offloop.py``)
                           and the web page (``serve/_web.py``)
========================== ====================================================================

The hooks a scheduler uses (the continuous ladder uses the parts directly):
:meth:`CompetitionServer.connected_bots`, :meth:`CompetitionServer.play` (run a match to its
end and commit it), :meth:`CompetitionServer.submit` (start one, do not wait),
:meth:`CompetitionServer.finished_matches` and :attr:`CompetitionServer.store`.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import grpc
import structlog
from grpc_health.v1._async import HealthServicer

from croupier.errors import ConfigError
from croupier.serve._auth import Keys
from croupier.serve._bots import Bots
from croupier.serve._config import ServeConfig
from croupier.serve._control import ControlServicer
from croupier.serve._human import HumanDesk
from croupier.serve._ladder import start_ladder
from croupier.serve._matches import Matches, MatchOrder
from croupier.serve._pages import Pages
from croupier.serve._play import VsBots
from croupier.serve._ports import ControlPort, WebPage, credentials, refuse_plaintext, tls_config
from croupier.serve._scheduler import LadderScheduler
from croupier.serve._storage import Storage
from croupier.serve._store import ServerMatch, ServerStore
from croupier.serve._tournaments import Tournaments
from croupier.serve._watch import MatchFeed
from croupier.transport import (
    ArbiterServer,
    BotPool,
    PeerLimits,
    SandboxMode,
    SandboxOptions,
    default_sandbox_mode,
    sandbox_private_refusal,
    sandbox_refusal,
)


@dataclass(frozen=True, slots=True)
class _Parts:
    """The services of a started server (see the module docstring)."""

    bots: Bots
    matches: Matches
    tournaments: Tournaments


class CompetitionServer:
    """``croupier serve``'s process: see the module docstring."""

    def __init__(self, config: ServeConfig) -> None:
        self.config = config
        self._log = structlog.get_logger("croupier.serve")
        self._health = HealthServicer()
        # what start() makes, in its order; stop() undoes whatever was made
        self._storage: Storage | None = None
        self._arbiter: ArbiterServer | None = None
        self._pool: BotPool | None = None
        self._parts: _Parts | None = None
        self._control: ControlPort | None = None
        self._web: WebPage | None = None
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

    # -- what a started server has --------------------------------------------------------------

    @property
    def store(self) -> ServerStore:
        """The store, for reading on the event loop's thread (a connection of its own: the
        server's writes run in another thread on another connection)."""
        if self._storage is None:
            raise RuntimeError("the server is not started")
        return self._storage.loop

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

    @property
    def _started(self) -> _Parts:
        if self._parts is None:
            raise RuntimeError("the server is not started")
        return self._parts

    @functools.cached_property
    def sandbox(self) -> SandboxOptions:
        """How this server launches bots (``bundled:`` bots, its tournaments'): the configured
        mode and limits; its state folder, config file, key files and TLS key are no bot's
        to see."""
        config = self.config
        mode = default_sandbox_mode() if not config.sandbox else SandboxMode(config.sandbox)
        private = [config.state_dir, config.operator_key_path, config.spectator_key_path]
        if Path(config.source).is_file():
            private.append(Path(config.source))
        if config.tls is not None:
            private.append(config.tls.key)
        return SandboxOptions(mode=mode, limits=config.bot_limits, forbidden=tuple(private))

    # -- life -----------------------------------------------------------------------------------

    async def start(self) -> None:
        """Bind both ports and start serving; :class:`ConfigError` (one line) if it cannot, or
        if it would launch bots without a sandbox (``sandbox`` is not ``none``)."""
        config = self.config
        refuse_plaintext(config)
        if problem := await asyncio.to_thread(sandbox_refusal, self.sandbox, "croupier serve"):
            raise ConfigError(problem)
        creds = credentials(config)
        try:
            config.state_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
            config.replay_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
            config.log_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
        except OSError as exc:
            raise ConfigError(f"cannot create {config.state_dir}: {exc.strerror or exc}") from None
        # (its state folder, made now, is covered in every sandbox; its config and keys not)
        if problem := await asyncio.to_thread(sandbox_private_refusal, self.sandbox):
            raise ConfigError(problem)
        keys = Keys.load(config)
        storage, mirrored, aborted = Storage.open(
            config.store_path, config.state_dir, config.replay_dir
        )
        self._storage = storage
        if mirrored:
            self._log.info("matches_mirrored_at_start", count=len(mirrored), match_ids=mirrored)
        if aborted:
            self._log.warning("matches_aborted_at_start", count=len(aborted), match_ids=aborted)
        try:
            await self._start_ports(keys, storage, creds)
            parts = self._started
            self.ladder = await start_ladder(
                config, parts.bots, parts.matches, self.pool, storage.loop
            )
        except BaseException:
            await self.stop()
            raise
        self._log.info(
            "server_started",
            bot_address=self.bot_address,
            control_address=self.control_address,
            tls=creds is not None,
            registered_bots=len(keys),
        )

    async def _start_ports(
        self, keys: Keys, storage: Storage, creds: grpc.ServerCredentials | None
    ) -> None:
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
        pool = self._pool = BotPool(
            arbiter,
            config.log_dir,
            capacity=config.bot_capacity,
            sandbox=self.sandbox,
            remote_grace_s=config.reconnect_grace_s,
        )
        bots = Bots(storage, keys, pool)
        bots.on_change.append(self._bots_changed)
        arbiter.bots.session_lookup = bots.session_for_key
        matches = Matches(config, storage, bots, pool, arbiter, self.feeds)
        matches.on_match_end = self.on_match_end  # (the same list: hooks added later count)
        tournaments = Tournaments(config, storage, self.feeds, self.sandbox)
        self._parts = _Parts(bots, matches, tournaments)
        servicer = ControlServicer(
            keys,
            bots,
            matches,
            tournaments,
            sandbox=self.sandbox,
            deal_set_open=self.deal_set_open,
        )
        control = self._control = ControlPort(config, self._health)
        await control.start(servicer, creds)
        self.control_address = control.address
        if control.web_socket is not None:
            pages = Pages(
                storage, self.feeds, config.ladder_game, self.deal_set_open, versions=bots.version
            )
            desk = HumanDesk()  # "play vs bots": seat 0 dialled over the arbiter's unix socket
            if config.play_vs_bots != "off" and arbiter.unix_socket is not None:
                local = f"unix:{arbiter.unix_socket}"
                desk.vs_bots = VsBots(config.play_vs_bots, keys, matches, local, desk)
            web = self._web = WebPage(
                config, control.web_socket, keys.spectator_key, pages, human=desk
            )
            await web.start()
            self.web_url = web.url

    def _bots_changed(self) -> None:
        if self.ladder is not None:
            self.ladder.wake()

    async def stop(self, grace: float = 1.0) -> None:
        """Stop: running matches are cut off and recorded as aborted, the bots the server
        started are stopped, both ports close."""
        parts = self._parts
        if parts is not None:  # (first of all: no new match, no new tournament)
            parts.matches.stopping = parts.tournaments.stopping = True
        if self.ladder is not None:
            self.ladder.halt()  # no new ladder matches; the running ones end below
        if parts is not None:
            await parts.matches.stop()
        if self.ladder is not None:
            await self.ladder.stop()
        if parts is not None:
            await parts.tournaments.stop()
        if self._web is not None:
            await self._web.stop()
            self._web = None
        with contextlib.suppress(Exception):
            if self._control is not None:
                await self._control.enter_graceful_shutdown()
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
                if self._storage is not None:
                    self._storage.close()
        self._log.info("server_stopped")

    # -- for a scheduler or a program (docs/server.md, "For a scheduler") ---------------------

    async def play(self, order: MatchOrder) -> ServerMatch:
        """Play a match to its end and return it as stored (finished, cancelled or aborted)."""
        return await self._started.matches.play(order)

    async def submit(self, order: MatchOrder) -> ServerMatch:
        """Record a new match (pending) and start it; return its record."""
        return await self._started.matches.submit(order)

    def cancel(self, match_id: str, reason: str = "cancelled by the operator") -> None:
        """Cancel a pending or running match: it ends as cancelled, unrated, unless it ends
        otherwise first (see :meth:`Matches.cancel`)."""
        self._started.matches.cancel(match_id, reason)

    async def get_match(self, match_id: str) -> ServerMatch:
        """A match as stored (while it runs, with the decisions played so far)."""
        return await self._started.matches.get(match_id)

    def finished_matches(self, tournament: str = "", game: str | None = None) -> list[ServerMatch]:
        """The finished matches of ``tournament`` in the order they finished (ratings order)."""
        return self._started.matches.finished(tournament, game)

    def connected_bots(self) -> list[str]:
        """The names of the registered bots with a session open now (a scheduler's pool)."""
        return self._started.bots.connected()

    def deal_set_open(self, record: ServerMatch) -> bool:
        """Whether ``record`` belongs to a duplicate set whose deals may still be played at
        another seating (by its tournament while that runs, or by the ladder while a seating of
        the set runs or is queued). Such a match, even finished, shows cards that are hidden
        in its sibling seatings: only operators may watch it then."""
        if not record.deal_set:
            return False
        if record.tournament:
            return self._started.tournaments.running(record.tournament)
        return self.ladder is not None and self.ladder.deal_set_open(record.deal_set)
