"""Felduz: everything about the game in one package, declared by :data:`SPEC`.

``rules`` (the pure state machine, ``docs/rules/felduz.md``), ``codec`` (its ``croupier.v1``
messages), ``encoder`` (numpy tensors of an observation: the position, the information state),
``narrator`` (hand histories).
"""

from __future__ import annotations

from croupier.games._spec import Bots, Encoder, GameSpec, Playthrough
from croupier.games.felduz import codec, encoder, narrator, record, resample, rules

#: Felduz, as registered in :mod:`croupier.games`.
SPEC = GameSpec(
    game=rules.GAME,
    codec=codec.CODEC,
    encoder=Encoder(
        encoder.SIZE, encoder.encode, encoder.INFO_SIZE, encoder.encode_info, encoder.bounds
    ),
    narrator=narrator.NARRATOR,
    bots=Bots(
        lineup=("felduz-heuristic", "random"),
        bundled={
            "felduz-heuristic": "croupier_bots.felduz_heuristic",
            "felduz-search": "croupier_bots.felduz_search",
        },
    ),
    playthrough=Playthrough(params={"players": 3, "stack": 8, "round_cap": 3}, seed=20261130),
    round_record=record.round_record,
    resample=resample.resample,
)

__all__ = ["SPEC", "codec", "encoder", "narrator", "resample", "rules"]
