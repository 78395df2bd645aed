"""The same tensors in-process and over gRPC (issue 22): bots of the Python SDK, in real
processes dialling a real arbiter, record the bytes of ``decision.tensor()`` (both kinds) and
``decision.action_mask()`` at every decision of seeded matches of every game; re-simulating
each replay, the arbiter's encoders (those ``croupier.env`` uses) give the same bytes at every
one of those decisions."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from e2e_kit import ROOMY, Kit, read_stream

from croupier.arbiter import MatchConfig, Outcome
from croupier.games import GAMES, get_spec
from croupier.replay import read_replay
from croupier.runner import run_match
from croupier.transport import SandboxOptions

pytestmark = pytest.mark.e2e

#: A seeded match per game, every seat a recorder.
MATCHES: dict[str, tuple[dict[str, int], int]] = {
    "as-nas": ({"deals": 4}, 22),
    "fipsen": ({"deals": 4}, 22),
    "felduz": ({"players": 3, "stack": 12, "round_cap": 4}, 22),
    "scauver": ({"players": 3, "stack": 12, "round_cap": 4}, 22),
}


def _arbiters(replay_path: Path, seats: int) -> list[list[tuple[bytes, bytes, bytes]]]:
    """Per seat, the arbiter's tensors at each decision it was asked, from the replay."""
    replay = read_replay(replay_path)
    spec = get_spec(replay.header["game"])
    game, encoder = spec.game, spec.encoder
    out: list[list[tuple[bytes, bytes, bytes]]] = [[] for _ in range(seats)]
    for index, record in enumerate(replay.records):
        if record.type != "action":
            continue
        assert not record.data.get("by_arbiter"), record.data  # every decision was asked
        state: Any = replay.before(index)
        seat = record.data["seat"]
        observation = game.observe(state, seat)
        mask = np.zeros(game.info.num_distinct_actions, dtype=np.int8)
        mask[list(game.legal_actions(state))] = 1
        out[seat].append(
            (
                encoder.encode(observation).tobytes(),
                encoder.encode_info(observation).tobytes(),
                mask.tobytes(),
            )
        )
    return out


@pytest.mark.parametrize("name", GAMES)
def test_tensors_over_grpc_are_the_in_process_ones_byte_for_byte(e2e: Kit, name: str) -> None:
    params, seed = MATCHES[name]
    game = get_spec(name).game
    seats = game.num_players(game.initial_state(game.info.make_params(params)))
    streams = [e2e.streams / f"{name}-{s}.bin" for s in range(seats)]
    config = MatchConfig(game=name, params=params, seed=seed, clock=ROOMY, connect_timeout_s=20.0)
    bots = [e2e.bot("tensor_recorder", path) for path in streams]
    sandbox = SandboxOptions(writable=(e2e.streams,))
    run = asyncio.run(run_match(config, bots, e2e.tmp / "out", sandbox=sandbox))
    assert all(r.outcome is Outcome.NORMAL for r in run.result.seats)
    expected = _arbiters(run.replay, seats)
    decisions = 0
    for seat, path in enumerate(streams):
        items = read_stream(path)
        recorded = list(zip(items[0::3], items[1::3], items[2::3], strict=True))
        assert len(recorded) == len(expected[seat]) > 0
        for k, (got, want) in enumerate(zip(recorded, expected[seat], strict=True)):
            for kind, g, w in zip(("position", "info", "mask"), got, want, strict=True):
                assert g == w, f"seat {seat} decision {k}: the {kind} bytes differ"
        decisions += len(recorded)
    assert decisions >= 20
