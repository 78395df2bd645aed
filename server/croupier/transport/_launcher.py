"""Launching bot processes: each dials the arbiter with the address and token it finds in its
environment; its stdout and stderr go to a size-capped log file next to the replay."""

from __future__ import annotations

import asyncio
import contextlib
import os
import shlex
import shutil
import signal
import sys
from dataclasses import dataclass
from pathlib import Path

import structlog

from croupier.arbiter import SeatLink
from croupier.errors import BotLaunchError, ConfigError
from croupier.games import bundled_bots
from croupier.transport._stdio import PREFIX as STDIO_PREFIX
from croupier.transport._stdio import bridge_argv

#: Environment variables a launched bot receives.
ENV_ADDRESS = "CROUPIER_ADDRESS"
ENV_TOKEN = "CROUPIER_TOKEN"
ENV_SEAT = "CROUPIER_SEAT"
ENV_SEED = "CROUPIER_SEED"
ENV_MATCH_ID = "CROUPIER_MATCH_ID"
#: Set instead of the seat variables for a bot launched to serve a session (many matches).
ENV_SESSION_TOKEN = "CROUPIER_SESSION_TOKEN"
#: How many matches at a time the organiser would like a session bot to play (it may say fewer).
ENV_SESSION_CAPACITY = "CROUPIER_SESSION_CAPACITY"

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
class BotProcess:
    """A running bot, the task watching for its exit and the task copying its output."""

    seat: int
    argv: list[str]
    process: asyncio.subprocess.Process
    log_path: Path
    watcher: asyncio.Task[None]
    copier: asyncio.Task[None]

    async def stop(self, grace_s: float = 3.0) -> BotExit:
        """Let the bot exit by itself within ``grace_s``, then SIGTERM, then SIGKILL its whole
        process group (the bot runs in a session of its own, with any children it started);
        then end whatever it left behind, so no process outlives the match."""
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
        try:
            async with asyncio.timeout(grace_s):
                await self.copier  # ends when the last holder of the bot's stdout is gone
        except TimeoutError:
            self.copier.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self.watcher
        return BotExit(self.seat, proc.returncode, signalled)


#: Execs the bot (argv[3:]) after asking the kernel to SIGKILL it when the launcher (argv[2])
#: dies (``prctl(PR_SET_PDEATHSIG)``, which lasts across ``exec``); an ``exec`` that fails is
#: reported as its errno on the pipe argv[1], which a successful ``exec`` closes unwritten.
_ARM_AND_EXEC = """
import ctypes, os, sys
fd, parent, argv = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3:]
ctypes.CDLL(None, use_errno=True).prctl(1, 9, 0, 0, 0)
if os.getppid() != parent:
    os._exit(1)
os.set_inheritable(fd, False)
try:
    os.execvp(argv[0], argv)
except OSError as exc:
    os.write(fd, str(exc.errno or 0).encode())
    os._exit(127)
"""


def _die_with_parent(argv: list[str], report_fd: int) -> list[str]:
    """The argv that starts ``argv`` so that the kernel SIGKILLs the bot when the process
    launching it dies, however it dies (a SIGKILLed arbiter cannot stop its bots itself).

    A short ``python -I -S`` step arms the signal and execs the bot in the same process: no
    fork of this multi-threaded process runs Python code in the child (``preexec_fn``, which
    may deadlock there and wakes gRPC's fork handlers). The signal is sent when the launching
    thread ends, which is the event loop's thread. Linux only; elsewhere ``argv`` as it is."""
    if not sys.platform.startswith("linux"):
        return argv
    return [
        sys.executable,
        "-I",
        "-S",
        "-c",
        _ARM_AND_EXEC,
        str(report_fd),
        str(os.getpid()),
        *argv,
    ]


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
) -> BotProcess:
    """Start a bot for ``link``'s seat. When the process ends, the seat is told it left.

    With ``session`` (a session token and the capacity asked for) and no ``link``, the bot is
    started to serve a session of many matches instead; its watcher then only waits for it to end.
    """
    env = dict(os.environ)
    env.update({ENV_ADDRESS: address, ENV_SEED: str(seed), "PYTHONUNBUFFERED": "1"})
    if link is not None:
        env.update({ENV_TOKEN: link.token, ENV_SEAT: str(link.seat), ENV_MATCH_ID: match_id})
    if session is not None:
        # CROUPIER_TOKEN too: a bot that knows only the per-match protocol says Hello with it on
        # Play, and the arbiter tells it (and whoever launched it) to use a session instead
        env.update({ENV_SESSION_TOKEN: session[0], ENV_SESSION_CAPACITY: str(session[1])})
        env[ENV_TOKEN] = session[0]
    report, report_w = os.pipe()
    try:
        try:
            proc = await asyncio.create_subprocess_exec(
                *_die_with_parent(argv, report_w),
                stdin=asyncio.subprocess.DEVNULL,
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.STDOUT,
                env=env,
                start_new_session=True,  # Ctrl-C reaches the arbiter, which stops the bots itself
                pass_fds=(report_w,),  # a SIGKILL does not: the kernel does (_die_with_parent)
            )
        finally:
            os.close(report_w)
        failed = await asyncio.to_thread(os.read, report, 32)  # b"": the bot was exec'd
    except OSError as exc:
        raise BotLaunchError(f"cannot start bot {shlex.join(argv)}: {exc.strerror or exc}") from exc
    finally:
        os.close(report)
    if failed:  # the wrapper exits at once: collect it and its (empty) output
        await proc.communicate()
        errno = int(failed)
        raise BotLaunchError(f"cannot start bot {shlex.join(argv)}: {os.strerror(errno)}")
    assert proc.stdout is not None
    copier = asyncio.create_task(_copy_output(proc.stdout, log_path, log_cap_bytes))
    watcher = asyncio.create_task(_watch(proc, link))
    return BotProcess(-1 if link is None else link.seat, argv, proc, log_path, watcher, copier)


async def _exited(proc: asyncio.subprocess.Process) -> int:
    """The exit status, as soon as the process has exited. (On Python 3.11 ``proc.wait()`` also
    waits for its output pipe to close, which a child of the bot may hold open.)"""
    while proc.returncode is None:
        await asyncio.sleep(EXIT_POLL_S)
    return proc.returncode


async def _watch(proc: asyncio.subprocess.Process, link: SeatLink | None) -> None:
    """Tell the seat as soon as the bot process ends before the match does."""
    code = await _exited(proc)
    if link is not None and not link.over:
        link.leave(f"the bot process exited with code {code}")
        structlog.get_logger("croupier.launcher").warning(
            "bot_exited_early", seat=link.seat, pid=proc.pid, code=code
        )


async def _copy_output(stream: asyncio.StreamReader, log_path: Path, cap: int) -> None:
    """Copy output to the log up to ``cap`` bytes, then read and drop the rest (never block)."""
    written = 0
    with log_path.open("wb") as out:
        while chunk := await stream.read(65536):
            if written < cap:
                piece = chunk[: cap - written]
                out.write(piece)
                written += len(piece)
                if written >= cap:
                    out.write(f"\n[croupier: log truncated at {cap} bytes]\n".encode())
                out.flush()
