"""As-Nas: a finished deal as a JSON-able record (the ``result`` of a replay's ``round_end``,
``docs/replay-format.md``), built from the deal's :class:`~croupier.games.as_nas.rules.DealResult`.
"""

from __future__ import annotations

from typing import Any

from croupier.games.as_nas import rules as as_nas


def _ranks(ranks: tuple[int, ...]) -> list[str]:
    return [as_nas.RANK_NAMES[r] for r in ranks]


def record(result: as_nas.DealResult) -> dict[str, Any]:
    """What decided the deal: the dealer, the pot, its winners and the hands shown."""
    return {
        "dealer": result.dealer,
        "pot": result.pot,
        "winners": list(result.winners),
        "showdown": any(r is not None for r in result.revealed),
        "revealed": [None if r is None else _ranks(r) for r in result.revealed],
        "categories": [
            None if r is None else as_nas.hand_category(r).name.lower() for r in result.revealed
        ],
    }


def round_record(obs: as_nas.AsNasObservation) -> dict[str, Any]:
    """The record of the deal that has just ended, from the public observation after it."""
    result = obs.last_deal
    if result is None:
        raise ValueError("no deal has ended")
    return record(result)
