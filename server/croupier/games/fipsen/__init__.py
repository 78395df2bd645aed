"""Fipsen: everything about the game in one package, declared by :data:`SPEC`.

``rules`` (the pure state machine, ``docs/rules/fipsen.md``), ``codec`` (its ``croupier.v1``
messages), ``encoder`` (numpy tensors of an observation: the position, the information state),
``narrator`` (hand histories), ``record`` (a finished round as JSON), ``resample`` (a full state
from a seat's observation). :data:`SPEC` reads each part from its module when first used.
"""

from __future__ import annotations

from croupier.games._spec import Bots, GameSpec, Playthrough

#: Fipsen, as registered in :mod:`croupier.games`.
SPEC = GameSpec(
    package=__name__,
    bots=Bots(
        lineup=("fipsen-heuristic", "random"),
        bundled={
            "fipsen-heuristic": "croupier_bots.fipsen_heuristic",
            "fipsen-search": "croupier_bots.fipsen_search",
        },
    ),
    playthrough=Playthrough(params={"deals": 3}, seed=266),
)

__all__ = ["SPEC"]
