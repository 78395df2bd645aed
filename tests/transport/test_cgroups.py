"""The control groups of launched bots (``croupier.transport._cgroups``): where they go on cgroup v2
and v1 (and a hybrid of both), what is written into them, what is said when they cannot be made.

cgroup v2 is tested against a fake cgroupfs (directories and files in ``tmp_path``, the
kernel's side played by the test): a real v2 hierarchy with controllers is not available on
every machine that runs the suite. The last tests use this machine's real hierarchies, v1 or
v2, and are skipped where the arbiter may not make groups.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from croupier.transport import _cgroups
from croupier.transport._cgroups import CgroupSetup, GroupLimits, Hierarchy


def _files(folder: Path, **files: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (folder / name.replace("__", ".")).write_text(text)
    return folder


def _v2(tmp_path: Path, subtree: str = "memory pids") -> tuple[str, str, Path]:
    """A fake v2 mount at tmp_path/cg with the arbiter in user.slice/session-1.scope."""
    mount = tmp_path / "cg"
    _files(mount, cgroup__controllers="cpuset cpu io memory pids", cgroup__subtree_control="")
    parent = _files(
        mount / "user.slice",
        cgroup__controllers="cpu memory pids",
        cgroup__subtree_control=subtree,
    )
    _files(parent / "session-1.scope", cgroup__controllers="memory pids", cgroup__procs="1\n")
    mountinfo = (
        "31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755\n"
        f"41 31 0:38 / {mount} rw,nosuid,nodev,noexec,relatime - cgroup2 cgroup2 rw\n"
    )
    return mountinfo, "0::/user.slice/session-1.scope\n", parent


def test_v2_groups_go_beside_the_arbiters_own_group(tmp_path: Path) -> None:
    mountinfo, own, parent = _v2(tmp_path)
    setup = _cgroups.discover(mountinfo, own)
    assert setup == CgroupSetup((Hierarchy(2, frozenset({"memory", "pids", "cpu"}), parent),))


def test_v2_in_the_root_group_the_groups_go_in_the_root(tmp_path: Path) -> None:
    mountinfo, _, _ = _v2(tmp_path)
    setup = _cgroups.discover(mountinfo, "0::/\n")
    assert setup.hierarchies == (Hierarchy(2, frozenset(CONTROLLERS_OF_ROOT), tmp_path / "cg"),)


CONTROLLERS_OF_ROOT = ("cpu", "memory", "pids")


def test_v2_prepare_enables_the_controllers_the_parent_lacks(tmp_path: Path) -> None:
    mountinfo, own, parent = _v2(tmp_path, subtree="memory pids")
    setup = _cgroups.prepare(_cgroups.discover(mountinfo, own))
    assert setup.problem == ""
    # the kernel would add +cpu to what is enabled; the fake file keeps what was written
    assert (parent / "cgroup.subtree_control").read_text() == "+cpu"
    assert not list(parent.glob("croupier-*"))  # the probe group is gone


def test_v2_limits_are_written_as_v2_files(tmp_path: Path) -> None:
    mountinfo, own, parent = _v2(tmp_path, subtree="cpu memory pids")
    setup = _cgroups.discover(mountinfo, own)
    # the files the kernel makes in a new group, which the launcher only writes
    group = _cgroups.create(setup, GroupLimits(512 << 20, 64, 1.5), name="croupier-7-1")
    folder = parent / "croupier-7-1"
    assert group.dirs == (folder,)
    assert (folder / "memory.max").read_text() == str(512 << 20)
    assert (folder / "pids.max").read_text() == "64"
    assert (folder / "cpu.max").read_text() == f"150000 {_cgroups.CPU_PERIOD_US}"
    assert not (folder / "memory.swap.max").exists()  # written only where the kernel has it


def test_v2_swap_is_capped_at_zero_where_the_kernel_offers_it(tmp_path: Path) -> None:
    mountinfo, own, parent = _v2(tmp_path, subtree="cpu memory pids")
    setup = _cgroups.discover(mountinfo, own)
    real_mkdir = Path.mkdir

    def mkdir(self: Path, mode: int = 0o777, parents: bool = False, exist_ok: bool = False) -> None:
        real_mkdir(self, mode, parents, exist_ok)
        if self.name.startswith("croupier-"):
            (self / "memory.swap.max").write_text("max")

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Path, "mkdir", mkdir)
        _cgroups.create(setup, GroupLimits(1 << 30, 0, 0.0), name="croupier-7-2")
    folder = parent / "croupier-7-2"
    assert (folder / "memory.swap.max").read_text() == "0"
    assert not (folder / "pids.max").exists()
    assert not (folder / "cpu.max").exists()


def test_v2_a_group_is_killed_through_cgroup_kill(tmp_path: Path) -> None:
    folder = _files(tmp_path / "croupier-7-3", cgroup__procs="", cgroup__kill="")
    group = _cgroups.BotGroup((folder,), (2,))
    assert group.remove_now(wait_s=0.1) is False  # (a fake directory keeps its files)
    assert (folder / "cgroup.kill").read_text() == "1"


def test_v2_a_missing_controller_is_said(tmp_path: Path) -> None:
    mountinfo, own, parent = _v2(tmp_path)
    (parent / "cgroup.controllers").write_text("memory pids")
    setup = _cgroups.discover(mountinfo, own)
    assert setup.controllers == {"memory", "pids"}
    assert setup.problem == "no cpu controller"


def test_a_v2_mount_without_controllers_and_no_v1_gives_nothing(tmp_path: Path) -> None:
    mount = _files(tmp_path / "unified", cgroup__controllers="", cgroup__subtree_control="")
    _files(mount / "a", cgroup__controllers="")
    mountinfo = f"41 31 0:38 / {mount} rw - cgroup2 cgroup2 rw\n"
    setup = _cgroups.discover(mountinfo, "0::/a\n")
    assert setup == CgroupSetup((), "no memory, pids, cpu controllers")


V1_MOUNTS = (
    "32 31 0:29 / {root}/cpu,cpuacct rw,relatime - cgroup cgroup rw,cpu,cpuacct\n"
    "35 31 0:32 / {root}/memory rw,relatime - cgroup cgroup rw,memory\n"
    "39 31 0:36 / {root}/pids rw,relatime - cgroup cgroup rw,pids\n"
    "40 31 0:37 / {root}/systemd rw,relatime - cgroup cgroup rw,xattr,name=systemd\n"
    "41 31 0:38 / {root}/unified rw,relatime - cgroup2 cgroup2 rw\n"
)
V1_OWN = "9:name=systemd:/\n8:pids:/\n4:memory:/process_api/b98e\n2:cpu,cpuacct:/\n0::/\n"


def test_v1_groups_go_inside_the_arbiters_group_of_each_hierarchy(tmp_path: Path) -> None:
    root = tmp_path / "sys"
    for name in ("cpu,cpuacct", "memory/process_api/b98e", "pids"):
        (root / name).mkdir(parents=True)
    _files(root / "unified", cgroup__controllers="")
    setup = _cgroups.discover(V1_MOUNTS.format(root=root), V1_OWN)
    assert setup == CgroupSetup(
        (
            Hierarchy(1, frozenset({"cpu"}), root / "cpu,cpuacct"),
            Hierarchy(1, frozenset({"memory"}), root / "memory" / "process_api" / "b98e"),
            Hierarchy(1, frozenset({"pids"}), root / "pids"),
        )
    )


def test_v1_limits_are_written_as_v1_files(tmp_path: Path) -> None:
    root = tmp_path / "sys"
    (root / "memory" / "process_api" / "b98e").mkdir(parents=True)
    (root / "pids").mkdir()
    (root / "cpu,cpuacct").mkdir()
    setup = _cgroups.discover(V1_MOUNTS.format(root=root), V1_OWN)
    group = _cgroups.create(setup, GroupLimits(256 << 20, 32, 1.0), name="croupier-7-4")
    cpu, memory, pids = group.dirs
    assert (memory / "memory.limit_in_bytes").read_text() == str(256 << 20)
    assert not (memory / "memory.memsw.limit_in_bytes").exists()  # (only where the kernel has it)
    assert (pids / "pids.max").read_text() == "32"
    assert (cpu / "cpu.cfs_period_us").read_text() == str(_cgroups.CPU_PERIOD_US)
    assert (cpu / "cpu.cfs_quota_us").read_text() == str(_cgroups.CPU_PERIOD_US)


def test_a_hybrid_machine_takes_each_controller_where_it_is(tmp_path: Path) -> None:
    """memory in a v1 hierarchy, pids and cpu in the v2 one."""
    root = tmp_path / "sys"
    (root / "memory").mkdir(parents=True)
    unified = _files(root / "unified", cgroup__controllers="cpu pids", cgroup__subtree_control="")
    _files(unified / "me", cgroup__controllers="cpu pids")
    mountinfo = (
        f"35 31 0:32 / {root}/memory rw - cgroup cgroup rw,memory\n"
        f"41 31 0:38 / {unified} rw - cgroup2 cgroup2 rw\n"
    )
    setup = _cgroups.discover(mountinfo, "4:memory:/\n0::/me\n")
    assert setup == CgroupSetup(
        (
            Hierarchy(1, frozenset({"memory"}), root / "memory"),
            Hierarchy(2, frozenset({"pids", "cpu"}), unified),
        )
    )


def test_a_hierarchy_that_cannot_take_groups_is_dropped_and_said(tmp_path: Path) -> None:
    setup = CgroupSetup(
        (
            Hierarchy(1, frozenset({"memory"}), tmp_path / "missing"),
            Hierarchy(1, frozenset({"pids"}), tmp_path),
        )
    )
    prepared = _cgroups.prepare(setup)
    assert prepared.hierarchies == (Hierarchy(1, frozenset({"pids"}), tmp_path),)
    assert prepared.problem == (
        f"cannot make memory groups in {tmp_path / 'missing'}: No such file or directory"
    )


def test_mount_points_with_spaces_are_read(tmp_path: Path) -> None:
    root = tmp_path / "with space"
    (root / "pids").mkdir(parents=True)
    escaped = str(root).replace(" ", "\\040")
    mountinfo = f"39 31 0:36 / {escaped}/pids rw - cgroup cgroup rw,pids\n"
    setup = _cgroups.discover(mountinfo, "8:pids:/\n")
    assert setup.hierarchies == (Hierarchy(1, frozenset({"pids"}), root / "pids"),)


def test_groups_of_a_dead_arbiter_are_swept_and_a_live_ones_kept(tmp_path: Path) -> None:
    dead = tmp_path / "croupier-4194305-2"  # past pid_max: no such process
    live = tmp_path / f"croupier-{os.getpid()}-9"
    other = tmp_path / "not-ours"
    for folder in (dead, live, other):
        folder.mkdir()
    setup = CgroupSetup((Hierarchy(1, frozenset({"pids"}), tmp_path),))
    assert _cgroups.sweep(setup) == 1
    assert (dead.exists(), live.exists(), other.exists()) == (False, True, True)


# -- this machine's own hierarchies -------------------------------------------------------------


def _usable() -> CgroupSetup:
    setup = _cgroups.machine_setup()
    if not setup.hierarchies:
        pytest.skip(f"no usable cgroups here: {setup.problem}")
    return setup


def test_a_real_group_takes_a_process_and_its_removal_kills_it() -> None:
    """A process joins through the descriptor the launcher passes (it writes 0), starts a child
    in a session of its own, and both die when the group is removed; so does the group."""
    setup = _usable()
    group = _cgroups.create(setup, GroupLimits(256 << 20, 16, 0.5))
    fds = group.open_procs()
    code = (
        "import os, sys, time\n"
        "for fd in map(int, sys.argv[1:]): os.write(fd, b'0')\n"
        "if os.fork() == 0:\n    os.setsid(); time.sleep(60)\n"
        "print('in', flush=True); time.sleep(60)\n"
    )
    proc = subprocess.Popen(
        [sys.executable, "-c", code, *map(str, fds)],
        pass_fds=fds,
        stdout=subprocess.PIPE,
        text=True,
    )
    for fd in fds:
        os.close(fd)
    try:
        assert proc.stdout is not None
        assert proc.stdout.readline() == "in\n"
        members = group.members()
        assert proc.pid in members, members
        assert len(members) == 2, members
        assert group.remove_now() is True
        assert proc.wait(timeout=5) == -9
        assert not any(d.exists() for d in group.dirs)
        deadline = time.monotonic() + 2
        while any(_alive(p) for p in members) and time.monotonic() < deadline:
            time.sleep(0.02)
        assert not any(_alive(p) for p in members)
    finally:
        proc.kill()
        proc.wait()
        group.remove_now(wait_s=1)


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def test_a_dead_arbiters_real_group_is_swept_with_what_is_left_in_it() -> None:
    """A group named for an arbiter that is gone (SIGKILLed: nothing removed it), still holding
    a process: the next arbiter's sweep kills the process and removes the group."""
    setup = _usable()
    group = _cgroups.create(setup, GroupLimits(), name="croupier-4194305-1")  # past pid_max
    fds = group.open_procs()
    code = "import os, sys, time\nfor fd in map(int, sys.argv[1:]): os.write(fd, b'0')\n"
    code += "print('in', flush=True); time.sleep(60)\n"
    proc = subprocess.Popen(
        [sys.executable, "-c", code, *map(str, fds)], pass_fds=fds, stdout=subprocess.PIPE
    )
    for fd in fds:
        os.close(fd)
    try:
        assert proc.stdout is not None
        assert proc.stdout.readline() == b"in\n"
        assert _cgroups.sweep(setup) == 1
        assert proc.wait(timeout=5) == -9
        assert not any(d.exists() for d in group.dirs)
    finally:
        proc.kill()
        proc.wait()
        group.remove_now(wait_s=1)
