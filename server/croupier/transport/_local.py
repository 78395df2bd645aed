"""Play a match in this process: no gRPC, no clocks, no processes.

For evaluating bots quickly (thousands of deals a minute). Each seat is handed exactly the wire
messages the arbiter would send it (same observations, same codec): its Welcome, then its
decisions. A seat is any callable from a ``croupier.v1.PlayResponse`` to the action id it answers
(``None`` for a message that asks nothing): the Python SDK's ``croupier_bot.Seat(bot)`` is one.
The server does not import the SDK.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from typing import Any

import numpy as np

from croupier.arbiter import ClockRules, Clocks, Welcome, decision_request
from croupier.errors import IllegalActionError
from croupier.games import get_spec
from croupier.games._drive import final, with_chance
from croupier.transport._codec import encode
from croupier.v1 import bot_pb2 as pb

#: A seat in an in-process match: wire message in, action id (or ``None``) out.
LocalSeat = Callable[[pb.PlayResponse], int | None]


def play_local(
    game_name: str, params: Mapping[str, int], seed: int, seats: Sequence[LocalSeat]
) -> tuple[Fraction, ...]:
    """Play one match between ``seats`` (one per seat, e.g. ``croupier_bot.Seat(bot)``);
    return the final scores. :class:`IllegalActionError` if a seat answers an illegal id."""
    spec = get_spec(game_name)
    game, codec = spec.game, spec.codec
    full = game.info.make_params(params)
    state = game.initial_state(full)
    n = game.num_players(state)
    if len(seats) != n:
        raise ValueError(f"{len(seats)} seats for a {n}-seat match")
    for seat, respond in enumerate(seats):
        welcome = Welcome("local", seat, n, game.info.name, game.info.version, dict(full),
                          ClockRules(0, 0))  # fmt: skip
        respond(encode(welcome, codec))
    requests = [0] * n

    def act(state: Any, player: int) -> int:
        requests[player] += 1
        message = decision_request(game, state, player, requests[player], Clocks(0, 0, 0))
        action = seats[player](encode(message, codec))
        if action not in message.legal_actions:
            raise IllegalActionError(
                f"seat {player} chose {action}, not among {list(message.legal_actions)}"
            )
        return action

    end = final(game, state, with_chance(game, np.random.default_rng(seed), act))
    scores: tuple[Fraction, ...] = game.returns(end)
    return scores


__all__ = ["LocalSeat", "play_local"]
