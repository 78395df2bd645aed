"""Bounded decision messages, end to end: in a long passive Scauver match over real gRPC, with
stacks of 1,000 chips (1,000 legal bets per betting step), the bytes of a decision request do not
grow with the round number (protocol 1's grew about 850 bytes per round)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from e2e_kit import ROOMY, Kit, read_stream

from croupier.arbiter import MatchConfig
from croupier.replay import read_replay, verify
from croupier.runner import run_match
from croupier.transport import SandboxOptions
from croupier.v1 import bot_pb2 as pb

pytestmark = pytest.mark.e2e

ROUNDS = 40


def test_a_decision_request_does_not_grow_with_the_round(tmp_path: Path) -> None:
    kit = Kit(tmp_path)
    streams = [kit.streams / f"seat{s}.bin" for s in range(2)]
    config = MatchConfig(
        "scauver",
        {"players": 2, "stack": 1000, "double_every": 0, "round_cap": ROUNDS},
        seed=4,
        clock=ROOMY,
        connect_timeout_s=20,
    )
    bots = [kit.bot("recorder", path, "passive") for path in streams]
    run = asyncio.run(
        run_match(config, bots, tmp_path / "out", sandbox=SandboxOptions(writable=(kit.streams,)))
    )
    assert verify(read_replay(run.replay)).rounds == ROUNDS
    sizes: dict[int, list[int]] = {}
    betting: list[int] = []  # sizes of the requests holding a run of bets or raises
    for path in streams:
        for raw in read_stream(path):
            response = pb.PlayResponse.FromString(raw)
            if response.WhichOneof("kind") != "decision":
                continue
            decision = response.decision
            round_ = decision.observation.scauver.table.round
            sizes.setdefault(round_, []).append(len(decision.SerializeToString()))
            if any(a.HasField("amounts") for a in decision.legal_actions):
                betting.append(len(decision.SerializeToString()))
    assert sorted(sizes) == list(range(ROUNDS))  # the match ran to its cap
    assert len(betting) > ROUNDS  # every round had betting steps, each sent as one range
    early = max(s for r in range(5) for s in sizes[r])
    late = max(s for r in range(ROUNDS - 5, ROUNDS) for s in sizes[r])
    assert late <= early + 8  # varints of larger numbers at most; protocol 1: +30 KB
    assert max(betting) < 1000  # 1,000 legal bets in a few hundred bytes (protocol 1: 25 KB)
    assert early < 10_000  # the largest is the opening: 80 placements, each its own action
