"""Felduz: 2 to 4 players, the 40-card deck, betting chips; the lowest field of 40 or more wins.

Rules: ``docs/rules/felduz.md`` (binding reading of ``shared/rules/felduz.md``; betting, amphora,
pot and elimination: ``docs/rules/chips.md`` via :mod:`croupier.games._chips`). Version 1.

Seats are numbered clockwise; seat ``i + 1`` sits to the left of seat ``i``. A round: the amphora
(``_chips.start_round``), the deal (five cards each, one at a time clockwise from the dealer's
left; the rest is the stock, drawn from the front), the simultaneous opening split, turns
clockwise from the dealer's left, then the showdown or a lone winner; the dealer moves one
seated player left each round.

Readings where the rules are silent (also in the rules doc):

* **Chance.** The first dealer is a chance node with outcome ``(seat,)``; each round's deal is one
  chance node whose outcome is the shuffled 40-card deck, card ids in deal order.
* **Opening.** The simultaneous split is asked seat by seat, clockwise from the dealer's left, and
  applied to the table only when the last seat has chosen. Split actions are not public; until
  all have chosen, no observation shows another seat's choice (a seat sees who has chosen, which
  the order of play tells anyway). Split id = ``SPLIT + i``, ``i`` the index of the open 3-subset
  in ``itertools.combinations`` over the hand sorted by card id.
* **A turn.** ``DRAW``/``STAND`` → the betting step (``NO_BET``/``BET+x``, the others answering
  through ``_chips.answer``) → if it drew: ``REVEAL+card`` → if it drew: ``CONTINUE``/``STAND``
  → on standing (in step 1 or 4): the reserve. A seat that has stood gets turns with only the
  betting step. A bettor that answers a raise with ``OUT`` ends its turn at once.
* **End of the round.** At the end of every turn, if every live player has stood, the showdown
  follows. This also covers a turn in which the last player still drawing answered a bet with
  ``OUT`` (otherwise the players who stood would take betting turns for ever).
* **Reserve ids** name the cards: ``RESERVE`` (empty), ``RESERVE_ONE + card``, ``RESERVE_TWO +
  40 * low + high``. The closed field is always two cards when a seat stands. Reserve actions
  are not public: the others see only the count of reserve cards.
* **Showdown events** are recorded in order in the round result, each with the seats still in
  contention after it: ``QUALIFIED`` (the seats whose field sums to 40 or more, or every seat
  when nobody qualifies), then for qualified seats ``POINTS`` (lower sum of the field) and
  ``RESERVE`` (lower sum of the reserve), then ``LENGTH`` (fewer field cards), ``RANK`` (the
  field's values sorted ascending, the lower list wins) and ``SPLIT`` (the pot is shared). Events
  stop as soon as one seat is left.
* **Default action** (timeouts, faults): the first split, ``STAND``, ``NO_BET``, ``OUT`` when
  answering a bet, the lowest card to reveal, ``STAND`` at step 4, the empty reserve.
* **Scores** are chips (stack plus chips committed in the round in progress); ranking by
  ``_chips.ranking``. ``round_index`` is the table's round (0 before the first).

Action ids (ascending in every legal list; ``B = _chips.CHIP_ACTIONS``):

==========================  ================  ===============================================
 id                          label             legal when
==========================  ================  ===============================================
 ``IN``, ``OUT``             In, Out           answering a bet
 ``BET + x``                 Bet:4             the turn's betting step, ``x`` within the cap
 ``RAISE + y``               Raise:2           answering a bet, ``y`` within the cap
 ``B + 0`` NO_BET            NoBet             the turn's betting step
 ``B + 1`` DRAW              Draw              step 1, the stock is not empty
 ``B + 2`` STAND             Stand             step 1 or step 4
 ``B + 3`` CONTINUE          Continue          step 4
 ``B + 4 + i`` SPLIT         Open:[K♣ 2♦ 7♥]   the opening, ``i`` in 0..9
 ``B + 14 + c`` REVEAL       Reveal:7♥         step 3, card ``c`` in the closed field
 ``B + 54`` RESERVE          Reserve:[]        on standing
 ``B + 55 + c`` RESERVE_ONE  Reserve:[K♣]      on standing, the rest of the field sums to ≥ 40
 ``B + 95 + 40a + b``        Reserve:[K♣ 2♦]   on standing (``a < b``), likewise
==========================  ================  ===============================================

Observation (:class:`FelduzObservation`): the whole chip table, phase, seat to act, whose turn
it is and how it began, every seat's open field (hidden during the opening), closed and reserve
counts, stood and chosen flags, the stock size, the seat's own closed field and reserve, this
round's public actions and every finished round (its actions and result with the showdown).

Parameters (``_chips.PARAMS``): ``players`` 2 (2..4), ``stack`` 100, ``amphora`` 1,
``double_every`` 10, ``round_cap`` 300.
"""

from __future__ import annotations

import enum
import itertools
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, NamedTuple

import numpy as np

from croupier.errors import IllegalActionError
from croupier.games import cards40, chips
from croupier.games._api import (
    CHANCE,
    TERMINAL,
    GameInfo,
    action_id,
    fast_replace,
    first_dealer,
    put,
    shuffled_deck,
)

HAND_SIZE = 5
OPEN_SIZE = 3
#: A field qualifies when its values sum to at least this.
QUALIFY = 40

_B = chips.CHIP_ACTIONS
NO_BET = _B
DRAW = _B + 1
STAND = _B + 2
CONTINUE = _B + 3
SPLIT = _B + 4
#: The open 3-subsets of a 5-card hand (positions in the hand sorted by card id), by split index.
SPLITS: tuple[tuple[int, ...], ...] = tuple(itertools.combinations(range(HAND_SIZE), OPEN_SIZE))
REVEAL = SPLIT + len(SPLITS)
RESERVE = REVEAL + cards40.DECK_SIZE
RESERVE_ONE = RESERVE + 1
RESERVE_TWO = RESERVE_ONE + cards40.DECK_SIZE
NUM_ACTIONS = RESERVE_TWO + cards40.DECK_SIZE * cards40.DECK_SIZE


_SPLIT_IDS = tuple(range(SPLIT, SPLIT + len(SPLITS)))
_VALUES = cards40.VALUES


class Phase(enum.IntEnum):
    """Where the match stands."""

    DRAW_DEALER = 0  # chance: the first dealer
    DEAL = 1  # chance: shuffle and deal
    OPENING = 2  # each seat splits its hand (asked one by one, applied together)
    DRAW = 3  # step 1: DRAW or STAND
    BET = 4  # step 2: NO_BET or BET, then the answers
    REVEAL = 5  # step 3: one closed card face up
    CONTINUE = 6  # step 4: CONTINUE or STAND
    RESERVE = 7  # step 5: the reserve
    OVER = 8


class First(enum.IntEnum):
    """How the turn in progress began."""

    BET_ONLY = 0  # the seat had stood before: only the betting step
    DRAW = 1
    STAND = 2


class Criterion(enum.IntEnum):
    """The showdown events, in the order they are applied."""

    QUALIFIED = 0  # by points: sum(F) >= 40 beats sum(F) < 40
    POINTS = 1  # by points: the lower sum(F) among qualified fields
    RESERVE = 2  # by points: the lower sum(R) on equal sums
    LENGTH = 3  # by length: fewer cards in F
    RANK = 4  # by rank: F's values ascending, the lower list
    SPLIT = 5  # still tied: the pot is split


@dataclass(frozen=True, slots=True)
class ShowdownEvent:
    """One showdown event: the criterion applied and the seats still in contention after it."""

    criterion: Criterion
    seats: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class RoundResult:
    """How a finished round ended; public.

    ``fields[s]`` and ``reserves[s]`` are seat ``s``'s field and reserve (card ids, ascending) if
    it was live at the showdown, else ``None`` (no showdown, folded, eliminated). ``events`` is
    empty when one live player was left.
    """

    round: int
    dealer: int
    settlement: chips.Settlement
    fields: tuple[tuple[int, ...] | None, ...]
    reserves: tuple[tuple[int, ...] | None, ...]
    events: tuple[ShowdownEvent, ...]

    @property
    def decided_by(self) -> Criterion | None:
        """The criterion that settled the showdown (``None`` without one)."""
        return self.events[-1].criterion if self.events else None


@dataclass(frozen=True, slots=True)
class PastRound:
    """A finished round as everyone saw it: its public actions ``(seat, action)`` and result."""

    history: tuple[tuple[int, int], ...]
    result: RoundResult


class Config(NamedTuple):
    """The match parameters a state needs."""

    players: int
    amphora: int
    double_every: int
    round_cap: int


class FelduzState(NamedTuple):
    """Immutable match state. Card tuples are sorted by card id.

    During the opening, ``closed`` holds each seat's five cards and ``splits`` the choices made so
    far (``-1``: none yet); the splits are applied when the last seat has chosen.
    """

    config: Config
    phase: Phase
    table: chips.Table
    open: tuple[tuple[int, ...], ...]
    closed: tuple[tuple[int, ...], ...]
    reserve: tuple[tuple[int, ...], ...]
    stock: tuple[int, ...]
    stood: tuple[bool, ...]
    splits: tuple[int, ...]
    #: The seat whose turn it is (during the opening: the seat choosing); -1 at chance nodes.
    turn: int
    first: First
    history: tuple[tuple[int, int], ...]
    past: tuple[PastRound, ...]


#: ``state._replace(**changes)``, faster (the hot path).
_with = fast_replace(FelduzState)


@dataclass(frozen=True, slots=True)
class FelduzObservation:
    """What one seat (or, with ``seat=None``, a spectator) may see.

    ``open_fields`` are empty for every other seat until all have split (a seat sees its own
    choice at once). ``closed`` and ``reserve`` are the seat's own cards (during the opening,
    ``closed`` is the whole hand until it has chosen). ``to_act`` is the seat that must act,
    ``turn`` the seat whose turn it is; both ``None`` at chance nodes and at the end.
    """

    seat: int | None
    round: int
    round_cap: int
    phase: Phase
    to_act: int | None
    turn: int | None
    first: First
    table: chips.Table
    open_fields: tuple[tuple[int, ...], ...]
    closed_counts: tuple[int, ...]
    reserve_counts: tuple[int, ...]
    stood: tuple[bool, ...]
    chosen: tuple[bool, ...]
    stock: int
    closed: tuple[int, ...]
    reserve: tuple[int, ...]
    history: tuple[tuple[int, int], ...]
    past_rounds: tuple[PastRound, ...]

    @property
    def last_round(self) -> RoundResult | None:
        """The result of the latest finished round, if any."""
        return self.past_rounds[-1].result if self.past_rounds else None


def field_sum(cards: tuple[int, ...]) -> int:
    """The point value of some cards."""
    return sum(map(_VALUES.__getitem__, cards))


def reserve_cards(action: int) -> tuple[int, ...]:
    """The cards a reserve action sets aside, ascending."""
    if action == RESERVE:
        return ()
    if RESERVE_ONE <= action < RESERVE_TWO:
        return (action - RESERVE_ONE,)
    if RESERVE_TWO <= action < NUM_ACTIONS:
        return divmod(action - RESERVE_TWO, cards40.DECK_SIZE)
    raise IllegalActionError(f"{action} is not a reserve action")


def reserve_action(cards: tuple[int, ...]) -> int:
    """The id of the reserve of ``cards`` (0, 1 or 2 card ids)."""
    if not cards:
        return RESERVE
    if len(cards) == 1:
        return RESERVE_ONE + cards[0]
    low, high = sorted(cards)
    return RESERVE_TWO + low * cards40.DECK_SIZE + high


def split_cards(hand: tuple[int, ...], index: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """``(open, closed)`` of split ``index`` of a hand sorted by card id."""
    chosen = SPLITS[index]
    return (
        tuple(hand[i] for i in chosen),
        tuple(c for i, c in enumerate(hand) if i not in chosen),
    )


def showdown(
    fields: Mapping[int, tuple[int, ...]], reserves: Mapping[int, tuple[int, ...]]
) -> tuple[ShowdownEvent, ...]:
    """The showdown events among the live seats of ``fields`` (at least two), in order.

    The last event's seats are the winners.
    """
    seats = tuple(sorted(fields))
    sums = {s: field_sum(fields[s]) for s in seats}
    events: list[ShowdownEvent] = []

    def keep(criterion: Criterion, key: Callable[[int], Any]) -> None:
        nonlocal seats
        best = min(key(s) for s in seats)
        seats = tuple(s for s in seats if key(s) == best)
        events.append(ShowdownEvent(criterion, seats))

    qualified = tuple(s for s in seats if sums[s] >= QUALIFY)
    seats = qualified or seats
    events.append(ShowdownEvent(Criterion.QUALIFIED, seats))
    if qualified:
        if len(seats) > 1:
            keep(Criterion.POINTS, sums.__getitem__)
        if len(seats) > 1:
            keep(Criterion.RESERVE, lambda s: field_sum(reserves[s]))
    if len(seats) > 1:
        keep(Criterion.LENGTH, lambda s: len(fields[s]))
    if len(seats) > 1:
        keep(Criterion.RANK, lambda s: sorted(_VALUES[c] for c in fields[s]))
    if len(seats) > 1:
        events.append(ShowdownEvent(Criterion.SPLIT, seats))
    return tuple(events)


_FRACTIONS = {n: Fraction(n) for n in range(chips.MAX_CHIPS + 1)}
_DRAW_STAND = (DRAW, STAND)
_STAND = (STAND,)
_STAND_CONTINUE = (STAND, CONTINUE)


class Felduz:
    """The Felduz game module (see the module docstring); stateless: use :data:`GAME`."""

    info = GameInfo(
        name="felduz",
        title="Felduz",
        version=1,
        min_players=2,
        max_players=chips.MAX_PLAYERS,
        num_distinct_actions=NUM_ACTIONS,
        params=chips.PARAMS,
        rules_doc="docs/rules/felduz.md",
    )

    # -- the contract -------------------------------------------------------------------------

    def initial_state(self, params: Mapping[str, int]) -> FelduzState:
        p = self.info.make_params(params)
        n = p["players"]
        config = Config(n, p["amphora"], p["double_every"], p["round_cap"])
        empty: tuple[tuple[int, ...], ...] = ((),) * n
        return FelduzState(
            config,
            Phase.DRAW_DEALER,
            chips.new_table(n, p["stack"]),
            empty,
            empty,
            empty,
            (),
            (False,) * n,
            (-1,) * n,
            -1,
            First.BET_ONLY,
            (),
            (),
        )

    def num_players(self, state: FelduzState) -> int:
        return state.config.players

    def current_player(self, state: FelduzState) -> int:
        phase = state.phase
        if phase is Phase.BET:
            bet = state.table.bet
            return bet.to_act if bet is not None else state.turn
        if phase is Phase.OVER:
            return TERMINAL
        if phase <= Phase.DEAL:
            return CHANCE
        return state.turn

    def legal_actions(self, state: FelduzState) -> tuple[int, ...]:
        phase = state.phase
        if phase is Phase.BET:
            table = state.table
            if table.bet is not None:
                return chips.answer_actions(table)
            return (*chips.bet_actions(table), NO_BET)
        if phase is Phase.DRAW:
            return _DRAW_STAND if state.stock else _STAND
        if phase is Phase.REVEAL:
            return tuple(REVEAL + c for c in state.closed[state.turn])
        if phase is Phase.CONTINUE:
            return _STAND_CONTINUE
        if phase is Phase.RESERVE:
            return self._legal_reserve(state)
        if phase is Phase.OPENING:
            return _SPLIT_IDS
        return ()

    def apply(self, state: FelduzState, action: int) -> FelduzState:
        action = action_id(action)
        phase = state.phase
        if phase is Phase.BET:  # the chips module validates bets and answers
            return self._apply_bet(state, action)
        if action not in self.legal_actions(state):
            if self.current_player(state) < 0:
                raise IllegalActionError(f"no seat acts in phase {state.phase.name}")
            raise IllegalActionError(
                f"action {action} is not legal for seat {self.current_player(state)}"
            )
        if phase is Phase.DRAW:
            return self._apply_draw(state, action)
        if phase is Phase.REVEAL:
            return self._apply_reveal(state, action)
        if phase is Phase.CONTINUE:
            return self._apply_continue(state, action)
        if phase is Phase.RESERVE:
            return self._apply_reserve(state, action)
        return self._apply_opening(state, action)

    def sample_chance(self, state: FelduzState, rng: np.random.Generator) -> tuple[int, ...]:
        if state.phase is Phase.DRAW_DEALER:
            return (int(rng.integers(state.config.players)),)
        if state.phase is Phase.DEAL:
            return tuple(int(c) for c in rng.permutation(cards40.DECK_SIZE))
        raise IllegalActionError(f"no chance event in phase {state.phase.name}")

    def apply_chance(self, state: FelduzState, outcome: tuple[int, ...]) -> FelduzState:
        if state.phase is Phase.DRAW_DEALER:
            return self._apply_draw_dealer(state, outcome)
        if state.phase is Phase.DEAL:
            return self._apply_deal(state, outcome)
        raise IllegalActionError(f"no chance event in phase {state.phase.name}")

    def chance_label(self, state: FelduzState, outcome: tuple[int, ...]) -> str:
        if state.phase is Phase.DRAW_DEALER:
            self._apply_draw_dealer(state, outcome)  # rejects what apply_chance rejects
            return f"First dealer: seat {outcome[0]}"
        dealt = self.apply_chance(state, outcome)
        hands = "; ".join(
            f"seat {s}: {cards40.cards_label(dealt.closed[s])}" for s in chips.seated(dealt.table)
        )
        return (
            f"Round {state.table.round + 1}, dealer seat {state.table.dealer}: {hands}; "
            f"stock {cards40.cards_label(dealt.stock)}"
        )

    def observe(self, state: FelduzState, seat: int | None) -> FelduzObservation:
        n = state.config.players
        phase = state.phase
        opening = phase is Phase.OPENING
        closed_counts = tuple(len(c) for c in state.closed)
        open_fields = state.open
        chosen = tuple(s >= 0 for s in state.splits)
        own_closed: tuple[int, ...] = ()
        own_reserve: tuple[int, ...] = ()
        if seat is not None:
            own_closed = state.closed[seat]
            own_reserve = state.reserve[seat]
        if opening:
            # Only the seat's own split may show before all have chosen.
            empty: tuple[tuple[int, ...], ...] = ((),) * n
            open_fields = empty
            if seat is not None and state.splits[seat] >= 0:
                mine, own_closed = split_cards(own_closed, state.splits[seat])
                open_fields = put(empty, seat, mine)
                closed_counts = put(closed_counts, seat, len(own_closed))
        else:
            chosen = (False,) * n
        player = self.current_player(state)
        acting = player >= 0
        return FelduzObservation(
            seat=seat,
            round=max(state.table.round, 0),
            round_cap=state.config.round_cap,
            phase=phase,
            to_act=player if acting else None,
            turn=state.turn if acting else None,
            first=state.first,
            table=state.table,
            open_fields=open_fields,
            closed_counts=closed_counts,
            reserve_counts=tuple(len(r) for r in state.reserve),
            stood=state.stood,
            chosen=chosen,
            stock=len(state.stock),
            closed=own_closed,
            reserve=own_reserve,
            history=state.history,
            past_rounds=state.past,
        )

    def returns(self, state: FelduzState) -> tuple[Fraction, ...]:
        return tuple(_FRACTIONS[c] for c in chips.chips(state.table))

    def ranking(self, state: FelduzState) -> tuple[int, ...]:
        return chips.ranking(state.table)

    def action_label(self, state: FelduzState, action: int) -> str:
        if chips.is_chip_action(action):
            return chips.chip_label(action)
        if action == NO_BET:
            return "NoBet"
        if action == DRAW:
            return "Draw"
        if action == STAND:
            return "Stand"
        if action == CONTINUE:
            return "Continue"
        if SPLIT <= action < REVEAL:
            if state.phase is not Phase.OPENING:
                raise IllegalActionError(f"{action} is a split, and no seat is splitting")
            opened, _ = split_cards(state.closed[state.turn], action - SPLIT)
            return f"Open:{cards40.cards_label(opened)}"
        if REVEAL <= action < RESERVE:
            return f"Reveal:{cards40.card_label(action - REVEAL)}"
        return f"Reserve:{cards40.cards_label(reserve_cards(action))}"

    def default_action(self, state: FelduzState) -> int:
        phase = state.phase
        if phase is Phase.BET:
            return chips.OUT if state.table.bet is not None else NO_BET
        if phase is Phase.DRAW or phase is Phase.CONTINUE:
            return STAND
        if phase is Phase.RESERVE:
            return RESERVE
        if phase is Phase.REVEAL or phase is Phase.OPENING:
            return self.legal_actions(state)[0]
        raise IllegalActionError(f"no seat acts in phase {phase.name}")

    def round_index(self, state: FelduzState) -> int:
        return max(state.table.round, 0)

    def dealer(self, state: FelduzState) -> int:
        return state.table.dealer

    def is_public(self, state: FelduzState, action: int) -> bool:
        return state.phase is not Phase.OPENING and state.phase is not Phase.RESERVE

    # -- chance ---------------------------------------------------------------------------------

    def _apply_draw_dealer(self, state: FelduzState, outcome: tuple[int, ...]) -> FelduzState:
        dealer = first_dealer(outcome, state.config.players)
        config = state.config
        table = chips.open_round(state.table, dealer, config.amphora, config.double_every)
        return _with(state, phase=Phase.DEAL, table=table)

    def _apply_deal(self, state: FelduzState, outcome: tuple[int, ...]) -> FelduzState:
        deck = shuffled_deck(outcome, cards40.DECK_SIZE)
        table = state.table
        hands, dealt = chips.deal(table, deck, HAND_SIZE)
        # the rest of the round's fields were reset when the last round ended (or at the start)
        return _with(
            state,
            phase=Phase.OPENING,
            closed=hands,
            stock=deck[dealt:],
            turn=chips.next_seated(table, table.dealer),
        )

    # -- the opening ----------------------------------------------------------------------------

    def _apply_opening(self, state: FelduzState, action: int) -> FelduzState:
        seat = state.turn
        splits = (*state.splits[:seat], action - SPLIT, *state.splits[seat + 1 :])
        table = state.table
        if seat != table.dealer:  # the dealer chooses last
            return _with(state, splits=splits, turn=chips.next_seated(table, seat))
        opened = list(state.open)
        closed = list(state.closed)
        for s in chips.seated(table):
            opened[s], closed[s] = split_cards(closed[s], splits[s])
        return _with(
            state,
            phase=Phase.DRAW,
            open=tuple(opened),
            closed=tuple(closed),
            splits=(-1,) * len(splits),
            turn=chips.next_live(table, table.dealer),
        )

    # -- a turn ---------------------------------------------------------------------------------

    def _apply_draw(self, state: FelduzState, action: int) -> FelduzState:
        seat = state.turn
        history = (*state.history, (seat, action))
        if action == DRAW:
            card = state.stock[0]
            closed = tuple(sorted((*state.closed[seat], card)))
            return _with(
                state,
                phase=Phase.BET,
                closed=put(state.closed, seat, closed),
                stock=state.stock[1:],
                first=First.DRAW,
                history=history,
            )
        return _with(
            state,
            phase=Phase.BET,
            stood=put(state.stood, seat, True),
            first=First.STAND,
            history=history,
        )

    def _apply_bet(self, state: FelduzState, action: int) -> FelduzState:
        seat = self.current_player(state)
        history = (*state.history, (seat, action))
        table = state.table
        if table.bet is not None:
            table = chips.answer(table, action)  # raises on anything but a legal answer
            if table.bet is not None:
                return _with(state, table=table, history=history)
            if chips.lone_winner(table) is not None:
                return self._end_round(_with(state, table=table, history=history))
        elif action != NO_BET:
            if not chips.BET <= action < chips.RAISE:
                raise IllegalActionError(f"action {action} is not legal for seat {seat}")
            table = chips.open_bet(table, seat, action - chips.BET)  # checks the amount
            if table.bet is not None:
                return _with(state, table=table, history=history)
        # the betting step is over
        first = state.first
        if table.live[state.turn] and first is not First.BET_ONLY:
            phase = Phase.REVEAL if first is First.DRAW else Phase.RESERVE
            return _with(state, phase=phase, table=table, history=history)
        # a betting-only turn, or the bettor went OUT after a raise: the turn is over
        return self._end_turn(_with(state, table=table, history=history))

    def _apply_reveal(self, state: FelduzState, action: int) -> FelduzState:
        seat = state.turn
        card = action - REVEAL
        closed = tuple(c for c in state.closed[seat] if c != card)
        opened = tuple(sorted((*state.open[seat], card)))
        return _with(
            state,
            phase=Phase.CONTINUE,
            open=put(state.open, seat, opened),
            closed=put(state.closed, seat, closed),
            history=(*state.history, (seat, action)),
        )

    def _apply_continue(self, state: FelduzState, action: int) -> FelduzState:
        seat = state.turn
        state = _with(state, history=(*state.history, (seat, action)))
        if action == CONTINUE:
            return self._end_turn(state)
        return _with(state, phase=Phase.RESERVE, stood=put(state.stood, seat, True))

    def _legal_reserve(self, state: FelduzState) -> tuple[int, ...]:
        seat = state.turn
        closed = state.closed[seat]
        total = field_sum(state.open[seat]) + field_sum(closed)
        legal = [RESERVE]
        ones = [RESERVE_ONE + c for c in closed if total - _VALUES[c] >= QUALIFY]
        legal += ones
        if len(closed) == 2 and total - field_sum(closed) >= QUALIFY:
            legal.append(reserve_action(closed))
        return tuple(legal)

    def _apply_reserve(self, state: FelduzState, action: int) -> FelduzState:
        seat = state.turn
        cards = reserve_cards(action)
        closed = tuple(c for c in state.closed[seat] if c not in cards)
        state = _with(
            state,
            closed=put(state.closed, seat, closed),
            reserve=put(state.reserve, seat, cards),
        )
        return self._end_turn(state)

    def _end_turn(self, state: FelduzState) -> FelduzState:
        table = state.table
        stood = state.stood
        if all(stood[s] for s, live in enumerate(table.live) if live):
            return self._end_round(state)
        seat = chips.next_live(table, state.turn)
        return _with(
            state, phase=Phase.BET if stood[seat] else Phase.DRAW, turn=seat, first=First.BET_ONLY
        )

    # -- the end of a round ---------------------------------------------------------------------

    def _end_round(self, state: FelduzState) -> FelduzState:
        table = state.table
        n = state.config.players
        config = state.config
        lone = chips.lone_winner(table)
        fields: list[tuple[int, ...] | None] = [None] * n
        reserves: list[tuple[int, ...] | None] = [None] * n
        events: tuple[ShowdownEvent, ...] = ()
        if lone is not None:
            winners: tuple[int, ...] = (lone,)
        else:
            live = [s for s in range(n) if table.live[s]]
            shown = {s: tuple(sorted(state.open[s] + state.closed[s])) for s in live}
            kept = {s: state.reserve[s] for s in live}
            events = showdown(shown, kept)
            winners = events[-1].seats
            for s in live:
                fields[s], reserves[s] = shown[s], kept[s]
        after, settlement, over = chips.close_round(
            table,
            winners,
            config.amphora,
            config.double_every,
            config.round_cap,
            showdown=lone is None,
        )
        result = RoundResult(
            table.round, table.dealer, settlement, tuple(fields), tuple(reserves), events
        )
        past = (*state.past, PastRound(state.history, result))
        if over:
            return _with(state, phase=Phase.OVER, table=after, turn=-1, past=past)
        table = after
        empty: tuple[tuple[int, ...], ...] = ((),) * n
        return _with(
            state,
            phase=Phase.DEAL,
            table=table,
            open=empty,
            closed=empty,
            reserve=empty,
            stock=(),
            stood=(False,) * n,
            splits=(-1,) * n,
            turn=-1,
            first=First.BET_ONLY,
            history=(),
            past=past,
        )


#: The Felduz game instance registered in :mod:`croupier.games`.
GAME = Felduz()
