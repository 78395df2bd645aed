"""Felduz's deals: the others' hands and splits during the opening; afterwards closed fields,
reserves and which card came when."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

from croupier_proto.v1.deal._kit import (
    CHIP_BET,
    CHIP_END,
    CHIP_IN,
    CHIP_OUT,
    CHIP_RAISE,
    Bits,
    Deal,
    Inconsistent,
    Shown,
    below,
    chip_deck,
    chip_seats,
    fill_positions,
    place,
    shuffled,
)

_Z_NO_BET, _Z_DRAW, _Z_STAND, _Z_CONTINUE, _Z_SPLIT = 8004, 8005, 8006, 8007, 8008
_Z_REVEAL, _Z_RESERVE = 8018, 8058
_Z_RESERVE_ONE, _Z_RESERVE_TWO = _Z_RESERVE + 1, _Z_RESERVE + 41
#: ``FelduzPhase`` values on the wire.
_ZP_OPENING, _ZP_RESERVE = 3, 8
_VALUE = tuple(c % 10 + 1 for c in range(40))
_SPLITS = tuple(itertools.combinations(range(5), 3))


def _felduz_reserve_id(cards: Sequence[int]) -> int:
    if not cards:
        return _Z_RESERVE
    if len(cards) == 1:
        return _Z_RESERVE_ONE + cards[0]
    low, high = sorted(cards)
    return _Z_RESERVE_TWO + 40 * low + high


def _felduz_split(hand: Sequence[int], opened: Sequence[int]) -> int:
    """The split id that opens ``opened`` from the five ``hand`` cards."""
    ordered = sorted(hand)
    want = sorted(opened)
    for i, chosen in enumerate(_SPLITS):
        if sorted(ordered[p] for p in chosen) == want:
            return _Z_SPLIT + i
    raise Inconsistent("the open cards are not three of the hand")


def _felduz_reserved(
    history: Sequence[tuple[int, int]], seat: int, bet_open: bool, pending: bool
) -> bool:
    """Whether ``seat`` has chosen its reserve: it stood and its turn went on past the betting
    step (it did not answer ``OUT`` to a raise of its own bet first), and the reserve is not
    the decision ``pending`` now. ``bet_open``: a bet sequence is open now."""
    for i, (s, a) in enumerate(history):
        if s != seat or a != _Z_STAND:
            continue
        if i > 0 and history[i - 1][0] == seat and _Z_REVEAL <= history[i - 1][1] < _Z_RESERVE:
            return not pending  # stood at step 4: the reserve follows at once
        # stood at step 1: its betting step comes first
        rest = history[i + 1 :]
        if not rest or rest[0][0] != seat:
            return False
        if rest[0][1] == _Z_NO_BET:
            return not pending
        for s3, a3 in rest[1:]:
            if not (CHIP_IN <= a3 < CHIP_BET or CHIP_RAISE <= a3 < CHIP_END):
                return True  # the sequence closed and the turn went on
            if s3 == seat and a3 == CHIP_OUT:
                return False
        return not bet_open and not pending
    return False


def sample(msg: Any, seat: int, rng: Bits, shown_down: Shown | None = None) -> Deal:
    """Felduz: the others' hands and splits during the opening; afterwards each seat's closed
    field and reserve (a reserve of one card left a field of 40 or more), when each card came
    (dealt, or a draw before it was revealed), and the stock's order. ``shown_down``: the closed
    fields and reserves a showdown showed (a match's last round, seen after its end)."""
    table = msg.table
    n = len(table.stacks)
    round_index = int(msg.round)
    dealer = int(table.dealer)
    dealt = chip_seats(table, round_index)
    history = [(int(h.seat), int(h.action_id)) for h in msg.history]
    seats = msg.seats
    opening = int(msg.phase) == _ZP_OPENING
    own_closed = [int(c.id) for c in msg.closed]
    own_reserve = [int(c.id) for c in msg.reserve]
    known: dict[int, tuple[list[int], list[int]]] = {seat: (own_closed, own_reserve)}
    for s, (closed_s, reserve_s) in (shown_down or {}).items():
        known.setdefault(s, (list(closed_s), list(reserve_s)))
    shown: set[int] = set()
    for closed_s, reserve_s in known.values():
        shown |= set(closed_s) | set(reserve_s)
    for s in dealt:
        shown |= {int(c.id) for c in seats[s].open}
    unseen = sorted(set(range(40)) - shown)
    draws = [(i, s) for i, (s, a) in enumerate(history) if a == _Z_DRAW]
    stock_left = int(msg.stock)
    hidden: list[list[int]] = [[] for _ in range(n)]
    hands: list[tuple[int, ...]] = [()] * n
    if opening:
        # the seat's own five cards (or its split, once chosen); five unseen cards each for the
        # others, and a split for those that chose
        others = [s for s in dealt if s != seat]
        filled = place(rng, [unseen], [range(len(others) + 1)], [5] * len(others) + [stock_left])
        dealt_hands: dict[int, list[int]] = dict(zip(others, filled, strict=False))
        own_open = [int(c.id) for c in seats[seat].open]
        dealt_hands[seat] = sorted([*own_open, *own_closed])
        for s in dealt:
            hands[s] = tuple(dealt_hands[s])  # the splits apply once every seat has chosen
            if s == seat and own_open:
                hidden[s].append(_felduz_split(dealt_hands[s], own_open))
            elif s != seat and seats[s].chosen:
                hidden[s].append(_Z_SPLIT + below(rng, len(_SPLITS)))
        stock = shuffled(rng, filled[-1])
        deck = chip_deck(n, dealer, dealt, [dealt_hands.get(s, []) for s in range(n)], stock)
        return Deal(deck, tuple(tuple(h) for h in hidden), tuple(hands))
    # after the opening: the unseen cards go to closed fields, reserves and the stock left
    reveals: dict[int, list[tuple[int, int]]] = {s: [] for s in dealt}
    for i, (s, a) in enumerate(history):
        if _Z_REVEAL <= a < _Z_RESERVE:
            reveals[s].append((i, a - _Z_REVEAL))
    keys: list[tuple[int, str]] = []
    caps: list[int] = []
    need: list[int] = []  # the least value a slot's cards must have
    for s in dealt:
        if s in known:
            continue
        closed_n, reserve_n = int(seats[s].closed_count), int(seats[s].reserve_count)
        open_sum = sum(int(c.value) for c in seats[s].open)
        keys += [(s, "closed"), (s, "reserve")]
        caps += [closed_n, reserve_n]
        need += [40 - open_sum if reserve_n == 1 else 0, 0]
    keys.append((-1, "stock"))
    caps.append(stock_left)
    need.append(0)
    by_value: dict[int, list[int]] = {}
    for c in unseen:
        by_value.setdefault(_VALUE[c], []).append(c)
    values = sorted(by_value)
    allowed = [[j for j in range(len(caps)) if v >= need[j]] for v in values]
    filled = place(rng, [by_value[v] for v in values], allowed, caps)
    got = dict(zip(keys, filled, strict=True))
    dealt_hands = {}
    drawn: dict[int, int] = {}  # history index of a draw -> the card drawn
    for s in dealt:
        opened = [int(c.id) for c in seats[s].open]
        revealed = [card for _, card in reveals[s]]
        opening_cards = sorted(set(opened) - set(revealed))
        if s in known:
            closed, reserve = known[s]
        else:
            closed, reserve = got[(s, "closed")], got[(s, "reserve")]
        mine_draws = [i for i, who in draws if who == s]
        positions = [-1, -1, *mine_draws]
        at = fill_positions(rng, positions, reveals[s], [*closed, *reserve])
        dealt_hands[s] = sorted([*opening_cards, at[0], at[1]])
        for k, i in enumerate(mine_draws):
            drawn[i] = at[k + 2]
        hidden[s].append(_felduz_split(dealt_hands[s], opening_cards))
        pending = int(msg.phase) == _ZP_RESERVE and msg.HasField("turn") and int(msg.turn) == s
        if _felduz_reserved(history, s, table.HasField("bet"), pending):
            hidden[s].append(_felduz_reserve_id(reserve))
        hands[s] = tuple(sorted(closed))
    stock = [drawn[i] for i, _ in draws] + shuffled(rng, got[(-1, "stock")])
    deck = chip_deck(n, dealer, dealt, [dealt_hands.get(s, []) for s in range(n)], stock)
    return Deal(deck, tuple(tuple(h) for h in hidden), tuple(hands))
