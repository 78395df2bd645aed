"""Attacks a launched bot could try on its arbiter and its table, each stopped by the sandbox
(``croupier.transport._sandbox``). The hostile bot is ``tests/e2e/bots/attacker.py``; it reports
what it got in its log, and the tests read that log and the results.

Every test here failed before the sandbox existed (the launched bots shared the arbiter's user,
environment, file system, network and process table).
"""

from __future__ import annotations

import asyncio
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from e2e_kit import BOTS_DIR, CROUPIER, RANDOM, croupier, live_processes, replay_path

from croupier.arbiter import ClockRules, MatchConfig, Outcome
from croupier.replay import read_replay, verify
from croupier.runner import MatchRun, run_match
from croupier.transport import ArbiterServer, bwrap_problem

pytestmark = pytest.mark.e2e
#: The sandbox's own tests; tests/run installs bubblewrap where it can.
needs_bwrap = pytest.mark.skipif(bool(bwrap_problem()), reason=f"no sandbox: {bwrap_problem()}")

ATTACKER = [sys.executable, str(BOTS_DIR / "attacker.py")]
#: Random bots answer in milliseconds; a stopped one would time out at once.
QUICK = ClockRules(move_time_ms=1000, time_bank_ms=0)


def _config(deals: int = 1) -> MatchConfig:
    return MatchConfig("as-nas", {"deals": deals}, seed=5, clock=QUICK, connect_timeout_s=20)


def _log(run: MatchRun, seat: int = 0) -> str:
    return run.logs[seat].read_text(errors="replace")


@needs_bwrap
def test_a_bot_cannot_steal_another_seats_token_nor_see_the_arbiters_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CROUPIER_TEST_SECRET", "hunter2")
    bots = [[*ATTACKER, "--steal-tokens"], RANDOM, RANDOM, RANDOM]
    run = asyncio.run(run_match(_config(2), bots, tmp_path / "out"))
    log = _log(run)
    assert "stolen tokens: 0" in log, log
    assert "seats taken: []" in log, log
    assert "secret: (not set)" in log, log
    for seat in run.result.seats[1:]:
        assert (seat.bot_name, seat.outcome, seat.timeouts) == ("random", Outcome.NORMAL, 0)
    verify(read_replay(run.replay))


@needs_bwrap
def test_a_bot_cannot_find_or_read_the_replay_even_below_its_own_directory(
    tmp_path: Path,
) -> None:
    """The attacker and its helper module are copied to a directory that also holds the match
    directory: the sandbox binds the bot's directory but covers the match directory."""
    home = tmp_path / "bot"
    home.mkdir(mode=0o755)
    for name in ("attacker.py", "_common.py"):
        shutil.copy(BOTS_DIR / name, home / name)
    bots = [[sys.executable, str(home / "attacker.py"), "--read-replays"], RANDOM, RANDOM, RANDOM]
    run = asyncio.run(run_match(_config(), bots, home / "matches"))
    log = _log(run)
    assert "replays read: 0" in log, log
    assert "seed seen: no" in log, log
    assert run.replay.stat().st_mode & 0o777 == 0o600
    assert run.logs[0].stat().st_mode & 0o777 == 0o600


@needs_bwrap
def test_a_bot_reaches_the_arbiter_through_its_socket_only(tmp_path: Path) -> None:
    async def main() -> MatchRun:
        server = ArbiterServer("127.0.0.1:0")
        await server.start()
        try:
            port = server.address.rsplit(":", 1)[1]
            bots = [[*ATTACKER, "--probe-port", port], RANDOM, RANDOM, RANDOM]
            return await run_match(_config(), bots, tmp_path / "out", server=server)
        finally:
            await server.stop()

    run = asyncio.run(main())
    assert "tcp: refused" in _log(run)
    assert all(r.outcome is Outcome.NORMAL for r in run.result.seats)


@needs_bwrap
def test_a_setsid_grandchild_does_not_outlive_the_match(tmp_path: Path) -> None:
    marker = f"croupier-escaper-{os.getpid()}-{tmp_path.name}"
    bot = f"{sys.executable} {BOTS_DIR / 'attacker.py'} --escape {marker}"
    try:
        done = croupier(
            "match", "--game", "as-nas", "--deals", 1, "--seed", 3, "--out", tmp_path / "out",
            "--bot", bot,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        assert "Traceback" not in done.stderr, done.stderr
        assert live_processes(marker, wait_s=3) == []
    finally:
        for pid in live_processes(marker):  # what an old arbiter left behind
            os.kill(pid, signal.SIGKILL)


@needs_bwrap
def test_a_memory_hog_gets_a_memory_error_at_the_limit(tmp_path: Path) -> None:
    bot = f"{sys.executable} {BOTS_DIR / 'attacker.py'} --hog-mib 1024"
    done = croupier(
        "match", "--game", "as-nas", "--deals", 1, "--seed", 3, "--out", tmp_path / "out",
        "--bot", bot, "--bot-memory-mb", 512,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    (log,) = (tmp_path / "out").glob("*.seat0.log")
    assert "hog: MemoryError" in log.read_text()
    assert replay_path(done.stdout).exists()


@needs_bwrap
def test_the_default_memory_limit_stops_an_8_gib_allocation(tmp_path: Path) -> None:
    bots = [[*ATTACKER, "--hog-mib", "8192"], RANDOM, RANDOM, RANDOM]
    run = asyncio.run(run_match(_config(), bots, tmp_path / "out"))
    assert "hog: MemoryError" in _log(run)
    assert run.result.seats[0].outcome is Outcome.NORMAL


def test_without_any_sandbox_one_warning_line_says_what_is_not_isolated(tmp_path: Path) -> None:
    """Neither ``bwrap`` nor ``unshare`` on PATH: one warning line saying what the bots do not
    get, the match still runs, and the standings say the seats were not isolated. As root the
    bots run as uids of their own (Node bots here: this machine's Python may lie out of other
    users' reach); otherwise as this user, with limits only."""
    root = os.geteuid() == 0
    if root:
        from serve_kit import NODE_SDK, node_program

        bot = f"{node_program()} {NODE_SDK / 'examples' / 'random.js'}"
        bots = ["--bot", bot, "--bot", bot, "--bot", bot, "--bot", bot]
    else:
        bot = f"{sys.executable} {BOTS_DIR / 'attacker.py'} --hog-mib 1024"
        bots = ["--bot", bot, "--bot-memory-mb", "512"]
    done = subprocess.run(
        [*CROUPIER, "match", "--game", "as-nas", "--deals", "1",
         "--out", str(tmp_path / "out"), *bots],
        capture_output=True, text=True, timeout=120, env={**os.environ, "PATH": "/nonexistent"},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    warnings = [line for line in done.stderr.splitlines() if "warning" in line]
    if root:
        assert warnings == [
            "croupier: warning: bots are not sandboxed (bubblewrap (bwrap) is not installed; "
            "util-linux unshare is not installed): each runs as a uid of its own without "
            "capabilities, but sees this machine's files (as any user may), processes and "
            "network, and shares its /tmp"
        ]
        note = "a uid of its own only, no namespaces"
    else:
        assert warnings == [
            "croupier: warning: bots are not isolated (bubblewrap (bwrap) is not installed, and "
            "the arbiter does not run as root): they run as this user, so they can read its "
            "files and the other bots' tokens, signal its processes, reach the network and "
            "share /tmp; only resource limits apply"
        ]
        note = "resource limits only"
        (log,) = (tmp_path / "out").glob("*.seat0.log")
        assert "hog: MemoryError" in log.read_text()
    assert f"warning: seats 0, 1, 2, 3 were not isolated: {note}" in done.stdout
    assert "normal" in done.stdout, done.stdout
    assert "crash" not in done.stdout, done.stdout


def test_sandbox_none_is_said_in_the_standings(tmp_path: Path) -> None:
    done = croupier(
        "match", "--game", "as-nas", "--deals", 1, "--seed", 3, "--out", tmp_path / "out",
        "--sandbox", "none",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "warning: seats 0, 1, 2, 3 were not isolated: no sandbox (--sandbox none)" in done.stdout


def test_a_hostile_bot_name_cannot_forge_output(tmp_path: Path) -> None:
    """ESC, OSC, CR, LF and a bidi override in the Hello's name: stripped at Hello (the replay
    keeps the clean name) and nothing printed carries a control character."""
    bot = f"{sys.executable} {BOTS_DIR / 'attacker.py'} --evil-name"
    done = croupier(
        "match", "--game", "as-nas", "--deals", 1, "--seed", 3, "--out", tmp_path / "out",
        "--bot", bot,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    shown = [
        done.stdout,
        croupier("replay", "show", replay_path(done.stdout)).stdout,
        croupier("replay", "summary", replay_path(done.stdout)).stdout,
        croupier("check-bot", bot, "--deals", 1).stdout,
    ]
    for text in shown:
        assert not any(c in text for c in "\x1b\x07\r\u202e"), text
    rows = [line for line in done.stdout.splitlines() if line[:1].isdigit()]
    assert len(rows) == 4
    name = read_replay(replay_path(done.stdout)).header["seats"][0]["bot_name"]
    assert name == "]0;owned[31mevil1      3     forged  99  normal  0  0"[:64]
