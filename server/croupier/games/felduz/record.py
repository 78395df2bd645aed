"""Felduz: a finished round as a JSON-able record (the ``result`` of a replay's ``round_end``,
``docs/replay-format.md``), built from the round's
:class:`~croupier.games.felduz.rules.RoundResult`.
"""

from __future__ import annotations

from typing import Any

from croupier.games import _record
from croupier.games.felduz import rules as felduz


def record(result: felduz.RoundResult) -> dict[str, Any]:
    """What decided the round: the settlement, the criterion, the showdown's fields."""
    decided = result.decided_by
    return {
        "dealer": result.dealer,
        **_record.settlement(result.settlement),
        "decided_by": None if decided is None else decided.name.lower(),
        "events": [
            {"criterion": e.criterion.name.lower(), "seats": list(e.seats)} for e in result.events
        ],
        "fields": [_record.cards(f) for f in result.fields],
        "reserves": [_record.cards(r) for r in result.reserves],
        "field_sums": [None if f is None else felduz.field_sum(f) for f in result.fields],
    }


def round_record(obs: felduz.FelduzObservation) -> dict[str, Any]:
    """The record of the round that has just ended, from the public observation after it."""
    result = obs.last_round
    if result is None:
        raise ValueError("no round has ended")
    return record(result)
