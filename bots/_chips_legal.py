"""What the Felduz and Scauver heuristic bots share: the legal actions read as the wire sent
them (a run of bets or raises stays one entry)."""

from __future__ import annotations

from typing import Any

from croupier_bot import Decision, LegalActions


def legal_entries(decision: Decision) -> list[tuple[Any, range]]:
    """The legal actions as the wire sent them, each with its ids: a run of bets or raises is
    one entry (its lowest amount's) with the range of its ids, so that a betting step at stack
    1,000 is read without building a thousand actions; any other action is itself and one id."""
    legal = decision.legal_actions
    if isinstance(legal, LegalActions):
        return list(zip(legal.entries, legal.runs, strict=True))
    return [(a, range(a.id, a.id + 1)) for a in legal]
