"""Scauver's deals: the others' hands and openings during the opening; afterwards hands and
which card came when."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

from croupier_proto.v1.deal._kit import (
    CHIP_BET,
    CHIP_RAISE,
    Bits,
    Deal,
    Inconsistent,
    below,
    chip_deck,
    chip_seats,
    fill_positions,
    place,
    shuffled,
)

_S_FOLD, _S_PROCEED, _S_NO_BET = 8004, 8005, 8006
_S_PLACE = _S_NO_BET + 1
_S_PAIR = _S_PLACE + 80
_S_OPEN = _S_PAIR + 1600
#: ``ScauverPhase`` values on the wire.
_SP_OPENING = 2
_OPEN_COMBOS = tuple(itertools.combinations(range(5), 3))


def _scauver_open(hand: Sequence[int], left: Sequence[int], right: Sequence[int]) -> int:
    """The opening id that puts ``left`` and ``right`` (in placement order) from ``hand``."""
    ordered = sorted(hand)
    for combo_index, combo in enumerate(_OPEN_COMBOS):
        for mask in range(8):
            flanks: tuple[list[int], list[int]] = ([], [])
            for j, p in enumerate(combo):
                flanks[(mask >> j) & 1].append(ordered[p])
            if flanks[0] == list(left) and flanks[1] == list(right):
                return _S_OPEN + 8 * combo_index + mask
    raise Inconsistent("the flanks are not an opening of the hand")


def _scauver_turn_starts(history: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """``(history index, seat)`` of every turn's start in the public history: the turn seat's
    first move is its betting step (``FOLD``, ``PROCEED`` or a bet; a bet right after its own
    ``PLACE_PAIR`` is the final bet instead)."""
    starts = []
    last: dict[int, int] = {}
    for i, (s, a) in enumerate(history):
        is_bet = CHIP_BET <= a < CHIP_RAISE
        if a in (_S_FOLD, _S_PROCEED) or (is_bet and not _S_PAIR <= last.get(s, -1) < _S_OPEN):
            starts.append((i, s))
        last[s] = a
    return starts


def sample(msg: Any, seat: int, rng: Bits) -> Deal:
    """Scauver: the others' hands and openings during the opening; afterwards each seat's hand
    and when each card came (dealt, or drawn at a turn before it was placed), and the stock."""
    table = msg.table
    n = len(table.stacks)
    dealer = int(table.dealer)
    dealt = chip_seats(table, int(table.round))
    history = [(int(h.seat), int(h.action_id)) for h in msg.history]
    seats = msg.seats
    own_hand = sorted(int(c.id) for c in msg.hand)
    stock_left = int(msg.stock_size)
    hidden: list[list[int]] = [[] for _ in range(n)]
    hands: list[tuple[int, ...]] = [()] * n
    fields: dict[int, tuple[list[int], list[int]]] = {
        s: ([int(c.id) for c in seats[s].field.left], [int(c.id) for c in seats[s].field.right])
        for s in dealt
    }
    shown = set(own_hand)
    for left, right in fields.values():
        shown |= set(left) | set(right)
    unseen = sorted(set(range(40)) - shown)
    if int(msg.phase) == _SP_OPENING:
        others = [s for s in dealt if s != seat]
        filled = place(rng, [unseen], [range(len(others) + 1)], [5] * len(others) + [stock_left])
        dealt_hands: dict[int, list[int]] = dict(zip(others, filled, strict=False))
        own_left, own_right = fields.get(seat, ([], []))
        dealt_hands[seat] = sorted([*own_hand, *own_left, *own_right])
        for s in dealt:
            hands[s] = tuple(dealt_hands[s])
            if s == seat and seats[s].opened:
                hidden[s].append(_scauver_open(dealt_hands[s], own_left, own_right))
                hands[s] = tuple(own_hand)
            elif s != seat and seats[s].opened:
                action = _S_OPEN + below(rng, 80)
                combo = (action - _S_OPEN) // 8
                ordered = sorted(dealt_hands[s])
                hidden[s].append(action)
                hands[s] = tuple(c for p, c in enumerate(ordered) if p not in _OPEN_COMBOS[combo])
        stock = shuffled(rng, filled[-1])
        deck = chip_deck(n, dealer, dealt, [dealt_hands.get(s, []) for s in range(n)], stock)
        return Deal(deck, tuple(tuple(h) for h in hidden), tuple(hands))
    # after the opening: placements with their times, draws at turn starts
    placed: dict[int, list[tuple[int, int]]] = {s: [] for s in dealt}
    for i, (s, a) in enumerate(history):
        if _S_PLACE <= a < _S_PAIR:
            placed[s].append((i, (a - _S_PLACE) // 2))
        elif _S_PAIR <= a < _S_OPEN:
            pair_left, pair_right = divmod(a - _S_PAIR, 40)
            placed[s] += [(i, pair_left), (i, pair_right)]
    starts = _scauver_turn_starts(history)
    drawn_total = 40 - 5 * len(dealt) - stock_left
    if drawn_total == len(starts) + 1 and msg.HasField("turn_seat"):
        starts.append((len(history), int(msg.turn_seat)))  # the turn begun, not yet bet
    if drawn_total != len(starts):
        raise Inconsistent("the draws do not match the turns")
    others = [s for s in dealt if s != seat]
    caps = [int(seats[s].hand_size) for s in others] + [stock_left]
    filled = place(rng, [unseen], [range(len(caps))], caps)
    got = dict(zip(others, filled, strict=False))
    dealt_hands = {}
    drawn: dict[int, int] = {}
    for s in dealt:
        left, right = fields[s]
        later = [card for _, card in placed[s]]
        opening_left = [c for c in left if c not in later]
        opening_right = [c for c in right if c not in later]
        held = own_hand if s == seat else got[s]
        mine_draws = [i for i, who in starts if who == s]
        # a turn's draw comes before its placements: a draw at index i precedes moves at i
        positions = [-1, -1, *(i - 0.5 for i in mine_draws)]
        at = fill_positions(rng, positions, placed[s], held)
        dealt_hands[s] = sorted([*opening_left, *opening_right, at[0], at[1]])
        for k, i in enumerate(mine_draws):
            drawn[i] = at[k + 2]
        hidden[s].append(_scauver_open(dealt_hands[s], opening_left, opening_right))
        hands[s] = tuple(sorted(held))
    stock = [drawn[i] for i, _ in sorted(starts)] + shuffled(rng, filled[-1])
    deck = chip_deck(n, dealer, dealt, [dealt_hands.get(s, []) for s in range(n)], stock)
    return Deal(deck, tuple(tuple(h) for h in hidden), tuple(hands))
