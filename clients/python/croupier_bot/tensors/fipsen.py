"""Fipsen tensors from the wire (``croupier.v1.FipsenObservation``): the arbiter's
``croupier.games.fipsen.encoder``, byte for byte (its docstring lists the features)."""

from __future__ import annotations

from typing import Any

import numpy as np

from croupier_bot.tensors import _history

NUM_ACTIONS = 91
NUM_SEATS = 4
DECK_SIZE = 25
NUM_TRICKS = 5
NUM_PHASES = 10
SEAT_FEATURES = 6
TOTAL_SCALE = 100.0


def _bids() -> tuple[tuple[int, bool, bool, bool, bool], ...]:
    """Every bid ``(tricks, hand, ruten, durch, kieker)`` in rank order: bid ``i`` has action id
    ``2 + i`` (the rules' ``BIDS``)."""
    bids = []
    for n in (2, 3, 4, 5):
        for durch in (False, True) if n < 5 else (False,):
            for ruten in (False, True):
                for hand in (False, True):
                    bids.append((n, hand, ruten, durch, False))
    bids.append((5, False, False, False, True))

    def rank(bid: tuple[int, bool, bool, bool, bool]) -> tuple[int, int]:
        n, hand, ruten, durch, kieker = bid
        return (4, 3) if kieker else (n, 2 if durch else 1 if hand or ruten else 0)

    return tuple(sorted(bids, key=rank))


#: A bid's index in rank order, by its wire fields.
_BID_INDEX = {bid: i for i, bid in enumerate(_bids())}
NUM_BIDS = len(_BID_INDEX)

_HAND, _SKAT, _DISCARDS, _PLAYED, _TRICK = (k * DECK_SIZE for k in range(5))
_SEATS = _TRICK + NUM_SEATS * DECK_SIZE
_PHASE = _SEATS + NUM_SEATS * SEAT_FEATURES
_BID = _PHASE + NUM_PHASES
_TRUMP = _BID + 2 * NUM_BIDS
_TABLE = _TRUMP + 4
#: Length of the position tensor.
SIZE = _TABLE + 7
_SLOTS = 56
#: Length of the information-state tensor.
INFO_SIZE = SIZE + _history.size(_SLOTS, NUM_ACTIONS)
#: The rules' phase index of each wire phase (FipsenPhase): the wire has no chance phases but
#: BETWEEN_DEALS (the rules' DEAL), and starts at SIEBENER_FIPS = 1 where the rules have 2.
_PHASES = {1: 2, 2: 3, 3: 4, 4: 5, 5: 6, 6: 7, 7: 8, 8: 1, 9: 9}


def _cards(out: np.ndarray, base: int, cards: Any) -> None:
    for card in cards:
        out[base + card.id] = 1.0


def _bid(bid: Any) -> int:
    return _BID_INDEX[bid.tricks, bid.hand, bid.ruten, bid.durch, bid.kieker]


def _position(msg: Any, seat: int, out: np.ndarray) -> None:
    _cards(out, _HAND, msg.hand)
    _cards(out, _SKAT, msg.skat)
    _cards(out, _DISCARDS, msg.discards)
    for trick in msg.tricks:
        _cards(out, _PLAYED, trick.cards)
    leader = msg.trick_leader if msg.HasField("trick_leader") else None
    if leader is not None:
        for i, card in enumerate(msg.trick_cards):
            rel = (leader + i - seat) % NUM_SEATS
            out[_TRICK + rel * DECK_SIZE + card.id] = 1.0
    to_act = msg.to_act if msg.HasField("to_act") else None
    declarer = msg.declarer if msg.HasField("declarer") else None
    for k in range(NUM_SEATS):
        s = (seat + k) % NUM_SEATS
        row = _SEATS + k * SEAT_FEATURES
        total = msg.totals[s]
        out[row] = msg.dealer == s
        out[row + 1] = to_act == s
        out[row + 2] = declarer == s
        out[row + 3] = msg.passed[s]
        out[row + 4] = leader == s
        out[row + 5] = total.numerator / total.denominator / TOTAL_SCALE
    out[_PHASE + _PHASES[msg.phase]] = 1.0
    for slot, name in enumerate(("standing_bid", "contract")):
        if msg.HasField(name):
            out[_BID + slot * NUM_BIDS + _bid(getattr(msg, name))] = 1.0
    if msg.trump:  # FipsenSuit: the suit + 1, 0 for none
        out[_TRUMP + msg.trump - 1] = 1.0
    out[_TABLE] = msg.hand_applied
    out[_TABLE + 1] = msg.ruten_applied
    out[_TABLE + 2] = msg.durch_applied
    out[_TABLE + 3] = msg.skat_taken
    out[_TABLE + 4] = msg.declarer_tricks / NUM_TRICKS
    out[_TABLE + 5] = msg.defender_tricks / NUM_TRICKS
    out[_TABLE + 6] = msg.deal_index / msg.num_deals


def _entry(entry: Any) -> tuple[int, _history.Features]:
    return entry.seat, ((entry.action_id,), 0)


#: ``position(msg, seat)`` and ``info(msg, seat)``: the two tensors (``_history.tensors``).
position, info = _history.tensors(
    _position, SIZE, INFO_SIZE, slots=_SLOTS, features=NUM_ACTIONS, decode=_entry,
    players=NUM_SEATS,
)  # fmt: skip
