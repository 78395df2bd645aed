"""End to end: a spy session bot (Python SDK, module-level memory) in a duplicate tournament
learns nothing of a set's deals from another seating of the set: each bot plays seating k of
every set in its own process (its lane k), and no MatchEnd of a seating reveals the set's seed
and salt. Real ``croupier tournament`` processes, real bots in their sandboxes, real gRPC."""

from __future__ import annotations

import asyncio
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest
from ladder_kit import CROUPIER, tournament, write_config
from spy_kit import SPY, SpyReport, seating_of

from croupier.ladder import Played, Slot, load_config, run_tournament
from croupier.ladder._config import with_runtime
from croupier_bot import Bot, Decision, play_async

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
    assert "bot processes: 16 started; duplicate sets: 4 lanes per session bot" in done.stdout
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


class _Watch:
    """The tournament's live matches by duplicate set (a :class:`MatchWatch`): the most
    seatings of one set that held the remote bot at once."""

    def __init__(self, remote: str) -> None:
        self.remote = remote
        self.live: dict[str, set[str]] = {}
        self.most = 0
        self.started = 0

    def starting(self, slot: Slot) -> None:  # (no replay listener)
        self.started += 1
        if self.remote in slot.bots:
            held = self.live.setdefault(slot.deal_set, set())
            held.add(slot.match_id)
            self.most = max(self.most, len(held))

    def ended(self, slot: Slot, played: Played | None) -> None:
        self.live.get(slot.deal_set, set()).discard(slot.match_id)


def test_a_remote_bot_never_holds_two_live_seatings_of_a_set(tmp_path: Path) -> None:
    """With ``format.allow_remote_duplicate``, a duplicate tournament at concurrency 4 with a
    remote bot (played here over gRPC by the SDK, one task per seat token announced) plays the
    seatings of a set one after another, each told no reveal at its end; the sets' seatings
    without the remote bot would not wait (there are none here: it sits at every table)."""
    body = BODY.format(bots='r1 = "random"\nr2 = "random"\nr3 = "random"\nz = "remote"')
    path = write_config(tmp_path, body + "[format]\nallow_remote_duplicate = true\n")
    config = with_runtime(load_config(path), concurrency=4)
    watch = _Watch("z")
    ends: list[Any] = []

    async def main() -> Any:
        seats: set[asyncio.Task[Any]] = set()

        def announce(match_id: str, seat: int, bot: str, token: str, address: str) -> None:
            task = asyncio.ensure_future(play_async(_Passive(), address=address, token=token))
            seats.add(task)
            task.add_done_callback(lambda t: ends.append(t.result()))

        summary = await run_tournament(config, announce=announce, watch=watch)
        await asyncio.gather(*seats)
        return summary

    summary = asyncio.run(main())
    assert (summary.done, summary.total) == (8, 8)
    assert watch.started == 8
    assert watch.most == 1, f"the remote bot held {watch.most} seatings of one set at once"
    assert len(ends) == 8
    assert not [e for e in ends if e.salt or e.seed], "a seating's MatchEnd revealed the set"


class _Passive(Bot):
    name = "remote"

    def act(self, decision: Decision) -> int:
        legal = decision.legal_ids
        return 3 if 3 in legal else legal[-1]


@pytest.mark.slow
def test_the_ray_executor_plays_duplicate_seatings_in_lanes_too(tmp_path: Path) -> None:
    """On the Ray executor (a local Ray instance started for the run) each batch runs a local
    executor on its worker, with lanes: the spies learn nothing across seatings either. The
    workers' folders (and the bots' logs) go with them, so the spies, unsandboxed here, write
    their findings to a file of the test's."""
    pytest.importorskip("ray")
    report = tmp_path / "spy.txt"
    bots = "\n".join(f'spy{i} = "{SPY} {report}"' for i in range(4))
    path = write_config(tmp_path, BODY.format(bots=bots).replace("rounds = 2", "rounds = 3"))
    env = {
        **os.environ,
        "RAY_AUTH_MODE": "disabled",
        "RAY_USAGE_STATS_ENABLED": "0",
        "CROUPIER_SANDBOX": "none",
    }
    done = tournament(path, "--executor", "ray", "--concurrency", 2, env=env, timeout=600)
    assert done.returncode == 0, done.stderr
    spies = SpyReport.read([report])
    assert len(spies.seatings) == 12 * 4, spies.summary()
    assert not spies.processes_with_two_seatings(), spies.summary()
    assert not spies.leaks, spies.summary()
    assert not spies.early, spies.summary()
    assert not spies.revealed(), spies.summary()
