"""Scauver: a chip game for 2–4 players with two face-up flanks, vanguards and links.

Rules: ``docs/rules/scauver.md`` (binding reading of ``shared/rules/scauver.md``, with
``chips.md`` for the amphora, betting, pot and elimination). Version 1.

The betting is :mod:`croupier.games._chips` (one module for Felduz and Scauver); this module only
decides *when* a seat may bet and what happens between bets. Seats are numbered clockwise; seat
``i + 1`` sits to the left of seat ``i``.

Decisions where the rules are silent (also in the rules doc):

* **Chance.** The first dealer is a chance node with outcome ``(seat,)``. Each round is one chance
  node whose outcome is the shuffled deck (40 card ids): five cards each are dealt one at a time
  clockwise from the dealer's left among the seated players, and the rest, in order, is the stock
  (drawn from the front). The draw of a turn is therefore automatic, not a decision.
* **Opening.** The simultaneous opening placement is asked seat by seat, clockwise from the
  dealer's left. One decision per seat picks 3 of its 5 cards and a flank for each (80 options).
  Until every seat has chosen, no other seat's observation changes: others' flanks stay empty
  and their hands count 5 cards; ``opened`` tells who has chosen (which the asking order tells
  anyway). The opening actions are not public events; once all have chosen, the flanks show.
* **Turns.** Turns go in cycles clockwise from the dealer's left; each live player takes one turn
  per cycle and the round has three cycles, so "each live player takes exactly 3 turns". A player
  who folds, or answers a bet with OUT (even the bettor, answering a raise during its own turn),
  takes no further part: its turn ends at once.
* **Flanks before completion** hold at most 3 cards: ``PLACE`` offers only flanks with room, so
  after the third turn's placement the flanks are always 3 + 3.
* **Last turn.** After its third placement a player places the two remaining hand cards, one
  per flank: one decision naming the card that goes left.
* **Round end.** After the last live player's third turn and the bets it opened, or as soon as one
  live player is left (it takes the pot, no showdown). Folded players' hands are never shown.
* **Showdown.** The engine picks each live player's link (lowest score, then strongest) and the
  winner (see :func:`evaluate`); among equal-valued cards of a flank the link uses the lowest card
  ids. The round result records every live player's flanks, D, link (the cards of VL and VR), v
  and score, the winners, and the criterion that separated the winners from the best other player
  (:class:`Criterion`).
* **Defaults** (timeouts, faults): ``PROCEED`` at the betting step, ``NO_BET`` at the final bet,
  ``OUT`` when answering a bet, the first legal id for the opening and the placements.

Action ids (ascending in every legal list; the chip ids come from :mod:`~croupier.games._chips`):

============================  ==========================  ====================================
id                            label                       when
============================  ==========================  ====================================
``IN`` = 0, ``OUT`` = 1       ``In``, ``Out``             answering an open bet
``BET + x``                   ``Bet:4``                   betting step, final bet (x <= cap)
``RAISE + y``                 ``Raise:2``                 answering an open bet
``FOLD`` = CHIP_ACTIONS       ``Fold``                    betting step
``PROCEED`` = FOLD + 1        ``Proceed``                 betting step
``NO_BET`` = FOLD + 2         ``NoBet``                   final bet (3rd turn)
``PLACE + 2 * card + flank``  ``Place:7♥→L``              placement (0 = L, 1 = R; room left)
``PLACE_PAIR + 40 * l + r``   ``Place:7♥→L,K♣→R``         3rd turn: card ``l`` left, ``r`` right
``OPEN + 8 * combo + mask``   ``Open:[K♣→R 2♦→L 7♥→L]``   the opening
============================  ==========================  ====================================

For ``OPEN``, ``combo`` indexes :data:`OPEN_COMBOS` (3 positions of the hand sorted by card id,
lexicographic) and bit ``j`` of ``mask`` is the flank of the ``j``-th chosen card (1 = R).

Observation (:class:`ScauverObservation`): the chip table (all public), phase, seat to act, turn
seat and turn number, own hand, every seat's hand size and flanks, who has made its opening, stock
size, this round's public actions, and every finished round (its public actions and result).

Parameters (``_chips.PARAMS``): ``players`` 2 (2..4), ``stack`` 100, ``amphora`` 1,
``double_every`` 10, ``round_cap`` 300.
"""

from __future__ import annotations

import enum
import functools
import itertools
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import NamedTuple

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
OPENING_CARDS = 3
TURNS = 3
#: Cards a flank may hold before the last turn's completion.
FLANK_ROOM = 3
LEFT, RIGHT = 0, 1
FLANKS = (LEFT, RIGHT)
FLANK_NAMES = ("L", "R")

FOLD = chips.CHIP_ACTIONS
PROCEED = FOLD + 1
NO_BET = FOLD + 2
PLACE = FOLD + 3
PLACE_PAIR = PLACE + 2 * cards40.DECK_SIZE
OPEN = PLACE_PAIR + cards40.DECK_SIZE**2
#: The 3-of-5 choices of the opening, as positions in the hand sorted by card id.
OPEN_COMBOS: tuple[tuple[int, ...], ...] = tuple(
    itertools.combinations(range(HAND_SIZE), OPENING_CARDS)
)
OPEN_OPTIONS = len(OPEN_COMBOS) * 2**OPENING_CARDS
NUM_ACTIONS = OPEN + OPEN_OPTIONS


class Phase(enum.IntEnum):
    """Where the match stands (an open bet sequence is answered before the phase goes on)."""

    DRAW_DEALER = 0  # chance: the first dealer
    DEAL = 1  # chance: shuffle and deal
    OPENING = 2
    BET = 3  # turn step 2: BET, FOLD or PROCEED
    PLACE = 4  # turn step 3
    PLACE_PAIR = 5  # 3rd turn: the two remaining cards
    FINAL_BET = 6  # 3rd turn: BET or NO_BET
    TURN_END = 7  # a final bet's sequence is being answered
    OVER = 8


class Criterion(enum.IntEnum):
    """What separated a round's winners from the best other live player."""

    LONE_WINNER = 0  # one live player was left: no showdown
    LINKED = 1  # a linked player beat every unlinked one
    SCORE = 2  # lower score D x v
    SIZE = 3  # equal scores: the larger link value
    SHAPE = 4  # then the stronger shape (3-3 > 3-2 > 3-1 > 2-2 > 2-1)
    HEIGHT = 5  # then the higher cards
    DIFFERENCE = 6  # nobody linked: the lower D
    TIE = 7  # nothing separated the live players: the pot is split


#: Shape strength by (cards in the greater vanguard, cards in the lesser).
SHAPE_RANK = {(2, 1): 1, (2, 2): 2, (3, 1): 3, (3, 2): 4, (3, 3): 5}


@dataclass(frozen=True, slots=True)
class Link:
    """A player's chosen link: the cards of VL and VR, its value and shape."""

    left: tuple[int, ...]
    right: tuple[int, ...]
    value: int
    #: (cards in the greater vanguard, cards in the lesser).
    shape: tuple[int, int]


@dataclass(frozen=True, slots=True)
class Showing:
    """A live player at showdown: its full flanks, D, its link (``None``: no valid link) and
    score (``None`` without a link)."""

    seat: int
    left: tuple[int, ...]
    right: tuple[int, ...]
    difference: int
    link: Link | None
    score: int | None


@dataclass(frozen=True, slots=True)
class RoundResult:
    """How a finished round ended; public. ``fields`` are every seat's flanks at the end
    (face up, folded players included); ``showings`` the live players at a showdown."""

    round_index: int
    dealer: int
    fields: tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]
    showings: tuple[Showing, ...]
    winners: tuple[int, ...]
    decided_by: Criterion
    settlement: chips.Settlement


@dataclass(frozen=True, slots=True)
class PastRound:
    """A finished round as everyone saw it: its public actions ``(seat, action)`` and result."""

    history: tuple[tuple[int, int], ...]
    result: RoundResult


Field = tuple[tuple[int, ...], tuple[int, ...]]


class ScauverState(NamedTuple):
    """Immutable match state. Hands are sorted by card id; flanks keep placement order."""

    round_cap: int
    base_amphora: int
    double_every: int
    phase: Phase
    table: chips.Table
    #: The seat to act outside an open bet sequence (-1 at chance nodes and at the end).
    to_act: int
    #: The seat whose turn it is (-1 outside the turns).
    turn_seat: int
    #: The turn cycle, 0..2 (a live player's turn number minus one).
    cycle: int
    hands: tuple[tuple[int, ...], ...]
    fields: tuple[Field, ...]
    #: During the opening: who has chosen.
    opened: tuple[bool, ...]
    #: This round's shuffled deck; the stock is ``deck[stock_pos:]``.
    deck: tuple[int, ...]
    stock_pos: int
    #: This round's public actions ``(seat, action)``.
    history: tuple[tuple[int, int], ...]
    past: tuple[PastRound, ...]


#: ``state._replace(**changes)``, faster (the hot path).
_state_with = fast_replace(ScauverState)


@dataclass(frozen=True, slots=True)
class ScauverObservation:
    """What one seat (or, with ``seat=None``, a spectator) may see.

    During the opening, another seat's flanks are shown empty and its hand as 5 cards until every
    seat has chosen. ``to_act`` is ``None`` at chance nodes and at the end; ``turn_seat`` is
    ``None`` outside the turns; ``turn`` is the turn cycle (0..2).
    """

    seat: int | None
    round_cap: int
    table: chips.Table
    phase: Phase
    to_act: int | None
    turn_seat: int | None
    turn: int
    hand: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    fields: tuple[Field, ...]
    opened: tuple[bool, ...]
    stock_size: int
    history: tuple[tuple[int, int], ...]
    past_rounds: tuple[PastRound, ...]

    @property
    def last_round(self) -> RoundResult | None:
        """The result of the latest finished round, if any."""
        return self.past_rounds[-1].result if self.past_rounds else None


# ---- the showdown ------------------------------------------------------------------------------

#: Vanguards of a 4-card flank: positions, 1 to 3 cards (14 of them).
_VANGUARDS = tuple(c for k in range(1, FLANK_ROOM + 1) for c in itertools.combinations(range(4), k))


class _Choice(NamedTuple):
    """A link found on sorted flank values: positions in each sorted flank, and its keys."""

    left: tuple[int, ...]
    right: tuple[int, ...]
    value: int
    shape: tuple[int, int]
    #: (v, shape rank, height): larger is stronger.
    strength: tuple[int, int, tuple[int, ...]]


def _strength(lv: tuple[int, ...], rv: tuple[int, ...]) -> tuple[tuple[int, int], tuple[int, ...]]:
    """Shape and height of a link from its vanguards' values (each sorted high to low)."""
    greater, lesser = (lv, rv) if (len(lv), lv) >= (len(rv), rv) else (rv, lv)
    return (len(greater), len(lesser)), greater + lesser


class _Vanguard(NamedTuple):
    """A vanguard of a sorted flank: its positions, values high to low, and a bit per value."""

    positions: tuple[int, ...]
    values: tuple[int, ...]
    bits: int


_FLANKS: dict[tuple[int, ...], dict[int, list[_Vanguard]]] = {}


def _vanguards(flank: tuple[int, ...]) -> dict[int, list[_Vanguard]]:
    """The vanguards of a flank (values sorted ascending) by their sum; made once per flank."""
    found = _FLANKS.get(flank)
    if found is None:
        found = {}
        for positions in _VANGUARDS:
            if positions[-1] < len(flank):
                values = tuple(sorted((flank[i] for i in positions), reverse=True))
                bits = sum(1 << v for v in set(values))
                found.setdefault(sum(values), []).append(_Vanguard(positions, values, bits))
        _FLANKS[flank] = found
    return found


@functools.lru_cache(maxsize=4096)
def best_link(left: tuple[int, ...], right: tuple[int, ...]) -> _Choice | None:
    """The engine's link for flanks given as values sorted ascending: among valid links the
    lowest score D × v, then the strongest (v, shape, height); ``None`` without a valid link.

    The score is D × v with D fixed, so the links worth looking at all have one value: the
    smallest v that links (the largest when D = 0, where every score is 0)."""
    difference = abs(sum(left) - sum(right))
    lefts, rights = _vanguards(left), _vanguards(right)
    found: _Choice | None = None
    for total in sorted(lefts.keys() & rights.keys(), reverse=difference == 0):
        best: tuple[int, tuple[int, ...]] | None = None
        for lv in lefts[total]:
            for rv in rights[total]:
                if lv.bits & rv.bits:  # a shared value (so two single cards never link)
                    continue
                shape, height = _strength(lv.values, rv.values)
                strength = (SHAPE_RANK[shape], height)
                if best is None or strength > best:
                    best = strength
                    found = _Choice(lv.positions, rv.positions, total, shape, (total, *strength))
        if found is not None:
            break
    return found


def show(seat: int, field: Field) -> Showing:
    """A live player's showing: D and the engine's link over its two 4-card flanks."""
    left = sorted(field[LEFT], key=lambda c: (cards40.VALUES[c], c))
    right = sorted(field[RIGHT], key=lambda c: (cards40.VALUES[c], c))
    lv = tuple(cards40.VALUES[c] for c in left)
    rv = tuple(cards40.VALUES[c] for c in right)
    difference = abs(sum(lv) - sum(rv))
    choice = best_link(lv, rv)
    if choice is None:
        return Showing(seat, field[LEFT], field[RIGHT], difference, None, None)
    link = Link(
        tuple(left[i] for i in choice.left),
        tuple(right[i] for i in choice.right),
        choice.value,
        choice.shape,
    )
    return Showing(seat, field[LEFT], field[RIGHT], difference, link, difference * choice.value)


def _rank_key(showing: Showing) -> tuple[int, int, int, int, tuple[int, ...]]:
    """Larger is better: linked first, then lower score (unlinked: lower D), then strength."""
    link = showing.link
    if link is None or showing.score is None:
        return (0, -showing.difference, 0, 0, ())
    lv = tuple(sorted((cards40.VALUES[c] for c in link.left), reverse=True))
    rv = tuple(sorted((cards40.VALUES[c] for c in link.right), reverse=True))
    shape, height = _strength(lv, rv)
    return (1, -showing.score, link.value, SHAPE_RANK[shape], height)


_CRITERIA = (Criterion.LINKED, Criterion.SCORE, Criterion.SIZE, Criterion.SHAPE, Criterion.HEIGHT)


def evaluate(showings: tuple[Showing, ...]) -> tuple[tuple[int, ...], Criterion]:
    """The winners among live players' showings, and what decided it."""
    keys = {s.seat: _rank_key(s) for s in showings}
    best = max(keys.values())
    winners = tuple(sorted(seat for seat, key in keys.items() if key == best))
    others = [key for key in keys.values() if key != best]
    if not others:
        return winners, Criterion.TIE
    runner = max(others)
    index = next(i for i in range(len(best)) if best[i] != runner[i])
    if index == 1 and best[0] == 0:
        return winners, Criterion.DIFFERENCE
    return winners, _CRITERIA[index]


# ---- labels ------------------------------------------------------------------------------------


def open_choice(hand: tuple[int, ...], action: int) -> tuple[tuple[int, int], ...]:
    """The opening ``action`` on ``hand`` (sorted by card id) as ``(card, flank)`` pairs."""
    combo, mask = divmod(action - OPEN, 2**OPENING_CARDS)
    return tuple((hand[pos], (mask >> j) & 1) for j, pos in enumerate(OPEN_COMBOS[combo]))


def pair_action(left: int, right: int) -> int:
    """The last turn's id placing ``left`` into L and ``right`` into R."""
    return PLACE_PAIR + cards40.DECK_SIZE * left + right


def _placement(card: int, flank: int) -> str:
    return f"{cards40.CARD_LABELS[card]}→{FLANK_NAMES[flank]}"


# ---- the game ----------------------------------------------------------------------------------

_OPEN_IDS = tuple(range(OPEN, NUM_ACTIONS))
_FOLD_PROCEED = (FOLD, PROCEED)
_NO_BET = (NO_BET,)
_EMPTY_FIELD: Field = ((), ())


class Scauver:
    """The Scauver game module (see the module docstring); stateless: use :data:`GAME`."""

    info = GameInfo(
        name="scauver",
        title="Scauver",
        version=1,
        min_players=2,
        max_players=chips.MAX_PLAYERS,
        num_distinct_actions=NUM_ACTIONS,
        params=chips.PARAMS,
        rules_doc="docs/rules/scauver.md",
    )

    # -- the contract -------------------------------------------------------------------------

    def initial_state(self, params: Mapping[str, int]) -> ScauverState:
        p = self.info.make_params(params)
        n = p["players"]
        return ScauverState(
            round_cap=p["round_cap"],
            base_amphora=p["amphora"],
            double_every=p["double_every"],
            phase=Phase.DRAW_DEALER,
            table=chips.new_table(n, p["stack"]),
            to_act=-1,
            turn_seat=-1,
            cycle=0,
            hands=((),) * n,
            fields=(_EMPTY_FIELD,) * n,
            opened=(False,) * n,
            deck=(),
            stock_pos=0,
            history=(),
            past=(),
        )

    def num_players(self, state: ScauverState) -> int:
        return len(state.hands)

    def current_player(self, state: ScauverState) -> int:
        bet = state.table.bet
        if bet is not None:
            return bet.to_act
        phase = state.phase
        if phase is Phase.OVER:
            return TERMINAL
        if phase is Phase.DRAW_DEALER or phase is Phase.DEAL:
            return CHANCE
        return state.to_act

    def legal_actions(self, state: ScauverState) -> tuple[int, ...]:
        table = state.table
        if table.bet is not None:
            return chips.answer_actions(table)
        if state.phase is Phase.BET or state.phase is Phase.FINAL_BET:
            return (*chips.bet_actions(table), *self._legal_own(state))
        return self._legal_own(state)

    def _legal_own(self, state: ScauverState) -> tuple[int, ...]:
        """The legal ids that are not bets or answers (the chips module checks those)."""
        phase = state.phase
        if phase is Phase.BET:
            return _FOLD_PROCEED
        if phase is Phase.PLACE:
            return self._legal_place(state)
        if phase is Phase.PLACE_PAIR:
            low, high = state.hands[state.to_act]
            return (pair_action(low, high), pair_action(high, low))
        if phase is Phase.FINAL_BET:
            return _NO_BET
        if phase is Phase.OPENING:
            return _OPEN_IDS
        return ()

    def apply(self, state: ScauverState, action: int) -> ScauverState:
        action = action_id(action)
        player = self.current_player(state)
        if player < 0:
            raise IllegalActionError(f"no seat acts in phase {state.phase.name}")
        betting = state.table.bet is not None or (
            chips.BET <= action < chips.RAISE
            and (state.phase is Phase.BET or state.phase is Phase.FINAL_BET)
        )
        # bets and answers are checked by the chips module as it applies them
        if not betting and action not in self._legal_own(state):
            raise IllegalActionError(f"action {action} is not legal for seat {player}")
        history = state.history
        if state.phase is not Phase.OPENING:
            history = (*history, (player, action))
        if state.table.bet is not None:
            return self._after_bet(
                _state_with(state, table=chips.answer(state.table, action)), history
            )
        phase = state.phase
        if phase is Phase.OPENING:
            return self._apply_opening(state, action)
        if phase is Phase.BET:
            return self._apply_bet(state, action, history)
        if phase is Phase.PLACE:
            return self._apply_place(state, action, history)
        if phase is Phase.PLACE_PAIR:
            return self._apply_place_pair(state, action, history)
        return self._apply_final_bet(state, action, history)

    def sample_chance(self, state: ScauverState, rng: np.random.Generator) -> tuple[int, ...]:
        if state.phase is Phase.DRAW_DEALER:
            return (int(rng.integers(len(state.hands))),)
        if state.phase is Phase.DEAL:
            deck: list[int] = rng.permutation(cards40.DECK_SIZE).tolist()
            return tuple(deck)
        raise IllegalActionError(f"no chance event in phase {state.phase.name}")

    def apply_chance(self, state: ScauverState, outcome: tuple[int, ...]) -> ScauverState:
        if state.phase is Phase.DRAW_DEALER:
            dealer = first_dealer(outcome, len(state.hands))
            table = chips.open_round(state.table, dealer, state.base_amphora, state.double_every)
            return self._new_round(state, table)
        if state.phase is Phase.DEAL:
            return self._apply_deal(state, shuffled_deck(outcome, cards40.DECK_SIZE))
        raise IllegalActionError(f"no chance event in phase {state.phase.name}")

    def chance_label(self, state: ScauverState, outcome: tuple[int, ...]) -> str:
        dealt = self.apply_chance(state, tuple(outcome))  # checks the outcome
        if state.phase is Phase.DRAW_DEALER:
            return f"First dealer: seat {outcome[0]}"
        hands = "; ".join(
            f"seat {s}: {cards40.cards_label(h)}" for s, h in enumerate(dealt.hands) if h
        )
        stock = cards40.cards_label(dealt.deck[dealt.stock_pos :])
        table = state.table
        return f"Round {table.round + 1}, dealer seat {table.dealer}: {hands}; stock {stock}"

    def observe(self, state: ScauverState, seat: int | None) -> ScauverObservation:
        hand_sizes = tuple(len(h) for h in state.hands)
        fields = state.fields
        if state.phase is Phase.OPENING:  # nobody sees another's opening before all have chosen
            hand_sizes = tuple(
                len(h) if s == seat else HAND_SIZE if h else 0 for s, h in enumerate(state.hands)
            )
            fields = tuple(f if s == seat else _EMPTY_FIELD for s, f in enumerate(fields))
        in_turns = Phase.BET <= state.phase <= Phase.TURN_END
        player = self.current_player(state)
        return ScauverObservation(
            seat=seat,
            round_cap=state.round_cap,
            table=state.table,
            phase=state.phase,
            to_act=player if player >= 0 else None,
            turn_seat=state.turn_seat if in_turns else None,
            turn=state.cycle,
            hand=state.hands[seat] if seat is not None else (),
            hand_sizes=hand_sizes,
            fields=fields,
            opened=state.opened,
            stock_size=cards40.DECK_SIZE - state.stock_pos if state.deck else 0,
            history=state.history,
            past_rounds=state.past,
        )

    def returns(self, state: ScauverState) -> tuple[Fraction, ...]:
        return tuple(Fraction(c) for c in chips.chips(state.table))

    def ranking(self, state: ScauverState) -> tuple[int, ...]:
        return chips.ranking(state.table)

    def action_label(self, state: ScauverState, action: int) -> str:
        if chips.is_chip_action(action):
            return chips.chip_label(action)
        if action == FOLD:
            return "Fold"
        if action == PROCEED:
            return "Proceed"
        if action == NO_BET:
            return "NoBet"
        if PLACE <= action < PLACE_PAIR:
            card, flank = divmod(action - PLACE, 2)
            return f"Place:{_placement(card, flank)}"
        if PLACE_PAIR <= action < OPEN:
            left, right = divmod(action - PLACE_PAIR, cards40.DECK_SIZE)
            return f"Place:{_placement(left, LEFT)},{_placement(right, RIGHT)}"
        if OPEN <= action < NUM_ACTIONS and state.phase is Phase.OPENING:
            hand = state.hands[state.to_act]
            return "Open:[" + " ".join(_placement(c, f) for c, f in open_choice(hand, action)) + "]"
        raise IllegalActionError(f"{action} is not an action of Scauver here")

    def default_action(self, state: ScauverState) -> int:
        if state.table.bet is not None:
            return chips.OUT
        if state.phase is Phase.BET:
            return PROCEED
        if state.phase is Phase.FINAL_BET:
            return NO_BET
        legal = self.legal_actions(state)
        if not legal:
            raise IllegalActionError(f"no seat acts in phase {state.phase.name}")
        return legal[0]

    def round_index(self, state: ScauverState) -> int:
        return max(state.table.round, 0)

    def dealer(self, state: ScauverState) -> int:
        return state.table.dealer

    def is_public(self, state: ScauverState, action: int) -> bool:
        return state.phase is not Phase.OPENING

    # -- rounds ---------------------------------------------------------------------------------

    def _new_round(self, state: ScauverState, table: chips.Table) -> ScauverState:
        """The state waiting for the deal of the round ``table`` has just opened."""
        n = len(state.hands)
        return _state_with(
            state,
            phase=Phase.DEAL,
            table=table,
            to_act=-1,
            turn_seat=-1,
            cycle=0,
            hands=((),) * n,
            fields=(_EMPTY_FIELD,) * n,
            opened=(False,) * n,
            deck=(),
            stock_pos=0,
            history=(),
        )

    def _apply_deal(self, state: ScauverState, deck: tuple[int, ...]) -> ScauverState:
        table = state.table
        hands, dealt = chips.deal(table, deck, HAND_SIZE)
        return _state_with(
            state,
            phase=Phase.OPENING,
            to_act=chips.next_seated(table, table.dealer),
            hands=hands,
            deck=deck,
            stock_pos=dealt,
        )

    def _apply_opening(self, state: ScauverState, action: int) -> ScauverState:
        seat = state.to_act
        hand = state.hands[seat]
        placed = open_choice(hand, action)
        flanks: list[tuple[int, ...]] = [(), ()]
        for card, flank in placed:
            flanks[flank] = (*flanks[flank], card)
        chosen = {c for c, _ in placed}
        state = _state_with(
            state,
            hands=put(state.hands, seat, tuple(c for c in hand if c not in chosen)),
            fields=put(state.fields, seat, (flanks[0], flanks[1])),
            opened=put(state.opened, seat, True),
        )
        nxt = chips.next_seated(state.table, seat)
        if not state.opened[nxt]:
            return _state_with(state, to_act=nxt)
        # every seat has chosen: the turns begin at the dealer's left
        return self._begin_turn(state, nxt, 0)

    def _begin_turn(self, state: ScauverState, seat: int, cycle: int) -> ScauverState:
        """``seat`` starts its turn: it draws the top stock card, then comes to the betting step."""
        card = state.deck[state.stock_pos]
        hand = tuple(sorted((*state.hands[seat], card)))
        return _state_with(
            state,
            phase=Phase.BET,
            to_act=seat,
            turn_seat=seat,
            cycle=cycle,
            hands=put(state.hands, seat, hand),
            stock_pos=state.stock_pos + 1,
        )

    def _next_turn(self, state: ScauverState, history: tuple[tuple[int, int], ...]) -> ScauverState:
        """The turn passes to the next live seat clockwise (a new cycle after the dealer)."""
        table = state.table
        n = len(state.hands)
        dealer = table.dealer
        pos = (state.turn_seat - dealer - 1) % n
        cycle = state.cycle
        for step in range(1, 2 * n + 1):
            p = pos + step
            if p >= n and cycle == state.cycle:
                cycle += 1
                if cycle == TURNS:
                    return self._showdown(state, history)
            seat = (dealer + 1 + p) % n
            if table.live[seat]:
                return self._begin_turn(_state_with(state, history=history), seat, cycle)
        raise IllegalActionError("nobody is live")  # unreachable: a lone winner ends the round

    # -- turn steps -----------------------------------------------------------------------------

    def _apply_bet(
        self, state: ScauverState, action: int, history: tuple[tuple[int, int], ...]
    ) -> ScauverState:
        seat = state.to_act
        if action == PROCEED:
            return _state_with(state, phase=Phase.PLACE, history=history)
        if action == FOLD:
            return self._after_bet(
                _state_with(state, table=chips.fold(state.table, seat), phase=Phase.PLACE), history
            )
        table = chips.open_bet(state.table, seat, action - chips.BET)
        return self._after_bet(_state_with(state, table=table, phase=Phase.PLACE), history)

    def _apply_final_bet(
        self, state: ScauverState, action: int, history: tuple[tuple[int, int], ...]
    ) -> ScauverState:
        if action == NO_BET:
            return self._next_turn(state, history)
        table = chips.open_bet(state.table, state.to_act, action - chips.BET)
        return self._after_bet(_state_with(state, table=table, phase=Phase.TURN_END), history)

    def _after_bet(self, state: ScauverState, history: tuple[tuple[int, int], ...]) -> ScauverState:
        """After a betting action: the open sequence goes on, one live player takes the pot, the
        turn seat (if still live) places, or the turn passes."""
        table = state.table
        if table.bet is not None:
            return _state_with(state, history=history)
        winner = chips.lone_winner(table)
        if winner is not None:
            return self._end_round(
                state, history, (winner,), Criterion.LONE_WINNER, (), showdown=False
            )
        if state.phase is Phase.PLACE and table.live[state.turn_seat]:
            return _state_with(state, to_act=state.turn_seat, history=history)
        return self._next_turn(state, history)

    def _legal_place(self, state: ScauverState) -> tuple[int, ...]:
        seat = state.to_act
        left, right = state.fields[seat]
        room = (len(left) < FLANK_ROOM, len(right) < FLANK_ROOM)
        hand = state.hands[seat]
        return tuple(PLACE + 2 * card + flank for card in hand for flank in FLANKS if room[flank])

    def _apply_place(
        self, state: ScauverState, action: int, history: tuple[tuple[int, int], ...]
    ) -> ScauverState:
        seat = state.to_act
        card, flank = divmod(action - PLACE, 2)
        field = list(state.fields[seat])
        field[flank] = (*field[flank], card)
        state = _state_with(
            state,
            hands=put(state.hands, seat, tuple(c for c in state.hands[seat] if c != card)),
            fields=put(state.fields, seat, (field[0], field[1])),
        )
        if state.cycle == TURNS - 1:
            return _state_with(state, phase=Phase.PLACE_PAIR, history=history)
        return self._next_turn(state, history)

    def _apply_place_pair(
        self, state: ScauverState, action: int, history: tuple[tuple[int, int], ...]
    ) -> ScauverState:
        seat = state.to_act
        left_card, right_card = divmod(action - PLACE_PAIR, cards40.DECK_SIZE)
        left, right = state.fields[seat]
        return _state_with(
            state,
            phase=Phase.FINAL_BET,
            hands=put(state.hands, seat, ()),
            fields=put(state.fields, seat, ((*left, left_card), (*right, right_card))),
            history=history,
        )

    # -- the end of a round ---------------------------------------------------------------------

    def _showdown(self, state: ScauverState, history: tuple[tuple[int, int], ...]) -> ScauverState:
        table = state.table
        showings = tuple(
            show(seat, state.fields[seat]) for seat in range(len(state.hands)) if table.live[seat]
        )
        winners, criterion = evaluate(showings)
        return self._end_round(state, history, winners, criterion, showings, showdown=True)

    def _end_round(
        self,
        state: ScauverState,
        history: tuple[tuple[int, int], ...],
        winners: tuple[int, ...],
        criterion: Criterion,
        showings: tuple[Showing, ...],
        *,
        showdown: bool,
    ) -> ScauverState:
        ended = state.table
        table, settlement, over = chips.close_round(
            ended,
            winners,
            state.base_amphora,
            state.double_every,
            state.round_cap,
            showdown=showdown,
        )
        result = RoundResult(
            round_index=ended.round,
            dealer=ended.dealer,
            fields=state.fields,
            showings=showings,
            winners=settlement.winners,
            decided_by=criterion,
            settlement=settlement,
        )
        state = _state_with(state, past=(*state.past, PastRound(history, result)))
        if over:
            n = len(state.hands)
            return _state_with(
                state,
                phase=Phase.OVER,
                table=table,
                to_act=-1,
                turn_seat=-1,
                hands=((),) * n,
                fields=(_EMPTY_FIELD,) * n,
                deck=(),
                stock_pos=0,
                history=(),
            )
        return self._new_round(state, table)


#: The Scauver game instance registered in :mod:`croupier.games`.
GAME = Scauver()
