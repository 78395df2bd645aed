"""run_match on its failure paths: whatever goes wrong after the server starts, the server is
stopped, the bots already launched are stopped and no empty replay is left behind."""

from __future__ import annotations

import asyncio
import os
import socket
import sys
from pathlib import Path

import pytest

from croupier.arbiter import MatchConfig
from croupier.errors import BotLaunchError
from croupier.runner import run_match

pytestmark = pytest.mark.e2e


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _refused(port: int) -> bool:
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) != 0


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return Path(f"/proc/{pid}/stat").read_text().split(")")[1].split()[0] != "Z"


def _waiter(tmp: Path) -> list[str]:
    """A bot that writes its pid and then never connects (it waits to be stopped)."""
    script = tmp / "waiter.py"
    script.write_text(
        "import os, sys, time\n"
        f"open({str(tmp / 'pid')!r}, 'w').write(str(os.getpid()))\n"
        "time.sleep(60)\n"
    )
    return [sys.executable, str(script)]


def test_a_bot_that_cannot_start_stops_the_server_and_the_other_bots(tmp_path: Path) -> None:
    broken = tmp_path / "broken"
    broken.write_bytes(b"\x7fELF not really\n")
    broken.chmod(0o755)
    port = _free_port()
    config = MatchConfig("as-nas", {"deals": 1}, seed=1, connect_timeout_s=30)
    bots = [_waiter(tmp_path), [str(broken)], _waiter(tmp_path), _waiter(tmp_path)]
    out = tmp_path / "out"

    async def go() -> None:
        await run_match(config, bots, out, listen=f"127.0.0.1:{port}")

    with pytest.raises(BotLaunchError):
        asyncio.run(go())
    assert _refused(port), "the server still listens"
    pid = int((tmp_path / "pid").read_text())
    assert not _alive(pid), "the bot launched before the failure outlived it"
    assert list(out.glob("*.jsonl")) == [], "an empty replay was left behind"


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
