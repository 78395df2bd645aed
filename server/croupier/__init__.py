"""Croupier: a headless match engine for hidden-information card games.

The public surface is small: :mod:`croupier.games` (pure rules), :mod:`croupier.arbiter`
(one match), :mod:`croupier.transport` (gRPC), :mod:`croupier.replay` and the ``croupier`` command.
"""

__version__ = "0.1.0"

from croupier.v1 import PROTOCOL_VERSION

__all__ = ["PROTOCOL_VERSION", "__version__"]
