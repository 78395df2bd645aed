"""Felduz tensors from the wire (``croupier.v1.FelduzObservation``): the arbiter's
``croupier.games.felduz.encoder``, byte for byte (its docstring lists the features)."""

from __future__ import annotations

from typing import Any

import numpy as np

from croupier_bot.tensors import _chips, _history

NUM_ACTIONS = 9699
DECK = 40
NUM_PHASES = 9
NUM_STARTS = 3
SEAT_FEATURES = 7
_OWN = _chips.SIZE
_OPEN = _OWN + 2 * DECK
_SEATS = _OPEN + _chips.MAX_PLAYERS * DECK
_TABLE = _SEATS + _chips.MAX_PLAYERS * SEAT_FEATURES
#: Length of the position tensor.
SIZE = _TABLE + 1 + NUM_PHASES + NUM_STARTS + 1

#: History features: the kind one-hot (In, Out, Bet, Raise, NoBet, Draw, Stand, Continue,
#: Reveal), the amount, the revealed card one-hot.
_KINDS = 9
_AMOUNT = _KINDS
_CARD = _KINDS + 1
_FEATURES = _CARD + DECK
_SLOTS = 64
#: Length of the information-state tensor.
INFO_SIZE = SIZE + _history.size(_SLOTS, _FEATURES)
#: FelduzMove -> kind index (CHIPS: the ChipMove's instead; OPEN and RESERVE: none).
_MOVE_KIND = {2: 4, 3: 5, 4: 6, 5: 7, 7: 8}
_CHIPS, _REVEAL = 1, 7


def _position(msg: Any, seat: int, out: np.ndarray) -> None:
    _chips.write(msg.table, seat, out, 0)
    for card in msg.closed:
        out[_OWN + card.id] = 1.0
    for card in msg.reserve:
        out[_OWN + DECK + card.id] = 1.0
    n = len(msg.seats)
    to_act = msg.to_act if msg.HasField("to_act") else None
    turn = msg.turn if msg.HasField("turn") else None
    for k in range(n):
        s = (seat + k) % n
        wire = msg.seats[s]
        for card in wire.open:
            out[_OPEN + k * DECK + card.id] = 1.0
        row = _SEATS + k * SEAT_FEATURES
        out[row] = wire.closed_count / 5
        out[row + 1] = wire.reserve_count / 2
        out[row + 2] = wire.stood
        out[row + 3] = wire.chosen
        out[row + 4] = sum(card.value for card in wire.open) / 100
        out[row + 5] = to_act == s
        out[row + 6] = turn == s
    out[_TABLE] = msg.stock / DECK
    out[_TABLE + 1 + msg.phase - 1] = 1.0  # FelduzPhase: the rules' phase + 1
    out[_TABLE + 1 + NUM_PHASES + msg.turn_start - 1] = 1.0  # likewise
    out[SIZE - 1] = msg.round / msg.round_cap


def _entry(entry: Any) -> tuple[int, _history.Features]:
    action = entry.action
    move = action.move
    if move == _CHIPS:
        return entry.seat, _chips.features(action.chip)
    if move == _REVEAL:
        return entry.seat, ((8, _CARD + action.cards[0].id), 0)
    kind = _MOVE_KIND.get(move)
    return entry.seat, (((kind,) if kind is not None else ()), 0)


#: ``position(msg, seat)`` and ``info(msg, seat)``: the two tensors (``_chips.tensors``).
position, info = _chips.tensors(
    _position, SIZE, INFO_SIZE, slots=_SLOTS, features=_FEATURES, decode=_entry, amount_at=_AMOUNT
)
