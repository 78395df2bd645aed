"""Scauver: everything about the game in one package, declared by :data:`SPEC`.

``rules`` (the pure state machine, ``docs/rules/scauver.md``), ``codec`` (its ``croupier.v1``
messages), ``encoder`` (numpy tensors of an observation: the position, the information state),
``narrator`` (hand histories).
"""

from __future__ import annotations

from croupier.games._spec import Bots, Encoder, GameSpec, Playthrough
from croupier.games.scauver import codec, encoder, narrator, record, resample, rules

#: Scauver, as registered in :mod:`croupier.games`.
SPEC = GameSpec(
    game=rules.GAME,
    codec=codec.CODEC,
    encoder=Encoder(
        encoder.SIZE, encoder.encode, encoder.INFO_SIZE, encoder.encode_info, encoder.bounds
    ),
    narrator=narrator.NARRATOR,
    bots=Bots(
        lineup=("scauver-heuristic", "random"),
        bundled={
            "scauver-heuristic": "croupier_bots.scauver_heuristic",
            "scauver-search": "croupier_bots.scauver_search",
        },
    ),
    playthrough=Playthrough(params={"players": 3, "round_cap": 3, "stack": 4}, seed=20261160),
    round_record=record.round_record,
    resample=resample.resample,
)

__all__ = ["SPEC", "codec", "encoder", "narrator", "resample", "rules"]
