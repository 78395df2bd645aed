"""Where proto types meet rules types: the codec, the gRPC servicers and the bot launcher."""

from croupier.transport._launcher import (
    BUNDLED,
    ENV_ADDRESS,
    ENV_MATCH_ID,
    ENV_SEAT,
    ENV_SEED,
    ENV_TOKEN,
    BotExit,
    BotProcess,
    launch_bot,
    parse_bot_command,
)
from croupier.transport._local import play_local
from croupier.transport._server import REASON_KEY, ArbiterServer, BotServicer

__all__ = [
    "BUNDLED",
    "ENV_ADDRESS",
    "ENV_MATCH_ID",
    "ENV_SEAT",
    "ENV_SEED",
    "ENV_TOKEN",
    "REASON_KEY",
    "ArbiterServer",
    "BotExit",
    "BotProcess",
    "BotServicer",
    "launch_bot",
    "parse_bot_command",
    "play_local",
]
