"""Felduz: everything about the game in one package, declared by :data:`SPEC`.

``rules`` (the pure state machine, ``docs/rules/felduz.md``), ``codec`` (its ``croupier.v1``
messages), ``encoder`` (numpy tensors of an observation: the position, the information state),
``narrator`` (hand histories), ``record`` (a finished round as JSON), ``resample`` (a full state
from a seat's observation). :data:`SPEC` reads each part from its module when first used.
"""

from __future__ import annotations

from croupier.games._spec import Bots, GameSpec, Playthrough

#: Felduz, as registered in :mod:`croupier.games`.
SPEC = GameSpec(
    package=__name__,
    bots=Bots(
        lineup=("felduz-heuristic", "random"),
        bundled={
            "felduz-heuristic": "croupier_bots.felduz_heuristic",
            "felduz-search": "croupier_bots.felduz_search",
        },
    ),
    playthrough=Playthrough(params={"players": 3, "stack": 8, "round_cap": 3}, seed=20261130),
)

__all__ = ["SPEC"]
