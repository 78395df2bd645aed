"""What the chip games' round records share (``croupier/games/<game>/record.py``): the pot's
settlement and cards by name."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from croupier.games import cards40, chips


def cards(ids: Sequence[int] | None) -> list[str] | None:
    """Card ids as labels (``["K♣", "7♥"]``), ``None`` kept."""
    return None if ids is None else [cards40.CARD_LABELS[c] for c in ids]


def settlement(paid: chips.Settlement) -> dict[str, Any]:
    """The pot, who won it, each seat's share, who was eliminated, whether there was a showdown."""
    return {
        "pot": paid.pot,
        "winners": list(paid.winners),
        "shares": list(paid.shares),
        "eliminated": list(paid.eliminated),
        "showdown": paid.showdown,
    }
