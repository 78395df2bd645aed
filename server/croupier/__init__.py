"""Croupier: a headless match engine for hidden-information card games.

The public surface is small: :mod:`croupier.games` (pure rules), :mod:`croupier.arbiter`
(one match), :mod:`croupier.transport` (gRPC), :mod:`croupier.replay` and the ``croupier`` command.
"""

__version__ = "0.1.0"

# from the stubs package itself, which holds only the constant: croupier.v1 would import every
# stub and grpc, before the CLI has told grpc to be quiet and could catch a Ctrl-C
from croupier_proto.v1 import PROTOCOL_VERSION

__all__ = ["PROTOCOL_VERSION", "__version__"]
