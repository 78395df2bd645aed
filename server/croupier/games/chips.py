"""Chips, amphora and betting shared by Felduz and Scauver (``shared/rules/chips.md``), once.

Everything here is a pure function over an immutable :class:`Table`; the two games keep a
``Table`` in their state and call these functions at their betting steps. The 40-card deck
both games use is :mod:`croupier.games.cards40`.

Readings where ``chips.md`` is silent (also in ``docs/rules/chips.md``):

* **Cap.** ``cap`` is the smallest stack among the round's players at the start of the round,
  before the amphora. A bet or raise is legal only if *every* live player could match the new
  level without its total commitment in the round exceeding ``cap``; so the highest level a
  sequence may reach is ``cap - max(commitment before the sequence, over live players)``, which
  rises when the player with that commitment answers ``OUT``. This is what makes "every live
  player can always afford to call" true when only two players posted the amphora.
* **Short amphora.** A player who cannot post ``A`` in full posts its whole stack; the posting is
  forced and not limited by ``cap``. (With the elimination rule every seated player holds at
  least ``A`` at the start of a round, so this happens only when ``stack < amphora`` is
  configured.)
* **Dealer and posters skip eliminated seats.** The next dealer is the next seated player to the
  left of the previous dealer; the second poster is the next seated player to the dealer's left.
* **Bet amounts** are chip counts (not multiples): ``Bet:4`` commits 4 chips. Action ids are
  ``IN``, ``OUT``, ``BET + x`` and ``RAISE + y``; a game numbers its own actions from
  :data:`CHIP_ACTIONS` on.
* **Answer order.** The answers go clockwise from the bettor (after a raise: from the raiser),
  each live player whose contribution is below the level answering in turn, until all match it.
* **Running score.** ``chips(table)`` is stack plus what is committed in the current round, so
  the score of a cancelled match counts the round in progress as not played.
* **Ranking at the cap.** Survivors by chips; eliminated players after them by the round they
  dropped out (later is better), then by their stack at the start of that round.
* **No elimination after the cap round.** There is no next round, so no next A to fall below:
  every player still seated survives and "at the cap, most chips wins" ranks them by chips
  (:func:`settle` with ``last=True``).
"""

from __future__ import annotations

import enum
import functools
from collections.abc import Mapping, Sequence
from typing import NamedTuple

from croupier.errors import IllegalActionError
from croupier.games._api import ParamSpec, fast_replace
from croupier.games._legal import NO_ACTIONS, ActionRuns

# ---- parameters -------------------------------------------------------------------------------

MAX_STACK = 1000
MAX_PLAYERS = 4
#: The most chips a table can hold, which bounds every bet and raise amount.
MAX_CHIPS = MAX_STACK * MAX_PLAYERS

#: Parameters every chip game takes (``shared/rules/chips.md``, defaults = the standard ruleset).
PARAMS: tuple[ParamSpec, ...] = (
    ParamSpec("players", 2, 2, MAX_PLAYERS, "number of seats"),
    ParamSpec("stack", 100, 1, MAX_STACK, "starting stack in chips"),
    ParamSpec("amphora", 1, 1, MAX_STACK, "amphora A posted by the dealer and its left"),
    ParamSpec("double_every", 10, 0, 1000, "A doubles every this many rounds (0: never)"),
    ParamSpec("round_cap", 300, 1, 10000, "rounds after which the most chips wins"),
)


class Config(NamedTuple):
    """The match parameters a chip game's state keeps (the stack matters only at the start)."""

    players: int
    amphora: int
    double_every: int
    round_cap: int


def config(params: Mapping[str, int]) -> Config:
    """The :class:`Config` of checked match parameters (``GameInfo.make_params``)."""
    return Config(
        players=params["players"],
        amphora=params["amphora"],
        double_every=params["double_every"],
        round_cap=params["round_cap"],
    )


def amphora_at(base: int, double_every: int, round_index: int) -> int:
    """A in round ``round_index`` (from 0): ``base`` doubled every ``double_every`` rounds."""
    return base << (round_index // double_every) if double_every else base


# ---- action ids -------------------------------------------------------------------------------

#: Answer a bet by matching the level.
IN = 0
#: Answer a bet by folding: the round is lost and everything committed stays in the pot.
OUT = 1
#: ``BET + x`` opens a bet sequence committing ``x`` chips.
BET = 2
#: ``RAISE + y`` answers by raising the level by ``y`` chips.
RAISE = BET + MAX_CHIPS + 1
#: Ids ``0 .. CHIP_ACTIONS - 1`` belong to this module; games number their own actions after.
CHIP_ACTIONS = RAISE + MAX_CHIPS + 1


def is_chip_action(action: int) -> bool:
    """Whether ``action`` is one of this module's ids."""
    return 0 <= action < CHIP_ACTIONS


class ChipKind(enum.IntEnum):
    """What a betting action does."""

    IN = 0
    OUT = 1
    BET = 2
    RAISE = 3


class ChipMove(NamedTuple):
    """A betting action id decoded (made by :func:`chip_move`): its kind and, for a bet or a
    raise, the amount in chips."""

    kind: ChipKind
    amount: int = 0

    @property
    def label(self) -> str:
        """``In``, ``Out``, ``Bet:4`` or ``Raise:2``."""
        kind = self.kind
        if kind is ChipKind.IN:
            return "In"
        if kind is ChipKind.OUT:
            return "Out"
        return f"{'Bet' if kind is ChipKind.BET else 'Raise'}:{self.amount}"


@functools.cache
def chip_move(action: int) -> ChipMove:
    """Betting action id ``action`` decoded (once per id); IllegalActionError for another id."""
    if action == IN:
        return ChipMove(ChipKind.IN)
    if action == OUT:
        return ChipMove(ChipKind.OUT)
    if BET <= action < RAISE:
        return ChipMove(ChipKind.BET, action - BET)
    if RAISE <= action < CHIP_ACTIONS:
        return ChipMove(ChipKind.RAISE, action - RAISE)
    raise IllegalActionError(f"{action} is not a betting action")


def chip_label(action: int) -> str:
    """``In``, ``Out``, ``Bet:4`` or ``Raise:2``."""
    return chip_move(action).label


# ---- state ------------------------------------------------------------------------------------


class Bet(NamedTuple):
    """An open bet sequence. ``contrib`` counts chips put in during this sequence only."""

    bettor: int
    level: int
    contrib: tuple[int, ...]
    #: The seat that must answer now.
    to_act: int
    #: The highest level this sequence may reach (the cap rule).
    max_level: int


class Table(NamedTuple):
    """The chips of a match: stacks, this round's commitments and the open bet, if any."""

    #: Chips behind, not committed in the current round.
    stacks: tuple[int, ...]
    #: Chips committed in the current round (amphora, bets, calls, raises).
    committed: tuple[int, ...]
    #: In the current round: seated, and has not answered a bet with OUT (or folded).
    live: tuple[bool, ...]
    #: The round a seat was eliminated after, ``-1`` while it is still seated.
    out_round: tuple[int, ...]
    #: Each seat's chips at the start of the current round.
    start_stacks: tuple[int, ...]
    #: An eliminated seat's chips at the start of the round it dropped out in (else 0).
    out_stacks: tuple[int, ...]
    #: The current round, from 0 (``-1`` before the first).
    round: int
    #: The current dealer (``-1`` before the first is drawn).
    dealer: int
    #: This round's A.
    amphora: int
    #: This round's cap on a seat's total commitment.
    cap: int
    #: The open bet sequence, ``None`` between sequences.
    bet: Bet | None


#: ``table._replace(**changes)``, faster (the hot path).
_table_with = fast_replace(Table)


def new_table(players: int, stack: int) -> Table:
    """A table before the first round: everyone seated with ``stack`` chips."""
    zeros = (0,) * players
    stacks = (stack,) * players
    return Table(
        stacks, zeros, (False,) * players, (-1,) * players, stacks, zeros, -1, -1, 0, 0, None
    )


def seated(table: Table) -> tuple[int, ...]:
    """Seats not eliminated, ascending."""
    return tuple(s for s, r in enumerate(table.out_round) if r < 0)


def pot(table: Table) -> int:
    """Chips in the pot of the current round."""
    return sum(table.committed)


def chips(table: Table) -> tuple[int, ...]:
    """Each seat's chips counting what it committed in the current round (the running score)."""
    return tuple(s + c for s, c in zip(table.stacks, table.committed, strict=True))


def next_seated(table: Table, seat: int) -> int:
    """The next seated player to the left of ``seat`` (``seat`` itself need not be seated)."""
    n = len(table.stacks)
    for step in range(1, n + 1):
        other = (seat + step) % n
        if table.out_round[other] < 0:
            return other
    raise IllegalActionError("nobody is seated")


def next_live(table: Table, seat: int) -> int:
    """The next live player to the left of ``seat``; ``seat`` itself if it is the only one."""
    n = len(table.live)
    for step in range(1, n + 1):
        other = (seat + step) % n
        if table.live[other]:
            return other
    raise IllegalActionError("nobody is live")


def live_count(table: Table) -> int:
    """Live players in the current round."""
    return sum(table.live)


def next_dealer(table: Table) -> int:
    """The dealer of the next round: the next seated player to the left of the current one."""
    return next_seated(table, table.dealer)


def deal(table: Table, deck: Sequence[int], size: int) -> tuple[tuple[tuple[int, ...], ...], int]:
    """Deal ``size`` cards to each seated player, one at a time clockwise from the dealer's
    left: each seat's hand (sorted by card id; empty for eliminated seats) and how many cards
    were dealt (the stock starts there)."""
    n = len(table.stacks)
    receivers = sorted(seated(table), key=lambda s: (s - table.dealer - 1) % n)
    m = len(receivers)
    hands: list[tuple[int, ...]] = [()] * n
    for k, seat in enumerate(receivers):
        hands[seat] = tuple(sorted(deck[k : size * m : m]))
    return tuple(hands), size * m


def start_round(table: Table, dealer: int, amphora: int) -> Table:
    """Open the next round with ``dealer``: set the cap, then post the amphora.

    The dealer and the next seated player to its left post ``A`` (with two seated players, both
    of them); a player who cannot post in full posts its whole stack.
    """
    if table.out_round[dealer] >= 0:
        raise IllegalActionError(f"seat {dealer} is eliminated and cannot deal")
    players = seated(table)
    cap = min(table.stacks[s] for s in players)
    stacks = list(table.stacks)
    committed = [0] * len(stacks)
    for poster in {dealer, next_seated(table, dealer)}:
        posted = min(amphora, stacks[poster])
        stacks[poster] -= posted
        committed[poster] = posted
    live = tuple(r < 0 for r in table.out_round)
    return Table(
        tuple(stacks),
        tuple(committed),
        live,
        table.out_round,
        table.stacks,
        table.out_stacks,
        table.round + 1,
        dealer,
        amphora,
        cap,
        None,
    )


# ---- betting ----------------------------------------------------------------------------------


def _max_level(table: Table, before: Sequence[int]) -> int:
    """The highest level every live player could match: ``cap - max(commitment before)``."""
    return table.cap - max(c for c, live in zip(before, table.live, strict=True) if live)


def _allowed(amount: int, step: int, top: int) -> bool:
    """Whether ``amount`` is a positive multiple of ``step`` (A) no larger than ``top``."""
    return step <= amount <= top and amount % step == 0


def bet_amounts(table: Table) -> tuple[int, ...]:
    """The amounts an opening bet may commit now (multiples of A within the cap), ascending."""
    if table.bet is not None:
        return ()
    return tuple(range(table.amphora, _max_level(table, table.committed) + 1, table.amphora))


def bet_range(table: Table) -> range:
    """``BET + x`` for every legal opening amount ``x``, as one range (empty during a bet
    sequence, or when the cap leaves no room)."""
    if table.bet is not None:
        return range(0)
    top = _max_level(table, table.committed)
    return range(BET + table.amphora, BET + top + 1, table.amphora)


def bet_actions(table: Table) -> tuple[int, ...]:
    """``BET + x`` for every legal opening amount ``x``, ascending."""
    return tuple(bet_range(table))  # no per-item loop


def _pay(table: Table, seat: int, amount: int, contrib: int) -> tuple[Table, tuple[int, ...]]:
    """``seat`` puts ``amount`` more chips in (its contribution becomes ``contrib``)."""
    if amount > table.stacks[seat]:  # the cap rule makes this unreachable; guard the invariant
        raise IllegalActionError(f"seat {seat} cannot pay {amount} with {table.stacks[seat]}")
    stacks = list(table.stacks)
    committed = list(table.committed)
    stacks[seat] -= amount
    committed[seat] += amount
    base = table.bet.contrib if table.bet is not None else (0,) * len(stacks)
    contribs = list(base)
    contribs[seat] = contrib
    return _table_with(table, stacks=tuple(stacks), committed=tuple(committed)), tuple(contribs)


def _next_to_answer(table: Table, after: int, level: int, contrib: Sequence[int]) -> int | None:
    """The next live player clockwise after ``after`` whose contribution is below ``level``."""
    if live_count(table) <= 1:
        return None
    n = len(contrib)
    for step in range(1, n + 1):
        seat = (after + step) % n
        if table.live[seat] and contrib[seat] < level:
            return seat
    return None


def open_bet(table: Table, seat: int, amount: int) -> Table:
    """``seat`` opens a bet sequence committing ``amount``; the others answer from its left."""
    top = _max_level(table, table.committed)
    if table.bet is not None or not table.live[seat] or not _allowed(amount, table.amphora, top):
        raise IllegalActionError(f"seat {seat} cannot bet {amount} now")
    table, contrib = _pay(table, seat, amount, amount)
    to_act = _next_to_answer(table, seat, amount, contrib)
    if to_act is None:
        return table
    return _table_with(table, bet=Bet(seat, amount, contrib, to_act, top))


def raise_range(table: Table) -> range:
    """``RAISE + y`` for every legal raise ``y`` of the open bet (y within the cap), as one
    range (empty without a bet sequence)."""
    bet = table.bet
    if bet is None:
        return range(0)
    step = table.amphora
    return range(RAISE + step, RAISE + bet.max_level - bet.level + 1, step)


#: ``IN`` and ``OUT``, as a run.
_IN_OUT = range(IN, OUT + 1)


def answer_actions(table: Table) -> tuple[int, ...]:
    """The answering seat's legal ids: ``IN``, ``OUT`` and ``RAISE + y`` (y within the cap)."""
    if table.bet is None:
        return ()
    return (IN, OUT, *raise_range(table))


def answer_runs(table: Table) -> ActionRuns:
    """:func:`answer_actions` as runs: ``IN``-``OUT``, then the raises (no id listed)."""
    if table.bet is None:
        return NO_ACTIONS
    return ActionRuns.of_ranges(_IN_OUT, raise_range(table))


def answer(table: Table, action: int) -> Table:
    """The answering seat plays ``IN``, ``OUT`` or ``RAISE + y``; the sequence ends by itself."""
    bet = table.bet
    if bet is None:
        raise IllegalActionError("there is no bet to answer")
    seat = bet.to_act
    max_level = bet.max_level
    if action == OUT:
        live = list(table.live)
        live[seat] = False
        table = _table_with(table, live=tuple(live))
        contrib, level = bet.contrib, bet.level
        # the cap binds the live players only: without this seat the others may go higher
        max_level = _max_level(
            table, [c - k for c, k in zip(table.committed, contrib, strict=True)]
        )
    elif action == IN:
        table, contrib = _pay(table, seat, bet.level - bet.contrib[seat], bet.level)
        level = bet.level
    elif _allowed(action - RAISE, table.amphora, bet.max_level - bet.level):
        level = bet.level + action - RAISE
        table, contrib = _pay(table, seat, level - bet.contrib[seat], level)
    else:
        raise IllegalActionError(f"{action} is not a legal answer to a bet")
    to_act = _next_to_answer(table, seat, level, contrib)
    if to_act is None:
        return _table_with(table, bet=None)
    return _table_with(table, bet=Bet(bet.bettor, level, contrib, to_act, max_level))


def fold(table: Table, seat: int) -> Table:
    """``seat`` leaves the round outside a bet sequence (Scauver's FOLD); its chips stay in."""
    if not table.live[seat]:
        raise IllegalActionError(f"seat {seat} is not in the round")
    live = list(table.live)
    live[seat] = False
    return _table_with(table, live=tuple(live))


def lone_winner(table: Table) -> int | None:
    """The only live player, if one is left: it takes the pot at once."""
    if live_count(table) != 1:
        return None
    return table.live.index(True)


# ---- settling ---------------------------------------------------------------------------------


def shares(table: Table, winners: Sequence[int]) -> tuple[int, ...]:
    """Each seat's share of the pot: equal integer shares, odd chips clockwise from the dealer's
    left among the winners."""
    if not winners:
        raise IllegalActionError("a pot needs at least one winner")
    n = len(table.stacks)
    total = pot(table)
    each, odd = divmod(total, len(winners))
    out = [0] * n
    for w in winners:
        out[w] = each
    order = sorted(winners, key=lambda s: (s - table.dealer - 1) % n)
    for w in order[:odd]:
        out[w] += 1
    return tuple(out)


class Settlement(NamedTuple):
    """How a round's pot was paid out; public."""

    winners: tuple[int, ...]
    pot: int
    #: Each seat's share of the pot, by seat.
    shares: tuple[int, ...]
    #: Seats eliminated after the round, ascending.
    eliminated: tuple[int, ...]
    #: False when the round ended with one live player left.
    showdown: bool


def settle(
    table: Table, winners: Sequence[int], next_amphora: int, *, showdown: bool, last: bool = False
) -> tuple[Table, Settlement]:
    """Pay the pot to ``winners``, then eliminate every seated player below ``next_amphora``;
    after the ``last`` round (the round cap) there is no next round and nobody is eliminated."""
    paid = shares(table, winners)
    stacks = tuple(s + p for s, p in zip(table.stacks, paid, strict=True))
    dropped = [
        not last and r < 0 and s < next_amphora
        for s, r in zip(stacks, table.out_round, strict=True)
    ]
    settled = _table_with(
        table,
        stacks=stacks,
        committed=(0,) * len(stacks),
        live=(False,) * len(stacks),
        out_round=tuple(
            table.round if d else r for d, r in zip(dropped, table.out_round, strict=True)
        ),
        out_stacks=tuple(
            b if d else o
            for d, b, o in zip(dropped, table.start_stacks, table.out_stacks, strict=True)
        ),
        bet=None,
    )
    eliminated = tuple(s for s, d in enumerate(dropped) if d)
    return settled, Settlement(tuple(sorted(winners)), pot(table), paid, eliminated, showdown)


def open_round(table: Table, dealer: int, amphora: int, double_every: int) -> Table:
    """Start the next round with ``dealer``, at the A the schedule gives that round."""
    return start_round(table, dealer, amphora_at(amphora, double_every, table.round + 1))


def close_round(
    table: Table,
    winners: Sequence[int],
    amphora: int,
    double_every: int,
    round_cap: int,
    *,
    showdown: bool,
) -> tuple[Table, Settlement, bool]:
    """End a round: pay the pot, eliminate (not after the round at the cap), then open the next
    round with the next dealer unless the match is over. Returns the table, the settlement and
    whether the match is over (the table is then the settled one)."""
    next_amphora = amphora_at(amphora, double_every, table.round + 1)
    last = table.round + 1 >= round_cap
    settled, settlement = settle(table, winners, next_amphora, showdown=showdown, last=last)
    if match_over(settled, round_cap):
        return settled, settlement, True
    return start_round(settled, next_dealer(settled), next_amphora), settlement, False


def match_over(table: Table, round_cap: int) -> bool:
    """After a settled round: one seated player (or none) is left, or the round cap is reached."""
    return len(seated(table)) <= 1 or table.round + 1 >= round_cap


def ranking(table: Table) -> tuple[int, ...]:
    """1-based places: survivors by chips, then eliminated players by the round they dropped
    out (later is better), then by their stack at the start of that round; ties share."""
    now = chips(table)
    keys = []
    for seat, r in enumerate(table.out_round):
        if r < 0:
            keys.append((1, now[seat], 0))
        else:
            keys.append((0, r, table.out_stacks[seat]))
    return tuple(1 + sum(1 for other in keys if other > mine) for mine in keys)
