"""Wire encoding of what Felduz and Scauver share: the 40-card deck
(:mod:`croupier.games.cards40`) and the chips (:mod:`croupier.games.chips`), whose bets and
raises go on the wire as amount ranges (:func:`amount_runs`)."""

from __future__ import annotations

from collections.abc import Iterable

from croupier.games import cards40, chips
from croupier.games._codec_kit import AmountRun
from croupier.games._legal import ActionRuns
from croupier.v1 import chips_pb2

#: Every card's message (id, value, label), made once.
_CARDS40 = tuple(
    chips_pb2.Card40(id=c, value=cards40.VALUES[c], label=cards40.CARD_LABELS[c])
    for c in range(cards40.DECK_SIZE)
)


def card_msg(card: int) -> chips_pb2.Card40:
    """A 40-card deck id as a typed card (a shared message: the wire fields copy it)."""
    return _CARDS40[card]


def card_msgs(cards: Iterable[int]) -> list[chips_pb2.Card40]:
    """40-card deck ids as typed cards (shared messages, as :func:`card40`)."""
    return [_CARDS40[c] for c in cards]


def chip_table(table: chips.Table, round_cap: int, out: chips_pb2.ChipTable) -> None:
    """Fill ``out`` with the (entirely public) chip state."""
    out.stacks.extend(table.stacks)
    out.committed.extend(table.committed)
    out.live.extend(table.live)
    out.eliminated_after_round.extend(table.out_round)
    out.round = max(table.round, 0)
    out.round_cap = round_cap
    out.dealer = max(table.dealer, 0)
    out.amphora = table.amphora
    out.cap = table.cap
    out.pot = chips.pot(table)
    bet = table.bet
    if bet is not None:
        out.bet.bettor = bet.bettor
        out.bet.level = bet.level
        out.bet.contributions.extend(bet.contrib)
        out.bet.to_act = bet.to_act
        out.bet.max_level = bet.max_level


_CHIP_MOVES = {
    chips.ChipKind.IN: chips_pb2.CHIP_MOVE_IN,
    chips.ChipKind.OUT: chips_pb2.CHIP_MOVE_OUT,
    chips.ChipKind.BET: chips_pb2.CHIP_MOVE_BET,
    chips.ChipKind.RAISE: chips_pb2.CHIP_MOVE_RAISE,
}


def chip_action(move: chips.ChipMove, out: chips_pb2.ChipAction) -> None:
    """Fill ``out`` with a betting move's kind and amount."""
    out.move = _CHIP_MOVES[move.kind]
    if move.kind is chips.ChipKind.BET or move.kind is chips.ChipKind.RAISE:
        out.amount = move.amount


def chip_settlement(settlement: chips.Settlement, out: chips_pb2.ChipSettlement) -> None:
    """Fill ``out`` with how a round's pot was paid out."""
    out.winners.extend(settlement.winners)
    out.pot = settlement.pot
    out.shares.extend(settlement.shares)
    out.eliminated.extend(settlement.eliminated)
    out.showdown = settlement.showdown


def _block_runs(legal: ActionRuns, lo: int, hi: int, first: int) -> AmountRun | None:
    """The run of ``legal``'s ids in ``[lo, hi)`` (one kind of betting action, amount ``id -
    first``) when there are two or more of them and they are evenly spaced: found by arithmetic
    over the runs, no id listed."""
    start, stop = legal.count_below(lo), legal.count_below(hi)
    step = legal.progression(start, stop)  # None for fewer than two
    if step is None:
        return None  # the chip rules never make an uneven run: send the ids one by one
    return (start, stop, legal[start] - first, step)


def amount_runs(legal: ActionRuns) -> tuple[AmountRun, ...]:
    """The runs of bets (``BET + x``) and raises (``RAISE + y``) in a legal set of a chip game,
    each to be sent as one entry with its amount range (``GameCodec.amount_runs``)."""
    runs = (
        _block_runs(legal, chips.BET, chips.RAISE, chips.BET),
        _block_runs(legal, chips.RAISE, chips.CHIP_ACTIONS, chips.RAISE),
    )
    return tuple(run for run in runs if run is not None)
