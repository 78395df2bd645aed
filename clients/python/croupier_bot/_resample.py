"""``resample``: a deal consistent with what a seat has seen, from its decision alone.

The sampling itself is :mod:`croupier_proto.v1.deal` (the stubs distribution's), the module the
in-process ``resample`` of each game draws from too, so a bot gets exactly the deals the arbiter's
side draws for the same observation and random bits.
"""

from __future__ import annotations

import random
from typing import Any

from croupier_bot._bot import Decision
from croupier_bot._view import ObservationView
from croupier_proto.v1.deal import Bits, Deal, Inconsistent, sample


def resample(source: Any, rng: Bits | None = None, *, seat: int | None = None) -> Deal:
    """A :class:`Deal` of the round in progress (the deck as the arbiter dealt it, and each
    seat's non-public moves so far) drawn uniformly among all those consistent with what the
    seat has seen: its cards, the public history, shown voids and every other proof the rules
    give. ``source``: a :class:`Decision` (its seat is the bot's), or a ``croupier.v1.Observation``
    with ``seat=``. ``rng``: anything with ``getrandbits`` (``random.Random``; default: a fresh
    one). Built from the observation alone, so it holds nothing the seat was not shown.
    :class:`Inconsistent` if the observation admits no deal; ``ValueError`` for a game without
    resampling."""
    if isinstance(source, Decision):
        observation = source.observation
        seat = source.match.seat if seat is None else seat
    else:
        observation = source
    if isinstance(observation, ObservationView):
        observation = observation.wire
    if seat is None:
        raise ValueError("resample needs the seat: pass a Decision, or seat=")
    return sample(observation, seat, rng if rng is not None else random.Random())


__all__ = ["Deal", "Inconsistent", "resample"]
