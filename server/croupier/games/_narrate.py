"""What every game's narrator (``croupier/games/<game>/narrator.py``) provides, and its helpers."""

from __future__ import annotations

from collections.abc import Callable, Iterable
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
    #: The game's wire view (its ``croupier.v1`` observation message, the entry of
    #: ``Observation.game``) as one compact line, the board ``croupier ctl watch`` shows after
    #: each frame; read by field name, so the narrator imports no protobuf. ``None``: the
    #: watcher shows the message's plain fields instead.
    board: Callable[[Any], str] | None = None


def signed(value: Fraction) -> str:
    """A score change with its sign: ``+3``, ``-1/2``, ``0``."""
    return f"+{value}" if value > 0 else str(value)


def wire_score(value: Any) -> str:
    """A ``croupier.v1.Score`` as text: ``3``, ``-1/2``."""
    if value.denominator in (0, 1):
        return str(value.numerator)
    return f"{value.numerator}/{value.denominator}"


def slash(values: Iterable[Any]) -> str:
    """Values joined by ``/``: ``5/0/12``."""
    return "/".join(str(v) for v in values)


def wire_labels(cards: Iterable[Any]) -> str:
    """Wire cards by their labels, or ``-`` for none."""
    return " ".join(card.label for card in cards) or "-"


def enum_name(message: Any, field: str, value: int) -> str:
    """The name of ``value`` of ``message``'s enum field ``field``, read from the descriptor
    without the enum's own prefix (``AS_NAS_RANK_ACE`` of ``AsNasRank`` is ``ACE``)."""
    enum = message.DESCRIPTOR.fields_by_name[field].enum_type
    prefix = "".join("_" + c if c.isupper() else c.upper() for c in enum.name).lstrip("_") + "_"
    return str(enum.values_by_number[value].name).removeprefix(prefix)
