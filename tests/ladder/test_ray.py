"""End to end on a real Ray cluster started here: a head and a second node (``ray start``), a
tournament on ``--executor ray``, and the second node SIGKILLed mid-run. Its matches are played
again elsewhere; none is lost or counted twice: the store ends with every match once, with the
same results as the local executor gives.

Skipped when Ray (the ``croupier[ray]`` extra) is not installed; ``tests/run`` installs it.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
from ladder_kit import CROUPIER, stored_seats, tournament, write_config

pytest.importorskip("ray")

pytestmark = [pytest.mark.slow, pytest.mark.e2e]

RAY = str(Path(sys.executable).parent / "ray")
ENV = {
    **os.environ,
    "RAY_AUTH_MODE": "disabled",
    "RAY_USAGE_STATS_ENABLED": "0",
    # the test bots count their starts in one shared file, which a sandbox would not let them
    # write: the sandbox has tests of its own (tests/e2e/test_attacks.py)
    "CROUPIER_SANDBOX": "none",
}
SLOW_BOT = Path(__file__).parent / "bots" / "slow_random.py"


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _start(*args: str) -> int:
    """``ray start ARGS`` in a session of its own, whose id is returned: the node's daemons and
    workers stay in it, so killing the session kills the node."""
    proc = subprocess.Popen(
        [RAY, "start", "--disable-usage-stats", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=ENV,
        start_new_session=True,
    )
    out, _ = proc.communicate(timeout=120)
    assert proc.returncode == 0, out
    return proc.pid


def _kill_session(sid: int) -> None:
    """SIGKILL every process of session ``sid``: a node's daemons and its workers (each worker
    has a process group of its own, but stays in the session ``ray start`` began)."""
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[3]) == sid:
            with contextlib.suppress(ProcessLookupError):
                os.kill(int(stat.parent.name), signal.SIGKILL)


def _kill_bots_of(folder: Path) -> None:
    """The killed node's bots outlive their worker until their stream or dial times out: end
    them (they are the processes whose command line names this test's folder)."""
    for cmdline in Path("/proc").glob("[0-9]*/cmdline"):
        try:
            if str(folder).encode() in cmdline.read_bytes():
                os.kill(int(cmdline.parent.name), signal.SIGKILL)
        except (OSError, ValueError):
            continue


@pytest.fixture
def cluster() -> Iterator[tuple[str, int]]:
    """A head (1 CPU) and a second node (2 CPUs) on this machine: (address, node 2's group)."""
    temp = tempfile.mkdtemp(prefix="cr-ray-", dir="/tmp")  # short: Ray's socket paths
    port = _port()
    common = ["--node-ip-address=127.0.0.1", f"--dashboard-agent-listen-port={_port()}"]
    groups = [
        _start(
            "--head",
            f"--port={port}",
            "--num-cpus=1",
            "--include-dashboard=false",
            f"--ray-client-server-port={_port()}",
            f"--temp-dir={temp}",
            *common,
        )
    ]
    try:
        groups.append(
            _start(
                f"--address=127.0.0.1:{port}",
                "--num-cpus=2",
                f"--node-manager-port={_port()}",
                *common,
            )
        )
        yield f"127.0.0.1:{port}", groups[1]
    finally:
        for sid in groups:
            _kill_session(sid)
        subprocess.run(["rm", "-rf", temp], check=False)


def _config(folder: Path, starts: Path) -> Path:
    bot = f"{sys.executable} {SLOW_BOT} --delay-s 0.04 --starts {starts}"
    body = f"""
game = "as-nas"
seed = 21
rounds = 4
[params]
deals = 2
[clock]
connect_timeout_s = 60
[bots]
a = "{bot}"
b = "{bot}"
c = "{bot}"
d = "{bot}"
"""
    return write_config(folder, body)


def _stored(store: Path) -> int:
    if not store.exists():
        return 0
    with contextlib.closing(sqlite3.connect(store)) as conn:
        try:
            (n,) = conn.execute("SELECT count(*) FROM matches").fetchone()
        except sqlite3.OperationalError:
            return 0
    return int(n)


def _in_flight(starts: Path, store: Path) -> int:
    started = set(starts.read_text().split()) if starts.exists() else set()
    return len(started) - _stored(store)


def test_a_node_killed_mid_run_loses_no_match_and_counts_none_twice(
    tmp_path: Path, cluster: tuple[str, int]
) -> None:
    address, second = cluster
    local = _config(tmp_path / "local", tmp_path / "local-starts")
    done = tournament(local, "--concurrency", 2, env=ENV)
    assert done.returncode == 0, done.stderr

    starts = tmp_path / "ray-starts"
    config = _config(tmp_path / "ray", starts)
    store = config.parent / "t.sqlite"
    proc = subprocess.Popen(
        [
            *CROUPIER,
            "tournament",
            str(config),
            "--executor",
            "ray",
            "--address",
            address,
            "--concurrency",
            "3",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=ENV,
    )
    try:
        # Kill once eight matches are started and not stored: concurrency 3 is one match at
        # once on the head (one CPU), two on the second node (two CPUs); their first batches
        # are 6 and 7 of the 16 matches, so at least two of the eight are on the second node.
        deadline = time.monotonic() + 120
        while _in_flight(starts, store) < 8 and time.monotonic() < deadline:
            assert proc.poll() is None, proc.communicate()
            time.sleep(0.1)
        assert proc.poll() is None, proc.communicate()
        killed_at = _stored(store)
        _kill_session(second)
        out, err = proc.communicate(timeout=300)
    finally:
        if proc.poll() is None:
            proc.kill()
        _kill_bots_of(tmp_path)
    assert proc.returncode == 0, err
    assert killed_at < 16
    assert "t: 16/16 matches" in out

    # nothing lost, nothing twice
    assert stored_seats(store) == stored_seats(local.parent / "t.sqlite")
    started = Counter(starts.read_text().split())
    assert set(started) == {m for (m, *_rest) in stored_seats(store)}
    replayed = [m for m, n in started.items() if n > 4]  # four bots per start
    assert replayed, "no match was in flight on the killed node"


def test_each_node_starts_a_bot_once_for_the_whole_run(
    tmp_path: Path, cluster: tuple[str, int]
) -> None:
    """Many batches, two nodes: each node's actor keeps its bot pool for the run, so each bot
    starts once per node and lane (2 nodes x 4 bots x 4 lanes at most), not once per batch
    (a task per batch started 16 for each of its 7 batches here)."""
    address, _ = cluster
    body = """
game = "as-nas"
seed = 5
rounds = 10
[params]
deals = 1
[bots]
a = "random"
b = "random"
c = "random"
d = "random"
"""
    config = write_config(tmp_path, body)
    done = tournament(
        config, "--executor", "ray", "--address", address, "--concurrency", 3, env=ENV
    )
    assert done.returncode == 0, done.stderr
    assert "t: 40/40 matches" in done.stdout
    started = int(done.stdout.split("bot processes: ")[1].split()[0])
    assert started <= 2 * 4 * 4, done.stdout
