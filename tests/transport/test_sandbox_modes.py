"""Which sandbox a bot gets on which machine, and what is said about it
(``croupier.transport._sandbox``): the one warning line, the refusal of ``tournament`` and
``serve``, the directories no bot may live in, and the command lines of both sandboxes (one
file-system plan for bubblewrap and for util-linux ``unshare``).

The machine is played by the test (no bubblewrap, not root, no cgroups): the real sandboxes run
in ``tests/e2e/test_attacks.py`` and ``tests/e2e/test_isolation.py``.
"""

from __future__ import annotations

import json
import os
import socket
import sys
from pathlib import Path
from typing import Any

import pytest

from croupier.cli._sandbox import bots_note, isolation_note
from croupier.errors import BotLaunchError
from croupier.transport import Isolation, SandboxMode, SandboxOptions, _bot_dirs, _cgroups, _sandbox
from croupier.transport._cgroups import CgroupSetup, Hierarchy

ALL_GROUPS = CgroupSetup((Hierarchy(2, frozenset(_cgroups.CONTROLLERS), Path("/x")),))


@pytest.fixture
def machine(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    """No bubblewrap, no unshare, every cgroup controller: the test changes what it needs."""
    monkeypatch.setattr(_sandbox, "bwrap_path", lambda: None)
    monkeypatch.setattr(_sandbox, "unshare_path", lambda: None)
    monkeypatch.setattr(_cgroups, "machine_setup", lambda: ALL_GROUPS)
    return monkeypatch


def test_not_root_without_bubblewrap_one_line_says_what_is_not_isolated(
    machine: pytest.MonkeyPatch,
) -> None:
    machine.setattr(os, "geteuid", lambda: 1000)
    options = SandboxOptions(mode=SandboxMode.AUTO)
    assert _sandbox.choose(options.mode).isolation is Isolation.LIMITS
    assert _sandbox.warning(options) == (
        "bots are not isolated (bubblewrap (bwrap) is not installed, and the arbiter does not "
        "run as root): they run as this user, so they can read its files and the other bots' "
        "tokens, signal its processes, reach the network and share /tmp; only resource limits "
        "apply"
    )


def test_root_without_any_sandbox_tool_gets_a_uid_of_its_own(machine: pytest.MonkeyPatch) -> None:
    machine.setattr(os, "geteuid", lambda: 0)
    choice = _sandbox.choose(SandboxMode.AUTO)
    assert choice == _sandbox.Choice(
        Isolation.UID,
        "bubblewrap (bwrap) is not installed; util-linux unshare is not installed",
    )


def test_missing_cgroups_join_the_same_line(machine: pytest.MonkeyPatch) -> None:
    machine.setattr(os, "geteuid", lambda: 1000)
    memory_only = CgroupSetup(
        (Hierarchy(1, frozenset({"memory"}), Path("/m")),), "no pids, cpu controllers"
    )
    machine.setattr(_cgroups, "machine_setup", lambda: memory_only)
    line = _sandbox.warning(SandboxOptions(mode=SandboxMode.AUTO))
    assert "\n" not in line
    assert line.endswith(
        "; no cgroups for the bots (no pids, cpu controllers): processes are capped per uid "
        "only, no CPU quota"
    )


def test_sandbox_none_warns_of_missing_cgroups_only(machine: pytest.MonkeyPatch) -> None:
    machine.setattr(_cgroups, "machine_setup", lambda: CgroupSetup((), "no cgroup hierarchy"))
    assert _sandbox.warning(SandboxOptions(mode=SandboxMode.NONE)) == (
        "no cgroups for the bots (no cgroup hierarchy): memory is capped per process only, not "
        "per bot, processes are capped per uid only, no CPU quota"
    )


def test_a_tournament_is_refused_without_a_sandbox_unless_none(
    machine: pytest.MonkeyPatch,
) -> None:
    machine.setattr(os, "geteuid", lambda: 0)
    refused = _sandbox.refusal(SandboxOptions(mode=SandboxMode.AUTO), "croupier tournament")
    assert refused == (
        "bots cannot be sandboxed here (bubblewrap (bwrap) is not installed; util-linux unshare "
        "is not installed): croupier tournament launches bots only in a sandbox (bubblewrap, or "
        "util-linux unshare as root); --sandbox none launches them without one"
    )
    assert _sandbox.refusal(SandboxOptions(mode=SandboxMode.NONE), "croupier tournament") == ""
    forced = _sandbox.refusal(SandboxOptions(mode=SandboxMode.BWRAP), "croupier serve")
    assert forced.startswith("cannot sandbox the bot: bubblewrap (bwrap) is not installed: ")


def test_the_unshare_mode_demands_root(machine: pytest.MonkeyPatch) -> None:
    machine.setattr(os, "geteuid", lambda: 1000)
    with pytest.raises(BotLaunchError, match="util-linux unshare: the arbiter does not run as"):
        _sandbox.choose(SandboxMode.UNSHARE)


def test_both_sandboxes_build_the_same_file_system(tmp_path: Path) -> None:
    """bubblewrap's options and the util-linux supervisor's steps come from one plan."""
    bot = tmp_path / "bot"
    bot.mkdir(mode=0o755)
    (bot / "b.py").write_text("")
    socket = tmp_path / "arbiter.sock"
    socket.write_text("")
    argv = [sys.executable, str(bot / "b.py")]
    options = SandboxOptions(socket=socket, hidden=(bot / "matches",))
    ops, cwd = _sandbox.fs_plan(argv, options, check_uid=False)
    assert cwd == str(bot)
    assert ["ro-bind", str(bot), str(bot)] in ops
    assert ["ro-bind", str(socket), _sandbox.SANDBOX_SOCKET] in ops
    assert ["tmpfs", "/tmp", "1777", str(_sandbox.TMP_BYTES)] in ops
    assert ["tmpfs", str(bot / "matches"), "755", "0"] in ops
    unshare = _sandbox.unshare_argv("/usr/bin/unshare", argv, options, 1_000_000_001, lifeline=7)
    head = unshare[: unshare.index("--")]
    assert head == [
        "/usr/bin/unshare", "--pid", "--fork", "--kill-child", "--mount", "--ipc", "--uts",
        "--propagation", "private", "--net",
    ]  # fmt: skip
    spec = json.loads(unshare[unshare.index("--") + 5])
    assert spec["root"] == {"ops": ops, "hostname": "croupier-bot", "loopback": True}
    assert (spec["uid"], spec["chdir"], spec["scope"]) == (1_000_000_001, str(bot), "ns")
    bwrap = _sandbox.bwrap_argv("/usr/bin/bwrap", argv, options, -1, as_root=False, lifeline=7)
    assert "--unshare-net" in bwrap
    assert bwrap[bwrap.index("--chdir") + 1] == str(bot)
    no_socket = _sandbox.unshare_argv("/u", argv, SandboxOptions(), 5, lifeline=7)
    assert "--net" not in no_socket[: no_socket.index("--")]  # (it dials the TCP port)


def test_with_a_control_group_bubblewrap_keeps_the_cgroup_namespace(tmp_path: Path) -> None:
    """A bot joins its group from inside the sandbox: a cgroup namespace of its own would make
    older kernels refuse the move (v2), so there is none then."""
    argv = [sys.executable, "-c", ""]
    plain = _sandbox.bwrap_argv("/b", argv, SandboxOptions(), -1, as_root=False, lifeline=3)
    grouped = _sandbox.bwrap_argv(
        "/b", argv, SandboxOptions(), -1, as_root=False, lifeline=3, cgroups=[9]
    )
    assert "--unshare-cgroup-try" in plain
    assert "--unshare-cgroup-try" not in grouped


@pytest.mark.parametrize("where", ["holds", "lies in"])
def test_a_bot_may_not_live_with_the_store(tmp_path: Path, where: str) -> None:
    home = tmp_path / "home"
    home.mkdir()
    (home / "bot.py").write_text("")
    store = home / "t.sqlite" if where == "holds" else tmp_path
    argv = [sys.executable, str(home / "bot.py")]
    with pytest.raises(BotLaunchError) as caught:
        _bot_dirs.check_bot_dirs(argv, [store], "bots.x")
    assert str(caught.value).startswith(f"bots.x: its directory {home} {where} {store}")
    _bot_dirs.check_bot_dirs(argv, [tmp_path / "elsewhere" / "t.sqlite"])  # (no error)


def test_the_standings_notes_name_the_weakest_isolation() -> None:
    assert isolation_note({0: Isolation.BWRAP, 1: Isolation.UNSHARE}) is None
    assert isolation_note({0: Isolation.UID, 1: Isolation.NONE, 2: Isolation.BWRAP}) == (
        "warning: seats 0, 1 were not isolated: no sandbox (--sandbox none)"
    )
    assert bots_note({"a": "bwrap", "b": "", "c": "unshare"}) is None
    assert bots_note({"a": "uid", "b": "limits", "c": "bwrap"}) == (
        "warning: bots a, b ran without isolation: resource limits only"
    )
    ranks = [i.rank for i in Isolation]
    assert ranks == sorted(ranks, reverse=True)


def test_a_private_folder_in_a_bound_directory_is_covered_and_a_private_file_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A server's state folder (or a tournament's replays) in a directory every sandbox binds
    (``/opt``, the venv...) is covered by an empty tmpfs; a store or config file there cannot
    be covered, so the launch is refused (a bot without root runs as the organiser's user and
    could read it whatever its mode)."""
    opt = tmp_path / "opt"
    state, config = opt / "state", opt / "croupier.toml"
    state.mkdir(parents=True)
    config.write_text("")
    bot = tmp_path / "bot"
    bot.mkdir()
    (bot / "b.py").write_text("")
    monkeypatch.setattr(_bot_dirs, "system_dirs", lambda: [opt])
    monkeypatch.setattr(_sandbox, "system_dirs", lambda: [opt])
    argv = [sys.executable, str(bot / "b.py")]
    ops, _ = _sandbox.fs_plan(argv, SandboxOptions(forbidden=(state,)), check_uid=False)
    assert ops.index(["ro-bind", str(opt), str(opt)]) < ops.index(["tmpfs", str(state), "755", "0"])
    with pytest.raises(BotLaunchError) as caught:
        _sandbox.fs_plan(argv, SandboxOptions(forbidden=(state, config)), check_uid=False)
    assert str(caught.value) == (
        f"{config} lies in {opt}, which every sandbox shows its bots (read-only): keep stores, "
        "configs, keys and state folders out of it"
    )
    with pytest.raises(BotLaunchError):  # a store not made yet: a file to come
        _bot_dirs.check_private_paths([opt / "t.sqlite"])
    _bot_dirs.check_private_paths(
        [opt / "replays", tmp_path / "t.sqlite"], folders=[opt / "replays"]
    )


def test_a_private_folder_is_covered_where_a_sandbox_shows_it_through_a_link(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The bound directory is reached through a symbolic link (a venv's python, say): the
    folder inside its target is covered at the path the sandbox shows it, the link's."""
    real = tmp_path / "real"
    (real / "state").mkdir(parents=True)
    link = tmp_path / "link"
    link.symlink_to(real)
    monkeypatch.setattr(_bot_dirs, "system_dirs", lambda: [link])
    monkeypatch.setattr(_sandbox, "system_dirs", lambda: [link])
    argv = [sys.executable, "-c", ""]
    for given in (real / "state", link / "state"):
        ops, _ = _sandbox.fs_plan(argv, SandboxOptions(forbidden=(given,)), check_uid=False)
        assert ["ro-bind", str(link), str(link)] in ops
        assert ["tmpfs", str(link / "state"), "755", "0"] in ops, ops


def test_a_state_folder_in_a_bound_directory_keeps_its_key_files_and_may_not_hold_the_runtime(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A server's state folder under ``/opt`` with its key files inside it (the default): the
    folder is covered, so its files are fine; a state folder that holds the Python installation
    would hide it from every bot (and the bots would not start): refused."""
    opt = tmp_path / "opt"
    state, venv = opt / "croupier" / "state", opt / "croupier" / "venv"
    state.mkdir(parents=True)
    venv.mkdir()
    monkeypatch.setattr(_bot_dirs, "system_dirs", lambda: [venv])
    _bot_dirs.check_private_paths([state, state / "operator.key", state / "spectator.key"])
    monkeypatch.setattr(_bot_dirs, "system_dirs", lambda: [opt])
    _bot_dirs.check_private_paths([state, state / "operator.key"])  # (covered: under the folder)
    _bot_dirs.check_private_paths([state / "t" / "store.sqlite"], folders=[state])
    monkeypatch.setattr(_bot_dirs, "system_dirs", lambda: [venv])
    with pytest.raises(BotLaunchError) as caught:
        _bot_dirs.check_private_paths([opt / "croupier"])
    assert str(caught.value).startswith(f"{opt / 'croupier'} holds {venv}, which every sandbox")


def _bound(ops: list[list[str]]) -> list[Path]:
    return [Path(op[1]) for op in ops if op[0] in ("ro-bind", "bind")]


def test_the_machines_own_places_named_by_a_bot_are_never_bound(tmp_path: Path) -> None:
    """A bot's command line that names ``/proc`` (or a link to it in its folder), a device, the
    machine's ``/sys``, ``/run`` or ``/tmp``: each bound over the sandbox's own, the machine's
    ``/proc`` showed the bot every process (the arbiter's command line, the seed in it). Now
    such a path names the sandbox's own, and is not bound."""
    home = tmp_path / "bot"
    home.mkdir()
    (home / "bot.py").write_text("")
    (home / "model").symlink_to("/proc")
    names = ["/proc", str(home / "model"), "/proc/self/status", "/dev/null", "/sys/kernel"]
    argv = [sys.executable, str(home / "bot.py"), *names, "/run", "/tmp", "/var/tmp"]
    ops, _ = _sandbox.fs_plan(argv, SandboxOptions(), check_uid=False)
    bound = _bound(ops)
    assert home in bound  # (the probe is sound: the bot's own folder is)
    places = [Path(p) for p in _bot_dirs.HOST_PLACES]
    for path in bound:
        assert not _bot_dirs.under(path, places), path
        assert path not in [Path(p) for p in _bot_dirs.SCRATCH_PLACES], path


@pytest.mark.parametrize("folder", ["/", "/var"])
def test_a_folder_that_holds_the_machines_places_is_refused(folder: str) -> None:
    if not Path("/var/tmp").is_dir():
        pytest.skip("this machine has no /var/tmp")
    with pytest.raises(BotLaunchError) as caught:
        _sandbox.fs_plan([sys.executable, "-c", "pass", folder], SandboxOptions(), check_uid=False)
    held = "/proc" if folder == "/" else "/var/tmp"
    assert str(caught.value) == (
        f"the bot: its directory {folder} holds {held}, which a sandbox may not show a bot (no "
        "folder of a bot's program or of a path in its arguments may hold /proc, /sys, /dev, "
        "/run, /tmp, /var/tmp or /dev/shm)"
    )


@pytest.mark.parametrize("kind", ["named pipe (FIFO)", "unix socket"])
def test_a_named_pipe_or_a_socket_in_a_bots_folder_is_refused(tmp_path: Path, kind: str) -> None:
    """Anywhere in the folder (every sandbox of the bot binds it, and every seat of a match it
    plays twice), links not followed; the rest of the folder is fine."""
    home = tmp_path / "bot"
    (home / "deep" / "er").mkdir(parents=True)
    (home / "bot.py").write_text("")
    special = home / "deep" / "er" / "chan"
    (home / "to-a-pipe").symlink_to(tmp_path / "elsewhere")  # (not followed)
    os.mkfifo(tmp_path / "elsewhere")
    listener = socket.socket(socket.AF_UNIX)
    try:
        if kind == "unix socket":
            listener.bind(str(special))
        else:
            os.mkfifo(special)
        argv = [sys.executable, str(home / "bot.py")]
        with pytest.raises(BotLaunchError) as caught:
            _sandbox.fs_plan(argv, SandboxOptions(), check_uid=False)
        assert str(caught.value).startswith(
            f"the bot: its directory {home} holds a {kind}, {special}, through which "
        )
    finally:
        listener.close()
    special.unlink()
    assert home in _bound(_sandbox.fs_plan(argv, SandboxOptions(), check_uid=False)[0])


def _alice(root: Path) -> tuple[Path, list[str]]:
    """A bot unpacked into ``root``: its program in ``alice/src``, a named pipe in ``alice``
    beside it (outside the folder its sandbox binds for it)."""
    src = root / "alice" / "src"
    src.mkdir(parents=True)
    (src / "bot.py").write_text("")
    os.mkfifo(root / "alice" / "chan")
    return root / "alice" / "chan", [sys.executable, str(src / "bot.py")]


def test_a_pipe_in_a_directory_every_sandbox_binds_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A bot installed under ``/opt`` (a directory every sandbox binds whole) with a named pipe
    beside its own folder: every sandbox would share it. Each process walks those directories
    once, and refuses every launch while one holds a pipe, a socket or a device."""
    opt = tmp_path / "opt"
    chan, argv = _alice(opt)
    bound = [*_bot_dirs.system_dirs(), opt]
    monkeypatch.setattr(_bot_dirs, "system_dirs", lambda: bound)
    monkeypatch.setattr(_sandbox, "system_dirs", lambda: bound)
    monkeypatch.setattr(_bot_dirs, "_shared_problem", None)  # (not walked yet)
    with pytest.raises(BotLaunchError) as caught:
        _sandbox.fs_plan(argv, SandboxOptions(), check_uid=False)
    assert str(caught.value) == (
        f"{opt}, which every sandbox shows its bot, holds a named pipe (FIFO), {chan}, through "
        "which bots could pass each other data: remove it"
    )
    chan.unlink()
    with pytest.raises(BotLaunchError):  # (once per process: the organiser restarts it)
        _sandbox.fs_plan(argv, SandboxOptions(), check_uid=False)
    monkeypatch.setattr(_bot_dirs, "_shared_problem", None)
    _sandbox.fs_plan(argv, SandboxOptions(), check_uid=False)


def test_a_bot_inside_the_python_installation_is_walked_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A bot kept among the runtime's directories (the checkout's ``bots/`` in an editable
    install, the venv) was never walked: a pipe in its own folder passed."""
    runtime = tmp_path / "venv"
    chan, argv = _alice(runtime)
    os.rename(chan, runtime / "alice" / "src" / "chan")
    roots = [*_bot_dirs._runtime_roots(), runtime]
    monkeypatch.setattr(_bot_dirs, "_runtime_roots", lambda: roots)
    monkeypatch.setattr(_bot_dirs, "_shared_problem", "")  # (walked: clean)
    with pytest.raises(BotLaunchError) as caught:
        _sandbox.fs_plan(argv, SandboxOptions(), check_uid=False)
    assert "holds a named pipe (FIFO), " in str(caught.value), caught.value


def test_a_folder_the_arbiter_may_enter_but_not_list_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Mode ``0111`` (kept by ``tar`` and ``cp -a``): a pipe inside opens by its name, for a bot
    of the organiser's own uid (bubblewrap without root), though the arbiter cannot list it.
    (Root lists any folder: the test plays the refusal.)"""
    home = tmp_path / "bot"
    hidden = home / "hidden"
    hidden.mkdir(parents=True)
    (home / "bot.py").write_text("")
    listing = os.scandir

    def scandir(path: str) -> Any:
        if Path(path) == hidden:
            raise PermissionError(13, "Permission denied", path)
        return listing(path)

    monkeypatch.setattr(os, "scandir", scandir)
    monkeypatch.setattr(_bot_dirs, "_shared_problem", "")
    with pytest.raises(BotLaunchError) as caught:
        _sandbox.fs_plan([sys.executable, str(home / "bot.py")], SandboxOptions(), check_uid=False)
    assert str(caught.value).startswith(
        f"the bot: its directory {home} holds a folder this process may enter but not list, "
        f"{hidden}, "
    )


@pytest.mark.parametrize(
    ("written", "path"),
    [("/a\\040b", "/a b"), ("/t\\011d", "/t\td"), ("/n\\012x", "/n\nx"), ("/b\\134s", "/b\\s")],
)
def test_the_supervisor_reads_every_escape_of_the_mount_table(written: str, path: str) -> None:
    """A mount point with a tab, a newline or a backslash in its path was not found in the
    table (only ``\\040`` was read), so the unshare sandbox left its bind writable, with
    devices and set-uid; the supervisor now also checks the flags after remounting."""
    from croupier.transport import _confine

    assert _confine._unescape(written) == path


@pytest.mark.parametrize("script", ["bot.py", "bot.js"])
def test_only_a_node_script_takes_the_package_above_it(tmp_path: Path, script: str) -> None:
    """A Node script resolves its modules upwards, so its package's folder is bound; for any
    other bot a stray ``package.json`` above (in a home folder) bound the whole of it."""
    home = tmp_path / "home"
    folder = home / "bots" / "alice"
    folder.mkdir(parents=True)
    (home / "package.json").write_text("{}")
    (folder / script).write_text("")
    argv = ["/usr/bin/env", str(folder / script)]
    assert _bot_dirs.own_dirs(argv) == [home if script == "bot.js" else folder]
