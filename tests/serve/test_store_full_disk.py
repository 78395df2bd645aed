"""A real full disk under a running ``croupier serve`` (docs/server.md, "What survives a
restart"): its state folder on a small tmpfs that is then filled. Each call that needs the
store is answered INTERNAL in one line, nothing it asked for is stored or started, the server
goes on serving, and once room is made the same call goes through; the file is consistent and
holds exactly what the callers were told. Needs root (it mounts a tmpfs): skipped otherwise."""

from __future__ import annotations

import contextlib
import errno
import os
import sqlite3
import subprocess
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest
from serve_kit import Control, ServeProcess, register, wait_for

from croupier.v1 import control_pb2 as cpb

pytestmark = pytest.mark.e2e

BOTS = ("alice", "bob", "carol", "dan")


@contextlib.contextmanager
def _small_disk(where: Path, size: str) -> Iterator[Path]:
    where.mkdir()
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size},mode=0700", "tmpfs", str(where)],
        capture_output=True,
        check=False,
    )
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {mounted.stderr.decode().strip()}")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False)


def _fill(path: Path) -> int:
    """Write ``path`` until the disk is full; the errno that stopped it."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        while True:
            try:
                os.write(fd, b"\0" * 65536)
            except OSError as exc:
                return exc.errno
    finally:
        os.close(fd)


def _batch(name: str) -> cpb.CreateMatchesRequest:
    return cpb.CreateMatchesRequest(
        batch=name,
        matches=[
            cpb.CreateMatchRequest(game="as-nas", bots=BOTS, params={"deals": 1}, seed=i)
            for i in range(20)
        ],
    )


def test_a_full_disk_fails_each_call_in_one_line_and_loses_nothing(tmp_path: Path) -> None:
    with _small_disk(tmp_path / "disk", "3m") as disk:
        server = ServeProcess(disk / "state")
        try:
            op = Control(server.control_address, server.operator_key)
            register(op, *BOTS)
            op.CreateMatches(_batch("before"))

            def matches() -> list[cpb.MatchInfo]:
                return list(op.ListMatches(cpb.ListMatchesRequest(limit=1000)).matches)

            wait_for(  # (their start is a write too: done before the disk fills)
                lambda: all(m.state == cpb.MATCH_STATE_RUNNING for m in matches()),
                10,
                "the first batch to start",
            )
            assert _fill(disk / "filler") == errno.ENOSPC
            for name in ("full", "full", "other"):
                with pytest.raises(grpc.RpcError) as info:
                    op.CreateMatches(_batch(name))
                assert info.value.code() == grpc.StatusCode.INTERNAL
                detail = info.value.details()
                assert "database or disk is full" in detail
                assert "\n" not in detail
            listed = matches()  # still serving
            assert {m.match_id.split("-")[0] for m in listed} == {"before"}
            (disk / "filler").unlink()
            assert len(op.CreateMatches(_batch("full")).matches) == 20  # room again: it goes in
            listed = matches()
            assert sorted({m.match_id.split("-")[0] for m in listed}) == ["before", "full"]
            assert len(listed) == 40
            wait_for(  # (a match's start is written just after its creation)
                lambda: all(m.state != cpb.MATCH_STATE_PENDING for m in matches()),
                10,
                "the second batch to start",
            )
            op.close()
        finally:  # (a stop would wait for the seats of bots that never come)
            server.kill()
        with sqlite3.connect(disk / "state" / "croupier.sqlite") as conn:
            assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
            ids = sorted(r[0] for r in conn.execute("SELECT id FROM server_matches"))
        assert ids == sorted(m.match_id for m in listed)
