"""The Python SDK's end of the session pipe (``CROUPIER_SESSION_FD``): what it takes as a pipe,
and a pipe the arbiter closes unwelcomed (a refusal), which sends the bot to gRPC."""

from __future__ import annotations

import os
import socket
import sys
import threading
from pathlib import Path

import pytest
from pipe_kit import one_decision_on_a_pipe

from croupier_bot._pipe import _pipe_session, _pipe_socket, serve
from croupier_bot._seats import _Seats
from croupier_bots.random_bot import RandomBot
from croupier_proto.v1 import PROTOCOL_VERSION
from croupier_proto.v1 import bot_pb2 as pb


def test_what_is_not_a_stream_socket_is_no_pipe(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _pipe_socket("three") is None
    with (tmp_path / "f").open("w") as f:
        assert _pipe_socket(str(f.fileno())) is None
    datagram, other = socket.socketpair(socket.AF_UNIX, socket.SOCK_DGRAM)
    with datagram, other:
        assert _pipe_socket(str(datagram.fileno())) is None
    err = capsys.readouterr().err
    assert err.count("using gRPC") == 3
    ours, theirs = socket.socketpair()
    with ours:
        theirs.set_inheritable(True)
        sock = _pipe_socket(str(theirs.fileno()))
        assert sock is not None
        assert not sock.get_inheritable()
        sock.close()


def test_a_pipe_closed_before_the_welcome_sends_the_bot_to_grpc() -> None:
    """The arbiter reads the hello and closes (a refusal): no session id, nothing played; the
    hello it read is the bot's, framed with a 4-byte big-endian length."""
    ours, theirs = socket.socketpair()
    heard: list[pb.SessionRequest] = []

    def arbiter() -> None:
        with ours:
            size = int.from_bytes(ours.recv(4, socket.MSG_WAITALL), "big")
            heard.append(pb.SessionRequest.FromString(ours.recv(size, socket.MSG_WAITALL)))

    thread = threading.Thread(target=arbiter)
    thread.start()
    hello = pb.SessionHello(token="t", protocol_version=PROTOCOL_VERSION, capacity=2)
    seats = _Seats(RandomBot(1), "random")
    assert _pipe_session(theirs, hello, seats) is None
    thread.join()
    assert heard[0].hello == hello
    assert (seats.played, seats.failed) == (0, 0)
    assert theirs.fileno() == -1  # closed: the gRPC session does not hold it open


def _arbiter(ours: socket.socket, then: bytes) -> threading.Thread:
    """A stand-in arbiter on the pipe's other end: reads the hello, welcomes, sends ``then``,
    hangs up."""

    def run() -> None:
        with ours:
            size = int.from_bytes(ours.recv(4, socket.MSG_WAITALL), "big")
            ours.recv(size, socket.MSG_WAITALL)
            welcome = pb.SessionResponse(welcome=pb.SessionWelcome(session_id="s1"))
            data = welcome.SerializeToString()
            ours.sendall(len(data).to_bytes(4, "big") + data + then)

    thread = threading.Thread(target=run)
    thread.start()
    return thread


def test_the_sdk_takes_its_pipe_once_and_a_cut_frame_ends_the_session(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """serve() on the pipe: a frame cut short (the arbiter died) is the session's end, not a
    traceback; the variable is gone afterwards, so a later serve() cannot write its hello (and
    token) into whatever socket reuses the descriptor's number."""
    ours, theirs = socket.socketpair()
    theirs.set_inheritable(True)
    monkeypatch.setenv("CROUPIER_SESSION_FD", str(theirs.fileno()))
    monkeypatch.setenv("CROUPIER_SESSION_TOKEN", "t")
    thread = _arbiter(ours, (100).to_bytes(4, "big") + b"0123456789")
    summary = serve(RandomBot(1))
    thread.join()
    assert summary.session_id == "s1"
    assert summary.matches == 0
    assert "CROUPIER_SESSION_FD" not in os.environ


def test_a_bot_playing_on_its_pipe_loads_neither_grpc_nor_asyncio(tmp_path: Path) -> None:
    """A bot launched with a session pipe plays with neither gRPC nor an asyncio loop, so it
    does not load them: their import was a fifth of a bundled bot's start-up CPU
    (``bench/startup.py``, ``pipe``). The bundled random bot, a real process, is welcomed,
    answers a decision on its pipe, and ends with the pipe: neither gRPC's library nor
    asyncio's is in its memory map while it plays, and none of their modules is among those
    it imported in its whole life (``PYTHONPROFILEIMPORTTIME``)."""
    maps: list[str] = []
    status = one_decision_on_a_pipe(
        [sys.executable, "-m", "croupier_bots.random_bot"],
        tmp_path / "bot.err",
        {"PYTHONPROFILEIMPORTTIME": "1"},
        lambda pid: maps.append(Path(f"/proc/{pid}/maps").read_text()),
    )
    loaded = maps[0]
    lines = (tmp_path / "bot.err").read_text().splitlines()
    assert status == 0, lines[-20:]
    assert any("session over" in line for line in lines)
    imported = [line.rsplit("|", 1)[1].strip() for line in lines if line.startswith("import time:")]
    assert "croupier_bot._pipe" in imported  # (the profile is there)
    assert [m for m in imported if m.split(".")[0] in ("grpc", "asyncio", "_asyncio")] == []
    import _asyncio

    import grpc._cython.cygrpc as cygrpc

    libraries = [Path(cygrpc.__file__).name]
    if getattr(_asyncio, "__file__", None):  # (a shared library here, unless built in)
        libraries.append(Path(_asyncio.__file__).name)
    for library in libraries:
        assert library not in loaded
