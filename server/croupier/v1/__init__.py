"""The wire contract as the server imports it: ``croupier.v1`` is another name for the stubs
package ``croupier_proto.v1`` (``proto/python``), the same module objects under the name of the
proto package, so ``from croupier.v1 import bot_pb2`` reads as the ``.proto`` does; ``stdio``
is the stubs package's hand-written mapping of the stdio protocol's lines to these messages.

Bots and SDKs import ``croupier_proto.v1`` itself: it is a distribution of its own and needs
nothing of the server.
"""

from croupier_proto.v1 import (
    PROTOCOL_VERSION,
    as_nas_pb2,
    bot_pb2,
    bot_pb2_grpc,
    chips_pb2,
    control_pb2,
    control_pb2_grpc,
    felduz_pb2,
    fipsen_pb2,
    scauver_pb2,
    score_pb2,
    stdio,
)

__all__ = [
    "PROTOCOL_VERSION",
    "as_nas_pb2",
    "bot_pb2",
    "bot_pb2_grpc",
    "chips_pb2",
    "control_pb2",
    "control_pb2_grpc",
    "felduz_pb2",
    "fipsen_pb2",
    "scauver_pb2",
    "score_pb2",
    "stdio",
]
