"""The wire contract as the server imports it: ``croupier.v1`` is another name for the stubs
package ``croupier_proto.v1`` (``proto/python``), the same module objects under the name of the
proto package (each imported when it is first read), so ``from croupier.v1 import bot_pb2``
reads as the ``.proto`` does; ``stdio`` is the stubs package's hand-written mapping of the stdio
protocol's lines to these messages.

Bots and SDKs import ``croupier_proto.v1`` itself: it is a distribution of its own and needs
nothing of the server.
"""

import importlib
import sys
from typing import TYPE_CHECKING

from croupier_proto.v1 import PROTOCOL_VERSION

if TYPE_CHECKING:
    from croupier_proto.v1 import (
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

#: The stubs package's modules, each imported when first read: a game's codec imports its own
#: messages and the core's, never the gRPC services (which import grpc).
_MODULES = frozenset({
    "as_nas_pb2", "bot_pb2", "bot_pb2_grpc", "chips_pb2", "control_pb2", "control_pb2_grpc",
    "felduz_pb2", "fipsen_pb2", "scauver_pb2", "score_pb2", "stdio",
})  # fmt: skip


def __getattr__(name: str) -> object:
    if name not in _MODULES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    module = importlib.import_module(f"croupier_proto.v1.{name}")
    setattr(sys.modules[__name__], name, module)
    return module


def __dir__() -> list[str]:
    return sorted({*globals(), *_MODULES})


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
