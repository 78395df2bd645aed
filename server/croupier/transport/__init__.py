"""Where proto types meet rules types: the codec, the gRPC servicers, bot sessions, the bot
launcher and its sandbox, and the pool of bots that stay up across matches."""

from croupier.transport._bot_dirs import check_bot_dirs, check_shown_dirs
from croupier.transport._codec import reveal_seed
from croupier.transport._launcher import (
    BUNDLED,
    ENV_ADDRESS,
    ENV_MATCH_ID,
    ENV_SEAT,
    ENV_SEED,
    ENV_SESSION_CAPACITY,
    ENV_SESSION_RECONNECT,
    ENV_SESSION_TOKEN,
    ENV_TOKEN,
    BotExit,
    BotProcess,
    SpawnedProcess,
    launch_bot,
    parse_bot_command,
    spawn,
)
from croupier.transport._local import play_local
from croupier.transport._peers import PeerLimits
from croupier.transport._pool import (
    SESSION_TIMEOUT_S,
    BotPool,
    BotStats,
    Restart,
    SeatAssigner,
)
from croupier.transport._reflection import enable_reflection
from croupier.transport._sandbox import (
    Isolation,
    Limits,
    SandboxMode,
    SandboxOptions,
    bwrap_problem,
    cgroup_problem,
    unshare_problem,
)
from croupier.transport._sandbox import default_mode as default_sandbox_mode
from croupier.transport._sandbox import inside as sandbox_inside
from croupier.transport._sandbox import isolation_of as sandbox_isolation
from croupier.transport._sandbox import private_refusal as sandbox_private_refusal
from croupier.transport._sandbox import refusal as sandbox_refusal
from croupier.transport._sandbox import warning as sandbox_warning
from croupier.transport._server import REASON_KEY, UNREQUESTED_WAIT_S, ArbiterServer, BotServicer
from croupier.transport._service import is_loopback, split_address
from croupier.transport._sessions import BotSession
from croupier.transport._stdio import PREFIX as STDIO_PREFIX
from croupier.transport._tls import TlsConfig, server_credentials, server_ssl_context

__all__ = [
    "BUNDLED",
    "ENV_ADDRESS",
    "ENV_MATCH_ID",
    "ENV_SEAT",
    "ENV_SEED",
    "ENV_SESSION_CAPACITY",
    "ENV_SESSION_RECONNECT",
    "ENV_SESSION_TOKEN",
    "ENV_TOKEN",
    "REASON_KEY",
    "SESSION_TIMEOUT_S",
    "STDIO_PREFIX",
    "UNREQUESTED_WAIT_S",
    "ArbiterServer",
    "BotExit",
    "BotPool",
    "BotProcess",
    "BotServicer",
    "BotSession",
    "BotStats",
    "Isolation",
    "Limits",
    "PeerLimits",
    "Restart",
    "SandboxMode",
    "SandboxOptions",
    "SeatAssigner",
    "SpawnedProcess",
    "TlsConfig",
    "bwrap_problem",
    "cgroup_problem",
    "check_bot_dirs",
    "check_shown_dirs",
    "default_sandbox_mode",
    "enable_reflection",
    "is_loopback",
    "launch_bot",
    "parse_bot_command",
    "play_local",
    "reveal_seed",
    "sandbox_inside",
    "sandbox_isolation",
    "sandbox_private_refusal",
    "sandbox_refusal",
    "sandbox_warning",
    "server_credentials",
    "server_ssl_context",
    "spawn",
    "split_address",
    "unshare_problem",
]
