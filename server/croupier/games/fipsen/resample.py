"""Fipsen: a full state consistent with one seat's observation, from that observation alone.

``resample(observation, rng)`` keeps the seat's hand (and, as declarer, what it took and
discarded) and every card played; the other hands, the Skat, the stock and a declarer's
discards are drawn uniformly among the deals the seat cannot rule out: a seat that did not
follow suit holds none of it, a seat that bid or held Kieker was dealt no K, Q or J
(``docs/rules/fipsen.md``, "What a seat sees"). Declined Siebener Fips offers, which nobody
else sees, are replayed where a sampled hand qualifies. Between deals and at the end nothing is
hidden.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from croupier.games._resample import (
    Rng,
    check_seat,
    replay,
    sample_wire,
    wire,
    wire_resampler,
)
from croupier.games.fipsen import codec
from croupier.games.fipsen.rules import (
    GAME,
    FipsenObservation,
    FipsenState,
    Phase,
    _between_deals,
)

_HIDDEN = frozenset({Phase.SIEBENER_FIPS, Phase.DISCARD})


def _hidden_phase(state: FipsenState) -> bool:
    return state.phase in _HIDDEN


def resample(
    observation: FipsenObservation, rng: Rng, params: Mapping[str, int] | None = None
) -> FipsenState:
    """A state whose observation for ``observation.seat`` is ``observation``, drawn uniformly
    among those the seat cannot tell apart."""
    seat = check_seat(observation)
    obs = observation
    totals = tuple(int(t) for t in obs.totals)
    if obs.phase in (Phase.DRAW_DEALER, Phase.DEAL, Phase.OVER):
        if obs.phase is Phase.DRAW_DEALER:
            return GAME.initial_state({"deals": obs.num_deals})
        return _between_deals(
            num_deals=obs.num_deals, round_index=obs.deal_index, dealer=obs.dealer,
            phase=obs.phase, totals=totals, past=obs.past_deals,
        )  # fmt: skip
    deal = sample_wire(wire(codec.CODEC, obs), seat, rng)
    start = _between_deals(
        num_deals=obs.num_deals, round_index=obs.deal_index, dealer=obs.dealer, phase=Phase.DEAL,
        totals=totals, past=obs.past_deals,
    )  # fmt: skip
    return replay(GAME, start, deal, obs.history, _hidden_phase)


def _wire_start(msg: Any, params: Mapping[str, int] | None) -> FipsenState:
    totals = tuple(int(Fraction(t.numerator, t.denominator or 1)) for t in msg.totals)
    return _between_deals(
        num_deals=int(msg.num_deals), round_index=int(msg.deal_index), dealer=int(msg.dealer),
        phase=Phase.DEAL, totals=totals, past=(),
    )  # fmt: skip


#: ``resample_wire(observation, seat, rng, params=None, visit=None)``: the same from the wire
#: message a bot holds (``croupier.v1.Observation`` at a decision; finished rounds are not in
#: it, so the state's ``past`` is empty).
resample_wire = wire_resampler(GAME, "fipsen", _wire_start, _hidden_phase)


__all__ = ["resample", "resample_wire"]
