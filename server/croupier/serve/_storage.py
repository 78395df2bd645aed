"""The server's store as the server uses it: three connections to one SQLite file
(``serve/_store.py``), the writer thread every write runs in (``serve/_writer.py``), a reader
thread, and what the store is made to hold at start, before anything is served.

The store is used off the event loop: every write in one thread, in order, those queued together
committed together (one fsync); reads in another thread, on their own connection (WAL: readers
never wait on writers); and a third connection for the few reads made on the event loop's
thread (the ladder's, :attr:`Storage.loop`).

At start (:meth:`Storage.open`), first the tournament matches the server's store holds as open
that their tournament's store has committed are finished (the server was killed between the two
commits: :func:`mirror_committed`), then whatever a stopped or killed server left pending or
running is recorded as aborted (:func:`abort_unfinished`), each in one transaction.
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import os
import sqlite3
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

from croupier.errors import ConfigError, CroupierError, StoreError
from croupier.ladder import MatchRecord, read_store
from croupier.replay import read_replay
from croupier.serve._store import ABORTED, ServerMatch, ServerStore, now_ms, open_server_store
from croupier.serve._writer import StoreWriter

T = TypeVar("T")


class Storage:
    """The store's connections and threads (see the module docstring)."""

    def __init__(self, writes: ServerStore, reads: ServerStore, loop: ServerStore) -> None:
        #: The writer thread's connection: what :meth:`write` runs a write on.
        self.writes = writes
        self._reads = reads
        #: A connection for reads on the event loop's thread.
        self.loop = loop
        self._writer = StoreWriter(writes)
        self._reader = ThreadPoolExecutor(1, thread_name_prefix="croupier-store-read")
        #: Whether :meth:`close` has run (nothing more may be written).
        self.closed = False

    @classmethod
    def open(
        cls, path: Path, state_dir: Path, replay_dir: Path
    ) -> tuple[Storage, list[str], list[str]]:
        """Open the store at ``path`` and make it whole (see the module docstring); the store,
        the ids of the matches mirrored and of those aborted. :class:`StoreError` (one line)
        if it cannot be written (a full disk)."""
        writes = open_server_store(path)
        try:  # a tournament's match its store committed is finished here, not aborted
            mirrored = mirror_committed(writes, state_dir)
            aborted = abort_unfinished(writes, state_dir, replay_dir)
        except (sqlite3.Error, StoreError) as exc:  # (a full disk: one line, not a traceback)
            writes.close()
            message = str(exc) if isinstance(exc, StoreError) else f"{path}: {exc}"
            raise StoreError(message) from None
        return cls(writes, open_server_store(path), open_server_store(path)), mirrored, aborted

    async def write(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Run ``fn`` (a write of the store) in the writer thread, after the writes before it;
        its result once committed (``serve/_writer.py``)."""
        return await self._writer.write(functools.partial(fn, *args, **kwargs))

    async def read(self, fn: Callable[..., T], *args: Any) -> T:
        """Run ``fn(reads, *args)`` in the reader thread on the reading connection."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._reader, functools.partial(fn, self._reads, *args))

    def close(self) -> None:
        """Stop both threads (the writer after the writes queued) and close the connections."""
        self.closed = True
        try:
            self._writer.close()
            self._reader.shutdown(wait=True)
        finally:
            for store in (self.writes, self._reads, self.loop):
                store.close()


def replay_written(match: ServerMatch, state_dir: Path, replay_dir: Path) -> Path:
    """Where a match's replay is written while it plays (before the store records its path):
    its tournament's ``replays/`` folder, else the server's replay folder."""
    if match.tournament:
        return state_dir / "tournaments" / match.tournament / "replays" / f"{match.match_id}.jsonl"
    return replay_dir / f"{match.match_id}.jsonl"


def digest(path: Path, played: int | None = None) -> tuple[str, int]:
    """A replay's SHA-256 and its announced decisions ("", 0 when there is no file):
    ``played`` when known already (the match's live feed counted them), else read from the
    file (:func:`decisions`)."""
    if not path.is_file():
        return "", 0
    return _sha256(path), decisions(path) if played is None else played


def _sha256(path: Path) -> str:
    sha = hashlib.sha256()
    with path.open("rb") as f:
        while chunk := f.read(1 << 20):
            sha.update(chunk)
    return sha.hexdigest()


def decisions(path: Path) -> int:
    """The announced decisions of a replay: its action records the table was told of
    (``Game.is_public``), as the match's live feed counts them (``MatchFeed.decisions``: the
    count is public, and an unannounced action, such as a declined Siebener Fips, must not
    show in it); 0 when there is no file or it does not read. Re-simulates the file: for a
    match whose feed is gone (a tournament's, a match cut off by a kill)."""
    if not path.is_file():
        return 0
    try:
        replay = read_replay(path, tolerate_truncated_tail=True)
    except CroupierError:
        return 0
    game = replay.game
    return sum(
        1
        for i, rec in enumerate(replay.records)
        if rec.type == "action" and game.is_public(replay.before(i), rec.data["action"])
    )


def finish_mirrored(
    store: ServerStore, record: MatchRecord, replay: Path, state_dir: Path, played: int
) -> bool:
    """Finish, in the server's store, a tournament's match its own store has committed
    (``played``: its decisions)."""
    return store.finish_match(
        record.match_id,
        ended_ms=now_ms(),
        rounds=record.rounds_played,
        decisions=played,
        replay_path=os.path.relpath(replay, state_dir),
        replay_sha256=record.replay_sha256,
        seats=tuple(sorted(record.seats, key=lambda s: s.seat)),
    )


def mirror_committed(store: ServerStore, state_dir: Path) -> list[str]:
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
            if finish_mirrored(store, record, replay, state_dir, decisions(replay)):
                done.append(record.match_id)
    return done


def abort_unfinished(store: ServerStore, state_dir: Path, replay_dir: Path) -> list[str]:
    """At start, after :func:`mirror_committed`: record every match a stopped or killed
    server left pending or running as aborted, each with what its partial replay holds (its
    decisions, its path and SHA-256, so it can be fetched and watched), in one transaction;
    return their ids. A match that left no replay file is aborted with none."""
    detail = "the server stopped before the match ended"
    ended = now_ms()
    done = []
    with store.group():
        for match in store.unfinished():
            replay = replay_written(match, state_dir, replay_dir)
            sha, played = digest(replay)
            rel = os.path.relpath(replay, state_dir) if sha else ""
            if store.end_match(
                match.match_id,
                ABORTED,
                ended_ms=ended,
                detail=detail,
                decisions=played,
                replay_path=rel,
                replay_sha256=sha,
            ):
                done.append(match.match_id)
    return done
