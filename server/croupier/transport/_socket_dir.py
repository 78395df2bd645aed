"""The private folder of the arbiter's unix socket (what sandboxed bots dial): this user's
folders of arbiters killed before they could remove their own are swept by the next that starts
(:mod:`croupier._owned_dirs`), unless their socket still answers or, without a socket, they are
younger than a minute (an arbiter of another PID namespace between making its folder and
binding its socket)."""

from __future__ import annotations

import os
import socket
import time
from pathlib import Path

from croupier._owned_dirs import make_owned_dir

#: Every socket folder's name starts with this, then ``PID-``.
PREFIX = "croupier-"
#: The socket's name in its folder.
SOCKET_NAME = "arbiter.sock"
#: How long a probe of a socket waits for its connection.
PROBE_TIMEOUT_S = 0.5
#: A folder without a socket younger than this is kept (seconds).
BIND_WINDOW_S = 60.0


def make_socket_dir() -> Path:
    """Sweep the stale folders, then make this arbiter's: passable by a sandboxed bot's uid,
    listable by nobody else."""
    folder = make_owned_dir(PREFIX, in_use)
    folder.chmod(0o711)
    return folder


def in_use(folder: Path) -> bool:
    """Whether something listens on the socket in ``folder``, or it has no socket yet and was
    made within :data:`BIND_WINDOW_S`."""
    path = folder / SOCKET_NAME
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
        probe.settimeout(PROBE_TIMEOUT_S)
        try:
            probe.connect(str(path))
        except ConnectionRefusedError:
            return False  # a socket nobody listens on: its arbiter is gone
        except FileNotFoundError:
            try:
                made = os.stat(folder).st_mtime
            except OSError:
                return False
            return time.time() - made < BIND_WINDOW_S
        except OSError:
            return True  # busy (a full queue, a timeout) or not ours to judge: kept
    return True
