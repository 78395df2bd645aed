"""The wire contract in one namespace: every message class and enum constant of the package
``croupier.v1`` (``proto.Hello``, ``proto.AsNasObservation``, ``proto.AS_NAS_MOVE_RAISE``,
``proto.REJECT_REASON_TOO_LATE``), whichever of its files defines it.

The contract is split into files (the core ``bot.proto``, one file per game, ``chips.proto`` and
``score.proto``), and protoc makes one module of each in ``croupier_proto.v1``; a bot rarely
cares which, so this module gathers them: the core's and those of every file it imports, read
from its descriptor (a new game's file, imported by ``bot.proto`` for its oneof entries, needs no
line here). The names never collide: the package ``croupier.v1`` is one protobuf namespace.
"""

import importlib as _importlib
from typing import TYPE_CHECKING as _TYPE_CHECKING
from typing import Any as _Any

from croupier_proto.v1 import bot_pb2 as _bot_pb2

if _TYPE_CHECKING:  # (the core's names, typed; a game's, gathered below, read as ``Any``)
    # ruff: noqa: F403 -- the type checker's view of the names gathered at run time
    from croupier_proto.v1.chips_pb2 import *
    from croupier_proto.v1.score_pb2 import *

    from croupier_proto.v1.bot_pb2 import *  # isort: skip


def _gather() -> dict[str, _Any]:
    """The public names of ``bot_pb2`` and of every module of the package it imports (at any
    depth), the core's last (its ``DESCRIPTOR`` is the one kept)."""
    names: dict[str, _Any] = {}
    seen: set[str] = set()
    files = list(_bot_pb2.DESCRIPTOR.dependencies)
    while files:
        file = files.pop()
        if file.package != "croupier.v1" or file.name in seen:
            continue
        seen.add(file.name)
        files.extend(file.dependencies)
        stem = file.name.rpartition("/")[2].removesuffix(".proto")
        module = _importlib.import_module(f"croupier_proto.v1.{stem}_pb2")
        names.update(_public(module))
    names.update(_public(_bot_pb2))
    return names


def _public(module: _Any) -> dict[str, _Any]:
    return {name: value for name, value in vars(module).items() if not name.startswith("_")}


globals().update(_gather())


def __getattr__(name: str) -> _Any:  # (for the type checker: a game's names are set above)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
