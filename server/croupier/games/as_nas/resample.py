"""As-Nas: a full state consistent with one seat's observation, from that observation alone.

``resample(observation, rng)``: the seat's own hand once it looked (its ranks; copies of a rank
are interchangeable), every other card dealt uniformly at random; the deal's public history
replayed through the rules (``docs/rules/as-nas.md``, "What a seat sees"). Between deals and at
the end nothing of the deal in progress is hidden, and the state is built from the public fields
(at the end, the last deal's hands: shown ones as shown, the seat's own if it looked).
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from croupier.games._resample import (
    Rng,
    bits,
    check_seat,
    replay,
    sample_wire,
    shuffled,
    wire,
    wire_resampler,
)
from croupier.games.as_nas import codec
from croupier.games.as_nas.rules import (
    COPIES,
    DECK_SIZE,
    GAME,
    NUM_SEATS,
    UNIT,
    AsNasObservation,
    AsNasState,
    Phase,
    _between_deals,
)


def _units(totals: tuple[Fraction, ...]) -> tuple[int, ...]:
    return tuple(int(t * UNIT) for t in totals)


def _never(state: AsNasState) -> bool:
    return False


def resample(
    observation: AsNasObservation, rng: Rng, params: Mapping[str, int] | None = None
) -> AsNasState:
    """A state whose observation for ``observation.seat`` is ``observation``, drawn uniformly
    among those the seat cannot tell apart (``params`` are not needed: the observation has the
    deal count)."""
    seat = check_seat(observation)
    obs = observation
    if obs.to_act is None:
        return _public(obs, rng)
    deal = sample_wire(wire(codec.CODEC, obs), seat, rng)
    start = _between_deals(
        num_deals=obs.num_deals, round_index=obs.deal_index, dealer=obs.dealer, phase=Phase.DEAL,
        totals=_units(obs.totals), past=obs.past_deals,
    )  # fmt: skip
    return replay(GAME, start, deal, obs.history, _never)


def _move(entry: Any) -> int:
    """The action id of a history entry (the wire's ``AsNasMove``, 1-based)."""
    return int(entry.move) - 1


def _wire_start(msg: Any, params: Mapping[str, int] | None) -> AsNasState:
    totals = tuple(Fraction(t.total.numerator, t.total.denominator or 1) for t in msg.seats)
    return _between_deals(
        num_deals=int(msg.num_deals), round_index=int(msg.deal_index), dealer=int(msg.dealer),
        phase=Phase.DEAL, totals=_units(totals), past=(),
    )  # fmt: skip


#: ``resample_wire(observation, seat, rng, params=None, visit=None)``: the same from the wire
#: message a bot holds (``croupier.v1.Observation`` at a decision; finished rounds are not in
#: it, so the state's ``past`` is empty).
resample_wire = wire_resampler(GAME, "as_nas", _wire_start, _never, _move)


def _public(obs: AsNasObservation, rng: Rng) -> AsNasState:
    """Before the first deal, between deals, or at the end."""
    totals = _units(obs.totals)
    if obs.dealer < 0:
        return GAME.initial_state({"deals": obs.num_deals})
    if not obs.past_deals or obs.past_deals[-1].result.deal_index != obs.deal_index:
        return _between_deals(
            num_deals=obs.num_deals, round_index=obs.deal_index, dealer=obs.dealer,
            phase=Phase.DEAL, totals=totals, past=obs.past_deals,
        )  # fmt: skip
    # the end: the last deal's hands stay in the state; the shown ones and the seat's own are
    # known, the rest are dealt at random from the cards left
    seat = check_seat(obs)
    known: list[tuple[int, ...] | None] = list(obs.past_deals[-1].result.revealed)
    if obs.hand:
        known[seat] = obs.hand
    copies = [0] * (DECK_SIZE // COPIES)
    hands: list[tuple[int, ...]] = [()] * NUM_SEATS
    for s, ranks in enumerate(known):
        if ranks is None:
            continue
        cards = []
        for rank in ranks:
            cards.append(COPIES * rank + copies[rank])
            copies[rank] += 1
        hands[s] = tuple(sorted(cards))
    used = {c for h in hands for c in h}
    left = [c for c in range(DECK_SIZE) if c not in used]
    order = shuffled(bits(rng), left)
    for s in range(NUM_SEATS):
        if not hands[s]:
            hands[s], order = tuple(sorted(order[:5])), order[5:]
    return AsNasState(
        num_deals=obs.num_deals, round_index=obs.deal_index, dealer=obs.dealer, phase=Phase.OVER,
        hands=tuple(hands), looked=obs.looked, folded=obs.folded, acted=(True,) * NUM_SEATS,
        stakes=obs.stakes, high=obs.high, to_act=-1, totals=totals, history=(),
        past=obs.past_deals,
    )  # fmt: skip


__all__ = ["resample", "resample_wire"]
