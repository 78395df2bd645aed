"""The protocol compliance check for a bot in any language (after dm_env_rpc's ``compliance``):
play a short match with the bot in one seat and random bots in the others, then judge what it
did. :func:`check_bot` returns a structured :class:`Report`; ``croupier check-bot`` prints it.
"""

from __future__ import annotations

import enum
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from croupier.arbiter import MatchConfig, Outcome
from croupier.errors import ConfigError, ReplayError
from croupier.games import get_game
from croupier.replay import Replay, read_replay
from croupier.runner import run_match
from croupier.transport import Isolation, SandboxOptions, parse_bot_command


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

    @property
    def passed(self) -> int:
        return sum(1 for c in self.checks if c.status is Status.PASSED)

    @property
    def failed(self) -> int:
        return sum(1 for c in self.checks if c.status is Status.FAILED)


def _check(name: str, ok: bool, why: str) -> Check:
    return Check(name, Status.PASSED if ok else Status.FAILED, "" if ok else why)


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
        decisions = sum(1 for r in records if r.type == "action" and r.data["seat"] == seat)
        rounds = sum(1 for r in records if r.type == "round_end")
        log_tail = run.logs[seat].read_text(errors="replace").strip().splitlines()[-3:]
    if replay is not None:
        connected = bool(replay.header["seats"][seat]["connected"])
    else:
        connected = bool(mine.bot_name)
    if exit_ is not None and exit_.signalled:
        exit_why = "still running after MatchEnd"
    else:
        exit_why = f"exit status {exit_.code if exit_ else '?'}"
    checks = [
        _check(
            "connects and is admitted (Hello -> Welcome)",
            connected,
            "it never joined: check CROUPIER_ADDRESS/CROUPIER_TOKEN and the Hello message",
        ),
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
    )
