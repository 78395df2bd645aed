"""The last step before a launched bot runs: a supervisor tied to the arbiter's life, the bot's
file system (in the util-linux sandbox), its control group, limits, a uid of its own, then the
bot's own program.

Run as ``python -I -S _confine.py SPEC -- ARGV...`` by the launcher (inside the bubblewrap
sandbox, as the init of the util-linux one, or directly when there is none). It imports nothing
from Croupier (it runs before ``site``, in the sandbox's view of the file system). ``SPEC`` is
a JSON object (see ``_sandbox._confine_argv``):

``lifeline``
    the read end of a pipe whose only write end the arbiter holds: it reads end of file the
    moment the arbiter is gone, however it died (SIGKILL included), and however early: the pipe
    exists before the bot's first process does, so there is no window in which a death goes
    unnoticed (``PR_SET_PDEATHSIG`` alone has two: before it is armed, and in bubblewrap's own
    setup, where the sandbox's init arms it late).
``scope``
    what "every process of the bot" is: ``ns`` (a sandbox, whose PID namespace holds the bot
    alone: ``kill(-1)`` reaches every process in it, ``setsid`` escapers included; the
    supervisor keeps root's capabilities, which the bot's change of uid drops) or ``group``
    (no namespace: the bot's process group).
``uid``
    -1, or the uid the bot runs as (the arbiter runs as root).
``limits``
    address space and file size in bytes, processes, CPU seconds, open files (0 leaves a limit
    as it is).
``cgroups``
    inherited descriptors of the ``cgroup.procs`` of the bot's control groups.
``root``
    ``null``, or the file system to build (the util-linux sandbox, where this process is the
    init of fresh PID, mount, IPC, UTS and maybe network namespaces, as root): ``ops``, the
    steps of ``_sandbox.fs_plan`` (what bubblewrap does with the same plan), done in a tmpfs
    that then becomes the root (``pivot_root``); ``hostname``; ``loopback`` (bring ``lo`` up).
``chdir``
    where the bot starts (``""``: where this process is).
``filter``
    true in a sandbox: the bot runs under the system-call filter (see "the system-call filter"
    below), which closes the direct channels two sandboxes would otherwise share through the
    host's files; a machine the filter has no numbers for (neither x86-64 nor arm64) cannot
    start it.

This process is the **supervisor**; it:

1. returns at once (status 125) if the arbiter is already gone;
2. builds the file system (``root``), if any;
3. forks the bot's process, which closes the lifeline, enters its control groups (it writes
   ``0`` to each ``cgroup.procs``), sets the resource limits, and when ``uid`` is not -1 drops
   every supplementary group, empties the capability bounding set and the ambient set, changes
   group and user ids to ``uid`` (which clears the permitted and effective capabilities),
   clears the inheritable ones and sets ``PR_SET_NO_NEW_PRIVS``; then (last, since a change of
   uid clears it) arms ``PR_SET_PDEATHSIG`` against the supervisor and checks that the
   supervisor is still its parent; then (``filter``) installs the system-call filter; then
   ``execvp`` of the bot's argv, which keeps the limits, the signal and the filter;
4. waits for the bot to exit (then exits the same way: same status, or same signal), or for the
   lifeline to close: then it kills every process of the bot (``scope``) and exits. It reaps
   every child that ends meanwhile (the init of a PID namespace inherits the bot's orphans).

SIGTERM (the arbiter stopping the bot's process group) is left to the bot; the supervisor goes
when the bot goes. Any failure before the bot's exec ends with status 126 and one line on stderr
(the seat's log).
"""

from __future__ import annotations

import contextlib
import ctypes
import fcntl
import json
import os
import resource
import select
import signal
import socket
import stat
import struct
import sys

_PR_SET_PDEATHSIG = 1
_PR_CAPBSET_DROP = 24
_PR_SET_NO_NEW_PRIVS = 38
_PR_CAP_AMBIENT = 47
_PR_CAP_AMBIENT_CLEAR_ALL = 4
_CAP_VERSION_3 = 0x20080522
_MS_RDONLY = 1
_MS_NOSUID = 2
_MS_NODEV = 4
_MS_NOEXEC = 8
_MS_REMOUNT = 32
_MS_NOATIME = 1024
_MS_NODIRATIME = 2048
_MS_BIND = 4096
_MS_REC = 16384
_MS_PRIVATE = 1 << 18
_MS_RELATIME = 1 << 21
_MNT_DETACH = 2
#: statvfs's f_flag bits and the mount flags they stand for (kept when a bind is remounted).
_KEPT_FLAGS = {
    os.ST_NOSUID: _MS_NOSUID,
    os.ST_NODEV: _MS_NODEV,
    os.ST_NOEXEC: _MS_NOEXEC,
    os.ST_NOATIME: _MS_NOATIME,
    os.ST_NODIRATIME: _MS_NODIRATIME,
    os.ST_RELATIME: _MS_RELATIME,
}
_PIVOT_ROOT = {"x86_64": 155, "aarch64": 41, "riscv64": 41, "ppc64le": 203, "s390x": 217}
#: Where the new root is built: a tmpfs mounted over it (in the sandbox's own mount namespace).
_STAGE = "/tmp"
#: Device nodes of a sandbox's /dev, bound from the host's.
_DEVICES = ("null", "zero", "full", "random", "urandom", "tty")
_SIOCGIFFLAGS = 0x8913
_SIOCSIFFLAGS = 0x8914
#: Status of a supervisor that found the arbiter gone before the bot started.
ORPHANED = 125
#: Status of a bot that could not be started.
CANNOT_START = 126

_libc = ctypes.CDLL(None, use_errno=True)


def _fail(what: str) -> OSError:
    code = ctypes.get_errno()
    return OSError(code, f"{what}: {os.strerror(code)}")


def _prctl(option: int, value: int, extra: int = 0) -> None:
    if _libc.prctl(option, value, extra, 0, 0) != 0:
        raise _fail(f"prctl({option})")


def _limit(kind: int, value: int) -> None:
    if value > 0:
        resource.setrlimit(kind, (value, value))


# -- the system-call filter ---------------------------------------------------------------------
#
# Every sandbox binds the same host files, and the kernel keeps some state per file, not per
# mount, or machine-wide: two sandboxes could talk through it. The filter (seccomp, classic BPF)
# closes the direct channels that cost a bot nothing to lose: a file lock is taken and seen by
# nobody (setting one succeeds and does nothing, so asking who holds one shows the host's locks
# only; leases and write-life hints, kept on the host's file for its owner, are refused);
# nothing watches files (inotify, fanotify, ``F_NOTIFY``), uses the kernel's AIO (which moves a
# machine-wide counter, and reads without waiting) or io_uring (whose requests no filter sees),
# asks the page cache directly (``RWF_NOWAIT``, ``cachestat``) or evicts from it
# (``POSIX_FADV_DONTNEED``, ``MADV_COLD``/``PAGEOUT``: accepted, not done), uses the keyrings,
# makes a user namespace (more of the kernel within reach) or a virtio socket (``AF_VSOCK``,
# which no network namespace encloses). A system call of another ABI
# (32-bit, x32) fails: the filter knows the machine's own numbers only. What stays open to two
# bots that cooperate (the page cache, a futex in a shared file, the CPU) is in
# docs/protocol.md, "What the sandbox does not hide": closing the futex would make every
# process-shared lock spin and its timed waits never time out, and the page cache stays anyway.

_SECCOMP_MODE_FILTER = 2
_PR_SET_SECCOMP = 22
_RET_ALLOW = 0x7FFF0000
_RET_ERRNO = 0x00050000
_ENOSYS, _EPERM, _EOPNOTSUPP = 38, 1, 95
#: The machine's audit architecture and its numbers of the system calls the filter looks at.
_ARCHES: dict[str, tuple[int, dict[str, int]]] = {
    "x86_64": (0xC000003E, {
        "fcntl": 72, "flock": 73, "madvise": 28, "fadvise64": 221, "inotify_init": 253,
        "inotify_add_watch": 254, "inotify_init1": 294, "fanotify_init": 300,
        "fanotify_mark": 301, "preadv2": 327, "pwritev2": 328, "io_uring_setup": 425,
        "io_uring_enter": 426, "io_uring_register": 427, "process_madvise": 440,
        "cachestat": 451, "add_key": 248, "request_key": 249, "keyctl": 250,
        "io_setup": 206, "io_destroy": 207, "io_getevents": 208, "io_submit": 209,
        "io_cancel": 210, "io_pgetevents": 333, "clone": 56, "unshare": 272, "clone3": 435,
        "socket": 41,
    }),
    "aarch64": (0xC00000B7, {
        "fcntl": 25, "flock": 32, "madvise": 233, "fadvise64": 223, "inotify_add_watch": 27,
        "inotify_init1": 26, "fanotify_init": 262, "fanotify_mark": 263, "preadv2": 286,
        "pwritev2": 287, "io_uring_setup": 425, "io_uring_enter": 426, "io_uring_register": 427,
        "process_madvise": 440, "cachestat": 451, "add_key": 217, "request_key": 218,
        "keyctl": 219, "io_setup": 0, "io_destroy": 1, "io_submit": 2, "io_cancel": 3,
        "io_getevents": 4, "io_pgetevents": 292, "clone": 220, "unshare": 97, "clone3": 435,
        "socket": 198,
    }),
}  # fmt: skip
_X32_BIT = 0x40000000
#: fcntl commands: those that set a lock (done as nothing) and those that take a lease, watch
#: a directory or set or read a file's write-life hint (kept on the host's file by its owner:
#: the organiser's user, whose uid a bot keeps without root) (refused).
_SET_LOCK = (6, 7, 37, 38)  # F_SETLK, F_SETLKW, F_OFD_SETLK, F_OFD_SETLKW
_SEE_LOCK = (1024, 1025, 1026, 1035, 1036, 1037, 1038)
_RWF_NOWAIT = 8
_FADV_DONTNEED = 4
_MADV_COLD, _MADV_PAGEOUT = 20, 21
_CLONE_NEWUSER = 0x10000000
#: The one address family a network namespace does not enclose: virtio sockets reach the
#: machine's host (a VM's hypervisor) and, with the loopback transport, every other process.
_AF_VSOCK = 40
_EAFNOSUPPORT = 97
#: What happens to each filtered call: a verdict, or the label of a check of its arguments
#: (every other call named in ``_ARCHES``: ``ENOSYS``).
_VERDICTS = {
    "flock": "none", "fcntl": "fcntl", "preadv2": "nowait", "pwritev2": "nowait",
    "fadvise64": "fadvise", "madvise": "madvise", "clone": "userns", "unshare": "userns",
    "socket": "socket",
}  # fmt: skip


def _arg(index: int) -> int:
    """The offset of the low 32 bits of argument ``index`` in ``struct seccomp_data``."""
    return 16 + 8 * index


def filter_program(machine: str) -> list[tuple[int, int, int, int]]:
    """The filter for ``machine`` (``os.uname().machine``) as BPF instructions (code, jt, jf,
    k); :class:`KeyError` if there is none for it."""
    arch, numbers = _ARCHES[machine]
    ld, jeq, jge, jset, ret = 0x20, 0x15, 0x35, 0x45, 0x06
    allow = (ret, 0, 0, _RET_ALLOW)
    code: list[tuple[int, object, object, int]] = [
        (ld, 0, 0, 4),  # arch
        (jeq, 0, "enosys", arch),
        (ld, 0, 0, 0),  # nr
    ]
    if machine == "x86_64":
        code.append((jge, "enosys", 0, _X32_BIT))
    for name, nr in numbers.items():
        code.append((jeq, _VERDICTS.get(name, "enosys"), 0, nr))
    code.append(allow)
    checks = {
        "fcntl": (1, [(k, "none") for k in _SET_LOCK] + [(k, "eperm") for k in _SEE_LOCK]),
        "fadvise": (3, [(_FADV_DONTNEED, "none")]),
        "madvise": (2, [(_MADV_COLD, "none"), (_MADV_PAGEOUT, "none")]),
    }
    labels: dict[str, int] = {}
    for label, (index, cases) in checks.items():
        labels[label] = len(code)
        code.append((ld, 0, 0, _arg(index)))
        code.extend((jeq, verdict, 0, value) for value, verdict in cases)
        code.append(allow)
    labels["nowait"] = len(code)
    code.extend([(ld, 0, 0, _arg(5)), (jset, "eopnotsupp", 0, _RWF_NOWAIT), allow])
    labels["userns"] = len(code)
    code.extend([(ld, 0, 0, _arg(0)), (jset, "eperm", 0, _CLONE_NEWUSER), allow])
    labels["socket"] = len(code)
    code.extend([(ld, 0, 0, _arg(0)), (jeq, "eafnosupport", 0, _AF_VSOCK), allow])
    for label, errno in (("none", 0), ("eperm", _EPERM), ("enosys", _ENOSYS),
                         ("eopnotsupp", _EOPNOTSUPP), ("eafnosupport", _EAFNOSUPPORT)):  # fmt: skip
        labels[label] = len(code)
        code.append((ret, 0, 0, _RET_ERRNO | errno))

    def jump(at: int, target: object) -> int:
        if isinstance(target, int):
            return target
        offset = labels[str(target)] - at - 1
        assert 0 <= offset < 256, "a jump past the reach of BPF"
        return offset

    return [(c, jump(i, jt), jump(i, jf), k) for i, (c, jt, jf, k) in enumerate(code)]


class _SockFilter(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint16), ("jt", ctypes.c_uint8), ("jf", ctypes.c_uint8),
                ("k", ctypes.c_uint32)]  # fmt: skip


class _SockFprog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.POINTER(_SockFilter))]


def _install_filter() -> None:
    """Install the filter on this process (and all it starts: it is inherited over fork and
    exec and cannot be lifted); :class:`OSError` if it cannot be."""
    machine = os.uname().machine
    try:
        program = filter_program(machine)
    except KeyError:
        raise OSError(f"no system-call filter for {machine} machines") from None
    instructions = (_SockFilter * len(program))(*(_SockFilter(*i) for i in program))
    fprog = _SockFprog(len(program), instructions)
    _prctl(_PR_SET_NO_NEW_PRIVS, 1)
    if _libc.prctl(_PR_SET_SECCOMP, _SECCOMP_MODE_FILTER, ctypes.byref(fprog), 0, 0) != 0:
        raise _fail("install the system-call filter")


def _gone(lifeline: int) -> bool:
    """Whether the arbiter's end of the lifeline is closed (it never writes). (``poll``, not
    ``select``: the lifeline keeps the arbiter's descriptor number, which is 1024 or more in an
    arbiter holding many connections, and ``select`` refuses those.)"""
    poller = select.poll()
    poller.register(lifeline, select.POLLIN | select.POLLHUP)
    return bool(poller.poll(0))


# -- the util-linux sandbox's file system ------------------------------------------------------


def _mount(source: str | None, target: str, fstype: str | None, flags: int, data: str = "") -> None:
    if (
        _libc.mount(
            None if source is None else source.encode(),
            target.encode(),
            None if fstype is None else fstype.encode(),
            ctypes.c_ulong(flags),
            data.encode() if data else None,
        )
        != 0
    ):
        raise _fail(f"mount {target}")


def _kept_flags(path: str) -> int:
    have = os.statvfs(path).f_flag
    return sum(flag for bit, flag in _KEPT_FLAGS.items() if have & bit)


def _unescape(field: str) -> str:
    """A path as ``/proc/self/mountinfo`` writes it: space, tab, newline and backslash as
    ``\\ooo`` (octal)."""
    parts = field.split("\\")
    out = [parts[0]]
    for part in parts[1:]:
        code = part[:3]
        if len(code) == 3 and all(c in "01234567" for c in code):
            out.append(chr(int(code, 8)) + part[3:])
        else:
            out.append("\\" + part)
    return "".join(out)


def _mounts_under(target: str) -> list[str]:
    """Mount points at or below ``target``, outermost first."""
    points = []
    with open("/proc/self/mountinfo") as f:
        for line in f:
            point = _unescape(line.split()[4])
            if point == target or point.startswith(target.rstrip("/") + "/"):
                points.append(point)
    return sorted(set(points), key=len)


def _remount(target: str, readonly: bool) -> None:
    """Every mount at or below ``target``: nosuid, nodev, read-only if asked, its other flags
    kept; an error unless ``target`` then says so (a mount point not found in the table would
    have kept its bind's write access, devices and set-uid)."""
    for point in _mounts_under(target):
        flags = _MS_REMOUNT | _MS_BIND | _MS_NOSUID | _MS_NODEV | _kept_flags(point)
        _mount(None, point, None, flags | (_MS_RDONLY if readonly else 0))
    have = os.statvfs(target).f_flag
    wanted = os.ST_NOSUID | os.ST_NODEV | (os.ST_RDONLY if readonly else 0)
    if have & wanted != wanted:
        raise OSError(f"{target} is not mounted {'read-only, ' if readonly else ''}nosuid, nodev")


def _make_target(target: str, is_dir: bool) -> None:
    if is_dir:
        os.makedirs(target, exist_ok=True)
        return
    os.makedirs(os.path.dirname(target), exist_ok=True)
    if not os.path.lexists(target):
        os.close(os.open(target, os.O_WRONLY | os.O_CREAT | os.O_CLOEXEC, 0o644))


def _dev(target: str, sources: dict[str, int]) -> None:
    os.makedirs(target, exist_ok=True)
    _mount("tmpfs", target, "tmpfs", _MS_NOSUID, "mode=0755,size=268435456")
    for name in _DEVICES:
        host = f"/dev/{name}"
        if host in sources:
            _make_target(f"{target}/{name}", False)
            _mount(f"/proc/self/fd/{sources[host]}", f"{target}/{name}", None, _MS_BIND)
    for name, to in (
        ("fd", "/proc/self/fd"),
        ("stdin", "/proc/self/fd/0"),
        ("stdout", "/proc/self/fd/1"),
        ("stderr", "/proc/self/fd/2"),
    ):
        os.symlink(to, f"{target}/{name}")
    os.mkdir(f"{target}/shm")
    os.chmod(f"{target}/shm", 0o1777)


def _build_root(root: dict[str, object]) -> None:
    """Do the steps of ``root["ops"]`` in a fresh tmpfs, make it the root, name the host,
    bring up the loopback (see the module docstring)."""
    ops = root["ops"]
    assert isinstance(ops, list)
    os.umask(0o022)
    # every source is opened first: the stage (and the new /tmp) may cover where it lies
    sources: dict[str, int] = {}
    for op in ops:
        if op[0] in ("ro-bind", "bind") and op[1] not in sources:
            sources[op[1]] = os.open(op[1], os.O_PATH | os.O_CLOEXEC)
    for name in _DEVICES:
        with contextlib.suppress(OSError):
            sources[f"/dev/{name}"] = os.open(f"/dev/{name}", os.O_PATH | os.O_CLOEXEC)
    _mount(None, "/", None, _MS_REC | _MS_PRIVATE)
    _mount("tmpfs", _STAGE, "tmpfs", _MS_NOSUID | _MS_NODEV, "mode=0755")
    for op in ops:
        kind, path = op[0], op[-1] if op[0] in ("symlink", "ro-bind", "bind") else op[1]
        target = _STAGE + path
        if kind == "tmpfs":
            os.makedirs(target, exist_ok=True)
            size = f",size={op[3]}" if op[3] != "0" else ""
            _mount("tmpfs", target, "tmpfs", _MS_NOSUID | _MS_NODEV, f"mode={op[2]}{size}")
        elif kind == "dir":
            os.makedirs(target, exist_ok=True)
            os.chmod(target, int(op[2], 8))
        elif kind == "symlink":
            os.makedirs(os.path.dirname(target), exist_ok=True)
            os.symlink(op[1], target)
        elif kind in ("ro-bind", "bind"):
            if os.path.islink(target):  # (a link of a folder bound before, /etc's: a mount
                continue  # would follow it out of the stage; the folder shows its own)
            fd = sources[op[1]]
            _make_target(target, stat.S_ISDIR(os.fstat(fd).st_mode))
            _mount(f"/proc/self/fd/{fd}", target, None, _MS_BIND | _MS_REC)
            _remount(target, readonly=kind == "ro-bind")
        elif kind == "proc":
            os.makedirs(target, exist_ok=True)
            _mount("proc", target, "proc", _MS_NOSUID | _MS_NODEV | _MS_NOEXEC)
        elif kind == "dev":
            _dev(target, sources)
        else:
            raise ValueError(f"unknown step {op!r}")
    for fd in sources.values():
        os.close(fd)
    os.chdir(_STAGE)
    number = _PIVOT_ROOT.get(os.uname().machine)
    if number is not None:
        if _libc.syscall(number, b".", b".") != 0:
            raise _fail("pivot_root")
        if _libc.umount2(b".", _MNT_DETACH) != 0:
            raise _fail("umount the old root")
    else:  # (a machine whose syscall number is not listed: the bot cannot leave a chroot)
        os.chroot(".")
    os.chdir("/")
    with contextlib.suppress(OSError):  # the root's own directories: nobody writes there
        _mount(None, "/", None, _MS_REMOUNT | _MS_BIND | _MS_RDONLY | _MS_NOSUID | _MS_NODEV)
    name = str(root.get("hostname") or "")
    if name and _libc.sethostname(name.encode(), len(name)) != 0:
        raise _fail("sethostname")
    if root.get("loopback"):
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            request = struct.pack("16sH", b"lo", 0)
            flags = struct.unpack("16sH", fcntl.ioctl(s, _SIOCGIFFLAGS, request)[:18])[1]
            fcntl.ioctl(s, _SIOCSIFFLAGS, struct.pack("16sH", b"lo", flags | 1))  # IFF_UP


# -- the bot's process -------------------------------------------------------------------------


def _drop_privileges(uid: int) -> None:
    """Become ``uid`` with no groups, no capabilities at all and no way to gain any."""
    os.setgroups([])
    for cap in range(64):  # the bounding set, while CAP_SETPCAP is still ours
        if _libc.prctl(_PR_CAPBSET_DROP, cap, 0, 0, 0) != 0 and ctypes.get_errno() != 22:
            raise _fail(f"drop capability {cap}")  # (EINVAL: past the last one)
    _prctl(_PR_CAP_AMBIENT, _PR_CAP_AMBIENT_CLEAR_ALL)
    os.setresgid(uid, uid, uid)
    os.setresuid(uid, uid, uid)  # clears the permitted and effective sets
    header = (ctypes.c_uint32 * 2)(_CAP_VERSION_3, 0)
    data = (ctypes.c_uint32 * 6)()  # effective, permitted, inheritable, twice: all empty
    if _libc.capset(header, data) != 0:
        raise _fail("capset")
    _prctl(_PR_SET_NO_NEW_PRIVS, 1)


def _exec_bot(
    supervisor: int,
    lifeline: int,
    cgroups: list[int],
    limits: list[int],
    uid: int,
    chdir: str,
    argv: list[str],
    syscall_filter: bool,
) -> None:
    """In the forked child: tie it to the supervisor, contain it, become the bot."""
    try:
        os.close(lifeline)
        for fd in cgroups:
            os.write(fd, b"0")  # this process: the bot and all it starts
            os.close(fd)
        address_space, processes, cpu_s, file_size, open_files = limits
        _limit(resource.RLIMIT_AS, address_space)
        _limit(resource.RLIMIT_NPROC, processes)
        _limit(resource.RLIMIT_CPU, cpu_s)
        _limit(resource.RLIMIT_FSIZE, file_size)
        _limit(resource.RLIMIT_NOFILE, open_files)
        if uid >= 0:
            _drop_privileges(uid)
        if chdir:
            os.chdir(chdir)
        # armed last: a change of uid clears it
        _prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
        if os.getppid() != supervisor:  # the supervisor died before the signal was armed
            os._exit(ORPHANED)
        if syscall_filter:
            _install_filter()
        os.execvp(argv[0], argv)
    except OSError as exc:
        print(f"croupier sandbox: cannot start the bot: {exc}", file=sys.stderr, flush=True)
    os._exit(CANNOT_START)


def _kill_all(scope: str) -> None:
    if scope == "ns":
        # every process of the namespace but its init and this one (the bot's tree, setsid or
        # not); then this one leaves, and the namespace with it
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
        os._exit(128 + sig)  # a signal this process cannot die of (the init of a namespace)
    os._exit(os.waitstatus_to_exitcode(status))


def _supervise(child: int, lifeline: int, scope: str, woken: int) -> None:
    """Wait for the bot (reaping every other child meanwhile) or the lifeline's end."""
    poller = select.poll()
    poller.register(lifeline, select.POLLIN | select.POLLHUP)
    poller.register(woken, select.POLLIN)
    while True:
        events = poller.poll(1000)  # (a lost wake-up costs a second at most)
        if any(fd == lifeline for fd, _ in events):
            _kill_all(scope)
            os._exit(137)
        with contextlib.suppress(BlockingIOError):
            os.read(woken, 512)
        while True:
            try:
                done, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                os._exit(CANNOT_START)  # (the bot is gone and was not seen to go)
            if done == 0:
                break
            if done == child:
                _exit_like(status)


def main(args: list[str]) -> None:
    try:
        split = args.index("--")
        spec = json.loads(args[0])
        argv = args[split + 1 :]
        scope = str(spec["scope"])
        if split != 1 or not argv or scope not in ("ns", "group"):
            raise ValueError("usage: SPEC -- ARGV")
        lifeline = int(spec["lifeline"])
        cgroups = [int(fd) for fd in spec["cgroups"]]
        limits = [int(n) for n in spec["limits"]]
        uid = int(spec["uid"])
        chdir = str(spec.get("chdir") or "")
        syscall_filter = bool(spec.get("filter"))
        if len(limits) != 5:
            raise ValueError("limits: AS NPROC CPU FSIZE NOFILE")
        os.set_inheritable(lifeline, False)
        for fd in cgroups:
            os.set_inheritable(fd, False)  # (the forked child has them still)
        if _gone(lifeline):
            os._exit(ORPHANED)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)  # (the bot gets it too: it decides)
        if spec.get("root"):
            _build_root(spec["root"])
        woken, wake = os.pipe2(os.O_NONBLOCK | os.O_CLOEXEC)
        signal.set_wakeup_fd(wake)
        signal.signal(signal.SIGCHLD, lambda *_: None)
        supervisor = os.getpid()
        child = os.fork()
    except (OSError, ValueError, KeyError, TypeError) as exc:
        print(f"croupier sandbox: cannot start the bot: {exc}", file=sys.stderr, flush=True)
        os._exit(CANNOT_START)
    if child == 0:
        signal.set_wakeup_fd(-1)
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        _exec_bot(supervisor, lifeline, cgroups, limits, uid, chdir, argv, syscall_filter)
    _supervise(child, lifeline, scope, woken)


if __name__ == "__main__":
    main(sys.argv[1:])
