"""End to end: a tournament SIGKILLed at random moments and resumed gives the same standings as
one run without interruption (same seeds), and leaves no bot process behind (its bots, kept up
in sessions, die with it). ``bench/ladder.py resume`` does 20 runs of a 200-match tournament;
this test does three kills of a 48-match one (with its bots kept up in sessions, a 2-deal match
takes well under 0.2 s here)."""

from __future__ import annotations

import contextlib
import os
import signal
import sqlite3
import subprocess
import time
from pathlib import Path

import numpy as np
import pytest
from ladder_kit import (
    CROUPIER,
    children,
    standings_json,
    stored_seats,
    tournament,
    write_config,
)

pytestmark = pytest.mark.e2e

BODY = """
game = "as-nas"
seed = 9
rounds = 12
[params]
deals = 2
[clock]
move_ms = 5000
connect_timeout_s = 60
[bots]
a = "random"
b = "as-nas-heuristic"
c = "random"
d = "random"
"""


def _alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie, exited but not yet reaped, does not count)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def _stored(store: Path) -> int:
    """Matches in the store so far (0 while it or its schema is not there yet)."""
    if not store.exists():
        return 0
    try:
        return len(stored_seats(store)) // 4
    except sqlite3.OperationalError:
        return 0


def test_killed_and_resumed_gives_the_same_standings(tmp_path: Path) -> None:
    reference = write_config(tmp_path / "ref", BODY)
    done = tournament(reference, "--concurrency", 2)
    assert done.returncode == 0, done.stderr

    killed = write_config(tmp_path / "killed", BODY)
    rng = np.random.default_rng()
    finished_after_kill = []
    orphans: list[int] = []
    for kill in range(3):
        proc = subprocess.Popen(
            [*CROUPIER, "tournament", str(killed), "--concurrency", "2"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        # A random moment while the run plays: a few matches (0-4) after those already stored,
        # then up to 80 ms on (between matches, or in the middle of one). Waiting for stored
        # matches rather than a time keeps the kill before the end however fast matches go.
        store = killed.parent / "t.sqlite"
        target = _stored(store) + int(rng.integers(0, 5))
        deadline = time.monotonic() + 60
        # (its store too: the sandbox is probed, in a child, before the store is opened)
        while time.monotonic() < deadline and (
            _stored(store) < target or not children(proc.pid) or not store.exists()
        ):
            assert proc.poll() is None, "the run ended before it could be killed"
            time.sleep(0.01)
        time.sleep(float(rng.uniform(0, 0.08)))
        if kill == 0:  # the standings can be read while the tournament runs (held still
            proc.send_signal(signal.SIGSTOP)  # meanwhile: matches take milliseconds here)
            try:
                assert standings_json(store)["total"] == 48
            finally:
                proc.send_signal(signal.SIGCONT)
        assert proc.poll() is None, "the run ended before it could be killed"
        bots = children(proc.pid)
        orphans += bots
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        finished_after_kill.append(_stored(store))
    assert finished_after_kill[-1] < 48, "every match finished before the last kill"
    assert orphans, "no bot was running at any kill"
    deadline = time.monotonic() + 2.0  # the kernel ends them (launch_bot's parent-death signal)
    while any(_alive(pid) for pid in orphans) and time.monotonic() < deadline:
        time.sleep(0.05)
    left = [pid for pid in orphans if _alive(pid)]
    for pid in left:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    assert not left, f"bots of a killed tournament outlived it by 2 s: {left}"
    resumed = tournament(killed, "--concurrency", 2)
    assert resumed.returncode == 0, resumed.stderr
    assert f"{finished_after_kill[-1]} already finished" in resumed.stderr

    assert stored_seats(killed.parent / "t.sqlite") == stored_seats(reference.parent / "t.sqlite")
    ref, got = (standings_json(p.parent / "t.sqlite") for p in (reference, killed))
    assert got["bots"] == ref["bots"]
    assert got["pairs"] == ref["pairs"]
    assert got["finished"] == 48
