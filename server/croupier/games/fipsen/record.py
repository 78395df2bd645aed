"""Fipsen: a finished deal as a JSON-able record (the ``result`` of a replay's ``round_end``,
``docs/replay-format.md``), built from the deal's :class:`~croupier.games.fipsen.rules.DealResult`.
"""

from __future__ import annotations

from typing import Any

from croupier.games.fipsen import rules as fipsen

_OUTCOMES = {
    fipsen.DealOutcome.THROW_IN: "throw_in",
    fipsen.DealOutcome.SIEBENER_FIPS: "siebener_fips",
    fipsen.DealOutcome.WON: "won",
    fipsen.DealOutcome.LOST: "lost",
}


def record(result: fipsen.DealResult) -> dict[str, Any]:
    """What decided the deal: declarer, contract and its flags, trump, tricks, outcome."""
    bid = None if result.contract is None else fipsen.move(result.contract).bid
    won = [0] * fipsen.NUM_SEATS
    for trick in result.tricks:
        won[trick.winner] += 1
    return {
        "dealer": result.dealer,
        "outcome": _OUTCOMES[result.outcome],
        "declarer": result.declarer,
        "contract": None if bid is None else bid.label,
        "announced": None
        if bid is None
        else {"hand": bid.hand, "ruten": bid.ruten, "durch": bid.durch, "kieker": bid.kieker},
        "hand": result.hand,
        "ruten": result.ruten,
        "durch": result.durch,
        "trump": None if result.trump is None else fipsen.SUIT_NAMES[result.trump],
        "declarer_tricks": result.declarer_tricks,
        "tricks_won": won,
        "tricks": [
            {
                "leader": t.leader,
                "cards": [fipsen.card_name(c) for c in t.cards],
                "winner": t.winner,
            }
            for t in result.tricks
        ],
        "value": result.value,
        "revealed": [fipsen.card_name(c) for c in result.revealed],
    }


def round_record(obs: fipsen.FipsenObservation) -> dict[str, Any]:
    """The record of the deal that has just ended, from the public observation after it."""
    result = obs.last_deal
    if result is None:
        raise ValueError("no deal has ended")
    return record(result)
