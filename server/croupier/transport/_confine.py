"""The last step before a launched bot runs: limits, then the bot's own program.

Run as ``python -I -S _confine.py UID AS NPROC CPU FSIZE NOFILE -- ARGV...`` by the launcher (inside
the bubblewrap sandbox, or directly when there is none). It imports nothing from Croupier (it runs
before ``site``, in the sandbox's view of the file system) and does, in this order:

1. ``PR_SET_PDEATHSIG``: the bot is killed when the process that started it dies (an arbiter
   killed with SIGKILL takes along the bots that had not connected yet);
2. the resource limits (0 leaves a limit as it is): address space and file size in bytes,
   processes, CPU seconds, open files;
3. when ``UID`` is not -1 (the arbiter runs as root): drops every supplementary group, then the
   group and user ids to ``UID`` (which clears every capability) and sets ``PR_SET_NO_NEW_PRIVS``;
4. ``execvp`` of the bot's argv, which keeps the limits.

Any failure ends the process with status 126 and one line on stderr (the seat's log).
"""

from __future__ import annotations

import ctypes
import os
import resource
import signal
import sys

_PR_SET_PDEATHSIG = 1
_PR_SET_NO_NEW_PRIVS = 38


def _prctl(option: int, value: int) -> None:
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(option, value, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), f"prctl({option})")


def _limit(kind: int, value: int) -> None:
    if value > 0:
        resource.setrlimit(kind, (value, value))


def main(args: list[str]) -> None:
    try:
        split = args.index("--")
        uid, address_space, processes, cpu_s, file_size, open_files = map(int, args[:split])
        argv = args[split + 1 :]
        if not argv:
            raise ValueError("no bot command")
        _prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
        _limit(resource.RLIMIT_AS, address_space)
        _limit(resource.RLIMIT_NPROC, processes)
        _limit(resource.RLIMIT_CPU, cpu_s)
        _limit(resource.RLIMIT_FSIZE, file_size)
        _limit(resource.RLIMIT_NOFILE, open_files)
        if uid >= 0:
            os.setgroups([])
            os.setresgid(uid, uid, uid)
            os.setresuid(uid, uid, uid)
            _prctl(_PR_SET_NO_NEW_PRIVS, 1)
        os.execvp(argv[0], argv)
    except (OSError, ValueError) as exc:
        print(f"croupier sandbox: cannot start the bot: {exc}", file=sys.stderr, flush=True)
        os._exit(126)


if __name__ == "__main__":
    main(sys.argv[1:])
