"""The sandbox a launched bot runs in: a bubblewrap command line, resource limits, a seat uid.

With bubblewrap (``bwrap``, Debian package ``bubblewrap``) each bot gets its own PID, IPC, UTS,
network and mount namespaces. Its file system is built from nothing: read-only binds of the system
(``/usr``, the ``/bin``/``/lib`` links, a few files of ``/etc``), of the Python that runs the
arbiter (its prefix and the venv), of the ``croupier``, ``croupier_bot``, ``croupier_bots`` and
``croupier_proto`` packages' directories and of the wire contract (``proto/``, which the Node SDK
loads), and of the bot's own directory; a private ``/tmp`` (tmpfs), fresh
``/proc`` and ``/dev``; and the arbiter's unix socket at :data:`SANDBOX_SOCKET`. The match
directory (replay, logs) is never bound, and is covered by an empty tmpfs should it lie inside a
bound directory. The network namespace has only its own loopback, so the bot reaches the arbiter
through that socket and nothing else. ``--die-with-parent`` and the PID namespace make the whole
process tree die with the sandbox (``setsid`` included): killing the outer ``bwrap`` kills its
init, and the kernel kills everything else in the namespace. The bot itself runs under the
supervisor of :mod:`._confine`, which kills everything in the namespace when the arbiter's
lifeline closes: that covers the arbiter dying while bubblewrap is still setting up, before its
init has armed ``PR_SET_PDEATHSIG``.

When the arbiter runs as root, bubblewrap runs privileged and :mod:`._confine` switches the bot to
a uid of its own (from :data:`SEAT_UID_BASE` on, a different one for each launch), with no groups
and no capabilities; otherwise bubblewrap uses an unprivileged user namespace and the bot keeps
the arbiter's uid (its PID namespace still hides every other process).

Without bubblewrap (``--sandbox none``, or ``auto`` where it cannot run) a bot still gets the
resource limits and, in ``auto``, the scrubbed environment; it is killed with its process group.
"""

from __future__ import annotations

import asyncio
import enum
import functools
import importlib.util
import os
import secrets
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

from croupier.errors import BotLaunchError, ConfigError

#: Where the arbiter's unix socket appears inside a sandbox.
SANDBOX_SOCKET = "/run/croupier/arbiter.sock"
#: The address a sandboxed bot dials.
SANDBOX_ADDRESS = f"unix:{SANDBOX_SOCKET}"
#: First of the uids handed to sandboxed bots when the arbiter runs as root (far above any
#: account a system allocates), and how many there are (each launch takes the next one).
SEAT_UID_BASE = 1_000_000_000
SEAT_UID_COUNT = 1_000_000
#: Size of a sandbox's private /tmp.
TMP_BYTES = 256 << 20

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
#: Top-level system directories (bound read-only, or recreated as the links they are).
SYSTEM_DIRS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/opt")
_CONFINE = Path(__file__).with_name("_confine.py")
_PACKAGES = ("croupier", "croupier_bot", "croupier_bots", "croupier_proto")


class SandboxMode(enum.Enum):
    """``auto``: bubblewrap where it can run, else limits only (said in one warning line);
    ``bwrap``: bubblewrap or an error; ``none``: no isolation at all (for debugging)."""

    AUTO = "auto"
    BWRAP = "bwrap"
    NONE = "none"


class Isolation(enum.Enum):
    """What a bot actually ran in."""

    BWRAP = "bwrap"  # namespaces, own file system, limits, scrubbed environment
    LIMITS = "limits"  # resource limits, scrubbed environment, process-group kill only
    NONE = "none"  # nothing but the resource limits


@dataclass(frozen=True, slots=True)
class Limits:
    """Resource limits of one bot process (each of its processes); 0 means no limit."""

    #: Address space per process (RLIMIT_AS), MiB.
    memory_mb: int = 4096
    #: Processes (threads included) of the seat's uid (RLIMIT_NPROC); only enforced when the bot
    #: has a uid of its own (the arbiter runs as root), else it would count the arbiter's too.
    processes: int = 128
    #: CPU seconds per process (RLIMIT_CPU).
    cpu_s: int = 3600
    #: Largest file the bot may write (RLIMIT_FSIZE), MiB.
    file_mb: int = 64
    #: Open file descriptors per process (RLIMIT_NOFILE).
    open_files: int = 256


#: Environment variable giving the default :class:`SandboxMode` of every launch in a process that
#: has no ``--sandbox`` flag of its own to say it (a tournament's Ray workers, say).
ENV_SANDBOX = "CROUPIER_SANDBOX"


def default_mode() -> SandboxMode:
    """``CROUPIER_SANDBOX`` (``auto``, ``bwrap`` or ``none``), else ``auto``."""
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


@dataclass(frozen=True, slots=True)
class Plan:
    """The command line that runs a bot, what it runs in, and the environment it gets."""

    argv: list[str]
    isolation: Isolation
    env: dict[str, str]


def bwrap_path() -> str | None:
    return shutil.which("bwrap")


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
    argv: list[str], limits: Limits, uid: int, lifeline: int, *, namespace: bool
) -> list[str]:
    """The supervisor's command line (:mod:`._confine`): ``lifeline`` is the fd number of the
    read end of the arbiter's lifeline pipe; ``namespace``: the bot has a PID namespace."""
    mib = 1 << 20
    return [
        sys.executable,
        "-I",
        "-S",
        str(_CONFINE),
        str(lifeline),
        "ns" if namespace else "group",
        str(uid),
        str(limits.memory_mb * mib),
        str(limits.processes if uid >= 0 else 0),
        str(limits.cpu_s),
        str(limits.file_mb * mib),
        str(limits.open_files),
        "--",
        *argv,
    ]


def _runtime_roots() -> list[Path]:
    """Directories the Python runtime and the Croupier packages need, read-only."""
    roots = {Path(sys.prefix), Path(sys.base_prefix), Path(sys.executable).parent}
    roots.add(Path(os.path.realpath(sys.executable)).parent.parent)
    import croupier

    wire = Path(croupier.__file__).resolve().parents[2] / "proto"  # the .proto files (SDKs)
    if (wire / "croupier").is_dir():
        roots.add(wire)
    for name in _PACKAGES:
        spec = importlib.util.find_spec(name)
        if spec is not None and spec.submodule_search_locations:
            for location in spec.submodule_search_locations:
                roots.add(Path(location).resolve())
    return sorted(roots)


def _project_root(path: Path) -> Path:
    """``path``, or the nearest of its three parents holding a ``package.json`` (a Node bot
    resolves its modules upwards from its script)."""
    for candidate in [path, *path.parents][:4]:
        if (candidate / "package.json").is_file():
            return candidate
    return path


def bot_dirs(argv: list[str]) -> list[Path]:
    """The bot's own directories: that of its program (found on PATH if need be) and of every
    argument that names an existing file or directory (for a script in a Node package: the
    package's directory)."""
    dirs: list[Path] = []
    program = shutil.which(argv[0]) or argv[0]
    for i, arg in enumerate([program, *argv[1:]]):
        path = Path(arg)
        if not (os.sep in arg or i == 0) or not path.exists():
            continue
        real = path.resolve()
        dirs.append(_project_root(real if real.is_dir() else real.parent))
        if path.absolute().parent != real.parent and not path.is_dir():
            dirs.append(path.absolute().parent)  # a link's own directory (a venv's bin/)
    return dirs


def _under(path: Path, roots: list[Path]) -> bool:
    return any(path == r or r in path.parents for r in roots)


def _absolute_args(argv: list[str]) -> list[str]:
    """Relative paths in argv made absolute (the bot starts in its own directory, not ours)."""
    out = []
    for i, arg in enumerate(argv):
        path = Path(arg)
        if not path.is_absolute() and (os.sep in arg or i > 0) and path.exists():
            out.append(str(path.absolute()))
        else:
            out.append(arg)
    return out


def check_readable(dirs: list[Path]) -> None:
    """:class:`BotLaunchError` unless a uid of its own may enter each of the bot's ``dirs``."""
    for path in dirs:
        if path.stat().st_mode & 0o001 == 0:
            raise BotLaunchError(
                f"the bot's directory {path} is not open to other users, and a sandboxed bot "
                f"runs as a uid of its own when the arbiter runs as root: chmod o+rx {path} "
                "(or run it with --sandbox none)"
            )


def bwrap_argv(
    bwrap: str,
    argv: list[str],
    options: SandboxOptions,
    uid: int,
    *,
    as_root: bool,
    lifeline: int,
) -> list[str]:
    """The bubblewrap command line running ``argv`` (see the module docstring) under its
    supervisor, which reads the arbiter's ``lifeline`` (an inherited fd)."""
    args = [
        bwrap,
        "--unshare-pid",
        "--unshare-ipc",
        "--unshare-uts",
        "--unshare-cgroup-try",
        "--die-with-parent",
        "--hostname",
        "croupier-bot",
    ]
    if not as_root:
        args.append("--unshare-user")
    if options.socket is not None:
        args.append("--unshare-net")
    wanted: list[Path] = []
    for name in SYSTEM_DIRS:
        path = Path(name)
        if path.is_symlink():
            args.extend(["--symlink", os.readlink(path), name])
        elif path.is_dir():
            wanted.append(path)
    system = [*wanted, *(r for r in _runtime_roots() if r.is_dir())]
    own = [d for d in bot_dirs(argv) if not _under(d, system)]
    for hidden in options.hidden:
        if any(_under(d, [hidden.resolve()]) for d in own):
            raise BotLaunchError(
                f"the bot lives in the match directory {hidden}, which bots may not see: "
                "write the replays somewhere else (--out)"
            )
    if as_root and uid >= 0:
        check_readable(own)
    wanted = system + own
    # outermost first; a directory inside another bound one comes with it
    bound: list[Path] = []
    for path in sorted(set(wanted), key=lambda p: len(p.parts)):
        if not _under(path, bound):
            bound.append(path)
    # /tmp first: a bot directory under /tmp is bound on top of the private tmpfs
    args.extend(["--proc", "/proc", "--dev", "/dev"])
    args.extend(["--perms", "1777", "--size", str(TMP_BYTES), "--tmpfs", "/tmp"])  # the bot writes
    made: set[Path] = {Path("/etc"), Path("/run"), Path("/tmp")}
    args.extend(["--perms", "0755", "--dir", "/etc", "--perms", "0755", "--dir", "/run"])
    for path in bound:  # parents readable by the seat's uid (bwrap would make them 0700)
        for parent in reversed(path.parents[:-1]):
            if parent not in made and not _under(parent, bound):
                made.add(parent)
                args.extend(["--perms", "0755", "--dir", str(parent)])
    for path in bound:
        args.extend(["--ro-bind", str(path), str(path)])
    for name in ETC_FILES:
        if os.path.lexists(name):
            args.extend(["--ro-bind", name, name])
    for path in options.writable:
        real = path.resolve()
        for parent in reversed(real.parents[:-1]):
            if parent not in made and not _under(parent, bound):
                made.add(parent)
                args.extend(["--perms", "0755", "--dir", str(parent)])
        args.extend(["--bind", str(real), str(real)])
        bound.append(real)
    if options.socket is not None:
        args.extend(
            [
                "--perms",
                "0755",
                "--dir",
                "/run/croupier",
                "--ro-bind",
                str(options.socket),
                SANDBOX_SOCKET,
            ]
        )
    for hidden in options.hidden:
        real = hidden.resolve()
        if _under(real, bound):
            args.extend(["--tmpfs", str(real)])
    args.extend(["--chdir", str(own[0]) if own else "/tmp"])
    return [*args, "--", *_confine_argv(argv, options.limits, uid, lifeline, namespace=True)]


@functools.cache
def _bwrap_works(bwrap: str, as_root: bool) -> str:
    """'' when bubblewrap can run a sandbox here, else the reason it cannot (one line)."""
    probe_argv = [sys.executable, "-I", "-S", "-c", ""]
    read, write = os.pipe()
    probe = bwrap_argv(bwrap, probe_argv, SandboxOptions(), -1, as_root=as_root, lifeline=read)
    try:
        done = subprocess.run(
            probe, capture_output=True, text=True, timeout=30, check=False, pass_fds=(read,)
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        return str(exc)
    finally:
        os.close(read)
        os.close(write)
    if done.returncode != 0:
        lines = done.stderr.strip().splitlines()
        return lines[-1] if lines else f"bwrap exited with {done.returncode}"
    return ""


def bwrap_problem() -> str:
    """'' when bots can be sandboxed with bubblewrap here, else why not (one line)."""
    bwrap = bwrap_path()
    if bwrap is None:
        return "bubblewrap (bwrap) is not installed"
    return _bwrap_works(bwrap, os.geteuid() == 0)


async def bwrap_problem_async() -> str:
    """:func:`bwrap_problem` without blocking the event loop (the first call runs a probe)."""
    return await asyncio.to_thread(bwrap_problem)


def plan(
    argv: list[str], env: dict[str, str], options: SandboxOptions, problem: str, lifeline: int
) -> Plan:
    """How to run ``argv``: in bubblewrap, or (``problem`` says why not) with limits only;
    always under the supervisor of :mod:`._confine`, which reads ``lifeline`` (the fd number of
    the read end of the arbiter's lifeline pipe, inherited by the process).

    ``env`` holds the protocol's variables; with a socket, the address becomes that socket
    (:data:`SANDBOX_ADDRESS` in a sandbox): a launched bot never needs the network listener,
    which may speak TLS.
    """
    if options.socket is not None and "CROUPIER_ADDRESS" in env:
        env = {**env, "CROUPIER_ADDRESS": f"unix:{options.socket}"}
    if options.mode is SandboxMode.NONE:
        return Plan(
            _confine_argv(argv, options.limits, -1, lifeline, namespace=False),
            Isolation.NONE,
            {**os.environ, **env},
        )
    if problem:
        if options.mode is SandboxMode.BWRAP:
            raise BotLaunchError(f"cannot sandbox the bot: {problem}")
        return Plan(
            _confine_argv(_absolute_args(argv), options.limits, -1, lifeline, namespace=False),
            Isolation.LIMITS,
            scrubbed_env(env),
        )
    bwrap = bwrap_path()
    assert bwrap is not None  # problem would say so
    as_root = os.geteuid() == 0
    uid = next_seat_uid() if as_root else -1
    inner = dict(env)
    if options.socket is not None and "CROUPIER_ADDRESS" in inner:
        inner["CROUPIER_ADDRESS"] = SANDBOX_ADDRESS
    return Plan(
        bwrap_argv(bwrap, _absolute_args(argv), options, uid, as_root=as_root, lifeline=lifeline),
        Isolation.BWRAP,
        scrubbed_env(inner),
    )
