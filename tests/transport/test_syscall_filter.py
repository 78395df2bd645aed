"""The system-call filter every sandboxed bot runs under (``croupier.transport._confine``): what
it refuses, what it accepts and does not do, and that a bot's ordinary work still runs under it.

Each case runs a real process under the supervisor (no namespace needed: the filter is the
same), once without the filter (the calls work there: the probe is sound) and once with it.
The channels these calls would open between two sandboxes are played in
``tests/e2e/test_isolation.py``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from croupier.transport import _confine

CONFINE = Path(_confine.__file__)

PROBE = r"""
import ctypes, errno, fcntl, mmap, os, sqlite3, struct, sys

libc = ctypes.CDLL(None, use_errno=True)
fd = os.open(os.path.realpath(sys.executable), os.O_RDONLY)  # a file every sandbox binds
lock = lambda kind: struct.pack("hhqqi", kind, 0, 4096, 1, 0)
NR = {"x86_64": (425, 451, 250, 72), "aarch64": (425, 451, 219, 25)}[os.uname().machine]
FUTEX, IO_SETUP, UNSHARE, CLONE3 = {
    "x86_64": (202, 206, 272, 435), "aarch64": (98, 0, 97, 435)
}[os.uname().machine]
libc.mmap.restype = ctypes.c_void_p
libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int,
                      ctypes.c_long]
word = libc.mmap(None, 4096, mmap.PROT_READ, mmap.MAP_SHARED, fd, 0)  # as every sandbox maps it
value = ctypes.c_int.from_address(word).value
wait_200ms = struct.pack("ll", 0, 200_000_000)

def call(name, fn):
    try:
        fn()
        print(name, "ok")
    except OSError as exc:
        print(name, errno.errorcode[exc.errno])

def raw(*args):
    if libc.syscall(*args) < 0:
        code = ctypes.get_errno()
        raise OSError(code, os.strerror(code))

call("set-lock", lambda: fcntl.fcntl(fd, fcntl.F_SETLK, lock(fcntl.F_RDLCK)))
call("ask-lock", lambda: fcntl.fcntl(fd, fcntl.F_GETLK, lock(fcntl.F_WRLCK)))
call("lease", lambda: fcntl.fcntl(fd, fcntl.F_GETLEASE))
call("flock", lambda: fcntl.flock(fd, fcntl.LOCK_SH))
call("inotify", lambda: raw(294 if NR[2] == 250 else 26, 0))
call("read-nowait", lambda: os.preadv(fd, [bytearray(8)], 0, os.RWF_NOWAIT))
call("read", lambda: os.preadv(fd, [bytearray(8)], 0))
call("evict", lambda: os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED))
call("io_uring", lambda: raw(NR[0], 8, ctypes.create_string_buffer(120)))
call("cachestat", lambda: raw(NR[1], fd, ctypes.create_string_buffer(16),
                              ctypes.create_string_buffer(64), 0))
call("keyring", lambda: raw(NR[2], 0, -3, 0))  # KEYCTL_GET_KEYRING_ID of the user keyring
call("shared-futex-wait", lambda: raw(FUTEX, ctypes.c_void_p(word), 0, value, wait_200ms))
call("private-futex-wait", lambda: raw(FUTEX, ctypes.c_void_p(word), 128, value, wait_200ms))
call("aio", lambda: raw(IO_SETUP, 8, ctypes.byref(ctypes.c_ulong(0))))
call("write-hint", lambda: raw(NR[3], fd, 1035, ctypes.byref(ctypes.c_uint64(0))))
call("user-namespace", lambda: raw(UNSHARE, 0x10000000))
call("clone3", lambda: raw(CLONE3, None, 0))
call("vsock", lambda: __import__("socket").socket(40, 1).close())  # AF_VSOCK, SOCK_STREAM
call("tcp", lambda: __import__("socket").socket().close())
db = sqlite3.connect(sys.argv[1])
db.execute("pragma journal_mode=wal")  # (asks after the -shm file's locks)
db.execute("create table t (x)")
db.execute("insert into t values (1)")
db.commit()
print("sqlite", db.execute("select count(*) from t").fetchone()[0])
"""


def _probe(tmp_path: Path, syscall_filter: bool) -> dict[str, str]:
    script = tmp_path / "probe.py"
    script.write_text(PROBE)
    lifeline, keep = os.pipe()
    spec = {
        "lifeline": lifeline, "scope": "group", "uid": -1, "limits": [0, 0, 0, 0, 0],
        "cgroups": [], "root": None, "chdir": "", "filter": syscall_filter,
    }  # fmt: skip
    db = tmp_path / f"bot-{syscall_filter}.sqlite"
    try:
        done = subprocess.run(
            [sys.executable, "-I", "-S", str(CONFINE), json.dumps(spec), "--",
             sys.executable, str(script), str(db)],
            pass_fds=(lifeline,), capture_output=True, text=True, timeout=60,
        )  # fmt: skip
    finally:
        os.close(lifeline)
        os.close(keep)
    assert done.returncode == 0, done.stderr
    return dict(line.split(" ", 1) for line in done.stdout.splitlines())


@pytest.mark.skipif(os.uname().machine not in ("x86_64", "aarch64"), reason="no filter here")
def test_the_filter_closes_locks_watches_and_cache_probes_and_leaves_the_rest(
    tmp_path: Path,
) -> None:
    free = _probe(tmp_path, syscall_filter=False)
    assert {free[k] for k in ("set-lock", "ask-lock", "flock", "inotify", "read-nowait")} == {
        "ok"
    }, free  # the probe is sound: each call works unfiltered
    assert (free["shared-futex-wait"], free["aio"], free["write-hint"]) == ("ETIMEDOUT", "ok", "ok")
    assert free["io_uring"] in ("ok", "EPERM"), free  # (a kernel may turn it off for all)
    assert _probe(tmp_path, syscall_filter=True) == {
        "set-lock": "ok",  # accepted, not taken: nobody else can see it
        "ask-lock": "ok",  # (it sees the host's locks only: no sandbox takes one)
        "lease": "EPERM",
        "flock": "ok",  # likewise
        "inotify": "ENOSYS",
        "read-nowait": "ENOTSUP",  # would tell whether the pages are in the cache
        "read": "ok",
        "evict": "ok",  # accepted, not done
        "io_uring": "ENOSYS",
        "cachestat": "ENOSYS",
        "keyring": "ENOSYS",
        "shared-futex-wait": "ETIMEDOUT",  # untouched (docs/protocol.md: what stays open)
        "private-futex-wait": "ETIMEDOUT",
        "aio": "ENOSYS",
        "write-hint": "EPERM",
        "user-namespace": "EPERM",
        "clone3": "ENOSYS",  # (glibc falls back to clone, whose flags the filter sees)
        "vsock": "EAFNOSUPPORT",  # (no network namespace encloses it)
        "tcp": "ok",
        "sqlite": "1",  # a bot's own database still works, locks, WAL and all
    }


def test_each_jump_of_the_filter_lands_inside_it() -> None:
    for machine in ("x86_64", "aarch64"):
        program = _confine.filter_program(machine)
        for at, (code, jt, jf, _) in enumerate(program):
            if code & 0x07 == 0x05:  # a jump
                assert at + 1 + max(jt, jf) < len(program)
        assert program[-1][0] == 0x06  # it ends in a verdict


def test_a_machine_without_numbers_has_no_filter() -> None:
    with pytest.raises(KeyError):
        _confine.filter_program("riscv64")
