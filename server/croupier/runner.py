"""Run one match on this machine: start (or reuse) an arbiter server, launch the bot processes,
play, write the replay and the bots' logs, stop the bots."""

from __future__ import annotations

import asyncio
import dataclasses
import datetime as dt
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import structlog

from croupier.arbiter import Match, MatchConfig, MatchResult, SeatLink
from croupier.errors import ConfigError
from croupier.replay import RecordListener, ReplayWriter
from croupier.transport import (
    ArbiterServer,
    BotExit,
    BotProcess,
    Isolation,
    SandboxOptions,
    SeatAssigner,
    TlsConfig,
    launch_bot,
)


def new_match_id(game: str) -> str:
    """``as-nas-20261130T101500-3fa2c1``: sortable by time, unique by the random suffix."""
    stamp = dt.datetime.now(dt.UTC).strftime("%Y%m%dT%H%M%S")
    return f"{game}-{stamp}-{secrets.token_hex(3)}"


@dataclass(frozen=True, slots=True)
class MatchRun:
    """What a finished run produced."""

    result: MatchResult
    replay: Path
    logs: dict[int, Path]  # by seat, for launched bots
    exits: tuple[BotExit, ...]
    isolation: dict[int, Isolation]  # by seat, for launched bots: what each ran in


async def run_match(
    config: MatchConfig,
    bots: Sequence[list[str] | SeatAssigner | None],
    out_dir: Path,
    *,
    server: ArbiterServer | None = None,
    listen: str = "127.0.0.1:0",
    match_id: str | None = None,
    cancel: asyncio.Event | None = None,
    progress: Callable[[int], None] | None = None,
    on_ready: Callable[[str, Match], None] | None = None,
    sandbox: SandboxOptions | None = None,
    tls: TlsConfig | None = None,
    listener: RecordListener | None = None,
) -> MatchRun:
    """Play one match between ``bots`` and return its result and files.

    ``bots`` has one entry per seat: an argv to launch, ``None`` for a remote bot that dials
    in by itself with the seat's token (``on_ready(address, match)`` is called once the server
    listens and the local bots are launched: the place to hand out ``match.tokens``), or a
    :class:`SeatAssigner` (a :class:`~croupier.transport.BotPool`'s bot that stays up across
    matches; its process and log are the pool's, not in the returned run).
    With ``server`` the match is hosted on that running server (many matches can share one);
    otherwise a server is started on ``listen`` (speaking TLS with ``tls``) and stopped
    afterwards. Setting ``cancel`` ends
    the match at once (a pending decision is abandoned) with a result marked cancelled;
    ``progress`` is called with the number of deals finished. ``sandbox`` says how launched
    bots are isolated (default: bubblewrap where it can run); they never see ``out_dir``, which
    is created mode 0700 (the replay and the logs are 0600 in any case). ``listener`` is
    handed every replay record once written (a live spectator feed, ``croupier.serve``).
    """
    match_id = match_id or new_match_id(config.game)
    try:
        out_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError as exc:
        raise ConfigError(f"cannot create {out_dir}: {exc.strerror or exc}") from exc
    writer = ReplayWriter(out_dir / f"{match_id}.jsonl", listener, close_at_result=False)
    try:
        match = Match(config, match_id, writer, progress)
        if len(bots) != match.num_seats:
            raise ValueError(f"{len(bots)} bots for {match.num_seats} seats")
    except BaseException:
        writer.close()
        raise
    own_server = server is None
    log = structlog.get_logger("croupier.runner").bind(match_id=match_id)
    processes: list[BotProcess] = []
    started = False
    try:
        if server is None:
            server = ArbiterServer(listen, tls=tls)
            await server.start()
        started = True
        server.bots.add_match(match)
        isolation = dataclasses.replace(
            sandbox or SandboxOptions(), socket=server.unix_socket, hidden=(out_dir,)
        )
        pooled: list[tuple[SeatLink, SeatAssigner]] = []
        for link, argv in zip(match.seats, bots, strict=True):
            if argv is None:
                continue
            if not isinstance(argv, list):
                pooled.append((link, argv))
                continue
            processes.append(
                await launch_bot(
                    argv,
                    link=link,
                    address=server.address,
                    seed=link.bot_seed,
                    match_id=match_id,
                    log_path=out_dir / f"{match_id}.seat{link.seat}.log",
                    sandbox=isolation,
                )
            )
        if pooled:
            await _seat_pooled(pooled, match_id, server.address, cancel)
        if on_ready is not None:
            on_ready(server.address, match)
        watcher = asyncio.create_task(_cancel_on(cancel, match)) if cancel else None
        try:
            result = await match.run()
        finally:
            if watcher:
                watcher.cancel()
        # on disk (fsync) in a thread: the other matches of the loop go on meanwhile
        await asyncio.to_thread(writer.close)
    finally:
        # every path out (a bot that cannot start, a failing on_ready, Ctrl-C, a full disk)
        # closes the replay as far as it got, stops the bots and the server it started
        try:
            writer.close()  # on disk before waiting for the bots
        finally:  # even when the disk is full, no bot outlives its match
            for link in match.seats:
                link.over = True  # the bots' exits are the match's end, not early departures
                link.done.set()  # a pooled bot's seat is free again, however the match ended
            # (gather, not a TaskGroup: every bot is stopped, whichever stop fails)
            stopped = await asyncio.gather(*(p.stop() for p in processes), return_exceptions=True)
            exits = tuple(e for e in stopped if isinstance(e, BotExit))
            if server is not None and started:
                server.bots.remove_match(match)
                if own_server:
                    await server.stop()
    log.info("match_written", replay=str(writer.path))
    return MatchRun(
        result,
        writer.path,
        {p.seat: p.log_path for p in processes},
        exits,
        {p.seat: p.isolation for p in processes},
    )


async def _seat_pooled(
    seats: list[tuple[SeatLink, SeatAssigner]],
    match_id: str,
    address: str,
    cancel: asyncio.Event | None,
) -> None:
    """Hand each pooled seat to its bot, all at once: a bot slow to start, or a remote bot
    not connected, delays the match by its own wait (at most the pool's session timeout), not
    by the sum of every seat's. ``cancel`` set meanwhile stops the waits (the match then ends
    cancelled at once, its seats empty), so a stopping server does not wait out the timeouts.
    Gathered, not a TaskGroup: one assignment's failure does not cut the others' short."""
    seating = asyncio.gather(*(bot.assign(link, match_id, address) for link, bot in seats))
    if cancel is None:
        await seating
        return
    stopped = asyncio.ensure_future(cancel.wait())
    either: set[asyncio.Future[Any]] = {seating, stopped}
    try:
        await asyncio.wait(either, return_when=asyncio.FIRST_COMPLETED)
    finally:
        stopped.cancel()
        if not seating.done():
            seating.cancel()
        try:
            await seating
        except asyncio.CancelledError:
            if not cancel.is_set():
                raise  # (this task was cancelled, not the match)


async def _cancel_on(event: asyncio.Event, match: Match) -> None:
    await event.wait()
    match.cancel()
