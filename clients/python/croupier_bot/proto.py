"""The wire contract in one namespace: every message class and enum constant of the package
``croupier.v1`` (``proto.Hello``, ``proto.AsNasObservation``, ``proto.AS_NAS_MOVE_RAISE``,
``proto.REJECT_REASON_TOO_LATE``), whichever of its files defines it.

The contract is split into files (the core ``bot.proto``, one file per game, ``chips.proto`` and
``score.proto``), and protoc makes one module of each in ``croupier_proto.v1``; a bot rarely
cares which, so this module gathers them. The names never collide: the package ``croupier.v1``
is one protobuf namespace.
"""

# ruff: noqa: F403 -- gathering the generated modules' public names is this module's purpose
from croupier_proto.v1.as_nas_pb2 import *
from croupier_proto.v1.chips_pb2 import *
from croupier_proto.v1.felduz_pb2 import *
from croupier_proto.v1.fipsen_pb2 import *
from croupier_proto.v1.scauver_pb2 import *
from croupier_proto.v1.score_pb2 import *

from croupier_proto.v1.bot_pb2 import *  # isort: skip  (last: its DESCRIPTOR is the core's)
