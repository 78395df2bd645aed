"""The private folder of the arbiter's unix socket (what sandboxed bots dial): this user's
folders of arbiters killed before they could remove their own are swept by the next that starts
(:mod:`croupier._owned_dirs`), unless their socket still answers."""

from __future__ import annotations

import socket
from pathlib import Path

from croupier._owned_dirs import make_owned_dir

#: Every socket folder's name starts with this, then ``PID-``.
PREFIX = "croupier-"
#: The socket's name in its folder.
SOCKET_NAME = "arbiter.sock"
#: How long a probe of a socket waits for its connection.
PROBE_TIMEOUT_S = 0.5


def make_socket_dir() -> Path:
    """Sweep the stale folders, then make this arbiter's: passable by a sandboxed bot's uid,
    listable by nobody else."""
    folder = make_owned_dir(PREFIX, answers)
    folder.chmod(0o711)
    return folder


def answers(folder: Path) -> bool:
    """Whether something listens on the socket in ``folder``."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
        probe.settimeout(PROBE_TIMEOUT_S)
        try:
            probe.connect(str(folder / SOCKET_NAME))
        except TimeoutError:
            return True  # a listener too busy to accept: alive
        except OSError:
            return False  # refused, no socket there, or not a socket
    return True
