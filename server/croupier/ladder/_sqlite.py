"""What the two SQLite stores share: how a store file is opened, and the explicit transaction.

Both the tournament store (:mod:`croupier.ladder._store`) and the competition server's store
(:mod:`croupier.serve._store`) are one SQLite file each, opened the same way: autocommit
mode (every transaction is an explicit ``BEGIN IMMEDIATE ... COMMIT``, so a writer takes the
write lock before it reads what it will change), WAL (readers go on while a writer writes),
``synchronous = FULL`` (a commit survives a power cut, not only a kill) and foreign keys on.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

#: The mode of a store file: it holds secrets (the key every seed derives from, bots' key hashes).
FILE_MODE = 0o600


def private_file(path: Path) -> None:
    """Create ``path`` mode 0600 if it is missing, or make it 0600, with the ``-wal`` and
    ``-shm`` files SQLite keeps beside it (which it creates with the main file's mode)."""
    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, FILE_MODE)
    try:
        os.fchmod(fd, FILE_MODE)
    finally:
        os.close(fd)
    for suffix in ("-wal", "-shm"):
        with suppress(FileNotFoundError):
            os.chmod(f"{path}{suffix}", FILE_MODE)


#: How long a connection waits for another one's write lock before it fails (seconds).
BUSY_TIMEOUT_S = 30.0


def connect(path: Path, *, check_same_thread: bool = True) -> sqlite3.Connection:
    """Open the SQLite file at ``path`` as every store does (see the module docstring); raises
    what :mod:`sqlite3` raises, for the caller to say in its own words."""
    # autocommit mode; transactions are explicit (BEGIN IMMEDIATE ... COMMIT)
    conn = sqlite3.connect(
        path, isolation_level=None, timeout=BUSY_TIMEOUT_S, check_same_thread=check_same_thread
    )
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA synchronous = FULL")  # a commit survives a power cut, not only a kill
    conn.execute("PRAGMA foreign_keys = ON")
    return conn


class SQLiteStore:
    """An open store file: its path, its connection and the explicit transaction."""

    def __init__(self, path: Path, conn: sqlite3.Connection) -> None:
        self.path = path
        self._conn = conn

    def close(self) -> None:
        self._conn.close()

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        """``BEGIN IMMEDIATE``, then ``COMMIT`` if the block ends normally, else ``ROLLBACK``
        (whatever the block raised, a cancellation too, is raised again). On some errors
        (SQLITE_FULL, SQLITE_IOERR, SQLITE_NOMEM) SQLite has rolled the transaction back
        itself: then there is nothing left to roll back, and the error is raised as it was.
        A failed ``COMMIT`` is rolled back too, so the connection is never left inside a
        transaction."""
        conn = self._conn
        conn.execute("BEGIN IMMEDIATE")
        try:
            yield conn
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                with suppress(sqlite3.Error):  # (the error raised is the one that matters)
                    conn.execute("ROLLBACK")
            raise
