"""The sandbox a launched bot runs in: its namespaces and file system, a uid of its own, resource
limits, a control group (:mod:`._cgroups`), all under the supervisor of :mod:`._confine`.

**With bubblewrap** (``bwrap``, Debian package ``bubblewrap``) each bot gets its own PID, IPC,
UTS, network and mount namespaces. Its file system is built from nothing (:func:`fs_plan`):
read-only binds of the system (``/usr``, the ``/bin``/``/lib`` links, a few files of ``/etc``),
of the Python that runs the arbiter (its prefix and the venv), of the ``croupier``,
``croupier_bot``, ``croupier_bots`` and ``croupier_proto`` packages' directories and of the wire
contract (``proto/``, which the Node SDK loads), and of the bot's own directory; a private
``/tmp`` (tmpfs), fresh ``/proc`` and ``/dev`` (its own ``/dev/shm``); and the arbiter's unix
socket at :data:`SANDBOX_SOCKET`. The match directory (replay, logs) is never bound, and is
covered by an empty tmpfs should it lie inside a bound directory. The network namespace has
only its own loopback, so the bot reaches the arbiter through that socket and nothing else.
``--die-with-parent`` and the PID namespace make the whole process tree die with the sandbox
(``setsid`` included): killing the outer ``bwrap`` kills its init, and the kernel kills
everything else in the namespace. The bot itself runs under the supervisor of :mod:`._confine`,
which kills everything in the namespace when the arbiter's lifeline closes: that covers the
arbiter dying while bubblewrap is still setting up, before its init has armed
``PR_SET_PDEATHSIG``; and which installs the system-call filter (seccomp) that closes the
direct channels between sandboxes through the host files they all bind (locks, watches, direct
page-cache probes: :mod:`._confine`, which names what stays open).

**Without bubblewrap, as root** (:attr:`Isolation.UNSHARE`): util-linux ``unshare`` makes the
same namespaces (``--pid --fork --kill-child --mount --ipc --uts --net``), and the supervisor,
the namespace's init, builds the same file system from the same plan (:func:`fs_plan`) with
``mount(2)`` and ``pivot_root(2)`` before it starts the bot. Where even that cannot run (no
``unshare``, or a container that forbids namespaces) a bot as root still gets a uid of its own
(:attr:`Isolation.UID`), but shares the machine's file system (as any user may read it), process
list, network and ``/tmp``.

When the arbiter runs as root, :mod:`._confine` switches the bot to a uid of its own (from
:data:`SEAT_UID_BASE` on, a different one for each launch), with no groups, no capabilities (the
bounding, inheritable and ambient sets emptied too) and ``no_new_privs``; otherwise bubblewrap
uses an unprivileged user namespace and the bot keeps the arbiter's uid (its PID namespace still
hides every other process).

Not root and no bubblewrap (:attr:`Isolation.LIMITS`): the bot runs as the arbiter's user with
the resource limits and the scrubbed environment only, and is killed with its process group; one
warning line (:func:`warning`) says what is not isolated. ``--sandbox none``: no isolation at
all, for debugging (:attr:`Isolation.NONE`). ``croupier tournament`` and ``croupier serve``
refuse to launch bots without a sandbox (:attr:`Isolation.isolated`) unless told ``none``
(:func:`refusal`).
"""

from __future__ import annotations

import asyncio
import enum
import functools
import json
import os
import secrets
import shutil
import subprocess
import sys
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from croupier.errors import BotLaunchError, ConfigError
from croupier.transport import _cgroups
from croupier.transport._bot_dirs import (
    SYSTEM_DIRS,
    absolute_args,
    check_bot_dirs,
    check_private_paths,
    check_reachable,
    check_readable,
    check_shown_dirs,
    own_dirs,
    system_dirs,
    under,
)

#: Where the arbiter's unix socket appears inside a sandbox.
SANDBOX_SOCKET = "/run/croupier/arbiter.sock"
#: The address a sandboxed bot dials.
SANDBOX_ADDRESS = f"unix:{SANDBOX_SOCKET}"
#: First of the uids handed to sandboxed bots when the arbiter runs as root (far above any
#: account a system allocates), and how many there are (each launch takes the next one).
SEAT_UID_BASE = 1_000_000_000
SEAT_UID_COUNT = 1_000_000
#: Size of a sandbox's private /tmp (and of its /dev, which holds its /dev/shm).
TMP_BYTES = 256 << 20
#: The host name inside a sandbox.
HOSTNAME = "croupier-bot"

#: Environment variables a sandboxed bot inherits from the arbiter (plus the protocol's own).
ENV_ALLOWED = ("PATH", "LANG", "LANGUAGE", "LC_ALL", "LC_CTYPE", "LC_MESSAGES", "TZ", "TERM")
#: Files of /etc a program may need to start (dynamic loader, users and groups, time zone).
ETC_FILES = (
    "/etc/ld.so.cache",
    "/etc/ld.so.conf",
    "/etc/ld.so.conf.d",
    "/etc/localtime",
    "/etc/nsswitch.conf",
    "/etc/passwd",
    "/etc/group",
    "/etc/alternatives",
)
_CONFINE = Path(__file__).with_name("_confine.py")


class SandboxMode(enum.Enum):
    """``auto``: the best isolation this machine offers (bubblewrap, else util-linux ``unshare``
    as root, else a uid of its own as root, else limits only; anything short of a sandbox is
    said in one warning line, and refused by ``tournament`` and ``serve``); ``bwrap``:
    bubblewrap or an error; ``unshare``: util-linux namespaces as root or an error; ``none``: no
    isolation at all (for debugging)."""

    AUTO = "auto"
    BWRAP = "bwrap"
    UNSHARE = "unshare"
    NONE = "none"


class Isolation(enum.Enum):
    """What a bot actually ran in, from the strongest to none."""

    #: bubblewrap: namespaces, a file system of its own, a uid of its own as root, limits, a
    #: scrubbed environment
    BWRAP = "bwrap"
    #: util-linux unshare as root: the same namespaces and file system, a uid of its own
    UNSHARE = "unshare"
    #: as root without namespaces: a uid of its own without capabilities, limits, a scrubbed
    #: environment, its process group; the machine's files (as any user), processes, network
    #: and /tmp are shared
    UID = "uid"
    #: not root, no bubblewrap: resource limits, a scrubbed environment, its process group
    LIMITS = "limits"
    #: nothing but the resource limits
    NONE = "none"

    @property
    def isolated(self) -> bool:
        """Whether the bot ran in a sandbox (what ``tournament`` and ``serve`` demand)."""
        return self in (Isolation.BWRAP, Isolation.UNSHARE)

    @property
    def summary(self) -> str:
        """A few words for the standings."""
        return _SUMMARIES[self]

    @property
    def rank(self) -> int:
        """Higher is stronger (for "the weakest isolation a bot ran in")."""
        return len(Isolation) - list(Isolation).index(self)


_SUMMARIES = {
    Isolation.BWRAP: "bubblewrap",
    Isolation.UNSHARE: "util-linux unshare",
    Isolation.UID: "a uid of its own only, no namespaces",
    Isolation.LIMITS: "resource limits only",
    Isolation.NONE: "no sandbox (--sandbox none)",
}


@dataclass(frozen=True, slots=True)
class Limits:
    """Resource limits of one bot: per process (rlimits) and of its whole process tree (its
    control group, where the machine has one); 0 means no limit."""

    #: Address space per process (RLIMIT_AS), MiB.
    memory_mb: int = 4096
    #: Processes (threads included): of the bot's whole tree (its group's ``pids.max``), and
    #: of the seat's uid (RLIMIT_NPROC) when the bot has a uid of its own (the arbiter runs as
    #: root; else it would count the arbiter's too).
    processes: int = 128
    #: CPU seconds per process (RLIMIT_CPU).
    cpu_s: int = 3600
    #: Largest file the bot may write (RLIMIT_FSIZE), MiB.
    file_mb: int = 64
    #: Open file descriptors per process (RLIMIT_NOFILE).
    open_files: int = 256
    #: Memory of the whole process tree (its group's memory cap: resident pages, page cache,
    #: its tmpfs files), MiB; -1: the same as :attr:`memory_mb`.
    tree_memory_mb: int = -1
    #: CPU quota of the whole tree, in cores per seat it plays at once (its group's CPU quota).
    cpus: float = 1.0

    @property
    def tree_mb(self) -> int:
        """The tree's memory cap, MiB (0: none)."""
        return self.memory_mb if self.tree_memory_mb < 0 else self.tree_memory_mb

    def group(self, seats: int = 1) -> _cgroups.GroupLimits:
        """The limits of the bot's control group, for a process that plays ``seats`` at once."""
        return _cgroups.GroupLimits(
            memory_bytes=self.tree_mb << 20,
            pids=self.processes,
            cpus=self.cpus * max(1, seats),
        )


#: Environment variable giving the default :class:`SandboxMode` of every launch in a process that
#: has no ``--sandbox`` flag of its own to say it (a tournament's Ray workers, say).
ENV_SANDBOX = "CROUPIER_SANDBOX"


def default_mode() -> SandboxMode:
    """``CROUPIER_SANDBOX`` (``auto``, ``bwrap``, ``unshare`` or ``none``), else ``auto``."""
    text = os.environ.get(ENV_SANDBOX, "") or SandboxMode.AUTO.value
    try:
        return SandboxMode(text)
    except ValueError:
        choices = ", ".join(m.value for m in SandboxMode)
        raise ConfigError(f"{ENV_SANDBOX}={text!r}: expected one of {choices}") from None


@dataclass(frozen=True, slots=True)
class SandboxOptions:
    """How bots are launched: the mode (default: :func:`default_mode`) and limits (from the
    command line), plus what the match adds: the arbiter's unix socket to bind in, and the
    directories a bot must never see."""

    mode: SandboxMode = field(default_factory=default_mode)
    limits: Limits = field(default_factory=Limits)
    socket: Path | None = None
    hidden: tuple[Path, ...] = ()
    #: Directories bound read-write into every sandbox at their own path (a work directory the
    #: bots share; never the match directory). The bot's uid must be allowed to write there.
    writable: tuple[Path, ...] = ()
    #: Files and directories no bot's own directory may hold or lie in (a tournament's store and
    #: config, a server's state folder): such a bot is refused (:func:`check_bot_dirs`); in a
    #: sandbox, such a directory inside a bound one is covered, such a file there refused
    #: (:func:`check_private_paths`).
    forbidden: tuple[Path, ...] = ()


@dataclass(frozen=True, slots=True)
class Plan:
    """The command line that runs a bot, what it runs in, and the environment it gets."""

    argv: list[str]
    isolation: Isolation
    env: dict[str, str]


def bwrap_path() -> str | None:
    return shutil.which("bwrap")


def unshare_path() -> str | None:
    return shutil.which("unshare")


_uid_counter = secrets.randbelow(SEAT_UID_COUNT)


def next_seat_uid() -> int:
    """A uid for the next sandboxed bot (only used when the arbiter runs as root)."""
    global _uid_counter
    _uid_counter = (_uid_counter + 1) % SEAT_UID_COUNT
    return SEAT_UID_BASE + _uid_counter


def scrubbed_env(env: dict[str, str]) -> dict[str, str]:
    """The allow-listed part of the arbiter's environment, then ``env`` (the protocol's)."""
    kept = {k: v for k, v in os.environ.items() if k in ENV_ALLOWED}
    kept.update({"HOME": "/tmp", "TMPDIR": "/tmp", "PYTHONDONTWRITEBYTECODE": "1"})
    kept.update(env)
    return kept


def _confine_argv(
    argv: list[str],
    limits: Limits,
    uid: int,
    lifeline: int,
    *,
    namespace: bool,
    cgroups: Iterable[int] = (),
    root: dict[str, object] | None = None,
    chdir: str = "",
) -> list[str]:
    """The supervisor's command line (:mod:`._confine`): ``lifeline`` is the fd number of the
    read end of the arbiter's lifeline pipe; ``namespace``: the bot is in a sandbox (a PID
    namespace of its own, and the system-call filter);
    ``cgroups``: fds of its groups' ``cgroup.procs``; ``root``: the file system the supervisor
    builds (the util-linux sandbox); ``chdir``: where the bot starts."""
    mib = 1 << 20
    spec: dict[str, object] = {
        "lifeline": lifeline,
        "scope": "ns" if namespace else "group",
        "uid": uid,
        "limits": [
            limits.memory_mb * mib,
            limits.processes if uid >= 0 else 0,
            limits.cpu_s,
            limits.file_mb * mib,
            limits.open_files,
        ],
        "cgroups": list(cgroups),
        "root": root,
        "chdir": chdir,
        "filter": namespace,
    }
    return [sys.executable, "-I", "-S", str(_CONFINE), json.dumps(spec), "--", *argv]


#: One step of a sandbox's file system (JSON-able): ``["tmpfs", path, mode, size]``,
#: ``["dir", path, mode]``, ``["symlink", target, path]``, ``["ro-bind", src, dst]``,
#: ``["bind", src, dst]``, ``["proc", path]``, ``["dev", path]`` (modes in octal text).
Op = list[str]


def fs_plan(argv: list[str], options: SandboxOptions, *, check_uid: bool) -> tuple[list[Op], str]:
    """The file system of a sandbox (see the module docstring), as steps in order, and the
    directory the bot starts in. ``check_uid``: the bot gets a uid of its own, so its
    directories must be open to other users. The same plan runs in bubblewrap
    (:func:`bwrap_argv`) and in the supervisor of the util-linux sandbox (:mod:`._confine`)."""
    ops: list[Op] = []
    for name in SYSTEM_DIRS:
        path = Path(name)
        if path.is_symlink():
            ops.append(["symlink", os.readlink(path), name])
    system = system_dirs()
    own = own_dirs(argv, system)
    for hidden in options.hidden:
        if any(under(d, [hidden.resolve()]) for d in own):
            raise BotLaunchError(
                f"the bot lives in the match directory {hidden}, which bots may not see: "
                "write the replays somewhere else (--out)"
            )
    check_shown_dirs(argv)
    if check_uid:
        check_readable(own)
    wanted = system + own
    # outermost first; a directory inside another bound one comes with it
    bound: list[Path] = []
    for path in sorted(set(wanted), key=lambda p: (len(p.parts), p)):  # (the same each run)
        if not under(path, bound):
            bound.append(path)
    # /tmp first: a bot directory under /tmp is bound on top of the private tmpfs
    ops.extend([["proc", "/proc"], ["dev", "/dev"], ["tmpfs", "/tmp", "1777", str(TMP_BYTES)]])
    made: set[Path] = {Path("/etc"), Path("/run"), Path("/tmp")}
    ops.extend([["dir", "/etc", "755"], ["dir", "/run", "755"]])
    for path in bound:  # parents readable by the seat's uid (bwrap would make them 0700)
        for parent in reversed(path.parents[:-1]):
            if parent not in made and not under(parent, bound):
                made.add(parent)
                ops.append(["dir", str(parent), "755"])
    for path in bound:
        ops.append(["ro-bind", str(path), str(path)])
    for name in ETC_FILES:
        if os.path.lexists(name):
            ops.append(["ro-bind", name, name])
    for path in options.writable:
        real = path.resolve()
        for parent in reversed(real.parents[:-1]):
            if parent not in made and not under(parent, bound):
                made.add(parent)
                ops.append(["dir", str(parent), "755"])
        ops.append(["bind", str(real), str(real)])
        bound.append(real)
    if options.socket is not None:
        ops.append(["dir", "/run/croupier", "755"])
        ops.append(["ro-bind", str(options.socket), SANDBOX_SOCKET])
    check_private_paths(p for p in options.forbidden if os.path.lexists(p))
    covered: list[Path] = []
    folders = [h.resolve() for h in options.hidden]
    folders += [p.resolve() for p in options.forbidden if p.resolve().is_dir()]  # (files: above)
    for real in folders:
        for seen in _seen_at(real, bound):
            if seen not in covered:
                covered.append(seen)
                ops.append(["tmpfs", str(seen), "755", "0"])
    return ops, str(own[0]) if own else "/tmp"


def _seen_at(real: Path, bound: list[Path]) -> list[Path]:
    """Where the directory ``real`` (resolved) appears in a sandbox that binds ``bound`` (each
    at its own path, which may pass through a symbolic link: a venv's, say)."""
    targets = [(root, root.resolve()) for root in bound]
    return [root / real.relative_to(target) for root, target in targets if under(real, [target])]


def _bwrap_ops(ops: list[Op]) -> list[str]:
    """Bubblewrap's options for the steps of :func:`fs_plan`."""
    args: list[str] = []
    for op in ops:
        kind = op[0]
        if kind == "tmpfs":
            args.extend(["--perms", op[2].zfill(4)])
            if op[3] != "0":
                args.extend(["--size", op[3]])
            args.extend(["--tmpfs", op[1]])
        elif kind == "dir":
            args.extend(["--perms", op[2].zfill(4), "--dir", op[1]])
        elif kind == "symlink":
            args.extend(["--symlink", op[1], op[2]])
        elif kind in ("ro-bind", "bind"):
            args.extend([f"--{kind}", op[1], op[2]])
        else:  # proc, dev
            args.extend([f"--{kind}", op[1]])
    return args


def bwrap_argv(
    bwrap: str,
    argv: list[str],
    options: SandboxOptions,
    uid: int,
    *,
    as_root: bool,
    lifeline: int,
    cgroups: Iterable[int] = (),
) -> list[str]:
    """The bubblewrap command line running ``argv`` (see the module docstring) under its
    supervisor, which reads the arbiter's ``lifeline`` (an inherited fd) and puts the bot in
    the groups of ``cgroups`` (inherited fds of their ``cgroup.procs``)."""
    cgroups = list(cgroups)
    args = [bwrap, "--unshare-pid", "--unshare-ipc", "--unshare-uts"]
    if not cgroups:  # (joining a group from inside a cgroup namespace: refused by old kernels)
        args.append("--unshare-cgroup-try")
    args.extend(["--die-with-parent", "--hostname", HOSTNAME])
    if not as_root:
        args.append("--unshare-user")
    if options.socket is not None:
        args.append("--unshare-net")
    ops, cwd = fs_plan(argv, options, check_uid=as_root and uid >= 0)
    args.extend(_bwrap_ops(ops))
    args.extend(["--chdir", cwd])
    inner = _confine_argv(argv, options.limits, uid, lifeline, namespace=True, cgroups=cgroups)
    return [*args, "--", *inner]


def unshare_argv(
    unshare: str,
    argv: list[str],
    options: SandboxOptions,
    uid: int,
    *,
    lifeline: int,
    cgroups: Iterable[int] = (),
    net: bool | None = None,
) -> list[str]:
    """The util-linux sandbox running ``argv`` as ``uid`` (the arbiter runs as root): the
    namespaces from ``unshare``, the file system of :func:`fs_plan` built by the supervisor,
    the namespace's init (see :mod:`._confine`). A network namespace of its own when ``net``
    (default: when the bot reaches the arbiter by its socket)."""
    args = [unshare, "--pid", "--fork", "--kill-child", "--mount", "--ipc", "--uts"]
    args.extend(["--propagation", "private"])
    if net is None:
        net = options.socket is not None
    if net:
        args.append("--net")
    ops, cwd = fs_plan(argv, options, check_uid=uid >= 0)
    root: dict[str, object] = {"ops": ops, "hostname": HOSTNAME, "loopback": net}
    inner = _confine_argv(
        argv, options.limits, uid, lifeline, namespace=True, cgroups=cgroups, root=root,
        chdir=cwd,
    )  # fmt: skip
    return [*args, "--", *inner]


def _probe(argv: list[str], read: int) -> str:
    """Run a sandbox's probe; '' if it worked, else why not (one line)."""
    try:
        done = subprocess.run(
            argv, capture_output=True, text=True, timeout=30, check=False, pass_fds=(read,)
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        return str(exc)
    if done.returncode != 0:
        lines = done.stderr.strip().splitlines()
        return lines[-1] if lines else f"exited with {done.returncode}"
    return ""


@functools.cache
def _bwrap_works(bwrap: str, as_root: bool) -> str:
    """'' when bubblewrap can run a sandbox here, else the reason it cannot (one line)."""
    probe_argv = [sys.executable, "-I", "-S", "-c", ""]
    read, write = os.pipe()
    try:
        probe = bwrap_argv(bwrap, probe_argv, SandboxOptions(), -1, as_root=as_root, lifeline=read)
        return _probe(probe, read)
    finally:
        os.close(read)
        os.close(write)


@functools.cache
def _unshare_works(unshare: str) -> str:
    """'' when util-linux ``unshare`` can run a sandbox here, else why not (one line)."""
    probe_argv = [sys.executable, "-I", "-S", "-c", ""]
    read, write = os.pipe()
    try:
        options = SandboxOptions(mode=SandboxMode.UNSHARE)
        probe = unshare_argv(unshare, probe_argv, options, next_seat_uid(), lifeline=read, net=True)
        return _probe(probe, read)
    finally:
        os.close(read)
        os.close(write)


def bwrap_problem() -> str:
    """'' when bots can be sandboxed with bubblewrap here, else why not (one line)."""
    bwrap = bwrap_path()
    if bwrap is None:
        return "bubblewrap (bwrap) is not installed"
    return _bwrap_works(bwrap, os.geteuid() == 0)


def unshare_problem() -> str:
    """'' when bots can be sandboxed with util-linux ``unshare`` here, else why not."""
    if os.geteuid() != 0:
        return "the arbiter does not run as root"
    unshare = unshare_path()
    if unshare is None:
        return "util-linux unshare is not installed"
    problem = _unshare_works(unshare)
    return f"unshare: {problem}" if problem else ""


async def bwrap_problem_async() -> str:
    """:func:`bwrap_problem` without blocking the event loop (the first call runs a probe)."""
    return await asyncio.to_thread(bwrap_problem)


@dataclass(frozen=True, slots=True)
class Choice:
    """What bots launched in a mode run in on this machine, and what stood in the way of
    anything stronger (``why``, one line; ``""`` for bubblewrap and ``none``)."""

    isolation: Isolation
    why: str = ""


def choose(mode: SandboxMode) -> Choice:
    """What a bot launched in ``mode`` runs in here (probing once per process);
    :class:`BotLaunchError` when ``mode`` demands a sandbox that cannot run."""
    if mode is SandboxMode.NONE:
        return Choice(Isolation.NONE)
    if mode is SandboxMode.UNSHARE:
        if problem := unshare_problem():
            raise BotLaunchError(f"cannot sandbox the bot with util-linux unshare: {problem}")
        return Choice(Isolation.UNSHARE)
    bwrap = bwrap_problem()
    if not bwrap:
        return Choice(Isolation.BWRAP)
    if mode is SandboxMode.BWRAP:
        raise BotLaunchError(f"cannot sandbox the bot: {bwrap}")
    if os.geteuid() != 0:
        return Choice(Isolation.LIMITS, f"{bwrap}, and the arbiter does not run as root")
    unshare = unshare_problem()
    if not unshare:
        return Choice(Isolation.UNSHARE, bwrap)
    return Choice(Isolation.UID, f"{bwrap}; {unshare}")


def isolation_of(mode: SandboxMode) -> Isolation:
    """What a bot launched in ``mode`` runs in here (:func:`choose`)."""
    return choose(mode).isolation


async def choose_async(mode: SandboxMode) -> Choice:
    """:func:`choose` without blocking the event loop (the first call runs the probes)."""
    return await asyncio.to_thread(choose, mode)


def cgroup_problem() -> str:
    """'' when every bot gets a control group with every controller, else what is missing."""
    return _cgroups.machine_setup().problem


def inside(isolation: Isolation) -> str:
    """What a bot launched in ``isolation`` can open and which variables it gets, in one
    sentence: what ``croupier check-bot`` tells the author of a bot that could not read a file
    or find a module ('' without isolation: the bot sees what the arbiter sees)."""
    if isolation is Isolation.NONE:
        return ""
    names = [*ENV_ALLOWED, "HOME=/tmp", "TMPDIR=/tmp", "PYTHONDONTWRITEBYTECODE"]
    env = (
        f"it gets only the variables {', '.join(names)} (those the arbiter has) and the "
        "protocol's CROUPIER_ADDRESS, CROUPIER_TOKEN, CROUPIER_SEAT, CROUPIER_SEED, "
        "CROUPIER_MATCH_ID (or the session's), CROUPIER_PROTO_DIR, PYTHONUNBUFFERED"
    )
    if not isolation.isolated:
        return f"the bot runs in a scrubbed environment: {env}"
    return (
        f"in the {isolation.value} sandbox the bot sees, read-only, only /usr and the system's "
        "/bin and /lib, a few files of /etc, the Python that runs the arbiter (its prefix and "
        "venv), the croupier packages, the wire contract (proto/) and its own program's "
        f"directory, plus a private empty /tmp; {env}"
    )


def warning(options: SandboxOptions) -> str:
    """One line saying what launched bots will not get here ('' when they get everything:
    a sandbox and a control group with every controller); for ``--sandbox none``, only what
    the control groups lack."""
    parts = []
    try:
        choice = choose(options.mode)
    except BotLaunchError:
        choice = Choice(Isolation.BWRAP)  # (each launch says it)
    if choice.isolation is Isolation.UID:
        parts.append(
            f"bots are not sandboxed ({choice.why}): each runs as a uid of its own without "
            "capabilities, but sees this machine's files (as any user may), processes and "
            "network, and shares its /tmp"
        )
    elif choice.isolation is Isolation.LIMITS:
        parts.append(
            f"bots are not isolated ({choice.why}): they run as this user, so they can read "
            "its files and the other bots' tokens, signal its processes, reach the network "
            "and share /tmp; only resource limits apply"
        )
    setup = _cgroups.machine_setup()
    if setup.problem:
        have = setup.controllers
        lost = []
        if "memory" not in have:
            lost.append("memory is capped per process only, not per bot")
        if "pids" not in have:
            lost.append("processes are capped per uid only")
        if "cpu" not in have:
            lost.append("no CPU quota")
        parts.append(f"no cgroups for the bots ({setup.problem}): {', '.join(lost)}")
    return "; ".join(parts)


def private_refusal(options: SandboxOptions, folders: Iterable[Path] = ()) -> str:
    """Why bots may not be launched with ``options`` here although they get a sandbox: one of
    its forbidden files lies where every sandbox can read it (:func:`check_private_paths`;
    ``folders``: forbidden paths to be made folders before any bot starts); '' if none does,
    or if the bots get no sandbox (nothing is hidden from them then)."""
    if not isolation_of(options.mode).isolated:
        return ""
    try:
        check_private_paths(options.forbidden, folders)
    except BotLaunchError as exc:
        return str(exc)
    return ""


def refusal(options: SandboxOptions, who: str) -> str:
    """Why ``who`` (``croupier tournament``, ``croupier serve``) may not launch bots with
    ``options`` here: '' when they get a sandbox (or the mode is ``none``)."""
    if options.mode is SandboxMode.NONE:
        return ""
    try:
        choice = choose(options.mode)
    except BotLaunchError as exc:
        return f"{exc}: {who} launches bots only in a sandbox; --sandbox none launches them without"
    if choice.isolation.isolated:
        return ""
    return (
        f"bots cannot be sandboxed here ({choice.why}): {who} launches bots only in a sandbox "
        "(bubblewrap, or util-linux unshare as root); --sandbox none launches them without one"
    )


def plan(
    argv: list[str],
    env: dict[str, str],
    options: SandboxOptions,
    isolation: Isolation,
    lifeline: int,
    cgroups: Iterable[int] = (),
) -> Plan:
    """How to run ``argv`` in ``isolation`` (what :func:`choose` said); always under the
    supervisor of :mod:`._confine`, which reads ``lifeline`` (the fd number of the read end of
    the arbiter's lifeline pipe, inherited by the process) and puts the bot in the groups whose
    ``cgroup.procs`` are open as ``cgroups`` (inherited too).

    ``env`` holds the protocol's variables; with a socket, the address becomes that socket
    (:data:`SANDBOX_ADDRESS` in a sandbox): a launched bot never needs the network listener,
    which may speak TLS.
    """
    cgroups = list(cgroups)
    if options.socket is not None and "CROUPIER_ADDRESS" in env:
        env = {**env, "CROUPIER_ADDRESS": f"unix:{options.socket}"}
    limits = options.limits
    if isolation is Isolation.NONE:
        inner = _confine_argv(argv, limits, -1, lifeline, namespace=False, cgroups=cgroups)
        return Plan(inner, isolation, {**os.environ, **env})
    argv = absolute_args(argv)
    if options.forbidden:
        check_bot_dirs(argv, options.forbidden)
    if isolation in (Isolation.LIMITS, Isolation.UID):
        uid = next_seat_uid() if isolation is Isolation.UID else -1
        chdir = ""
        if uid >= 0:
            own = own_dirs(argv)
            check_readable(own)
            check_reachable(argv)
            chdir = str(own[0]) if own else "/"
        inner = _confine_argv(
            argv, limits, uid, lifeline, namespace=False, cgroups=cgroups, chdir=chdir
        )
        return Plan(inner, isolation, scrubbed_env(env))
    as_root = os.geteuid() == 0
    uid = next_seat_uid() if as_root else -1
    sandboxed = dict(env)
    if options.socket is not None and "CROUPIER_ADDRESS" in sandboxed:
        sandboxed["CROUPIER_ADDRESS"] = SANDBOX_ADDRESS
    if isolation is Isolation.UNSHARE:
        unshare = unshare_path()
        assert unshare is not None  # choose() said so
        run = unshare_argv(unshare, argv, options, uid, lifeline=lifeline, cgroups=cgroups)
        return Plan(run, isolation, scrubbed_env(sandboxed))
    bwrap = bwrap_path()
    assert bwrap is not None  # choose() said so
    run = bwrap_argv(bwrap, argv, options, uid, as_root=as_root, lifeline=lifeline, cgroups=cgroups)
    return Plan(run, isolation, scrubbed_env(sandboxed))
