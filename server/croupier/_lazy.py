"""Package facades that import a module when one of its names is first read (PEP 562).

:mod:`croupier.arbiter` and :mod:`croupier.replay` re-export the public names of their private
modules. Importing all of them up front made every command pay for every part: ``croupier replay
verify`` imported the match loop (asyncio, structlog) to read the replay's fault policy. A facade
built here imports ``_match`` only when ``Match`` is read, ``_types`` when ``Fault`` is, and so on;
each name, once read, is kept on the package like an ordinary import.

The package keeps its ``from ... import`` lines under ``if TYPE_CHECKING:`` for the type
checker, and gives :func:`facade` the same names (a test checks that the two agree).
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping


def facade(
    package: str, names: Mapping[str, str]
) -> tuple[Callable[[str], object], Callable[[], list[str]]]:
    """The ``__getattr__`` and ``__dir__`` of ``package``, whose public names are
    ``names``: name -> ``"_module"`` (the same name there) or ``"_module:other"``."""

    def __getattr__(name: str) -> object:
        where = names.get(name)
        if where is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        module, _, attr = where.partition(":")
        value = getattr(importlib.import_module(f"{package}.{module}"), attr or name)
        setattr(sys.modules[package], name, value)  # read once: an ordinary attribute now
        return value

    def __dir__() -> list[str]:
        return sorted({*vars(sys.modules[package]), *names})

    return __getattr__, __dir__
