"""Ranges stay ranges in the Python SDK, end to end (issue 20): bot processes that play a chip
match at stack 1,000 over real gRPC reading only ``decision.legal_runs`` and
``decision.is_legal`` (``tests/e2e/bots/ranger.py``) play a clean match: every bet they pick from
a run of up to a thousand amounts (whose ids step by the amphora) is accepted by the arbiter,
the replay verifies, and the runs they saw were the wide ones the wire carries."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from e2e_kit import ROOMY, Kit

from croupier.arbiter import MatchConfig, Outcome
from croupier.replay import read_replay, verify
from croupier.runner import run_match
from croupier.transport import SandboxOptions

pytestmark = pytest.mark.e2e


@pytest.mark.parametrize(("game", "amphora"), [("felduz", 3), ("scauver", 1)])
def test_bots_playing_from_the_runs_play_a_clean_match(
    tmp_path: Path, game: str, amphora: int
) -> None:
    kit = Kit(tmp_path)
    summaries = [kit.streams / f"seat{s}.json" for s in range(2)]
    config = MatchConfig(
        game,
        {"players": 2, "stack": 1000, "amphora": amphora, "double_every": 0, "round_cap": 12},
        seed=7,
        clock=ROOMY,
        connect_timeout_s=20,
    )
    bots = [kit.bot("ranger", path) for path in summaries]
    played = asyncio.run(
        run_match(config, bots, tmp_path / "out", sandbox=SandboxOptions(writable=(kit.streams,)))
    )
    assert not played.result.cancelled
    for r in played.result.seats:  # no pick was rejected
        assert (r.outcome, r.timeouts, r.rejected) == (Outcome.NORMAL, 0, 0), r
    report = verify(read_replay(played.replay))
    assert report.scores == tuple(r.score for r in played.result.seats)
    seen = [json.loads(path.read_text()) for path in summaries]
    assert [s["refused"] for s in seen] == [[], []]
    assert sum(s["decisions"] for s in seen) > 20
    assert max(s["widest"] for s in seen) > 200  # a run of hundreds of amounts, one range
    assert {step for s in seen for step in s["steps"]} == {amphora}
