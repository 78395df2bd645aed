"""croupier_bot: write a Croupier bot in Python with one function.

::

    from croupier_bot import Decision, run

    def act(decision: Decision) -> int:
        return decision.legal_actions[0].id      # any legal id

    run(act, name="first-legal", version="1")

``run`` dials the arbiter (``CROUPIER_ADDRESS``), says hello with the seat token
(``CROUPIER_TOKEN``), answers every decision with your function's action id, and returns the
``MatchEnd`` message. Launched to stay up across matches (``CROUPIER_SESSION_TOKEN`` set), the
same ``run`` serves the session instead: each seat the arbiter hands the process is played on its
own stream with a fresh copy of the bot. The protocol itself is documented in ``docs/protocol.md``.
"""

from typing import TYPE_CHECKING, Any

from croupier_bot import proto
from croupier_bot._bot import Bot, BotError, Decision, MatchInfo, Seat, Tls
from croupier_bot._main import main, run
from croupier_bot._pipe import serve
from croupier_bot._resample import resample
from croupier_bot._seats import SessionSummary
from croupier_bot._view import GameObservationView, LegalActions, ObservationView
from croupier_proto.v1.deal import Deal, Inconsistent

#: The names that need gRPC (and asyncio), imported when first read: a bot launched with a
#: session pipe plays without either, and starts without their cost.
_ON_GRPC = {
    "BUSY_RETRY_S": "_client",
    "play": "_client",
    "play_async": "_client",
    "serve_async": "_session",
}

if TYPE_CHECKING:  # the type checker sees the names themselves (and no __getattr__, so that a
    # misspelt name imported from the package is still an error)
    from croupier_bot._client import BUSY_RETRY_S, play, play_async
    from croupier_bot._session import serve_async
else:

    def __getattr__(name: str) -> Any:
        module = _ON_GRPC.get(name)
        if module is None:
            raise AttributeError(f"module 'croupier_bot' has no attribute {name!r}")
        import importlib

        value = getattr(importlib.import_module(f"croupier_bot.{module}"), name)
        globals()[name] = value
        return value

    def __dir__() -> list[str]:
        return sorted(set(globals()) | set(_ON_GRPC))


__all__ = [
    "BUSY_RETRY_S",
    "Bot",
    "BotError",
    "Deal",
    "Decision",
    "GameObservationView",
    "Inconsistent",
    "LegalActions",
    "MatchInfo",
    "ObservationView",
    "Seat",
    "SessionSummary",
    "Tls",
    "main",
    "play",
    "play_async",
    "proto",
    "resample",
    "run",
    "serve",
    "serve_async",
]
