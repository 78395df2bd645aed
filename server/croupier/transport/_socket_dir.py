"""The private folder of the arbiter's unix socket (what sandboxed bots dial), and the sweep of
the folders that arbiters killed before they could remove their own left behind.

A folder is ``croupier-PID-XXXXXXXX`` in the temporary directory: the arbiter's process id,
then ``mkdtemp``'s random part. It is stale when that process is gone and its socket answers no
connection (a process of another PID namespace sharing the folder's directory is still
listening there); each new arbiter removes the stale folders of its own user before it makes
its own. A folder of the older name (no process id) is left alone.
"""

from __future__ import annotations

import os
import re
import shutil
import socket
import stat
import tempfile
from pathlib import Path

#: Every socket folder's name starts with this, then ``PID-``.
PREFIX = "croupier-"
#: The socket's name in its folder.
SOCKET_NAME = "arbiter.sock"
_OWNED = re.compile(rf"{PREFIX}(\d+)-[a-z0-9_]+$")
#: How long a probe of a socket waits for its connection.
PROBE_TIMEOUT_S = 0.5


def pid_alive(pid: int) -> bool:
    """Whether a process with this id exists (one of another user's counts)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def make_socket_dir() -> Path:
    """Sweep the stale folders, then make this arbiter's: passable by a sandboxed bot's uid,
    listable by nobody else."""
    sweep_socket_dirs()
    folder = Path(tempfile.mkdtemp(prefix=f"{PREFIX}{os.getpid()}-"))
    folder.chmod(0o711)
    return folder


def sweep_socket_dirs(root: Path | None = None) -> int:
    """Remove the socket folders in ``root`` (the temporary directory) that are this user's,
    of a process that is gone, and whose socket answers nothing; how many."""
    root = Path(tempfile.gettempdir()) if root is None else root
    uid = os.getuid()
    removed = 0
    try:
        entries = list(os.scandir(root))
    except OSError:
        return 0
    for entry in entries:
        found = _OWNED.match(entry.name)
        if found is None or pid_alive(int(found[1])):
            continue
        try:
            info = entry.stat(follow_symlinks=False)
        except OSError:
            continue
        if not stat.S_ISDIR(info.st_mode) or info.st_uid != uid:
            continue
        if _answers(Path(entry.path) / SOCKET_NAME):
            continue
        shutil.rmtree(entry.path, ignore_errors=True)
        removed += not os.path.lexists(entry.path)
    return removed


def _answers(path: Path) -> bool:
    """Whether something listens on the unix socket ``path``."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
        probe.settimeout(PROBE_TIMEOUT_S)
        try:
            probe.connect(str(path))
        except TimeoutError:
            return True  # a listener too busy to accept: alive
        except OSError:
            return False  # refused, no socket there, or not a socket
    return True
