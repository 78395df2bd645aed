"""The wire contract as the server imports it: ``croupier.v1`` is another name for the stubs
package ``croupier_proto.v1`` (``proto/python``), the same module objects under the name of the
proto package (each imported when it is first read), so ``from croupier.v1 import bot_pb2``
reads as the ``.proto`` does; ``stdio`` is the stubs package's hand-written mapping of the stdio
protocol's lines to these messages.

Bots and SDKs import ``croupier_proto.v1`` itself: it is a distribution of its own and needs
nothing of the server.
"""

import importlib
import os
import sys
from typing import TYPE_CHECKING, Any

import croupier_proto.v1
from croupier_proto.v1 import PROTOCOL_VERSION

if TYPE_CHECKING:  # (the core's modules, typed; a game's, ``<game>_pb2``, reads as ``Any``)
    from croupier_proto.v1 import bot_pb2 as bot_pb2
    from croupier_proto.v1 import bot_pb2_grpc as bot_pb2_grpc
    from croupier_proto.v1 import chips_pb2 as chips_pb2
    from croupier_proto.v1 import control_pb2 as control_pb2
    from croupier_proto.v1 import control_pb2_grpc as control_pb2_grpc
    from croupier_proto.v1 import score_pb2 as score_pb2
    from croupier_proto.v1 import stdio as stdio

#: The stubs package's modules, each imported when first read: a game's codec imports its own
#: messages and the core's, never the gRPC services (which import grpc). Found on disk (listed,
#: not imported), so a new game's generated ``<game>_pb2`` needs no line here.
_MODULES = frozenset(
    name.removesuffix(".py")
    for folder in croupier_proto.v1.__path__
    for name in os.listdir(folder)
    if name.endswith(".py") and not name.startswith("_")
)


def __getattr__(name: str) -> Any:
    if name not in _MODULES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    module = importlib.import_module(f"croupier_proto.v1.{name}")
    setattr(sys.modules[__name__], name, module)
    return module


def __dir__() -> list[str]:
    return sorted({*globals(), *_MODULES})


__all__ = ["PROTOCOL_VERSION", *sorted(_MODULES)]
