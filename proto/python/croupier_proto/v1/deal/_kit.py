"""The sampler's kit: random draws, cards into capacitated slots uniformly, a seat's cards
into the times it came by them, and the chip games' seats and deal order (what the games'
samplers beside this module share)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from math import factorial
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


def choose(rng: Bits, items: Sequence[int], k: int) -> list[int]:
    """``k`` of ``items``, uniformly (ascending)."""
    if k > len(items):
        raise Inconsistent("too few cards to choose from")
    return sorted(shuffled(rng, sorted(items))[:k])


# -- the chip games: seats, deal order, moves ------------------------------------------------------


def chip_seats(table: Any, round_index: int) -> list[int]:
    """The seats dealt in this round: those not eliminated before it."""
    return [
        s for s, r in enumerate(table.eliminated_after_round) if int(r) < 0 or int(r) >= round_index
    ]


def chip_deck(
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


#: A chip game's action ids of the chip moves: in, out, the first bet, the first raise, and
#: the first id past them (the game's own moves).
CHIP_IN, CHIP_OUT, CHIP_BET, CHIP_RAISE, CHIP_END = 0, 1, 2, 4003, 8004
