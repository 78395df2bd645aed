"""A Felduz bot that draws to 40, trims the overshoot with its reserve, and bets on its outlook.

* Opening: the three lowest cards go open; the two highest stay closed, where the reserve can
  later take them out of the field.
* Drawing: it draws while its field sums to less than 40 and stands as soon as it reaches 40;
  it reveals its lowest closed card; standing, it keeps the reserve that leaves the lowest field
  of 40 or more (then the lowest reserve).
* Betting: an *outlook* between 0 and 1 estimates its chance to win the showdown from its own
  field and what it sees of the others (open fields, closed counts, who stood). With a good
  outlook it bets or raises as much as the cap allows (which leaves the others only IN or OUT);
  facing a bet it stays in when the outlook beats the price, and goes out otherwise.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from croupier_bot import Bot, Decision, main, proto

from ._chips_legal import legal_entries

QUALIFY = 40
#: The mean card value of the 40-card deck.
MEAN_CARD = 5.5


def _sum(cards: Any) -> int:
    return sum(int(c.value) for c in cards)


def outlook(obs: Any, me: int) -> float:
    """Roughly, the chance that ``me`` wins the showdown of the round in progress."""
    seats, live = obs.seats, obs.table.live
    total = _sum(seats[me].open) + _sum(obs.closed)
    if total >= QUALIFY:
        mine: float | None = total - (0 if seats[me].stood else _best_trim(obs.closed, total))
    elif not seats[me].stood and obs.stock > 0:
        mine = QUALIFY + 3.0  # it will draw on; a typical finish
    else:
        mine = None  # unqualified for good
    p = 0.85 - 0.03 * (mine - QUALIFY) if mine is not None else 0.3
    for o, seat in enumerate(seats):
        if o == me or not live[o]:
            continue
        seen = _sum(seat.open)
        guess = seen + MEAN_CARD * seat.closed_count
        if mine is None:
            p = min(p, 0.05 if seen + seat.closed_count >= QUALIFY else 0.3)
        elif seat.stood and guess >= QUALIFY:
            p -= 0.35 if guess <= mine else 0.12
        elif not seat.stood:
            p -= 0.05
    return max(0.0, min(1.0, p))


def _best_trim(closed: Any, total: int) -> int:
    """The most a reserve of closed cards can take off while leaving 40 or more."""
    values = [int(c.value) for c in closed]
    options = [0, *values, sum(values)] if len(values) == 2 else [0, *values]
    return max(v for v in options if total - v >= QUALIFY)


class FelduzHeuristic(Bot):
    """Draw to 40, trim with the reserve, bet the cap on a good outlook."""

    name = "felduz-heuristic"
    version = "1"

    def act(self, decision: Decision) -> int:
        obs = decision.observation.felduz
        me = decision.match.seat
        legal = legal_entries(decision)
        by_move: dict[int, list[Any]] = {}
        for action, _ in legal:
            by_move.setdefault(action.felduz.move, []).append(action)
        if proto.FELDUZ_MOVE_OPEN in by_move:
            return self._split(by_move[proto.FELDUZ_MOVE_OPEN])
        if proto.FELDUZ_MOVE_RESERVE in by_move:
            return self._reserve(obs, me, by_move[proto.FELDUZ_MOVE_RESERVE])
        if proto.FELDUZ_MOVE_REVEAL in by_move:
            lowest = min(by_move[proto.FELDUZ_MOVE_REVEAL], key=lambda a: a.felduz.cards[0].value)
            return int(lowest.id)
        total = _sum(obs.seats[me].open) + _sum(obs.closed)
        if proto.FELDUZ_MOVE_DRAW in by_move and total < QUALIFY:
            return int(by_move[proto.FELDUZ_MOVE_DRAW][0].id)
        if proto.FELDUZ_MOVE_CONTINUE in by_move:
            move = proto.FELDUZ_MOVE_CONTINUE if total < QUALIFY and obs.stock else None
            return int(by_move[move or proto.FELDUZ_MOVE_STAND][0].id)
        if proto.FELDUZ_MOVE_STAND in by_move:
            return int(by_move[proto.FELDUZ_MOVE_STAND][0].id)
        return self._bet(obs, me, legal)

    def _split(self, splits: list[Any]) -> int:
        """Open the three lowest cards."""
        return int(min(splits, key=lambda a: _sum(a.felduz.cards)).id)

    def _reserve(self, obs: Any, me: int, options: list[Any]) -> int:
        """The reserve leaving the lowest field of 40 or more, then the lowest reserve."""
        total = _sum(obs.seats[me].open) + _sum(obs.closed)

        def key(action: Any) -> tuple[int, int]:
            taken = _sum(action.felduz.cards)
            return (total - taken, taken)

        return int(min(options, key=key).id)

    def _bet(self, obs: Any, me: int, legal: Sequence[tuple[Any, range]]) -> int:
        p = outlook(obs, me)
        chips = [(a, ids) for a, ids in legal if a.felduz.move == proto.FELDUZ_MOVE_CHIPS]
        kinds = {a.felduz.chip.move: a for a, _ in chips}
        bets = [ids[-1] for a, ids in chips if a.felduz.chip.move == proto.CHIP_MOVE_BET]
        raises = [ids[-1] for a, ids in chips if a.felduz.chip.move == proto.CHIP_MOVE_RAISE]
        table = obs.table
        if proto.CHIP_MOVE_IN not in kinds:  # our own betting step
            if p >= 0.65 and bets:
                return int(bets[-1])  # the highest bet: the last id of the last run
            return int(next(a for a, _ in legal if a.felduz.move == proto.FELDUZ_MOVE_NO_BET).id)
        if p >= 0.6 and raises:
            return int(raises[-1])
        price = table.bet.level - table.bet.contributions[me]
        if p >= 0.4 or price / (table.pot + price) < p:
            return int(kinds[proto.CHIP_MOVE_IN].id)
        return int(kinds[proto.CHIP_MOVE_OUT].id)


if __name__ == "__main__":
    main(FelduzHeuristic())
