"""run_match on its failure paths: whatever goes wrong after the server starts, the server is
stopped, the bots already launched are stopped and no empty replay is left behind."""

from __future__ import annotations

import asyncio
import os
import socket
import sys
from pathlib import Path

import pytest
from e2e_kit import RANDOM, live_processes

from croupier.arbiter import MatchConfig, Outcome
from croupier.errors import BotLaunchError
from croupier.runner import MatchRun, run_match
from croupier.transport import SandboxMode, SandboxOptions

pytestmark = pytest.mark.e2e


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _refused(port: int) -> bool:
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) != 0


def _waiter(tmp: Path, marker: str) -> list[str]:
    """A bot that never connects (it waits to be stopped), with ``marker`` on its command line."""
    script = tmp / "waiter.py"
    script.write_text("import time\ntime.sleep(60)\n")
    return [sys.executable, str(script), marker]


def test_a_bot_that_cannot_start_is_a_no_show_and_nothing_outlives_the_match(
    tmp_path: Path,
) -> None:
    """A program that cannot be executed (a broken ELF) fails inside its sandbox, after the
    launcher has started it: its seat is a no-show, its log says why, and the server and the
    other bots are stopped at the end like those of any match."""
    broken = tmp_path / "broken"
    broken.write_bytes(b"\x7fELF not really\n")
    broken.chmod(0o755)
    port = _free_port()
    marker = f"croupier-waiter-{os.getpid()}-{tmp_path.name}"
    config = MatchConfig("as-nas", {"deals": 1}, seed=1, connect_timeout_s=2)
    waiter = _waiter(tmp_path, marker)
    bots = [waiter, [str(broken)], waiter, waiter]
    out = tmp_path / "out"

    async def go() -> MatchRun:
        return await run_match(config, bots, out, listen=f"127.0.0.1:{port}")

    run = asyncio.run(go())
    assert _refused(port), "the server still listens"
    assert "cannot start the bot" in run.logs[1].read_text()
    assert all(r.outcome is Outcome.DISCONNECTED for r in run.result.seats)
    assert live_processes(marker, wait_s=2) == [], "a launched bot outlived the match"


def test_a_bot_command_that_cannot_be_launched_at_all_is_one_error(tmp_path: Path) -> None:
    """With ``--sandbox bwrap`` where bubblewrap cannot run (no ``bwrap`` on PATH), nothing is
    launched: :class:`BotLaunchError`, the server stopped, no replay left behind."""
    port = _free_port()
    config = MatchConfig("as-nas", {"deals": 1}, seed=1)
    sandbox = SandboxOptions(mode=SandboxMode.BWRAP)
    out = tmp_path / "out"

    async def go() -> None:
        await run_match(config, [RANDOM] * 4, out, listen=f"127.0.0.1:{port}", sandbox=sandbox)

    path = os.environ["PATH"]
    os.environ["PATH"] = "/nonexistent"
    try:
        with pytest.raises(BotLaunchError, match="bubblewrap"):
            asyncio.run(go())
    finally:
        os.environ["PATH"] = path
    assert _refused(port)
    assert list(out.glob("*.jsonl")) == []


def test_a_failing_on_ready_stops_the_server(tmp_path: Path) -> None:
    port = _free_port()
    config = MatchConfig("as-nas", {"deals": 1}, seed=1)

    def on_ready(address: str, match: object) -> None:
        raise RuntimeError("the caller's hook broke")

    async def go() -> None:
        await run_match(config, [None] * 4, tmp_path, listen=f"127.0.0.1:{port}", on_ready=on_ready)

    with pytest.raises(RuntimeError, match="hook broke"):
        asyncio.run(go())
    assert _refused(port)
    assert list(tmp_path.glob("*.jsonl")) == []
