"""End to end: a spy session bot (Python SDK, module-level memory) in a duplicate tournament
learns nothing of a set's deals from another seating of the set: each bot plays seating k of
every set in its own process (its lane k), and no MatchEnd of a seating reveals the set's seed
and salt. Real ``croupier tournament`` processes, real bots in their sandboxes, real gRPC."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from ladder_kit import CROUPIER, tournament, write_config
from spy_kit import SPY, SpyReport, seating_of

pytestmark = pytest.mark.e2e

BODY = """
game = "as-nas"
seed = 5
rounds = 2
[params]
deals = 3
[clock]
move_ms = 5000
[bots]
{bots}
"""


def _spies(n: int = 4) -> str:
    return "\n".join(f'spy{i} = "{SPY}"' for i in range(n))


@pytest.mark.parametrize("concurrency", [4, 1])
def test_a_spy_learns_nothing_of_a_set_from_its_other_seatings(
    tmp_path: Path, concurrency: int
) -> None:
    """Four spies, one table, two rounds: two duplicate sets of four seatings. At concurrency
    4 a set's seatings are played at once, at 1 one after another; either way no spy process
    plays two seatings of a set, knows another seat's hand, or is told a seed; the replays
    keep the reveal, and verify."""
    path = write_config(tmp_path, BODY.format(bots=_spies()))
    done = tournament(path, "--concurrency", concurrency)
    assert done.returncode == 0, done.stderr
    logs = sorted((tmp_path / "t-matches" / "logs").glob("run-*/*.log"))
    report = SpyReport.read(logs)
    assert len(report.seatings) == 8 * 4, report.summary()
    assert len(report.hands) == 8 * 4 * 3, report.summary()  # every spy saw its hand each deal
    twice = report.processes_with_two_seatings()
    assert not twice, f"a process played two seatings of a set: {twice}; {report.summary()}"
    assert not report.leaks, f"{report.summary()}; first: {report.leaks[:2]}"
    assert not report.early, f"{report.summary()}; first: {report.early[:2]}"
    assert not report.revealed(), f"{report.summary()}; first: {report.revealed()[:2]}"
    # lanes: each process plays one seating number only
    by_pid: dict[str, set[int]] = {}
    for s in report.seatings:
        by_pid.setdefault(s["pid"], set()).add(seating_of(s["match"]))
    assert all(len(k) == 1 for k in by_pid.values()), by_pid
    # the replay is the organiser's, whole: its reveal verifies
    for replay in sorted((tmp_path / "t-matches").glob("*.jsonl")):
        checked = subprocess.run(
            [*CROUPIER, "replay", "verify", str(replay)], capture_output=True, text=True
        )
        assert checked.returncode == 0, checked.stdout + checked.stderr

