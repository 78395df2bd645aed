"""An arbiter that holds many descriptors (a big tournament, or a hostile bot's connections)
still launches sandboxed bots. The sandbox's supervisor keeps the arbiter's end of its lifeline
under the arbiter's descriptor number; it watched it with ``select``, which refuses a number of
1024 or more, so past 1,024 descriptors every launch died at once ("filedescriptor out of
range in select()", exit 126), and each seat was a no-show (found by an attack: a bot that
opened 1,200 connections to the arbiter's socket made 14 of 16 seats no-shows); an arbiter
started past that number judged the sandbox missing. And the arbiter runs with its hard limit
on descriptors, not a soft default of 1,024."""

from __future__ import annotations

import asyncio
import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest
from e2e_kit import BOTS_DIR, CROUPIER, RANDOM, config

from croupier.arbiter import Outcome
from croupier.runner import MatchRun, run_match
from croupier.transport import Isolation

pytestmark = pytest.mark.e2e

HELD = 1100


def test_sandboxed_bots_launch_from_an_arbiter_holding_over_1024_descriptors(
    tmp_path: Path,
) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    need = HELD + 200
    if hard != resource.RLIM_INFINITY and hard < need:
        pytest.skip(f"this machine's descriptor limit ({hard}) is below {need}")
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, need), hard))
    held = [os.open(os.devnull, os.O_RDONLY) for _ in range(HELD)]
    try:
        assert held[-1] >= 1024
        run = asyncio.run(run_match(config(deals=1), [RANDOM] * 4, tmp_path))
    finally:
        for fd in held:
            os.close(fd)
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    if not {Isolation.BWRAP, Isolation.UNSHARE} & set(run.isolation.values()):
        pytest.skip(f"no sandbox here ({run.isolation}): its supervisor is not used")
    assert [s.outcome for s in run.result.seats] == [Outcome.NORMAL] * 4, run.exits


def test_the_arbiter_raises_its_own_descriptor_limit_to_the_hard_one(tmp_path: Path) -> None:
    """``croupier serve`` (like every command that hosts an arbiter) started with a soft
    limit of 256 runs with its hard limit: a bot's connections cannot exhaust a soft default."""
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)

    def low() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (256, hard))

    proc = subprocess.Popen(
        [*CROUPIER, "serve", "--state-dir", str(tmp_path / "state"), "--bot-listen",
         "127.0.0.1:0", "--control-listen", "127.0.0.1:0"],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, preexec_fn=low,
        env={**os.environ, "CROUPIER_SANDBOX": "none"},
    )  # fmt: skip
    try:
        assert proc.stdout is not None
        assert proc.stdout.readline().startswith("bots: ")  # (up: its limit is set by now)
        limits = Path(f"/proc/{proc.pid}/limits").read_text()
    finally:
        proc.terminate()
        proc.wait(30)
    line = next(x for x in limits.splitlines() if x.startswith("Max open files"))
    soft = line.split()[3]
    expected = "unlimited" if hard == resource.RLIM_INFINITY else str(hard)
    assert soft == expected, line


def _descriptors() -> int:
    return len(os.listdir("/proc/self/fd"))


@pytest.mark.parametrize("burst", [0, 500], ids=["held", "churned"])
def test_a_flooding_bot_locks_no_honest_bot_out_and_holds_few_descriptors(
    tmp_path: Path, burst: int
) -> None:
    """A launched bot that holds 1,100 streams open without a Hello, on the arbiter's socket,
    and up to 200 connections: its three honest opponents, Python SDK bots on ``Play`` (gRPC),
    still join and play. Before gates every launched bot dialled one socket, one peer that no
    limit counted: the flood filled the server's stream cap (1,024, which gRPC enforces before
    the arbiter sees a stream), the honest bots were refused ("Concurrent RPC limit exceeded")
    and were no-shows; and each of its connections held a descriptor of the arbiter's. Now it
    dials a gate of its own, a peer of its own (8 streams before a Hello, 64 on probation) that
    takes 8 connections at once. ``churned``: it also opens 500 more streams on each
    connection every 10 ms, which the arbiter refuses (a refusal costs it far more than the
    bot's frame): with gates alone that still filled the cap and made two of three honest seats
    no-shows; a gate now cuts a connection that opens streams faster than an SDK ever does."""
    flooder = [sys.executable, str(BOTS_DIR / "flooder.py"), "--seconds", "4"]
    flooder += ["--burst", str(burst)]
    peak = [0]

    async def scenario() -> MatchRun:
        async def watch() -> None:
            while True:
                peak[0] = max(peak[0], _descriptors())
                await asyncio.sleep(0.02)

        watcher = asyncio.create_task(watch())
        try:
            return await run_match(
                config(deals=1), [flooder, RANDOM, RANDOM, RANDOM], tmp_path / "out"
            )
        finally:
            watcher.cancel()

    before = _descriptors()
    run = asyncio.run(scenario())
    if not {Isolation.BWRAP, Isolation.UNSHARE} & set(run.isolation.values()):
        pytest.skip(f"no sandbox here ({run.isolation}): the bots are not on the socket")
    log = (tmp_path / "out").glob("*.seat0.log")
    said = next(log).read_text()
    assert "flooder: connections made=" in said, said  # (it did flood)
    outcomes = [s.outcome for s in run.result.seats]
    assert outcomes[1:] == [Outcome.NORMAL] * 3, (outcomes, said)
    assert peak[0] - before < 100, (peak[0], before, said)  # (before: one per connection)
