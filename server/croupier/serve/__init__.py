"""The competition server (``croupier serve``): a long-running arbiter with a control API,
registered bots, roles and keys, a store that survives restarts, the continuous ladder's
scheduler, live spectating and the web page (``docs/server.md``)."""

from croupier.serve._auth import ENV_OPERATOR_KEY, AuthError, Caller, Role, key_hash
from croupier.serve._bots import BotStatus
from croupier.serve._config import (
    DEFAULT_STATE_DIR,
    ServeConfig,
    TlsFiles,
    load_serve_config,
    parse_serve_config,
)
from croupier.serve._config import check as check_serve_config
from croupier.serve._config import warnings as serve_config_warnings
from croupier.serve._errors import ExistsError, NotFoundError, StateError
from croupier.serve._human import HUMAN, HumanDesk, HumanSeat
from croupier.serve._matches import BUNDLED_PREFIX, HUMAN_SEAT, MatchOrder
from croupier.serve._scheduler import (
    LadderBackend,
    LadderConfig,
    LadderListener,
    LadderMatch,
    LadderScheduler,
    PoolBackend,
    stored_ratings_agree,
)
from croupier.serve._server import CompetitionServer
from croupier.serve._watch import MatchFeed, SeatPolicy, watch_match
from croupier.serve._web import ControlSpectator, Spectator, WebServer
from croupier.transport import is_loopback  # (where addresses are parsed; kept here too)

__all__ = [
    "BUNDLED_PREFIX",
    "DEFAULT_STATE_DIR",
    "ENV_OPERATOR_KEY",
    "HUMAN",
    "HUMAN_SEAT",
    "AuthError",
    "BotStatus",
    "Caller",
    "CompetitionServer",
    "ControlSpectator",
    "ExistsError",
    "HumanDesk",
    "HumanSeat",
    "LadderBackend",
    "LadderConfig",
    "LadderListener",
    "LadderMatch",
    "LadderScheduler",
    "MatchFeed",
    "MatchOrder",
    "NotFoundError",
    "PoolBackend",
    "Role",
    "SeatPolicy",
    "ServeConfig",
    "Spectator",
    "StateError",
    "TlsFiles",
    "WebServer",
    "check_serve_config",
    "is_loopback",
    "key_hash",
    "load_serve_config",
    "parse_serve_config",
    "serve_config_warnings",
    "stored_ratings_agree",
    "watch_match",
]
