"""Playing scheduled matches: what a match needs (:class:`MatchJob`), how one is played on a
running arbiter server (:func:`play_job`), and the local executor (:class:`LocalPlayer`, many
at once on one server, the bots kept up across matches in a :class:`~croupier.transport.BotPool`).

This module is what a Ray worker runs too (``_ray.py``): nothing here touches the store.
"""

from __future__ import annotations

import ast
import asyncio
import difflib
import hashlib
import importlib.machinery
import importlib.util
import json
import os
import re
import shlex
import shutil
import socket
import sys
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from importlib.machinery import ModuleSpec
from pathlib import Path
from typing import Protocol

import structlog

from croupier.arbiter import ClockRules, Match, MatchConfig
from croupier.errors import BotLaunchError, ConfigError
from croupier.ladder._config import BotSpec, TournamentConfig
from croupier.ladder._offload import ControlVariates
from croupier.ladder._schedule import Slot, deal_script
from croupier.ladder._store import SeatRecord
from croupier.replay import RecordListener
from croupier.runner import run_match
from croupier.transport import (
    BUNDLED,
    SESSION_TIMEOUT_S,
    ArbiterServer,
    BotPool,
    BotStats,
    Restart,
    SandboxOptions,
    SeatAssigner,
    TlsConfig,
    parse_bot_command,
    sandbox_refusal,
)

#: How many times an executor plays a match again after the node or worker playing it died.
MAX_RETRIES = 5
#: What ``run_match`` takes for one seat: an argv to launch for this match, a pool's seat
#: assigner (the bot's process stays up across matches), or ``None`` (nobody is launched: a
#: remote bot dials in, or the seat is left at once when the bot cannot start).
SeatEntry = list[str] | SeatAssigner | None


@dataclass(frozen=True, slots=True)
class ResolvedBot:
    """A bot of the tournament, ready to seat: its argv (``None``: remote), or why it cannot be
    started (``error``; its seats are then left at once and the match goes on without it)."""

    name: str
    command: str
    argv: tuple[str, ...] | None
    error: str = ""
    exe_sha256: str = ""


def _spec_of(name: str) -> ModuleSpec | None:
    """Where module ``name`` is, found without importing (running) anything: the top-level
    name by the import system's finders, each further part in its parent's folders. ``None``
    if it cannot be found (or the name is not a module's)."""
    parts = name.split(".")
    try:
        spec = importlib.util.find_spec(parts[0]) if parts[0] else None
        for i in range(1, len(parts)):
            if spec is None or not spec.submodule_search_locations:
                return None
            where = list(spec.submodule_search_locations)
            spec = importlib.machinery.PathFinder.find_spec(".".join(parts[: i + 1]), where)
    except Exception:  # (a name no finder can take: not a module of the command's)
        return None
    return spec


def _package_sources(module: str) -> list[Path]:
    """A module's source, its packages' ``__init__`` (and a package's ``__main__``), and,
    transitively, the sources of the modules of its own top-level package that these import
    (read from the code, neither imported nor run): what ``python -m module`` runs of that
    package. A bundled search bot's fingerprint so covers ``croupier_bots._search``."""
    top = module.partition(".")[0]
    seen: dict[str, Path] = {}
    parts = module.split(".")
    todo = [".".join(parts[:i]) for i in range(1, len(parts) + 1)]  # its packages run first
    todo.append(f"{module}.__main__")  # (what ``-m`` runs of a package)
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        spec = _spec_of(name)
        if spec is None or not spec.origin or not spec.origin.endswith(".py"):
            continue
        origin = Path(spec.origin)
        seen[name] = origin
        package = name if origin.name == "__init__.py" else name.rpartition(".")[0]
        try:
            tree = ast.parse(origin.read_bytes())
        except (OSError, SyntaxError, ValueError):
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                    target = f"{base}.{node.module}" if node.module else base
                else:
                    target = node.module or ""
                names = [target] + [f"{target}.{a.name}" for a in node.names]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            else:
                continue
            for found in [n.rsplit(".", k)[0] for n in names for k in range(n.count(".") + 1)]:
                if found.partition(".")[0] == top and found not in seen:
                    todo.append(found)
    # (a module that cannot be found: the command cannot run, its files are the fallback)
    return sorted(seen.values()) if module in seen else []


def _files_of(argv: Sequence[str]) -> list[Path]:
    """The files a command runs: its program and every argument naming a file (a script); for
    a bundled bot (``python -m``), its module's source and the sources of its package's
    modules it imports (:func:`_package_sources`)."""
    if len(argv) >= 3 and argv[1] == "-m":
        files = _package_sources(argv[2])
        if files:
            return files
    out = []
    for i, arg in enumerate(argv):
        path = Path(arg)
        if i == 0 and os.sep not in arg:
            found = shutil.which(arg)
            path = Path(found) if found else path
        try:
            if path.is_file():
                out.append(path.resolve())
        except OSError:  # (a path this process may not look at: not a file it runs)
            continue
    return out


def _hash_files(files: Sequence[Path]) -> str:
    digest = hashlib.sha256()
    for path in files:
        digest.update(path.name.encode() + b"\0")
        with path.open("rb") as f:
            while chunk := f.read(1 << 20):
                digest.update(chunk)
    return digest.hexdigest()


def executable_hash(argv: Sequence[str]) -> str:
    """SHA-256 over the files the command runs (see :func:`_files_of`); "" if none is a file."""
    files = _files_of(argv)
    return _hash_files(files) if files else ""


def legacy_executable_hash(argv: Sequence[str]) -> str:
    """What earlier stores recorded for a bundled bot: its module's source only. A
    store holding it is accepted once and then records :func:`executable_hash`."""
    if len(argv) >= 3 and argv[1] == "-m":
        spec = _spec_of(argv[2])
        if spec is not None and spec.origin and Path(spec.origin).is_file():
            return _hash_files([Path(spec.origin)])
    return executable_hash(argv)


def resolve_bot(spec: BotSpec) -> ResolvedBot:
    """Turn a bot's command into an argv; a command that cannot run is recorded, not raised."""
    if spec.remote:
        return ResolvedBot(spec.name, spec.command, None)
    try:
        argv = parse_bot_command(spec.command)
    except ConfigError as exc:
        known = ", ".join(sorted(BUNDLED))
        close = difflib.get_close_matches(spec.command.strip(), list(BUNDLED), n=1)
        hint = f"did you mean {close[0]!r}? " if close else ""
        return ResolvedBot(
            spec.name, spec.command, (), error=f"{exc} ({hint}bundled bots: {known})"
        )
    return ResolvedBot(spec.name, spec.command, tuple(argv), exe_sha256=executable_hash(argv))


def seat_entry(bot: ResolvedBot, pooled: Mapping[str, SeatAssigner] | None = None) -> SeatEntry:
    """The entry ``run_match`` takes for a seat of ``bot``: the one place that decides how a
    seat is filled. Nobody for a remote bot or one that cannot start; its pool's assigner when
    the bot is pooled (``pooled``, by display name: its process stays up across matches, or is
    launched per match when it speaks only ``Play`` or the pool restarts per match); else an
    argv launched for this match alone."""
    if bot.error or bot.argv is None:
        return None
    if pooled is not None and bot.name in pooled:
        return pooled[bot.name]
    return list(bot.argv)


@dataclass(frozen=True, slots=True)
class MatchJob:
    """Everything needed to play one scheduled match, anywhere (it pickles for Ray)."""

    slot: Slot
    config: MatchConfig
    bots: tuple[ResolvedBot, ...]  # by seat
    #: The control variate's action terms for the seats of the bundled random bot.
    action_terms: bool = True


@dataclass(frozen=True, slots=True)
class Played:
    """A finished (or cancelled) match, ready for the store."""

    slot: Slot
    seats: tuple[SeatRecord, ...]
    rounds: int
    hello: tuple[tuple[str, str], ...]  # (bot name, version) per seat, from the Hello
    replay: Path
    sha256: str
    worker: str
    cancelled: bool
    replay_bytes: bytes | None = None  # set when the replay travels back (Ray)


def make_jobs(
    config: TournamentConfig, slots: Iterable[Slot], bots: dict[str, ResolvedBot]
) -> list[MatchJob]:
    """One job per slot: the match config (with the duplicate set's deals, and its reveal kept
    from the bots) and its seats."""
    params = tuple(sorted(config.params.items()))
    out = []
    for slot in slots:
        script = deal_script(config.game, params, slot.seed) if slot.deal_set else ()
        mc = MatchConfig(
            game=config.game,
            params=dict(config.params),
            seed=slot.seed,
            clock=ClockRules(config.move_ms, config.bank_ms),
            connect_timeout_s=config.connect_timeout_s,
            chance_script=script,
            fault_policy=config.fault_policy,
            reconnect_grace_s=config.reconnect_grace_s,
            event_flush_ms=config.event_flush_ms,
            withhold_reveal=bool(slot.deal_set),  # its deals are played at other seatings
            # the organiser's names in the replay's header seats (bound by the commitment)
            seat_roster=tuple({"display_name": name} for name in slot.bots),
        )
        seated = tuple(bots[name] for name in slot.bots)
        out.append(MatchJob(slot, mc, seated, config.action_terms))
    return out


def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as f:
        while chunk := f.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest()


def _hello(replay: Path) -> tuple[tuple[str, str], ...]:
    with replay.open(encoding="utf-8") as f:
        header = json.loads(f.readline())
    return tuple((s["bot_name"], s["bot_version"]) for s in header["seats"])


RemoteAnnounce = Callable[[str, int, str, str, str], None]  # match id, seat, bot, token, address


class MatchWatch(Protocol):
    """Told of each match a :class:`LocalPlayer` plays (the competition server's live view of
    a tournament it runs): :meth:`starting` by :func:`play_job` just before each attempt to
    play it (a bot that will not start makes a second attempt, from scratch), :meth:`ended`
    once after the last."""

    def starting(self, slot: Slot) -> RecordListener | None:
        """The listener the match's replay writer hands each record to (``None``: none)."""

    def ended(self, slot: Slot, played: Played | None) -> None:
        """The match is over: what it gave (cancelled or not), or ``None`` when it failed."""


async def play_job(
    job: MatchJob,
    server: ArbiterServer,
    out_dir: Path,
    *,
    cancel: asyncio.Event | None = None,
    announce: RemoteAnnounce | None = None,
    worker: str = "local",
    pooled: Mapping[str, SeatAssigner] | None = None,
    on_ready: Callable[[Match], None] | None = None,
    watch: MatchWatch | None = None,
    sandbox: SandboxOptions | None = None,
    control: ControlVariates | None = None,
) -> Played:
    """Play one match on ``server`` into ``out_dir``, from scratch: whatever an earlier,
    unfinished attempt left there (a partial replay, logs) is removed first. The seats of bots
    in ``pooled`` are handed to their pool (see :func:`seat_entry`); bots launched for this
    match alone run in ``sandbox``. ``on_ready`` gets the match once its seats are handed out,
    just before play starts; ``watch.starting`` the slot before each attempt. ``control``:
    what computes each seat's control variates once it is over
    (:func:`~croupier.ladder._control.match_corrections`; none without)."""
    slot = job.slot
    for stale in out_dir.glob(f"{slot.match_id}.*"):
        stale.unlink(missing_ok=True)
    bots = list(job.bots)
    while True:
        entries = [seat_entry(b, pooled) for b in bots]
        rounds = 0

        def progress(done: int) -> None:
            nonlocal rounds
            rounds = done

        def ready(address: str, match: Match, bots: list[ResolvedBot] = bots) -> None:
            for link, bot in zip(match.seats, bots, strict=True):
                if bot.error:
                    link.leave(f"the bot cannot be started: {bot.error}")
                elif bot.argv is None and announce is not None:
                    announce(slot.match_id, link.seat, bot.name, link.token, address)
            if on_ready is not None:
                on_ready(match)

        try:
            run = await run_match(
                job.config,
                entries,
                out_dir,
                server=server,
                match_id=slot.match_id,
                cancel=cancel,
                progress=progress,
                on_ready=ready,
                listener=None if watch is None else watch.starting(slot),
                sandbox=sandbox,
            )
        except BotLaunchError as exc:  # the program exists but would not start (permissions...)
            failed = next(
                (i for i, b in enumerate(bots) if b.argv and shlex.join(b.argv) in str(exc)), None
            )
            if failed is None:
                raise
            bots[failed] = replace(bots[failed], error=str(exc))
            for stale in out_dir.glob(f"{slot.match_id}.*"):
                stale.unlink(missing_ok=True)
            continue
        break
    cv: tuple[float | None, ...] = (None,) * len(run.result.seats)
    cv_action = cv
    if control is not None and not run.result.cancelled:
        uniform = frozenset(
            i for i, b in enumerate(bots) if job.action_terms and plays_uniformly(b)
        )
        cv, cv_action = await control(run.replay, slot.seed, len(cv), uniform)
    seats = tuple(
        SeatRecord(
            r.seat,
            slot.bots[r.seat],
            r.score,
            r.place,
            r.outcome.value,
            r.timeouts,
            r.rejected,
            cv[r.seat],
            cv_action[r.seat],
        )
        for r in run.result.seats
    )
    return Played(
        slot,
        seats,
        rounds,
        _hello(run.replay),
        run.replay,
        sha256_file(run.replay),
        worker,
        run.result.cancelled,
    )


def plays_uniformly(bot: ResolvedBot) -> bool:
    """Whether the bot's seats draw every action uniformly among the legal ones: the bundled
    random bot, which the arbiter launches from this installation (the control variate's
    action terms apply to its decisions)."""
    return (
        not bot.error
        and bot.argv is not None
        and tuple(bot.argv[:3]) == (sys.executable, "-m", BUNDLED["random"])
    )


def default_concurrency() -> int:
    return os.cpu_count() or 1


def _pool_key(index: int, name: str) -> str:
    """The name a bot goes by in the pool, which names its log files: the display name made
    safe for a file name, with its place in the tournament to keep it unique."""
    return f"{index}-{re.sub(r'[^A-Za-z0-9_.-]+', '_', name)[:60]}"


class LocalPlayer:
    """The local executor: one arbiter server in this event loop, and (``restart``) a bot pool
    on it holding every startable local bot of ``bots``, so their processes stay up across the
    matches played here (``"session"``), or are fresh for every match (``"per-match"``).
    Remote bots and bots that cannot start stay outside the pool (see :func:`seat_entry`).
    Every bot it launches runs in ``sandbox``; it refuses (:class:`ConfigError`, at the first
    match) to launch any without a sandbox unless the mode is ``none``.

    A seating of a duplicate set is played in **lanes**: the seats of seating ``k`` of every
    set go to the bot's processes of lane ``k`` (:meth:`BotPool.assigner`), so no process holds
    two seatings of one set, or plays a second seating of a set it has played. A remote bot
    cannot be split into lanes: the seatings of one set that share a remote bot are played one
    after another, never at once (what it remembers of one when it plays the next is the
    caveat of ``format.allow_remote_duplicate``). ``lanes=False`` plays every seating in the
    same processes, as before lanes (it leaks a set's deals: for measuring what lanes cost).

    The control variates of its matches are computed in a helper process after the first few
    (:class:`~croupier.ladder._offload.ControlVariates`).

    Use as ``async with LocalPlayer(...) as player: await player.play(...)``; leaving it (also
    on cancellation or an error) ends every bot process it started and the helper, then the
    server.
    """

    def __init__(
        self,
        bots: Iterable[ResolvedBot],
        log_dir: Path,
        *,
        concurrency: int,
        listen: str = "127.0.0.1:0",
        restart: Restart = "session",
        tls: TlsConfig | None = None,
        sandbox: SandboxOptions | None = None,
        lanes: bool = True,
    ) -> None:
        self._bots = {b.name: b for b in bots}
        self._sandbox = sandbox or SandboxOptions()
        self._tls = tls
        self._lanes = lanes
        self._lane_assigners: dict[tuple[str, int], SeatAssigner] = {}
        self._log_dir = log_dir
        self._concurrency = max(1, concurrency)
        self._listen = listen
        self._restart: Restart = restart
        self._keys: dict[str, str] = {}  # display name -> name in the pool
        self._assigners: dict[str, SeatAssigner] = {}
        self._server: ArbiterServer | None = None
        self._pool: BotPool | None = None
        self._opening = asyncio.Lock()
        self._control = ControlVariates()
        self._told: dict[str, tuple[int, int]] = {}  # (processes, crashes) by stats_since

    async def __aenter__(self) -> LocalPlayer:
        return self

    async def _open(self, session_timeout_s: float) -> ArbiterServer:
        """Start the server and the pool at the first match (a resumed tournament with nothing
        left to play starts neither), once: plays that start together (a worker's matches)
        share them. A launched bot has ``session_timeout_s`` to open its session."""
        async with self._opening:
            if self._server is None:
                await self._start(session_timeout_s)
        assert self._server is not None
        return self._server

    async def _start(self, session_timeout_s: float) -> None:
        launched = any(b.argv and not b.error for b in self._bots.values())
        if launched and (problem := sandbox_refusal(self._sandbox, "a tournament")):
            raise ConfigError(problem)  # (a Ray worker on a machine unlike the driver's)
        server = ArbiterServer(self._listen, tls=self._tls)
        await server.start()
        self._server = server
        try:
            for folder in (self._log_dir.parent, self._log_dir):  # (logs/run-...: both private)
                folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        except OSError as exc:
            self._server = None
            await server.stop()
            raise ConfigError(f"cannot create {self._log_dir}: {exc.strerror or exc}") from exc
        pool = BotPool(
            server,
            self._log_dir,
            restart=self._restart,
            capacity=self._concurrency,
            sandbox=self._sandbox,
            session_timeout_s=session_timeout_s,
        )
        self._pool = pool
        for index, bot in enumerate(self._bots.values()):
            if bot.error or bot.argv is None:
                continue
            key = _pool_key(index, bot.name)
            pool.add(key, list(bot.argv))
            self._keys[bot.name] = key
            self._assigners[bot.name] = pool.assigner(key)

    async def __aexit__(self, *exc: object) -> None:
        try:
            if self._pool is not None:
                await self._pool.close()
        finally:
            try:
                await self._control.close()
            finally:
                if self._server is not None:
                    await self._server.stop()

    def _pooled(self, slot: Slot) -> Mapping[str, SeatAssigner]:
        """The pool's assigners for the seats of ``slot``: in the lane of its seating when it
        belongs to a duplicate set."""
        if not (slot.deal_set and self._lanes) or self._pool is None:
            return self._assigners
        out: dict[str, SeatAssigner] = {}
        for name in self._assigners:
            key = (name, slot.seating)
            if key not in self._lane_assigners:
                self._lane_assigners[key] = self._pool.assigner(self._keys[name], lane=slot.seating)
            out[name] = self._lane_assigners[key]
        return out

    def stats(self) -> dict[str, BotStats]:
        """What the pool did with each pooled bot so far, by display name."""
        if self._pool is None:
            return {}
        return {name: self._pool.stats(key) for name, key in self._keys.items()}

    def stats_since(self) -> dict[str, BotStats]:
        """The processes started and the crashes of each pooled bot since the last call (counts
        to add to what its store or driver holds), of the bots whose counts changed."""
        changed = {}
        for name, s in self.stats().items():
            processes, crashes = self._told.get(name, (0, 0))
            if (s.processes, s.crashes) != (processes, crashes):
                changed[name] = BotStats(
                    s.mode, s.processes - processes, crashes=s.crashes - crashes
                )
                self._told[name] = (s.processes, s.crashes)
        return changed

    async def play(
        self,
        jobs: Sequence[MatchJob],
        out_dir: Path,
        on_done: Callable[[Played], Awaitable[None] | None],
        *,
        concurrency: int | None = None,
        stop: Callable[[], bool] = lambda: False,
        cancel: asyncio.Event | None = None,
        announce: RemoteAnnounce | None = None,
        worker: str = "",
        watch: MatchWatch | None = None,
    ) -> None:
        """Play ``jobs`` in order, ``concurrency`` at a time (default: the player's);
        ``on_done`` gets each finished match as it ends. No new match starts once ``stop()``
        is true or ``cancel`` is set (a set ``cancel`` also ends the running ones,
        unrecorded). ``watch`` is told of each match (see :class:`MatchWatch`)."""
        # a launched bot has the pool's 10 s to open its session, or the longer time the
        # matches give their bots to dial in (a bot slow to start then keeps its session); not
        # less: a match's own wait starts once its seats are handed out
        dial_s = max((job.config.connect_timeout_s for job in jobs), default=0.0)
        server = await self._open(max(SESSION_TIMEOUT_S, dial_s))
        worker = worker or socket.gethostname()
        pending = list(jobs)
        # duplicate set -> the remote bots of its seatings being played (each such seating
        # waits until its remote bots play no other seating of its set)
        playing: dict[str, Counter[str]] = {}
        changed = asyncio.Condition()
        log = structlog.get_logger("croupier.ladder")

        def remote(job: MatchJob) -> set[str]:
            if not job.slot.deal_set:
                return set()
            return {b.name for b in job.bots if b.argv is None and not b.error}

        def take() -> MatchJob | None:
            """The first pending job that may start now (see ``playing``)."""
            for i, job in enumerate(pending):
                held = playing.get(job.slot.deal_set)
                if not held or not remote(job) & held.keys():
                    return pending.pop(i)
            return None

        async def next_job() -> MatchJob | None:
            async with changed:
                while pending and not (stop() or (cancel is not None and cancel.is_set())):
                    job = take()
                    if job is not None:
                        if names := remote(job):
                            playing.setdefault(job.slot.deal_set, Counter()).update(names)
                        return job
                    await changed.wait()  # a seating sharing its remote bots ends
                return None

        async def done_with(job: MatchJob) -> None:
            if not (names := remote(job)):
                return
            async with changed:
                held = playing[job.slot.deal_set]
                held.subtract(names)
                if not +held:
                    del playing[job.slot.deal_set]
                changed.notify_all()

        async def lane() -> None:
            while (job := await next_job()) is not None:  # each lane takes the next job
                played: Played | None = None
                try:
                    played = await play_job(
                        job,
                        server,
                        out_dir,
                        cancel=cancel,
                        announce=announce,
                        worker=worker,
                        pooled=self._pooled(job.slot),
                        watch=watch,
                        sandbox=self._sandbox,
                        control=self._control,
                    )
                finally:
                    if watch is not None:
                        watch.ended(job.slot, played)
                    await done_with(job)  # (after: a sibling it held back starts only now)
                if played.cancelled:
                    log.info("match_cancelled", match_id=job.slot.match_id)
                    continue
                outcome = on_done(played)
                if outcome is not None:
                    await outcome

        await asyncio.gather(*(lane() for _ in range(concurrency or self._concurrency)))


def bot_log_dir(out_dir: Path) -> Path:
    """Where one run of a tournament puts its bots' logs: ``logs/run-<UTC time>-<pid>`` in the
    replay folder (a resumed run keeps the logs of the runs before)."""
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
    return out_dir / "logs" / f"run-{stamp}-{os.getpid()}"


async def play_local(
    jobs: Sequence[MatchJob],
    out_dir: Path,
    on_done: Callable[[Played], Awaitable[None] | None],
    *,
    concurrency: int,
    listen: str = "127.0.0.1:0",
    stop: Callable[[], bool] = lambda: False,
    cancel: asyncio.Event | None = None,
    announce: RemoteAnnounce | None = None,
    worker: str = "",
    restart: Restart = "session",
    log_dir: Path | None = None,
    sandbox: SandboxOptions | None = None,
    lanes: bool = True,
) -> dict[str, BotStats]:
    """Play ``jobs`` with a :class:`LocalPlayer` of their bots (see :meth:`LocalPlayer.play`),
    launched in ``sandbox``; return what its pool did with each bot."""
    bots = {b.name: b for job in jobs for b in job.bots}
    player = LocalPlayer(
        bots.values(),
        log_dir or bot_log_dir(out_dir),
        concurrency=concurrency,
        listen=listen,
        restart=restart,
        sandbox=sandbox,
        lanes=lanes,
    )
    async with player:
        await player.play(
            jobs,
            out_dir,
            on_done,
            stop=stop,
            cancel=cancel,
            announce=announce,
            worker=worker,
        )
        return player.stats()
