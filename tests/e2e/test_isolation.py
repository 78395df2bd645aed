"""Isolation that never silently degrades: the sandbox without bubblewrap (util-linux
``unshare``, as root), and the control group of every sandbox (``croupier.transport._sandbox``,
``._cgroups``). The hostile bot is ``tests/e2e/bots/attacker.py``; the tests read what it
reports in its log, and the results.

Each attack here was seen to succeed on the code before (the fallback without bubblewrap ran
the bots as root with limits only; memory was capped per process; nothing bounded a bot's CPU).
"""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import signal
import socket
import sys
from pathlib import Path

import pytest
from e2e_kit import BOTS_DIR, RANDOM, croupier, live_processes, replay_path

from croupier.arbiter import ClockRules, MatchConfig, Outcome
from croupier.errors import BotLaunchError
from croupier.replay import read_replay, verify
from croupier.runner import MatchRun, run_match
from croupier.transport import ArbiterServer, Isolation, SandboxMode, SandboxOptions, _cgroups

pytestmark = pytest.mark.e2e
needs_root = pytest.mark.skipif(os.geteuid() != 0, reason="bots get uids of their own as root")
needs_unshare = pytest.mark.skipif(shutil.which("unshare") is None, reason="no util-linux unshare")

ATTACKER = [sys.executable, str(BOTS_DIR / "attacker.py")]
QUICK = ClockRules(move_time_ms=1000, time_bank_ms=0)


def _config(deals: int = 1) -> MatchConfig:
    return MatchConfig("as-nas", {"deals": deals}, seed=5, clock=QUICK, connect_timeout_s=20)


def _log(run: MatchRun, seat: int = 0) -> str:
    return run.logs[seat].read_text(errors="replace")


@pytest.fixture
def no_bwrap(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A PATH on which bubblewrap is missing and util-linux's ``unshare`` is not."""
    tools = tmp_path / "bin"
    tools.mkdir()
    for name in ("unshare",):
        found = shutil.which(name)
        if found is not None:
            (tools / name).symlink_to(found)
    monkeypatch.setenv("PATH", str(tools))
    return tools


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@needs_root
@needs_unshare
def test_without_bubblewrap_a_bot_steals_reads_and_signals_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, no_bwrap: Path
) -> None:
    """No ``bwrap`` on PATH, the arbiter root: the attacker (in a directory that also holds the
    match directory) gets no other seat's token, no seat, no replay, not /etc/shadow nor
    another tournament's store, cannot signal any bot of the machine, and reaches nothing on
    the network: each bot runs under util-linux ``unshare`` as a uid of its own."""
    monkeypatch.setenv("CROUPIER_TEST_SECRET", "hunter2")
    home = tmp_path / "bot"
    home.mkdir(mode=0o755)
    for name in ("attacker.py", "_common.py"):
        shutil.copy(BOTS_DIR / name, home / name)
    store = tmp_path / "other-tournament.sqlite"
    store.write_text("config_json seed 1234")
    store.chmod(0o600)

    async def main() -> MatchRun:
        server = ArbiterServer("127.0.0.1:0")
        await server.start()
        try:
            port = server.address.rsplit(":", 1)[1]
            attack = [
                sys.executable, str(home / "attacker.py"), "--steal-tokens", "--read-replays",
                "--signal-siblings", "--read", "/etc/shadow", "--read", str(store),
                "--probe-port", port, "--whoami",
            ]  # fmt: skip
            bots = [attack, RANDOM, RANDOM, RANDOM]
            return await run_match(_config(2), bots, home / "matches", server=server)
        finally:
            await server.stop()

    run = asyncio.run(main())
    log = _log(run)
    assert "stolen tokens: 0" in log, log
    assert "seats taken: []" in log, log
    assert "secret: (not set)" in log, log
    assert "replays read: 0" in log, log
    assert "seed seen: no" in log, log
    assert "read /etc/shadow: no" in log, log
    assert f"read {store}: no" in log, log
    assert "siblings signallable: 0" in log, log
    assert "tcp: refused" in log, log
    who = re.search(r"whoami: uid=(\d+) (.*) host=(\S+) processes=(\d+)", log)
    assert who, log
    assert int(who[1]) >= 1_000_000_000, log
    zero = "0" * 16
    assert who[2] == (
        f"CapInh={zero} CapPrm={zero} CapEff={zero} CapBnd={zero} CapAmb={zero} NoNewPrivs=1"
    ), log
    assert (who[3], int(who[4]) <= 3) == ("croupier-bot", True), log  # the supervisor, itself
    for seat in run.result.seats[1:]:
        assert (seat.bot_name, seat.outcome, seat.timeouts) == ("random", Outcome.NORMAL, 0)
    verify(read_replay(run.replay))
    assert set(run.isolation.values()) == {Isolation.UNSHARE}


@pytest.mark.parametrize("where", ["default", "no-bwrap"])
def test_two_bots_cannot_talk_through_tmp_shm_sockets_loopback_locks_or_inotify(
    tmp_path: Path, request: pytest.FixtureRequest, where: str
) -> None:
    """Two launched bots (two lanes of one bot, say) plant and probe every channel outside the
    arbiter: a file in /tmp and in /dev/shm, an abstract unix socket, a loopback TCP port, and
    two through a file both sandboxes bind (the attacker's own script): a lock (``fcntl`` and
    ``flock``, whose place would carry data) and inotify (its opens). The last two were open
    before the system-call filter (``croupier.transport._confine``)."""
    if where == "no-bwrap":
        if os.geteuid() != 0 or shutil.which("unshare") is None:
            pytest.skip("the sandbox without bubblewrap needs root and util-linux unshare")
        request.getfixturevalue("no_bwrap")
    name = f"{os.getpid()}-{tmp_path.name}"
    port = str(_free_port())
    plant = [*ATTACKER, "--lane-plant", name, "--lane-port", port]
    probe = [*ATTACKER, "--lane-probe", name, "--lane-port", port]
    try:
        run = asyncio.run(run_match(_config(), [plant, probe, RANDOM, RANDOM], tmp_path / "out"))
    finally:  # what an unisolated planter left on the machine
        for folder in ("/tmp", "/dev/shm"):
            Path(folder, f"croupier-lane-{name}").unlink(missing_ok=True)
    log = _log(run, 1)
    for channel in ("tmp", "shm", "abstract", "tcp", "lock", "inotify"):
        assert f"lane {channel}: no" in log, log


@pytest.mark.parametrize("where", ["default", "no-bwrap"])
def test_a_private_folder_inside_a_directory_every_sandbox_binds_is_covered(
    tmp_path: Path, request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch, where: str
) -> None:
    """A server's state folder (or a tournament's replay folder) inside a directory that every
    sandbox binds (``/opt`` here): the bot finds it empty, though its files are world-readable
    (without root a bot runs as the organiser's user: modes would not stop it). Before, only a
    bot's own directory was checked, and the folder was in plain view."""
    if where == "no-bwrap":
        if os.geteuid() != 0 or shutil.which("unshare") is None:
            pytest.skip("the sandbox without bubblewrap needs root and util-linux unshare")
        request.getfixturevalue("no_bwrap")
    opt = tmp_path / "opt"
    state = opt / "state"
    state.mkdir(parents=True)
    opt.chmod(0o755)
    state.chmod(0o755)
    secret = state / "tournament.secret"
    secret.write_text("the key of every seed")
    secret.chmod(0o644)
    from croupier.transport import _bot_dirs, _sandbox

    bound = [*_bot_dirs.system_dirs(), opt]
    monkeypatch.setattr(_bot_dirs, "system_dirs", lambda: bound)
    monkeypatch.setattr(_sandbox, "system_dirs", lambda: bound)
    attack = [*ATTACKER, "--read", str(secret), "--read", str(opt / "visible")]
    (opt / "visible").write_text("the rest of /opt is still there")
    (opt / "visible").chmod(0o644)
    options = SandboxOptions(forbidden=(state,))
    run = asyncio.run(
        run_match(_config(), [attack, RANDOM, RANDOM, RANDOM], tmp_path / "out", sandbox=options)
    )
    log = _log(run)
    assert f"read {opt / 'visible'}: yes" in log, log  # the probe is sound
    assert f"read {secret}: no" in log, log


@pytest.mark.skipif(not Path("/bin").is_symlink(), reason="/bin is a directory here")
def test_a_bot_started_through_bin_plays_in_its_sandbox(tmp_path: Path) -> None:
    """A bot command through the system's links (``/bin/sh -c ...``): the sandbox makes
    ``/bin`` anew as a link to ``usr/bin``, and binds no ``/bin`` of the bot's own. (It bound
    one too, and in about half the arbiter processes, by the hash order of a set, that bind
    came before ``/usr``'s and bubblewrap failed: the bot crashed at start, an empty log.)"""
    from croupier.transport._sandbox import fs_plan

    shell = ["/bin/sh", "-c", f"exec {sys.executable} -m croupier_bots.random_bot"]
    ops, _ = fs_plan(shell, SandboxOptions(), check_uid=False)
    assert ["symlink", "usr/bin", "/bin"] in ops
    assert not [op for op in ops if op[0] in ("ro-bind", "bind") and op[2] == "/bin"], ops
    run = asyncio.run(run_match(_config(), [shell, RANDOM, RANDOM, RANDOM], tmp_path))
    assert run.result.seats[0].outcome is Outcome.NORMAL, _log(run)


def test_a_forking_bot_is_held_to_the_trees_memory_cap(tmp_path: Path) -> None:
    """Six children of 400 MiB each under ``--bot-memory-mb 512`` (which also caps the whole
    tree, where the machine has cgroups): at most one of them holds its memory."""
    bot = f"{sys.executable} {BOTS_DIR / 'attacker.py'} --fork-hogs 6:400"
    done = croupier(
        "match", "--game", "as-nas", "--deals", 1, "--seed", 3, "--out", tmp_path / "out",
        "--bot", bot, "--bot-memory-mb", 512, "--connect-timeout", 60,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    if "no cgroups" in done.stderr:
        pytest.skip(done.stderr.strip())
    (log,) = (tmp_path / "out").glob("*.seat0.log")
    text = log.read_text()
    held = re.search(r"fork hogs held: (\d+) of 6", text)
    assert held, text
    assert int(held[1]) * 400 <= 512, text
    assert replay_path(done.stdout).exists()


def test_a_spinning_bot_does_not_push_honest_seats_past_their_clock(tmp_path: Path) -> None:
    """A bot that starts 100 CPU-bound processes (each in a session of its own, so the kernel's
    autogroups do not share them out) against three honest bots that each spend 20 ms of CPU
    on every decision with a 250 ms clock and no bank: the spinner's group gets one core at
    most and one bot's share of the CPU, and no honest seat times out."""
    spinner = [*ATTACKER, "--spin", "100"]
    honest = [sys.executable, str(BOTS_DIR / "sleeper.py"), "--burn-ms", "20"]
    config = MatchConfig(
        "as-nas",
        {"deals": 5},
        seed=5,
        clock=ClockRules(move_time_ms=250, time_bank_ms=0),
        connect_timeout_s=60,
    )
    run = asyncio.run(run_match(config, [spinner, honest, honest, honest], tmp_path / "out"))
    assert "spinning: 100" in _log(run), _log(run)
    for seat in run.result.seats[1:]:
        assert (seat.outcome, seat.timeouts) == (Outcome.NORMAL, 0), run.result.seats


@pytest.mark.parametrize("crash", [False, True])
def test_without_a_sandbox_a_setsid_escaper_dies_with_the_bots_group(
    tmp_path: Path, crash: bool
) -> None:
    """``--sandbox none`` (no PID namespace): a grandchild in a session of its own escapes the
    process-group kill, but not the bot's control group, which is removed with everything in
    it when the bot is stopped, after a normal end or a crash alike."""
    setup = _cgroups.machine_setup()
    if not setup.hierarchies:
        pytest.skip(f"no usable cgroups here: {setup.problem}")
    marker = f"croupier-escaper-{os.getpid()}-{tmp_path.name}"
    bot = [*ATTACKER, "--escape", marker, *(["--crash"] if crash else [])]
    sandbox = SandboxOptions(mode=SandboxMode.NONE)
    try:
        run = asyncio.run(run_match(_config(), [bot, RANDOM, RANDOM, RANDOM], tmp_path / "out",
                                    sandbox=sandbox))  # fmt: skip
        assert "escaper started" in _log(run), _log(run)
        expected = Outcome.DISCONNECTED if crash else Outcome.NORMAL
        assert run.result.seats[0].outcome is expected
        assert live_processes(marker, wait_s=3) == []
        left = [p for h in setup.hierarchies for p in h.parent.glob(f"croupier-{os.getpid()}-*")]
        assert left == []
    finally:
        for pid in live_processes(marker):  # what an old arbiter left behind
            os.kill(pid, signal.SIGKILL)


def _shown_bot(home: Path) -> list[str]:
    """``tests/e2e/bots/shown.py`` copied into ``home``, a folder of its own (open to the
    bots' uids)."""
    home.mkdir(mode=0o755)
    shutil.copy(BOTS_DIR / "shown.py", home / "shown.py")
    return [sys.executable, str(home / "shown.py")]


@pytest.mark.parametrize("where", ["default", "no-bwrap"])
def test_two_seats_cannot_swap_hands_through_a_named_pipe_in_their_folder(
    tmp_path: Path, request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch, where: str
) -> None:
    """Two seats of one match, one program in a folder that holds a named pipe (as a folder
    copied with ``cp -a`` or unpacked from a tarball may): every sandbox binds the folder, and
    a read-only bind does not stop a pipe. The bot is refused at launch, in one line; with
    that check taken out, the two seats read each other's hands during the deal."""
    if where == "no-bwrap":
        if os.geteuid() != 0 or shutil.which("unshare") is None:
            pytest.skip("the sandbox without bubblewrap needs root and util-linux unshare")
        request.getfixturevalue("no_bwrap")
    home = tmp_path / "bot"
    bot = [*_shown_bot(home), "--pipe", str(home / "chan")]
    os.mkfifo(home / "chan", 0o666)
    os.chmod(home / "chan", 0o666)  # (the umask took some bits off)
    seats = [bot, RANDOM, bot, RANDOM]
    with pytest.raises(BotLaunchError) as caught:
        asyncio.run(run_match(_config(), seats, tmp_path / "refused"))
    assert str(caught.value) == (
        f"the bot: its directory {home} holds a named pipe (FIFO), {home / 'chan'}, through "
        "which sandboxes that show the directory (the bot's other lanes, another seat of its "
        "match) could pass each other data: remove it, or keep the bot in a folder of its own"
    )
    from croupier.transport import _bot_dirs

    monkeypatch.setattr(_bot_dirs, "_check_special_files", lambda top, what: None)
    run = asyncio.run(run_match(_config(), seats, tmp_path / "open"))  # the probe is sound
    assert "pipe: seat 2 holds [" in _log(run, 0), _log(run, 0)
    assert "pipe: seat 0 holds [" in _log(run, 2), _log(run, 2)


@pytest.mark.parametrize("where", ["default", "no-bwrap"])
@pytest.mark.parametrize("how", ["argument", "link"])
def test_a_bot_that_names_the_machines_proc_sees_its_own(
    tmp_path: Path,
    request: pytest.FixtureRequest,
    monkeypatch: pytest.MonkeyPatch,
    where: str,
    how: str,
) -> None:
    """A bot whose command line names ``/proc`` (or a link to it in the bot's folder): the
    sandbox bound every path of a bot's command line, this one over the sandbox's own
    ``/proc``, and the bot saw every process of the machine, the arbiter's command line (its
    seed) among them. Now such a path names the sandbox's own and is not bound; with that
    check taken out, the bot sees the arbiter."""
    if where == "no-bwrap":
        if os.geteuid() != 0 or shutil.which("unshare") is None:
            pytest.skip("the sandbox without bubblewrap needs root and util-linux unshare")
        request.getfixturevalue("no_bwrap")
    home = tmp_path / "bot"
    bot = _shown_bot(home)
    if how == "link":
        (home / "model").symlink_to("/proc")
    bot += ["--procs", "/proc" if how == "argument" else str(home / "model")]
    bot += ["--arbiter", str(os.getpid())]  # (this process runs the arbiter)
    run = asyncio.run(run_match(_config(), [bot, RANDOM, RANDOM, RANDOM], tmp_path / "own"))
    assert run.result.seats[0].outcome is Outcome.NORMAL, _log(run)
    assert "arbiter seen: no" in _log(run), _log(run)
    from croupier.transport import _bot_dirs, _sandbox

    monkeypatch.setattr(_bot_dirs, "_sandbox_has_its_own", lambda path, mounts: False)
    monkeypatch.setattr(_sandbox, "check_shown_dirs", lambda argv: None)
    run = asyncio.run(run_match(_config(), [bot, RANDOM, RANDOM, RANDOM], tmp_path / "host"))
    assert "arbiter seen: yes" in _log(run), _log(run)  # the probe is sound
