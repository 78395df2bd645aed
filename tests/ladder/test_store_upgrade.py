"""Stores made before secret keys (tournament store schema 1, server store schema 1): the
server's is upgraded in place (seeds become text, nothing lost) and gets its secret key; a
tournament begun then resumes with the seeds it began with, which were public."""

from __future__ import annotations

import dataclasses
import json
import os
import sqlite3
import stat
from pathlib import Path

import pytest
from ladder_kit import tournament, write_config

from croupier.ladder import load_config, read_store
from croupier.ladder._schedule import legacy_seed
from croupier.replay import read_replay
from croupier.serve._store import open_server_store

#: The server store as schema 1 made it (seeds in an INTEGER column).
SERVER_V1 = """
CREATE TABLE server_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE registered_bots (name TEXT PRIMARY KEY, owner TEXT NOT NULL,
    key_sha256 TEXT NOT NULL UNIQUE, created_ms INTEGER NOT NULL,
    bot_version TEXT NOT NULL DEFAULT '');
CREATE TABLE server_matches (id TEXT PRIMARY KEY, game TEXT NOT NULL,
    params_json TEXT NOT NULL, seed INTEGER NOT NULL, state TEXT NOT NULL,
    tournament TEXT NOT NULL, bots_json TEXT NOT NULL, created_ms INTEGER NOT NULL,
    started_ms INTEGER NOT NULL DEFAULT 0, ended_ms INTEGER NOT NULL DEFAULT 0,
    rounds INTEGER NOT NULL DEFAULT 0, decisions INTEGER NOT NULL DEFAULT 0,
    replay_path TEXT NOT NULL DEFAULT '', replay_sha256 TEXT NOT NULL DEFAULT '',
    detail TEXT NOT NULL DEFAULT '', deal_set TEXT NOT NULL DEFAULT '');
CREATE INDEX server_matches_by_time ON server_matches (created_ms DESC, id DESC);
CREATE TABLE server_seats (match_id TEXT NOT NULL REFERENCES server_matches (id),
    seat INTEGER NOT NULL, bot TEXT NOT NULL, score TEXT NOT NULL, place INTEGER NOT NULL,
    outcome TEXT NOT NULL, timeouts INTEGER NOT NULL, rejected INTEGER NOT NULL,
    PRIMARY KEY (match_id, seat));
INSERT INTO server_meta VALUES ('schema_version', '1');
INSERT INTO server_matches VALUES ('m1', 'fipsen', '{}', 9007199254740991, 'finished', '',
    '["a", "b", "c", "d"]', 1, 2, 3, 1, 40, 'replays/m1.jsonl', 'ab', '', '');
INSERT INTO server_seats VALUES ('m1', 0, 'a', '7/2', 1, 'normal', 0, 0);
"""

#: The tournament store as schema 1 made it (no secret; seeds in an INTEGER column).
TOURNAMENT_V1 = """
CREATE TABLE tournament (id INTEGER PRIMARY KEY CHECK (id = 1), name TEXT NOT NULL,
    game TEXT NOT NULL, config_hash TEXT NOT NULL, config_json TEXT NOT NULL,
    total INTEGER NOT NULL, schema_version INTEGER NOT NULL, created_at TEXT NOT NULL);
CREATE TABLE bots (name TEXT PRIMARY KEY, command TEXT NOT NULL, exe_sha256 TEXT NOT NULL,
    hello_name TEXT NOT NULL DEFAULT '', version TEXT NOT NULL DEFAULT '',
    error TEXT NOT NULL DEFAULT '');
CREATE TABLE matches (id TEXT PRIMARY KEY, slot INTEGER NOT NULL UNIQUE,
    round INTEGER NOT NULL, table_no INTEGER NOT NULL, seating INTEGER NOT NULL,
    deal_set TEXT NOT NULL, seed INTEGER NOT NULL, rounds_played INTEGER NOT NULL,
    replay_path TEXT NOT NULL, replay_sha256 TEXT NOT NULL, worker TEXT NOT NULL,
    finished_at TEXT NOT NULL);
CREATE TABLE seats (match_id TEXT NOT NULL REFERENCES matches (id), seat INTEGER NOT NULL,
    bot TEXT NOT NULL REFERENCES bots (name), score TEXT NOT NULL, place INTEGER NOT NULL,
    outcome TEXT NOT NULL, timeouts INTEGER NOT NULL, rejected INTEGER NOT NULL,
    PRIMARY KEY (match_id, seat));
"""


def test_a_server_store_of_schema_1_is_upgraded_in_place(tmp_path: Path) -> None:
    path = tmp_path / "croupier.sqlite"
    conn = sqlite3.connect(path)
    conn.executescript(SERVER_V1)
    conn.close()
    os.chmod(path, 0o644)
    store = open_server_store(path)
    (match,) = store.finished()
    assert match.seed == 9007199254740991
    assert [(s.bot, str(s.score)) for s in match.seats] == [("a", "7/2")]
    secret = store.secret()
    assert len(secret) == 32
    big = dataclasses.replace(match, match_id="m2", seed=(1 << 128) - 1, state="pending")
    assert store.create_match(big)
    store.close()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    again = open_server_store(path)
    assert again.secret() == secret  # drawn once, kept
    assert again.get_match("m2").seed == (1 << 128) - 1  # type: ignore[union-attr]
    again.close()
    conn = sqlite3.connect(path)
    assert conn.execute("SELECT value FROM server_meta WHERE key = 'schema_version'").fetchone()
    assert conn.execute("SELECT typeof(seed) FROM server_matches WHERE id = 'm1'").fetchone() == (
        "text",
    )
    assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
    conn.close()


CONFIG = """
game = "as-nas"
[params]
deals = 1
[bots]
a = "random"
b = "random"
c = "random"
d = "random"
"""


@pytest.mark.e2e
def test_a_tournament_begun_before_keys_resumes_with_its_old_seeds(tmp_path: Path) -> None:
    path = write_config(tmp_path, CONFIG)
    config = dataclasses.replace(load_config(path), seed=0)  # an absent seed meant 0 then
    conn = sqlite3.connect(tmp_path / "t.sqlite")
    conn.executescript(TOURNAMENT_V1)
    conn.execute(
        "INSERT INTO tournament VALUES (1, 't', 'as-nas', ?, ?, 4, 1, 'then')",
        (config.config_hash(), json.dumps(config.defining(), sort_keys=True)),
    )
    conn.commit()
    conn.close()
    done = tournament(path)
    assert done.returncode == 0, done.stderr
    assert "t: 4/4 matches" in done.stdout
    store = read_store(tmp_path / "t.sqlite")
    seeds = {m.seed for m in store.matches()}
    store.close()
    assert seeds == {legacy_seed(0, "deals", 0, 0)}  # one duplicate set, dealt as it began
    for replay in (tmp_path / "t-matches").glob("*.jsonl"):
        assert read_replay(replay).header["seed"] == legacy_seed(0, "deals", 0, 0)
