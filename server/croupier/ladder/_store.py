"""The tournament store: one SQLite file (WAL), the only lasting state of a tournament.

Schema (``docs/ladder.md`` describes every column)::

    tournament  one row: name, game, config hash, the defining config as JSON, schema version,
                and the secret key every seed derives from (hex; empty with an explicit seed)
    bots        display name, command, executable hash; bot name and version from its Hello;
                how its processes ran (session or per match), how many were started, crashes;
                the weakest isolation they were launched in
    matches     id (from the schedule slot), slot, round, table, seating, duplicate set, seed
                (decimal text: seeds are 128-bit),
                rounds played, replay path and its SHA-256, who played it, when
    seats       per match and seat: bot, score (exact fraction as text), place, outcome, faults,
                the control variate of its score (``cv``: the chance terms, NULL where not
                computed; ``cv_action``: the action terms of seats known to play at random)
    ratings     per bot, for a continuous ladder (``croupier serve``): openskill mu and sigma after
                the last stored match, written in that match's transaction

A match is written only once it is finished and its replay is on disk (fsynced), in one
transaction; a match id already present is never written again, so a match cannot count twice.
Readers (``croupier tournament standings``) may open the file while a tournament writes it.

The file (and SQLite's ``-wal`` and ``-shm`` files beside it, which take its mode) is created
mode 0600, and an existing one opened to write is made 0600: it holds the secret key, and with
it every deal still to be played.

Schema versions: 1, before secret keys (the seeds derive from the config's seed by SHA-256, in
an INTEGER column; such a store resumes with those seeds: :attr:`Store.legacy_seeds`); 2, now.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
import sqlite3
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from croupier.errors import ConfigError
from croupier.ladder._sqlite import SQLiteStore, connect, private_file

SCHEMA_VERSION = 2

_SCHEMA = """
CREATE TABLE IF NOT EXISTS tournament (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    name TEXT NOT NULL,
    game TEXT NOT NULL,
    config_hash TEXT NOT NULL,
    config_json TEXT NOT NULL,
    total INTEGER NOT NULL,
    schema_version INTEGER NOT NULL,
    created_at TEXT NOT NULL,
    secret TEXT NOT NULL DEFAULT ''
);
CREATE TABLE IF NOT EXISTS bots (
    name TEXT PRIMARY KEY,
    command TEXT NOT NULL,
    exe_sha256 TEXT NOT NULL,
    hello_name TEXT NOT NULL DEFAULT '',
    version TEXT NOT NULL DEFAULT '',
    error TEXT NOT NULL DEFAULT '',
    mode TEXT NOT NULL DEFAULT '',
    processes INTEGER NOT NULL DEFAULT 0,
    crashes INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS matches (
    id TEXT PRIMARY KEY,
    slot INTEGER NOT NULL UNIQUE,
    round INTEGER NOT NULL,
    table_no INTEGER NOT NULL,
    seating INTEGER NOT NULL,
    deal_set TEXT NOT NULL,
    seed TEXT NOT NULL,
    rounds_played INTEGER NOT NULL,
    replay_path TEXT NOT NULL,
    replay_sha256 TEXT NOT NULL,
    worker TEXT NOT NULL,
    finished_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS ratings (
    bot TEXT PRIMARY KEY,
    mu REAL NOT NULL,
    sigma REAL NOT NULL,
    matches INTEGER NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS seats (
    match_id TEXT NOT NULL REFERENCES matches (id),
    seat INTEGER NOT NULL,
    bot TEXT NOT NULL REFERENCES bots (name),
    score TEXT NOT NULL,
    place INTEGER NOT NULL,
    outcome TEXT NOT NULL,
    timeouts INTEGER NOT NULL,
    rejected INTEGER NOT NULL,
    cv REAL,
    cv_action REAL,
    PRIMARY KEY (match_id, seat)
);
"""


@dataclass(frozen=True, slots=True)
class SeatRecord:
    """One seat of a stored match."""

    seat: int
    bot: str
    score: Fraction
    place: int
    outcome: str
    timeouts: int
    rejected: int
    #: The control variate of the seat's score (``_control.replay_corrections``): the luck of
    #: the chance outcomes as a random player would have scored it; ``None`` if not computed.
    cv: float | None = None
    #: Its action terms (``_control.replay_action_corrections``): the luck of the draws of the
    #: seats played by a bot known to play at random; ``None`` in a store made before them.
    cv_action: float | None = None


#: The columns of a seat row, in table order (``seats``, and the server store's ``server_seats``).
SEAT_COLUMNS = "match_id, seat, bot, score, place, outcome, timeouts, rejected"


def seat_rows(match_id: str, seats: Iterable[SeatRecord]) -> list[tuple[object, ...]]:
    """The rows of ``SEAT_COLUMNS`` that store ``seats`` of match ``match_id``."""
    return [
        (match_id, s.seat, s.bot, str(s.score), s.place, s.outcome, s.timeouts, s.rejected)
        for s in seats
    ]


def seat_record(row: Sequence[Any]) -> SeatRecord:
    """The seat a row of ``SEAT_COLUMNS`` holds (its match id, first, left out), and its
    control variate when the row has a ninth column (the tournament store's ``cv``) and its
    action terms with a tenth (``cv_action``)."""
    cv = float(row[8]) if len(row) > 8 and row[8] is not None else None
    action = float(row[9]) if len(row) > 9 and row[9] is not None else None
    return SeatRecord(row[1], row[2], Fraction(row[3]), row[4], row[5], row[6], row[7], cv, action)


@dataclass(frozen=True, slots=True)
class MatchRecord:
    """A finished match as the store holds it."""

    match_id: str
    slot: int
    round: int
    table: int
    seating: int
    deal_set: str
    seed: int
    rounds_played: int
    replay_path: str
    replay_sha256: str
    worker: str
    seats: tuple[SeatRecord, ...]


#: Columns added to ``bots`` after the first release of the store; a store made before gets
#: them when a tournament opens it to write (and reads as their defaults until then).
_ADDED_BOT_COLUMNS = {
    "mode": "TEXT NOT NULL DEFAULT ''",
    "processes": "INTEGER NOT NULL DEFAULT 0",
    "crashes": "INTEGER NOT NULL DEFAULT 0",
    "isolation": "TEXT NOT NULL DEFAULT ''",
}


@dataclass(frozen=True, slots=True)
class BotRecord:
    name: str
    command: str
    exe_sha256: str
    hello_name: str
    version: str
    error: str
    #: ``session`` or ``per-match`` (how its processes last ran), ``""`` while none was started.
    mode: str = ""
    #: Processes started for it, summed over every run of the tournament.
    processes: int = 0
    #: Session processes that ended while still wanted (each charged in the matches it held).
    crashes: int = 0
    #: The weakest isolation a run launched it in (an ``Isolation`` value: ``bwrap``,
    #: ``unshare``, ``uid``, ``limits``, ``none``); ``""`` for a remote bot or before any run.
    isolation: str = ""


def _now() -> str:
    return dt.datetime.now(dt.UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


class Store(SQLiteStore):
    """An open store. Use :func:`open_store` (writing) or :func:`read_store` (reading)."""

    # -- the tournament -------------------------------------------------------------------------

    def tournament(self) -> dict[str, Any] | None:
        """The tournament row: name, game, config hash and defining config, total, and its
        schema version (never the secret: :meth:`secret`)."""
        row = self._conn.execute(
            "SELECT name, game, config_hash, config_json, total, schema_version "
            "FROM tournament WHERE id = 1"
        ).fetchone()
        if row is None:
            return None
        return {
            "name": row[0],
            "game": row[1],
            "hash": row[2],
            "config": json.loads(row[3]),
            "total": row[4],
            "schema_version": row[5],
        }

    @property
    def legacy_seeds(self) -> bool:
        """Whether the tournament began before secret keys (schema 1): its seeds are the old
        public ones (``_schedule.legacy_seed``), kept so that it resumes with the same deals."""
        held = self.tournament()
        return held is not None and held["schema_version"] < 2

    def secret(self) -> bytes:
        """The secret key every seed of the tournament derives from (drawn at its start);
        empty with an explicit seed or in a store begun before keys."""
        row = self._conn.execute("SELECT secret FROM tournament WHERE id = 1").fetchone()
        return bytes.fromhex(row[0]) if row is not None and row[0] else b""

    def init_tournament(
        self,
        name: str,
        game: str,
        config_hash: str,
        defining: Any,
        total: int,
        secret: bytes = b"",
    ) -> None:
        """Write the tournament row, with the secret key its seeds derive from (``b""``:
        an explicit seed is the key)."""
        with self._transaction() as conn:
            conn.execute(
                "INSERT INTO tournament VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    name,
                    game,
                    config_hash,
                    json.dumps(defining, sort_keys=True),
                    total,
                    SCHEMA_VERSION,
                    _now(),
                    secret.hex(),
                ),
            )

    def extend_tournament(self, config_hash: str, defining: Any, total: int) -> None:
        """Give the tournament more rounds: its config (whose only change is ``rounds``), hash
        and total are replaced, in one transaction; the matches stored stay as they are."""
        with self._transaction() as conn:
            conn.execute(
                "UPDATE tournament SET config_hash = ?, config_json = ?, total = ? WHERE id = 1",
                (config_hash, json.dumps(defining, sort_keys=True), total),
            )

    # -- bots -----------------------------------------------------------------------------------

    def bots(self) -> dict[str, BotRecord]:
        have = {row[1] for row in self._conn.execute("PRAGMA table_info(bots)")}
        added = [c for c in _ADDED_BOT_COLUMNS if c in have]
        columns = ", ".join(["name", "command", "exe_sha256", "hello_name", "version", "error"])
        rows = self._conn.execute(f"SELECT {', '.join([columns, *added])} FROM bots").fetchall()
        out = {}
        for r in rows:
            extra = dict(zip(added, r[6:], strict=True))
            out[r[0]] = BotRecord(*r[:6], **extra)
        return out

    def add_bot_stats(self, name: str, mode: str, processes: int, crashes: int) -> None:
        """Add one executor's account of the bot's processes (a pool's ``stats``)."""
        with self._transaction() as conn:
            conn.execute(
                "UPDATE bots SET mode = CASE WHEN ? = '' THEN mode ELSE ? END, "
                "processes = processes + ?, crashes = crashes + ? WHERE name = ?",
                (mode, mode, processes, crashes, name),
            )

    def note_isolation(self, name: str, isolation: str, weaker: Sequence[str]) -> None:
        """Record that a run launches bot ``name`` in ``isolation``, unless the store holds one
        of the ``weaker`` already (the weakest is kept: a standings note must not vanish)."""
        kept = f" AND isolation NOT IN ({', '.join('?' * len(weaker))})" if weaker else ""
        with self._transaction() as conn:
            conn.execute(
                f"UPDATE bots SET isolation = ? WHERE name = ?{kept}", (isolation, name, *weaker)
            )

    def put_bot(self, name: str, command: str, exe_sha256: str) -> None:
        with self._transaction() as conn:
            conn.execute(
                "INSERT INTO bots (name, command, exe_sha256) VALUES (?, ?, ?) "
                "ON CONFLICT (name) DO UPDATE SET command = excluded.command, exe_sha256 = "
                "CASE excluded.exe_sha256 WHEN '' THEN bots.exe_sha256 "
                "ELSE excluded.exe_sha256 END",
                (name, command, exe_sha256),
            )

    def bot_error(self, name: str, error: str) -> None:
        with self._transaction() as conn:
            conn.execute("UPDATE bots SET error = ? WHERE name = ?", (error, name))

    # -- matches --------------------------------------------------------------------------------

    def finished_ids(self) -> set[str]:
        return {r[0] for r in self._conn.execute("SELECT id FROM matches")}

    def commit_match(
        self,
        record: MatchRecord,
        hello: Sequence[tuple[str, str]] = (),
        *,
        ratings: Mapping[str, tuple[float, float]] | None = None,
    ) -> bool:
        """Write a finished match and its seats in one transaction; ``False`` (and nothing
        written) if that match id is already stored. ``hello`` is (name, version) per seat,
        as the bots said in their Hello. A ``record.slot`` below 0 takes the next free slot
        (one past the highest stored: a continuous ladder's slots are the order its matches
        were stored in). ``ratings`` (bot -> (mu, sigma) after this match) are written in
        the same transaction, so stored ratings always match the stored results."""
        with self._transaction() as conn:
            if conn.execute("SELECT 1 FROM matches WHERE id = ?", (record.match_id,)).fetchone():
                return False
            if record.slot < 0:
                (top,) = conn.execute("SELECT COALESCE(MAX(slot), -1) FROM matches").fetchone()
                record = dataclasses.replace(record, slot=int(top) + 1)
            for bot, (mu, sigma) in (ratings or {}).items():
                conn.execute(
                    "INSERT INTO ratings VALUES (?, ?, ?, 1, ?) ON CONFLICT (bot) DO UPDATE "
                    "SET mu = excluded.mu, sigma = excluded.sigma, "
                    "matches = ratings.matches + 1, updated_at = excluded.updated_at",
                    (bot, mu, sigma, _now()),
                )
            conn.execute(
                "INSERT INTO matches VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    record.match_id,
                    record.slot,
                    record.round,
                    record.table,
                    record.seating,
                    record.deal_set,
                    str(record.seed),
                    record.rounds_played,
                    record.replay_path,
                    record.replay_sha256,
                    record.worker,
                    _now(),
                ),
            )
            conn.executemany(
                f"INSERT INTO seats ({SEAT_COLUMNS}, cv, cv_action) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    (*row, s.cv, s.cv_action)
                    for row, s in zip(
                        seat_rows(record.match_id, record.seats), record.seats, strict=True
                    )
                ],
            )
            for s, (name, version) in zip(record.seats, hello, strict=False):
                if name or version:
                    conn.execute(
                        "UPDATE bots SET hello_name = ?, version = ? WHERE name = ?",
                        (name, version, s.bot),
                    )
        return True

    def ratings(self) -> dict[str, tuple[float, float, int]]:
        """The stored ratings (a continuous ladder's): bot -> (mu, sigma, rated matches)."""
        rows = self._conn.execute("SELECT bot, mu, sigma, matches FROM ratings").fetchall()
        return {r[0]: (float(r[1]), float(r[2]), int(r[3])) for r in rows}

    def matches(self) -> list[MatchRecord]:
        """Every finished match, in schedule order."""
        seats: dict[str, list[SeatRecord]] = {}
        have = {row[1] for row in self._conn.execute("PRAGMA table_info(seats)")}
        cv = ", cv" if "cv" in have else ""
        cv += ", cv_action" if "cv" in have and "cv_action" in have else ""
        for row in self._conn.execute(
            f"SELECT {SEAT_COLUMNS}{cv} FROM seats ORDER BY match_id, seat"
        ):
            seats.setdefault(row[0], []).append(seat_record(row))
        out = []
        for row in self._conn.execute(
            "SELECT id, slot, round, table_no, seating, deal_set, seed, rounds_played, "
            "replay_path, replay_sha256, worker FROM matches ORDER BY slot"
        ):
            out.append(
                MatchRecord(
                    match_id=row[0],
                    slot=row[1],
                    round=row[2],
                    table=row[3],
                    seating=row[4],
                    deal_set=row[5],
                    seed=int(row[6]),
                    rounds_played=row[7],
                    replay_path=row[8],
                    replay_sha256=row[9],
                    worker=row[10],
                    seats=tuple(seats.get(row[0], ())),
                )
            )
        return out


def _connect(path: Path, *, create: bool) -> sqlite3.Connection:
    if not create and not path.is_file():
        raise ConfigError(f"no tournament store at {path}")
    try:
        if create:
            path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            private_file(path)
        conn = connect(path)
        if create:
            conn.executescript(_SCHEMA)
            have = {row[1] for row in conn.execute("PRAGMA table_info(bots)")}
            for column, kind in _ADDED_BOT_COLUMNS.items():
                if column not in have:
                    conn.execute(f"ALTER TABLE bots ADD COLUMN {column} {kind}")
            have = {row[1] for row in conn.execute("PRAGMA table_info(seats)")}
            if "cv" not in have:  # a store made before control variates
                conn.execute("ALTER TABLE seats ADD COLUMN cv REAL")
            if "cv_action" not in have:  # ... or before their action terms
                conn.execute("ALTER TABLE seats ADD COLUMN cv_action REAL")
            have = {row[1] for row in conn.execute("PRAGMA table_info(tournament)")}
            if "secret" not in have:  # a store of schema 1
                conn.execute("ALTER TABLE tournament ADD COLUMN secret TEXT NOT NULL DEFAULT ''")
        else:
            conn.execute("SELECT 1 FROM tournament").fetchall()
    except (sqlite3.Error, OSError) as exc:
        raise ConfigError(f"{path}: not a usable tournament store: {exc}") from None
    return conn


def open_store(path: Path) -> Store:
    """Open (creating if needed) the store at ``path`` for a tournament to write."""
    return Store(path, _connect(path, create=True))


def read_store(path: Path) -> Store:
    """Open an existing store to read standings (also while a tournament writes it)."""
    return Store(path, _connect(path, create=False))
