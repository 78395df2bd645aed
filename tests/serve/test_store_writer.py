"""The server's store writer (croupier.serve._writer): writes that queue up together are
committed in one transaction, each caller is answered after that commit, a write that fails is
undone alone, a group SQLite rolls back fails as a whole, a writer stopped by a BaseException
answers every caller, and the store's batch of new matches is all or none."""

from __future__ import annotations

import asyncio
import ctypes
import dataclasses
import sqlite3
import threading
import time
from pathlib import Path

import pytest
from serve_kit import server_match
from structlog.testing import capture_logs

from croupier.errors import ConfigError, StoreError
from croupier.serve._store import open_server_store
from croupier.serve._writer import StoreWriter


def _ids(path: Path) -> list[str]:
    with sqlite3.connect(path) as conn:  # another connection: only what is committed
        return [r[0] for r in conn.execute("SELECT id FROM server_matches ORDER BY id")]


def test_queued_writes_commit_together_and_a_failing_one_alone_is_undone(tmp_path: Path) -> None:
    path = tmp_path / "store.sqlite"
    store = open_server_store(path)
    store.register_bot("alice", "", "hash-a")

    async def main() -> tuple[list[object], int, int]:
        writer = StoreWriter(store)
        release = threading.Event()
        # the first write holds the thread while the next 40 queue up behind it
        blocker = asyncio.ensure_future(writer.write(lambda: release.wait(30)))
        await asyncio.sleep(0.05)
        calls = [writer.write(lambda i=i: store.create_match(server_match(i))) for i in range(20)]
        calls.append(writer.write(lambda: store.register_bot("alice", "", "hash-b")))  # taken
        # fails after writing its first row: that row must go with it
        calls.append(
            writer.write(lambda: store.create_matches([server_match(98), server_match(98)]))
        )
        calls += [
            writer.write(lambda i=i: store.create_match(server_match(i))) for i in range(20, 40)
        ]
        # queued before the blocker lets go (a coroutine queues its write when it first runs:
        # started only by the gather below, they raced the writer thread for the next group)
        writes = [asyncio.ensure_future(call) for call in calls]
        await asyncio.sleep(0)  # (each task runs up to its wait for the commit)
        release.set()
        results = await asyncio.gather(*writes, return_exceptions=True)
        await blocker
        commits, written = writer.commits, writer.writes
        writer.close()
        return results, commits, written

    results, commits, written = asyncio.run(main())
    assert results[:20] == [True] * 20
    assert isinstance(results[20], ConfigError)
    assert isinstance(results[21], sqlite3.IntegrityError)
    assert results[22:] == [True] * 20
    # the blocker alone (or with some of the others), then the rest together: not 43 commits
    assert written == 43
    assert commits <= 2
    assert _ids(path) == [f"m{i:03d}" for i in range(40)]
    assert [b.key_sha256 for b in store.registered_bots()] == ["hash-a"]  # undone alone
    store.close()


def test_a_caller_is_answered_only_once_its_write_is_committed(tmp_path: Path) -> None:
    """Each COMMIT is held (a trace callback in the writer's thread, as the statement starts)
    until the caller's answer is seen or 0.3 s have passed; the answer looks, from another
    connection, for its row. Answered before its COMMIT, a caller would find nothing."""
    path = tmp_path / "store.sqlite"
    store = open_server_store(path)
    answered = threading.Event()

    def hold(sql: str) -> None:  # runs in the writer's thread
        if sql == "COMMIT":
            answered.wait(0.3)

    store._conn.set_trace_callback(hold)

    async def main() -> list[list[str]]:
        writer = StoreWriter(store)
        seen: list[list[str]] = []

        def look(_: object) -> None:  # on the loop, the moment the caller is answered
            seen.append(_ids(path))
            answered.set()

        for i in range(2):
            answered.clear()
            future = asyncio.ensure_future(
                writer.write(lambda i=i: store.create_match(server_match(i)))
            )
            future.add_done_callback(look)
            assert await future
        writer.close()
        return seen

    seen = asyncio.run(main())
    assert seen == [["m000"], ["m000", "m001"]]
    store._conn.set_trace_callback(None)
    store.close()


def test_a_group_that_sqlite_rolls_back_fails_as_a_whole(tmp_path: Path) -> None:
    """SQLITE_FULL (a real one: the file may not grow past ``max_page_count``) in the middle
    of a group: SQLite rolls the whole transaction back. Every caller of the group gets a
    StoreError (the writes before the full one are not on disk: none is told they are), the
    writes after it do not run (none lands in autocommit), and what the file holds is
    exactly what the callers were told; the next group commits as usual."""
    path = tmp_path / "store.sqlite"
    store = open_server_store(path)
    assert store.create_match(server_match(0))
    (pages,) = store._conn.execute("PRAGMA page_count").fetchone()
    store._conn.execute(f"PRAGMA max_page_count = {pages + 2}")  # room for a few rows only
    ran: list[str] = []

    def big() -> object:  # about 60 KB of rows: more than the file may grow
        wide = [
            dataclasses.replace(server_match(100 + i), bots=("x" * 600, "y")) for i in range(100)
        ]
        return store.create_matches(wide)

    def after() -> bool:
        ran.append("after")
        return store.create_match(server_match(3))

    async def main() -> tuple[list[object], list[object]]:
        writer = StoreWriter(store)
        release = threading.Event()
        blocker = asyncio.ensure_future(writer.write(lambda: release.wait(30)))
        await asyncio.sleep(0.05)
        group = [
            asyncio.ensure_future(writer.write(fn))
            for fn in (
                lambda: store.create_match(server_match(1)),
                lambda: store.create_match(server_match(2)),
                big,
                after,
                lambda: store.create_match(server_match(4)),
            )
        ]
        await asyncio.sleep(0.05)  # all queued behind the blocker: one group
        release.set()
        results = await asyncio.gather(*group, return_exceptions=True)
        await blocker
        later = await asyncio.gather(
            writer.write(lambda: store.create_match(server_match(5))), return_exceptions=True
        )
        writer.close()
        return results, later

    with capture_logs() as logs:
        results, later = asyncio.run(main())
    ids = ["m001", "m002", "(big)", "m003", "m004", "m005"]
    told = [i for i, r in zip(ids, [*results, *later], strict=True) if r is True]
    assert _ids(path) == ["m000", *told]  # what the callers were told: no more, no less
    assert ran == []  # nothing after the fault ran
    assert [type(r) for r in results] == [StoreError] * 5, results
    assert "database or disk is full" in str(results[0])
    assert "\n" not in str(results[0])
    assert later == [True]
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    assert [e["event"] for e in logs if e["log_level"] == "error"] == ["store_commit_failed"]
    store.close()


@pytest.mark.parametrize("how", ["raised", "delivered"])
def test_a_writer_stopped_by_a_base_exception_answers_everyone(tmp_path: Path, how: str) -> None:
    """A BaseException ends the writer's thread: a write that raises SystemExit, or a
    KeyboardInterrupt delivered in the thread while a write runs. Its group is rolled back,
    and every caller gets a StoreError at once: of its group, queued behind it, and later."""
    path = tmp_path / "store.sqlite"
    store = open_server_store(path)
    started, go = threading.Event(), threading.Event()
    thread: list[int] = []

    def killer() -> None:
        thread.append(threading.get_ident())
        started.set()
        if how == "raised":
            go.wait(10)
            raise SystemExit(3)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:  # Python code: the exception lands here
            time.sleep(0.005)

    async def main() -> tuple[list[object], list[object]]:
        writer = StoreWriter(store)
        assert await writer.write(lambda: store.create_match(server_match(0)))
        release = threading.Event()
        blocker = asyncio.ensure_future(writer.write(lambda: release.wait(30)))
        await asyncio.sleep(0.05)
        group = [
            asyncio.ensure_future(writer.write(fn))
            for fn in (lambda: store.create_match(server_match(1)), killer)
        ]
        await asyncio.sleep(0.05)
        release.set()
        await blocker
        assert await asyncio.to_thread(started.wait, 10)
        queued = asyncio.ensure_future(writer.write(lambda: store.create_match(server_match(2))))
        await asyncio.sleep(0.05)
        if how == "raised":
            go.set()
        else:
            ctypes.pythonapi.PyThreadState_SetAsyncExc(
                ctypes.c_ulong(thread[0]), ctypes.py_object(KeyboardInterrupt)
            )
        answers = asyncio.gather(*group, queued, return_exceptions=True)
        results = await asyncio.wait_for(answers, 10)
        later = await asyncio.wait_for(
            asyncio.gather(
                writer.write(lambda: store.create_match(server_match(3))), return_exceptions=True
            ),
            10,
        )
        writer.close()
        return results, later

    with capture_logs() as logs:
        results, later = asyncio.run(main())
    assert [type(r) for r in [*results, *later]] == [StoreError] * 4, (results, later)
    name = "SystemExit" if how == "raised" else "KeyboardInterrupt"
    assert f"the store's writer stopped ({name}" in str(results[0])
    assert _ids(path) == ["m000"]  # its group rolled back, nothing after it ran
    assert [e["event"] for e in logs if e["log_level"] == "error"] == ["store_writer_stopped"]
    store.close()


def test_create_matches_is_all_or_none(tmp_path: Path) -> None:
    store = open_server_store(tmp_path / "store.sqlite")
    assert store.create_matches([server_match(i) for i in range(3)]) is None
    # one id of the batch is known: none of it is written, and that id is named
    assert store.create_matches([server_match(i) for i in range(2, 6)]) == "m002"
    assert store.create_match(server_match(2)) is False
    assert [m.match_id for m in store.list_matches(limit=10)] == ["m002", "m001", "m000"]
    with pytest.raises(sqlite3.IntegrityError):  # the same id twice in one batch
        store.create_matches([server_match(7), server_match(7)])
    assert store.get_match("m007") is None
    store.close()
