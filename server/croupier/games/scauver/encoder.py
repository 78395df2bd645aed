"""A fixed-size numpy encoding of a Scauver observation, for learning bots.

Built from :class:`~croupier.games.scauver.ScauverObservation` alone (never from the state), with
seats *relative to the observer*: relative seat ``k`` is absolute seat ``(seat + k) % n``; seats
beyond ``n`` stay zero, so the size is the same for 2, 3 and 4 players. A public observation
(``seat=None``) is encoded from seat 0's point of view, without a hand.

=====================  ===========  ==========================================================
features               size         meaning
=====================  ===========  ==========================================================
chips                  33           :func:`croupier.encoding._chips.encode_table`
hand                   40           own cards, one-hot by card id
seats[k] (k = 0..3)    4 x 85       L one-hot (40), R one-hot (40), hand size / 5, opened,
                                    turn seat, sum(L) / 40, sum(R) / 40
phase                  9            one-hot :class:`~croupier.games.scauver.Phase`
turn                   3            one-hot turn cycle
stock                  1            stock size / 40
=====================  ===========  ==========================================================

The information-state tensor (:func:`encode_info`, :data:`INFO_SIZE`) is the position tensor
followed by the round's public actions (:mod:`croupier.games._history_encoder`): 64 entries of
the actor's relative seat (4), the kind one-hot (9: In, Out, Bet, Raise, Fold, Proceed, NoBet,
Place, PlacePair), a bet's or raise's amount / table chips, the card placed on L one-hot (40)
and the card placed on R one-hot (40). A round with more public actions keeps its last 64 (and
sets ``dropped``).
"""

from __future__ import annotations

import numpy as np

from croupier.games import _chips_encoder as chip_features
from croupier.games import cards40, chips
from croupier.games._history_encoder import Features, HistoryBlock
from croupier.games.scauver.rules import (
    HAND_SIZE,
    TURNS,
    MoveKind,
    Phase,
    ScauverObservation,
    is_opening,
    move,
)

DECK = cards40.DECK_SIZE
SEAT_FEATURES = 2 * DECK + 5
#: Flank sums are divided by this (4 kings).
SUM_SCALE = 40.0
_HAND = chip_features.SIZE
_SEATS = _HAND + DECK
_PHASE = _SEATS + chips.MAX_PLAYERS * SEAT_FEATURES
_TURN = _PHASE + len(Phase)
#: Length of the encoding.
SIZE = _TURN + TURNS + 1


def encode(obs: ScauverObservation) -> np.ndarray:
    """The observation as a float32 vector of length :data:`SIZE`."""
    out = np.zeros(SIZE, dtype=np.float32)
    chip_features.encode_table(obs.table, obs.seat, out, 0)
    for card in obs.hand:
        out[_HAND + card] = 1.0
    n = len(obs.fields)
    me = obs.seat or 0
    for k in range(n):
        s = (me + k) % n
        row = _SEATS + k * SEAT_FEATURES
        left, right = obs.fields[s]
        for card in left:
            out[row + card] = 1.0
        for card in right:
            out[row + DECK + card] = 1.0
        extra = row + 2 * DECK
        out[extra] = obs.hand_sizes[s] / HAND_SIZE
        out[extra + 1] = obs.opened[s]
        out[extra + 2] = obs.turn_seat == s
        out[extra + 3] = sum(cards40.VALUES[c] for c in left) / SUM_SCALE
        out[extra + 4] = sum(cards40.VALUES[c] for c in right) / SUM_SCALE
    out[_PHASE + int(obs.phase)] = 1.0
    out[_TURN + obs.turn] = 1.0
    out[_TURN + TURNS] = obs.stock_size / DECK
    return out


#: The kinds of public action, in the order of their one-hot (a chip move's kind first).
_KINDS = 9
_KIND = {
    MoveKind.FOLD: 4,
    MoveKind.PROCEED: 5,
    MoveKind.NO_BET: 6,
    MoveKind.PLACE: 7,
    MoveKind.PLACE_PAIR: 8,
}
#: Feature of the amount, then of the card placed on each flank (L, then R).
_AMOUNT = _KINDS
_FLANK = (_KINDS + 1, _KINDS + 1 + DECK)


def _features(action: int) -> Features:
    """A public action's features (an opening, never public, has none)."""
    if is_opening(action):
        return (), 0
    decoded = move(action)
    chip = decoded.chip
    if chip is not None:
        return chip_features.chip_features(chip)
    cards = tuple(_FLANK[flank] + card for card, flank in decoded.placements)
    kind = _KIND.get(decoded.kind)
    return ((kind, *cards) if kind is not None else cards), 0


#: The round's public actions.
HISTORY = HistoryBlock(
    slots=64, features=_KINDS + 1 + 2 * DECK, decode=_features, amount_at=_AMOUNT
)
#: Length of the information-state encoding.
INFO_SIZE = SIZE + HISTORY.size


def encode_info(obs: ScauverObservation) -> np.ndarray:
    """The observation with the round's public actions, a float32 vector of :data:`INFO_SIZE`."""
    return chip_features.encode_info(obs, encode(obs), SIZE, HISTORY, INFO_SIZE)


# (no ``bounds``: chips are shares of the table's chips, the rest flags and fractions, so every
# entry lies within [0, 1], the spec's default)
