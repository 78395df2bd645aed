"""The store: WAL, one transaction per finished match, a match id stored once."""

from __future__ import annotations

import sqlite3
from fractions import Fraction
from pathlib import Path

import pytest

from croupier.errors import ConfigError
from croupier.ladder import MatchRecord, SeatRecord, open_store, read_store


def _record(match_id: str, slot: int) -> MatchRecord:
    seats = (
        SeatRecord(0, "a", Fraction(7, 2), 1, "normal", 0, 0),
        SeatRecord(1, "b", Fraction(-7, 2), 2, "timeouts", 1, 0),
    )
    return MatchRecord(match_id, slot, 0, 0, slot, "r1t1", 9, 3, "x.jsonl", "ab" * 32, "w", seats)


def test_a_match_is_stored_once_with_its_seats(tmp_path: Path) -> None:
    store = open_store(tmp_path / "s.sqlite")
    store.init_tournament("t", "felduz", "h", {"bots": {"a": "x", "b": "y"}}, 2)
    store.put_bot("a", "x", "")
    store.put_bot("b", "y", "")
    assert store.commit_match(_record("m1", 0), [("rand", "1"), ("", "")])
    assert not store.commit_match(_record("m1", 0))  # again: refused, nothing doubled
    assert store.commit_match(_record("m2", 1))
    matches = store.matches()
    assert [m.match_id for m in matches] == ["m1", "m2"]
    assert matches[0].seats[0].score == Fraction(7, 2)
    assert matches[0] == _record("m1", 0)
    assert store.bots()["a"].hello_name == "rand"
    assert store.bots()["a"].version == "1"
    store.close()
    reader = read_store(tmp_path / "s.sqlite")
    assert reader.finished_ids() == {"m1", "m2"}
    assert reader.tournament() == {
        "name": "t",
        "game": "felduz",
        "hash": "h",
        "config": {"bots": {"a": "x", "b": "y"}},
        "total": 2,
        "schema_version": 2,
    }
    reader.close()
    conn = sqlite3.connect(tmp_path / "s.sqlite")
    assert conn.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    assert conn.execute("SELECT count(*) FROM seats").fetchone() == (4,)


def test_a_failing_commit_leaves_nothing_behind(tmp_path: Path) -> None:
    store = open_store(tmp_path / "s.sqlite")
    store.init_tournament("t", "felduz", "h", {}, 1)
    store.put_bot("a", "x", "")  # "b" is unknown: its seat row violates the foreign key
    with pytest.raises(sqlite3.IntegrityError):
        store.commit_match(_record("m1", 0))
    assert store.matches() == []
    assert store.finished_ids() == set()


def test_reading_a_missing_or_foreign_file_is_one_line(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="no tournament store at"):
        read_store(tmp_path / "nothing.sqlite")
    junk = tmp_path / "junk.sqlite"
    junk.write_text("not a database at all, just text " * 100)
    with pytest.raises(ConfigError, match="not a usable tournament store"):
        read_store(junk)
