"""The directories a sandbox shows a bot, and the checks on them: the system's and the runtime's
(bound read-only into every sandbox), the bot's own (its program's and its arguments'), and the
places no bot may see (a match's directory, a tournament's store and config, a server's state
folder), which no bot's directory may hold or lie in and no file of which may lie in a directory
every sandbox binds. Used by :mod:`._sandbox`, which builds the sandboxes."""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import stat
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path

from croupier.errors import BotLaunchError

#: Top-level system directories (bound read-only, or recreated as the links they are).
SYSTEM_DIRS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/opt")
_PACKAGES = ("croupier", "croupier_bot", "croupier_bots", "croupier_proto")
#: The machine's own places, which a sandbox makes anew (``/proc``, ``/dev``) or never shows
#: (``/sys``, ``/run``): no directory of a bot's may be one, lie in one or hold one.
HOST_PLACES = ("/proc", "/sys", "/dev", "/run")
#: The machine's shared scratch folders (a sandbox has a private ``/tmp``): a bot may live in
#: one, but its directory may not be one or hold one.
SCRATCH_PLACES = ("/tmp", "/var/tmp", "/dev/shm")
#: File systems of the kernel's (from ``/proc/self/mountinfo``): a bot's directory may not be
#: in one nor hold one mounted (bubblewrap's binds are recursive).
KERNEL_FILE_SYSTEMS = frozenset({
    "proc", "sysfs", "devtmpfs", "devpts", "cgroup", "cgroup2", "debugfs", "tracefs", "securityfs",
    "bpf", "mqueue", "configfs", "fusectl", "pstore", "hugetlbfs", "binfmt_misc", "efivarfs",
    "autofs", "rpc_pipefs", "nsfs",
})  # fmt: skip
_SPECIAL = {
    stat.S_IFIFO: "a named pipe (FIFO)",
    stat.S_IFSOCK: "a unix socket",
    stat.S_IFCHR: "a device",
    stat.S_IFBLK: "a device",
}


def wire_contract() -> Path | None:
    """The folder of the ``.proto`` files (``proto/``, holding ``croupier/v1/bot.proto``) beside
    the installed ``croupier``, which every sandbox binds and a launched bot is told of in
    ``CROUPIER_PROTO_DIR``; ``None`` when there is none (an install without the contract)."""
    import croupier

    wire = Path(croupier.__file__).resolve().parents[2] / "proto"
    return wire if (wire / "croupier").is_dir() else None


def _runtime_roots() -> list[Path]:
    """Directories the Python runtime and the Croupier packages need, read-only."""
    roots = {Path(sys.prefix), Path(sys.base_prefix), Path(sys.executable).parent}
    roots.add(Path(os.path.realpath(sys.executable)).parent.parent)
    if (wire := wire_contract()) is not None:  # the .proto files (the Node SDK loads them)
        roots.add(wire)
    for name in _PACKAGES:
        spec = importlib.util.find_spec(name)
        if spec is not None and spec.submodule_search_locations:
            for location in spec.submodule_search_locations:
                roots.add(Path(location).resolve())
    return sorted(roots)


#: Scripts a Node bot runs (which resolve their modules upwards: :func:`_project_root`).
NODE_SCRIPTS = frozenset({".js", ".mjs", ".cjs", ".ts", ".mts", ".cts"})


def _project_root(path: Path) -> Path:
    """``path``, or the nearest of its three parents holding a ``package.json`` (a Node bot
    resolves its modules upwards from its script). Only for a Node script's folder: for any
    other path a stray ``package.json`` above (in a home folder, say) would bind all of it."""
    for candidate in [path, *path.parents][:4]:
        if (candidate / "package.json").is_file():
            return candidate
    return path


def bot_dirs(argv: list[str]) -> list[Path]:
    """The bot's own directories: that of its program (found on PATH if need be) and of every
    argument that names an existing file or directory (for a Node script in a package: the
    package's directory)."""
    return [folder for _, folder in _bot_paths(argv)]


def _bot_paths(argv: list[str]) -> list[tuple[str, Path]]:
    """:func:`bot_dirs`, each with the program or argument (as given) it comes from."""
    dirs: list[tuple[str, Path]] = []
    program = shutil.which(argv[0]) or argv[0]
    for i, arg in enumerate([program, *argv[1:]]):
        path = Path(arg)
        try:
            if not (os.sep in arg or i == 0) or not path.exists():
                continue
        except OSError:  # (a path this process may not look at: the bot may not either)
            continue
        real = path.resolve()
        if real.is_dir():
            dirs.append((arg, real))
        elif real.suffix in NODE_SCRIPTS:
            dirs.append((arg, _project_root(real.parent)))
        else:
            dirs.append((arg, real.parent))
        if path.absolute().parent != real.parent and not path.is_dir():
            dirs.append((arg, path.absolute().parent))  # a link's own directory (a venv's bin/)
    return dirs


def under(path: Path, roots: Iterable[Path]) -> bool:
    return any(path == r or r in path.parents for r in roots)


def system_dirs() -> list[Path]:
    """What every sandbox binds read-only anyway: the system's directories and the runtime."""
    wanted = [Path(n) for n in SYSTEM_DIRS if Path(n).is_dir() and not Path(n).is_symlink()]
    return [*wanted, *(r for r in _runtime_roots() if r.is_dir())]


def own_dirs(argv: list[str], system: list[Path] | None = None) -> list[Path]:
    """The bot's own directories (:func:`bot_dirs`) that a sandbox binds for it: those not
    already in the system's or the runtime's (``system``: :func:`system_dirs`), nor reached
    through one of the system's links that the sandbox makes anew (``/bin`` -> ``usr/bin``:
    bound as a directory of its own, it failed whenever it came before ``/usr``)."""
    if system is None:
        system = system_dirs()
    links = [Path(n) for n in SYSTEM_DIRS if Path(n).is_symlink()]
    mounts = _mounts()
    return [
        d
        for d in bot_dirs(argv)
        if not under(d, system)
        and not (under(d, links) and under(d.resolve(), system))
        and not _sandbox_has_its_own(d, mounts)
    ]


def _sandbox_has_its_own(path: Path, mounts: list[tuple[Path, str]]) -> bool:
    """Whether ``path`` is or lies in one of the machine's own places (:data:`HOST_PLACES`, a
    kernel file system) or is one of its scratch folders (:data:`SCRATCH_PLACES`): a sandbox
    has its own of these (``/proc``, ``/dev``, ``/tmp``) or none, so such a path in a bot's
    command line names the sandbox's own, and is never bound (binding the machine's ``/proc``
    would show the bot every process, the arbiter's command line and its seed among them)."""
    real = Path(os.path.realpath(path))
    for place in (*HOST_PLACES, *SCRATCH_PLACES):
        places = [Path(place), Path(os.path.realpath(place))]
        if real in places or (place in HOST_PLACES and under(real, places)):
            return True
    return any(kind in KERNEL_FILE_SYSTEMS and under(real, [point]) for point, kind in mounts)


def check_shown_dirs(argv: list[str], what: str = "the bot") -> None:
    """:class:`BotLaunchError` if a sandbox would show the bot, through its own directories
    (:func:`bot_dirs`: its program's, and those of the paths its arguments name, links
    followed), something of the machine's besides files:

    - a directory that holds one of the machine's own places (:data:`HOST_PLACES`,
      :data:`SCRATCH_PLACES`, a kernel file system mounted in it): ``/`` or ``/var``, say, whose
      bind would cover the sandbox's own ``/proc`` or ``/dev``, or show it the machine's ``/tmp``
      (a place itself is never bound: :func:`own_dirs`);
    - a named pipe, a unix socket or a device anywhere in a directory it binds: every sandbox
      that binds the directory (every lane of the bot, two seats of one match) could pass data
      through a pipe there (a read-only bind does not stop a pipe), and a socket may have a
      listener outside. The bot's folders are walked at each launch; the directories every
      sandbox binds (the system's and the runtime's: :func:`system_dirs`) once per process
      (:func:`check_shared_dirs`)."""
    check_shared_dirs()
    mounts = _mounts()
    shown: list[Path] = []
    for arg, path in _bot_paths(argv):
        real = Path(os.path.realpath(path))
        if _sandbox_has_its_own(real, mounts):
            continue  # (never bound)
        linked = os.path.realpath(arg) != os.path.abspath(arg)
        named = f"{path} (through the link {arg})" if linked else str(path)
        for place in (*HOST_PLACES, *SCRATCH_PLACES):
            if any(under(p, [real]) for p in {Path(place), Path(os.path.realpath(place))}):
                raise BotLaunchError(
                    f"{what}: its directory {named} holds {place}, which a sandbox may not "
                    "show a bot (no folder of a bot's program or of a path in its arguments "
                    f"may hold {', '.join(HOST_PLACES + SCRATCH_PLACES[:-1])} or /dev/shm)"
                )
        for point, kind in mounts:
            if kind in KERNEL_FILE_SYSTEMS and under(point, [real]):
                raise BotLaunchError(
                    f"{what}: its directory {named} holds a {kind} file system ({point}), "
                    "which a sandbox may not show a bot"
                )
        shown.append(real)
    walked: list[Path] = []
    for real in sorted(set(shown), key=lambda p: len(p.parts)):  # (each tree once)
        if not under(real, walked):
            walked.append(real)
            _check_special_files(real, what)


def _check_special_files(top: Path, what: str) -> None:
    """:class:`BotLaunchError` if the tree at ``top`` holds a file that is not a regular file,
    a directory or a symbolic link (links are not followed: a sandbox shows them as links)."""
    stack = [str(top)]
    while stack:
        folder = stack.pop()
        try:
            entries = os.scandir(folder)
        except OSError:
            if os.access(folder, os.X_OK):  # (a name inside still opens)
                raise BotLaunchError(
                    f"{what}: its directory {top} holds a folder this process may enter but "
                    f"not list, {folder}, in which a named pipe could hide: make it readable "
                    f"(chmod u+r), or keep the bot in a folder of its own"
                ) from None
            continue  # (neither may a sandboxed bot of this uid, nor one of a uid of its own)
        with entries:
            for entry in entries:
                if entry.is_symlink() or entry.is_file(follow_symlinks=False):
                    continue
                if entry.is_dir(follow_symlinks=False):
                    stack.append(entry.path)
                    continue
                try:
                    kind = _SPECIAL.get(stat.S_IFMT(entry.stat(follow_symlinks=False).st_mode))
                except OSError:
                    continue
                if kind is not None:
                    raise BotLaunchError(
                        f"{what}: its directory {top} holds {kind}, {entry.path}, through "
                        "which sandboxes that show the directory (the bot's other lanes, "
                        "another seat of its match) could pass each other data: remove it, "
                        "or keep the bot in a folder of its own"
                    )


#: What :func:`check_shared_dirs` found, once per process (``""``: nothing).
_shared_problem: str | None = None


def check_shared_dirs() -> None:
    """:class:`BotLaunchError` if a directory every sandbox binds (:func:`system_dirs`:
    ``/usr``, ``/opt``, the Python installation, the croupier packages) holds a named pipe, a
    unix socket or a device, or a folder this process may enter but not list: every sandbox
    would share it (a bot installed under ``/opt`` with a pipe beside its folder, say). Walked
    once per process, by ``find`` (some 0.4 s for 250,000 entries, against 2.4 s in Python);
    nothing is checked where ``find`` is missing."""
    global _shared_problem
    if _shared_problem is None:
        roots: list[Path] = []
        for root in sorted(set(system_dirs()), key=lambda p: len(p.parts)):
            if not under(root, roots):
                roots.append(root)
        _shared_problem = _find_special([str(r) for r in roots])
    if _shared_problem:
        raise BotLaunchError(_shared_problem)


def _find_special(roots: list[str]) -> str:
    """Why the trees at ``roots`` may not be shown to bots, or ``""``."""
    find = shutil.which("find", path="/usr/bin:/bin")
    if find is None or not roots:
        return ""
    kinds = ["(", "-type", "p", "-o", "-type", "s", "-o", "-type", "b", "-o", "-type", "c", ")"]
    done = subprocess.run(
        [find, *roots, *kinds, "-print", "-quit"],
        capture_output=True,
        text=True,
        errors="replace",
        env={"LC_ALL": "C"},
        check=False,
    )
    if done.stdout.strip():
        found = done.stdout.splitlines()[0]
        root = next(r for r in roots if under(Path(found), [Path(r)]))
        try:
            kind = _SPECIAL.get(stat.S_IFMT(os.lstat(found).st_mode), "a special file")
        except OSError:
            kind = "a special file"
        return (
            f"{root}, which every sandbox shows its bot, holds {kind}, {found}, through which "
            "bots could pass each other data: remove it"
        )
    for line in done.stderr.splitlines():  # find: 'X': Permission denied
        if line.endswith("Permission denied") and "'" in line:
            folder = line.split("'")[1]
            if os.path.isdir(folder) and os.access(folder, os.X_OK):
                return (
                    f"{folder}, in a directory every sandbox shows its bot, may be entered "
                    "but not listed by this process, so a named pipe could hide in it: make "
                    "it readable (chmod u+r)"
                )
    return ""


def _mounts() -> list[tuple[Path, str]]:
    """The machine's mount points and their file system types (``/proc/self/mountinfo``;
    none where it cannot be read)."""
    try:
        lines = Path("/proc/self/mountinfo").read_text().splitlines()
    except OSError:
        return []
    mounts = []
    for line in lines:
        fields = line.split()
        if "-" not in fields[6:]:
            continue
        kind = fields[fields.index("-", 6) + 1]
        point = re.sub(r"\\([0-7]{3})", lambda m: chr(int(m[1], 8)), fields[4])  # (\040: " ")
        mounts.append((Path(point), kind))
    return mounts


def check_bot_dirs(argv: list[str], forbidden: Iterable[Path], what: str = "the bot") -> None:
    """:class:`BotLaunchError` if a directory of the bot's own (:func:`own_dirs`: what its
    sandbox shows it) holds one of ``forbidden`` (a store, a config, a state or output folder)
    or lies inside one; ``what`` names the bot in the message."""
    targets = {Path(os.path.abspath(f)) for f in forbidden}
    targets |= {Path(os.path.realpath(t)) for t in targets}
    for own in own_dirs(argv):
        for target in sorted(targets):
            if under(target, [own]):
                raise BotLaunchError(
                    f"{what}: its directory {own} holds {target}, which no bot may see "
                    "(move the bot, or the store, config and folders, elsewhere)"
                )
            if under(own, [target]):
                raise BotLaunchError(
                    f"{what}: its directory {own} lies in {target}, which no bot may see"
                )


def check_private_paths(forbidden: Iterable[Path], folders: Iterable[Path] = ()) -> None:
    """:class:`BotLaunchError` if one of ``forbidden`` (a store, a config file, a key) is a file
    that lies in a directory every sandbox binds (the system's, the runtime's: :func:`system_dirs`),
    where a sandboxed bot could read it (as the arbiter's own user without root, whatever its
    mode); or a folder that holds one of those directories (covering it would hide the runtime).
    A forbidden folder inside one is fine (``fs_plan`` covers it with an empty tmpfs), as is one
    of ``folders`` (to be made a folder before any bot starts), and anything inside either; any
    other path not made yet counts as a file."""
    system = [(root, root.resolve()) for root in system_dirs()]
    given = {Path(os.path.realpath(f)): Path(os.path.abspath(f)) for f in forbidden}
    given.update({Path(os.path.realpath(f)): Path(os.path.abspath(f)) for f in folders})
    made = {Path(os.path.realpath(f)) for f in folders}
    covered = made | {real for real in given if real.is_dir()}
    for real in sorted(covered):
        for root, target in system:
            if under(target, [real]):
                raise BotLaunchError(
                    f"{given[real]} holds {root}, which every sandbox shows its bots: keep "
                    "stores, configs, keys and state folders apart from the system and the "
                    "Python installation"
                )
    for real in sorted(set(given) - covered):
        if under(real, covered):
            continue
        for root, target in system:
            if under(real, [target]):
                raise BotLaunchError(
                    f"{given[real]} lies in {root}, which every sandbox shows its bots "
                    "(read-only): keep stores, configs, keys and state folders out of it"
                )


def absolute_args(argv: list[str]) -> list[str]:
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


def check_reachable(argv: list[str]) -> None:
    """:class:`BotLaunchError` unless a uid of its own may reach the bot's program and its
    directories on this machine's file system (no sandbox builds one for it: every directory
    on the way must be open to other users)."""
    program = shutil.which(argv[0]) or argv[0]
    for path in [Path(os.path.realpath(program)), *own_dirs(argv)]:
        for step in [*reversed(path.parents), path]:
            try:
                mode = step.stat().st_mode
            except OSError:
                continue
            if step.is_dir() and mode & 0o001 == 0:
                raise BotLaunchError(
                    f"{path} is out of reach of other users ({step} is mode {mode & 0o777:o}), "
                    "and without a sandbox a bot runs as a uid of its own: install bubblewrap "
                    "or util-linux unshare, open the way (chmod o+x), or use --sandbox none"
                )
