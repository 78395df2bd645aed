"""Each SDK's end of the session pipe against a stand-in arbiter on a real socket pair (the
Python SDK, the Node SDK, the C++ kit, each as a real bot process): the hello it frames, a
session the arbiter ends, and what it does with frames an arbiter should never send (a length
of gigabytes, bytes that are no SessionResponse): one line and status 2, not a crash."""

from __future__ import annotations

import os
import socket
import subprocess
import sys

import pytest
from serve_kit import node_program
from test_cpp_bot import _bot as cpp_bot
from test_multiplexed import NODE_RANDOM

from croupier.v1 import bot_pb2 as pb

pytestmark = pytest.mark.e2e


def _command(sdk: str) -> list[str]:
    if sdk == "python":
        return [sys.executable, "-m", "croupier_bots.random_bot"]
    if sdk == "node":
        return [node_program(), str(NODE_RANDOM)]
    return [str(cpp_bot())]


def _session(sdk: str, then: bytes) -> tuple[pb.SessionRequest, subprocess.CompletedProcess[str]]:
    """Start the bot with a pipe and no address; read its hello, welcome it, send ``then``,
    hang up; its hello and how it ended."""
    ours, theirs = socket.socketpair()
    env = {k: v for k, v in os.environ.items() if not k.startswith("CROUPIER_")}
    env |= {"CROUPIER_SESSION_FD": str(theirs.fileno()), "CROUPIER_SESSION_TOKEN": "tok",
            "CROUPIER_SESSION_CAPACITY": "2", "CROUPIER_SESSION_RECONNECT_S": "0"}  # fmt: skip
    proc = subprocess.Popen(
        _command(sdk), env=env, pass_fds=(theirs.fileno(),), stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip
    theirs.close()
    with ours:
        ours.settimeout(30)
        size = int.from_bytes(ours.recv(4, socket.MSG_WAITALL), "big")
        hello = pb.SessionRequest.FromString(ours.recv(size, socket.MSG_WAITALL))
        welcome = pb.SessionResponse(welcome=pb.SessionWelcome(session_id="s1", capacity=2))
        data = welcome.SerializeToString()
        ours.sendall(len(data).to_bytes(4, "big") + data + then)
    out, _ = proc.communicate(timeout=60)
    return hello, subprocess.CompletedProcess(proc.args, proc.returncode, out)


@pytest.mark.parametrize("sdk", ["python", "node", "cpp"])
def test_an_sdk_frames_its_hello_and_ends_with_its_pipe(sdk: str) -> None:
    hello, done = _session(sdk, b"")
    assert hello.hello.token == "tok"
    assert hello.hello.protocol_version == 3
    assert hello.hello.capacity == 2
    assert done.returncode == 0, done.stdout
    if sdk != "node":  # (the Node SDK's run() says nothing at a session's end)
        assert "session over" in done.stdout


@pytest.mark.parametrize("sdk", ["python", "node", "cpp"])
@pytest.mark.parametrize("frame", ["huge", "garbage"])
def test_an_sdk_given_a_bad_frame_says_so_in_one_line(sdk: str, frame: str) -> None:
    bad = b"\xff\xff\xff\xf0" if frame == "huge" else (2).to_bytes(4, "big") + b"\xff\xff"
    _, done = _session(sdk, bad)
    assert done.returncode == 2, done.stdout
    lines = [line for line in done.stdout.splitlines() if line.strip()]
    assert len(lines) == 1, done.stdout
    assert "frame" in lines[0], done.stdout
