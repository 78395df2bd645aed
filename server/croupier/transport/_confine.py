"""The last step before a launched bot runs: a supervisor tied to the arbiter's life, limits,
then the bot's own program.

Run as ``python -I -S _confine.py LIFELINE SCOPE UID AS NPROC CPU FSIZE NOFILE -- ARGV...`` by
the launcher (inside the bubblewrap sandbox, or directly when there is none). It imports nothing
from Croupier (it runs before ``site``, in the sandbox's view of the file system).

``LIFELINE`` is the read end of a pipe whose only write end the arbiter holds: it reads end of
file the moment the arbiter is gone, however it died (SIGKILL included), and however early: the
pipe exists before the bot's first process does, so there is no window in which a death goes
unnoticed (``PR_SET_PDEATHSIG`` alone has two: before it is armed, and in bubblewrap's own
setup, where the sandbox's init arms it late). This process is the **supervisor**; it:

1. returns at once (status 125) if the arbiter is already gone;
2. forks the bot's process, which closes the lifeline, sets the resource limits (0 leaves a
   limit as it is: address space and file size in bytes, processes, CPU seconds, open files),
   and when ``UID`` is not -1 (the arbiter runs as root) drops every supplementary group, then
   the group and user ids to ``UID`` (which clears every capability) and sets
   ``PR_SET_NO_NEW_PRIVS``; then (last, since a change of uid clears it) arms
   ``PR_SET_PDEATHSIG`` against the supervisor and checks that the supervisor is still its
   parent; then ``execvp`` of the bot's argv, which keeps the limits and the signal;
3. waits for the bot to exit (then exits the same way: same status, or same signal), or for the
   lifeline to close: then it kills every process of the bot and exits. ``SCOPE`` says what
   "every process" is: ``ns`` (a bubblewrap sandbox, whose PID namespace holds the bot alone:
   ``kill(-1)`` reaches every process in it, ``setsid`` escapers included: as root the
   supervisor keeps root's capabilities, which the bot's change of uid drops) or ``group``
   (no namespace: the bot's process group).

SIGTERM (the arbiter stopping the bot's process group) is left to the bot; the supervisor goes
when the bot goes. Any failure before the bot's exec ends with status 126 and one line on stderr
(the seat's log).
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import resource
import select
import signal
import sys

_PR_SET_PDEATHSIG = 1
_PR_SET_NO_NEW_PRIVS = 38
#: Status of a supervisor that found the arbiter gone before the bot started.
ORPHANED = 125
#: Status of a bot that could not be started.
CANNOT_START = 126


def _prctl(option: int, value: int) -> None:
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(option, value, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), f"prctl({option})")


def _limit(kind: int, value: int) -> None:
    if value > 0:
        resource.setrlimit(kind, (value, value))


def _gone(lifeline: int) -> bool:
    """Whether the arbiter's end of the lifeline is closed (it never writes)."""
    ready, _, _ = select.select([lifeline], [], [], 0)
    return bool(ready)


def _exec_bot(
    supervisor: int, lifeline: int, uid: int, limits: tuple[int, ...], argv: list[str]
) -> None:
    """In the forked child: tie it to the supervisor, limit it, become the bot."""
    try:
        os.close(lifeline)
        address_space, processes, cpu_s, file_size, open_files = limits
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
        # armed last: a change of uid clears it
        _prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
        if os.getppid() != supervisor:  # the supervisor died before the signal was armed
            os._exit(ORPHANED)
        os.execvp(argv[0], argv)
    except OSError as exc:
        print(f"croupier sandbox: cannot start the bot: {exc}", file=sys.stderr, flush=True)
    os._exit(CANNOT_START)


def _kill_all(scope: str) -> None:
    if scope == "ns":
        # every process of the namespace but its init and this one (the bot's tree, setsid or
        # not); then this one leaves, and bubblewrap's init with it
        with contextlib.suppress(OSError):  # ESRCH: nobody left
            os.kill(-1, signal.SIGKILL)
    else:
        os.killpg(os.getpgrp(), signal.SIGKILL)  # this one too


def _exit_like(status: int) -> None:
    """Exit as the bot did: the same status, or killed by the same signal."""
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))  # no core of the supervisor's
        with contextlib.suppress(OSError, ValueError):  # (SIGKILL's cannot change)
            signal.signal(sig, signal.SIG_DFL)
        os.kill(os.getpid(), sig)
        os._exit(128 + sig)  # a signal this process cannot die of
    os._exit(os.waitstatus_to_exitcode(status))


def _supervise(child: int, lifeline: int, scope: str) -> None:
    signal.signal(signal.SIGTERM, signal.SIG_IGN)  # (the bot gets it too: it decides)
    try:
        watched = os.pidfd_open(child)
    except (AttributeError, OSError):
        watched = -1
    poller = select.poll()
    poller.register(lifeline, select.POLLIN | select.POLLHUP)
    if watched >= 0:
        poller.register(watched, select.POLLIN)
    while True:
        events = poller.poll(None if watched >= 0 else 200)
        if any(fd == lifeline for fd, _ in events):
            _kill_all(scope)
            os._exit(137)
        done, status = os.waitpid(child, os.WNOHANG)
        if done == child:
            _exit_like(status)


def main(args: list[str]) -> None:
    try:
        split = args.index("--")
        lifeline = int(args[0])
        scope = args[1]
        uid, *limits = map(int, args[2:split])
        argv = args[split + 1 :]
        if not argv or scope not in ("ns", "group") or len(limits) != 5:
            raise ValueError("usage: LIFELINE ns|group UID AS NPROC CPU FSIZE NOFILE -- ARGV")
        os.set_inheritable(lifeline, False)
        if _gone(lifeline):
            os._exit(ORPHANED)
        supervisor = os.getpid()
        child = os.fork()
    except (OSError, ValueError) as exc:
        print(f"croupier sandbox: cannot start the bot: {exc}", file=sys.stderr, flush=True)
        os._exit(CANNOT_START)
    if child == 0:
        _exec_bot(supervisor, lifeline, uid, tuple(limits), argv)
    _supervise(child, lifeline, scope)


if __name__ == "__main__":
    main(sys.argv[1:])
