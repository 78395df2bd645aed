"""A fixed-size numpy encoding of a Felduz observation, for learning bots.

Built from :class:`~croupier.games.felduz.FelduzObservation` alone (never from the state), with
seats *relative to the observer*: relative seat ``k`` is absolute seat ``(seat + k) % n``; seats
beyond ``n`` stay zero, so the size does not depend on the number of players. A public
observation (``seat=None``) is encoded from seat 0's point of view, without own cards.

=====================  ========  ================================================================
features               size      meaning
=====================  ========  ================================================================
chips                  33        :mod:`croupier.encoding._chips` (stacks, pot, bet, ...)
own closed, reserve    2 x 40    the observer's closed field and reserve, one-hot by card id
open[k] (k = 0..3)     4 x 40    relative seat k's open field, one-hot by card id
seats[k] (k = 0..3)    4 x 7     closed count / 5, reserve count / 2, stood, chosen,
                                 open sum / 100, to act, its turn
table                  14        stock / 40, phase one-hot (9), turn start one-hot (3),
                                 round / round cap
=====================  ========  ================================================================

The information-state tensor (:func:`encode_info`, :data:`INFO_SIZE`) is the position tensor
followed by the round's public actions (:mod:`croupier.games._history_encoder`): 64 entries of
the actor's relative seat (4), the kind one-hot (9: In, Out, Bet, Raise, NoBet, Draw, Stand,
Continue, Reveal), a bet's or raise's amount / table chips, and the revealed card one-hot (40).
A round with more public actions keeps its last 64 (and sets ``dropped``).
"""

from __future__ import annotations

import numpy as np

from croupier.games import _chips_encoder as _chips
from croupier.games import cards40, chips
from croupier.games._history_encoder import Features, HistoryBlock
from croupier.games.felduz.rules import (
    FelduzObservation,
    First,
    MoveKind,
    Phase,
    field_sum,
    is_split,
    move,
)

DECK = cards40.DECK_SIZE
SEAT_FEATURES = 7
_OWN = _chips.SIZE
_OPEN = _OWN + 2 * DECK
_SEATS = _OPEN + chips.MAX_PLAYERS * DECK
_TABLE = _SEATS + chips.MAX_PLAYERS * SEAT_FEATURES
#: Length of the encoding.
SIZE = _TABLE + 1 + len(Phase) + len(First) + 1


def encode(obs: FelduzObservation) -> np.ndarray:
    """The observation as a float32 vector of length :data:`SIZE`."""
    out = np.zeros(SIZE, dtype=np.float32)
    _chips.encode_table(obs.table, obs.seat, out, 0)
    for card in obs.closed:
        out[_OWN + card] = 1.0
    for card in obs.reserve:
        out[_OWN + DECK + card] = 1.0
    n = len(obs.open_fields)
    me = obs.seat or 0
    for k in range(n):
        s = (me + k) % n
        for card in obs.open_fields[s]:
            out[_OPEN + k * DECK + card] = 1.0
        row = _SEATS + k * SEAT_FEATURES
        out[row] = obs.closed_counts[s] / 5
        out[row + 1] = obs.reserve_counts[s] / 2
        out[row + 2] = obs.stood[s]
        out[row + 3] = obs.chosen[s]
        out[row + 4] = field_sum(obs.open_fields[s]) / 100
        out[row + 5] = obs.to_act == s
        out[row + 6] = obs.turn == s
    out[_TABLE] = obs.stock / DECK
    out[_TABLE + 1 + obs.phase] = 1.0
    out[_TABLE + 1 + len(Phase) + obs.first] = 1.0
    out[SIZE - 1] = obs.round / obs.round_cap
    return out


#: The kinds of public action, in the order of their one-hot (a chip move's kind first).
_KINDS = 9
_NO_BET, _DRAW, _STAND, _CONTINUE, _REVEAL = range(4, 9)
_PLAIN = {
    MoveKind.NO_BET: _NO_BET,
    MoveKind.DRAW: _DRAW,
    MoveKind.STAND: _STAND,
    MoveKind.CONTINUE: _CONTINUE,
}
#: Feature of the amount, then of the revealed card.
_AMOUNT = _KINDS
_CARD = _KINDS + 1


def _features(action: int) -> Features:
    """A public action's features (a split or a reserve, never public, has none)."""
    if is_split(action):
        return (), 0
    decoded = move(action)
    chip = decoded.chip
    if chip is not None:
        return _chips.chip_features(chip)
    if decoded.kind is MoveKind.REVEAL:
        return (_REVEAL, _CARD + decoded.cards[0]), 0
    plain = _PLAIN.get(decoded.kind)
    return ((plain,) if plain is not None else ()), 0


#: The round's public actions.
HISTORY = HistoryBlock(slots=64, features=_CARD + DECK, decode=_features, amount_at=_AMOUNT)
#: Length of the information-state encoding.
INFO_SIZE = SIZE + HISTORY.size


def encode_info(obs: FelduzObservation) -> np.ndarray:
    """The observation with the round's public actions, a float32 vector of :data:`INFO_SIZE`."""
    return _chips.encode_info(obs, encode(obs), SIZE, HISTORY, INFO_SIZE)


# (no ``bounds``: chips are shares of the table's chips, the rest flags and fractions, so every
# entry lies within [0, 1], the spec's default)
