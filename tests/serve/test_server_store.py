"""The server store (croupier.serve._store): a match's life moves one way and ends once,
what a killed server left open is aborted at the next start, pages are newest first."""

from __future__ import annotations

import sqlite3
from fractions import Fraction
from pathlib import Path

import pytest
from serve_kit import server_match

from croupier.errors import ConfigError
from croupier.ladder import SeatRecord
from croupier.serve._store import (
    ABORTED,
    CANCELLED,
    FINISHED,
    RUNNING,
    open_server_store,
)

SEATS = (
    SeatRecord(0, "a", Fraction(3, 2), 1, "normal", 0, 0),
    SeatRecord(1, "b", Fraction(-3, 2), 2, "timeouts", 1, 0),
)


def test_a_match_is_finished_once_with_its_seats(tmp_path: Path) -> None:
    store = open_server_store(tmp_path / "s.sqlite")
    assert store.create_match(server_match(1))
    assert not store.create_match(server_match(1))  # the same id is refused, not written twice
    assert store.mark_running("m001", 2000)
    kwargs = {
        "ended_ms": 3000,
        "rounds": 4,
        "decisions": 40,
        "replay_path": "r.jsonl",
        "replay_sha256": "ab",
        "seats": SEATS,
    }
    assert store.finish_match("m001", **kwargs)  # type: ignore[arg-type]
    assert not store.finish_match("m001", **kwargs)  # type: ignore[arg-type]
    assert not store.end_match("m001", CANCELLED, ended_ms=4000, detail="late cancel")
    got = store.get_match("m001")
    assert got is not None
    assert (got.state, got.ended_ms, got.seats) == (FINISHED, 3000, SEATS)
    assert [m.match_id for m in store.finished()] == ["m001"]
    rows = sqlite3.connect(tmp_path / "s.sqlite").execute("SELECT COUNT(*) FROM server_seats")
    assert rows.fetchone()[0] == 2


def test_unfinished_matches_are_aborted_at_the_next_start(tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite"
    store = open_server_store(path)
    for i in range(3):
        store.create_match(server_match(i))
    store.mark_running("m001", 5)
    store.mark_running("m002", 5)
    store.finish_match(
        "m002", ended_ms=9, rounds=1, decisions=1, replay_path="", replay_sha256="", seats=SEATS
    )
    store.close()  # as a SIGKILL leaves it: nothing else was written
    again = open_server_store(path)
    assert sorted(again.abort_unfinished("the server stopped")) == ["m000", "m001"]
    assert {m.match_id: m.state for m in again.list_matches()} == {
        "m000": ABORTED,
        "m001": ABORTED,
        "m002": FINISHED,
    }
    assert again.abort_unfinished("again") == []  # an aborted match stays as it is
    assert not again.finish_match(  # and can never be finished (counted) afterwards
        "m001", ended_ms=9, rounds=1, decisions=1, replay_path="", replay_sha256="", seats=SEATS
    )
    assert [m.match_id for m in again.finished()] == ["m002"]


def test_pages_are_newest_first_and_filter_by_state(tmp_path: Path) -> None:
    store = open_server_store(tmp_path / "s.sqlite")
    for i in range(7):
        store.create_match(server_match(i, created=100 if i < 4 else 200))  # ties on time: by id
    store.mark_running("m005", 1)
    first = store.list_matches(limit=3)
    assert [m.match_id for m in first] == ["m006", "m005", "m004"]
    last = first[-1]
    rest = store.list_matches(limit=10, after=(last.created_ms, last.match_id))
    assert [m.match_id for m in rest] == ["m003", "m002", "m001", "m000"]
    assert [m.match_id for m in store.list_matches(RUNNING)] == ["m005"]


def test_a_name_is_registered_once_and_only_its_key_hash_is_kept(tmp_path: Path) -> None:
    store = open_server_store(tmp_path / "s.sqlite")
    store.register_bot("alice", "me", "f" * 64)
    with pytest.raises(ConfigError, match="already registered"):
        store.register_bot("alice", "someone else", "e" * 64)
    assert [(b.name, b.owner, b.key_sha256) for b in store.registered_bots()] == [
        ("alice", "me", "f" * 64)
    ]


def test_a_file_that_is_not_a_store_is_one_error(tmp_path: Path) -> None:
    path = tmp_path / "junk.sqlite"
    path.write_bytes(b"not a database, not at all" * 100)
    with pytest.raises(ConfigError, match="not a usable server store"):
        open_server_store(path)


#: ``registered_bots`` as schema 1 made it (before a bot declared its games, could be disabled
#: or have its key revoked).
_SCHEMA_1 = """
CREATE TABLE server_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
INSERT INTO server_meta VALUES ('schema_version', '1');
CREATE TABLE registered_bots (
    name TEXT PRIMARY KEY,
    owner TEXT NOT NULL,
    key_sha256 TEXT NOT NULL UNIQUE,
    created_ms INTEGER NOT NULL,
    bot_version TEXT NOT NULL DEFAULT ''
);
INSERT INTO registered_bots VALUES ('old', 'o@example.org', 'aa', 5, '');
"""


def test_a_schema_1_store_keeps_its_bots_as_they_were(tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite"
    conn = sqlite3.connect(path)
    conn.executescript(_SCHEMA_1)
    conn.close()
    store = open_server_store(path)
    (old,) = store.registered_bots()
    # every game, enabled, its key valid: what it could do before
    assert (old.name, old.key_sha256, old.games, old.disabled, old.revoked_ms) == (
        "old", "aa", (), False, 0,
    )  # fmt: skip
    assert old.plays("fipsen")
    assert old.plays("as-nas")
    row = store._conn.execute("SELECT value FROM server_meta WHERE key = 'schema_version'")
    assert row.fetchone()[0] == "2"
    store.close()
    open_server_store(path).close()  # a second open changes nothing


def test_a_bots_key_state_and_games_last(tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite"
    store = open_server_store(path)
    store.register_bot("ann", "", "k1", ("fipsen",))
    store.register_bot("ben", "", "k2")
    with pytest.raises(ConfigError, match="already registered"):
        store.register_bot("ann", "", "k3")
    store.revoke_bot_key("ann", "nobody", 77)
    store.set_bot_disabled("ben", True)
    store.set_bot_games("ben", ("scauver", "as-nas", "scauver"))
    with pytest.raises(ConfigError, match="no registered bot named 'zed'"):
        store.set_bot_disabled("zed", True)
    store.close()
    store = open_server_store(path)
    ann, ben = store.registered_bots()
    assert (ann.key_sha256, ann.revoked_ms, ann.games) == ("nobody", 77, ("fipsen",))
    assert not ann.plays("as-nas")
    assert (ben.disabled, ben.games) == (True, ("as-nas", "scauver"))
    rotated = store.set_bot_key("ann", "k4")
    assert (rotated.key_sha256, rotated.revoked_ms) == ("k4", 0)
    store.close()
