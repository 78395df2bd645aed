"""The local executor on several worker processes (``--workers N``), end to end: real
``croupier tournament`` runs, real worker processes, real bot processes. Every match is stored
once with the results one arbiter gives; a worker SIGKILLed mid-run loses no match (its matches
are played again by a worker started in its place); a cancelled run and a SIGKILLed driver
leave no worker and no bot behind; what cannot work with workers is refused in one line."""

from __future__ import annotations

import contextlib
import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest
from ladder_kit import CROUPIER, stored_seats, tournament, write_config

from croupier.ladder._workers import worker_shares

pytestmark = [pytest.mark.e2e]

SLOW_BOT = Path(__file__).parent / "bots" / "slow_random.py"
# the test bots count their starts in one shared file, which a sandbox would not let them
# write: the sandbox has tests of its own (tests/e2e/test_attacks.py)
ENV = {**os.environ, "CROUPIER_SANDBOX": "none"}
WORKER = b"croupier.ladder._workers"


def _config(
    folder: Path, starts: Path, delay_s: float = 0.0, rounds: int = 4, deals: int = 2
) -> Path:
    bot = f"{sys.executable} {SLOW_BOT} --delay-s {delay_s} --starts {starts}"
    body = f"""
game = "as-nas"
seed = 21
rounds = {rounds}
action_terms = false
[params]
deals = {deals}
[clock]
connect_timeout_s = 60
[bots]
a = "{bot}"
b = "{bot}"
c = "{bot}"
d = "{bot}"
"""
    return write_config(folder, body)


def _processes(marker: bytes) -> list[int]:
    """The live processes whose command line holds ``marker``."""
    out = []
    for cmdline in Path("/proc").glob("[0-9]*/cmdline"):
        try:
            if marker in cmdline.read_bytes():
                stat = (cmdline.parent / "stat").read_text().rsplit(")", 1)[1].split()
                if stat[0] != "Z":
                    out.append(int(cmdline.parent.name))
        except (OSError, ValueError):
            continue
    return out


def _gone(marker: bytes, within_s: float = 30.0) -> bool:
    deadline = time.monotonic() + within_s
    while _processes(marker):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.1)
    return True


def _workers_of(pid: int) -> list[int]:
    return [
        p
        for p in _processes(WORKER)
        if int(Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()[1]) == pid
    ]


def test_shares_split_the_concurrency() -> None:
    assert worker_shares(2, 2) == [1, 1]
    assert worker_shares(2, 5) == [3, 2]
    assert worker_shares(4, 2) == [1, 1]  # no more workers than matches at once
    assert worker_shares(3, 7) == [3, 2, 2]


@pytest.fixture(scope="module")
def one_process(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The store of the same tournament played in one process (no workers), run once: what the
    runs on workers must store."""
    folder = tmp_path_factory.mktemp("one")
    one = _config(folder / "one", folder / "one-starts")
    done = tournament(one, "--concurrency", 2, env=ENV)
    assert done.returncode == 0, done.stderr
    return one.parent / "t.sqlite"


def test_workers_store_every_match_once_with_one_arbiters_results(
    tmp_path: Path, one_process: Path
) -> None:
    """Each worker plays two matches at once (concurrency 4, two workers). (Its first two then
    each started a server and a pool of their own: the matches of the first were handed to the
    bots of the second, and every seat of them was a no-show. The other tests here play one
    match a worker.)"""
    starts = tmp_path / "w-starts"
    config = _config(tmp_path / "w", starts)
    done = tournament(config, "--concurrency", 4, "--workers", 2, env=ENV)
    assert done.returncode == 0, done.stderr
    assert "t: 16/16 matches" in done.stdout
    store = config.parent / "t.sqlite"
    assert stored_seats(store) == stored_seats(one_process)
    started = Counter(starts.read_text().split())
    assert set(started.values()) == {4}  # each match started once, by its four seats
    conn = sqlite3.connect(store)
    try:
        workers = {w for (w,) in conn.execute("SELECT worker FROM matches")}
    finally:
        conn.close()
    assert len(workers) == 2, workers
    assert all("#w" in w for w in workers), workers
    # each worker's bots log in a folder of its own
    logs = sorted(p.name for p in (config.parent / "t-matches" / "logs").glob("run-*/worker-*"))
    assert logs == ["worker-0", "worker-1"]


def test_a_worker_killed_mid_run_loses_no_match_and_counts_none_twice(
    tmp_path: Path, one_process: Path
) -> None:
    starts = tmp_path / "w-starts"
    config = _config(tmp_path / "w", starts, delay_s=0.03)
    store = config.parent / "t.sqlite"
    proc = subprocess.Popen(
        [*CROUPIER, "tournament", str(config), "--concurrency", "2", "--workers", "2"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=ENV,
    )
    try:
        # SIGKILL a worker mid-run (4 matches started) while both play a match: two started
        # and not stored (killed between two matches, a worker once had none in flight)
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            assert proc.poll() is None, proc.communicate()
            played = Counter(starts.read_text().split()) if starts.exists() else Counter()
            if len(played) >= 4 and store.exists():
                stored = {m for (m, *_rest) in stored_seats(store)}
                if len(set(played) - stored) >= 2:
                    break
            time.sleep(0.02)
        victims = _workers_of(proc.pid)
        assert len(victims) == 2, victims
        os.kill(victims[0], signal.SIGKILL)
        out, err = proc.communicate(timeout=300)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, err
    assert "t: 16/16 matches" in out
    assert "worker_lost" in err
    assert stored_seats(store) == stored_seats(one_process)
    started = Counter(starts.read_text().split())
    assert set(started) == {m for (m, *_rest) in stored_seats(store)}
    assert any(n > 4 for n in started.values()), "no match was in flight on the killed worker"
    assert _gone(str(tmp_path).encode()), "a bot of the killed worker outlived it"


@pytest.mark.parametrize("how", ["sigint", "sigint-stopped-worker", "sigkill"])
def test_a_cancelled_or_killed_driver_leaves_no_worker_and_no_bot(tmp_path: Path, how: str) -> None:
    starts = tmp_path / "starts"
    # matches of many minutes: a worker that let its matches end would outlive the bound
    config = _config(tmp_path / "w", starts, delay_s=0.05, rounds=20, deals=1000)
    proc = subprocess.Popen(
        [*CROUPIER, "tournament", str(config), "--concurrency", "2", "--workers", "2"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=ENV,
    )
    workers: list[int] = []
    try:
        deadline = time.monotonic() + 120
        while not (starts.exists() and len(set(starts.read_text().split())) >= 2):
            assert proc.poll() is None, proc.communicate()
            assert time.monotonic() < deadline
            time.sleep(0.05)
        workers = _workers_of(proc.pid)
        assert len(workers) == 2
        if how == "sigint-stopped-worker":  # continued by the driver, not waited for 30 s
            os.kill(workers[0], signal.SIGSTOP)
        signalled = time.monotonic()
        proc.send_signal(signal.SIGKILL if how == "sigkill" else signal.SIGINT)
        # (the workers share the driver's output: it ends when the last of them is gone)
        _, err = proc.communicate(timeout=60)
        assert time.monotonic() - signalled < 20, "the matches were played on, or waited for"
    finally:
        if proc.poll() is None:
            proc.kill()
    try:
        if how != "sigkill":
            assert proc.returncode == 130, err  # interrupted: finished matches kept
            assert "Traceback" not in err
        # the workers cancel the matches they hold (nobody would store them) rather than play on
        deadline = time.monotonic() + 20
        while set(workers) & set(_processes(WORKER)) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not set(workers) & set(_processes(WORKER)), "a worker outlived its driver"
        assert _gone(str(tmp_path).encode(), within_s=10), "a bot outlived the run"
    finally:  # (a failure leaves no worker playing its 1000-deal matches on; its bots follow)
        for pid in set(workers) & set(_processes(WORKER)):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)


def test_workers_refuse_remote_bots_in_one_line(tmp_path: Path) -> None:
    body = """
game = "as-nas"
rounds = 1
[format]
duplicate = false
[bots]
a = "random"
b = "random"
c = "random"
far = "remote"
"""
    config = write_config(tmp_path, body)
    done = tournament(config, "--workers", 2, env=ENV)
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert lines[-1].startswith("croupier: error: "), lines
    assert "workers = 2" in lines[-1], lines
    assert "remote bots (far)" in lines[-1]
    done = tournament(config, "--workers", 0, env=ENV)
    assert done.returncode == 2
    assert "--workers 0: must be at least 1" in done.stderr
