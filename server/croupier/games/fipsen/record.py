"""Fipsen: a finished deal as a JSON-able record (the ``result`` of a replay's ``round_end``,
``docs/replay-format.md``), built from the deal's :class:`~croupier.games.fipsen.rules.DealResult`
and its public history (the tricks).
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


def _tricks(
    history: tuple[tuple[int, int], ...], dealer: int, trump: int | None
) -> list[dict[str, Any]]:
    """The finished tricks of a deal from its public plays (Vorhand leads the first)."""
    if trump is None:
        return []
    plays = [(s, a - fipsen.Action.PLAY_BASE) for s, a in history if a >= fipsen.Action.PLAY_BASE]
    plays = [(s, c) for s, c in plays if c < fipsen.DECK_SIZE]
    tricks, leader = [], (dealer + 1) % fipsen.NUM_SEATS
    for k in range(0, len(plays) - 3, 4):
        cards = tuple(c for _, c in plays[k : k + 4])
        winner = fipsen.trick_winner(cards, leader, trump)
        tricks.append(
            {"leader": leader, "cards": [fipsen.card_name(c) for c in cards], "winner": winner}
        )
        leader = winner
    return tricks


def record(result: fipsen.DealResult, history: tuple[tuple[int, int], ...]) -> dict[str, Any]:
    """What decided the deal: declarer, contract and its flags, trump, tricks, outcome."""
    bid = None if result.contract is None else fipsen.action_bid(result.contract)
    tricks = _tricks(history, result.dealer, result.trump)
    won = [0] * fipsen.NUM_SEATS
    for trick in tricks:
        won[trick["winner"]] += 1
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
        "tricks": tricks,
        "value": result.value,
        "revealed": [fipsen.card_name(c) for c in result.revealed],
    }


def round_record(obs: fipsen.FipsenObservation) -> dict[str, Any]:
    """The record of the deal that has just ended, from the public observation after it."""
    if not obs.past_deals:
        raise ValueError("no deal has ended")
    finished = obs.past_deals[-1]
    return record(finished.result, finished.history)
