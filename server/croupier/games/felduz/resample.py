"""Felduz: a full state consistent with one seat's observation, from that observation alone.

``resample(observation, rng, params)`` keeps the seat's own cards and every open field; the
others' hands and splits (during the opening), closed fields and reserves, which card came when,
and the stock are drawn uniformly among those the seat cannot rule out: a revealed card was dealt
or drawn before it was revealed, a reserve of one card left a field of 40 or more
(``docs/rules/felduz.md``, "What a seat sees"). ``params`` (the match's: the amphora's schedule)
decide only the rounds after this one; absent, the defaults. Before a round is dealt nothing is
hidden.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from croupier.games._resample import (
    Rng,
    Shown,
    check_seat,
    chip_config,
    chip_start_from_table,
    chip_start_from_wire,
    replay,
    sample_wire,
    wire,
    wire_resampler,
)
from croupier.games.felduz import codec
from croupier.games.felduz.rules import GAME, FelduzObservation, FelduzState, Phase, _waiting

_HIDDEN = frozenset({Phase.OPENING, Phase.RESERVE})


def _hidden_phase(state: FelduzState) -> bool:
    return state.phase in _HIDDEN


def resample(
    observation: FelduzObservation, rng: Rng, params: Mapping[str, int] | None = None
) -> FelduzState:
    """A state whose observation for ``observation.seat`` is ``observation``, drawn uniformly
    among those the seat cannot tell apart."""
    seat = check_seat(observation)
    obs = observation
    config = chip_config(params, len(obs.table.stacks), obs.round_cap)
    if obs.phase in (Phase.DRAW_DEALER, Phase.DEAL):
        return _waiting(obs.phase, config, obs.table, obs.past_rounds)
    past = obs.past_rounds
    shown_down: Shown | None = None
    if obs.phase is Phase.OVER:  # the state keeps the last round, whose showdown was seen
        past, last = obs.past_rounds[:-1], obs.past_rounds[-1].result
        shown_down = {
            s: (sorted(set(f) - set(obs.open_fields[s])), last.reserves[s] or ())
            for s, f in enumerate(last.fields)
            if f is not None
        }
    deal = sample_wire(wire(codec.CODEC, obs), seat, rng, shown_down)
    start = _waiting(Phase.DEAL, config, chip_start_from_table(obs.table), past)
    return replay(GAME, start, deal, obs.history, _hidden_phase, ended=obs.phase is Phase.OVER)


def _wire_start(msg: Any, params: Mapping[str, int] | None) -> FelduzState:
    config = chip_config(params, len(msg.table.stacks), int(msg.round_cap))
    return _waiting(Phase.DEAL, config, chip_start_from_wire(msg.table), ())


#: ``resample_wire(observation, seat, rng, params=None, visit=None)``: the same from the wire
#: message a bot holds (``croupier.v1.Observation`` at a decision; finished rounds are not in
#: it, so the state's ``past`` is empty).
resample_wire = wire_resampler(GAME, "felduz", _wire_start, _hidden_phase)


__all__ = ["resample", "resample_wire"]
