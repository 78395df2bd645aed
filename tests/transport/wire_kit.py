"""Helpers shared by the transport tests: random matches decision by decision, the codec round
trip of a decision request, and the exact bytes a seat receives (built and encoded as the
arbiter and the server build and encode them).

Import it as ``wire_kit`` from a test in ``tests/transport`` (pytest puts that folder on
``sys.path``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from fractions import Fraction
from typing import Any

import numpy as np
import walk

from croupier.arbiter import Clocks, DecisionRequest, RoundEnded, decision_request
from croupier.games import CHANCE
from croupier.games._drive import play, with_chance
from croupier.transport._codec import GameCodec, encode
from croupier.v1 import bot_pb2 as pb
from croupier_bot import LegalActions

#: ``choose(state, legal, rng)``: the action a random match takes.
Choose = Callable[[Any, Sequence[int], np.random.Generator], int]


def uniform(state: Any, legal: Sequence[int], rng: np.random.Generator) -> int:
    """Any legal action, uniformly."""
    return int(legal[rng.integers(len(legal))])


def decisions(
    game: Any, params: dict[str, int], seed: int, choose: Choose = uniform
) -> Iterator[tuple[Any, Any]]:
    """Each decision of a random match (chance and ``choose`` drawing from one generator seeded
    with ``seed``): the state and the state after it."""
    rng = np.random.default_rng(seed)

    def act(state: Any, player: int) -> int:
        return choose(state, game.legal_actions(state), rng)

    for ply in play(game, game.initial_state(params), with_chance(game, rng, act)):
        if ply.player != CHANCE:
            yield ply.before, ply.after


def round_trip(
    game: Any, codec: GameCodec, state: Any
) -> tuple[DecisionRequest, pb.DecisionRequest]:
    """The request the seat to act in ``state`` is sent, and that request encoded, serialized and
    parsed back, its legal actions expanded as the SDK expands them (amount ranges: one entry
    per action); they are checked to carry the request's ids and labels."""
    request = decision_request(game, state, game.current_player(state), 9, Clocks(1, 2, 3))
    data = encode(request, codec).SerializeToString()
    decision = pb.PlayResponse.FromString(data).decision
    expanded = LegalActions(decision.legal_actions)
    assert expanded.ids == list(request.legal_actions)
    decision.ClearField("legal_actions")
    decision.legal_actions.extend(expanded)
    assert [a.id for a in decision.legal_actions] == list(request.legal_actions)
    assert [a.label for a in decision.legal_actions] == list(request.labels)
    assert not any(a.HasField("amounts") for a in decision.legal_actions)
    return request, decision


def round_end(game: Any, codec: GameCodec, after: Any, seat: int | None) -> tuple[Any, pb.Event]:
    """The observation of ``seat`` after a round's end, and a round's end carrying it, encoded,
    serialized and parsed back."""
    obs = game.observe(after, seat)
    zeros = (Fraction(0),) * game.num_players(after)
    event = RoundEnded(5, 0, zeros, game.returns(after), obs)
    response = pb.PlayResponse.FromString(encode(event, codec).SerializeToString())
    return obs, response.events[0]


def reach(game: Any, params: dict[str, int], seed: int, picks: list[int]) -> Any:
    """The last decision state (a seat to act) of ``walk.drive(game, params, seed, picks)``;
    the picks must last past the opening chance steps (each step takes one)."""
    states = walk.drive(game, params, seed, picks)
    return next(s for s in reversed(states) if game.current_player(s) >= 0)


def seat_bytes(game: Any, codec: GameCodec, state: Any, seat: int) -> bytes:
    """Every byte ``seat`` receives at ``state``: a round's end carrying its observation and,
    when it is to act, its decision request, serialized deterministically."""
    obs = game.observe(state, seat)
    zeros = (Fraction(0),) * game.num_players(state)
    messages: list[Any] = [RoundEnded(7, game.round_index(state), zeros, game.returns(state), obs)]
    if game.current_player(state) == seat:
        clocks = Clocks(2000, 30000, 5)
        messages.append(decision_request(game, state, seat, 3, clocks))
    return b"".join(encode(m, codec).SerializeToString(deterministic=True) for m in messages)
