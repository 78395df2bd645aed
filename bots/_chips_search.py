"""What the Felduz and Scauver search bots share: the betting moves worth searching, and
the kinds of betting moves for weighing worlds (every bet amount is one kind)."""

from __future__ import annotations

from croupier.games import chips

#: Kinds of betting moves (``SearchBot.kind``): a bet of any amount, a raise of any amount.
BET_KIND, RAISE_KIND = -1, -2


def chip_kind(action: int) -> int:
    """A betting move's kind: bets and raises of any amount are one kind each; any other
    move is its own id."""
    if chips.BET <= action < chips.RAISE:
        return BET_KIND
    if chips.RAISE <= action < chips.CHIP_ACTIONS:
        return RAISE_KIND
    return action


def chip_candidates(legal: list[int]) -> list[int]:
    """The legal moves with bets and raises cut down to the smallest, a middle and the largest
    amount (every other move kept)."""
    bets = [a for a in legal if chips.BET <= a < chips.RAISE]
    raises = [a for a in legal if chips.RAISE <= a < chips.CHIP_ACTIONS]
    out = [a for a in legal if not chips.BET <= a < chips.CHIP_ACTIONS]
    for run in (bets, raises):
        if run:
            out += sorted({run[0], run[len(run) // 2], run[-1]})
    return sorted(out)


__all__ = ["BET_KIND", "RAISE_KIND", "chip_candidates", "chip_kind"]
