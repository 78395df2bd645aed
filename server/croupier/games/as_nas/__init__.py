"""As-Nas: everything about the game in one package, declared by :data:`SPEC`.

``rules`` (the pure state machine, ``docs/rules/as-nas.md``), ``codec`` (its ``croupier.v1``
messages), ``encoder`` (numpy tensors of an observation: the position, the information state),
``narrator`` (hand histories).
"""

from __future__ import annotations

from croupier.games._spec import Bots, Encoder, GameSpec, Playthrough
from croupier.games.as_nas import codec, encoder, narrator, record, resample, rules

#: As-Nas, as registered in :mod:`croupier.games`.
SPEC = GameSpec(
    game=rules.GAME,
    codec=codec.CODEC,
    encoder=Encoder(
        encoder.SIZE, encoder.encode, encoder.INFO_SIZE, encoder.encode_info, encoder.bounds
    ),
    narrator=narrator.NARRATOR,
    bots=Bots(
        lineup=("as-nas-heuristic", "random"),
        bundled={
            "as-nas-heuristic": "croupier_bots.as_nas_heuristic",
            "as-nas-search": "croupier_bots.as_nas_search",
        },
    ),
    playthrough=Playthrough(params={"deals": 3}, seed=20261130),
    round_record=record.round_record,
    resample=resample.resample,
)

__all__ = ["SPEC", "codec", "encoder", "narrator", "resample", "rules"]
