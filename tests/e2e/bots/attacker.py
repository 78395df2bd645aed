r"""A hostile bot: tries what a cheater would, reports what it got on stdout (its log), then plays
random legal actions so the match goes on. Each attack is opt-in:

* ``--steal-tokens``: for two seconds, reads every ``/proc/<pid>/environ`` it can for a
  ``CROUPIER_TOKEN`` of its own match (same ``CROUPIER_MATCH_ID``) that is not its own;
  SIGSTOPs each process holding one, and dials in with
  each stolen token. Reports ``stolen tokens: N``, ``seats taken: [...]``; and whether the
  variable ``CROUPIER_TEST_SECRET`` of the arbiter's environment reached it (``secret: ...``).
* ``--read-replays``: looks for open ``.jsonl`` files through ``/proc/<ppid>/fd`` and every
  ``/proc/*/fd``, and for replays in the directories above its own; reads any it finds.
  Reports ``replays found: N``, ``replays read: M`` and ``seed seen: yes|no``.
* ``--escape MARKER``: starts a grandchild in a session of its own (``setsid``) that holds the
  bot's stdout and sleeps for ten minutes with ``MARKER`` on its command line.
* ``--hog-mib N``: allocates N MiB in one piece (untouched pages: cheap unless limited). Reports
  ``hog: allocated`` or ``hog: MemoryError``.
* ``--probe-port P``: tries a TCP connection to 127.0.0.1:P. Reports ``tcp: connected|refused``.
* ``--crash``: exits with status 3 once its attacks are under way, without playing.
* ``--evil-name``: says Hello with :data:`EVIL_NAME`, which would retitle the terminal, colour
  it and forge a standings row if printed raw.
* ``--whoami``: reports its uid, its capability sets, ``NoNewPrivs`` (``/proc/self/status``),
  its host name and how many processes it sees: ``whoami: uid=U CapInh=... CapPrm=... CapEff=...
  CapBnd=... CapAmb=... NoNewPrivs=N host=H processes=P``.
* ``--read PATH`` (repeatable): tries to read the file. Reports ``read PATH: yes|no``.
* ``--signal-siblings``: looks in ``/proc`` for the other bots of the machine (``croupier_bots``
  on the command line) and checks with signal 0 (which does nothing) whether it could signal
  them. Reports ``siblings seen: N``, ``siblings signallable: M``.
* ``--lane-plant NAME`` / ``--lane-probe NAME``: two bots of one match try to talk outside the
  arbiter: the planter writes ``/tmp/croupier-lane-NAME`` and ``/dev/shm/croupier-lane-NAME``,
  listens on the abstract unix socket ``@croupier-lane-NAME`` and on TCP ``127.0.0.1:PORT``
  (``--lane-port``), locks a byte of this file (a file every sandbox binds: file locks live in
  the host's file, not in the mount; the byte's place would carry data) and ``flock``\ s it,
  opens this file over and over (an inotify watch on it would see that); the prober tries each
  for three seconds. Reports ``lane tmp: yes|no``, ``lane shm: ...``, ``lane abstract: ...``,
  ``lane tcp: ...``, ``lane lock: ...``, ``lane inotify: ...``.
* ``--fork-hogs N:MIB``: forks N children that each fill MIB MiB (written pages) and hold them;
  once each has filled its block or died, counts the children still holding theirs. Reports
  ``fork hogs filled: F of N``, ``fork hogs held: K of N``, then ends them.
* ``--spin N``: N child processes that burn CPU for the whole match (on every core; processes,
  not threads, which the GIL would serialise), each in a session of its own (the kernel's
  autogroup scheduling would otherwise share one session's CPU among its processes), from two
  seconds on (the bot dials in first). Reports ``spinning: N``.
"""

from __future__ import annotations

import argparse
import contextlib
import ctypes
import fcntl
import os
import signal
import socket
import struct
import sys
import threading
import time
import zlib
from pathlib import Path

from _common import say

from croupier_bot import MatchInfo, play, run
from croupier_bots.random_bot import RandomBot

EVIL_NAME = "\x1b]0;owned\x07\x1b[31mevil\r\n1      3     forged  99  normal  0  0\u202e"


def steal_tokens() -> None:
    mine = os.environ.get("CROUPIER_TOKEN", "")
    match_id = f"CROUPIER_MATCH_ID={os.environ.get('CROUPIER_MATCH_ID', '')}".encode()
    stolen: dict[str, int] = {}
    deadline = time.monotonic() + 2.0
    while time.monotonic() < deadline and len(stolen) < 3:
        for proc in Path("/proc").iterdir():
            if not proc.name.isdigit() or int(proc.name) == os.getpid():
                continue
            try:
                environ = (proc / "environ").read_bytes().split(b"\0")
            except OSError:
                continue
            # only this match's seats: other matches on the machine are none of this test's
            if match_id not in environ:
                continue
            for entry in environ:
                if entry.startswith(b"CROUPIER_TOKEN="):
                    token = entry.split(b"=", 1)[1].decode()
                    if token and token != mine:
                        stolen[token] = int(proc.name)
        time.sleep(0.05)
    say(f"stolen tokens: {len(stolen)}")
    say(f"secret: {os.environ.get('CROUPIER_TEST_SECRET', '(not set)')}")
    for pid in set(stolen.values()):
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGSTOP)
    taken: list[int] = []

    class Thief(RandomBot):
        name = "thief"

        def on_welcome(self, match: MatchInfo) -> None:
            taken.append(match.seat)

    def take(token: str) -> None:
        # refused or cut off: the attack failed, which is what the tests want
        with contextlib.suppress(Exception):
            play(Thief(0), token=token, connect_timeout_s=2)

    for token in stolen:
        threading.Thread(target=take, args=(token,), daemon=True).start()
    time.sleep(1.0)
    say(f"seats taken: {sorted(taken)}")


def read_replays() -> None:
    found: set[str] = set()
    for fd_dir in [Path(f"/proc/{os.getppid()}/fd"), *Path("/proc").glob("*/fd")]:
        try:
            for fd in fd_dir.iterdir():
                target = os.readlink(fd)
                if target.endswith(".jsonl"):
                    found.add(str(fd))
        except OSError:
            continue
    here = Path(__file__).resolve().parent
    for up in [here, *here.parents][:3]:
        try:
            found.update(str(p) for p in up.glob("**/*.jsonl") if p.is_file())
        except OSError:
            continue
    read = 0
    seed = False
    for name in sorted(found):
        try:
            with open(name, encoding="utf-8", errors="replace") as f:
                text = f.read(4096)
        except OSError:
            continue
        read += 1
        seed = seed or '"seed"' in text
    say(f"replays found: {len(found)}")
    say(f"replays read: {read}")
    say(f"seed seen: {'yes' if seed else 'no'}")


def escape(marker: str) -> None:
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            code = "import time; time.sleep(600)"
            os.execv(sys.executable, [sys.executable, "-c", code, marker])
        os._exit(0)
    say("escaper started")


def hog(mib: int) -> None:
    try:
        block = bytearray(mib << 20)
        say("hog: allocated")
        del block
    except MemoryError:
        say("hog: MemoryError")


def probe(port: int) -> None:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1):
            say("tcp: connected")
    except OSError:
        say("tcp: refused")


def whoami() -> None:
    status = dict(line.split(":", 1) for line in Path("/proc/self/status").read_text().splitlines())
    fields = ["CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb", "NoNewPrivs"]
    sets = " ".join(f"{k}={status.get(k, '?').strip()}" for k in fields)
    seen = sum(1 for p in Path("/proc").iterdir() if p.name.isdigit())
    say(f"whoami: uid={os.getuid()} {sets} host={socket.gethostname()} processes={seen}")


def read_files(paths: list[str]) -> None:
    for path in paths:
        try:
            with open(path, "rb") as f:
                f.read(64)
            say(f"read {path}: yes")
        except OSError:
            say(f"read {path}: no")


def signal_siblings() -> None:
    """Signal 0 checks the permission and delivers nothing (the machine's other bots are left
    alone)."""
    mine = {os.getpid(), os.getppid()}
    seen = signallable = 0
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit() or int(proc.name) in mine:
            continue
        try:
            cmdline = (proc / "cmdline").read_bytes()
        except OSError:
            continue
        if b"croupier_bots" not in cmdline:
            continue
        seen += 1
        try:
            os.kill(int(proc.name), 0)
            signallable += 1
        except OSError:
            pass
    say(f"siblings seen: {seen}")
    say(f"siblings signallable: {signallable}")


#: Where the lock channel's bytes are: a byte past ``LOCK_BASE`` that names the lane.
LOCK_BASE = 1 << 20
LOCK_SPAN = 1 << 16
_libc = ctypes.CDLL(None, use_errno=True)
_held: list[int] = []  # descriptors whose locks stay taken


def _lock_byte(name: str) -> int:
    return LOCK_BASE + zlib.crc32(name.encode()) % LOCK_SPAN


def _flock_struct(kind: int, start: int, length: int) -> bytes:
    return struct.pack("hhqqi", kind, os.SEEK_SET, start, length, 0)


def _keep_opening(path: str, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        with contextlib.suppress(OSError), open(path, "rb") as file:
            file.read(1)
        time.sleep(0.05)


def lane_plant(name: str, port: int) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(__file__, os.O_RDONLY)
        _held.append(fd)
        fcntl.fcntl(fd, fcntl.F_SETLK, _flock_struct(fcntl.F_RDLCK, _lock_byte(name), 1))
        fcntl.flock(fd, fcntl.LOCK_SH)
    threading.Thread(target=_keep_opening, args=(__file__, 30.0), daemon=True).start()
    for folder in ("/tmp", "/dev/shm"):
        with contextlib.suppress(OSError):
            Path(folder, f"croupier-lane-{name}").write_text("hello")
    listeners = []
    with contextlib.suppress(OSError):
        abstract = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        abstract.bind(f"\0croupier-lane-{name}")
        abstract.listen()
        listeners.append(abstract)
    if port:
        with contextlib.suppress(OSError):
            tcp = socket.create_server(("127.0.0.1", port))
            listeners.append(tcp)
    say(f"lane planted: {len(listeners)} listeners")
    threading.Thread(target=_hold, args=(listeners,), daemon=True).start()


def _hold(listeners: list[socket.socket]) -> None:
    time.sleep(600)


def _locked(fd: int) -> bool:
    """Whether another process holds a lock on the lock channel's bytes of ``fd``'s file, or
    a ``flock`` on it."""
    with contextlib.suppress(OSError):
        asked = _flock_struct(fcntl.F_WRLCK, LOCK_BASE, LOCK_SPAN)
        if struct.unpack("hhqqi", fcntl.fcntl(fd, fcntl.F_GETLK, asked))[0] != fcntl.F_UNLCK:
            return True
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    except OSError:
        return False
    fcntl.flock(fd, fcntl.LOCK_UN)
    return False


def _inotify_watch(path: str) -> int:
    """A non-blocking inotify descriptor watching ``path`` being opened, or -1."""
    fd = _libc.inotify_init1(os.O_NONBLOCK)
    if fd >= 0 and _libc.inotify_add_watch(fd, path.encode(), 0x20) < 0:  # IN_OPEN
        os.close(fd)
        return -1
    return int(fd)


def lane_probe(name: str, port: int) -> None:
    found = {"tmp": False, "shm": False, "abstract": False, "tcp": False, "lock": False,
             "inotify": False}  # fmt: skip
    own = os.open(__file__, os.O_RDONLY)
    watch = _inotify_watch(__file__)
    deadline = time.monotonic() + 3.0
    while time.monotonic() < deadline and not all(found.values()):
        found["lock"] = found["lock"] or _locked(own)
        if watch >= 0:
            with contextlib.suppress(BlockingIOError):
                found["inotify"] = found["inotify"] or bool(os.read(watch, 4096))
        found["tmp"] = found["tmp"] or Path("/tmp", f"croupier-lane-{name}").exists()
        found["shm"] = found["shm"] or Path("/dev/shm", f"croupier-lane-{name}").exists()
        with contextlib.suppress(OSError), socket.socket(socket.AF_UNIX) as s:
            s.connect(f"\0croupier-lane-{name}")
            found["abstract"] = True
        if port:
            with contextlib.suppress(OSError):
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                found["tcp"] = True
        time.sleep(0.1)
    for key, value in found.items():
        say(f"lane {key}: {'yes' if value else 'no'}")


def fork_hogs(spec: str) -> None:
    count, mib = (int(x) for x in spec.split(":"))
    read, write = os.pipe()
    children = []
    for _ in range(count):
        pid = os.fork()
        if pid == 0:
            os.close(read)
            try:
                block = b"\x01" * (mib << 20)  # written, so resident
                os.write(write, b"+")
                time.sleep(600)
                del block
            finally:
                os._exit(0)
        children.append(pid)
    os.close(write)
    os.set_blocking(read, False)
    filled = 0
    dead: set[int] = set()
    deadline = time.monotonic() + 30.0
    while filled + len(dead) < count and time.monotonic() < deadline:
        with contextlib.suppress(BlockingIOError):
            filled += len(os.read(read, 4096))
        for pid in children:
            if pid not in dead and os.waitpid(pid, os.WNOHANG)[0] == pid:
                dead.add(pid)
        time.sleep(0.05)
    time.sleep(0.5)  # the last ones in may push an earlier one out
    held = 0
    for pid in children:
        if pid not in dead and os.waitpid(pid, os.WNOHANG)[0] == 0:
            held += 1
    say(f"fork hogs filled: {filled} of {count}")
    say(f"fork hogs held: {held} of {count}")
    for pid in children:
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
        with contextlib.suppress(OSError):
            os.waitpid(pid, 0)


def spin(count: int) -> None:
    for _ in range(count):
        if os.fork() == 0:
            try:
                os.setsid()  # a session (so a scheduler autogroup) of its own each
                time.sleep(2.0)  # (the bot dials in first)
                while True:
                    pass
            finally:
                os._exit(0)
    say(f"spinning: {count}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--steal-tokens", action="store_true")
    parser.add_argument("--read-replays", action="store_true")
    parser.add_argument("--escape", default="")
    parser.add_argument("--hog-mib", type=int, default=0)
    parser.add_argument("--probe-port", type=int, default=0)
    parser.add_argument("--evil-name", action="store_true")
    parser.add_argument("--crash", action="store_true")
    parser.add_argument("--whoami", action="store_true")
    parser.add_argument("--read", action="append", default=[])
    parser.add_argument("--signal-siblings", action="store_true")
    parser.add_argument("--lane-plant", default="")
    parser.add_argument("--lane-probe", default="")
    parser.add_argument("--lane-port", type=int, default=0)
    parser.add_argument("--fork-hogs", default="")
    parser.add_argument("--spin", type=int, default=0)
    args = parser.parse_args()
    if args.whoami:
        whoami()
    if args.read:
        read_files(args.read)
    if args.signal_siblings:
        signal_siblings()
    if args.lane_plant:
        lane_plant(args.lane_plant, args.lane_port)
    if args.lane_probe:
        lane_probe(args.lane_probe, args.lane_port)
    if args.fork_hogs:
        fork_hogs(args.fork_hogs)
    if args.spin:
        spin(args.spin)
    if args.steal_tokens:
        steal_tokens()
    if args.read_replays:
        read_replays()
    if args.escape:
        escape(args.escape)
    if args.hog_mib:
        hog(args.hog_mib)
    if args.probe_port:
        probe(args.probe_port)
    if args.crash:
        os._exit(3)
    bot = RandomBot(int(os.environ.get("CROUPIER_SEED", "0")))
    bot.name = EVIL_NAME if args.evil_name else "attacker"
    run(bot)


if __name__ == "__main__":
    main()
