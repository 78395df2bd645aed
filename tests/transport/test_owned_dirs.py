"""The arbiter's unix-socket folder: a server removes its own when it stops, and the folder an
arbiter killed with SIGKILL left behind is removed by the next server that starts, never the
folder of a live arbiter, of another user, one whose socket still answers (even with a full
queue), or one still waiting for its socket; the sweep of one prefix leaves another's (a Ray
actor's match folders), and no name in the temporary directory makes it fail."""

from __future__ import annotations

import asyncio
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from croupier._owned_dirs import sweep_owned_dirs
from croupier.ladder._ray import TMP_PREFIX
from croupier.transport import ArbiterServer
from croupier.transport._socket_dir import BIND_WINDOW_S, PREFIX, SOCKET_NAME, in_use

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
    argv = [sys.executable, "-c", _SERVE]
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, text=True, env=env)
    assert proc.stdout is not None
    line = proc.stdout.readline().strip()
    assert line, "the server printed no socket"
    return proc, Path(line).parent


def _gone_pid() -> int:
    """The id of a process that has exited and been reaped."""
    proc = subprocess.Popen(["true"])
    proc.wait()
    return proc.pid


def _listening(folder: Path, full: bool = False) -> list[socket.socket]:
    """A listener on ``folder``'s socket (an arbiter of another PID namespace), its queue
    filled when ``full``: the sockets to close."""
    folder.mkdir()
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(str(folder / SOCKET_NAME))
    listener.listen(0)
    held = [listener]
    while full and len(held) < 100:
        waiting = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        waiting.setblocking(False)
        held.append(waiting)
        try:
            waiting.connect(str(folder / SOCKET_NAME))
        except BlockingIOError:
            break
    assert not full or len(held) < 100, "the queue never filled"
    return held


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
    gone = _gone_pid()
    held = _listening(tmp / f"{PREFIX}{gone}-answerin")  # another PID namespace's arbiter
    held += _listening(tmp / f"{PREFIX}{gone}-busy_now", full=True)  # ... too busy to accept
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
        assert (tmp / f"{PREFIX}{gone}-answerin" / SOCKET_NAME).exists()  # it answers: kept
        assert (tmp / f"{PREFIX}{gone}-busy_now" / SOCKET_NAME).exists()  # busy: kept
    finally:
        for proc in (killed, live):
            proc.kill()
            proc.wait(30)
        for sock in held:
            sock.close()


def test_the_sweep_removes_only_a_gone_arbiters_folder_of_this_user(tmp: Path) -> None:
    gone = _gone_pid()
    swept = [
        tmp / f"{PREFIX}{gone}-stale_ab",  # its socket refuses
        tmp / f"{PREFIX}{gone}-unbound_",  # no socket, older than the bind window
        tmp / f"{PREFIX}4294967296-abcdefgh",  # an id past the kernel's: gone
    ]
    kept = [
        tmp / f"{PREFIX}{os.getpid()}-stopping",  # a live arbiter's, its socket closed
        tmp / "croupier-abcdefgh",  # the name before the process id: left alone
        tmp / f"{PREFIX}{gone}-backups_2024",  # not mkdtemp's eight characters: a user's
    ]
    actor = tmp / f"{TMP_PREFIX}{gone}-actor_ab"  # a killed Ray actor's: another prefix
    kept.append(actor)
    if os.getuid() == 0:
        kept.append(tmp / f"{PREFIX}{gone}-others__")  # another user's
    for folder in swept + kept:  # each with a refusing socket, made long ago
        folder.mkdir()
        (folder / SOCKET_NAME).touch()
    (swept[1] / SOCKET_NAME).unlink()
    if os.getuid() == 0:
        os.chown(kept[-1], 12345, -1)
    binding = tmp / f"{PREFIX}{gone}-bindingx"  # no socket yet, made just now (another namespace)
    binding.mkdir()
    old = time.time() - BIND_WINDOW_S - 10
    for folder in swept + kept:
        os.utime(folder, (old, old))
    (tmp / f"{PREFIX}2147483648-filexxxx").touch()  # not a folder, an id past C's int

    assert sweep_owned_dirs(PREFIX, in_use, tmp) == 3
    assert [f.name for f in swept if f.exists()] == []
    assert [f.name for f in [*kept, binding] if not f.is_dir()] == []
    assert sweep_owned_dirs(TMP_PREFIX, root=tmp) == 1
    assert not actor.exists()
