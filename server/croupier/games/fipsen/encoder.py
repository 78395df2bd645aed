"""A fixed-size numpy encoding of a Fipsen observation, for learning bots.

Built from :class:`~croupier.games.fipsen.FipsenObservation` alone (never from the state), with
seats *relative to the observer*: relative seat ``k`` is absolute seat ``(seat + k) % 4``.
A public observation (``seat=None``) is encoded from seat 0's point of view, without a hand.

=========================  =====  ==============================================================
features                   size   meaning
=========================  =====  ==============================================================
hand                       25     own cards (by card id)
skat                       25     declarer only: the cards it took
discards                   25     declarer only: its own discards
played                     25     cards in finished tricks of this deal
trick                      4 x 25 the current trick's cards by relative seat
seats[k] (k = 0..3)        4 x 6  dealer, to act, declarer, passed, trick leader, total / 100
phase                      10     one-hot :class:`~croupier.games.fipsen.Phase`
bid                        2 x 29 standing bid and contract, one-hot by bid index
trump                      4      one-hot suit
table                      6      Hand, Ruten, Durch applied, Skat taken, T / 5, L / 5
progress                   1      deals played / deals in the match
=========================  =====  ==============================================================

The information-state tensor (:func:`encode_info`, :data:`INFO_SIZE`) is the position tensor
followed by the deal's public actions (:mod:`croupier.games._history_encoder`), the bidding
included: 56 entries of the actor's relative seat (4) and the action id one-hot (91). A deal has
at most 52 public actions (every bid outranks the one before, so at most 12 bids and 12 holds;
4 passes, Siebener Fips, the Skat choice, trump, 20 cards, Stop or Durch), so none is dropped.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from croupier.games._history_encoder import HistoryBlock
from croupier.games.fipsen.rules import (
    BIDS,
    DECK_SIZE,
    NUM_ACTIONS,
    NUM_SEATS,
    NUM_TRICKS,
    Action,
    FipsenObservation,
    Phase,
)

SEAT_FEATURES = 6
_HAND, _SKAT, _DISCARDS, _PLAYED, _TRICK = (k * DECK_SIZE for k in range(5))
_SEATS = _TRICK + NUM_SEATS * DECK_SIZE
_PHASE = _SEATS + NUM_SEATS * SEAT_FEATURES
_BID = _PHASE + len(Phase)
_TRUMP = _BID + 2 * len(BIDS)
_TABLE = _TRUMP + 4
#: Length of the encoding.
SIZE = _TABLE + 7
#: Totals are divided by this.
TOTAL_SCALE = 100.0


def _cards(out: np.ndarray, base: int, cards: tuple[int, ...]) -> None:
    for card in cards:
        out[base + card] = 1.0


def encode(obs: FipsenObservation) -> np.ndarray:
    """The observation as a float32 vector of length :data:`SIZE`."""
    out = np.zeros(SIZE, dtype=np.float32)
    me = obs.seat or 0
    _cards(out, _HAND, obs.hand)
    _cards(out, _SKAT, obs.skat)
    _cards(out, _DISCARDS, obs.discards)
    for trick in obs.tricks:
        _cards(out, _PLAYED, trick.cards)
    if obs.trick_leader is not None:
        for i, card in enumerate(obs.trick_cards):
            rel = (obs.trick_leader + i - me) % NUM_SEATS
            out[_TRICK + rel * DECK_SIZE + card] = 1.0
    for k in range(NUM_SEATS):
        s = (me + k) % NUM_SEATS
        row = _SEATS + k * SEAT_FEATURES
        out[row] = obs.dealer == s
        out[row + 1] = obs.to_act == s
        out[row + 2] = obs.declarer == s
        out[row + 3] = obs.passed[s]
        out[row + 4] = obs.trick_leader == s
        out[row + 5] = float(obs.totals[s]) / TOTAL_SCALE
    out[_PHASE + int(obs.phase)] = 1.0
    for slot, bid in enumerate((obs.standing_bid, obs.contract)):
        if bid is not None:
            out[_BID + slot * len(BIDS) + bid - int(Action.BID_BASE)] = 1.0
    if obs.trump is not None:
        out[_TRUMP + obs.trump] = 1.0
    out[_TABLE] = obs.hand_applied
    out[_TABLE + 1] = obs.ruten_applied
    out[_TABLE + 2] = obs.durch_applied
    out[_TABLE + 3] = obs.skat_taken
    out[_TABLE + 4] = obs.declarer_tricks / NUM_TRICKS
    out[_TABLE + 5] = obs.defender_tricks / NUM_TRICKS
    out[_TABLE + 6] = obs.deal_index / obs.num_deals
    return out


#: The deal's public actions: the action id one-hot.
HISTORY = HistoryBlock(slots=56, features=NUM_ACTIONS, decode=lambda action: ((action,), 0))
#: Length of the information-state encoding.
INFO_SIZE = SIZE + HISTORY.size


def encode_info(obs: FipsenObservation) -> np.ndarray:
    """The observation with the deal's public actions, a float32 vector of :data:`INFO_SIZE`."""
    out = np.zeros(INFO_SIZE, dtype=np.float32)
    out[:SIZE] = encode(obs)
    HISTORY.write(obs.history, obs.seat, NUM_SEATS, out, SIZE)
    return out


def bounds(params: Mapping[str, int]) -> tuple[float, float]:
    """Bounds of every entry in a match of ``params``: a deal moves a total by at most 80 (a
    lost 4HRD, twice 4 x 2**3), so a total / 100 stays within +-0.8 x deals."""
    reach = params["deals"] * 80 / TOTAL_SCALE
    return -reach, max(1.0, reach)
