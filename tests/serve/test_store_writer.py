"""The server's store writer (croupier.serve._writer): writes that queue up together are
committed in one transaction, each caller is answered after that commit, a write that fails is
undone alone, and the store's batch of new matches is all or none."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from pathlib import Path

import pytest
from serve_kit import server_match

from croupier.errors import ConfigError
from croupier.ladder._server_store import open_server_store
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
        writes = [writer.write(lambda i=i: store.create_match(server_match(i))) for i in range(20)]
        writes.append(writer.write(lambda: store.register_bot("alice", "", "hash-b")))  # taken
        # fails after writing its first row: that row must go with it
        writes.append(
            writer.write(lambda: store.create_matches([server_match(98), server_match(98)]))
        )
        writes += [
            writer.write(lambda i=i: store.create_match(server_match(i))) for i in range(20, 40)
        ]
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
    path = tmp_path / "store.sqlite"
    store = open_server_store(path)

    async def main() -> list[list[str]]:
        writer = StoreWriter(store)
        seen = []
        for i in range(5):
            assert await writer.write(lambda i=i: store.create_match(server_match(i)))
            seen.append(_ids(path))
        writer.close()
        return seen

    seen = asyncio.run(main())
    assert seen == [[f"m{j:03d}" for j in range(i + 1)] for i in range(5)]
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
