"""Scauver: a chip game for 2–4 players with two face-up flanks, vanguards and links.

Rules: ``docs/rules/scauver.md`` (binding reading of ``shared/rules/scauver.md``, with
``chips.md`` for the amphora, betting, pot and elimination). Version 1.

The betting is :mod:`croupier.games.chips` (one module for Felduz and Scauver); this module only
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
  A seat that forfeits the round (fault policy) concedes with ``FOLD`` at the betting step and
  ``OUT`` when answering a bet (``concede_action``), the defaults elsewhere.

Action ids (ascending in every legal list; the chip ids come from :mod:`~croupier.games.chips`):

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

:func:`move` decodes an id into a :class:`Move` (its kind, placements and chip move), once per
id; an opening's cards depend on the hand, so an opening decodes with the opening seat's hand.

The rules are the skeleton of :mod:`croupier.games._rules` over one step per decision phase
(``OPENING``, ``BET``, ``PLACE``, ``PLACE_PAIR``, ``FINAL_BET``, ``TURN_END``); the steps that take
bets or answers declare their ids as runs (``Step.runs``) and check them by arithmetic in
:mod:`croupier.games.chips` (an open bet is answered in ``PLACE`` or ``TURN_END``, before the phase
goes on). In the state, ``turn_seat`` is the seat whose turn it is (during the opening: the seat
choosing), ``turn`` the turn cycle, and ``stock`` the undealt cards; the seat to act is
``turn_seat`` or, during an open bet, the seat answering it (``table.bet.to_act``); the round is
``table.round``.

Observation (:class:`ScauverObservation`): the chip table (all public), phase, seat to act, turn
seat and turn number, own hand, every seat's hand size and flanks, who has made its opening, stock
size, this round's public actions, and every finished round (its public actions and result).

Parameters (``chips.PARAMS``): ``players`` 2 (2..4), ``stack`` 100, ``amphora`` 1,
``double_every`` 10, ``round_cap`` 300.
"""

from __future__ import annotations

import enum
import functools
import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType
from typing import NamedTuple

from croupier.errors import IllegalActionError
from croupier.games import cards40, chips
from croupier.games._api import GameInfo, fast_replace, put
from croupier.games._legal import ActionRuns
from croupier.games._rules import PastRound, Rules, Step, not_legal

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
OPEN_OPTIONS: int = len(OPEN_COMBOS) * 2**OPENING_CARDS
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


Field = tuple[tuple[int, ...], tuple[int, ...]]


class ScauverState(NamedTuple):
    """Immutable match state. Hands are sorted by card id; flanks keep placement order."""

    config: chips.Config
    phase: Phase
    table: chips.Table
    #: The seat whose turn it is (during the opening: the seat choosing); -1 at chance nodes
    #: and at the end. The seat to act is this one, or the one answering an open bet.
    turn_seat: int
    #: The turn cycle, 0..2 (a live player's turn number minus one).
    turn: int
    hands: tuple[tuple[int, ...], ...]
    fields: tuple[Field, ...]
    #: During the opening: who has chosen.
    opened: tuple[bool, ...]
    #: This round's undealt cards, drawn from the front.
    stock: tuple[int, ...]
    #: This round's public actions ``(seat, action)``.
    history: tuple[tuple[int, int], ...]
    past: tuple[PastRound[RoundResult], ...]


#: ``state._replace(**changes)``, faster (the hot path).
_with = fast_replace(ScauverState)


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
    past_rounds: tuple[PastRound[RoundResult], ...]

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


# ---- moves ------------------------------------------------------------------------------------


#: Each opening as ``(position in the sorted hand, flank)`` pairs, by ``action - OPEN``: the
#: id is ``OPEN + combo * 2**OPENING_CARDS + mask``, bit j of ``mask`` the flank of the combo's
#: j-th card.
_OPEN_SHAPES: tuple[tuple[tuple[int, int], ...], ...] = tuple(
    tuple((pos, (mask >> j) & 1) for j, pos in enumerate(combo))
    for combo in OPEN_COMBOS
    for mask in range(2**OPENING_CARDS)
)


def open_choice(hand: tuple[int, ...], action: int) -> tuple[tuple[int, int], ...]:
    """The opening ``action`` on ``hand`` (sorted by card id) as ``(card, flank)`` pairs."""
    return tuple([(hand[pos], flank) for pos, flank in _OPEN_SHAPES[action - OPEN]])


def pair_action(left: int, right: int) -> int:
    """The last turn's id placing ``left`` into L and ``right`` into R."""
    return PLACE_PAIR + cards40.DECK_SIZE * left + right


#: A placement's label (``7♥→L``) by card and flank, made once: an opening seat has 80 legal
#: openings of three placements each, every one labelled on the wire.
_PLACEMENT_LABELS = tuple(
    tuple(f"{cards40.CARD_LABELS[card]}→{name}" for name in FLANK_NAMES)
    for card in range(cards40.DECK_SIZE)
)


def _placement(card: int, flank: int) -> str:
    return _PLACEMENT_LABELS[card][flank]


def _open_label(placements: tuple[tuple[int, int], ...]) -> str:
    return "Open:[" + " ".join([_PLACEMENT_LABELS[c][f] for c, f in placements]) + "]"


class MoveKind(enum.IntEnum):
    """What a Scauver action does (a :class:`Move`'s kind)."""

    CHIPS = 0  # a bet or an answer: ``Move.chip``
    FOLD = 1
    PROCEED = 2
    NO_BET = 3
    PLACE = 4  # ``Move.placements``: one card into a flank
    PLACE_PAIR = 5  # the last two hand cards, one into L, one into R
    OPEN = 6  # the opening: three cards, each into a flank


@dataclass(frozen=True, slots=True)
class Move:
    """A Scauver action id decoded once (after Hanabi's ``HanabiMove``), by :func:`move`: what
    it does, its placements ``(card, flank)`` in order and, for a bet or an answer, the chip
    move. The label, the wire detail and the narrator read it instead of the id."""

    kind: MoveKind
    placements: tuple[tuple[int, int], ...] = ()
    chip: chips.ChipMove | None = None

    @property
    def label(self) -> str:
        """The action's label, e.g. ``Bet:4``, ``Fold``, ``Place:7♥→L``, ``Open:[K♣→R ...]``."""
        if self.chip is not None:
            return self.chip.label
        kind = self.kind
        if kind is MoveKind.PLACE or kind is MoveKind.PLACE_PAIR:
            return "Place:" + ",".join(_placement(c, f) for c, f in self.placements)
        if kind is MoveKind.OPEN:
            return _open_label(self.placements)
        return _PLAIN_LABELS[kind]


_PLAIN_LABELS = {MoveKind.FOLD: "Fold", MoveKind.PROCEED: "Proceed", MoveKind.NO_BET: "NoBet"}
_PLAIN_MOVES = {
    FOLD: Move(MoveKind.FOLD),
    PROCEED: Move(MoveKind.PROCEED),
    NO_BET: Move(MoveKind.NO_BET),
}


def is_opening(action: int) -> bool:
    """Whether ``action`` is an opening: the one id whose cards depend on the hand (and never
    public)."""
    return OPEN <= action < NUM_ACTIONS


def move(action: int, hand: tuple[int, ...] = ()) -> Move:
    """Action id ``action`` decoded. An opening's cards depend on the hand: give ``hand``, the
    opening seat's five cards sorted by card id; every other id decodes alone, once per id.
    IllegalActionError for an id that is not Scauver's (or an opening without a hand)."""
    if OPEN <= action < NUM_ACTIONS:
        if len(hand) != HAND_SIZE:
            raise IllegalActionError(f"{action} is an opening: it needs the five cards of the hand")
        return Move(MoveKind.OPEN, open_choice(hand, action))
    return _move(action)


@functools.cache
def _move(action: int) -> Move:
    if chips.is_chip_action(action):
        return Move(MoveKind.CHIPS, chip=chips.chip_move(action))
    plain = _PLAIN_MOVES.get(action)
    if plain is not None:
        return plain
    if PLACE <= action < PLACE_PAIR:
        card, flank = divmod(action - PLACE, 2)
        return Move(MoveKind.PLACE, ((card, flank),))
    if PLACE_PAIR <= action < OPEN:
        left, right = divmod(action - PLACE_PAIR, cards40.DECK_SIZE)
        return Move(MoveKind.PLACE_PAIR, ((left, LEFT), (right, RIGHT)))
    raise IllegalActionError(f"{action} is not an action of Scauver")


# ---- the game ----------------------------------------------------------------------------------

_OPEN_IDS = tuple(range(OPEN, NUM_ACTIONS))
_FOLD_PROCEED = range(FOLD, PROCEED + 1)
_NO_BET = range(NO_BET, NO_BET + 1)
_EMPTY_FIELD: Field = ((), ())
_FRACTIONS = {n: Fraction(n) for n in range(chips.MAX_CHIPS + 1)}

History = tuple[tuple[int, int], ...]


def _to_act(state: ScauverState) -> int:
    bet = state.table.bet
    return bet.to_act if bet is not None else state.turn_seat


# -- rounds -------------------------------------------------------------------------------------


def _new_round(state: ScauverState, table: chips.Table) -> ScauverState:
    """The state waiting for the deal of the round ``table`` has just opened."""
    n = state.config.players
    return _with(
        state,
        phase=Phase.DEAL,
        table=table,
        turn_seat=-1,
        turn=0,
        hands=((),) * n,
        fields=(_EMPTY_FIELD,) * n,
        opened=(False,) * n,
        stock=(),
        history=(),
    )


def _legal_opening(state: ScauverState) -> tuple[int, ...]:
    return _OPEN_IDS


def _apply_opening(state: ScauverState, action: int) -> ScauverState:
    seat = state.turn_seat
    hand = state.hands[seat]
    placed = open_choice(hand, action)
    flanks: list[tuple[int, ...]] = [(), ()]
    for card, flank in placed:
        flanks[flank] = (*flanks[flank], card)
    chosen = {c for c, _ in placed}
    state = _with(
        state,
        hands=put(state.hands, seat, tuple(c for c in hand if c not in chosen)),
        fields=put(state.fields, seat, (flanks[0], flanks[1])),
        opened=put(state.opened, seat, True),
    )
    nxt = chips.next_seated(state.table, seat)
    if not state.opened[nxt]:
        return _with(state, turn_seat=nxt)
    # every seat has chosen: the turns begin at the dealer's left
    return _begin_turn(state, nxt, 0)


def _begin_turn(state: ScauverState, seat: int, turn: int) -> ScauverState:
    """``seat`` starts its turn: it draws the top stock card, then comes to the betting step."""
    stock = state.stock
    hand = tuple(sorted((*state.hands[seat], stock[0])))
    return _with(
        state,
        phase=Phase.BET,
        turn_seat=seat,
        turn=turn,
        hands=put(state.hands, seat, hand),
        stock=stock[1:],
    )


def _next_turn(state: ScauverState, history: History) -> ScauverState:
    """The turn passes to the next live seat clockwise (a new cycle after the dealer)."""
    table = state.table
    n = state.config.players
    dealer = table.dealer
    pos = (state.turn_seat - dealer - 1) % n
    turn = state.turn
    for step in range(1, 2 * n + 1):
        p = pos + step
        if p >= n and turn == state.turn:
            turn += 1
            if turn == TURNS:
                return _showdown(state, history)
        seat = (dealer + 1 + p) % n
        if table.live[seat]:
            return _begin_turn(_with(state, history=history), seat, turn)
    raise IllegalActionError("nobody is live")  # unreachable: a lone winner ends the round


# -- turn steps ---------------------------------------------------------------------------------


def _runs_bet(state: ScauverState) -> ActionRuns:
    return ActionRuns.of_ranges(chips.bet_range(state.table), _FOLD_PROCEED)


def _apply_bet(state: ScauverState, action: int) -> ScauverState:
    """The betting step: bet, fold or proceed (the chips module checks a bet's amount)."""
    seat = state.turn_seat
    history = (*state.history, (seat, action))
    if action == PROCEED:
        return _with(state, phase=Phase.PLACE, history=history)
    if action == FOLD:
        table = chips.fold(state.table, seat)
    elif chips.BET <= action < chips.RAISE:
        table = chips.open_bet(state.table, seat, action - chips.BET)
    else:
        raise not_legal(action, seat)
    return _after_bet(_with(state, table=table, phase=Phase.PLACE), history)


def _runs_final_bet(state: ScauverState) -> ActionRuns:
    return ActionRuns.of_ranges(chips.bet_range(state.table), _NO_BET)


def _apply_final_bet(state: ScauverState, action: int) -> ScauverState:
    """The last turn's final bet, or none (the chips module checks a bet's amount)."""
    seat = state.turn_seat
    history = (*state.history, (seat, action))
    if action == NO_BET:
        return _next_turn(state, history)
    if not chips.BET <= action < chips.RAISE:
        raise not_legal(action, seat)
    table = chips.open_bet(state.table, seat, action - chips.BET)
    return _after_bet(_with(state, table=table, phase=Phase.TURN_END), history)


def _runs_answer(state: ScauverState) -> ActionRuns:
    return chips.answer_runs(state.table)


def _apply_answer(state: ScauverState, action: int) -> ScauverState:
    """An answer to the open bet; the chips module checks it as it applies it."""
    table = state.table
    history = (*state.history, (_to_act(state), action))
    return _after_bet(_with(state, table=chips.answer(table, action)), history)


def _after_bet(state: ScauverState, history: History) -> ScauverState:
    """After a betting action: the open sequence goes on, one live player takes the pot, the
    turn seat (if still live) places, or the turn passes."""
    table = state.table
    if table.bet is not None:
        return _with(state, history=history)
    winner = chips.lone_winner(table)
    if winner is not None:
        return _end_round(state, history, (winner,), Criterion.LONE_WINNER, (), showdown=False)
    if state.phase is Phase.PLACE and table.live[state.turn_seat]:
        return _with(state, history=history)
    return _next_turn(state, history)


def _placements(state: ScauverState) -> tuple[int, ...]:
    """The turn seat's legal placements (no bet open)."""
    seat = state.turn_seat
    left, right = state.fields[seat]
    room = (len(left) < FLANK_ROOM, len(right) < FLANK_ROOM)
    hand = state.hands[seat]
    return tuple(PLACE + 2 * card + flank for card in hand for flank in FLANKS if room[flank])


def _runs_place(state: ScauverState) -> ActionRuns:
    if state.table.bet is not None:  # the bet opened at the betting step is being answered
        return chips.answer_runs(state.table)
    return ActionRuns.of_ids(_placements(state))


def _apply_place(state: ScauverState, action: int) -> ScauverState:
    if state.table.bet is not None:  # answers are checked by the chips module
        return _apply_answer(state, action)
    seat = state.turn_seat
    if action not in _placements(state):
        raise not_legal(action, seat)
    history = (*state.history, (seat, action))
    card, flank = divmod(action - PLACE, 2)
    field = list(state.fields[seat])
    field[flank] = (*field[flank], card)
    state = _with(
        state,
        hands=put(state.hands, seat, tuple(c for c in state.hands[seat] if c != card)),
        fields=put(state.fields, seat, (field[0], field[1])),
    )
    if state.turn == TURNS - 1:
        return _with(state, phase=Phase.PLACE_PAIR, history=history)
    return _next_turn(state, history)


def _legal_place_pair(state: ScauverState) -> tuple[int, ...]:
    low, high = state.hands[state.turn_seat]
    return (pair_action(low, high), pair_action(high, low))


def _apply_place_pair(state: ScauverState, action: int) -> ScauverState:
    seat = state.turn_seat
    left_card, right_card = divmod(action - PLACE_PAIR, cards40.DECK_SIZE)
    left, right = state.fields[seat]
    return _with(
        state,
        phase=Phase.FINAL_BET,
        hands=put(state.hands, seat, ()),
        fields=put(state.fields, seat, ((*left, left_card), (*right, right_card))),
        history=(*state.history, (seat, action)),
    )


# -- the end of a round -------------------------------------------------------------------------


def _showdown(state: ScauverState, history: History) -> ScauverState:
    table = state.table
    showings = tuple(
        show(seat, state.fields[seat]) for seat in range(state.config.players) if table.live[seat]
    )
    winners, criterion = evaluate(showings)
    return _end_round(state, history, winners, criterion, showings, showdown=True)


def _end_round(
    state: ScauverState,
    history: History,
    winners: tuple[int, ...],
    criterion: Criterion,
    showings: tuple[Showing, ...],
    *,
    showdown: bool,
) -> ScauverState:
    ended = state.table
    config = state.config
    table, settlement, over = chips.close_round(
        ended,
        winners,
        config.amphora,
        config.double_every,
        config.round_cap,
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
    state = _with(state, past=(*state.past, PastRound(history, result)))
    if over:
        n = config.players
        return _with(
            state,
            phase=Phase.OVER,
            table=table,
            turn_seat=-1,
            hands=((),) * n,
            fields=(_EMPTY_FIELD,) * n,
            stock=(),
            history=(),
        )
    return _new_round(state, table)


class Scauver(Rules[ScauverState]):
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
    deck_size = cards40.DECK_SIZE
    draw_dealer = Phase.DRAW_DEALER
    deal = Phase.DEAL
    steps = MappingProxyType(
        {
            Phase.OPENING: Step(_legal_opening, _apply_opening),
            Phase.BET: Step(None, _apply_bet, checks=True, runs=_runs_bet),
            Phase.PLACE: Step(None, _apply_place, checks=True, runs=_runs_place),
            Phase.PLACE_PAIR: Step(_legal_place_pair, _apply_place_pair),
            Phase.FINAL_BET: Step(None, _apply_final_bet, checks=True, runs=_runs_final_bet),
            Phase.TURN_END: Step(None, _apply_answer, checks=True, runs=_runs_answer),
        }
    )

    # -- the contract -------------------------------------------------------------------------

    def initial_state(self, params: Mapping[str, int]) -> ScauverState:
        p = self.info.make_params(params)
        config = chips.config(p)
        n = config.players
        return ScauverState(
            config=config,
            phase=Phase.DRAW_DEALER,
            table=chips.new_table(n, p["stack"]),
            turn_seat=-1,
            turn=0,
            hands=((),) * n,
            fields=(_EMPTY_FIELD,) * n,
            opened=(False,) * n,
            stock=(),
            history=(),
            past=(),
        )

    def num_players(self, state: ScauverState) -> int:
        return state.config.players

    def to_act(self, state: ScauverState) -> int:
        return _to_act(state)

    def observe(self, state: ScauverState, seat: int | None) -> ScauverObservation:
        hand_sizes = tuple(len(h) for h in state.hands)
        fields = state.fields
        phase = state.phase
        if phase is Phase.OPENING:  # nobody sees another's opening before all have chosen
            hand_sizes = tuple(
                len(h) if s == seat else HAND_SIZE if h else 0 for s, h in enumerate(state.hands)
            )
            fields = tuple(f if s == seat else _EMPTY_FIELD for s, f in enumerate(fields))
        in_turns = Phase.BET <= phase <= Phase.TURN_END
        return ScauverObservation(
            seat=seat,
            round_cap=state.config.round_cap,
            table=state.table,
            phase=phase,
            to_act=_to_act(state) if phase in self.steps else None,
            turn_seat=state.turn_seat if in_turns else None,
            turn=state.turn,
            hand=state.hands[seat] if seat is not None else (),
            hand_sizes=hand_sizes,
            fields=fields,
            opened=state.opened,
            stock_size=len(state.stock),
            history=state.history,
            past_rounds=state.past,
        )

    def totals(self, state: ScauverState) -> tuple[Fraction, ...]:
        return tuple(_FRACTIONS[c] for c in chips.chips(state.table))

    def ranking(self, state: ScauverState) -> tuple[int, ...]:
        return chips.ranking(state.table)

    def action_label(self, state: ScauverState, action: int) -> str:
        if is_opening(action):
            if state.phase is not Phase.OPENING:
                raise IllegalActionError(f"{action} is an opening, and no seat is opening")
            return _open_label(open_choice(state.hands[state.turn_seat], action))
        return _move(action).label

    def default_choice(self, state: ScauverState, legal: Sequence[int]) -> int:
        if state.table.bet is not None:
            return chips.OUT
        if state.phase is Phase.BET:
            return PROCEED
        if state.phase is Phase.FINAL_BET:
            return NO_BET
        return legal[0]  # the opening and the placements

    def concede_action(self, state: ScauverState) -> int:
        if state.table.bet is not None:
            return chips.OUT
        if state.phase is Phase.BET:
            return FOLD
        return self.default_action(state)  # the opening and the placements: no fold there

    def round_index(self, state: ScauverState) -> int:
        return max(state.table.round, 0)

    def dealer(self, state: ScauverState) -> int:
        return state.table.dealer

    def is_public(self, state: ScauverState, action: int) -> bool:
        return state.phase is not Phase.OPENING

    # -- chance ---------------------------------------------------------------------------------

    def seat_dealer(self, state: ScauverState, dealer: int) -> ScauverState:
        config = state.config
        return _new_round(
            state, chips.open_round(state.table, dealer, config.amphora, config.double_every)
        )

    def deal_cards(self, state: ScauverState, deck: tuple[int, ...]) -> ScauverState:
        table = state.table
        hands, dealt = chips.deal(table, deck, HAND_SIZE)
        return _with(
            state,
            phase=Phase.OPENING,
            turn_seat=chips.next_seated(table, table.dealer),
            hands=hands,
            stock=deck[dealt:],
        )

    def deal_label(self, state: ScauverState, dealt: ScauverState) -> str:
        hands = "; ".join(
            f"seat {s}: {cards40.cards_label(h)}" for s, h in enumerate(dealt.hands) if h
        )
        table = state.table
        return (
            f"Round {table.round + 1}, dealer seat {table.dealer}: {hands}; "
            f"stock {cards40.cards_label(dealt.stock)}"
        )


#: The Scauver game instance registered in :mod:`croupier.games`.
GAME = Scauver()
