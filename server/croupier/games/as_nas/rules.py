"""As-Nas, Cardavia rules: four players, 20 cards, one betting round per deal, 12 deals.

Rules: ``docs/rules/as-nas.md`` (binding reading of ``shared/rules/as-nas.md``). Version 1.

Seats are numbered clockwise; "right" of seat ``i`` is ``i - 1 (mod 4)``. Dealing and betting go
counter-clockwise starting at the dealer's right (``dealer-1, dealer-2, dealer-3, dealer``); the
dealer moves one seat right after each deal.

Decisions where the rules are silent (also in the rules doc):

* The first dealer is a chance node with outcome ``(seat,)``; each deal is a chance node whose
  outcome is the shuffled deck (20 card ids), dealt one at a time in betting order.
* A card id is ``4 * rank + copy``; ranks ``0..4`` are Couli, Sarbaz, Bibi, Shah, As (As highest).
  Copies only name physical cards in the omniscient replay; observations show ranks.
* Scores are exact: pots split into halves, thirds or quarters, so the state keeps totals in
  twelfths and ``returns`` gives :class:`~fractions.Fraction` values.
* Timeout/fault default action: ``HOLD`` when legal, otherwise ``FOLD``. A seat that forfeits
  the deal (fault policy) concedes with ``FOLD`` (``concede_action``).
* "The full public action history" is given as ``history`` (this deal's actions, in order) and
  ``past_deals`` (each finished deal's actions and result: shown hands, winners, settlement);
  ``last_deal`` is the latest result.

Action ids (ascending in every legal list):

====  =======  ==========================================================
 id   action   legal when
====  =======  ==========================================================
 0    LOOK     the seat has not looked (does not end the turn)
 1    FOLD     always
 2    CALL     own stake < H (stake := H)
 3    HOLD     own stake == H
 4    RAISE    H < 4 (stake := H + 1, H := H + 1)
====  =======  ==========================================================

Observation (:class:`AsNasObservation`): seat, deal index and count, dealer, seat to act, own hand
(ranks, empty until looked), every seat's stake / folded / looked, H, pot, totals, this deal's
public history, every finished deal (its history and result; ``last_deal`` is the latest).

Parameters: ``players`` 4 (fixed), ``deals`` 12 (1..1000).
"""

from __future__ import annotations

import enum
import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType
from typing import NamedTuple

from croupier.games._api import GameInfo, ParamSpec, fast_replace, put
from croupier.games._rules import PastRound, Rules, Step

NUM_SEATS = 4
HAND_SIZE = 5
NUM_RANKS = 5
COPIES = 4
DECK_SIZE = NUM_RANKS * COPIES
MAX_BET = 4
#: Scores are kept in twelfths: every split of a pot among 1..4 winners is exact.
UNIT = 12

RANK_NAMES = ("Couli", "Sarbaz", "Bibi", "Shah", "As")


class Action(enum.IntEnum):
    """Action ids; stable across versions."""

    LOOK = 0
    FOLD = 1
    CALL = 2
    HOLD = 3
    RAISE = 4


class Phase(enum.IntEnum):
    """Where the match stands."""

    DRAW_DEALER = 0  # chance: the first dealer
    DEAL = 1  # chance: shuffle and deal
    BETTING = 2
    OVER = 3


class Category(enum.IntEnum):
    """Hand categories, weakest first."""

    HIGH_CARD = 0
    PAIR = 1
    TWO_PAIR = 2
    THREE_OF_A_KIND = 3
    FULL_HOUSE = 4
    FOUR_OF_A_KIND = 5


def hand_key(ranks: tuple[int, ...] | list[int]) -> tuple[int, ...]:
    """Comparison key of a 5-card hand given as ranks: a larger key is a stronger hand.

    ``(category, grouped ranks…)``: ranks ordered by group size, then rank, high to low; equal
    keys tie. Straights and flushes do not exist.
    """
    key = _HAND_KEYS.get(tuple(sorted(ranks)))
    return key if key is not None else _hand_key(ranks)


def _hand_key(ranks: tuple[int, ...] | list[int]) -> tuple[int, ...]:
    counts = [0] * NUM_RANKS
    for r in ranks:
        counts[r] += 1
    groups = sorted(((c, r) for r, c in enumerate(counts) if c), reverse=True)
    shape = tuple(c for c, _ in groups)
    category = _CATEGORY_OF_SHAPE[shape]
    return (int(category), *(r for _, r in groups))


_CATEGORY_OF_SHAPE = {
    (4, 1): Category.FOUR_OF_A_KIND,
    (3, 2): Category.FULL_HOUSE,
    (3, 1, 1): Category.THREE_OF_A_KIND,
    (2, 2, 1): Category.TWO_PAIR,
    (2, 1, 1, 1): Category.PAIR,
    (1, 1, 1, 1, 1): Category.HIGH_CARD,
}


_HAND_KEYS = {
    hand: _hand_key(hand)
    for hand in itertools.combinations_with_replacement(range(NUM_RANKS), HAND_SIZE)
    if max(hand.count(r) for r in hand) <= COPIES
}


def hand_category(ranks: tuple[int, ...]) -> Category:
    """The category of a 5-card hand given as ranks."""
    return Category(hand_key(ranks)[0])


def card_rank(card: int) -> int:
    """Rank 0..4 of a card id."""
    return card // COPIES


def card_name(card: int) -> str:
    """``As#2``: rank name and copy index of a physical card."""
    return f"{RANK_NAMES[card // COPIES]}#{card % COPIES}"


@dataclass(frozen=True, slots=True)
class DealResult:
    """How a finished deal ended; public.

    ``revealed[s]`` is seat ``s``'s hand (ranks, high to low) if it was shown at showdown, else
    ``None`` (folded, or the deal ended with a lone survivor). ``deltas`` are the settlements.
    """

    deal_index: int
    dealer: int
    revealed: tuple[tuple[int, ...] | None, ...]
    winners: tuple[int, ...]
    pot: int
    deltas: tuple[Fraction, ...]


class AsNasState(NamedTuple):
    """Immutable match state. ``hands`` hold card ids sorted ascending; totals are in twelfths."""

    num_deals: int
    round_index: int
    dealer: int
    phase: Phase
    hands: tuple[tuple[int, ...], ...]
    looked: tuple[bool, ...]
    folded: tuple[bool, ...]
    acted: tuple[bool, ...]
    stakes: tuple[int, ...]
    high: int
    to_act: int
    totals: tuple[int, ...]
    history: tuple[tuple[int, int], ...]
    past: tuple[PastRound[DealResult], ...]


#: ``state._replace(**changes)``, faster (the hot path).
_with = fast_replace(AsNasState)


@dataclass(frozen=True, slots=True)
class AsNasObservation:
    """What one seat (or, with ``seat=None``, a spectator) may see.

    ``hand`` is the seat's own ranks high to low once it has looked, else empty. ``to_act`` is
    ``None`` at chance nodes and at the end.
    """

    seat: int | None
    deal_index: int
    num_deals: int
    dealer: int
    to_act: int | None
    hand: tuple[int, ...]
    looked: tuple[bool, ...]
    folded: tuple[bool, ...]
    stakes: tuple[int, ...]
    high: int
    pot: int
    totals: tuple[Fraction, ...]
    history: tuple[tuple[int, int], ...]
    past_deals: tuple[PastRound[DealResult], ...]

    @property
    def last_deal(self) -> DealResult | None:
        """The result of the latest finished deal, if any."""
        return self.past_deals[-1].result if self.past_deals else None


_EMPTY_HANDS: tuple[tuple[int, ...], ...] = ((),) * NUM_SEATS
_NO = (False,) * NUM_SEATS
_ZERO = (0,) * NUM_SEATS


def _legal_table() -> dict[tuple[bool, bool, bool], tuple[int, ...]]:
    """Legal ids by (looked, stake below H, H below the cap): the betting clause as a table."""
    table = {}
    for looked in (False, True):
        for below in (False, True):
            for can_raise in (False, True):
                ids = [] if looked else [Action.LOOK]
                ids += [Action.FOLD, Action.CALL if below else Action.HOLD]
                ids += [Action.RAISE] if can_raise else []
                table[looked, below, can_raise] = tuple(int(a) for a in ids)
    return table


_LEGAL = _legal_table()
_LOOK, _FOLD, _CALL, _RAISE = (
    int(Action.LOOK),
    int(Action.FOLD),
    int(Action.CALL),
    int(Action.RAISE),
)
#: The labels of the moves that name no amount, by id (every label is made per decision).
_NAMES = {int(a): a.name.capitalize() for a in Action}
#: Stakes at the start of a deal, by dealer: the dealer's forced 1.
_DEALER_STAKES = tuple(tuple(int(s == d) for s in range(NUM_SEATS)) for d in range(NUM_SEATS))
#: Exact settlements in twelfths as Fractions, made once (a deal moves at most 16 * 12 units).
_FRACTIONS = {n: Fraction(n, UNIT) for n in range(-16 * UNIT, 16 * UNIT + 1)}


def _fraction(units: int) -> Fraction:
    value = _FRACTIONS.get(units)
    return value if value is not None else Fraction(units, UNIT)


def _right(seat: int) -> int:
    return (seat - 1) % NUM_SEATS


# -- deal boundaries -------------------------------------------------------------------------------


def _between_deals(
    *,
    num_deals: int,
    round_index: int,
    dealer: int,
    phase: Phase,
    totals: tuple[int, ...],
    past: tuple[PastRound[DealResult], ...],
) -> AsNasState:
    """A state between deals (or before the first): no hands, no stakes, nobody to act."""
    return AsNasState(
        num_deals=num_deals,
        round_index=round_index,
        dealer=dealer,
        phase=phase,
        hands=_EMPTY_HANDS,
        looked=_NO,
        folded=_NO,
        acted=_NO,
        stakes=_ZERO,
        high=0,
        to_act=-1,
        totals=totals,
        history=(),
        past=past,
    )


# -- betting ------------------------------------------------------------------------------------


def _legal_betting(state: AsNasState) -> tuple[int, ...]:
    seat = state.to_act
    return _LEGAL[state.looked[seat], state.stakes[seat] < state.high, state.high < MAX_BET]


def _apply_betting(state: AsNasState, action: int) -> AsNasState:
    seat = state.to_act
    history = (*state.history, (seat, action))
    if action == _LOOK:
        return _with(state, looked=put(state.looked, seat, True), history=history)
    stakes, folded, high = state.stakes, state.folded, state.high
    acted = put(state.acted, seat, True)
    if action == _FOLD:
        folded = put(folded, seat, True)
    elif action == _CALL:
        stakes = put(stakes, seat, high)
    elif action == _RAISE:
        high += 1
        stakes = put(stakes, seat, high)
    nxt = (seat - 1) % NUM_SEATS
    while folded[nxt]:
        nxt = (nxt - 1) % NUM_SEATS
    if action == _FOLD and folded.count(False) == 1:  # the last one in wins at once
        return _settle(state, stakes, folded, history, [nxt], showdown=False)
    for s in range(NUM_SEATS):
        if not folded[s] and (not acted[s] or stakes[s] != high):
            return _with(
                state, folded=folded, acted=acted, stakes=stakes, high=high, to_act=nxt,
                history=history,
            )  # fmt: skip
    live = [s for s in range(NUM_SEATS) if not folded[s]]
    return _settle(state, stakes, folded, history, live, showdown=True)


def _settle(
    state: AsNasState,
    stakes: tuple[int, ...],
    folded: tuple[bool, ...],
    history: tuple[tuple[int, int], ...],
    live: list[int],
    *,
    showdown: bool,
) -> AsNasState:
    revealed: list[tuple[int, ...] | None] = [None] * NUM_SEATS
    if showdown:
        keys = {}
        for s in live:
            ranks = tuple([c // COPIES for c in reversed(state.hands[s])])
            revealed[s] = ranks
            keys[s] = _HAND_KEYS[ranks[::-1]]
        best = max(keys.values())
        winners = tuple(s for s in live if keys[s] == best)
    else:
        winners = (live[0],)
    pot = sum(stakes)
    share = pot * UNIT // len(winners)  # exact: len(winners) divides UNIT
    deltas = [-stakes[s] * UNIT + (share if s in winners else 0) for s in range(NUM_SEATS)]
    totals = tuple(t + d for t, d in zip(state.totals, deltas, strict=True))
    result = DealResult(
        deal_index=state.round_index,
        dealer=state.dealer,
        revealed=tuple(revealed),
        winners=winners,
        pot=pot,
        deltas=tuple(_fraction(d) for d in deltas),
    )
    past = (*state.past, PastRound(history, result))
    if state.round_index + 1 >= state.num_deals:
        return _with(
            state, phase=Phase.OVER, folded=tuple(folded), stakes=tuple(stakes), to_act=-1,
            totals=totals, history=(), past=past,
        )  # fmt: skip
    return _between_deals(
        num_deals=state.num_deals,
        round_index=state.round_index + 1,
        dealer=_right(state.dealer),
        phase=Phase.DEAL,
        totals=totals,
        past=past,
    )


class AsNas(Rules[AsNasState]):
    """The As-Nas game module (see the module docstring); stateless: use :data:`GAME`."""

    info = GameInfo(
        name="as-nas",
        title="As-Nas (Cardavia rules)",
        version=1,
        min_players=NUM_SEATS,
        max_players=NUM_SEATS,
        num_distinct_actions=len(Action),
        params=(
            ParamSpec("players", NUM_SEATS, NUM_SEATS, NUM_SEATS, "number of seats (fixed)"),
            ParamSpec("deals", 12, 1, 1000, "deals in a match"),
        ),
        rules_doc="docs/rules/as-nas.md",
    )
    deck_size = DECK_SIZE
    draw_dealer = Phase.DRAW_DEALER
    deal = Phase.DEAL
    steps = MappingProxyType({Phase.BETTING: Step(_legal_betting, _apply_betting)})

    # -- the contract -------------------------------------------------------------------------

    def initial_state(self, params: Mapping[str, int]) -> AsNasState:
        p = self.info.make_params(params)
        return _between_deals(
            num_deals=p["deals"],
            round_index=0,
            dealer=-1,
            phase=Phase.DRAW_DEALER,
            totals=_ZERO,
            past=(),
        )

    def num_players(self, state: AsNasState) -> int:
        return NUM_SEATS

    def to_act(self, state: AsNasState) -> int:
        return state.to_act

    def observe(self, state: AsNasState, seat: int | None) -> AsNasObservation:
        if seat is not None and state.looked[seat]:
            hand = tuple(card_rank(c) for c in reversed(state.hands[seat]))
        else:
            hand = ()
        return AsNasObservation(
            seat=seat,
            deal_index=state.round_index,
            num_deals=state.num_deals,
            dealer=state.dealer,
            to_act=state.to_act if state.phase is Phase.BETTING else None,
            hand=hand,
            looked=state.looked,
            folded=state.folded,
            stakes=state.stakes,
            high=state.high,
            pot=sum(state.stakes),
            totals=tuple(_fraction(t) for t in state.totals),
            history=state.history,
            past_deals=state.past,
        )

    def totals(self, state: AsNasState) -> tuple[Fraction, ...]:
        return tuple(_fraction(t) for t in state.totals)

    def action_label(self, state: AsNasState, action: int) -> str:
        if action == _CALL:
            return f"Call:{state.high}"
        if action == _RAISE:
            return f"Raise:{state.high + 1}"
        name = _NAMES.get(action)
        return name if name is not None else Action(action).name  # (ValueError: no such id)

    def default_choice(self, state: AsNasState, legal: Sequence[int]) -> int:
        stake = state.stakes[state.to_act]
        return int(Action.HOLD if stake == state.high else Action.FOLD)

    def concede_action(self, state: AsNasState) -> int:
        return _FOLD  # always legal: the stake stays in the pot, the hand is never shown

    def round_index(self, state: AsNasState) -> int:
        return state.round_index

    def dealer(self, state: AsNasState) -> int:
        return state.dealer

    # -- chance ---------------------------------------------------------------------------------

    def seat_dealer(self, state: AsNasState, dealer: int) -> AsNasState:
        return _with(state, dealer=dealer, phase=Phase.DEAL)

    def deal_cards(self, state: AsNasState, deck: tuple[int, ...]) -> AsNasState:
        dealer = state.dealer
        # one card at a time from the dealer's right: the k-th receiver gets deck[k::4]
        hands: list[tuple[int, ...]] = [()] * NUM_SEATS
        for k in range(NUM_SEATS):
            hands[(dealer - 1 - k) % NUM_SEATS] = tuple(sorted(deck[k::NUM_SEATS]))
        return _with(
            state,
            phase=Phase.BETTING,
            hands=tuple(hands),
            looked=_NO,
            folded=_NO,
            acted=_NO,
            stakes=_DEALER_STAKES[dealer],
            high=1,
            to_act=_right(dealer),
            history=(),
        )

    def deal_label(self, state: AsNasState, dealt: AsNasState) -> str:
        shown = "; ".join(
            f"seat {s}: {' '.join(RANK_NAMES[card_rank(c)] for c in reversed(h))}"
            for s, h in enumerate(dealt.hands)
        )
        return f"Deal {state.round_index + 1}, dealer seat {state.dealer}: {shown}"


#: The As-Nas game instance registered in :mod:`croupier.games`.
GAME = AsNas()
