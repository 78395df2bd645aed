"""The competition server (``croupier serve``): a long-running arbiter with a control API,
registered bots, roles and keys, a store that survives restarts, and the continuous ladder's
scheduler (``docs/server.md``)."""

from croupier.serve._config import (
    DEFAULT_STATE_DIR,
    ServeConfig,
    TlsFiles,
    is_loopback,
    load_serve_config,
    parse_serve_config,
)
from croupier.serve._scheduler import (
    LadderBackend,
    LadderConfig,
    LadderListener,
    LadderMatch,
    LadderScheduler,
    PoolBackend,
    stored_ratings_agree,
)
from croupier.serve._server import (
    BUNDLED_PREFIX,
    ENV_OPERATOR_KEY,
    AuthError,
    BotStatus,
    Caller,
    CompetitionServer,
    MatchOrder,
    NotFoundError,
    Role,
    StateError,
    key_hash,
)

__all__ = [
    "BUNDLED_PREFIX",
    "DEFAULT_STATE_DIR",
    "ENV_OPERATOR_KEY",
    "AuthError",
    "BotStatus",
    "Caller",
    "CompetitionServer",
    "LadderBackend",
    "LadderConfig",
    "LadderListener",
    "LadderMatch",
    "LadderScheduler",
    "MatchOrder",
    "NotFoundError",
    "PoolBackend",
    "Role",
    "ServeConfig",
    "StateError",
    "TlsFiles",
    "is_loopback",
    "key_hash",
    "load_serve_config",
    "parse_serve_config",
    "stored_ratings_agree",
]
