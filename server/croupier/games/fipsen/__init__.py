"""Fipsen: everything about the game in one package, declared by :data:`SPEC`.

``rules`` (the pure state machine, ``docs/rules/fipsen.md``), ``codec`` (its ``croupier.v1``
messages), ``encoder`` (numpy tensors of an observation: the position, the information state),
``narrator`` (hand histories).
"""

from __future__ import annotations

from croupier.games._spec import Bots, Encoder, GameSpec, Playthrough
from croupier.games.fipsen import codec, encoder, narrator, record, resample, rules

#: Fipsen, as registered in :mod:`croupier.games`.
SPEC = GameSpec(
    game=rules.GAME,
    codec=codec.CODEC,
    encoder=Encoder(
        encoder.SIZE, encoder.encode, encoder.INFO_SIZE, encoder.encode_info, encoder.bounds
    ),
    narrator=narrator.NARRATOR,
    bots=Bots(
        lineup=("fipsen-heuristic", "random"),
        bundled={
            "fipsen-heuristic": "croupier_bots.fipsen_heuristic",
            "fipsen-search": "croupier_bots.fipsen_search",
        },
    ),
    playthrough=Playthrough(params={"deals": 3}, seed=266),
    round_record=record.round_record,
    resample=resample.resample,
)

__all__ = ["SPEC", "codec", "encoder", "narrator", "resample", "rules"]
