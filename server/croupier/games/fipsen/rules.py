"""Fipsen: four players, 25 cards, pairwise "bid and hold" bidding, 5 tricks, 16 deals.

Rules: ``docs/rules/fipsen.md`` (binding reading of ``shared/rules/fipsen.md``). Version 1.

Seats are numbered clockwise; seat ``i + 1`` sits to the left of seat ``i``. Roles per deal: V
(Vorhand) = dealer + 1, M = dealer + 2, H = dealer + 3, D = the dealer. The deal passes left.

Readings chosen where the rules are silent (also in the rules doc):

* The first dealer is a chance node with outcome ``(seat,)``. Each deal is one chance node whose
  outcome is the shuffled deck (25 card ids) in deal order: 3 each to V, M, H, D, 2 to the Skat,
  2 each to V, M, H, D, the last 3 to the Kieker stock.
* A card id is ``8 * suit + rank`` with suits ♣ ♠ ♥ = 0, 1, 2 and ranks 7, 8, 9, 10, J, Q, K, A
  = 0..7; the single diamond 7♦ is id 24 (suit 3, rank 0).
* A throw-in (all four pass) scores nothing, counts as one of the deals, and the same dealer
  deals again.
* Siebener Fips is offered only to a seat whose current five cards qualify (7♣ 7♠ 7♥ 7♦ + an
  Ace; at most one seat can). Before bidding that seat is asked once; a declarer whose hand
  qualifies after its exchange is asked again right after the exchange (after its last discard,
  after ``PLAY_HAND``, or at once after a Hand bid), *before* trump is named. Declining is not a
  public action: while a seat is being asked, every other seat (and the public view) sees the
  state as if it had already declined, so nobody learns an offer existed.
* A Ruten bid forces ♦: the trump decision is skipped (trump ♦ is set, Ruten applies).
* Bids rank by ``(n, 0)`` no flags, ``(n, 1)`` Hand and/or Ruten, ``(n, 2)`` with Durch,
  Kieker ``(4, 3)``; action ids list them in that order, so every legal bid list is ascending.
  ``HOLD`` (the senior takes over the standing bid) is legal for the senior whenever it answers
  a junior's bid, except that holding Kieker needs a Kieker-eligible senior.
* Kieker eligibility is checked on the dealt hand (no K, Q or J); the contract is all 5 tricks,
  so the deal stops at the first lost trick.
* Trick counts: T won / L lost by the declarer. When T reaches ``n < 5`` with ``L = 0`` and Durch
  not applied, the declarer chooses ``STOP`` (won) or ``DURCH``; otherwise the deal stops as soon
  as the result is decided. Cards not played when a deal stops stay hidden.
* Timeout/fault default action: ``PASS`` in bidding, ``DECLINE_FIPS``, ``PLAY_HAND``, the lowest
  legal discard / trump (♣) / card, ``STOP``.
* Forfeit (fault policy): a declarer that forfeits loses its contract at once
  (``forfeit_round``: -2 x value, -40 for Kieker); a bidder or defender plays the defaults.
* ``DISCARD`` and ``DECLINE_FIPS`` are not public (``is_public`` is False); every other action is.

Action ids (ascending in every legal list; bids in rank order, equal ranks side by side):

=======  ==================  ===================================================
 id      action              legal when
=======  ==================  ===================================================
 0       PASS                bidding
 1       HOLD                the senior answers a junior's bid
 2-9     Bid 2 .. 2HRD       bidding, outranks the standing bid; 2, 2H, 2R, 2HR,
                             2D, 2HD, 2RD, 2HRD (H Hand, R Ruten, D Durch)
 10-17   Bid 3 .. 3HRD       likewise
 18-25   Bid 4 .. 4HRD       likewise
 26      KIEKER              likewise, and the dealt hand has no K, Q or J
 27-30   Bid 5, 5H, 5R, 5HR  likewise (no Durch with 5)
 31      SIEBENER_FIPS       the seat's five cards are 7♣ 7♠ 7♥ 7♦ + an Ace
 32      DECLINE_FIPS        likewise
 33      TAKE_SKAT           the declarer of a number bid without Hand
 34      PLAY_HAND           likewise
 35-59   DISCARD + card      the declarer discards a card it holds
 60-63   TRUMP + suit        the declarer names ♣ ♠ ♥ ♦
 64-88   PLAY + card         a card of the suit led if able, else any card
 89      STOP                T reached n < 5 with L = 0, Durch not applied
 90      DURCH               likewise (Durch applies: all 5 tricks)
=======  ==================  ===================================================

Every id decodes to one :class:`Move` (:func:`move`: its kind and the bid, card or suit it
names), which the label, the wire detail and the narrator read.

Observation (:class:`FipsenObservation`): seat, deal index and count, dealer, phase, seat to act,
own hand, this deal's public actions, the standing bid and who passed, declarer, contract, trump,
applied modifiers, whether the Skat was taken, the Skat (and stock) the declarer took and its own
discards (declarer only), the finished tricks, the current trick, T and L, totals, every finished
deal (:class:`~croupier.games._rules.PastRound`: its public actions and its :class:`DealResult`,
which carries the deal's finished tricks; a Siebener Fips result shows the caller's hand).

Parameters: ``players`` 4 (fixed), ``deals`` 16 (1..1000).
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from types import MappingProxyType
from typing import NamedTuple

from croupier.errors import IllegalActionError
from croupier.games._api import GameInfo, ParamSpec, fast_replace, put
from croupier.games._rules import PastRound, Rules, Step

NUM_SEATS = 4
HAND_SIZE = 5
NUM_TRICKS = 5
DECK_SIZE = 25
SEVEN_OF_DIAMONDS = 24
CLUBS, SPADES, HEARTS, DIAMONDS = range(4)
RANK_NAMES = ("7", "8", "9", "10", "J", "Q", "K", "A")
SUIT_NAMES = ("♣", "♠", "♥", "♦")
JACK, QUEEN, KING, ACE = 4, 5, 6, 7
KIEKER_WIN, KIEKER_LOSS, FIPS_SCORE = 20, -40, 30


def card_suit(card: int) -> int:
    """Suit 0..3 (♣ ♠ ♥ ♦) of a card id."""
    return card >> 3


def card_rank(card: int) -> int:
    """Rank 0..7 (7 .. A) of a card id."""
    return card & 7


def card_name(card: int) -> str:
    """``Q♠``: rank and suit."""
    return f"{RANK_NAMES[card & 7]}{SUIT_NAMES[card >> 3]}"


def cards_text(cards: tuple[int, ...]) -> str:
    """Cards by name, separated by spaces."""
    return " ".join(card_name(c) for c in cards)


def make_card(rank: str, suit: str) -> int:
    """The id of the card named by ``rank`` (``"7"`` .. ``"A"``) and ``suit`` (``"♣"`` ..)."""
    card = 8 * SUIT_NAMES.index(suit) + RANK_NAMES.index(rank)
    if card >= DECK_SIZE:
        raise ValueError(f"no such card: {rank}{suit}")
    return card


def stacked_deal(
    hands: tuple[tuple[int, ...], ...], skat: tuple[int, ...], stock: tuple[int, ...]
) -> tuple[int, ...]:
    """The deal outcome (25 card ids in deal order) giving V, M, H, D the ``hands`` (by role),
    the Skat and the stock: for tests, tools and scripted matches (``chance_script``)."""
    deck = (
        *(c for hand in hands for c in hand[:3]),
        *skat,
        *(c for hand in hands for c in hand[3:]),
        *stock,
    )
    sizes = (*(len(h) for h in hands), len(skat), len(stock))
    if sizes != (HAND_SIZE,) * NUM_SEATS + (2, 3) or sorted(deck) != list(range(DECK_SIZE)):
        raise ValueError("four 5-card hands, 2 Skat cards and 3 stock cards make the 25-card deck")
    return deck


class Bid(NamedTuple):
    """A bid: ``tricks`` n (5 for Kieker) and its announced flags."""

    tricks: int
    hand: bool = False
    ruten: bool = False
    durch: bool = False
    kieker: bool = False

    @property
    def rank(self) -> tuple[int, int]:
        """The bid's rank; a bid outranks another when its rank is greater."""
        if self.kieker:
            return (4, 3)
        return (self.tricks, 2 if self.durch else 1 if self.hand or self.ruten else 0)

    @property
    def label(self) -> str:
        """``2``, ``4HR``, ``3D``, ``Kieker``."""
        if self.kieker:
            return "Kieker"
        flags = "H" * self.hand + "R" * self.ruten + "D" * self.durch
        return f"{self.tricks}{flags}"


def _all_bids() -> tuple[Bid, ...]:
    bids = []
    for n in (2, 3, 4, 5):
        for durch in (False, True) if n < 5 else (False,):
            for ruten in (False, True):
                for hand in (False, True):
                    bids.append(Bid(n, hand, ruten, durch))
    bids.append(Bid(5, kieker=True))
    # stable sort: equal ranks keep the order 2, 2H, 2R, 2HR (and 2D, 2HD, 2RD, 2HRD)
    return tuple(sorted(bids, key=lambda b: b.rank))


#: Every bid in rank order; bid ``i`` has action id ``BID_BASE + i``.
BIDS = _all_bids()


class Action(enum.IntEnum):
    """Action ids (bases of the ranges in the module docstring); stable across versions."""

    PASS = 0
    HOLD = 1
    BID_BASE = 2
    KIEKER = 2 + BIDS.index(Bid(5, kieker=True))
    SIEBENER_FIPS = 2 + len(BIDS)
    DECLINE_FIPS = SIEBENER_FIPS + 1
    TAKE_SKAT = SIEBENER_FIPS + 2
    PLAY_HAND = SIEBENER_FIPS + 3
    DISCARD_BASE = SIEBENER_FIPS + 4
    TRUMP_BASE = DISCARD_BASE + DECK_SIZE
    PLAY_BASE = TRUMP_BASE + 4
    STOP = PLAY_BASE + DECK_SIZE
    DURCH = STOP + 1


NUM_ACTIONS = int(Action.DURCH) + 1
_PASS, _HOLD, _BID, _KIEKER = 0, 1, int(Action.BID_BASE), int(Action.KIEKER)
_FIPS, _DECLINE = int(Action.SIEBENER_FIPS), int(Action.DECLINE_FIPS)
_TAKE, _PLAY_HAND = int(Action.TAKE_SKAT), int(Action.PLAY_HAND)
_DISCARD, _TRUMP, _PLAY = int(Action.DISCARD_BASE), int(Action.TRUMP_BASE), int(Action.PLAY_BASE)
_STOP, _DURCH = int(Action.STOP), int(Action.DURCH)


def bid_action(bid: Bid) -> int:
    """The action id of ``bid``."""
    return _BID + BIDS.index(bid)


# -- moves -----------------------------------------------------------------------------------------


class MoveKind(enum.Enum):
    """What a move does: one kind per range of the action-id table (Kieker is a bid)."""

    PASS = "Pass"
    HOLD = "Hold"
    BID = "Bid"
    SIEBENER_FIPS = "SiebenerFips"
    DECLINE_FIPS = "Decline"
    TAKE_SKAT = "TakeSkat"
    PLAY_HAND = "PlayHand"
    DISCARD = "Discard"
    TRUMP = "Trump"
    PLAY = "Play"
    STOP = "Stop"
    DURCH = "Durch"


@dataclass(frozen=True, slots=True)
class Move:
    """One action id decoded (after Hanabi's ``HanabiMove``): its kind and what it names, the
    ``bid`` of a bid, the ``card`` of a discard or a play, the ``suit`` of a trump; ``None``
    where the kind names nothing. A ``HOLD`` names no bid: it takes over the standing one."""

    kind: MoveKind
    bid: Bid | None = None
    card: int | None = None
    suit: int | None = None

    @property
    def label(self) -> str:
        """``Pass``, ``Bid:4HR``, ``Kieker``, ``Discard:Q♠``, ``Trump:♥``, ``Play:7♦`` ..."""
        word = self.kind.value
        if self.bid is not None:
            return "Kieker" if self.bid.kieker else f"{word}:{self.bid.label}"
        if self.card is not None:
            return f"{word}:{card_name(self.card)}"
        if self.suit is not None:
            return f"{word}:{SUIT_NAMES[self.suit]}"
        return word


_PLAIN_MOVES = {
    _PASS: MoveKind.PASS,
    _HOLD: MoveKind.HOLD,
    _FIPS: MoveKind.SIEBENER_FIPS,
    _DECLINE: MoveKind.DECLINE_FIPS,
    _TAKE: MoveKind.TAKE_SKAT,
    _PLAY_HAND: MoveKind.PLAY_HAND,
    _STOP: MoveKind.STOP,
    _DURCH: MoveKind.DURCH,
}


@cache
def move(action: int) -> Move:
    """The move action id ``action`` names (decoded once per id; it does not depend on the
    state). Raises :class:`~croupier.errors.IllegalActionError` for an id outside ``0..90``."""
    kind = _PLAIN_MOVES.get(action)
    if kind is not None:
        return Move(kind)
    if _BID <= action < _FIPS:
        return Move(MoveKind.BID, bid=BIDS[action - _BID])
    if _DISCARD <= action < _TRUMP:
        return Move(MoveKind.DISCARD, card=action - _DISCARD)
    if _TRUMP <= action < _PLAY:
        return Move(MoveKind.TRUMP, suit=action - _TRUMP)
    if _PLAY <= action < _STOP:
        return Move(MoveKind.PLAY, card=action - _PLAY)
    raise IllegalActionError(f"no Fipsen action has id {action!r}")


#: Every id's label, made once from its move.
_LABELS = tuple(move(a).label for a in range(NUM_ACTIONS))


# -- states and observations -----------------------------------------------------------------------


class Phase(enum.IntEnum):
    """Where the match stands."""

    DRAW_DEALER = 0  # chance: the first dealer
    DEAL = 1  # chance: shuffle and deal
    SIEBENER_FIPS = 2  # a seat whose hand qualifies is asked
    BIDDING = 3
    SKAT = 4  # TAKE_SKAT or PLAY_HAND
    DISCARD = 5
    TRUMP = 6
    PLAY = 7
    STOP_OR_DURCH = 8
    OVER = 9


class DealOutcome(enum.IntEnum):
    """How a deal ended."""

    THROW_IN = 0
    SIEBENER_FIPS = 1
    WON = 2
    LOST = 3


@dataclass(frozen=True, slots=True)
class Trick:
    """A finished trick: who led, the cards in play order, who won it."""

    leader: int
    cards: tuple[int, ...]
    winner: int


@dataclass(frozen=True, slots=True)
class DealResult:
    """How a finished deal ended; public.

    ``declarer`` is the declarer, or the seat that called Siebener Fips (``None`` on a throw-in);
    ``contract`` a bid id. ``revealed`` is the Siebener Fips caller's hand (empty otherwise).
    ``value`` is what the declarer won or lost (``n * 2**k``, 20 for Kieker, 30 for Fips).
    ``tricks`` are the deal's finished tricks in play order (empty unless cards were played; a
    deal stops at the trick that decides it).
    """

    deal_index: int
    dealer: int
    outcome: DealOutcome
    declarer: int | None
    contract: int | None
    trump: int | None
    hand: bool
    ruten: bool
    durch: bool
    declarer_tricks: int
    value: int
    revealed: tuple[int, ...]
    deltas: tuple[Fraction, ...]
    tricks: tuple[Trick, ...]


class FipsenState(NamedTuple):
    """Immutable match state. Hands hold card ids sorted ascending; ``-1`` means "none".

    The Skat was taken exactly when ``taken`` is not empty.
    """

    num_deals: int
    round_index: int  # the current deal, from 0
    dealer: int
    phase: Phase
    to_act: int
    hands: tuple[tuple[int, ...], ...]
    skat: tuple[int, ...]
    stock: tuple[int, ...]  # the Kieker stock
    kieker_ok: tuple[bool, ...]  # by seat: the dealt hand has no K, Q or J
    senior: int
    queue: tuple[int, ...]  # juniors still to come, in order
    junior: int  # the junior in the current pair, -1 before it bids
    bid: int  # the standing bid's action id, -1 while none
    passed: tuple[bool, ...]
    declarer: int
    trump: int
    hand_applied: bool
    ruten_applied: bool
    durch_applied: bool
    taken: tuple[int, ...]  # what the declarer took: the Skat (and the stock under Kieker)
    discards: tuple[int, ...]
    discards_left: int
    leader: int
    trick: tuple[int, ...]  # cards of the current trick, in play order
    tricks: tuple[Trick, ...]
    won: int  # T: tricks the declarer won
    lost: int  # L: tricks the declarer lost
    totals: tuple[int, ...]
    history: tuple[tuple[int, int], ...]  # this deal's public actions
    past: tuple[PastRound[DealResult], ...]


#: ``state._replace(**changes)``, 2-3 times faster for this wide tuple (the hot path).
_with = fast_replace(FipsenState)


@dataclass(frozen=True, slots=True)
class FipsenObservation:
    """What one seat (or, with ``seat=None``, a spectator) may see.

    ``hand`` is the seat's own cards (empty for the public view and between deals). ``skat`` and
    ``discards`` are empty except for the declarer once it took the Skat / discarded.
    ``to_act``, ``declarer``, ``contract``, ``trump``, ``standing_bid`` and ``trick_leader`` are
    ``None`` when there is none.
    """

    seat: int | None
    deal_index: int
    num_deals: int
    dealer: int
    phase: Phase
    to_act: int | None
    hand: tuple[int, ...]
    history: tuple[tuple[int, int], ...]
    standing_bid: int | None
    passed: tuple[bool, ...]
    declarer: int | None
    contract: int | None
    trump: int | None
    hand_applied: bool
    ruten_applied: bool
    durch_applied: bool
    skat_taken: bool
    skat: tuple[int, ...]
    discards: tuple[int, ...]
    tricks: tuple[Trick, ...]
    trick_leader: int | None
    trick_cards: tuple[int, ...]
    declarer_tricks: int
    defender_tricks: int
    totals: tuple[Fraction, ...]
    past_deals: tuple[PastRound[DealResult], ...]

    @property
    def last_deal(self) -> DealResult | None:
        """The result of the latest finished deal, if any."""
        return self.past_deals[-1].result if self.past_deals else None


# -- tables ----------------------------------------------------------------------------------------

_NO = (False,) * NUM_SEATS
_ZERO = (0,) * NUM_SEATS
_EMPTY_HANDS: tuple[tuple[int, ...], ...] = ((),) * NUM_SEATS
_SUIT = tuple(card_suit(c) for c in range(DECK_SIZE))
_RANK = tuple(card_rank(c) for c in range(DECK_SIZE))
_BID_RANK = tuple(b.rank for b in BIDS)
_BID_TRICKS = tuple(b.tricks for b in BIDS)
_FIPS_SEVENS = frozenset((0, 8, 16, SEVEN_OF_DIAMONDS))
_ACES = frozenset(8 * s + ACE for s in range(3))


def _bids_above(standing: int, kieker_ok: bool) -> tuple[int, ...]:
    floor = _BID_RANK[standing - _BID] if standing >= 0 else (0, 0)
    return tuple(
        _BID + i for i, bid in enumerate(BIDS) if bid.rank > floor and (kieker_ok or not bid.kieker)
    )


#: Legal bidding ids by (standing bid id or -1, Kieker-eligible, senior answering a junior).
_LEGAL_BIDDING: dict[tuple[int, bool, bool], tuple[int, ...]] = {}
for _standing in (-1, *range(_BID, _FIPS)):
    for _ok in (False, True):
        _above = _bids_above(_standing, _ok)
        _LEGAL_BIDDING[_standing, _ok, False] = (_PASS, *_above)
        _can_hold = _standing >= 0 and (_ok or _standing != _KIEKER)
        _LEGAL_BIDDING[_standing, _ok, True] = (_PASS, *((_HOLD,) if _can_hold else ()), *_above)
_FIPS_CHOICE = (_FIPS, _DECLINE)
_SKAT_CHOICE = (_TAKE, _PLAY_HAND)
_STOP_CHOICE = (_STOP, _DURCH)
_ALL_TRUMPS = tuple(_TRUMP + s for s in range(4))
_PLAY_IDS = tuple(_PLAY + c for c in range(DECK_SIZE))
_DISCARD_IDS = tuple(_DISCARD + c for c in range(DECK_SIZE))
_FRACTIONS = {n: Fraction(n) for n in range(-1000, 1001)}


def _fraction(value: int) -> Fraction:
    cached = _FRACTIONS.get(value)
    return cached if cached is not None else Fraction(value)


def qualifies_for_fips(hand: tuple[int, ...]) -> bool:
    """Whether five cards are 7♣ 7♠ 7♥ 7♦ plus an Ace."""
    return len(hand) == HAND_SIZE and _FIPS_SEVENS.issubset(hand) and any(c in _ACES for c in hand)


def kieker_eligible(hand: tuple[int, ...]) -> bool:
    """Whether a dealt hand holds no K, Q or J."""
    return all(not JACK <= _RANK[c] <= KING for c in hand)


def trick_winner(cards: tuple[int, ...], leader: int, trump: int) -> int:
    """The seat winning a full trick led by ``leader``: highest trump, else highest of suit led."""
    led = _SUIT[cards[0]]
    best, best_key = 0, (-1, -1)
    for i, card in enumerate(cards):
        suit = _SUIT[card]
        key = (2 if suit == trump else 1 if suit == led else 0, _RANK[card])
        if key > best_key:
            best, best_key = i, key
    return (leader + best) % NUM_SEATS


def contract_value(bid: Bid, hand: bool, ruten: bool, durch: bool) -> int:
    """What a won contract scores: ``n * 2**k`` (k applied modifiers), 20 for Kieker."""
    if bid.kieker:
        return KIEKER_WIN
    return bid.tricks << (hand + ruten + durch)


def _without(hand: tuple[int, ...], card: int) -> tuple[int, ...]:
    i = hand.index(card)
    return hand[:i] + hand[i + 1 :]


# -- deal boundaries -------------------------------------------------------------------------------


def _between_deals(
    *,
    num_deals: int,
    round_index: int,
    dealer: int,
    phase: Phase,
    totals: tuple[int, ...],
    past: tuple[PastRound[DealResult], ...],
) -> FipsenState:
    """The state before a deal (or at the end): nothing dealt, nothing bid, nothing played."""
    return FipsenState(
        num_deals=num_deals,
        round_index=round_index,
        dealer=dealer,
        phase=phase,
        to_act=-1,
        hands=_EMPTY_HANDS,
        skat=(),
        stock=(),
        kieker_ok=_NO,
        senior=-1,
        queue=(),
        junior=-1,
        bid=-1,
        passed=_NO,
        declarer=-1,
        trump=-1,
        hand_applied=False,
        ruten_applied=False,
        durch_applied=False,
        taken=(),
        discards=(),
        discards_left=0,
        leader=-1,
        trick=(),
        tricks=(),
        won=0,
        lost=0,
        totals=totals,
        history=(),
        past=past,
    )


def _end_deal(
    state: FipsenState,
    history: tuple[tuple[int, int], ...],
    outcome: DealOutcome,
    value: int,
    revealed: tuple[int, ...] = (),
) -> FipsenState:
    """Score the deal (``value`` is the declarer's delta) and move to the next deal or the end."""
    declarer = state.declarer if outcome is not DealOutcome.SIEBENER_FIPS else state.to_act
    deltas = tuple(value if s == declarer else 0 for s in range(NUM_SEATS))
    totals = tuple(t + d for t, d in zip(state.totals, deltas, strict=True))
    contract = state.bid if state.declarer >= 0 else None
    result = DealResult(
        deal_index=state.round_index,
        dealer=state.dealer,
        outcome=outcome,
        declarer=declarer if declarer >= 0 else None,
        contract=contract,
        trump=state.trump if state.trump >= 0 else None,
        hand=state.hand_applied,
        ruten=state.ruten_applied,
        durch=state.durch_applied,
        declarer_tricks=state.won,
        value=abs(value) if outcome is not DealOutcome.LOST else abs(value) // 2,
        revealed=revealed,
        deltas=tuple(_fraction(d) for d in deltas),
        tricks=state.tricks,
    )
    past = (*state.past, PastRound(history, result))
    index = state.round_index + 1
    if index >= state.num_deals:
        return _between_deals(
            num_deals=state.num_deals, round_index=state.round_index, dealer=state.dealer,
            phase=Phase.OVER, totals=totals, past=past,
        )  # fmt: skip
    dealer = state.dealer if outcome is DealOutcome.THROW_IN else (state.dealer + 1) % NUM_SEATS
    return _between_deals(
        num_deals=state.num_deals, round_index=index, dealer=dealer, phase=Phase.DEAL,
        totals=totals, past=past,
    )  # fmt: skip


# -- Siebener Fips ---------------------------------------------------------------------------------


def _legal_fips(state: FipsenState) -> tuple[int, ...]:
    return _FIPS_CHOICE


def _decline(state: FipsenState) -> FipsenState:
    """Where a declined offer leads: bidding (before it), else the trump decision."""
    if state.declarer < 0:
        return _with(state, phase=Phase.BIDDING, to_act=state.senior)
    return _to_trump(state)


def _apply_fips(state: FipsenState, action: int) -> FipsenState:
    if action == _DECLINE:
        return _decline(state)
    seat = state.to_act
    history = (*state.history, (seat, action))
    return _end_deal(state, history, DealOutcome.SIEBENER_FIPS, FIPS_SCORE, state.hands[seat])


# -- bidding ---------------------------------------------------------------------------------------


def _legal_bidding(state: FipsenState) -> tuple[int, ...]:
    seat = state.to_act
    answering = state.junior >= 0 and seat == state.senior
    return _LEGAL_BIDDING[state.bid, state.kieker_ok[seat], answering]


def _apply_bidding(state: FipsenState, action: int) -> FipsenState:
    seat = state.to_act
    history = (*state.history, (seat, action))
    senior, queue, junior, bid = state.senior, state.queue, state.junior, state.bid
    passed = state.passed
    if action == _PASS:
        passed = tuple(p or s == seat for s, p in enumerate(passed))
    if bid < 0:  # the senior opens or passes
        if action == _PASS:
            if not queue:  # all four passed: a throw-in
                return _end_deal(_with(state, passed=passed), history, DealOutcome.THROW_IN, 0)
            return _with(state, senior=queue[0], queue=queue[1:], to_act=queue[0],
                         passed=passed, history=history)  # fmt: skip
        return _next_junior(_with(state, bid=action, history=history))
    if seat == junior:
        if action == _PASS:  # the junior is out; the senior keeps the bid
            return _next_junior(_with(state, junior=-1, passed=passed, history=history))
        return _with(state, bid=action, to_act=senior, history=history)
    # the senior answers the junior's bid
    if action == _PASS:  # the junior becomes the senior with its own bid
        return _next_junior(_with(state, senior=junior, junior=-1, passed=passed,
                                  history=history))  # fmt: skip
    if action != _HOLD:
        bid = action
    return _with(state, bid=bid, to_act=junior, history=history)


def _next_junior(state: FipsenState) -> FipsenState:
    """The standing bid is the senior's: the next junior bids against it, or the senior declares."""
    if state.queue:
        junior = state.queue[0]
        return _with(state, queue=state.queue[1:], junior=junior, to_act=junior)
    return _declare(_with(state, junior=-1))


def _declare(state: FipsenState) -> FipsenState:
    """Bidding is over: the senior is the declarer with the standing bid."""
    declarer = state.senior
    bid = BIDS[state.bid - _BID]
    state = _with(state, declarer=declarer, to_act=declarer)
    if bid.kieker:
        hand = tuple(sorted((*state.hands[declarer], *state.skat, *state.stock)))
        return _with(
            state,
            phase=Phase.DISCARD,
            hands=put(state.hands, declarer, hand),
            taken=tuple(sorted((*state.skat, *state.stock))),
            discards_left=5,
        )
    if bid.hand:
        return _after_exchange(_with(state, hand_applied=True))
    return _with(state, phase=Phase.SKAT)


# -- declarer setup --------------------------------------------------------------------------------


def _legal_skat(state: FipsenState) -> tuple[int, ...]:
    return _SKAT_CHOICE


def _apply_skat(state: FipsenState, action: int) -> FipsenState:
    seat = state.to_act
    history = (*state.history, (seat, action))
    if action == _PLAY_HAND:
        return _after_exchange(_with(state, hand_applied=True, history=history))
    hand = tuple(sorted((*state.hands[seat], *state.skat)))
    return _with(
        state,
        phase=Phase.DISCARD,
        hands=put(state.hands, seat, hand),
        taken=state.skat,
        discards_left=2,
        history=history,
    )


def _legal_discard(state: FipsenState) -> tuple[int, ...]:
    return tuple([_DISCARD_IDS[c] for c in state.hands[state.to_act]])


def _apply_discard(state: FipsenState, action: int) -> FipsenState:
    seat, card = state.to_act, action - _DISCARD
    state = _with(
        state,
        hands=put(state.hands, seat, _without(state.hands[seat], card)),
        discards=tuple(sorted((*state.discards, card))),
        discards_left=state.discards_left - 1,
    )
    return _after_exchange(state) if state.discards_left == 0 else state


def _after_exchange(state: FipsenState) -> FipsenState:
    """The exchange is done: offer Siebener Fips if the declarer's hand qualifies, else trump."""
    if qualifies_for_fips(state.hands[state.declarer]):
        return _with(state, phase=Phase.SIEBENER_FIPS, to_act=state.declarer)
    return _to_trump(state)


def _to_trump(state: FipsenState) -> FipsenState:
    bid = BIDS[state.bid - _BID]
    if bid.ruten:  # Ruten forces ♦: nothing to choose
        return _start_play(_with(state, trump=DIAMONDS, ruten_applied=True))
    return _with(state, phase=Phase.TRUMP, to_act=state.declarer)


def _legal_trump(state: FipsenState) -> tuple[int, ...]:
    return _ALL_TRUMPS


def _apply_trump(state: FipsenState, action: int) -> FipsenState:
    suit = action - _TRUMP
    bid = BIDS[state.bid - _BID]
    history = (*state.history, (state.to_act, action))
    return _start_play(
        _with(
            state,
            trump=suit,
            ruten_applied=suit == DIAMONDS and not bid.kieker,
            history=history,
        )
    )


def _start_play(state: FipsenState) -> FipsenState:
    bid = BIDS[state.bid - _BID]
    vorhand = (state.dealer + 1) % NUM_SEATS
    return _with(
        state,
        phase=Phase.PLAY,
        durch_applied=bid.durch,
        to_act=vorhand,
        leader=vorhand,
        trick=(),
    )


# -- play ------------------------------------------------------------------------------------------


def _legal_play(state: FipsenState) -> tuple[int, ...]:
    hand = state.hands[state.to_act]
    if state.trick:
        led = _SUIT[state.trick[0]]
        follow = [_PLAY_IDS[c] for c in hand if _SUIT[c] == led]
        if follow:
            return tuple(follow)
    return tuple([_PLAY_IDS[c] for c in hand])


def _apply_play(state: FipsenState, action: int) -> FipsenState:
    seat, card = state.to_act, action - _PLAY
    history = (*state.history, (seat, action))
    hands = put(state.hands, seat, _without(state.hands[seat], card))
    trick = (*state.trick, card)
    if len(trick) < NUM_SEATS:
        return _with(
            state, to_act=(seat + 1) % NUM_SEATS, hands=hands, trick=trick, history=history
        )
    winner = trick_winner(trick, state.leader, state.trump)
    won, lost = state.won, state.lost
    if winner == state.declarer:
        won += 1
    else:
        lost += 1
    state = _with(
        state,
        to_act=winner,
        leader=winner,
        hands=hands,
        trick=(),
        tricks=(*state.tricks, Trick(state.leader, trick, winner)),
        won=won,
        lost=lost,
        history=history,
    )
    bid = BIDS[state.bid - _BID]
    n = _BID_TRICKS[state.bid - _BID]
    if state.durch_applied or bid.kieker:
        if lost:
            return _score(state, history, won=False)
        if won == NUM_TRICKS:
            return _score(state, history, won=True)
        return state
    if lost > NUM_TRICKS - n:
        return _score(state, history, won=False)
    if won == n:
        if lost == 0 and n < NUM_TRICKS:
            return _with(state, phase=Phase.STOP_OR_DURCH, to_act=state.declarer)
        return _score(state, history, won=True)
    return state


def _legal_stop_or_durch(state: FipsenState) -> tuple[int, ...]:
    return _STOP_CHOICE


def _apply_stop_or_durch(state: FipsenState, action: int) -> FipsenState:
    history = (*state.history, (state.to_act, action))
    if action == _STOP:
        return _score(state, history, won=True)
    return _with(state, phase=Phase.PLAY, durch_applied=True, history=history)


def _score(state: FipsenState, history: tuple[tuple[int, int], ...], *, won: bool) -> FipsenState:
    bid = BIDS[state.bid - _BID]
    value = contract_value(bid, state.hand_applied, state.ruten_applied, state.durch_applied)
    if won:
        return _end_deal(state, history, DealOutcome.WON, value)
    return _end_deal(state, history, DealOutcome.LOST, -2 * value)


#: The phases in which the seat to act may be a declarer with a contract (forfeit_round).
_DECLARER_PHASES = frozenset(
    {Phase.SIEBENER_FIPS, Phase.SKAT, Phase.DISCARD, Phase.TRUMP, Phase.PLAY, Phase.STOP_OR_DURCH}
)


class Fipsen(Rules[FipsenState]):
    """The Fipsen game module (see the module docstring); stateless: use :data:`GAME`."""

    info = GameInfo(
        name="fipsen",
        title="Fipsen",
        version=1,
        min_players=NUM_SEATS,
        max_players=NUM_SEATS,
        num_distinct_actions=NUM_ACTIONS,
        params=(
            ParamSpec("players", NUM_SEATS, NUM_SEATS, NUM_SEATS, "number of seats (fixed)"),
            ParamSpec("deals", 16, 1, 1000, "deals in a match (a throw-in counts)"),
        ),
        rules_doc="docs/rules/fipsen.md",
    )
    deck_size = DECK_SIZE
    draw_dealer = Phase.DRAW_DEALER
    deal = Phase.DEAL
    steps = MappingProxyType(
        {
            Phase.SIEBENER_FIPS: Step(_legal_fips, _apply_fips),
            Phase.BIDDING: Step(_legal_bidding, _apply_bidding),
            Phase.SKAT: Step(_legal_skat, _apply_skat),
            Phase.DISCARD: Step(_legal_discard, _apply_discard),
            Phase.TRUMP: Step(_legal_trump, _apply_trump),
            Phase.PLAY: Step(_legal_play, _apply_play),
            Phase.STOP_OR_DURCH: Step(_legal_stop_or_durch, _apply_stop_or_durch),
        }
    )

    # -- the contract -------------------------------------------------------------------------

    def initial_state(self, params: Mapping[str, int]) -> FipsenState:
        p = self.info.make_params(params)
        return _between_deals(
            num_deals=p["deals"], round_index=0, dealer=-1, phase=Phase.DRAW_DEALER,
            totals=_ZERO, past=(),
        )  # fmt: skip

    def num_players(self, state: FipsenState) -> int:
        return NUM_SEATS

    def to_act(self, state: FipsenState) -> int:
        return state.to_act

    def observe(self, state: FipsenState, seat: int | None) -> FipsenObservation:
        if state.phase is Phase.SIEBENER_FIPS and seat != state.to_act:
            state = _decline(state)  # nobody else learns that an offer exists
        playing = state.phase not in (Phase.DEAL, Phase.DRAW_DEALER, Phase.OVER)
        mine = seat is not None and seat == state.declarer
        return FipsenObservation(
            seat=seat,
            deal_index=state.round_index,
            num_deals=state.num_deals,
            dealer=state.dealer,
            phase=state.phase,
            to_act=state.to_act if playing else None,
            hand=state.hands[seat] if seat is not None else (),
            history=state.history,
            standing_bid=state.bid if state.bid >= 0 else None,
            passed=state.passed,
            declarer=state.declarer if state.declarer >= 0 else None,
            contract=state.bid if state.declarer >= 0 else None,
            trump=state.trump if state.trump >= 0 else None,
            hand_applied=state.hand_applied,
            ruten_applied=state.ruten_applied,
            durch_applied=state.durch_applied,
            skat_taken=bool(state.taken),
            skat=state.taken if mine else (),
            discards=state.discards if mine else (),
            tricks=state.tricks,
            trick_leader=state.leader if state.phase is Phase.PLAY else None,
            trick_cards=state.trick,
            declarer_tricks=state.won,
            defender_tricks=state.lost,
            totals=tuple(_fraction(t) for t in state.totals),
            past_deals=state.past,
        )

    def totals(self, state: FipsenState) -> tuple[Fraction, ...]:
        return tuple(_fraction(t) for t in state.totals)

    def action_label(self, state: FipsenState, action: int) -> str:
        return _LABELS[action]

    def default_choice(self, state: FipsenState, legal: Sequence[int]) -> int:
        phase = state.phase
        if phase is Phase.SIEBENER_FIPS:
            return _DECLINE
        if phase is Phase.SKAT:
            return _PLAY_HAND
        return legal[0]  # PASS, the lowest discard / trump / card, STOP

    def forfeit_round(self, state: FipsenState) -> FipsenState | None:
        """A declarer that forfeits loses its contract at once (-2 x value, -40 for Kieker);
        a bidder or a defender plays the default moves (it scores 0 whatever happens)."""
        if state.phase in _DECLARER_PHASES and state.to_act == state.declarer >= 0:
            return _score(state, state.history, won=False)
        return None

    def round_index(self, state: FipsenState) -> int:
        return state.round_index

    def dealer(self, state: FipsenState) -> int:
        return state.dealer

    def is_public(self, state: FipsenState, action: int) -> bool:
        return action != _DECLINE and not _DISCARD <= action < _TRUMP

    # -- chance ---------------------------------------------------------------------------------

    def seat_dealer(self, state: FipsenState, dealer: int) -> FipsenState:
        return _with(state, dealer=dealer, phase=Phase.DEAL)

    def deal_cards(self, state: FipsenState, deck: tuple[int, ...]) -> FipsenState:
        dealer = state.dealer
        hands: list[tuple[int, ...]] = [()] * NUM_SEATS
        for k in range(NUM_SEATS):  # k-th receiver from V: 3 cards, then 2 after the Skat
            hands[(dealer + 1 + k) % NUM_SEATS] = tuple(
                sorted((*deck[3 * k : 3 * k + 3], *deck[14 + 2 * k : 16 + 2 * k]))
            )
        vorhand = (dealer + 1) % NUM_SEATS
        fresh = _between_deals(
            num_deals=state.num_deals, round_index=state.round_index, dealer=dealer,
            phase=Phase.BIDDING, totals=state.totals, past=state.past,
        )  # fmt: skip
        dealt = _with(
            fresh,
            to_act=vorhand,
            hands=tuple(hands),
            skat=tuple(sorted(deck[12:14])),
            stock=tuple(sorted(deck[22:25])),
            kieker_ok=tuple(kieker_eligible(h) for h in hands),
            senior=vorhand,
            queue=tuple((dealer + k) % NUM_SEATS for k in (2, 3, 4)),
        )
        for seat in (vorhand, *dealt.queue):  # at most one seat can hold four sevens
            if qualifies_for_fips(hands[seat]):
                return _with(dealt, phase=Phase.SIEBENER_FIPS, to_act=seat)
        return dealt

    def deal_label(self, state: FipsenState, dealt: FipsenState) -> str:
        shown = "; ".join(f"seat {s}: {cards_text(h)}" for s, h in enumerate(dealt.hands))
        return (
            f"Deal {state.round_index + 1}, dealer seat {state.dealer}: {shown}; "
            f"Skat {cards_text(dealt.skat)}; stock {cards_text(dealt.stock)}"
        )


#: The Fipsen game instance registered in :mod:`croupier.games`.
GAME = Fipsen()
