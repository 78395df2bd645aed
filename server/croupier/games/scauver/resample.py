"""Scauver: a full state consistent with one seat's observation, from that observation alone.

``resample(observation, rng, params)`` keeps the seat's hand and every flank; the others'
hands and openings (during the opening), which card came when, and the stock are drawn uniformly
among those the seat cannot rule out: a placed card was dealt or drawn at a turn before it was
placed (``docs/rules/scauver.md``, "What a seat sees"). ``params`` (the match's: the amphora's
schedule) decide only the rounds after this one; absent, the defaults. Before a round is dealt and
at the end nothing is hidden.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from croupier.games import chips
from croupier.games._resample import (
    Rng,
    check_seat,
    chip_config,
    chip_start_from_table,
    chip_start_from_wire,
    replay,
    sample_wire,
    wire,
    wire_resampler,
)
from croupier.games.scauver import codec
from croupier.games.scauver.rules import (
    _EMPTY_FIELD,
    GAME,
    Phase,
    ScauverObservation,
    ScauverState,
)


def _hidden_phase(state: ScauverState) -> bool:
    return state.phase is Phase.OPENING


def _waiting(
    phase: Phase,
    config: chips.Config,
    table: chips.Table,
    past: tuple[Any, ...],
    turn: int = 0,
    opened: tuple[bool, ...] | None = None,
) -> ScauverState:
    """A state with no cards out: before the first dealer, before a deal, or at the end (which
    keeps the last round's turn cycle and who opened)."""
    n = config.players
    return ScauverState(
        config=config, phase=phase, table=table, turn_seat=-1, turn=turn, hands=((),) * n,
        fields=(_EMPTY_FIELD,) * n, opened=opened or (False,) * n, stock=(), history=(),
        past=past,
    )  # fmt: skip


def resample(
    observation: ScauverObservation, rng: Rng, params: Mapping[str, int] | None = None
) -> ScauverState:
    """A state whose observation for ``observation.seat`` is ``observation``, drawn uniformly
    among those the seat cannot tell apart."""
    seat = check_seat(observation)
    obs = observation
    config = chip_config(params, len(obs.table.stacks), obs.round_cap)
    if obs.phase in (Phase.DRAW_DEALER, Phase.DEAL, Phase.OVER):
        return _waiting(obs.phase, config, obs.table, obs.past_rounds, obs.turn, obs.opened)
    deal = sample_wire(wire(codec.CODEC, obs), seat, rng)
    start = _waiting(Phase.DEAL, config, chip_start_from_table(obs.table), obs.past_rounds)
    return replay(GAME, start, deal, obs.history, _hidden_phase)


def _wire_start(msg: Any, params: Mapping[str, int] | None) -> ScauverState:
    config = chip_config(params, len(msg.table.stacks), int(msg.table.round_cap))
    return _waiting(Phase.DEAL, config, chip_start_from_wire(msg.table), ())


#: ``resample_wire(observation, seat, rng, params=None, visit=None)``: the same from the wire
#: message a bot holds (``croupier.v1.Observation`` at a decision; finished rounds are not in
#: it, so the state's ``past`` is empty).
resample_wire = wire_resampler(GAME, "scauver", _wire_start, _hidden_phase)


__all__ = ["resample", "resample_wire"]
