"""The 40-card deck of Felduz and Scauver: card ids, values and labels (``chips.md``)."""

from __future__ import annotations

from collections.abc import Sequence

#: Card ids ``0..39``: ``suit * 10 + rank``; rank ``0..9`` is A, 2..7, J, Q, K (value rank + 1).
DECK_SIZE = 40
SUITS = "♣♦♥♠"
RANK_NAMES = ("A", "2", "3", "4", "5", "6", "7", "J", "Q", "K")
#: Point value of each card id: A = 1, 2..7 face value, J = 8, Q = 9, K = 10.
VALUES: tuple[int, ...] = tuple(c % 10 + 1 for c in range(DECK_SIZE))
CARD_LABELS: tuple[str, ...] = tuple(RANK_NAMES[c % 10] + SUITS[c // 10] for c in range(DECK_SIZE))


def card_value(card: int) -> int:
    """The point value of a card id."""
    return VALUES[card]


def card_label(card: int) -> str:
    """A card id as text, e.g. ``K♣``, ``7♥``."""
    return CARD_LABELS[card]


def cards_label(cards: Sequence[int]) -> str:
    """Cards as text in brackets, e.g. ``[K♣ 7♥]`` (``[]`` when empty)."""
    return "[" + " ".join(CARD_LABELS[c] for c in cards) + "]"
