"""The one exception tree of Croupier.

::

    CroupierError                 base of everything raised on purpose
    ├── ConfigError               bad user input: arguments, parameters, unknown game, bot command
    ├── GameError                 raised by the rules (``croupier.games``)
    │   └── IllegalActionError    an action or chance outcome that is not legal in this state
    ├── BotLaunchError            a bot process could not be started
    ├── ClaimError                a connection may not take a seat (taken, closed, match over)
    ├── ExecutorError             a tournament's executor could not play a match (Ray, workers)
    ├── PermissionDeniedError     the caller's role does not allow this (another seat's view)
    ├── StoreError                a store's write was not committed (disk full, I/O error)
    └── ReplayError               anything about a replay file
        ├── ReplayFormatError     the file is not a readable replay (corrupt line, missing header)
        ├── ReplayMismatchError   re-simulation disagrees with what the file records
        └── ReplayWriteError      the replay could not be written (disk full...): the match stops

Lower-layer errors (``OSError``, ``json.JSONDecodeError``, ``grpc.RpcError``) are translated into
these at the layer boundary, so the CLI can print one clear line for any of them.
"""

from __future__ import annotations

import enum


class CroupierError(Exception):
    """Base class of every error Croupier raises on purpose."""


class ConfigError(CroupierError):
    """Bad user input: arguments, match parameters, unknown game, missing bot command."""


class GameError(CroupierError):
    """An error raised by a rules module."""


class IllegalActionError(GameError):
    """An action (or chance outcome) that is not legal in the given state."""


class BotLaunchError(CroupierError):
    """A bot process could not be started."""


class ClaimError(CroupierError):
    """A connection may not take this seat; ``kind`` says why (the transport maps each kind to
    a gRPC status and a stable reason)."""

    class Kind(enum.Enum):
        SEAT_TAKEN = "seat_taken"
        SEAT_CLOSED = "seat_closed"
        MATCH_OVER = "match_over"

    def __init__(self, kind: ClaimError.Kind, message: str) -> None:
        super().__init__(message)
        self.kind = kind


class ExecutorError(CroupierError):
    """A tournament executor could not play a match: Ray could not start here, could not be
    reached, runs another version, or a task failed on every retry. The command exits with
    :attr:`status` (3), apart from the user errors' 2 (``docs/ladder.md``, "Executors")."""

    status = 3


class PermissionDeniedError(CroupierError):
    """The caller's credentials do not allow what it asked (e.g. a seat's view that is not its
    own); the control API answers PERMISSION_DENIED."""


class StoreError(CroupierError):
    """A write of a store was not committed: SQLite failed (disk full, I/O error, out of
    memory) or the store's writer has stopped. Nothing of that write is on disk."""


class ReplayError(CroupierError):
    """Base class of replay problems."""


class ReplayFormatError(ReplayError):
    """The file is not a readable replay; ``line`` is the 1-based line at fault, if known."""

    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(message if line is None else f"line {line}: {message}")
        self.line = line


class ReplayMismatchError(ReplayError):
    """Re-simulation disagrees with the replay at ``line`` (1-based)."""

    def __init__(self, message: str, line: int) -> None:
        super().__init__(f"line {line}: {message}")
        self.line = line


class ReplayWriteError(ReplayError):
    """Writing the replay failed (disk full, I/O error); the file holds what was written."""
