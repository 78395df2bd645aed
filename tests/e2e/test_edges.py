"""Edges a user or a hostile peer can reach, each ending in one line and a documented status,
never a traceback: a taken port, a bad --listen, a full disk, an arbiter killed while bots are
still starting."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from e2e_kit import BOTS_DIR, CROUPIER, croupier, live_processes

from croupier.replay import read_replay
from croupier.transport import ArbiterServer, bwrap_problem

pytestmark = pytest.mark.e2e
needs_bwrap = pytest.mark.skipif(bool(bwrap_problem()), reason=f"no sandbox: {bwrap_problem()}")


def test_a_port_another_arbiter_holds_is_one_error(tmp_path: Path) -> None:
    async def main() -> subprocess.CompletedProcess[str]:
        other = ArbiterServer("127.0.0.1:0")
        address = await other.start()
        try:
            return await asyncio.to_thread(
                croupier, "match", "--game", "as-nas", "--listen", address, "--out", tmp_path
            )
        finally:
            await other.stop()

    done = asyncio.run(main())
    assert done.returncode == 2
    assert done.stderr.splitlines()[1:] == [  # after the "As-Nas ...: 4 seats" line
        f"croupier: error: cannot listen on {done.args[-3]}: the address is taken or not this "
        "machine's"
    ]
    assert not list(tmp_path.iterdir())  # no replay, no log


@pytest.mark.parametrize("listen", ["127.0.0.1:99999", "127.0.0.1:-1", "nohost", ":5000"])
def test_a_bad_listen_address_is_one_error(tmp_path: Path, listen: str) -> None:
    done = croupier("match", "--game", "as-nas", "--listen", listen, "--out", tmp_path)
    assert done.returncode == 2
    assert done.stderr.splitlines()[-1].startswith("croupier match: error: argument --listen")


@needs_bwrap
def test_a_full_disk_stops_the_match_in_one_line(
    tmp_path: Path,
) -> None:
    """The match directory is a 16 KiB tmpfs (made by bubblewrap around the arbiter)."""
    out = tmp_path / "out"
    out.mkdir()
    done = subprocess.run(
        ["bwrap", "--dev-bind", "/", "/", "--size", "16384", "--tmpfs", str(out), "--",
         *CROUPIER, "match", "--game", "as-nas", "--seed", "1", "--out", str(out)],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 2, done.stderr
    lines = done.stderr.splitlines()
    assert "Traceback" not in done.stderr
    assert lines[-1].startswith("croupier: error: cannot write replay ")
    assert lines[-1].endswith(": No space left on device")


@needs_bwrap
def test_bots_still_starting_die_with_a_killed_arbiter(tmp_path: Path) -> None:
    """SIGKILL to the arbiter while its bots have not connected: none outlives it by 2 s."""
    marker = f"croupier-orphan-{os.getpid()}-{tmp_path.name}"
    bot = f"{sys.executable} {BOTS_DIR / 'never_connects.py'} --sleep-s 60 {marker}"
    arbiter = subprocess.Popen(
        [*CROUPIER, "match", "--game", "as-nas", "--out", str(tmp_path / "out"),
         *["--bot", bot] * 4],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 20
        while len(live_processes(marker)) < 4:
            assert time.monotonic() < deadline
            time.sleep(0.05)
        arbiter.send_signal(signal.SIGKILL)
        arbiter.wait()
        assert live_processes(marker, wait_s=2) == []
    finally:
        for pid in live_processes(marker):
            os.kill(pid, signal.SIGKILL)


@pytest.mark.parametrize("delay_s", [0.3, 0.8, 1.5])
def test_ctrl_c_at_startup_or_while_seats_join_is_no_traceback(
    tmp_path: Path, delay_s: float
) -> None:
    """SIGINT while the command imports, probes the sandbox, launches bots or waits for them to
    join (they never do): the run ends with the cancelled status and no traceback. The command
    starts with SIGINT ignored, as one started in the background by a non-interactive shell (CI)
    does: it must take Ctrl-C all the same."""
    bot = f"{sys.executable} {BOTS_DIR / 'never_connects.py'} --sleep-s 60"
    proc = subprocess.Popen(
        [*CROUPIER, "match", "--game", "as-nas", "--out", str(tmp_path / "out"),
         *["--bot", bot] * 4],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN),
    )  # fmt: skip
    try:
        time.sleep(delay_s)
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=30)
    finally:
        proc.kill()
    assert "Traceback" not in err, err
    assert proc.returncode == 3, err
    for replay in (tmp_path / "out").glob("*.jsonl"):
        assert read_replay(replay, tolerate_truncated_tail=True).header
