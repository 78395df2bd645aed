"""A session bot a tournament launched does not outlive its arbiter: the SDKs dial a broken
session again for minutes by default (a registered bot of a competition server comes back by
itself), but the launcher gives its bots ``CROUPIER_SESSION_RECONNECT_S=0``. Here the sandbox is
off (``CROUPIER_SANDBOX=none``: no bubblewrap ``--die-with-parent`` to take the bots down with
it), ``croupier tournament`` is SIGKILLed while its session bots play, and every one of them
exits within seconds. (Three things see to it: that variable, the supervisor of
``croupier.transport._confine`` reading its lifeline, and the bot's stderr being a pipe to the
dead arbiter's log writer; only taking away all three makes a bot linger.)"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from e2e_kit import alive

pytestmark = pytest.mark.e2e

BOT = f"{sys.executable} -m croupier_bots.random_bot"


def _descendants(pid: int) -> set[int]:
    out: set[int] = set()
    todo = [pid]
    while todo:
        parent = todo.pop()
        for task in Path(f"/proc/{parent}/task").glob("*"):
            try:
                children = (task / "children").read_text().split()
            except OSError:
                continue
            for child in map(int, children):
                if child not in out:
                    out.add(child)
                    todo.append(child)
    return out


def _bots(pid: int) -> set[int]:
    found = set()
    for child in _descendants(pid):
        try:
            cmdline = Path(f"/proc/{child}/cmdline").read_bytes()
        except OSError:
            continue
        if cmdline.split(b"\0")[1:3] == [b"-m", b"croupier_bots.random_bot"]:  # (not _confine's)
            found.add(child)
    return found


def test_launched_session_bots_exit_when_their_tournament_is_killed(tmp_path: Path) -> None:
    config = tmp_path / "t.toml"
    bots = "".join(f'b{i} = "{BOT}"\n' for i in range(4))
    config.write_text(f'game = "as-nas"\nseed = 1\nrounds = 50\nconcurrency = 1\n[bots]\n{bots}')
    log = (tmp_path / "tournament.log").open("wb")
    proc = subprocess.Popen(
        [sys.executable, "-m", "croupier", "tournament", str(config)],
        stdout=log,
        stderr=log,
        cwd=tmp_path,
        env={**os.environ, "CROUPIER_SANDBOX": "none"},
    )
    try:
        deadline = time.monotonic() + 60
        # every bot in a session: a match has finished, another is under way
        while len(pids := _bots(proc.pid)) < 4 or len(list(tmp_path.rglob("*.jsonl"))) < 2:
            assert proc.poll() is None, (tmp_path / "tournament.log").read_text()[-2000:]
            assert time.monotonic() < deadline, "the tournament never got its four bots playing"
            time.sleep(0.1)
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
        deadline = time.monotonic() + 15
        while any(alive(p) for p in pids) and time.monotonic() < deadline:
            time.sleep(0.1)
        lingering = [p for p in pids if alive(p)]
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        log.close()
    for pid in lingering:
        os.kill(pid, signal.SIGKILL)
    assert lingering == [], "launched bots outlived their arbiter"
