"""Package ``croupier.v1`` of the wire contract: generated modules and the protocol version.

The ``*_pb2*`` modules beside this file are written by ``python proto/generate.py`` (never by
hand), with protoc's absolute imports (``from croupier.v1 import ...``) made relative, so this
package works under its own name. One module is written by hand: ``stdio``, the stdio
protocol's lines as these messages (what the arbiter's stdio bridge and the Python SDK's share).
"""

#: Version of the bot protocol (``croupier.v1``): what ``Hello`` and ``Welcome`` carry. Bumped
#: only for a change in what a bot receives or must send (CHANGELOG.md, "Protocol versions").
PROTOCOL_VERSION = 3
