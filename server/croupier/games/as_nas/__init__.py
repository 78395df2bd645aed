"""As-Nas: everything about the game in one package, declared by :data:`SPEC`.

``rules`` (the pure state machine, ``docs/rules/as-nas.md``), ``codec`` (its ``croupier.v1``
messages), ``encoder`` (numpy tensors of an observation: the position, the information state),
``narrator`` (hand histories), ``record`` (a finished round as JSON), ``resample`` (a full state
from a seat's observation). :data:`SPEC` reads each part from its module when first used.
"""

from __future__ import annotations

from croupier.games._spec import Bots, GameSpec, Playthrough

#: As-Nas, as registered in :mod:`croupier.games`.
SPEC = GameSpec(
    package=__name__,
    bots=Bots(
        lineup=("as-nas-heuristic", "random"),
        bundled={
            "as-nas-heuristic": "croupier_bots.as_nas_heuristic",
            "as-nas-search": "croupier_bots.as_nas_search",
        },
    ),
    playthrough=Playthrough(params={"deals": 3}, seed=20261130),
)

__all__ = ["SPEC"]
