"""What a bot's sandbox costs to start: each isolation this machine offers against no sandbox at
all, measured in the same run (issue 19).

``start``: a launched program that does nothing (``python -I -S -c pass``) from the launch to
its exit, through the launcher (supervisor, control group, sandbox), median of ``--repeats``
launches per mode: ``none`` without a control group (the baseline), ``none`` with one, then
``unshare`` (util-linux, as root) and ``bwrap`` where they run. ``match``: a one-deal As-Nas
match of four launched random bots (Python SDK), wall time, median, per mode, against ``none``.

    .venv/bin/python bench/sandbox.py              # both (about a minute)
    .venv/bin/python bench/sandbox.py start --repeats 30
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from _kit import run_benches

from croupier.arbiter import ClockRules, MatchConfig
from croupier.runner import run_match
from croupier.transport import SandboxMode, SandboxOptions, _cgroups, spawn
from croupier.transport._sandbox import bwrap_problem, unshare_problem

RANDOM = [sys.executable, "-m", "croupier_bots.random_bot"]


def _modes() -> list[SandboxMode]:
    modes = []
    if not unshare_problem():
        modes.append(SandboxMode.UNSHARE)
    if not bwrap_problem():
        modes.append(SandboxMode.BWRAP)
    return modes


def _without_groups() -> Callable[[], None]:
    """Launch without control groups until the returned function is called."""
    real = _cgroups.machine_setup
    _cgroups.machine_setup = lambda: _cgroups.CgroupSetup((), "off")  # type: ignore[method-assign]

    def restore() -> None:
        _cgroups.machine_setup = real  # type: ignore[method-assign]

    return restore


async def _start_once(mode: SandboxMode, log: Path) -> float:
    began = time.perf_counter()
    spawned = await spawn([sys.executable, "-I", "-S", "-c", "pass"], {}, log, SandboxOptions(mode))
    await spawned.process.wait()  # (nothing else holds its output: exact, unlike exited())
    took = time.perf_counter() - began
    await spawned.stop()
    return took


def _median_start(mode: SandboxMode, repeats: int, groups: bool) -> float:
    restore = None if groups else _without_groups()
    try:
        with tempfile.TemporaryDirectory() as tmp:
            log = Path(tmp) / "bot.log"
            asyncio.run(_start_once(mode, log))  # warm-up (the probes run once)
            return statistics.median(
                asyncio.run(_start_once(mode, log)) for _ in range(max(repeats, 5))
            )
    finally:
        if restore is not None:
            restore()


def bench_start(repeats: int) -> dict[str, float]:
    base = _median_start(SandboxMode.NONE, repeats * 5, groups=False)
    out = {"none_no_cgroup_ms": base * 1000}
    grouped = _median_start(SandboxMode.NONE, repeats * 5, groups=True)
    out["none_cgroup_ms"] = grouped * 1000
    out["none_cgroup_ratio"] = grouped / base
    for mode in _modes():
        took = _median_start(mode, repeats * 5, groups=True)
        out[f"{mode.value}_ms"] = took * 1000
        out[f"{mode.value}_ratio"] = took / base
    return out


def _match_s(mode: SandboxMode) -> float:
    config = MatchConfig("as-nas", {"deals": 1}, seed=1, clock=ClockRules(5000, 10000))
    with tempfile.TemporaryDirectory() as tmp:
        began = time.perf_counter()
        asyncio.run(run_match(config, [RANDOM] * 4, Path(tmp), sandbox=SandboxOptions(mode)))
        return time.perf_counter() - began


def bench_match(repeats: int) -> dict[str, float]:
    _match_s(SandboxMode.NONE)  # warm-up
    base = statistics.median(_match_s(SandboxMode.NONE) for _ in range(repeats))
    out = {"none_s": base}
    for mode in _modes():
        took = statistics.median(_match_s(mode) for _ in range(repeats))
        out[f"{mode.value}_s"] = took
        out[f"{mode.value}_ratio"] = took / base
    return out


if __name__ == "__main__":
    run_benches(__doc__ or "", {"start": bench_start, "match": bench_match})
