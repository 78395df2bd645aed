"""The arbiter's unix-socket folder: a server removes its own when it stops, and the folder an
arbiter killed with SIGKILL left behind is removed by the next server that starts, never the
folder of a live arbiter, of another user, or one whose socket still answers; the sweep of one
prefix leaves another's (a Ray actor's match folders)."""

from __future__ import annotations

import asyncio
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from croupier._owned_dirs import sweep_owned_dirs
from croupier.ladder._ray import TMP_PREFIX
from croupier.transport import ArbiterServer
from croupier.transport._socket_dir import PREFIX, SOCKET_NAME, answers

#: A server that says where its socket is, then waits to be killed.
_SERVE = """
import asyncio
from croupier.transport import ArbiterServer

async def main():
    server = ArbiterServer()
    await server.start()
    print(server.unix_socket, flush=True)
    await asyncio.sleep(600)

asyncio.run(main())
"""


def _start_server(tmp: Path) -> tuple[subprocess.Popen[str], Path]:
    env = {**os.environ, "TMPDIR": str(tmp)}
    proc = subprocess.Popen(
        [sys.executable, "-c", _SERVE], stdout=subprocess.PIPE, text=True, env=env
    )
    assert proc.stdout is not None
    line = proc.stdout.readline().strip()
    assert line, "the server printed no socket"
    return proc, Path(line).parent


def _gone_pid() -> int:
    """The id of a process that has exited and been reaped."""
    proc = subprocess.Popen(["true"])
    proc.wait()
    return proc.pid


@pytest.fixture
def tmp(monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A temporary directory of the servers' own (short: a unix socket's path has 107 bytes)."""
    own = Path(tempfile.mkdtemp(prefix="sockets-"))
    monkeypatch.setattr(tempfile, "tempdir", str(own))
    try:
        yield own
    finally:
        shutil.rmtree(own, ignore_errors=True)


def test_a_killed_arbiters_folder_is_swept_by_the_next_and_a_live_ones_kept(tmp: Path) -> None:
    killed, killed_dir = _start_server(tmp)
    live, live_dir = _start_server(tmp)
    try:
        assert killed_dir.name.startswith(f"{PREFIX}{killed.pid}-")
        killed.send_signal(signal.SIGKILL)
        killed.wait(30)
        assert (killed_dir / SOCKET_NAME).exists()  # a killed arbiter cannot remove its own

        async def one_server() -> tuple[Path, bool]:
            server = ArbiterServer()
            await server.start()
            assert server.unix_socket is not None
            mine = server.unix_socket.parent
            try:
                return mine, mine.is_dir()
            finally:
                await server.stop(0)

        mine, existed = asyncio.run(one_server())
        assert existed
        assert not mine.exists()  # its own, removed when it stopped
        assert not killed_dir.exists()  # the killed one's, swept when the next started
        assert (live_dir / SOCKET_NAME).exists()  # the live one's, kept
    finally:
        for proc in (killed, live):
            proc.kill()
            proc.wait(30)


def test_the_sweep_keeps_what_is_not_a_gone_arbiters_of_this_user(tmp: Path) -> None:
    gone = _gone_pid()
    answering = tmp / f"{PREFIX}{gone}-answers"  # another PID namespace's live arbiter
    answering.mkdir()
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(str(answering / SOCKET_NAME))
    listener.listen()
    others = tmp / f"{PREFIX}{gone}-others"  # another user's
    others.mkdir()
    if os.getuid() != 0:
        pytest.skip("giving a folder to another user needs root")
    os.chown(others, 12345, -1)
    older = tmp / "croupier-abcdefgh"  # the name before the process id: left alone
    older.mkdir()
    starting = tmp / f"{PREFIX}{os.getpid()}-starting"  # a live arbiter's, socket not bound yet
    starting.mkdir()
    stale = tmp / f"{PREFIX}{gone}-stale"
    stale.mkdir()
    (stale / SOCKET_NAME).touch()
    actors = tmp / f"{TMP_PREFIX}{gone}-actor"  # a killed Ray actor's: another prefix
    (actors / "logs").mkdir(parents=True)
    try:
        assert sweep_owned_dirs(PREFIX, answers, tmp) == 1
    finally:
        listener.close()
    assert not stale.exists()
    assert actors.is_dir()
    assert sweep_owned_dirs(TMP_PREFIX, root=tmp) == 1
    assert not actors.exists()
    assert answering.is_dir()
    assert starting.is_dir()
    assert others.is_dir()
    assert older.is_dir()
