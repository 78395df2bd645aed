"""Fipsen's deals: hands (voids, Kieker eligibility), the Skat and stock, a declarer's Skat
and discards, declined Siebener Fips offers."""

from __future__ import annotations

from collections.abc import Sequence
from math import comb
from typing import Any

from croupier_proto.v1.deal._kit import (
    Bits,
    Deal,
    Inconsistent,
    below,
    choose,
    place,
)

_F_PASS, _F_HOLD, _F_BID, _F_KIEKER, _F_FIPS_END = 0, 1, 2, 26, 31
_F_DECLINE, _F_TAKE, _F_PLAY_HAND, _F_DISCARD, _F_TRUMP, _F_PLAY = 32, 33, 34, 35, 60, 64
_F_STOP = 89
#: ``FipsenPhase`` values on the wire.
_FP_FIPS, _FP_BIDDING, _FP_SKAT, _FP_DISCARD = 1, 2, 3, 4
_F_HIGH = frozenset(8 * s + r for s in range(3) for r in (4, 5, 6))  # J, Q, K
_F_SEVENS = frozenset((0, 8, 16, 24))
_F_ACES = frozenset((7, 15, 23))


def _fips_qualifies(hand: Sequence[int]) -> bool:
    return len(hand) == 5 and _F_SEVENS.issubset(hand) and any(c in _F_ACES for c in hand)


def _suit(card: int) -> int:
    return card >> 3


def sample(msg: Any, seat: int, rng: Bits) -> Deal:
    """Fipsen: hands (voids, Kieker eligibility), the Skat and stock, a declarer's Skat and
    discards; declined Siebener Fips offers are hidden moves too."""
    n = 4
    dealer = int(msg.dealer)
    phase = int(msg.phase)
    history = [(int(h.seat), int(h.action_id)) for h in msg.history]
    declarer = int(msg.declarer) if msg.HasField("declarer") else -1
    kieker_contract = declarer >= 0 and bool(msg.contract.kieker)
    played: list[list[int]] = [[] for _ in range(n)]
    voids: list[set[int]] = [set() for _ in range(n)]
    eligible = [False] * n  # bid or held Kieker: the dealt hand had no K, Q or J
    took = False
    standing = -1
    trick: list[tuple[int, int]] = []
    for s, a in history:
        if _F_BID <= a < _F_FIPS_END:
            standing = a
            eligible[s] = eligible[s] or a == _F_KIEKER
        elif a == _F_HOLD:
            eligible[s] = eligible[s] or standing == _F_KIEKER
        elif a == _F_TAKE:
            took = True
        elif _F_PLAY <= a < _F_STOP:
            card = a - _F_PLAY
            played[s].append(card)
            if trick and _suit(card) != _suit(trick[0][1]):
                voids[s].add(_suit(trick[0][1]))
            trick.append((s, card))
            if len(trick) == n:
                trick = []
    took = took or kieker_contract
    taken_size = 5 if kieker_contract else 2
    # where the deal stands: discards are made (all at once, hidden) before trump
    discarding = phase == _FP_DISCARD
    own_hand = sorted(int(c.id) for c in msg.hand)
    mine = seat == declarer
    own_taken = sorted(int(c.id) for c in msg.skat) if mine else []
    own_discards = sorted(int(c.id) for c in msg.discards) if mine else []
    seen = set(own_hand) | set(own_taken) | set(own_discards)
    for cards in played:
        seen |= set(cards)
    unseen = sorted(set(range(25)) - seen)
    # the slots of the unseen cards: each other seat's hand now, then the declarer's discards,
    # the Skat and the stock while nobody took them
    slots: list[str] = []
    caps: list[int] = []
    bans: list[tuple[frozenset[int], bool]] = []  # (banned suits, K/Q/J banned)
    other_decl = declarer >= 0 and not mine and took
    for s in range(n):
        if s == seat:
            continue
        size = 5 - len(played[s])
        if s == declarer and took and discarding:
            size += taken_size  # it holds what it took and has not discarded yet
        slots.append(f"hand{s}")
        caps.append(size)
        bans.append((frozenset(voids[s]), eligible[s] and not (s == declarer and took)))
    discards_made = other_decl and not discarding
    if discards_made:
        slots.append("discards")
        caps.append(taken_size)
        bans.append((frozenset(), False))
    if not took:
        slots += ["skat", "stock"]
        caps += [2, 3]
        bans += [(frozenset(), False), (frozenset(), False)]
    elif not kieker_contract:
        slots.append("stock")
        caps.append(3)
        bans.append((frozenset(), False))
    if sum(caps) != len(unseen):
        raise Inconsistent("the unseen cards do not fill the hidden places")
    groups: dict[tuple[int, bool], list[int]] = {}
    for c in unseen:
        groups.setdefault((_suit(c), c in _F_HIGH), []).append(c)
    keys = sorted(groups)
    allowed = [
        [
            j
            for j, (suits, no_high) in enumerate(bans)
            if k[0] not in suits and not (no_high and k[1])
        ]
        for k in keys
    ]
    decl_pool_known: list[int] = []
    weigh = other_decl and eligible[declarer]
    if weigh:
        decl_pool_known = played[declarer]
    while True:
        filled = place(rng, [groups[k] for k in keys], allowed, caps)
        by = dict(zip(slots, filled, strict=True))
        if not weigh:
            break
        # a declarer that took the Skat and bid Kieker: its dealt five had no K, Q or J, so a
        # placement counts once per way to tell its dealt cards from those it took
        pool = [*decl_pool_known, *by[f"hand{declarer}"], *by.get("discards", [])]
        low = sum(1 for c in pool if c not in _F_HIGH)
        unknown = len(pool) - len(decl_pool_known)
        low_unseen = sum(1 for c in unseen if c not in _F_HIGH)
        best = sum(1 for c in decl_pool_known if c not in _F_HIGH) + min(unknown, low_unseen)
        if below(rng, comb(best, 5)) < comb(low, 5):
            break
    hands: list[list[int]] = [[] for _ in range(n)]
    for s in range(n):
        hands[s] = own_hand if s == seat else by[f"hand{s}"]
    # the dealt hands, the Skat and the stock
    dealt: list[list[int]] = [sorted([*hands[s], *played[s]]) for s in range(n)]
    skat: list[int]
    stock: list[int]
    discards: list[int] = []
    if not took:
        skat, stock = by["skat"], by["stock"]
    else:
        if mine:
            taken = own_taken
            discards = own_discards
            pool = sorted([*own_hand, *played[seat], *own_discards])
        else:
            discards = by.get("discards", [])
            pool = sorted([*hands[declarer], *played[declarer], *discards])
            low_cards = [c for c in pool if c not in _F_HIGH]
            kept = choose(rng, low_cards if eligible[declarer] else pool, 5)
            taken = sorted(set(pool) - set(kept))
        dealt[declarer] = sorted(set(pool) - set(taken))
        if kieker_contract:
            skat = sorted(choose(rng, taken, 2))
            stock = sorted(set(taken) - set(skat))
        else:
            skat, stock = sorted(taken), by["stock"]
    deck: list[int] = []
    roles = [(dealer + 1 + k) % n for k in range(n)]
    for s in roles:
        deck += dealt[s][:3]
    deck += skat
    for s in roles:
        deck += dealt[s][3:]
    deck += stock
    # hidden moves: a declined offer at the deal, the discards, a declined offer after them
    asked_now = phase == _FP_FIPS and int(msg.to_act) == seat
    hidden: list[list[int]] = [[] for _ in range(n)]
    for s in range(n):
        if _fips_qualifies(dealt[s]) and not (s == seat and asked_now and declarer < 0):
            hidden[s].append(_F_DECLINE)
    if took and declarer >= 0 and (mine or not discarding):
        hidden[declarer] += [_F_DISCARD + c for c in discards]
    exchanged = declarer >= 0 and phase not in (_FP_BIDDING, _FP_SKAT, _FP_DISCARD)
    if exchanged and not (mine and asked_now):
        after = sorted([*hands[declarer], *played[declarer]])
        if _fips_qualifies(after):
            hidden[declarer].append(_F_DECLINE)
    return Deal(
        tuple(deck),
        tuple(tuple(h) for h in hidden),
        tuple(tuple(sorted(h)) for h in hands),
    )
