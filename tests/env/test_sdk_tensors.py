"""The same tensors on both sides: a bot of the Python SDK gets from ``Decision.tensor()`` and
``Decision.action_mask()`` the very bytes the arbiter's encoders (and so ``croupier.env``) make
of its observation, for every decision of seeded matches of every game; and the wire messages
``croupier.env`` hands an in-process bot are the transport's, byte for byte.

In-process here (the wire messages ``play_local`` builds with the transport's codec, serialized
and parsed back); ``tests/e2e/test_sdk_tensors_grpc.py`` does the same over real gRPC with real
bot processes.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from croupier.arbiter import ClockRules, Clocks, RoundEnded, Welcome, decision_request
from croupier.env import _wire
from croupier.env._match import Match
from croupier.games import CHANCE, GAMES, get_spec
from croupier.games._drive import play
from croupier.transport import play_local
from croupier.transport._codec import encode
from croupier.v1 import bot_pb2 as pb
from croupier_bot import Bot, Decision, Seat, tensors

#: Seeded matches per game: (parameters, seed).
MATCHES = {
    "as-nas": [({"deals": 12}, s) for s in range(3)],
    "fipsen": [({"deals": 6}, s) for s in range(3)],
    "felduz": [({"players": p, "round_cap": 6, "stack": 20}, p) for p in (2, 3, 4)],
    "scauver": [({"players": p, "round_cap": 6, "stack": 20}, p) for p in (2, 3, 4)],
}


def _matches(name: str) -> list[tuple[dict[str, int], int]]:
    """Seeded matches of ``name``: the ones above, or its golden playthrough's."""
    playthrough = get_spec(name).playthrough
    return MATCHES.get(name) or [(dict(playthrough.params), playthrough.seed)]


def _sdk_has_tensors(name: str) -> None:
    """Skip a game the SDK has no tensors module for (optional: CONTRIBUTING.md)."""
    try:
        tensors.size(name)
    except ValueError:
        pytest.skip(f"the SDK has no tensors for {name}")


class Recorder(Bot):
    """Plays a seeded random legal action and keeps the bytes of every tensor it was given."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.seen: list[tuple[bytes, bytes, bytes]] = []
        self.chosen: list[int] = []

    def act(self, decision: Decision) -> int:
        self.seen.append(
            (
                decision.tensor().tobytes(),
                decision.tensor("info").tobytes(),
                decision.action_mask().tobytes(),
            )
        )
        action = self.rng.choice(decision.legal_ids)
        self.chosen.append(action)
        return action


def _expected(
    name: str, params: dict[str, int], seed: int, bots: list[Recorder]
) -> list[list[Any]]:
    """Per seat, the arbiter's tensors at each of its decisions in the match ``play_local``
    played (chance from ``default_rng(seed)``, the bots' recorded choices)."""
    spec = get_spec(name)
    game, encoder = spec.game, spec.encoder
    state = game.initial_state(game.info.make_params(params))
    rng = np.random.default_rng(seed)
    chosen = [iter(b.chosen) for b in bots]
    out: list[list[Any]] = [[] for _ in bots]

    def choose(state: Any, player: int) -> tuple[int, ...] | int:
        if player == CHANCE:
            outcome: tuple[int, ...] = game.sample_chance(state, rng)
            return outcome
        observation = game.observe(state, player)
        mask = np.zeros(game.info.num_distinct_actions, dtype=np.int8)
        mask[list(game.legal_actions(state))] = 1
        out[player].append(
            (
                encoder.encode(observation).tobytes(),
                encoder.encode_info(observation).tobytes(),
                mask.tobytes(),
            )
        )
        return next(chosen[player])

    for _ in play(game, state, choose):
        pass
    return out


@pytest.mark.parametrize("name", GAMES)
def test_sdk_tensors_are_the_arbiters_byte_for_byte_at_every_decision(name: str) -> None:
    _sdk_has_tensors(name)
    decisions = 0
    for params, seed in _matches(name):
        game = get_spec(name).game
        n = game.num_players(game.initial_state(game.info.make_params(params)))
        bots = [Recorder(100 * seed + s) for s in range(n)]

        def wire(seat: Seat) -> Any:
            # what travels is bytes: the bot reads the message parsed back from them
            return lambda r: seat(pb.PlayResponse.FromString(r.SerializeToString()))

        play_local(name, params, seed, [wire(Seat(b)) for b in bots])
        expected = _expected(name, params, seed, bots)
        for seat, bot in enumerate(bots):
            assert len(bot.seen) == len(expected[seat])
            for k, (got, want) in enumerate(zip(bot.seen, expected[seat], strict=True)):
                for kind, g, w in zip(("position", "info", "mask"), got, want, strict=True):
                    if g != w:
                        diff = np.flatnonzero(
                            np.frombuffer(g, np.uint8) != np.frombuffer(w, np.uint8)
                        )
                        raise AssertionError(
                            f"{name} seed {seed} seat {seat} decision {k}: the SDK's {kind} "
                            f"tensor differs from the arbiter's at bytes {diff[:8].tolist()}"
                        )
            decisions += len(bot.seen)
    assert decisions > 100


@pytest.mark.parametrize("name", GAMES)
def test_the_sdk_knows_each_games_sizes(name: str) -> None:
    _sdk_has_tensors(name)
    spec = get_spec(name)
    assert tensors.size(name) == spec.encoder.size
    assert tensors.size(name, "info") == spec.encoder.info_size
    assert tensors.num_actions(name) == spec.game.info.num_distinct_actions


def test_the_sdk_refuses_an_unknown_kind_or_game() -> None:
    with pytest.raises(ValueError, match="no tensor kind 'pixels'"):
        tensors.size("fipsen", "pixels")
    with pytest.raises(ValueError, match="no tensors for the game 'poker'"):
        tensors.size("poker")


@pytest.mark.parametrize("name", GAMES)
def test_the_environments_wire_messages_are_the_transports(name: str) -> None:
    """What an in-process bot of ``CroupierEnv`` is handed (``croupier.env._wire``) against what
    the arbiter sends (``transport._codec.encode``), for every decision of seeded matches."""
    spec = get_spec(name)
    game, codec = spec.game, spec.codec
    for params, seed in _matches(name):
        full = game.info.make_params(params)
        match = Match(game, full, seed)
        n = game.num_players(match.state)
        for seat in range(n):
            welcome = Welcome("local", seat, n, name, game.info.version, dict(full),
                              ClockRules(0, 0))  # fmt: skip
            ours = _wire.welcome(spec, full, seat, n)
            assert ours.SerializeToString() == encode(welcome, codec).SerializeToString()
        rng = np.random.default_rng(seed)
        ended: list[Any] = []
        request = 0
        while not match.over:
            request += 1
            state, player, legal = match.state, match.player, match.legal
            theirs = encode(
                decision_request(game, state, player, request, Clocks(0, 0, 0)),
                codec,
                [RoundEnded(e.step, e.round_index, e.deltas, e.totals, e.public) for e in ended],
            )
            ours = _wire.decision(spec, state, player, request, legal, ended)
            assert ours.SerializeToString() == theirs.SerializeToString()
            end = match.play(int(legal[rng.integers(len(legal))]))
            ended = [end] if end is not None else []
