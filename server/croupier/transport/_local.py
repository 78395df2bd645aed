"""Play a match in this process between Python SDK bots: no gRPC, no clocks, no processes.

For evaluating bots quickly (thousands of deals a minute). Each bot sees exactly the wire messages
the arbiter would send it (same observations, same codec), decisions only.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction

import numpy as np

from croupier.arbiter import Clocks, decision_request
from croupier.errors import IllegalActionError
from croupier.games import CHANCE, TERMINAL, get_game, get_spec
from croupier.transport._codec import encode
from croupier_bot import Bot, Decision, MatchInfo


def play_local(
    game_name: str, params: Mapping[str, int], seed: int, bots: Sequence[Bot]
) -> tuple[Fraction, ...]:
    """Play one match between SDK ``bots`` (one per seat); return the final scores."""
    game = get_game(game_name)
    full = game.info.make_params(params)
    codec = get_spec(game_name).codec
    rng = np.random.default_rng(seed)
    state = game.initial_state(full)
    n = game.num_players(state)
    infos = [
        MatchInfo("local", seat, n, game.info.name, game.info.version, dict(full), 0, 0)
        for seat in range(n)
    ]
    for bot, info in zip(bots, infos, strict=True):
        bot.on_welcome(info)
    requests = [0] * n
    while (player := game.current_player(state)) != TERMINAL:
        if player == CHANCE:
            state = game.apply_chance(state, game.sample_chance(state, rng))
            continue
        requests[player] += 1
        message = decision_request(game, state, player, requests[player], Clocks(0, 0, 0))
        legal = message.legal_actions
        wire = encode(message, codec).decision
        decision = Decision(
            wire.request_id, wire.observation, list(wire.legal_actions), wire.clocks, infos[player]
        )
        action = bots[player].act(decision)
        if action not in legal:
            raise IllegalActionError(f"seat {player} chose {action}, not among {list(legal)}")
        state = game.apply(state, action)
    return game.returns(state)
