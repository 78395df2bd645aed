"""The protocol compliance check for a bot in any language (after dm_env_rpc's ``compliance``):
play a short match with the bot in one seat and random bots in the others, then judge what it
did. :func:`check_bot` returns a structured :class:`Report`; ``croupier check-bot`` prints it.
"""

from __future__ import annotations

import enum
import re
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from croupier.arbiter import MatchConfig, Outcome
from croupier.errors import ConfigError, ReplayError
from croupier.games import get_game
from croupier.replay import Replay, read_replay
from croupier.runner import run_match
from croupier.transport import (
    STDIO_PREFIX,
    Isolation,
    SandboxOptions,
    parse_bot_command,
    sandbox_inside,
)


class Status(enum.Enum):
    """How one check came out; ``SKIPPED`` when an earlier failure leaves nothing to judge."""

    PASSED = "ok"
    FAILED = "FAIL"
    SKIPPED = "skip"


@dataclass(frozen=True, slots=True)
class Check:
    """One requirement of the protocol and how the bot met it (``detail`` says why it failed)."""

    name: str
    status: Status
    detail: str = ""


@dataclass(frozen=True, slots=True)
class Report:
    """What the compliance match showed about the bot."""

    game: str
    seat: int
    bot_name: str
    decisions: int
    rounds: int
    checks: tuple[Check, ...]
    #: The last lines of the bot's log, for a failed check.
    log_tail: tuple[str, ...]
    #: The replay, when the caller asked to keep the match's files.
    replay: Path | None
    #: What each launched bot ran in, by seat.
    isolation: dict[int, Isolation]
    #: What the failures most likely mean and what to try, one line each (see :func:`explain`).
    hints: tuple[str, ...] = ()

    @property
    def passed(self) -> int:
        return sum(1 for c in self.checks if c.status is Status.PASSED)

    @property
    def failed(self) -> int:
        return sum(1 for c in self.checks if c.status is Status.FAILED)


def _check(name: str, ok: bool, why: str) -> Check:
    return Check(name, Status.PASSED if ok else Status.FAILED, "" if ok else why)


#: What a log says when the program could not load a module or a library (Python, Node, the
#: dynamic loader) or could not open a file (Python, Node, C's perror, the shells).
_MISSING_MODULE = re.compile(
    r"ModuleNotFoundError|ImportError|Cannot find module|error while loading shared libraries"
)
_NO_FILE = re.compile(
    r"No such file or directory|ENOENT|Permission denied|EACCES|Read-only file system|EROFS"
    r"|FileNotFoundError|PermissionError"
)
_STDIO_GUIDE = 'docs/protocol.md, "Bots without gRPC"'
#: The stdio bridge's log line naming the first line of the program that was not an action.
_NOT_AN_ACTION = re.compile(r"stdio bridge: line (\d+) is not an action: (.*)")
#: The faults of a reply that came but was refused (``Fault``'s values in the replay).
_REPLY_FAULTS = ("illegal_action", "stale_request", "unexpected_message")


@dataclass(frozen=True, slots=True)
class Seen:
    """What the compliance match showed of the bot, for :func:`explain`."""

    stdio: bool  # a ``stdio:`` program behind the bridge
    connected: bool
    exit_code: int | None  # None: still running when the match ended (it was stopped)
    decisions: int  # decisions it was asked
    replied: int  # decisions it sent something for (legal or not)
    first_rejection: str  # why its first rejected reply was rejected ('' if none was)
    log: str  # its whole log
    isolation: Isolation | None


def explain(seen: Seen) -> tuple[str, ...]:
    """The likely causes of what went wrong, each one line naming what to do: a program that
    died at start or never joined, one that could not read a file or load a module inside the
    sandbox, one that answered nothing, or one whose replies were not actions."""
    hints: list[str] = []
    sandboxed = seen.isolation is not None and seen.isolation is not Isolation.NONE
    where = sandbox_inside(seen.isolation) if seen.isolation is not None else ""
    if not seen.connected:
        if not seen.log.strip():
            hints.append(
                "it wrote nothing to stderr before it left: run its command by hand to see it start"
            )
        if seen.exit_code is None:
            hints.append(
                "it ran but never sent Hello: a bot dials the address in CROUPIER_ADDRESS "
                "(a unix: socket inside the sandbox) with the token in CROUPIER_TOKEN and sends "
                "Hello first (docs/protocol.md); an SDK does this for it"
            )
        elif seen.exit_code == 0:
            hints.append("it exited with status 0 without joining: is this command a bot?")
    if _MISSING_MODULE.search(seen.log):
        hints.append(
            "it could not load a module or library"
            + (
                f" (installed where the sandbox does not show it?): {where}"
                if sandboxed
                else ": install it where the command's interpreter finds it"
            )
        )
    elif _NO_FILE.search(seen.log) and sandboxed:
        hints.append(
            f"it could not open a file it needs: {where}; "
            "compare with --sandbox none, then keep what it reads beside its program"
        )
    if seen.connected and seen.decisions and not seen.replied:
        if seen.stdio:
            hints.append(
                f"it answered none of the {seen.decisions} decisions: a stdio program reads one "
                "JSON object per line on stdin and writes one line per decision to stdout (an "
                'action id, or {"request_id": "7", "action_id": 3}), flushed at once '
                f"({_STDIO_GUIDE})"
            )
        else:
            hints.append(
                f"it answered none of the {seen.decisions} decisions: each Decision is answered "
                "with an ActionReply carrying its request_id and one of its legal action ids "
                "(docs/protocol.md)"
            )
    if seen.first_rejection:
        line = f"its first rejected reply: {seen.first_rejection}"
        if seen.stdio and (bad := _NOT_AN_ACTION.search(seen.log)):
            line += (
                f"; its line {bad[1]} was {bad[2]}, which is neither an action id nor a JSON "
                f"object with request_id and action_id ({_STDIO_GUIDE})"
            )
        hints.append(line)
    return tuple(hints)


async def check_bot(
    command: str,
    config: MatchConfig,
    *,
    seat: int = 0,
    others: Sequence[str] = ("random",),
    out: Path | None = None,
    sandbox: SandboxOptions | None = None,
) -> Report:
    """Play ``config`` with the bot ``command`` in ``seat`` and the bundled bots ``others`` (in
    turn) elsewhere; keep the match's files in ``out`` if given. :class:`ConfigError` for a
    seat the game does not have or a command that cannot run. The bots run in ``sandbox``
    (default: bubblewrap where it can run)."""
    seats = get_game(config.game).info.make_params(config.params)["players"]
    if not 0 <= seat < seats:
        raise ConfigError(f"--seat {seat}: {config.game} has seats 0..{seats - 1}")
    bots = [parse_bot_command(others[i % len(others)]) for i in range(seats)]
    bots[seat] = parse_bot_command(command)
    with tempfile.TemporaryDirectory() as tmp:
        run = await run_match(config, bots, out or Path(tmp), sandbox=sandbox)
        mine = run.result.seats[seat]
        exit_ = next((e for e in run.exits if e.seat == seat), None)
        try:  # reading re-simulates: a replay that does not verify is a failed check, not a stop
            replay: Replay | None = read_replay(run.replay)
            verified = ""
        except ReplayError as exc:
            replay, verified = None, str(exc)
        records = replay.records if replay is not None else []
        asked = [r.data for r in records if r.type == "action" and r.data["seat"] == seat]
        decisions = len(asked)
        rounds = sum(1 for r in records if r.type == "round_end")
        log = run.logs[seat].read_text(errors="replace")
        log_tail = log.strip().splitlines()[-3:]
    if replay is not None:
        connected = bool(replay.header["seats"][seat]["connected"])
    else:
        connected = bool(mine.bot_name)
    if exit_ is not None and exit_.signalled:
        exit_why = "still running after MatchEnd"
    else:
        exit_why = f"exit status {exit_.code if exit_ else '?'}"
    rejected = [d for d in asked if d["fault"] in _REPLY_FAULTS]
    replied = sum(1 for d in asked if d["fault"] is None) + len(rejected)
    if exit_ is None or exit_.signalled:
        never = "it never joined (it was still running when the match ended)"
    else:
        never = f"it exited with status {exit_.code} before it joined"
    checks = [
        _check("connects and is admitted (Hello -> Welcome)", connected, never),
        _check(
            "answers every decision in time",
            connected and mine.timeouts == 0,
            f"{mine.timeouts} timeouts",
        ),
        _check(
            "answers only legal action ids for the pending request_id",
            connected and mine.rejected == 0,
            f"{mine.rejected} replies rejected",
        ),
        _check(
            "stays connected until MatchEnd",
            mine.outcome is not Outcome.DISCONNECTED,
            "disconnected or crashed mid-match",
        ),
        _check(
            "exits by itself with status 0 after MatchEnd",
            exit_ is not None and exit_.code == 0 and not exit_.signalled,
            exit_why,
        ),
        _check("the replay verifies", not verified, verified),
    ]
    if not connected:  # nothing but the first and the last can be judged
        checks = [checks[0], *(Check(c.name, Status.SKIPPED) for c in checks[1:-1]), checks[-1]]
    elif decisions and not replied:  # no reply: nothing to judge the replies by
        checks[2] = Check(checks[2].name, Status.SKIPPED)
    seen = Seen(
        stdio=command.startswith(STDIO_PREFIX),
        connected=connected,
        exit_code=None if exit_ is None or exit_.signalled else exit_.code,
        decisions=decisions,
        replied=replied,
        first_rejection=str(rejected[0].get("detail", "")) if rejected else "",
        log=log,
        isolation=run.isolation.get(seat),
    )
    return Report(
        game=config.game,
        seat=seat,
        bot_name=mine.bot_name or "(unnamed)",
        decisions=decisions,
        rounds=rounds,
        checks=tuple(checks),
        log_tail=tuple(log_tail),
        replay=run.replay if out is not None else None,
        isolation=dict(run.isolation),
        hints=explain(seen),
    )
