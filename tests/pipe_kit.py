"""A stand-in arbiter on a launched bot's session pipe (``CROUPIER_SESSION_FD``): the tests of
what an SDK loads when it plays on its pipe start a real bot process with it."""

from __future__ import annotations

import os
import socket
import subprocess
from collections.abc import Callable
from pathlib import Path

from croupier_proto.v1 import bot_pb2 as pb


def _send(sock: socket.socket, message: pb.SessionResponse) -> None:
    data = message.SerializeToString()
    sock.sendall(len(data).to_bytes(4, "big") + data)


def _receive(sock: socket.socket) -> pb.SessionRequest:
    size = int.from_bytes(sock.recv(4, socket.MSG_WAITALL), "big")
    return pb.SessionRequest.FromString(sock.recv(size, socket.MSG_WAITALL))


def one_decision_on_a_pipe(
    argv: list[str],
    log: Path,
    env: dict[str, str],
    while_playing: Callable[[int], None] = lambda pid: None,
) -> int:
    """Start the session bot ``argv`` on a pipe of this process's (its stderr to ``log``,
    ``env`` added to the environment), welcome it, hand it one seat with one decision (one
    legal id, 3), check its reply, call ``while_playing(pid)``, then end the session by closing
    the pipe; return the bot's exit status."""
    ours, theirs = socket.socketpair()
    full = {**os.environ, **env, "CROUPIER_SESSION_FD": str(theirs.fileno())}
    full["CROUPIER_SESSION_TOKEN"] = "t"
    full.pop("CROUPIER_ADDRESS", None)
    with log.open("w") as err:
        bot = subprocess.Popen(argv, env=full, pass_fds=(theirs.fileno(),), stderr=err)
    theirs.close()
    try:
        with ours:
            ours.settimeout(60)
            assert _receive(ours).hello.token == "t", log.read_text()[-2000:]
            _send(ours, pb.SessionResponse(welcome=pb.SessionWelcome(session_id="s1")))
            seat = pb.SeatMessage(seat_ref=1)
            seat.assignment.match_id, seat.assignment.token = "m", "seat-token"
            seat.message.welcome.match_id, seat.message.welcome.num_seats = "m", 2
            ask = pb.SeatMessage(seat_ref=1)
            ask.message.decision.request_id = 7
            ask.message.decision.legal_actions.add(id=3, label="Pass")
            _send(ours, pb.SessionResponse(seat_messages=[seat, ask]))
            reply = _receive(ours).replies[0]
            assert (reply.seat_ref, reply.action.request_id, reply.action.action_id) == (1, 7, 3)
            while_playing(bot.pid)
        return bot.wait(timeout=60)
    finally:
        bot.kill()
