"""A control group for every launched bot, where the machine offers them: the memory of the
bot's whole process tree, its number of processes and threads, and a CPU quota.

Where the groups go. The arbiter reads where it runs itself (``/proc/self/mountinfo``,
``/proc/self/cgroup``) and makes each bot's group next to it, named ``croupier-PID-N`` (the
arbiter's pid, a count):

* **cgroup v2** (one hierarchy; the controllers listed in ``cgroup.controllers``): a child of a
  group that holds processes cannot have controllers (the "no internal processes" rule), so
  the groups are made beside the arbiter's own group, in its parent (in the root when the
  arbiter runs there), whose ``cgroup.subtree_control`` is given ``+memory +pids +cpu`` if it
  lacks them. Limits: ``memory.max`` (and ``memory.swap.max`` 0), ``pids.max``, ``cpu.max``.
* **cgroup v1** (a hierarchy per controller, e.g. ``/sys/fs/cgroup/{memory,pids,cpu}``): the
  groups are made inside the arbiter's own group of each hierarchy. Limits:
  ``memory.limit_in_bytes`` (and ``memory.memsw.limit_in_bytes``, swap included),
  ``pids.max``, ``cpu.cfs_quota_us`` over ``cpu.cfs_period_us``.

A controller that is in both (a hybrid machine) is taken from wherever it is enabled. What is
missing, or a hierarchy the arbiter may not write (not root, no delegation), is said in one
line (:attr:`CgroupSetup.problem`) and the rest works without it.

How a bot enters its group: the launcher opens each group's ``cgroup.procs`` and passes the
descriptors to the bot's supervisor (:mod:`._confine`), whose child writes ``0`` (itself) into
each before it becomes the bot; so the bot's first instruction already runs inside, and every
process it starts stays inside (an unprivileged process cannot leave its group).

How a group ends: when the bot is stopped (however it ended, crash included), every process
still in the group is killed (``cgroup.kill`` on v2; else each one through a pidfd, checked to
be still in the group) and the group removed. Groups left by an arbiter that died (its pid is
gone) are removed by the next arbiter that starts on the machine.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import itertools
import os
import re
import signal
import time
from dataclasses import dataclass
from pathlib import Path

from croupier._owned_dirs import pid_alive

#: The controllers a bot's group uses.
CONTROLLERS = ("memory", "pids", "cpu")
#: The period of the CPU quota, microseconds (the kernel's default).
CPU_PERIOD_US = 100_000
#: The name of every group the launcher makes starts with this, then ``PID-N``.
GROUP_PREFIX = "croupier-"
_STALE = re.compile(rf"{GROUP_PREFIX}(\d+)-(\d+|probe)$")
#: How long the removal of a group waits for its processes to go.
REMOVE_WAIT_S = 5.0


@dataclass(frozen=True, slots=True)
class GroupLimits:
    """What one bot's group may use; 0 means no limit."""

    #: Memory of the whole process tree (resident pages, page cache, kernel memory), bytes.
    memory_bytes: int = 0
    #: Processes and threads of the whole tree.
    pids: int = 0
    #: CPU time per unit of wall time, in cores (1.0: one core).
    cpus: float = 0.0


@dataclass(frozen=True, slots=True)
class Hierarchy:
    """One mounted hierarchy the groups are made in: its version (1 or 2), the controllers of
    :data:`CONTROLLERS` the groups get there, and the directory they are made in."""

    version: int
    controllers: frozenset[str]
    parent: Path


@dataclass(frozen=True, slots=True)
class CgroupSetup:
    """Where this arbiter makes its bots' groups, and what is missing (``problem``: one line,
    ``""`` when every controller of :data:`CONTROLLERS` is there)."""

    hierarchies: tuple[Hierarchy, ...]
    problem: str = ""

    @property
    def controllers(self) -> frozenset[str]:
        return frozenset().union(*(h.controllers for h in self.hierarchies))


def _unescape(text: str) -> str:
    """A path of ``/proc/self/mountinfo`` (spaces and the like are octal escapes)."""
    return re.sub(r"\\([0-7]{3})", lambda m: chr(int(m[1], 8)), text)


def _inside(mount: Path, mount_root: str, path: str) -> Path | None:
    """The directory of group ``path`` (as ``/proc/self/cgroup`` says it) under a hierarchy
    mounted at ``mount`` whose root is ``mount_root``; ``None`` if the mount does not show it."""
    root = mount_root.rstrip("/")
    if path != root and not path.startswith(root + "/") and root:
        return None
    rest = path[len(root) :].strip("/")
    return mount / rest if rest else mount


def _read(path: Path) -> str:
    try:
        return path.read_text()
    except OSError:
        return ""


def discover(mountinfo: str, own_groups: str) -> CgroupSetup:
    """Where the groups would go, from the text of ``/proc/self/mountinfo`` and of
    ``/proc/self/cgroup`` (and, for v2, the ``cgroup.controllers`` files those name). Writes
    nothing: :func:`prepare` checks that the groups can really be made."""
    v1_paths: dict[str, str] = {}
    v2_path: str | None = None
    for line in own_groups.splitlines():
        parts = line.split(":", 2)
        if len(parts) != 3:
            continue
        _, names, path = parts
        if names == "":
            v2_path = path
        for name in names.split(","):
            v1_paths[name] = path
    hierarchies: list[Hierarchy] = []
    taken: set[str] = set()
    v2_mount: tuple[Path, str] | None = None
    for line in mountinfo.splitlines():
        fields = line.split()
        if "-" not in fields:
            continue
        dash = fields.index("-")
        if len(fields) < dash + 3 or dash < 5:
            continue
        mount_root, mount_point = _unescape(fields[3]), Path(_unescape(fields[4]))
        fstype, options = fields[dash + 1], fields[dash + 3].split(",")
        if fstype == "cgroup2" and v2_mount is None:
            v2_mount = (mount_point, mount_root)
        if fstype != "cgroup":
            continue
        wanted = frozenset(c for c in CONTROLLERS if c in options and c not in taken)
        if not wanted:
            continue
        own_path = v1_paths.get(next(iter(wanted)))
        if own_path is None:
            continue
        where = _inside(mount_point, mount_root, own_path)
        if where is None:
            continue
        hierarchies.append(Hierarchy(1, wanted, where))
        taken |= wanted
    problems = []
    if v2_mount is not None and v2_path is not None and len(taken) < len(CONTROLLERS):
        own = _inside(*v2_mount, v2_path)
        if own is not None:
            parent = own if own == v2_mount[0] else own.parent
            offered = set(_read(parent / "cgroup.controllers").split())
            wanted = frozenset(c for c in CONTROLLERS if c in offered and c not in taken)
            if wanted:
                hierarchies.append(Hierarchy(2, wanted, parent))
                taken |= wanted
    missing = [c for c in CONTROLLERS if c not in taken]
    if missing:
        problems.append(f"no {', '.join(missing)} controller{'s' if len(missing) > 1 else ''}")
    return CgroupSetup(tuple(hierarchies), "; ".join(problems))


def _write(path: Path, value: str) -> None:
    with path.open("w") as f:
        f.write(value)


def _enable(h: Hierarchy) -> None:
    """v2: the parent's ``cgroup.subtree_control`` gets the controllers it lacks."""
    if h.version != 2:
        return
    enabled = set(_read(h.parent / "cgroup.subtree_control").split())
    lacking = sorted(h.controllers - enabled)
    if lacking:
        _write(h.parent / "cgroup.subtree_control", " ".join(f"+{c}" for c in lacking))


def _limit(h: Hierarchy, group: Path, limits: GroupLimits) -> None:
    """Write ``limits`` into ``group`` of hierarchy ``h`` (0: left as the kernel made it)."""
    memory, pids, cpus = limits.memory_bytes, limits.pids, limits.cpus
    quota = max(1000, round(cpus * CPU_PERIOD_US)) if cpus > 0 else 0
    if h.version == 2:
        if "memory" in h.controllers and memory > 0:
            _write(group / "memory.max", str(memory))
            if (group / "memory.swap.max").exists():
                _write(group / "memory.swap.max", "0")
        if "pids" in h.controllers and pids > 0:
            _write(group / "pids.max", str(pids))
        if "cpu" in h.controllers and quota:
            _write(group / "cpu.max", f"{quota} {CPU_PERIOD_US}")
        return
    if "memory" in h.controllers and memory > 0:
        _write(group / "memory.limit_in_bytes", str(memory))
        if (group / "memory.memsw.limit_in_bytes").exists():  # swap counted in: no way around
            _write(group / "memory.memsw.limit_in_bytes", str(memory))
    if "pids" in h.controllers and pids > 0:
        _write(group / "pids.max", str(pids))
    if "cpu" in h.controllers and quota:
        _write(group / "cpu.cfs_period_us", str(CPU_PERIOD_US))
        _write(group / "cpu.cfs_quota_us", str(quota))


_count = itertools.count(1)


class BotGroup:
    """The group of one bot (a directory in each hierarchy)."""

    def __init__(self, dirs: tuple[Path, ...], versions: tuple[int, ...]) -> None:
        self.dirs = dirs
        self._versions = versions

    def open_procs(self) -> list[int]:
        """Descriptors of each directory's ``cgroup.procs``, open for writing (close-on-exec:
        the launcher passes them on explicitly)."""
        fds: list[int] = []
        try:
            for d in self.dirs:
                fds.append(os.open(d / "cgroup.procs", os.O_WRONLY | os.O_CLOEXEC))
        except OSError:
            for fd in fds:
                os.close(fd)
            raise
        return fds

    def members(self) -> set[int]:
        """The pids of the processes in the group now (any hierarchy)."""
        out: set[int] = set()
        for d in self.dirs:
            for word in _read(d / "cgroup.procs").split():
                with contextlib.suppress(ValueError):
                    out.add(int(word))
        return out

    def _kill_members(self) -> None:
        for d, version in zip(self.dirs, self._versions, strict=True):
            if version == 2 and (d / "cgroup.kill").exists():
                with contextlib.suppress(OSError):
                    _write(d / "cgroup.kill", "1")
        for pid in self.members():
            _kill_if_inside(pid, self.dirs)

    def _try_remove(self) -> bool:
        """One attempt: kill what is inside, remove the directories that are empty; whether
        every directory is gone."""
        self._kill_members()
        gone = True
        for d in self.dirs:
            try:
                d.rmdir()
            except FileNotFoundError:
                continue
            except OSError:
                gone = False
        return gone

    async def remove(self, wait_s: float = REMOVE_WAIT_S) -> bool:
        """Kill every process still in the group and remove it; whether it is gone."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + wait_s
        while not self._try_remove():
            if loop.time() >= deadline:
                return False
            await asyncio.sleep(0.02)
        return True

    def remove_now(self, wait_s: float = REMOVE_WAIT_S) -> bool:
        """:meth:`remove`, blocking (for code that has no event loop)."""
        deadline = time.monotonic() + wait_s
        while not self._try_remove():
            if time.monotonic() >= deadline:
                return False
            time.sleep(0.02)
        return True


def _kill_if_inside(pid: int, dirs: tuple[Path, ...]) -> None:
    """SIGKILL ``pid`` if it is still in one of ``dirs`` (through a pidfd, so a pid that was
    reused in between is never hit)."""
    try:
        fd = os.pidfd_open(pid)
    except OSError:
        return
    try:
        mine = _read(Path(f"/proc/{pid}/cgroup"))
        names = {d.name for d in dirs}
        if any(line.rsplit("/", 1)[-1] in names for line in mine.splitlines()):
            signal.pidfd_send_signal(fd, signal.SIGKILL)
    except OSError:
        pass
    finally:
        os.close(fd)


def create(setup: CgroupSetup, limits: GroupLimits, *, name: str = "") -> BotGroup:
    """A new group with ``limits`` in every hierarchy of ``setup``; :class:`OSError` if it
    cannot be made (what was made is removed)."""
    name = name or f"{GROUP_PREFIX}{os.getpid()}-{next(_count)}"
    made: list[Path] = []
    try:
        for h in setup.hierarchies:
            group = h.parent / name
            group.mkdir(mode=0o755)
            made.append(group)
            _limit(h, group, limits)
    except OSError:
        for group in reversed(made):
            with contextlib.suppress(OSError):
                group.rmdir()
        raise
    return BotGroup(tuple(made), tuple(h.version for h in setup.hierarchies))


def sweep(setup: CgroupSetup) -> int:
    """Remove the groups an arbiter that is gone left behind (killing what is still in them);
    how many."""
    removed = 0
    stale: dict[str, list[Path]] = {}
    versions: dict[str, list[int]] = {}
    for h in setup.hierarchies:
        with contextlib.suppress(OSError):
            for entry in h.parent.iterdir():
                found = _STALE.match(entry.name)
                if found and entry.is_dir() and not pid_alive(int(found[1])):
                    stale.setdefault(entry.name, []).append(entry)
                    versions.setdefault(entry.name, []).append(h.version)
    for name, dirs in stale.items():
        removed += BotGroup(tuple(dirs), tuple(versions[name])).remove_now(wait_s=1.0)
    return removed


def prepare(setup: CgroupSetup) -> CgroupSetup:
    """``setup`` once checked on the machine: controllers enabled where v2 needs it, stale
    groups swept, and a probe group made and removed in each hierarchy. A hierarchy that fails
    is dropped, and said in the problem line."""
    usable: list[Hierarchy] = []
    problems = [setup.problem] if setup.problem else []
    for h in setup.hierarchies:
        probe = h.parent / f"{GROUP_PREFIX}{os.getpid()}-probe"
        try:
            _enable(h)
            probe.mkdir(mode=0o755)
            probe.rmdir()
        except OSError as exc:
            what = ", ".join(sorted(h.controllers))
            problems.append(f"cannot make {what} groups in {h.parent}: {exc.strerror or exc}")
            continue
        usable.append(h)
    prepared = CgroupSetup(tuple(usable), "; ".join(problems))
    sweep(prepared)
    return prepared


@functools.cache
def machine_setup() -> CgroupSetup:
    """This machine's :class:`CgroupSetup`, prepared (:func:`prepare`) once per process."""
    try:
        mountinfo = Path("/proc/self/mountinfo").read_text()
        own = Path("/proc/self/cgroup").read_text()
    except OSError as exc:
        return CgroupSetup((), f"cannot read /proc/self: {exc.strerror or exc}")
    found = discover(mountinfo, own)
    if not found.hierarchies:
        return CgroupSetup((), found.problem or "no cgroup hierarchy is mounted")
    return prepare(found)
