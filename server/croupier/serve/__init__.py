"""The long-running competition server (``croupier serve``, ``docs/server.md``): the control API,
the continuous ladder's scheduler, spectating."""

from croupier.serve._scheduler import (
    LadderConfig,
    LadderListener,
    LadderMatch,
    LadderScheduler,
    stored_ratings_agree,
)

__all__ = [
    "LadderConfig",
    "LadderListener",
    "LadderMatch",
    "LadderScheduler",
    "stored_ratings_agree",
]
