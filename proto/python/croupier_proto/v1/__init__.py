"""Package ``croupier.v1`` of the wire contract: generated modules and the protocol version.

The ``*_pb2*`` modules beside this file are written by ``python proto/generate.py`` (never by
hand), with protoc's absolute imports (``from croupier.v1 import ...``) made relative, so this
package works under its own name. Two are written by hand, readers of these messages that the
arbiter and the Python SDK share: the module ``stdio``, the stdio protocol's lines as these
messages (both stdio bridges), and the package ``deal``, a deal and hidden moves consistent
with a seat's ``Observation`` (each game's ``resample`` and ``croupier_bot.resample``).
"""

#: Version of the bot protocol (``croupier.v1``): what ``Hello`` and ``Welcome`` carry. Bumped
#: only for a change in what a bot receives or must send (CHANGELOG.md, "Protocol versions").
PROTOCOL_VERSION = 3
