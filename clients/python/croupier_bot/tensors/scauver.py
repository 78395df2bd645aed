"""Scauver tensors from the wire (``croupier.v1.ScauverObservation``): the arbiter's
``croupier.games.scauver.encoder``, byte for byte (its docstring lists the features)."""

from __future__ import annotations

from typing import Any

import numpy as np

from croupier_bot.tensors import _chips, _history

NUM_ACTIONS = 9767
DECK = 40
HAND_SIZE = 5
TURNS = 3
NUM_PHASES = 9
SEAT_FEATURES = 2 * DECK + 5
SUM_SCALE = 40.0
_HAND = _chips.SIZE
_SEATS = _HAND + DECK
_PHASE = _SEATS + _chips.MAX_PLAYERS * SEAT_FEATURES
_TURN = _PHASE + NUM_PHASES
#: Length of the position tensor.
SIZE = _TURN + TURNS + 1

#: History features: the kind one-hot (In, Out, Bet, Raise, Fold, Proceed, NoBet, Place,
#: PlacePair), the amount, the card placed on L one-hot, the card placed on R one-hot.
_KINDS = 9
_AMOUNT = _KINDS
_FLANK = (_KINDS + 1, _KINDS + 1 + DECK)
_FEATURES = _KINDS + 1 + 2 * DECK
_SLOTS = 64
#: Length of the information-state tensor.
INFO_SIZE = SIZE + _history.size(_SLOTS, _FEATURES)
#: ScauverMove -> kind index (CHIPS: the ChipMove's instead; OPEN: none).
_MOVE_KIND = {2: 4, 3: 5, 4: 6, 5: 7, 6: 8}
_CHIPS, _OPEN = 1, 7
#: The wire's phases (ScauverPhase) are the rules' numbers, except that the wire says BET while
#: a bet made at the rules' PLACE step is being answered.
_BET_PHASE, _PLACE_PHASE = 3, 4


def _position(msg: Any, seat: int, out: np.ndarray) -> None:
    _chips.write(msg.table, seat, out, 0)
    for card in msg.hand:
        out[_HAND + card.id] = 1.0
    n = len(msg.seats)
    turn_seat = msg.turn_seat if msg.HasField("turn_seat") else None
    for k in range(n):
        s = (seat + k) % n
        wire = msg.seats[s]
        row = _SEATS + k * SEAT_FEATURES
        left, right = wire.field.left, wire.field.right
        for card in left:
            out[row + card.id] = 1.0
        for card in right:
            out[row + DECK + card.id] = 1.0
        extra = row + 2 * DECK
        out[extra] = wire.hand_size / HAND_SIZE
        out[extra + 1] = wire.opened
        out[extra + 2] = turn_seat == s
        out[extra + 3] = sum(card.value for card in left) / SUM_SCALE
        out[extra + 4] = sum(card.value for card in right) / SUM_SCALE
    phase = msg.phase
    if phase == _BET_PHASE and msg.table.HasField("bet"):
        phase = _PLACE_PHASE
    out[_PHASE + phase] = 1.0
    out[_TURN + msg.turn] = 1.0
    out[_TURN + TURNS] = msg.stock_size / DECK


def _entry(entry: Any) -> tuple[int, _history.Features]:
    action = entry.action
    move = action.move
    if move == _CHIPS:
        return entry.seat, _chips.features(action.chip)
    if move == _OPEN:
        return entry.seat, ((), 0)
    cards = tuple(_FLANK[p.flank - 1] + p.card.id for p in action.placements)
    kind = _MOVE_KIND.get(move)
    return entry.seat, (((kind, *cards) if kind is not None else cards), 0)


#: ``position(msg, seat)`` and ``info(msg, seat)``: the two tensors (``_chips.tensors``).
position, info = _chips.tensors(
    _position, SIZE, INFO_SIZE, slots=_SLOTS, features=_FEATURES, decode=_entry, amount_at=_AMOUNT
)
