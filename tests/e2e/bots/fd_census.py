"""FD census: a random SDK session bot that first logs which sockets it holds.

Logs ``sockets=N pipe=FD`` (N: the open descriptors of this process that are sockets, read from
/proc/self/fd; FD: ``CROUPIER_SESSION_FD``) and ``pipe_peer_pid=P`` (the pid at the other end
of its session pipe, SO_PEERCRED; 0 when that process is outside the bot's PID namespace), then
serves its session as ``croupier_bots.random_bot`` does.
"""

from __future__ import annotations

import os
import socket
import struct

from _common import say

from croupier_bot import main
from croupier_bots.random_bot import RandomBot

sockets = 0
for name in os.listdir("/proc/self/fd"):
    try:
        if os.readlink(f"/proc/self/fd/{name}").startswith("socket:"):
            sockets += 1
    except OSError:  # (the listing's own descriptor, closed by now)
        pass
raw = os.environ.get("CROUPIER_SESSION_FD", "")
say(f"sockets={sockets} pipe={raw}")
if raw:
    pipe = socket.socket(fileno=int(raw))
    creds = pipe.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i"))
    say(f"pipe_peer_pid={struct.unpack('3i', creds)[0]}")
    pipe.detach()  # (the SDK opens it again)
main(RandomBot(int(os.environ.get("CROUPIER_SEED", "0"))))
