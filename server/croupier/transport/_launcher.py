"""Launching bot processes: each dials the arbiter with the address and token it finds in its
environment, in a sandbox of its own (:mod:`._sandbox`); its stdout and stderr go to a
size-capped log file next to the replay. :func:`spawn` is the one place a bot process starts."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import os
import shlex
import shutil
import signal
import socket
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

import structlog

from croupier.arbiter import SeatLink
from croupier.errors import BotLaunchError, ConfigError
from croupier.games import bundled_bots
from croupier.transport import _cgroups
from croupier.transport._bot_dirs import wire_contract
from croupier.transport._gate import BotGate
from croupier.transport._pipe import ENV_SESSION_FD
from croupier.transport._sandbox import (
    Isolation,
    SandboxOptions,
    choose_async,
    plan,
)
from croupier.transport._stdio import PREFIX as STDIO_PREFIX
from croupier.transport._stdio import bridge_argv

#: Environment variables a launched bot receives.
ENV_ADDRESS = "CROUPIER_ADDRESS"
ENV_TOKEN = "CROUPIER_TOKEN"
ENV_SEAT = "CROUPIER_SEAT"
ENV_SEED = "CROUPIER_SEED"
ENV_MATCH_ID = "CROUPIER_MATCH_ID"
#: The folder of the wire contract's ``.proto`` files, for bots that load them at run time.
ENV_PROTO_DIR = "CROUPIER_PROTO_DIR"
#: Set instead of the seat variables for a bot launched to serve a session (many matches).
ENV_SESSION_TOKEN = "CROUPIER_SESSION_TOKEN"
#: How many matches at a time the organiser would like a session bot to play (it may say fewer).
ENV_SESSION_CAPACITY = "CROUPIER_SESSION_CAPACITY"
#: How long a session bot dials again after its Session stream breaks: 0 for a launched bot, so
#: that it does not outlive the arbiter that started it (the SDKs' default, for a bot that
#: connects by itself, is minutes).
ENV_SESSION_RECONNECT = "CROUPIER_SESSION_RECONNECT_S"

#: How often the launcher looks whether a bot process has exited.
EXIT_POLL_S = 0.05

#: Default cap of one bot's log file.
LOG_CAP_BYTES = 1 << 20

#: Bundled bots, by the short name ``croupier match --bot`` accepts: the random bot, which plays
#: every game, and each game's own (declared in its spec).
BUNDLED = {"random": "croupier_bots.random_bot", **bundled_bots()}


def parse_bot_command(command: str) -> list[str]:
    """The argv of a bot command line, bundled bot name or ``stdio:CMD`` (CMD behind the stdio
    bridge); :class:`ConfigError` if it can't run."""
    if command.startswith(STDIO_PREFIX):
        program = command[len(STDIO_PREFIX) :]
        if program.strip() in BUNDLED:
            raise ConfigError(f"bot command {command!r}: {program.strip()} is a gRPC bot")
        return bridge_argv(parse_bot_command(program))
    if command in BUNDLED:
        return [sys.executable, "-m", BUNDLED[command]]
    try:
        argv = shlex.split(command)
    except ValueError as exc:
        raise ConfigError(f"cannot parse bot command {command!r}: {exc}") from None
    if not argv:
        raise ConfigError("empty bot command")
    program = argv[0]
    if os.sep in program:
        if not (os.path.isfile(program) and os.access(program, os.X_OK)):
            raise ConfigError(f"bot command {command!r}: {program} is not an executable file")
    elif shutil.which(program) is None:
        raise ConfigError(f"bot command {command!r}: {program} not found on PATH")
    return argv


@dataclass(frozen=True, slots=True)
class BotExit:
    """How a bot process ended: its exit status, and whether the arbiter had to signal it."""

    seat: int
    code: int | None
    signalled: bool


@dataclass
class SpawnedProcess:
    """A process started by :func:`spawn`: the process (``bwrap`` when sandboxed), what it runs
    in, and the task copying its output to its log."""

    argv: list[str]
    process: asyncio.subprocess.Process
    log_path: Path
    isolation: Isolation
    copier: asyncio.Task[None]
    #: The write end of the process's lifeline (see :mod:`._confine`): closing it, or the
    #: arbiter's death, makes the bot's supervisor kill the bot's whole process tree.
    lifeline: int = -1
    #: The bot's control group (``None``: the machine offers none); removed, with whatever is
    #: still in it, when the process is stopped.
    group: _cgroups.BotGroup | None = None
    #: The bot's own door to the arbiter's unix socket (:mod:`._gate`), closed when it ends.
    gate: BotGate | None = None

    @property
    def pid(self) -> int:
        return self.process.pid

    async def exited(self) -> int:
        """The exit status, as soon as the process has exited."""
        return await _exited(self.process)

    async def stop(self, grace_s: float = 3.0) -> tuple[int | None, bool]:
        """Let the process exit by itself within ``grace_s``, then SIGTERM, then SIGKILL its
        whole process group; return its exit status and whether it had to be signalled.

        Nothing outlives this: in a sandbox the namespace's init dies with the outer process
        (``bwrap`` or ``unshare``) and takes the whole PID namespace along (a ``setsid`` child
        included); without one the process group is killed. Then the lifeline is cut, which
        makes the bot's supervisor kill whatever is left of it; last, the bot's control group
        is removed with every process still in it (a ``setsid`` child without a sandbox).
        """
        proc = self.process
        signalled = False
        for sig in (None, signal.SIGTERM, signal.SIGKILL):
            if sig is not None:
                signalled = True
                _signal_group(proc.pid, sig)
            try:
                async with asyncio.timeout(grace_s):
                    await _exited(proc)
                break
            except TimeoutError:
                continue
        _signal_group(proc.pid, signal.SIGKILL)  # children that outlived the bot
        self.cut_lifeline()
        await self.close_gate()
        await self.remove_group()  # (also what still holds the bot's output open)
        try:
            async with asyncio.timeout(grace_s):
                await self.copier  # ends when the last holder of the bot's stdout is gone
        except TimeoutError:
            self.copier.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self.copier
        return proc.returncode, signalled

    async def remove_group(self) -> None:
        """Kill whatever is still in the bot's control group, and remove the group."""
        group, self.group = self.group, None
        if group is not None and not await group.remove():
            structlog.get_logger("croupier.launcher").warning(
                "bot_group_left", group=str(group.dirs[0]), pid=self.process.pid
            )

    async def close_gate(self) -> None:
        gate, self.gate = self.gate, None
        if gate is not None:
            await gate.close()

    def cut_lifeline(self) -> None:
        """Close the lifeline: whatever of the bot still runs is killed by its supervisor."""
        if self.lifeline >= 0:
            with contextlib.suppress(OSError):
                os.close(self.lifeline)
            self.lifeline = -1


async def spawn(
    argv: list[str],
    env: dict[str, str],
    log_path: Path,
    sandbox: SandboxOptions,
    *,
    log_cap_bytes: int = LOG_CAP_BYTES,
    seats: int = 1,
    keep_fds: tuple[int, ...] = (),
) -> SpawnedProcess:
    """Start ``argv`` as a launched bot: in its sandbox (see :mod:`._sandbox`) and control group
    (:mod:`._cgroups`, where the machine has them: its CPU quota is ``sandbox.limits.cpus`` for
    each of the ``seats`` it plays at once), with ``env`` (the protocol's variables;
    ``CROUPIER_ADDRESS`` becomes the sandbox's unix socket when ``sandbox.socket`` is set) on
    top of an allow-listed environment, stdin from /dev/null, stdout and stderr into
    ``log_path`` (created mode 0600, capped at ``log_cap_bytes``).

    The one place Croupier starts a bot process. :class:`BotLaunchError` if it cannot start (or
    ``sandbox.mode`` demands a sandbox that cannot run here, or the bot's directory holds one of
    ``sandbox.forbidden``). ``keep_fds``: inheritable descriptors the bot keeps (its session
    pipe's end).
    """
    program = argv[0] if os.sep in argv[0] else shutil.which(argv[0])
    if program is None or not (os.path.isfile(program) and os.access(program, os.X_OK)):
        reason = "not found on PATH" if os.sep not in argv[0] else "not an executable file"
        raise BotLaunchError(f"cannot start bot {shlex.join(argv)}: {argv[0]} is {reason}")
    choice = await choose_async(sandbox.mode)
    setup = await asyncio.to_thread(_cgroups.machine_setup)
    try:
        log = _open_log(log_path)
    except OSError as exc:
        raise BotLaunchError(f"cannot write bot log {log_path}: {exc.strerror or exc}") from exc
    gate: BotGate | None = None
    if sandbox.socket is not None and choice.isolation is not Isolation.NONE:
        gate = BotGate(sandbox.socket)  # (the bot dials it where the arbiter's socket was)
        try:
            await gate.open()
        except OSError as exc:
            log.close()
            raise BotLaunchError(f"cannot open the bot's socket: {exc.strerror or exc}") from exc
        sandbox = dataclasses.replace(sandbox, socket=gate.path)
    group: _cgroups.BotGroup | None = None
    groups: list[int] = []
    # the lifeline: the bot's supervisor reads the one end, only this process holds the other
    # (both are close-on-exec here; the child inherits the read end alone)
    try:
        read, write = os.pipe()
    except OSError as exc:  # out of descriptors: this seat's launch fails, not the whole run
        log.close()
        if gate is not None:
            await gate.close()
        raise BotLaunchError(f"cannot start bot {shlex.join(argv)}: {exc.strerror or exc}") from exc
    try:
        if setup.hierarchies:
            try:
                group = _cgroups.create(setup, sandbox.limits.group(seats))
                groups = group.open_procs()
            except OSError as exc:
                why = exc.strerror or str(exc)
                raise BotLaunchError(f"cannot make the bot's control group: {why}") from exc
        run = plan(argv, env, sandbox, choice.isolation, read, groups)
        proc = await asyncio.create_subprocess_exec(
            *run.argv,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT,
            env=run.env,
            start_new_session=True,  # Ctrl-C reaches the arbiter, which stops the bots itself
            pass_fds=(read, *groups, *keep_fds),
        )
    except BaseException as exc:
        log.close()
        os.close(write)
        if group is not None:
            group.remove_now()
        if gate is not None:
            await gate.close()
        if isinstance(exc, OSError):
            why = exc.strerror or str(exc)
            raise BotLaunchError(f"cannot start bot {shlex.join(argv)}: {why}") from exc
        raise
    finally:
        os.close(read)
        for fd in groups:
            os.close(fd)
    assert proc.stdout is not None
    copier = asyncio.create_task(_copy_output(proc.stdout, log, log_cap_bytes))
    if gate is not None:
        gate.owner = proc.pid  # (from now on only its tree may connect)
    return SpawnedProcess(argv, proc, log_path, run.isolation, copier, write, group, gate)


def _open_log(path: Path) -> BinaryIO:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, 0o600)
    os.fchmod(fd, 0o600)  # an old log of another mode is reused
    return os.fdopen(fd, "wb")


@dataclass
class BotProcess:
    """A launched bot of one seat: its process and the task watching for its exit."""

    seat: int
    spawned: SpawnedProcess
    watcher: asyncio.Task[None]

    @property
    def argv(self) -> list[str]:
        return self.spawned.argv

    @property
    def process(self) -> asyncio.subprocess.Process:
        return self.spawned.process

    @property
    def log_path(self) -> Path:
        return self.spawned.log_path

    @property
    def isolation(self) -> Isolation:
        return self.spawned.isolation

    async def stop(self, grace_s: float = 3.0) -> BotExit:
        """Stop the bot (see :meth:`SpawnedProcess.stop`); no process of it outlives this."""
        code, signalled = await self.spawned.stop(grace_s)
        with contextlib.suppress(asyncio.CancelledError):
            await self.watcher
        return BotExit(self.seat, code, signalled)


def _signal_group(pgid: int, sig: signal.Signals) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, sig)


async def launch_bot(
    argv: list[str],
    *,
    link: SeatLink | None,
    address: str,
    seed: int,
    match_id: str,
    log_path: Path,
    log_cap_bytes: int = LOG_CAP_BYTES,
    session: tuple[str, int] | None = None,
    sandbox: SandboxOptions | None = None,
    pipe: socket.socket | None = None,
) -> BotProcess:
    """Start a bot for ``link``'s seat, in ``sandbox`` (default: the best sandbox this machine
    offers, reaching the arbiter by TCP since no socket is given). When the process ends, the
    seat is told it left.

    With ``session`` (a session token and the capacity asked for) and no ``link``, the bot is
    started to serve a session of many matches instead; its watcher then only waits for it to end.
    ``pipe``: the bot's end of its session pipe (:mod:`._pipe`), inherited as
    ``CROUPIER_SESSION_FD``.
    """
    env = {ENV_ADDRESS: address, ENV_SEED: str(seed), "PYTHONUNBUFFERED": "1"}
    # where the .proto files are (a bot that loads them at run time, as Node's do), unless the
    # arbiter was told another place; the sandbox binds this one
    wire = os.environ.get(ENV_PROTO_DIR) or wire_contract()
    if wire:
        env[ENV_PROTO_DIR] = str(wire)
    if link is not None:
        env.update({ENV_TOKEN: link.token, ENV_SEAT: str(link.seat), ENV_MATCH_ID: match_id})
    if session is not None:
        # CROUPIER_TOKEN too: a bot that knows only the per-match protocol says Hello with it on
        # Play, and the arbiter tells it (and whoever launched it) to use a session instead
        env.update({ENV_SESSION_TOKEN: session[0], ENV_SESSION_CAPACITY: str(session[1])})
        env[ENV_SESSION_RECONNECT] = "0"
        env[ENV_TOKEN] = session[0]
    if pipe is not None:
        env[ENV_SESSION_FD] = str(pipe.fileno())
    spawned = await spawn(
        argv,
        env,
        log_path,
        sandbox or SandboxOptions(),
        log_cap_bytes=log_cap_bytes,
        seats=1 if session is None else max(1, session[1]),
        keep_fds=() if pipe is None else (pipe.fileno(),),
    )
    pid = spawned.pid
    if link is not None:
        link.cpu_meter = lambda: tree_cpu_seconds(pid)
        link.launched = True
    watcher = asyncio.create_task(_watch(spawned, link))
    return BotProcess(-1 if link is None else link.seat, spawned, watcher)


_CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def tree_cpu_seconds(pid: int) -> float:
    """CPU seconds (user + system) used by process ``pid`` and all its descendants, live or
    reaped, from /proc (resolution: the kernel's clock tick, usually 10 ms). A sandboxed bot's
    ``pid`` is its outer ``bwrap``, so this counts the whole sandbox."""
    ticks = 0
    todo = [pid]
    seen: set[int] = set()
    while todo:
        current = todo.pop()
        if current in seen:
            continue
        seen.add(current)
        try:
            fields = Path(f"/proc/{current}/stat").read_text().rsplit(")", 1)[1].split()
            # after the name: state=0 ... utime=11 stime=12 cutime=13 cstime=14
            ticks += sum(int(fields[i]) for i in (11, 12, 13, 14))
            for task in Path(f"/proc/{current}/task").iterdir():
                children = (task / "children").read_text().split()
                todo.extend(int(c) for c in children)
        except (OSError, ValueError, IndexError):
            continue  # it just exited
    return ticks / _CLOCK_TICKS


async def _exited(proc: asyncio.subprocess.Process) -> int:
    """The exit status, as soon as the process has exited. (On Python 3.11 ``proc.wait()`` also
    waits for its output pipe to close, which a child of the bot may hold open.)"""
    while proc.returncode is None:
        await asyncio.sleep(EXIT_POLL_S)
    return proc.returncode


async def _watch(spawned: SpawnedProcess, link: SeatLink | None) -> None:
    """Tell the seat as soon as the bot process ends before the match does; then end whatever
    the bot left in its control group (a crashed bot's children, outside a sandbox)."""
    proc = spawned.process
    code = await _exited(proc)
    if link is not None and not link.over:
        link.process_exited(code)
        link.leave(f"the bot process exited with code {code}")
        structlog.get_logger("croupier.launcher").warning(
            "bot_exited_early", seat=link.seat, pid=proc.pid, code=code
        )
    await spawned.close_gate()
    await spawned.remove_group()


async def _copy_output(stream: asyncio.StreamReader, out: BinaryIO, cap: int) -> None:
    """Copy output to the log up to ``cap`` bytes, then read and drop the rest (never block)."""
    written = 0
    with contextlib.suppress(OSError), out:
        while chunk := await stream.read(65536):
            if written < cap:
                piece = chunk[: cap - written]
                try:
                    out.write(piece)
                    written += len(piece)
                    if written >= cap:
                        out.write(f"\n[croupier: log truncated at {cap} bytes]\n".encode())
                    out.flush()
                except OSError:  # disk full: the log ends here, the bot is never blocked
                    written = cap
