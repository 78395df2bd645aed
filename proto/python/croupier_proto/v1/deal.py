"""No-leak resampling: a deal and hidden moves consistent with one seat's wire observation.

One module, two readers: each game's in-process ``resample`` (through
``croupier.games._resample``) and the Python SDK's ``croupier_bot.resample`` draw their deals
here, so a bot gets exactly the deals the arbiter's side draws for the same observation and
random bits. It lives in the stubs distribution (``croupier-proto``), which both the arbiter and
the SDK depend on, because it is a reader of the contract like :mod:`croupier_proto.v1.stdio`:
written by hand (``proto/generate.py`` rewrites only the ``*_pb2*`` modules beside it), it
imports nothing but the standard library and reads only the seat's ``croupier.v1.Observation``
(any object with the message's fields), so a sample **cannot** hold anything the seat was not
shown.

:func:`sample` draws a :class:`Deal`: the round's chance outcome (the shuffled deck, as the
arbiter records it) and each seat's non-public moves of the round so far (Fipsen's discards and
declined Siebener Fips offers, Felduz's opening split and reserve, Scauver's opening), uniformly
among all those consistent with what the seat has seen:

* its own cards, every card shown (tricks, open fields, flanks), counts of hidden cards;
* what the public moves prove: a seat that did not follow suit holds none of that suit (Fipsen),
  a Kieker bid or hold proves a dealt hand without K, Q or J, a reserve of one card proves the
  field left sums to 40 or more (Felduz), a card revealed or placed was held at that moment
  (Felduz, Scauver: it was dealt or drawn before), every draw came from the stock in turn.

Every consistent (deal, hidden moves) is equally likely: the moves are weighted as if each
hidden choice were uniform among the legal ones, never by how a bot would have played (what a
bot's bids say about its hand is for a search to weigh). Applying the deck to the round's start
and replaying the public history, with each seat's hidden moves where the rules ask for them,
gives a full state whose observation for the seat is the one given (``<game>.resample``).

Randomness: ``rng`` is anything with ``getrandbits(k)`` (``random.Random``); the same generator
state and the same observation give the same deal, whatever the cards the seat cannot see.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Sequence
from math import comb, factorial
from typing import Any, NamedTuple, Protocol


class Bits(Protocol):
    """A source of random bits (``random.Random`` is one)."""

    def getrandbits(self, k: int, /) -> int: ...


class Deal(NamedTuple):
    """One sampled world of the round in progress, as seen by nobody.

    ``deck``: the round's chance outcome (card ids in deal order, exactly as a replay's chance
    record holds it). ``hidden``: per seat, its non-public moves of the round so far (action
    ids, in the order the rules asked for them). ``hands``: per seat, the cards it holds now out
    of the others' sight (As-Nas, Fipsen and Scauver: its hand; Felduz: its closed field; card
    ids ascending; during the Felduz opening, its five cards until every seat has split)."""

    deck: tuple[int, ...]
    hidden: tuple[tuple[int, ...], ...]
    hands: tuple[tuple[int, ...], ...]


#: Cards a showdown showed, by seat: ``(closed field, reserve)``.
Shown = dict[int, tuple[Sequence[int], Sequence[int]]]


class Inconsistent(ValueError):
    """The observation admits no deal (it was not made by the rules)."""


# -- random draws ----------------------------------------------------------------------------------


def below(rng: Bits, n: int) -> int:
    """Uniform in ``[0, n)`` for any positive ``n`` (rejection on ``n.bit_length()`` bits)."""
    if n <= 0:
        raise Inconsistent("nothing to choose from")
    k = n.bit_length()
    while True:
        x = rng.getrandbits(k)
        if x < n:
            return x


def shuffled(rng: Bits, items: Sequence[int]) -> list[int]:
    """A uniformly random permutation of ``items`` (Fisher-Yates)."""
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j = below(rng, i + 1)
        out[i], out[j] = out[j], out[i]
    return out


# -- cards into slots ------------------------------------------------------------------------------


def _compositions(n: int, caps: Sequence[int], slots: Sequence[int]) -> Iterator[tuple[int, ...]]:
    """Every way to put ``n`` cards into ``slots`` (indexes into ``caps``), at most ``caps[j]``
    into slot ``j``: one count per slot in ``slots``."""
    if not slots:
        if n == 0:
            yield ()
        return
    first, rest = slots[0], slots[1:]
    room = sum(caps[j] for j in rest)
    for x in range(max(0, n - room), min(n, caps[first]) + 1):
        for tail in _compositions(n - x, caps, rest):
            yield (x, *tail)


def _multinomial(n: int, parts: Sequence[int]) -> int:
    out = factorial(n)
    for p in parts:
        out //= factorial(p)
    return out


class _Plan:
    """Counts of the ways to place groups of interchangeable cards into capacitated slots (each
    group allowed in some slots), for exact uniform sampling."""

    def __init__(self, sizes: tuple[int, ...], allowed: tuple[tuple[int, ...], ...]) -> None:
        self.sizes = sizes
        self.allowed = allowed
        self.memo: dict[tuple[int, tuple[int, ...]], int] = {}

    def count(self, g: int, caps: tuple[int, ...]) -> int:
        """Ways to place groups ``g..`` into ``caps`` exactly (every slot filled)."""
        if g == len(self.sizes):
            return 1 if not any(caps) else 0
        key = (g, caps)
        found = self.memo.get(key)
        if found is not None:
            return found
        total = 0
        n, slots = self.sizes[g], self.allowed[g]
        for x in _compositions(n, caps, slots):
            rest = list(caps)
            for j, k in zip(slots, x, strict=True):
                rest[j] -= k
            total += _multinomial(n, x) * self.count(g + 1, tuple(rest))
        self.memo[key] = total
        return total


_PLANS: dict[tuple[tuple[int, ...], tuple[tuple[int, ...], ...]], _Plan] = {}


def place(
    rng: Bits,
    groups: Sequence[Sequence[int]],
    allowed: Sequence[Sequence[int]],
    caps: Sequence[int],
) -> list[list[int]]:
    """Put every card of ``groups`` into a slot, ``caps[j]`` cards into slot ``j``, a card of
    group ``g`` only into a slot of ``allowed[g]``: uniformly among all such placements of the
    cards themselves. Returns each slot's cards (ascending). :class:`Inconsistent` if none.

    Slots that the same groups may fill are merged first (a placement into the merged slot,
    then a uniform split of its cards, is uniform too), so the count runs over few slots."""
    by_signature: dict[tuple[int, ...], list[int]] = {}
    for j in range(len(caps)):
        signature = tuple(g for g, a in enumerate(allowed) if j in a)
        by_signature.setdefault(signature, []).append(j)
    merged = sorted(by_signature.items(), key=lambda kv: kv[1][0])
    merged_caps = tuple(sum(caps[j] for j in members) for _, members in merged)
    merged_allowed = tuple(
        tuple(m for m, (signature, _) in enumerate(merged) if g in signature)
        for g in range(len(groups))
    )
    filled = _place_merged(rng, groups, merged_allowed, merged_caps)
    out: list[list[int]] = [[] for _ in caps]
    for (_, members), cards in zip(merged, filled, strict=True):
        order = shuffled(rng, cards)
        start = 0
        for j in members:
            out[j] = sorted(order[start : start + caps[j]])
            start += caps[j]
    return out


def _place_merged(
    rng: Bits,
    groups: Sequence[Sequence[int]],
    allowed: tuple[tuple[int, ...], ...],
    caps: tuple[int, ...],
) -> list[list[int]]:
    sizes = tuple(len(g) for g in groups)
    key = (sizes, allowed)
    plan = _PLANS.get(key)
    if plan is None:
        if len(_PLANS) > 4096:
            _PLANS.clear()
        plan = _PLANS[key] = _Plan(sizes, allowed)
    left = caps
    total = plan.count(0, left)
    if total == 0:
        raise Inconsistent("no placement of the unseen cards fits what was seen")
    out: list[list[int]] = [[] for _ in caps]
    for g, cards in enumerate(groups):
        n, slots = sizes[g], allowed[g]
        r = below(rng, plan.count(g, left))
        chosen: tuple[int, ...] = ()
        after = left
        for x in _compositions(n, left, slots):
            rest = list(left)
            for j, k in zip(slots, x, strict=True):
                rest[j] -= k
            weight = _multinomial(n, x) * plan.count(g + 1, tuple(rest))
            if r < weight:
                chosen, after = x, tuple(rest)
                break
            r -= weight
        order = shuffled(rng, sorted(cards))
        start = 0
        for j, k in zip(slots, chosen, strict=True):
            out[j].extend(order[start : start + k])
            start += k
        left = after
    return [sorted(s) for s in out]


def fill_positions(
    rng: Bits,
    positions: Sequence[float],
    shown: Sequence[tuple[int, int]],
    unseen: Sequence[int],
) -> dict[int, int]:
    """Give one seat's cards their positions: ``positions`` are the times the seat came by its
    cards (dealt: -1, a draw: its time), ``shown`` the cards it showed ``(time, card)``, each
    necessarily held since a position of an earlier time, ``unseen`` the rest. Uniform among the
    valid assignments; returns ``position index -> card``."""
    free = list(range(len(positions)))
    out: dict[int, int] = {}
    for time, card in sorted(shown):
        ready = [i for i in free if positions[i] < time]
        if not ready:
            raise Inconsistent("a card was shown before it could have been held")
        pick = ready[below(rng, len(ready))]
        free.remove(pick)
        out[pick] = card
    if len(free) != len(unseen):
        raise Inconsistent("the seat's cards do not add up")
    for i, card in zip(free, shuffled(rng, sorted(unseen)), strict=True):
        out[i] = card
    return out


# -- As-Nas ----------------------------------------------------------------------------------------

_AS_NAS_SEATS = 4


def _as_nas(msg: Any, seat: int, rng: Bits) -> Deal:
    """As-Nas: the seat's own hand once it looked (ranks: copies are interchangeable), the rest
    of the 20 cards dealt uniformly. No move is hidden."""
    n = _AS_NAS_SEATS
    dealer = int(msg.dealer)
    own: list[int] = []
    if msg.seats[seat].looked and len(msg.hand) == 5:
        copies = [0] * 5
        for wire_rank in msg.hand:
            rank = int(wire_rank) - 1
            own.append(4 * rank + copies[rank])
            copies[rank] += 1
    unseen = sorted(set(range(20)) - set(own))
    others = [s for s in range(n) if s != seat or not own]
    caps = [5] * len(others)
    slots = place(rng, [unseen], [range(len(others))], caps)
    hands: list[tuple[int, ...]] = [()] * n
    for s, cards in zip(others, slots, strict=True):
        hands[s] = tuple(cards)
    if own:
        hands[seat] = tuple(sorted(own))
    deck = [0] * 20
    for k in range(n):
        for i, card in enumerate(hands[(dealer - 1 - k) % n]):
            deck[k + n * i] = card
    return Deal(tuple(deck), ((),) * n, tuple(hands))


# -- Fipsen ----------------------------------------------------------------------------------------

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


def _fipsen(msg: Any, seat: int, rng: Bits) -> Deal:
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
            kept = _choose(rng, low_cards if eligible[declarer] else pool, 5)
            taken = sorted(set(pool) - set(kept))
        dealt[declarer] = sorted(set(pool) - set(taken))
        if kieker_contract:
            skat = sorted(_choose(rng, taken, 2))
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


def _choose(rng: Bits, items: Sequence[int], k: int) -> list[int]:
    """``k`` of ``items``, uniformly (ascending)."""
    if k > len(items):
        raise Inconsistent("too few cards to choose from")
    return sorted(shuffled(rng, sorted(items))[:k])


# -- the chip games: seats, deal order -------------------------------------------------------------


def _chip_seats(table: Any, round_index: int) -> list[int]:
    """The seats dealt in this round: those not eliminated before it."""
    return [
        s for s, r in enumerate(table.eliminated_after_round) if int(r) < 0 or int(r) >= round_index
    ]


def _chip_deck(
    n: int, dealer: int, dealt: Sequence[int], hands: Sequence[Sequence[int]], stock: Sequence[int]
) -> tuple[int, ...]:
    """The deck that deals ``hands`` (five cards each, one at a time clockwise from the dealer's
    left among the ``dealt`` seats) and then ``stock``."""
    receivers = sorted(dealt, key=lambda s: (s - dealer - 1) % n)
    m = len(receivers)
    deck = [0] * (5 * m)
    for k, s in enumerate(receivers):
        for i, card in enumerate(hands[s]):
            deck[k + m * i] = card
    return (*deck, *stock)


# -- Felduz ----------------------------------------------------------------------------------------

_CHIP_IN, _CHIP_OUT, _CHIP_BET, _CHIP_RAISE, _CHIP_END = 0, 1, 2, 4003, 8004
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
            if not (_CHIP_IN <= a3 < _CHIP_BET or _CHIP_RAISE <= a3 < _CHIP_END):
                return True  # the sequence closed and the turn went on
            if s3 == seat and a3 == _CHIP_OUT:
                return False
        return not bet_open and not pending
    return False


def _felduz(msg: Any, seat: int, rng: Bits, shown_down: Shown | None = None) -> Deal:
    """Felduz: the others' hands and splits during the opening; afterwards each seat's closed
    field and reserve (a reserve of one card left a field of 40 or more), when each card came
    (dealt, or a draw before it was revealed), and the stock's order. ``shown_down``: the closed
    fields and reserves a showdown showed (a match's last round, seen after its end)."""
    table = msg.table
    n = len(table.stacks)
    round_index = int(msg.round)
    dealer = int(table.dealer)
    dealt = _chip_seats(table, round_index)
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
        deck = _chip_deck(n, dealer, dealt, [dealt_hands.get(s, []) for s in range(n)], stock)
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
    deck = _chip_deck(n, dealer, dealt, [dealt_hands.get(s, []) for s in range(n)], stock)
    return Deal(deck, tuple(tuple(h) for h in hidden), tuple(hands))


# -- Scauver ---------------------------------------------------------------------------------------

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
        is_bet = _CHIP_BET <= a < _CHIP_RAISE
        if a in (_S_FOLD, _S_PROCEED) or (is_bet and not _S_PAIR <= last.get(s, -1) < _S_OPEN):
            starts.append((i, s))
        last[s] = a
    return starts


def _scauver(msg: Any, seat: int, rng: Bits) -> Deal:
    """Scauver: the others' hands and openings during the opening; afterwards each seat's hand
    and when each card came (dealt, or drawn at a turn before it was placed), and the stock."""
    table = msg.table
    n = len(table.stacks)
    dealer = int(table.dealer)
    dealt = _chip_seats(table, int(table.round))
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
        deck = _chip_deck(n, dealer, dealt, [dealt_hands.get(s, []) for s in range(n)], stock)
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
    deck = _chip_deck(n, dealer, dealt, [dealt_hands.get(s, []) for s in range(n)], stock)
    return Deal(deck, tuple(tuple(h) for h in hidden), tuple(hands))


#: The samplers by ``Observation.game`` field name. They stay here, not in each game's package
#: (``croupier.games.<game>``): the SDK, which needs them, must not depend on the server, and a
#: sampler reads only its game's wire message, never the game's rules.
_SAMPLERS: dict[str, Callable[[Any, int, Bits], Deal]] = {
    "as_nas": _as_nas,
    "fipsen": _fipsen,
    "felduz": _felduz,
    "scauver": _scauver,
}


def sample(observation: Any, seat: int, rng: Bits, shown_down: Shown | None = None) -> Deal:
    """A :class:`Deal` of the round in progress drawn uniformly among those consistent with
    ``observation`` (a ``croupier.v1.Observation``: exactly what seat ``seat`` was sent).
    ``shown_down`` (Felduz, after the match's last round: what its showdown showed). Raises
    :class:`Inconsistent` if the observation admits none."""
    game = observation.WhichOneof("game")
    sampler = _SAMPLERS.get(game or "")
    if sampler is None:
        raise ValueError(f"no resampling for observation {game!r}")
    msg = getattr(observation, game)
    if shown_down:
        return _felduz(msg, seat, rng, shown_down)
    return sampler(msg, seat, rng)
