"""The wire contract's generated code (``bot_pb2``, ``bot_pb2_grpc``) and its version.

Bots and SDKs import this package alone: it imports nothing from the rest of ``croupier``.
"""

#: Version of the bot protocol (``croupier.v1``): what ``Hello`` and ``Welcome`` carry.
PROTOCOL_VERSION = 2
