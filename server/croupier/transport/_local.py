"""Play a match in this process: no gRPC, no clocks, no processes.

For evaluating bots quickly (thousands of deals a minute). Each seat is handed exactly the wire
messages the arbiter would send it (same observations, same codec): its Welcome, then its
decisions, and each round's end (``DealEnded``, which carries the finished round: a decision
carries the current round only). A seat is any callable from a ``croupier.v1.PlayResponse`` to
the action id it answers (``None`` for a message that asks nothing): the Python SDK's
``croupier_bot.Seat(bot)`` is one.
The server does not import the SDK.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from typing import Any

import numpy as np

from croupier.arbiter import ClockRules, Clocks, RoundEnded, Welcome, decision_request
from croupier.errors import IllegalActionError
from croupier.games import CHANCE, TERMINAL, get_spec, play, with_chance
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
    pending: list[list[RoundEnded]] = [[] for _ in range(n)]

    def act(state: Any, player: int) -> int:
        requests[player] += 1
        message = decision_request(game, state, player, requests[player], Clocks(0, 0, 0))
        events, pending[player] = pending[player], []
        action = seats[player](encode(message, codec, events))
        if action is None or action not in message.legal_actions:
            raise IllegalActionError(
                f"seat {player} chose {action}, not among {list(message.legal_actions)}"
            )
        return action

    # each round's end reaches every seat (with its next message) as the arbiter sends it: the
    # finished round travels there and nowhere else, so a bot that keeps past rounds needs it
    start = game.returns(state)
    shown = 0
    for ply in play(game, state, with_chance(game, np.random.default_rng(seed), act)):
        state = ply.after
        before = ply.before
        if ply.player == CHANCE or game.is_public(before, ply.action):
            shown += 1
        if ply.player != CHANCE and (
            game.current_player(state) == TERMINAL
            or game.round_index(state) != game.round_index(before)
        ):
            totals = game.returns(state)
            deltas = tuple(t - s for t, s in zip(totals, start, strict=True))
            start = totals
            ended = RoundEnded(
                shown, game.round_index(before), deltas, totals, game.observe(state, None)
            )
            for events in pending:
                events.append(ended)
    for seat, events in enumerate(pending):
        if events:
            seats[seat](encode(None, codec, events))
    scores: tuple[Fraction, ...] = game.returns(state)
    return scores


__all__ = ["LocalSeat", "play_local"]
