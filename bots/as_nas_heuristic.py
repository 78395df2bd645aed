"""An As-Nas bot that looks at its cards first, then bets by hand strength.

Strength is the hand's category (pair, two pair, ...) refined by its top rank; the bot raises
strong hands, calls medium ones while the price is low, and folds weak ones facing a bet
(holding whenever it is free).
"""

from __future__ import annotations

from collections import Counter

from croupier_bot import Bot, Decision, main, proto

LOOK, FOLD, CALL, HOLD, RAISE = range(5)


def strength(ranks: list[int]) -> float:
    """A number that grows with the hand: category (0..5) plus a fraction for its ranks (1..5)."""
    groups = sorted(Counter(ranks).items(), key=lambda kv: (kv[1], kv[0]), reverse=True)
    shape = tuple(count for _, count in groups)
    category = {(4, 1): 5, (3, 2): 4, (3, 1, 1): 3, (2, 2, 1): 2, (2, 1, 1, 1): 1}.get(shape, 0)
    return category + groups[0][0] / 10


class AsNasHeuristic(Bot):
    """Look, then: raise strong hands, call medium ones cheaply, fold weak ones to a bet."""

    name = "as-nas-heuristic"
    version = "1"

    def act(self, decision: Decision) -> int:
        legal = set(decision.legal_ids)
        if LOOK in legal:
            return LOOK
        obs: proto.AsNasObservation = decision.observation.as_nas
        s = strength(list(obs.hand))
        me = obs.seats[decision.match.seat]
        to_call = obs.high_bet - me.stake
        if s >= 2.0 and RAISE in legal:  # two pair or better
            return RAISE
        if s >= 1.3:  # pair of Bibi or better (ranks 1..5 on the wire)
            if RAISE in legal and obs.high_bet <= 1 and s >= 1.4:
                return RAISE
            return CALL if CALL in legal else HOLD
        if s >= 1.0 and to_call <= 1:
            return CALL if CALL in legal else HOLD
        return HOLD if HOLD in legal else FOLD


if __name__ == "__main__":
    main(AsNasHeuristic())
