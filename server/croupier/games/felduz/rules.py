"""Felduz: 2 to 4 players, the 40-card deck, betting chips; the lowest field of 40 or more wins.

Rules: ``docs/rules/felduz.md`` (binding reading of ``shared/rules/felduz.md``; betting, amphora,
pot and elimination: ``docs/rules/chips.md`` via :mod:`croupier.games.chips`). Version 1.

Seats are numbered clockwise; seat ``i + 1`` sits to the left of seat ``i``. A round: the amphora
(``chips.start_round``), the deal (five cards each, one at a time clockwise from the dealer's
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
  through ``chips.answer``) → if it drew: ``REVEAL+card`` → if it drew: ``CONTINUE``/``STAND``
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
  answering a bet, the lowest card to reveal, ``STAND`` at step 4, the empty reserve. A seat that
  forfeits the round (fault policy) plays these same moves (no fold outside a bet).
* **Scores** are chips (stack plus chips committed in the round in progress); ranking by
  ``chips.ranking``. ``round_index`` is the table's round (0 before the first).

Action ids (ascending in every legal list; ``B = chips.CHIP_ACTIONS``):

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

:func:`move` decodes an id into a :class:`Move` (its kind, cards and chip move), once per id; a
split's cards depend on the hand, so a split decodes with the splitting seat's hand.

The rules are the skeleton of :mod:`croupier.games._rules` over one step per decision phase
(``OPENING``, ``DRAW``, ``BET``, ``REVEAL``, ``CONTINUE``, ``RESERVE``); the betting step declares
its ids as runs (``Step.runs``) and checks them by arithmetic in :mod:`croupier.games.chips`. In
the state, ``turn_seat`` is the seat whose turn it is (during the opening: the seat choosing); the
seat to act is that seat or, during an open bet, the seat answering it (``table.bet.to_act``); the
round is ``table.round``.

Observation (:class:`FelduzObservation`): the whole chip table, phase, seat to act, whose turn
it is and how it began, every seat's open field (hidden during the opening), closed and reserve
counts, stood and chosen flags, the stock size, the seat's own closed field and reserve, this
round's public actions and every finished round (its actions and result with the showdown).

Parameters (``chips.PARAMS``): ``players`` 2 (2..4), ``stack`` 100, ``amphora`` 1,
``double_every`` 10, ``round_cap`` 300.
"""

from __future__ import annotations

import enum
import functools
import itertools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType
from typing import Any, NamedTuple

from croupier.errors import IllegalActionError
from croupier.games import cards40, chips
from croupier.games._api import GameInfo, fast_replace, put
from croupier.games._legal import ActionRuns
from croupier.games._rules import PastRound, Rules, Step, not_legal

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


class FelduzState(NamedTuple):
    """Immutable match state. Card tuples are sorted by card id.

    During the opening, ``closed`` holds each seat's five cards and ``splits`` the choices made so
    far (``-1``: none yet); the splits are applied when the last seat has chosen.
    """

    config: chips.Config
    phase: Phase
    table: chips.Table
    open: tuple[tuple[int, ...], ...]
    closed: tuple[tuple[int, ...], ...]
    reserve: tuple[tuple[int, ...], ...]
    stock: tuple[int, ...]
    stood: tuple[bool, ...]
    splits: tuple[int, ...]
    #: The seat whose turn it is (during the opening: the seat choosing); -1 at chance nodes
    #: and at the end. The seat to act is this one, or the one answering an open bet.
    turn_seat: int
    first: First
    history: tuple[tuple[int, int], ...]
    past: tuple[PastRound[RoundResult], ...]


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
    past_rounds: tuple[PastRound[RoundResult], ...]

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
#: ``NO_BET``, the run that follows the bets.
_NO_BET = range(NO_BET, NO_BET + 1)


# -- moves --------------------------------------------------------------------------------------


class MoveKind(enum.IntEnum):
    """What a Felduz action does (a :class:`Move`'s kind)."""

    CHIPS = 0  # a bet or an answer: ``Move.chip``
    NO_BET = 1
    DRAW = 2
    STAND = 3
    CONTINUE = 4
    OPEN = 5  # the opening split: ``Move.cards`` are the three cards it opens
    REVEAL = 6  # ``Move.cards`` is the card turned face up
    RESERVE = 7  # ``Move.cards`` are the cards set aside (none, one or two)


@dataclass(frozen=True, slots=True)
class Move:
    """A Felduz action id decoded once (after Hanabi's ``HanabiMove``), by :func:`move`: what it
    does, the cards it names (ascending) and, for a bet or an answer, the chip move. The label,
    the wire detail and the narrator read it instead of the id."""

    kind: MoveKind
    cards: tuple[int, ...] = ()
    chip: chips.ChipMove | None = None

    @property
    def label(self) -> str:
        """The action's label, e.g. ``Bet:4``, ``Draw``, ``Open:[K♣ 2♦ 7♥]``, ``Reveal:7♥``."""
        if self.chip is not None:
            return self.chip.label
        kind = self.kind
        if kind is MoveKind.OPEN:
            return f"Open:{cards40.cards_label(self.cards)}"
        if kind is MoveKind.REVEAL:
            return f"Reveal:{cards40.card_label(self.cards[0])}"
        if kind is MoveKind.RESERVE:
            return f"Reserve:{cards40.cards_label(self.cards)}"
        return _PLAIN_LABELS[kind]


_PLAIN_LABELS = {
    MoveKind.NO_BET: "NoBet",
    MoveKind.DRAW: "Draw",
    MoveKind.STAND: "Stand",
    MoveKind.CONTINUE: "Continue",
}
_PLAIN_MOVES = {
    NO_BET: Move(MoveKind.NO_BET),
    DRAW: Move(MoveKind.DRAW),
    STAND: Move(MoveKind.STAND),
    CONTINUE: Move(MoveKind.CONTINUE),
}


def is_split(action: int) -> bool:
    """Whether ``action`` is an opening split: the one id whose cards depend on the hand (and
    never public)."""
    return SPLIT <= action < REVEAL


def move(action: int, hand: tuple[int, ...] = ()) -> Move:
    """Action id ``action`` decoded. A split's cards depend on the hand: give ``hand``, the
    splitting seat's five cards sorted by card id; every other id decodes alone, once per id.
    IllegalActionError for an id that is not Felduz's (or a split without a hand)."""
    if SPLIT <= action < REVEAL:
        if len(hand) != HAND_SIZE:
            raise IllegalActionError(f"{action} is a split: it needs the five cards of the hand")
        return Move(MoveKind.OPEN, split_cards(hand, action - SPLIT)[0])
    return _move(action)


@functools.cache
def _move(action: int) -> Move:
    if chips.is_chip_action(action):
        return Move(MoveKind.CHIPS, chip=chips.chip_move(action))
    plain = _PLAIN_MOVES.get(action)
    if plain is not None:
        return plain
    if REVEAL <= action < RESERVE:
        return Move(MoveKind.REVEAL, (action - REVEAL,))
    return Move(MoveKind.RESERVE, reserve_cards(action))  # raises for an id past the last


# -- the opening --------------------------------------------------------------------------------


def _to_act(state: FelduzState) -> int:
    bet = state.table.bet
    return bet.to_act if bet is not None else state.turn_seat


def _legal_opening(state: FelduzState) -> tuple[int, ...]:
    return _SPLIT_IDS


def _apply_opening(state: FelduzState, action: int) -> FelduzState:
    seat = state.turn_seat
    splits = put(state.splits, seat, action - SPLIT)
    table = state.table
    if seat != table.dealer:  # the dealer chooses last
        return _with(state, splits=splits, turn_seat=chips.next_seated(table, seat))
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
        turn_seat=chips.next_live(table, table.dealer),
    )


# -- a turn -------------------------------------------------------------------------------------


def _legal_draw(state: FelduzState) -> tuple[int, ...]:
    return _DRAW_STAND if state.stock else _STAND


def _apply_draw(state: FelduzState, action: int) -> FelduzState:
    seat = state.turn_seat
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


def _runs_bet(state: FelduzState) -> ActionRuns:
    """The betting step's ids as runs: every allowed bet and ``NO_BET``, or the answers."""
    table = state.table
    if table.bet is not None:
        return chips.answer_runs(table)
    return ActionRuns.of_ranges(chips.bet_range(table), _NO_BET)


def _apply_bet(state: FelduzState, action: int) -> FelduzState:
    """The betting step; the chips module checks every bet and answer as it applies it."""
    table = state.table
    seat = _to_act(state)
    history = (*state.history, (seat, action))
    if table.bet is not None:
        table = chips.answer(table, action)  # raises on anything but a legal answer
        if table.bet is not None:
            return _with(state, table=table, history=history)
        if chips.lone_winner(table) is not None:
            return _end_round(_with(state, table=table, history=history))
    elif action != NO_BET:
        if not chips.BET <= action < chips.RAISE:
            raise not_legal(action, seat)
        table = chips.open_bet(table, seat, action - chips.BET)  # checks the amount
        if table.bet is not None:
            return _with(state, table=table, history=history)
    # the betting step is over
    first = state.first
    if table.live[state.turn_seat] and first is not First.BET_ONLY:
        phase = Phase.REVEAL if first is First.DRAW else Phase.RESERVE
        return _with(state, phase=phase, table=table, history=history)
    # a betting-only turn, or the bettor went OUT after a raise: the turn is over
    return _end_turn(_with(state, table=table, history=history))


def _legal_reveal(state: FelduzState) -> tuple[int, ...]:
    return tuple(REVEAL + c for c in state.closed[state.turn_seat])


def _apply_reveal(state: FelduzState, action: int) -> FelduzState:
    seat = state.turn_seat
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


def _legal_continue(state: FelduzState) -> tuple[int, ...]:
    return _STAND_CONTINUE


def _apply_continue(state: FelduzState, action: int) -> FelduzState:
    seat = state.turn_seat
    state = _with(state, history=(*state.history, (seat, action)))
    if action == CONTINUE:
        return _end_turn(state)
    return _with(state, phase=Phase.RESERVE, stood=put(state.stood, seat, True))


def _legal_reserve(state: FelduzState) -> tuple[int, ...]:
    seat = state.turn_seat
    closed = state.closed[seat]
    total = field_sum(state.open[seat]) + field_sum(closed)
    legal = [RESERVE]
    legal += [RESERVE_ONE + c for c in closed if total - _VALUES[c] >= QUALIFY]
    if len(closed) == 2 and total - field_sum(closed) >= QUALIFY:
        legal.append(reserve_action(closed))
    return tuple(legal)


def _apply_reserve(state: FelduzState, action: int) -> FelduzState:
    seat = state.turn_seat
    cards = _move(action).cards
    closed = tuple(c for c in state.closed[seat] if c not in cards)
    state = _with(
        state,
        closed=put(state.closed, seat, closed),
        reserve=put(state.reserve, seat, cards),
    )
    return _end_turn(state)


def _end_turn(state: FelduzState) -> FelduzState:
    table = state.table
    stood = state.stood
    if all(stood[s] for s, live in enumerate(table.live) if live):
        return _end_round(state)
    seat = chips.next_live(table, state.turn_seat)
    return _with(
        state,
        phase=Phase.BET if stood[seat] else Phase.DRAW,
        turn_seat=seat,
        first=First.BET_ONLY,
    )


# -- the end of a round -------------------------------------------------------------------------


def _end_round(state: FelduzState) -> FelduzState:
    table = state.table
    config = state.config
    n = config.players
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
        round=table.round,
        dealer=table.dealer,
        settlement=settlement,
        fields=tuple(fields),
        reserves=tuple(reserves),
        events=events,
    )
    past = (*state.past, PastRound(state.history, result))
    if over:
        return _with(state, phase=Phase.OVER, table=after, turn_seat=-1, past=past)
    return _waiting(Phase.DEAL, config, after, past)


def _waiting(
    phase: Phase,
    config: chips.Config,
    table: chips.Table,
    past: tuple[PastRound[RoundResult], ...],
) -> FelduzState:
    """The state waiting for a chance event (``phase``: the first dealer, or a round's deal)."""
    n = config.players
    empty: tuple[tuple[int, ...], ...] = ((),) * n
    return FelduzState(
        config=config,
        phase=phase,
        table=table,
        open=empty,
        closed=empty,
        reserve=empty,
        stock=(),
        stood=(False,) * n,
        splits=(-1,) * n,
        turn_seat=-1,
        first=First.BET_ONLY,
        history=(),
        past=past,
    )


class Felduz(Rules[FelduzState]):
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
    deck_size = cards40.DECK_SIZE
    draw_dealer = Phase.DRAW_DEALER
    deal = Phase.DEAL
    steps = MappingProxyType(
        {
            Phase.OPENING: Step(_legal_opening, _apply_opening),
            Phase.DRAW: Step(_legal_draw, _apply_draw),
            Phase.BET: Step(None, _apply_bet, checks=True, runs=_runs_bet),
            Phase.REVEAL: Step(_legal_reveal, _apply_reveal),
            Phase.CONTINUE: Step(_legal_continue, _apply_continue),
            Phase.RESERVE: Step(_legal_reserve, _apply_reserve),
        }
    )

    # -- the contract -------------------------------------------------------------------------

    def initial_state(self, params: Mapping[str, int]) -> FelduzState:
        p = self.info.make_params(params)
        config = chips.config(p)
        table = chips.new_table(config.players, p["stack"])
        return _waiting(Phase.DRAW_DEALER, config, table, ())

    def num_players(self, state: FelduzState) -> int:
        return state.config.players

    def to_act(self, state: FelduzState) -> int:
        return _to_act(state)

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
        acting = phase in self.steps
        return FelduzObservation(
            seat=seat,
            round=max(state.table.round, 0),
            round_cap=state.config.round_cap,
            phase=phase,
            to_act=_to_act(state) if acting else None,
            turn=state.turn_seat if acting else None,
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

    def totals(self, state: FelduzState) -> tuple[Fraction, ...]:
        return tuple(_FRACTIONS[c] for c in chips.chips(state.table))

    def ranking(self, state: FelduzState) -> tuple[int, ...]:
        return chips.ranking(state.table)

    def action_label(self, state: FelduzState, action: int) -> str:
        if is_split(action):
            if state.phase is not Phase.OPENING:
                raise IllegalActionError(f"{action} is a split, and no seat is splitting")
            return move(action, state.closed[state.turn_seat]).label
        return _move(action).label

    def default_choice(self, state: FelduzState, legal: Sequence[int]) -> int:
        phase = state.phase
        if phase is Phase.BET:
            return chips.OUT if state.table.bet is not None else NO_BET
        if phase is Phase.DRAW or phase is Phase.CONTINUE:
            return STAND
        if phase is Phase.RESERVE:
            return RESERVE
        return legal[0]  # the lowest card to reveal, the first split

    def round_index(self, state: FelduzState) -> int:
        return max(state.table.round, 0)

    def dealer(self, state: FelduzState) -> int:
        return state.table.dealer

    def is_public(self, state: FelduzState, action: int) -> bool:
        return state.phase is not Phase.OPENING and state.phase is not Phase.RESERVE

    # -- chance ---------------------------------------------------------------------------------

    def seat_dealer(self, state: FelduzState, dealer: int) -> FelduzState:
        config = state.config
        table = chips.open_round(state.table, dealer, config.amphora, config.double_every)
        return _with(state, phase=Phase.DEAL, table=table)

    def deal_cards(self, state: FelduzState, deck: tuple[int, ...]) -> FelduzState:
        table = state.table
        hands, dealt = chips.deal(table, deck, HAND_SIZE)
        # the rest of the round's fields were reset when the last round ended (or at the start)
        return _with(
            state,
            phase=Phase.OPENING,
            closed=hands,
            stock=deck[dealt:],
            turn_seat=chips.next_seated(table, table.dealer),
        )

    def deal_label(self, state: FelduzState, dealt: FelduzState) -> str:
        hands = "; ".join(
            f"seat {s}: {cards40.cards_label(dealt.closed[s])}" for s in chips.seated(dealt.table)
        )
        return (
            f"Round {state.table.round + 1}, dealer seat {state.table.dealer}: {hands}; "
            f"stock {cards40.cards_label(dealt.stock)}"
        )


#: The Felduz game instance registered in :mod:`croupier.games`.
GAME = Felduz()
