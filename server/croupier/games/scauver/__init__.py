"""Scauver: everything about the game in one package, declared by :data:`SPEC`.

``rules`` (the pure state machine, ``docs/rules/scauver.md``), ``codec`` (its ``croupier.v1``
messages), ``encoder`` (numpy tensors of an observation: the position, the information state),
``narrator`` (hand histories), ``record`` (a finished round as JSON), ``resample`` (a full state
from a seat's observation). :data:`SPEC` reads each part from its module when first used.
"""

from __future__ import annotations

from croupier.games._spec import Bots, GameSpec, Playthrough

#: Scauver, as registered in :mod:`croupier.games`.
SPEC = GameSpec(
    package=__name__,
    bots=Bots(
        lineup=("scauver-heuristic", "random"),
        bundled={
            "scauver-heuristic": "croupier_bots.scauver_heuristic",
            "scauver-search": "croupier_bots.scauver_search",
        },
    ),
    playthrough=Playthrough(params={"players": 3, "round_cap": 3, "stack": 4}, seed=20261160),
)

__all__ = ["SPEC"]
