"""Running a tournament: check the store against the config, skip what is finished, play the
rest with an executor, commit each finished match, report progress."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import structlog

from croupier.arbiter import new_secret
from croupier.errors import BotLaunchError, ConfigError
from croupier.ladder._config import TournamentConfig, first_difference
from croupier.ladder._play import (
    LocalPlayer,
    MatchJob,
    MatchWatch,
    Played,
    RemoteAnnounce,
    ResolvedBot,
    bot_log_dir,
    default_concurrency,
    legacy_executable_hash,
    make_jobs,
    resolve_bot,
)
from croupier.ladder._schedule import Results, Schedule, Seeder, Slot
from croupier.ladder._stats import (
    Standings,
    lead_samples,
    openskill_ratings,
    sprt,
    standings,
)
from croupier.ladder._store import MatchRecord, Store, open_store, read_store
from croupier.transport import (
    BotStats,
    Isolation,
    Restart,
    SandboxMode,
    SandboxOptions,
    check_bot_dirs,
    check_shown_dirs,
    sandbox_isolation,
    sandbox_private_refusal,
    sandbox_refusal,
)


@dataclass(frozen=True, slots=True)
class Progress:
    """Reported after each committed match (and once at the start, with ``record=None``)."""

    done: int
    total: int
    skipped: int  # finished in an earlier run
    record: MatchRecord | None


@dataclass(frozen=True, slots=True)
class Summary:
    done: int
    total: int
    played: int  # by this run
    stopped_early: bool  # the SPRT decided
    cancelled: bool


def _check_store(
    store: Store, config: TournamentConfig, bots: dict[str, ResolvedBot], total: int
) -> Seeder:
    """Refuse a store made by a different tournament, naming the first difference; return
    where the tournament's seeds come from (a new store without an explicit seed draws its
    secret key here)."""
    held = store.tournament()
    if held is not None and held["schema_version"] < 2 and config.seed is None:
        # begun before secret keys, when an absent seed meant 0: it resumes as it began
        config = replace(config, seed=held["config"].get("seed", 0))
    defining = config.defining()
    if held is None:
        secret = new_secret() if config.seed is None else b""
        store.init_tournament(
            config.name, config.game, config.config_hash(), defining, total, secret
        )
    elif held["hash"] != config.config_hash():
        old_rounds = int(held["config"].get("rounds", 0))
        if {**held["config"], "rounds": config.rounds} == defining:
            if config.rounds < old_rounds:
                raise ConfigError(
                    f"{store.path} holds {old_rounds} rounds: a tournament can be given more "
                    f"rounds, not fewer (got rounds = {config.rounds})"
                )
            # more rounds: the played ones keep their slots, seeds and deals; the new ones
            # draw theirs from the same key (the slot's round is new)
            store.extend_tournament(config.config_hash(), defining, total)
        else:
            change = first_difference(held["config"], defining) or "the config hash differs"
            raise ConfigError(
                f"{store.path} holds a different tournament: {change} (use another store, "
                f"or the config it was made with)"
            )
    stored = store.bots()
    for name, bot in bots.items():
        old = stored.get(name)
        if (
            old is not None
            and old.exe_sha256
            and bot.exe_sha256 != old.exe_sha256
            and (bot.argv is None or legacy_executable_hash(bot.argv) != old.exe_sha256)
        ):
            raise ConfigError(
                f"{store.path}: bot {name!r} is not the program the tournament began with "
                f"(its files' SHA-256 changed from {old.exe_sha256[:12]} to "
                f"{bot.exe_sha256[:12] or 'nothing'})"
            )
        store.put_bot(name, bot.command, bot.exe_sha256 or (old.exe_sha256 if old else ""))
        if bot.error:
            store.bot_error(name, bot.error)
    if store.legacy_seeds:
        return Seeder(None, legacy=config.seed or 0)
    if config.seed is not None:
        return Seeder.explicit(config.seed)
    secret = store.secret()
    if not secret:
        raise ConfigError(f"{store.path}: the store has lost its secret key (seed)")
    return Seeder(secret)


def private_paths(config: TournamentConfig) -> tuple[Path, ...]:
    """What no bot of the tournament may see: its store, its config file, its replay folder,
    its listener's TLS key."""
    paths = [config.store, config.out]
    if Path(config.source).is_file():
        paths.append(Path(config.source))
    if config.tls is not None:
        paths.append(config.tls.key)
    return tuple(paths)


def launch_options(config: TournamentConfig, extra: tuple[Path, ...] = ()) -> SandboxOptions:
    """How the tournament launches its bots: its sandbox options, with :func:`private_paths`
    (and ``extra``: a server's state folder and config) forbidden to every bot's directory."""
    sandbox = config.sandbox
    return replace(sandbox, forbidden=(*sandbox.forbidden, *private_paths(config), *extra))


def check_launch(
    config: TournamentConfig, bots: dict[str, ResolvedBot], who: str = "croupier tournament"
) -> Isolation | None:
    """:class:`ConfigError` (one line) if a bot's command cannot run (a misspelt bundled bot,
    a program that is not there), if the tournament would launch bots without a sandbox
    (``sandbox`` is not ``none``), or launch one whose directory holds what no bot may see
    (:func:`launch_options`); else what its bots run in (``None``: it launches none)."""
    for bot in bots.values():
        if bot.error:
            raise ConfigError(f"{config.source}: bots.{bot.name}: {bot.error}")
    local = [b for b in bots.values() if b.argv and not b.error]
    if not local:
        return None
    options = launch_options(config)
    if problem := sandbox_refusal(options, who):
        raise ConfigError(problem)
    if problem := sandbox_private_refusal(options, folders=(config.out,)):
        raise ConfigError(f"{config.source}: {problem}")
    if options.mode is not SandboxMode.NONE:
        for bot in local:
            assert bot.argv is not None
            try:
                check_bot_dirs(list(bot.argv), options.forbidden, f"bots.{bot.name}")
                check_shown_dirs(list(bot.argv), f"bots.{bot.name}")
            except BotLaunchError as exc:
                raise ConfigError(f"{config.source}: {exc}") from None
    return sandbox_isolation(options.mode)


def results_path(config: TournamentConfig) -> Path:
    """The tournament's results file: one JSON line per stored match (``docs/ladder.md``),
    beside the store (not among the replays, which tools read as ``OUT/*.jsonl``)."""
    return config.store.with_name(f"{config.store.stem}-results.jsonl")


def result_line(record: MatchRecord, bots: tuple[str, ...]) -> str:
    """One match of the results file (no seed: the deals stay secret until published)."""
    return json.dumps(
        {
            "match_id": record.match_id,
            "slot": record.slot,
            "round": record.round + 1,
            "table": record.table + 1,
            "seating": record.seating + 1,
            "deal_set": record.deal_set,
            "rounds_played": record.rounds_played,
            "bots": list(bots),
            "seats": [
                {
                    "seat": s.seat,
                    "bot": s.bot,
                    "score": str(s.score),
                    "place": s.place,
                    "outcome": s.outcome,
                    "timeouts": s.timeouts,
                    "rejected": s.rejected,
                    "cv": s.cv,
                    "cv_action": s.cv_action,
                }
                for s in record.seats
            ],
            "replay": record.replay_path,
            "replay_sha256": record.replay_sha256,
            "worker": record.worker,
        },
        separators=(",", ":"),
    )


def _write_results(path: Path, matches: list[MatchRecord]) -> None:
    """Write the results file anew from the store (so it holds each stored match once, also
    after a kill between a commit and its line), private like the replays."""
    tmp = path.with_suffix(".jsonl.part")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        for m in matches:
            f.write(result_line(m, tuple(s.bot for s in m.seats)) + "\n")
    os.replace(tmp, path)


def relative_path(path: Path, base: Path) -> str:
    """``path`` as the store keeps it: relative to ``base`` (the store's folder), or absolute
    where it cannot be (another drive)."""
    try:
        return os.path.relpath(path.resolve(), base.resolve())
    except ValueError:
        return str(path.resolve())


def write_replay(path: Path, data: bytes) -> None:
    """Put replay bytes that came back from a worker on disk for good: write a temporary file,
    fsync it, rename it into place, fsync the folder."""
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    tmp = path.with_suffix(".jsonl.part")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, 0o600)
    os.fchmod(fd, 0o600)  # (a stale part file of another mode)
    with os.fdopen(fd, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)
    fd = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


async def run_tournament(
    config: TournamentConfig,
    *,
    on_progress: Callable[[Progress], None] | None = None,
    cancel: asyncio.Event | None = None,
    announce: RemoteAnnounce | None = None,
    watch: MatchWatch | None = None,
    lanes: bool = True,
) -> Summary:
    """Run (or resume) ``config``'s tournament to its end, the SPRT's decision, or ``cancel``.
    ``watch`` is told of each match as it is played (the local executor only: see
    :class:`~croupier.ladder._play.MatchWatch`). ``lanes=False`` lets one process of a bot play
    every seating of a duplicate set (see :class:`~croupier.ladder.LocalPlayer`): for
    ``bench/ladder.py`` only, which measures what lanes cost."""
    log = structlog.get_logger("croupier.ladder").bind(tournament=config.name)
    if config.executor == "ray":
        for b in config.bots:
            if b.remote:
                raise ConfigError(
                    f"{config.source}: bots.{b.name}: a remote bot needs the local executor "
                    "(its seat token is handed out by this machine's arbiter)"
                )
        if config.tls is not None:
            raise ConfigError(
                f"{config.source}: tls: TLS serves remote bots, which the local executor hosts"
            )
        if config.address:  # before anything is stored or said: one line, in seconds
            from croupier.ladder._ray import check_reachable

            await asyncio.to_thread(check_reachable, config.address)
    remote = [b.name for b in config.bots if b.remote]
    if config.workers > 1 and config.executor == "local":
        if remote:
            raise ConfigError(
                f"{config.source}: workers = {config.workers}: remote bots ({', '.join(remote)}) "
                "need one arbiter (their seat tokens come from its listener): workers = 1"
            )
        if watch is not None:
            raise ConfigError(
                f"{config.source}: workers = {config.workers}: the server's live view needs "
                "one arbiter: workers = 1"
            )
    if remote and config.fmt.duplicate and not config.fmt.allow_remote_duplicate:
        raise ConfigError(
            f"{config.source}: format.duplicate: remote bots ({', '.join(remote)}) can remember "
            "one seating of a duplicate set when they play the next; set "
            "format.allow_remote_duplicate = true to play duplicate sets with them anyway, or "
            "format.duplicate = false"
        )
    bots = {b.name: resolve_bot(b) for b in config.bots}
    isolation = check_launch(config, bots)
    config = replace(config, sandbox=launch_options(config))
    store = open_store(config.store)
    try:
        held = store.tournament()
        if held is not None and not config.fmt.seatings_given:
            # the default seatings changed (3 seats: permutations); a store begun with the
            # old default goes on with it
            kept = held["config"].get("format", {}).get("seatings", config.fmt.seatings)
            config = replace(config, fmt=replace(config.fmt, seatings=kept))
        try:  # replays, logs: the bots' hands and the seeds, private (0700 when made here)
            config.out.mkdir(mode=0o700, parents=True, exist_ok=True)
        except OSError as exc:
            raise ConfigError(f"cannot create {config.out}: {exc.strerror or exc}") from None
        total = Schedule(config).total()
        seeds = _check_store(store, config, bots, total)
        if seeds.key is None:
            log.warning("legacy_seeds", store=str(config.store))
        schedule = Schedule(config, seeds)
        if isolation is not None:
            weaker = [i.value for i in Isolation if i.rank < isolation.rank]
            for bot in bots.values():
                if bot.argv and not bot.error:
                    store.note_isolation(bot.name, isolation.value, weaker)
        finished = store.finished_ids()
        results = results_path(config)
        try:
            _write_results(results, store.matches())
        except OSError as exc:
            raise ConfigError(f"cannot write {results}: {exc.strerror or exc}") from None
        skipped = len(finished)
        done = skipped
        played = 0
        decided = False
        names = [b.name for b in config.bots]
        sprt_spec = config.defining().get("sprt")

        def sprt_decided() -> bool:
            if not sprt_spec or not sprt_spec["stop"]:
                return False
            xs = lead_samples(
                store.matches(),
                sprt_spec["candidate"],
                sprt_spec["baseline"],
                config.game,
                config.params,
            )
            result = sprt(
                xs, sprt_spec["d0"], sprt_spec["d1"], sprt_spec["alpha"], sprt_spec["beta"]
            )
            return result.decision is not None

        decided = sprt_decided()
        if on_progress:
            on_progress(Progress(done, total, skipped, None))
        log.info("tournament_started", total=total, finished=done, executor=config.executor)

        def commit(result: Played) -> None:
            nonlocal done, played, decided
            target = config.out / f"{result.slot.match_id}.jsonl"
            if result.replay_bytes is not None:
                write_replay(target, result.replay_bytes)
            slot = result.slot
            record = MatchRecord(
                slot.match_id,
                slot.index,
                slot.round,
                slot.table,
                slot.seating,
                slot.deal_set,
                slot.seed,
                result.rounds,
                relative_path(target, config.store.parent),
                result.sha256,
                result.worker,
                result.seats,
            )
            if not store.commit_match(record, result.hello):
                log.warning("match_already_stored", match_id=slot.match_id)
                return
            try:  # (a line lost here is written at the next start, from the store)
                with results.open("a", encoding="utf-8") as f:
                    f.write(result_line(record, slot.bots) + "\n")
            except OSError as exc:
                log.warning("results_line_lost", match_id=slot.match_id, error=str(exc))
            done += 1
            played += 1
            log.info(
                "match_committed",
                match_id=slot.match_id,
                bots=list(slot.bots),
                scores=[str(s.score) for s in result.seats],
                outcomes=[s.outcome for s in result.seats],
                worker=result.worker,
            )
            if sprt_spec and sprt_spec["stop"] and not decided:
                decided = sprt_decided()
            if on_progress:
                on_progress(Progress(done, total, skipped, record))

        def stop() -> bool:
            return decided

        def record_stats(stats: dict[str, BotStats]) -> None:
            for name, s in stats.items():
                store.add_bot_stats(name, s.mode, s.processes, s.crashes)

        async with _executor(config, bots, record_stats, watch, lanes) as execute:

            async def play(slots: list[Slot]) -> None:
                pending = [s for s in slots if s.match_id not in finished]
                if not pending or stop():
                    return
                jobs = make_jobs(config, pending, bots)
                await execute(jobs, commit, stop, cancel, announce)

            if schedule.dynamic:
                for r in range(config.rounds):
                    if stop() or (cancel is not None and cancel.is_set()):
                        break
                    so_far = [m for m in store.matches() if m.round < r]
                    ratings = openskill_ratings(so_far, names)
                    mu = {n: x.mu for n, x in ratings.items()}
                    await play(schedule.round_slots(r, Results.of(so_far, names, mu)))
            else:
                await play(schedule.static_slots())
        cancelled = cancel is not None and cancel.is_set()
        log.info("tournament_finished", done=done, total=total, played=played)
        return Summary(done, total, played, decided and done < total, cancelled)
    finally:
        store.close()


Execute = Callable[
    [
        list[MatchJob],
        Callable[[Played], None],
        Callable[[], bool],
        asyncio.Event | None,
        RemoteAnnounce | None,
    ],
    Any,
]


@contextlib.asynccontextmanager
async def _executor(
    config: TournamentConfig,
    bots: dict[str, ResolvedBot],
    record_stats: Callable[[dict[str, BotStats]], None],
    watch: MatchWatch | None = None,
    lanes: bool = True,
) -> AsyncIterator[Execute]:
    """The executor the config asks for, open for the whole tournament (every round of a
    Swiss one): locally one server and one bot pool, so the bots' processes stay up from the
    first match to the last; on Ray, each node has its own for the run (see ``_ray.py``). What the
    pools did with the bots goes to ``record_stats`` as counts to add (locally after each stored
    match that changed them and when the executor closes, also after a cancel or an error; on
    Ray as each batch comes back)."""
    concurrency = config.concurrency or default_concurrency()
    restart: Restart = "per-match" if config.restart == "per-match" else "session"
    if config.executor == "ray":
        from croupier.ladder._ray import play_ray

        async def on_ray(
            jobs: list[MatchJob],
            commit: Callable[[Played], None],
            stop: Callable[[], bool],
            cancel: asyncio.Event | None,
            announce: RemoteAnnounce | None,
        ) -> None:
            await play_ray(
                jobs,
                config,
                commit,
                concurrency=concurrency,
                stop=stop,
                cancel=cancel,
                restart=restart,
                on_stats=record_stats,
            )

        yield on_ray
        return
    if config.workers > 1:
        from croupier.ladder._workers import play_workers

        async def on_workers(
            jobs: list[MatchJob],
            commit: Callable[[Played], None],
            stop: Callable[[], bool],
            cancel: asyncio.Event | None,
            announce: RemoteAnnounce | None,
        ) -> None:
            await play_workers(
                jobs,
                commit,
                workers=config.workers,
                concurrency=concurrency,
                out_dir=config.out,
                log_dir=log_dir,
                restart=restart,
                sandbox=config.sandbox,
                stop=stop,
                cancel=cancel,
                on_stats=record_stats,
                lanes=lanes,
            )

        log_dir = bot_log_dir(config.out)
        yield on_workers
        return
    player = LocalPlayer(
        bots.values(),
        bot_log_dir(config.out),
        concurrency=concurrency,
        listen=config.listen,
        restart=restart,
        tls=config.tls,
        sandbox=config.sandbox,
        lanes=lanes,
    )

    def flush() -> None:
        """Store what the pool did since the last call (a SIGKILLed run keeps its counts up
        to its last stored match); nothing is written while nothing changed."""
        if changed := player.stats_since():
            record_stats(changed)

    try:
        async with player:

            async def local(
                jobs: list[MatchJob],
                commit: Callable[[Played], None],
                stop: Callable[[], bool],
                cancel: asyncio.Event | None,
                announce: RemoteAnnounce | None,
            ) -> None:
                def done(played: Played) -> None:
                    commit(played)
                    flush()

                await player.play(
                    jobs, config.out, done, stop=stop, cancel=cancel, announce=announce, watch=watch
                )

            yield local
    finally:
        flush()


def store_standings(path: Path) -> tuple[dict[str, Any], Standings]:
    """The tournament held in the store at ``path`` and its standings now (the store may be
    being written by a running tournament)."""
    store = read_store(path)
    try:
        held = store.tournament()
        if held is None:
            raise ConfigError(f"{path}: the store holds no tournament yet")
        config = held["config"]
        matches = store.matches()
        names = list(config["bots"])
        seats = int(config["params"]["players"])
        result = standings(
            matches,
            names,
            seats,
            config.get("sprt"),
            game=held["game"],
            params=config["params"],
        )
        info: dict[str, Any] = {
            "tournament": held["name"],
            "game": held["game"],
            "finished": len(matches),
            "total": held["total"],
            "bots": store.bots(),
        }
        return info, result
    finally:
        store.close()
