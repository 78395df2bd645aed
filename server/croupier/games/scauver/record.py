"""Scauver: a finished round as a JSON-able record (the ``result`` of a replay's ``round_end``,
``docs/replay-format.md``), built from the round's
:class:`~croupier.games.scauver.rules.RoundResult`.
"""

from __future__ import annotations

from typing import Any

from croupier.games import _record
from croupier.games.scauver import rules as sc


def _link(link: sc.Link | None) -> dict[str, Any] | None:
    if link is None:
        return None
    return {
        "left": _record.cards(link.left),
        "right": _record.cards(link.right),
        "value": link.value,
        "shape": list(link.shape),
    }


def record(result: sc.RoundResult) -> dict[str, Any]:
    """What decided the round: the settlement, the criterion, the flanks and links shown."""
    return {
        "dealer": result.dealer,
        **_record.settlement(result.settlement),
        "winners": list(result.winners),
        "decided_by": result.decided_by.name.lower(),
        "fields": [
            {"left": _record.cards(left), "right": _record.cards(right)}
            for left, right in result.fields
        ],
        "showings": [
            {
                "seat": s.seat,
                "left": _record.cards(s.left),
                "right": _record.cards(s.right),
                "difference": s.difference,
                "link": _link(s.link),
                "score": s.score,
            }
            for s in result.showings
        ],
    }


def round_record(obs: sc.ScauverObservation) -> dict[str, Any]:
    """The record of the round that has just ended, from the public observation after it."""
    result = obs.last_round
    if result is None:
        raise ValueError("no round has ended")
    return record(result)
