"""The competition server's store: one SQLite file (WAL) holding what ``croupier serve`` must
keep across restarts (``docs/server.md``, "What survives a restart").

Schema::

    server_meta      key -> value: the schema version, and the secret key the ladder's seeds
                     derive from (hex, drawn at the first start; the file is mode 0600)
    registered_bots  name, owner, SHA-256 of its key (never the key), when registered, the
                     version string of its last SessionHello, the games it plays (comma-separated;
                     empty: every game), whether it is disabled, when its key was revoked (0: not)
    server_matches   id, game, parameters (JSON), seed (decimal text), state, tournament, bots
                     by seat (JSON),
                     created/started/ended (Unix ms), rounds and decisions played, replay path and
                     SHA-256, why it ended when it did not finish (cancel reason, abort)
    server_seats     per finished match and seat: bot, score (exact fraction as text), place,
                     outcome, timeouts, rejected replies

A match's life is pending -> running -> finished | cancelled | aborted, and every change is a
conditional update (``WHERE state IN (pending, running)``): a match that has ended never changes
again, so a finished match is counted once however often its commit is retried. A finished match
is written in one transaction (state, counts, replay hash and every seat) after its replay is on
disk (the replay writer fsyncs it at close). At start, the server first finishes the
tournament matches left open here that their tournament's store has committed
(:meth:`ServerStore.unfinished`, then :meth:`ServerStore.finish_match`); then
:meth:`ServerStore.abort_unfinished` marks whatever is still pending or running as aborted, in
one transaction.

Schema 2 added ``registered_bots.games``, ``disabled`` and ``revoked_ms``; a schema 1 store gets
them when it is opened (:func:`open_server_store`), with the defaults that keep its bots as they
were: every game, enabled, their keys valid.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from croupier.arbiter import new_secret
from croupier.errors import ConfigError, StoreError
from croupier.ladder import (
    SEAT_COLUMNS,
    MatchRecord,
    SeatRecord,
    SQLiteStore,
    private_file,
    seat_record,
    seat_rows,
)
from croupier.ladder import connect_sqlite as connect

#: 1: seeds in an INTEGER column; 2: seeds as decimal text (128-bit), the server's secret key
#: (``server_meta`` ``secret``) that its ladder's seeds derive from, and the registered bots'
#: games, disabled and revoked state.
SERVER_SCHEMA_VERSION = 2

#: The states of a match, as stored (``control.proto``'s ``MatchState`` without its prefix).
PENDING, RUNNING, FINISHED, CANCELLED, ABORTED = (
    "pending",
    "running",
    "finished",
    "cancelled",
    "aborted",
)
STATES = (PENDING, RUNNING, FINISHED, CANCELLED, ABORTED)
_OPEN = (PENDING, RUNNING)

_INDEX = (
    "CREATE INDEX IF NOT EXISTS server_matches_by_time ON server_matches (created_ms DESC, id DESC)"
)
_MATCHES = """
CREATE TABLE IF NOT EXISTS {name} (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    params_json TEXT NOT NULL,
    seed TEXT NOT NULL,
    state TEXT NOT NULL,
    tournament TEXT NOT NULL,
    bots_json TEXT NOT NULL,
    created_ms INTEGER NOT NULL,
    started_ms INTEGER NOT NULL DEFAULT 0,
    ended_ms INTEGER NOT NULL DEFAULT 0,
    rounds INTEGER NOT NULL DEFAULT 0,
    decisions INTEGER NOT NULL DEFAULT 0,
    replay_path TEXT NOT NULL DEFAULT '',
    replay_sha256 TEXT NOT NULL DEFAULT '',
    detail TEXT NOT NULL DEFAULT '',
    deal_set TEXT NOT NULL DEFAULT ''
);
"""

_SCHEMA = """
CREATE TABLE IF NOT EXISTS server_meta (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS registered_bots (
    name TEXT PRIMARY KEY,
    owner TEXT NOT NULL,
    key_sha256 TEXT NOT NULL UNIQUE,
    created_ms INTEGER NOT NULL,
    bot_version TEXT NOT NULL DEFAULT '',
    games TEXT NOT NULL DEFAULT '',
    disabled INTEGER NOT NULL DEFAULT 0,
    revoked_ms INTEGER NOT NULL DEFAULT 0
);
{matches}{index};
CREATE TABLE IF NOT EXISTS server_seats (
    match_id TEXT NOT NULL REFERENCES server_matches (id),
    seat INTEGER NOT NULL,
    bot TEXT NOT NULL,
    score TEXT NOT NULL,
    place INTEGER NOT NULL,
    outcome TEXT NOT NULL,
    timeouts INTEGER NOT NULL,
    rejected INTEGER NOT NULL,
    PRIMARY KEY (match_id, seat)
);
""".format(matches=_MATCHES.format(name="server_matches"), index=_INDEX)
#: Columns added to ``registered_bots`` since schema 1, with their definitions (see
#: :func:`_migrate`).
_ADDED_BOT_COLUMNS = (
    ("games", "TEXT NOT NULL DEFAULT ''"),
    ("disabled", "INTEGER NOT NULL DEFAULT 0"),
    ("revoked_ms", "INTEGER NOT NULL DEFAULT 0"),
)
_BOT_COLUMNS = "name, owner, key_sha256, created_ms, bot_version, games, disabled, revoked_ms"


def now_ms() -> int:
    return time.time_ns() // 1_000_000


@dataclass(frozen=True, slots=True)
class RegisteredBot:
    """A bot registered on the server (its key is known only by its hash). ``games``: the games
    it plays, sorted (empty: every game); ``disabled``: not seated, its key opens no session;
    ``revoked_ms``: when its key was revoked (0: it has a valid key; a revoked bot's
    ``key_sha256`` is that of a key nobody holds)."""

    name: str
    owner: str
    key_sha256: str
    created_ms: int
    bot_version: str
    games: tuple[str, ...] = ()
    disabled: bool = False
    revoked_ms: int = 0

    def plays(self, game: str) -> bool:
        """Whether the bot plays ``game`` (it declared it, or declared none: every game)."""
        return not self.games or game in self.games


def _bot(row: Sequence[Any]) -> RegisteredBot:
    name, owner, key, created, version, games, disabled, revoked = row
    return RegisteredBot(
        name,
        owner,
        key,
        created,
        version,
        tuple(g for g in str(games).split(",") if g),
        bool(disabled),
        int(revoked),
    )


@dataclass(frozen=True, slots=True)
class ServerMatch:
    """A match as the server's store holds it, in any state."""

    match_id: str
    game: str
    params: dict[str, int]
    seed: int
    state: str
    tournament: str
    bots: tuple[str, ...]
    created_ms: int
    started_ms: int = 0
    ended_ms: int = 0
    rounds: int = 0
    decisions: int = 0
    replay_path: str = ""
    replay_sha256: str = ""
    detail: str = ""
    deal_set: str = ""
    seats: tuple[SeatRecord, ...] = ()

    def record(self) -> MatchRecord:
        """The finished match as the ladder's statistics take it."""
        return MatchRecord(
            match_id=self.match_id,
            slot=0,
            round=0,
            table=0,
            seating=0,
            deal_set=self.deal_set,
            seed=self.seed,
            rounds_played=self.rounds,
            replay_path=self.replay_path,
            replay_sha256=self.replay_sha256,
            worker="serve",
            seats=self.seats,
        )


_MATCH_COLUMNS = (
    "id, game, params_json, seed, state, tournament, bots_json, created_ms, started_ms, "
    "ended_ms, rounds, decisions, replay_path, replay_sha256, detail, deal_set"
)


class ServerStore(SQLiteStore):
    """The open server store. Use :func:`open_server_store`."""

    def __init__(self, path: Path, conn: sqlite3.Connection) -> None:
        super().__init__(path, conn)
        self._grouped = False
        #: Inside group(): why its transaction is gone, once SQLite has rolled it back.
        self._lost: StoreError | None = None

    @property
    def group_lost(self) -> StoreError | None:
        """Inside :meth:`group`, once SQLite has rolled its whole transaction back (on
        SQLITE_FULL, SQLITE_IOERR, SQLITE_NOMEM, some SQLITE_BUSY): the error every write of
        the group gets. Every write made in the group before it is undone; every write
        after it raises it, without touching the file."""
        return self._lost

    @contextmanager
    def group(self) -> Iterator[None]:
        """Run the writes made inside as one transaction: one commit (one fsync) for them all.
        Each write's own transaction becomes a savepoint, so a write that fails is undone alone
        and the others are committed; if the commit itself fails, none is. If SQLite rolls the
        whole transaction back (:attr:`group_lost`), the group fails as a whole: it raises
        that :class:`StoreError` at its end, and nothing after it was written, not even in
        autocommit."""
        conn = self._conn
        conn.execute("BEGIN IMMEDIATE")
        self._grouped, self._lost = True, None
        try:
            yield
            if self._lost is not None:
                raise self._lost
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:  # (a failed COMMIT may have ended it already)
                with suppress(sqlite3.Error):
                    conn.execute("ROLLBACK")
            raise
        finally:
            self._grouped, self._lost = False, None

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        if not self._grouped:  # a transaction of its own (SQLiteStore's)
            with super()._transaction() as conn:
                yield conn
            return
        conn = self._conn  # one write of a group (see group())
        if self._lost is None and not conn.in_transaction:
            self._lose("the transaction ended outside a write")
        if self._lost is not None:  # a SAVEPOINT now would start a transaction of its own
            raise self._lost
        conn.execute("SAVEPOINT write")
        try:
            yield conn
        except BaseException as exc:
            if not conn.in_transaction:  # SQLite rolled the whole group back
                raise self._lose(str(exc)) from exc
            conn.execute("ROLLBACK TO write")
            conn.execute("RELEASE write")
            raise
        if not conn.in_transaction:  # (a write that caught SQLite's error itself)
            raise self._lose("the transaction ended inside a write")
        conn.execute("RELEASE write")

    def _lose(self, why: str) -> StoreError:
        self._lost = StoreError(
            f"{self.path}: {why}: SQLite rolled back the transaction, so none of the writes "
            "committed with it is stored"
        )
        return self._lost

    # -- the secret ------------------------------------------------------------------------------

    def secret(self) -> bytes:
        """The server's secret key (every ladder seed derives from it): drawn from the operating
        system at the first call and kept in the store, so a restart deals on from the same."""
        with self._transaction() as conn:
            row = conn.execute("SELECT value FROM server_meta WHERE key = 'secret'").fetchone()
            if row is not None:
                return bytes.fromhex(row[0])
            secret = new_secret()
            conn.execute("INSERT INTO server_meta VALUES ('secret', ?)", (secret.hex(),))
        return secret

    # -- registered bots --------------------------------------------------------------------------

    def register_bot(
        self, name: str, owner: str, key_sha256: str, games: Sequence[str] = ()
    ) -> RegisteredBot:
        """Add a bot that plays ``games`` (empty: every game); :class:`ConfigError` if the name
        is taken."""
        created = now_ms()
        with self._transaction() as conn:
            if conn.execute("SELECT 1 FROM registered_bots WHERE name = ?", (name,)).fetchone():
                raise ConfigError(f"a bot named {name!r} is already registered")
            conn.execute(
                "INSERT INTO registered_bots (name, owner, key_sha256, created_ms, games) "
                "VALUES (?, ?, ?, ?, ?)",
                (name, owner, key_sha256, created, ",".join(sorted(set(games)))),
            )
        return self._bot(name)

    def registered_bots(self) -> list[RegisteredBot]:
        rows = self._conn.execute(
            f"SELECT {_BOT_COLUMNS} FROM registered_bots ORDER BY name"
        ).fetchall()
        return [_bot(r) for r in rows]

    def _bot(self, name: str) -> RegisteredBot:
        row = self._conn.execute(
            f"SELECT {_BOT_COLUMNS} FROM registered_bots WHERE name = ?", (name,)
        ).fetchone()
        if row is None:
            raise ConfigError(f"no registered bot named {name!r}")
        return _bot(row)

    def _update_bot(self, name: str, assignments: str, args: Sequence[Any]) -> RegisteredBot:
        with self._transaction() as conn:
            cur = conn.execute(
                f"UPDATE registered_bots SET {assignments} WHERE name = ?", (*args, name)
            )
            if cur.rowcount != 1:
                raise ConfigError(f"no registered bot named {name!r}")
        return self._bot(name)

    def set_bot_key(self, name: str, key_sha256: str) -> RegisteredBot:
        """Give the bot a new key (by its hash): the old one is forgotten; a revoked bot has a
        key again."""
        return self._update_bot(name, "key_sha256 = ?, revoked_ms = 0", (key_sha256,))

    def revoke_bot_key(self, name: str, nobody_sha256: str, when_ms: int) -> RegisteredBot:
        """Revoke the bot's key: its hash is replaced by ``nobody_sha256`` (that of a key
        nobody holds), so the old key is never accepted again, and ``revoked_ms`` is set."""
        return self._update_bot(
            name, "key_sha256 = ?, revoked_ms = ?", (nobody_sha256, max(1, when_ms))
        )

    def set_bot_disabled(self, name: str, disabled: bool) -> RegisteredBot:
        return self._update_bot(name, "disabled = ?", (int(disabled),))

    def set_bot_games(self, name: str, games: Sequence[str]) -> RegisteredBot:
        """The games the bot plays from now on (empty: every game)."""
        return self._update_bot(name, "games = ?", (",".join(sorted(set(games))),))

    def set_bot_version(self, name: str, version: str) -> None:
        with self._transaction() as conn:
            conn.execute(
                "UPDATE registered_bots SET bot_version = ? WHERE name = ?", (version, name)
            )

    # -- matches ----------------------------------------------------------------------------------

    def create_match(self, match: ServerMatch) -> bool:
        """Record a new pending match; ``False`` (nothing written) if its id is known already."""
        return self.create_matches((match,)) is None

    def create_matches(self, matches: Sequence[ServerMatch]) -> str | None:
        """Record new pending matches, all in one transaction (one commit to disk however many
        there are); if one of their ids is known already, write none and return that id."""
        ids = [m.match_id for m in matches]
        with self._transaction() as conn:
            for start in range(0, len(ids), 500):
                chunk = ids[start : start + 500]
                marks = ", ".join("?" * len(chunk))
                row = conn.execute(
                    f"SELECT id FROM server_matches WHERE id IN ({marks}) LIMIT 1", chunk
                ).fetchone()
                if row is not None:
                    return str(row[0])
            conn.executemany(
                f"INSERT INTO server_matches ({_MATCH_COLUMNS}) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [_match_row(m) for m in matches],
            )
        return None

    def mark_running(self, match_id: str, started_ms: int) -> bool:
        with self._transaction() as conn:
            cur = conn.execute(
                "UPDATE server_matches SET state = ?, started_ms = ? WHERE id = ? AND state = ?",
                (RUNNING, started_ms, match_id, PENDING),
            )
        return cur.rowcount == 1

    def finish_match(
        self,
        match_id: str,
        *,
        ended_ms: int,
        rounds: int,
        decisions: int,
        replay_path: str,
        replay_sha256: str,
        seats: Sequence[SeatRecord],
    ) -> bool:
        """Record a match as finished with its seats, in one transaction; ``False`` (nothing
        written) unless it was pending or running: a match is never finished twice."""
        with self._transaction() as conn:
            cur = conn.execute(
                "UPDATE server_matches SET state = ?, ended_ms = ?, rounds = ?, decisions = ?, "
                "replay_path = ?, replay_sha256 = ? WHERE id = ? AND state IN (?, ?)",
                (
                    FINISHED,
                    ended_ms,
                    rounds,
                    decisions,
                    replay_path,
                    replay_sha256,
                    match_id,
                    *_OPEN,
                ),
            )
            if cur.rowcount != 1:
                return False
            conn.executemany(
                "INSERT INTO server_seats VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                seat_rows(match_id, seats),
            )
        return True

    def end_match(
        self,
        match_id: str,
        state: str,
        *,
        ended_ms: int,
        detail: str,
        rounds: int = 0,
        decisions: int = 0,
        replay_path: str = "",
        replay_sha256: str = "",
    ) -> bool:
        """Record a match as cancelled or aborted (not rated); ``False`` if it had ended."""
        if state not in (CANCELLED, ABORTED):
            raise ValueError(state)
        with self._transaction() as conn:
            cur = conn.execute(
                "UPDATE server_matches SET state = ?, ended_ms = ?, detail = ?, rounds = ?, "
                "decisions = ?, replay_path = ?, replay_sha256 = ? "
                "WHERE id = ? AND state IN (?, ?)",
                (
                    state,
                    ended_ms,
                    detail,
                    rounds,
                    decisions,
                    replay_path,
                    replay_sha256,
                    match_id,
                    *_OPEN,
                ),
            )
        return cur.rowcount == 1

    def unfinished(self) -> list[ServerMatch]:
        """Every pending or running match (at start: what a stopped or killed server left)."""
        return self._rows("WHERE state IN (?, ?)", _OPEN, "ORDER BY created_ms, id")

    def abort_unfinished(self, detail: str) -> list[str]:
        """Mark every pending or running match aborted (a server start after a stop or a
        crash); return their ids."""
        with self._transaction() as conn:
            ids = [
                r[0]
                for r in conn.execute(
                    "SELECT id FROM server_matches WHERE state IN (?, ?)", _OPEN
                ).fetchall()
            ]
            conn.execute(
                "UPDATE server_matches SET state = ?, ended_ms = ?, detail = ? "
                "WHERE state IN (?, ?)",
                (ABORTED, now_ms(), detail, *_OPEN),
            )
        return ids

    def _seats(self, ids: Sequence[str]) -> dict[str, list[SeatRecord]]:
        out: dict[str, list[SeatRecord]] = {}
        for start in range(0, len(ids), 500):
            chunk = ids[start : start + 500]
            marks = ", ".join("?" * len(chunk))
            for row in self._conn.execute(
                f"SELECT {SEAT_COLUMNS} FROM server_seats WHERE match_id IN ({marks}) "
                "ORDER BY match_id, seat",
                chunk,
            ):
                out.setdefault(row[0], []).append(seat_record(row))
        return out

    def _rows(self, where: str, args: Sequence[Any], tail: str) -> list[ServerMatch]:
        rows = self._conn.execute(
            f"SELECT {_MATCH_COLUMNS} FROM server_matches {where} {tail}", args
        ).fetchall()
        seats = self._seats([r[0] for r in rows if r[4] == FINISHED])
        return [
            ServerMatch(
                match_id=r[0],
                game=r[1],
                params=json.loads(r[2]),
                seed=int(r[3]),
                state=r[4],
                tournament=r[5],
                bots=tuple(json.loads(r[6])),
                created_ms=r[7],
                started_ms=r[8],
                ended_ms=r[9],
                rounds=r[10],
                decisions=r[11],
                replay_path=r[12],
                replay_sha256=r[13],
                detail=r[14],
                deal_set=r[15],
                seats=tuple(seats.get(r[0], ())),
            )
            for r in rows
        ]

    def get_match(self, match_id: str) -> ServerMatch | None:
        rows = self._rows("WHERE id = ?", (match_id,), "")
        return rows[0] if rows else None

    def list_matches(
        self, state: str | None = None, limit: int = 100, after: tuple[int, str] | None = None
    ) -> list[ServerMatch]:
        """Matches newest first (by creation time, then id), at most ``limit``, only those in
        ``state`` if given, only those older than ``after`` (a page's last (created_ms, id))."""
        clauses: list[str] = []
        args: list[Any] = []
        if state is not None:
            clauses.append("state = ?")
            args.append(state)
        if after is not None:
            clauses.append("(created_ms < ? OR (created_ms = ? AND id < ?))")
            args.extend([after[0], after[0], after[1]])
        where = f"WHERE {' AND '.join(clauses)}" if clauses else ""
        return self._rows(where, args, f"ORDER BY created_ms DESC, id DESC LIMIT {int(limit)}")

    def finished(self, tournament: str = "", game: str | None = None) -> list[ServerMatch]:
        """The finished matches of ``tournament`` (``""``: the continuous ladder and one-off
        matches), in the order they finished: the order ratings are computed in."""
        where, args = "WHERE state = ? AND tournament = ?", [FINISHED, tournament]
        if game is not None:
            where += " AND game = ?"
            args.append(game)
        return self._rows(where, args, "ORDER BY ended_ms, id")

    def matches_where(self, where: str, args: Sequence[Any], tail: str) -> list[ServerMatch]:
        """The matches a ``WHERE`` clause of ``server_matches`` selects (``args`` its
        parameters), ordered and limited by ``tail``, each with its seats if finished: for the
        web page's reads (``serve/_pages.py``)."""
        return self._rows(where, args, tail)

    def read_sql(self, sql: str, args: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        """The rows of one read-only query (a ``SELECT``) on this connection."""
        if not sql.lstrip().upper().startswith("SELECT"):
            raise ValueError("read_sql runs a SELECT only")
        return [tuple(r) for r in self._conn.execute(sql, args).fetchall()]

    def counts(self) -> dict[str, int]:
        """How many matches are in each state."""
        out = dict.fromkeys(STATES, 0)
        for state, n in self._conn.execute(
            "SELECT state, COUNT(*) FROM server_matches GROUP BY state"
        ):
            out[state] = n
        return out


def _match_row(match: ServerMatch) -> tuple[Any, ...]:
    """A new pending match's ``server_matches`` row."""
    return (
        match.match_id,
        match.game,
        json.dumps(match.params, sort_keys=True),
        str(match.seed),
        PENDING,
        match.tournament,
        json.dumps(list(match.bots)),
        match.created_ms,
        0,
        0,
        0,
        0,
        "",
        "",
        "",
        match.deal_set,
    )


def _migrate(conn: sqlite3.Connection) -> None:
    """Bring an older store's schema up to this one's: a seed column of schema 1 becomes text
    (:func:`_seeds_as_text`, a transaction of its own), then, in one transaction, the columns
    added since and the schema version. Each step looks at what the tables lack, so a half-done
    or repeated migration is harmless."""
    seed = [r[2] for r in conn.execute("PRAGMA table_info(server_matches)") if r[1] == "seed"]
    if seed == ["INTEGER"]:  # schema 1
        _seeds_as_text(conn)
    row = conn.execute("SELECT value FROM server_meta WHERE key = 'schema_version'").fetchone()
    if row is not None and int(row[0]) == SERVER_SCHEMA_VERSION:
        return
    conn.execute("BEGIN IMMEDIATE")
    try:
        have = {r[1] for r in conn.execute("PRAGMA table_info(registered_bots)")}
        for column, definition in _ADDED_BOT_COLUMNS:
            if column not in have:
                conn.execute(f"ALTER TABLE registered_bots ADD COLUMN {column} {definition}")
        conn.execute(
            "INSERT INTO server_meta VALUES ('schema_version', ?) "
            "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            (str(SERVER_SCHEMA_VERSION),),
        )
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise


def open_server_store(path: Path) -> ServerStore:
    """Open (creating if needed) the server store at ``path``; :class:`ConfigError` in one line
    if it cannot be used."""
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        private_file(path)
        conn = connect(path, check_same_thread=False)
        conn.executescript(_SCHEMA)
        row = conn.execute("SELECT value FROM server_meta WHERE key = 'schema_version'").fetchone()
        if row is not None and int(row[0]) > SERVER_SCHEMA_VERSION:
            conn.close()
            raise ConfigError(
                f"{path}: made by a newer croupier (server schema {row[0]}; this one reads "
                f"{SERVER_SCHEMA_VERSION})"
            )
        _migrate(conn)
    except (sqlite3.Error, OSError, ValueError) as exc:
        raise ConfigError(f"{path}: not a usable server store: {exc}") from None
    return ServerStore(path, conn)


def _seeds_as_text(conn: sqlite3.Connection) -> None:
    """Schema 1 -> 2, first step: ``server_matches.seed`` becomes TEXT (a 128-bit seed fits no
    SQLite integer, and text in an INTEGER column would be read back as a rounded REAL). SQLite
    cannot change a column's type, so the table is rebuilt, in one transaction, with foreign keys
    off meanwhile (SQLite's own recipe; ``server_seats`` refers to it by name)."""
    conn.execute("PRAGMA foreign_keys = OFF")
    try:
        conn.execute("BEGIN IMMEDIATE")
        try:
            conn.execute(_MATCHES.format(name="server_matches_v2"))
            conn.execute(
                f"INSERT INTO server_matches_v2 ({_MATCH_COLUMNS}) SELECT "
                + _MATCH_COLUMNS.replace("seed,", "CAST(seed AS TEXT),", 1)
                + " FROM server_matches"
            )
            conn.execute("DROP TABLE server_matches")
            conn.execute("ALTER TABLE server_matches_v2 RENAME TO server_matches")
            conn.execute(_INDEX)
            if conn.execute("PRAGMA foreign_key_check").fetchone() is not None:
                raise sqlite3.IntegrityError("a seat refers to no match")
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
    finally:
        conn.execute("PRAGMA foreign_keys = ON")
