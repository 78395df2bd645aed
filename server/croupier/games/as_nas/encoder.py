"""A fixed-size numpy encoding of an As-Nas observation, for learning bots.

Built from :class:`~croupier.games.as_nas.AsNasObservation` alone (never from the state), with
seats *relative to the observer*: relative seat ``k`` is absolute seat ``(seat + k) % 4``.
A public observation (``seat=None``) is encoded from seat 0's point of view, without a hand.

====================  =====  ==================================================================
features              size   meaning
====================  =====  ==================================================================
hand                  5      own cards per rank (Couli..As) / 4; zeros until looked
seats[k] (k = 0..3)   4 x 6  stake / 4, folded, looked, dealer, to act, total / 48
table                 3      H / 4, pot / 16, deals played / deals in the match
====================  =====  ==================================================================

The information-state tensor (:func:`encode_info`, :data:`INFO_SIZE`) is the position tensor
followed by the deal's public actions (:mod:`croupier.games._history_encoder`): 24 entries of
the actor's relative seat (4) and the action id one-hot (5). A deal has at most 17 public
actions (4 looks, 4 first moves, 3 answers to each of at most 3 raises), so none is dropped.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from croupier.games._history_encoder import HistoryBlock
from croupier.games.as_nas.rules import MAX_BET, NUM_RANKS, NUM_SEATS, Action, AsNasObservation

SEAT_FEATURES = 6
#: Length of the encoding.
SIZE = NUM_RANKS + NUM_SEATS * SEAT_FEATURES + 3
#: Totals are divided by this (a seat can lose at most 4 per deal: 12 deals -> 48).
TOTAL_SCALE = 48.0


def encode(obs: AsNasObservation) -> np.ndarray:
    """The observation as a float32 vector of length :data:`SIZE`."""
    out = np.zeros(SIZE, dtype=np.float32)
    for rank in obs.hand:
        out[rank] += 1.0 / 4
    me = obs.seat or 0
    base = NUM_RANKS
    for k in range(NUM_SEATS):
        s = (me + k) % NUM_SEATS
        row = base + k * SEAT_FEATURES
        out[row] = obs.stakes[s] / MAX_BET
        out[row + 1] = obs.folded[s]
        out[row + 2] = obs.looked[s]
        out[row + 3] = obs.dealer == s
        out[row + 4] = obs.to_act == s
        out[row + 5] = float(obs.totals[s]) / TOTAL_SCALE
    table = base + NUM_SEATS * SEAT_FEATURES
    out[table] = obs.high / MAX_BET
    out[table + 1] = obs.pot / (MAX_BET * NUM_SEATS)
    out[table + 2] = obs.deal_index / obs.num_deals
    return out


#: The deal's public actions: the action id one-hot.
HISTORY = HistoryBlock(slots=24, features=len(Action), decode=lambda action: ((action,), 0))
#: Length of the information-state encoding.
INFO_SIZE = SIZE + HISTORY.size


def encode_info(obs: AsNasObservation) -> np.ndarray:
    """The observation with the deal's public actions, a float32 vector of :data:`INFO_SIZE`."""
    out = np.zeros(INFO_SIZE, dtype=np.float32)
    out[:SIZE] = encode(obs)
    HISTORY.write(obs.history, obs.seat, NUM_SEATS, out, SIZE)
    return out


def bounds(params: Mapping[str, int]) -> tuple[float, float]:
    """Bounds of every entry in a match of ``params``: a seat wins or loses at most 16 per
    deal (the whole pot), so a total / 48 stays within +-deals / 3."""
    reach = params["deals"] * 16 / TOTAL_SCALE
    return -reach, max(1.0, reach)
