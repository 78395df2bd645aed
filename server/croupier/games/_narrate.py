"""What every game's narrator (``croupier/games/<game>/narrator.py``) provides, and its helpers."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any


@dataclass(frozen=True, slots=True)
class Narrator:
    """Game-specific lines: a round's header, a seat's new private information, a round's end."""

    round_header: Callable[[Any], str]
    #: What changed for a seat's (or the public) view from one observation to the next.
    private: Callable[[Any, Any], list[str]]
    round_end: Callable[[Any], list[str]]


def signed(value: Fraction) -> str:
    """A score change with its sign: ``+3``, ``-1/2``, ``0``."""
    return f"+{value}" if value > 0 else str(value)
