"""Temporary folders owned by a process, and the sweep of those a killed process left behind.

A folder is named ``<prefix><pid>-XXXXXXXX`` in the temporary directory (``TMPDIR``): its
maker's process id, then ``mkdtemp``'s eight random characters. It is stale when it is this
user's, that process is gone, and the caller's ``in_use`` check (say, a socket that still
answers: a process of another PID namespace sharing the directory) does not hold; a maker
sweeps the stale folders of its prefix before it makes its own. Used for the arbiter's
unix-socket folder and a Ray actor's match folder. A leaf module (standard library only), like
the control groups' sweep by process id.
"""

from __future__ import annotations

import os
import re
import shutil
import stat
import tempfile
from collections.abc import Callable
from pathlib import Path


def pid_alive(pid: int) -> bool:
    """Whether a process with this id exists (one of another user's counts; an id no process
    can have, say past the kernel's range, does not)."""
    try:
        os.kill(pid, 0)
    except (ProcessLookupError, OverflowError, ValueError):
        return False
    except PermissionError:
        return True
    return True


def _unused(folder: Path) -> bool:
    return False


def make_owned_dir(prefix: str, in_use: Callable[[Path], bool] = _unused) -> Path:
    """Sweep the stale folders of ``prefix`` (:func:`sweep_owned_dirs`), then make this
    process's."""
    sweep_owned_dirs(prefix, in_use)
    return Path(tempfile.mkdtemp(prefix=f"{prefix}{os.getpid()}-"))


def sweep_owned_dirs(
    prefix: str, in_use: Callable[[Path], bool] = _unused, root: Path | None = None
) -> int:
    """Remove the folders of ``prefix`` in ``root`` (the temporary directory) that are this
    user's, whose process is gone and that are not ``in_use``; how many. Never raises."""
    owned = re.compile(rf"{re.escape(prefix)}(\d{{1,10}})-[a-z0-9_]{{8}}")
    root = Path(tempfile.gettempdir()) if root is None else root
    uid = os.getuid()
    removed = 0
    try:
        entries = list(os.scandir(root))
    except OSError:
        return 0
    for entry in entries:
        found = owned.fullmatch(entry.name)
        if found is None:
            continue
        try:
            info = entry.stat(follow_symlinks=False)
        except OSError:
            continue
        if not stat.S_ISDIR(info.st_mode) or info.st_uid != uid:
            continue  # another user's, or not a folder: never ours to remove
        if pid_alive(int(found[1])) or in_use(Path(entry.path)):
            continue
        shutil.rmtree(entry.path, ignore_errors=True)
        removed += not os.path.lexists(entry.path)
    return removed
