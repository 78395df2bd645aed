"""The replay writer: one JSON-lines file per match, flushed after every record.

A killed arbiter leaves a readable prefix: every complete line is a complete record (see
``docs/replay-format.md``).
"""

from __future__ import annotations

import contextlib
import datetime as dt
import json
import os
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import IO, Any

from croupier import PROTOCOL_VERSION, __version__
from croupier.arbiter import DecisionTiming, Fault, Match, MatchResult, Policy, SeatInfo
from croupier.errors import ConfigError, ReplayWriteError
from croupier.games import get_spec

FORMAT = "croupier-replay"
FORMAT_VERSION = 3
#: The format versions the reader reads (1: no structured round results; 2: no fault policy).
READABLE_VERSIONS = (1, 2, 3)


def score_text(value: Fraction) -> str:
    """An exact score as text: ``"3"``, ``"-7/2"``."""
    return str(value)


def _now() -> str:
    return dt.datetime.now(dt.UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


#: Told every record right after it is written (a live spectator feed): a cheap callback that
#: does no I/O, called in the writer's thread; it must not keep a reference to mutate the record.
RecordListener = Callable[[dict[str, Any]], None]


class ReplayWriter:
    """Writes one match's replay; implements :class:`croupier.arbiter.Recorder`.

    The file is created mode 0600: it holds the seed and every hand while the match runs.
    ``listener`` (optional) is handed each record once its line is written and flushed."""

    def __init__(self, path: Path, listener: RecordListener | None = None) -> None:
        self.path = path
        self._listener = listener
        self._round_record: Any = None  # the game's GameSpec.round_record, known at the header
        try:
            path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o600)
            self._file: IO[str] | None = os.fdopen(fd, "w", encoding="utf-8")
        except OSError as exc:
            raise ConfigError(f"cannot write replay {path}: {exc.strerror or exc}") from exc
        self._written = False

    def _write(self, record: dict[str, Any]) -> None:
        if self._file is None:
            return
        line = json.dumps(record, separators=(",", ":"), ensure_ascii=False) + "\n"
        try:
            self._file.write(line)
            self._file.flush()
            self._written = True
        except OSError as exc:  # disk full: keep what was written, stop the match in one line
            self._abandon()
            reason = exc.strerror or str(exc)
            raise ReplayWriteError(f"cannot write replay {self.path}: {reason}") from None
        if self._listener is not None:
            self._listener(record)

    def _abandon(self) -> None:
        """Close after a failed write, keeping whatever complete lines reached the disk."""
        file, self._file = self._file, None
        if file is not None:
            with contextlib.suppress(OSError):
                file.close()

    # -- Recorder -------------------------------------------------------------------------------

    def header(self, match: Match, seats: tuple[SeatInfo, ...]) -> None:
        info = match.game.info
        self._round_record = get_spec(info.name).round_record
        clock = match.config.clock
        self._write(
            {
                "type": "header",
                "format": FORMAT,
                "format_version": FORMAT_VERSION,
                "match_id": match.match_id,
                "game": info.name,
                "rules_version": info.version,
                "params": dict(match.params),
                "seed": match.config.seed,
                "chance_script": len(match.config.chance_script),
                "commitment": match.commitment,
                "protocol_version": PROTOCOL_VERSION,
                "croupier_version": __version__,
                "clock": {
                    "move_time_ms": clock.move_time_ms,
                    "time_bank_ms": clock.time_bank_ms,
                    "kind": clock.kind.value,
                    "margin_ms": clock.margin_ms,
                    "seat_cap_ms": clock.seat_cap_ms,
                    "match_cap_ms": clock.match_cap_ms,
                    "cpu_wall_guard_ms": clock.cpu_wall_guard_ms,
                },
                "fault_policy": match.config.fault_policy.as_dict(),
                "reconnect_grace_ms": round(match.config.reconnect_grace_s * 1000),
                "event_flush_ms": match.config.event_flush_ms,
                "seats": [
                    {
                        "seat": s.seat,
                        "bot_name": s.bot_name,
                        "bot_version": s.bot_version,
                        "connected": s.connected,
                        "peer": s.peer,
                        # only where the host names its bots (croupier serve): the name it
                        # knows the bot by; bot_name stays what the bot said of itself
                        **({"registered_name": s.registered_name} if s.registered_name else {}),
                    }
                    for s in seats
                ],
                "started_at": _now(),
            }
        )

    def chance(self, step: int, outcome: tuple[int, ...], label: str) -> None:
        self._write({"type": "chance", "step": step, "outcome": list(outcome), "label": label})

    def action(
        self,
        step: int,
        seat: int,
        action: int,
        label: str,
        time_us: int,
        fault: Fault | None,
        detail: str,
        timing: DecisionTiming | None = None,
        policy: Policy | None = None,
        conceded: bool = False,
    ) -> None:
        record: dict[str, Any] = {
            "type": "action",
            "step": step,
            "seat": seat,
            "action": action,
            "label": label,
            "time_us": time_us,
            "fault": None if fault is None else fault.value,
        }
        if timing is not None:
            record["wall_us"] = timing.wall_us
            record["lag_us"] = timing.lag_us
            if timing.cpu_us is not None:
                record["cpu_us"] = timing.cpu_us
        if fault is not None:
            record["detail"] = detail
        if policy is not None:
            record["policy"] = policy.value
        if conceded:
            record["conceded"] = True
        self._write(record)

    def fault(
        self, step: int, seat: int, fault: Fault, detail: str, policy: Policy | None = None
    ) -> None:
        record: dict[str, Any] = {
            "type": "fault", "step": step, "seat": seat, "fault": fault.value, "detail": detail
        }  # fmt: skip
        if policy is not None:
            record["policy"] = policy.value
        self._write(record)

    def forfeit(
        self,
        step: int,
        seat: int,
        fault: Fault | None,
        detail: str,
        policy: Policy | None,
        time_us: int,
    ) -> None:
        record: dict[str, Any] = {
            "type": "forfeit",
            "step": step,
            "seat": seat,
            "fault": None if fault is None else fault.value,
            "time_us": time_us,
        }
        if fault is not None:
            record["detail"] = detail
        if policy is not None:
            record["policy"] = policy.value
        self._write(record)

    def dropped(self, step: int, seat: int, reason: str) -> None:
        self._write({"type": "dropped", "step": step, "seat": seat, "reason": reason})

    def rejoined(self, step: int, seat: int, gap_us: int, peer: str) -> None:
        self._write(
            {"type": "rejoined", "step": step, "seat": seat, "gap_us": gap_us, "peer": peer}
        )

    def round_end(
        self, step: int, round_index: int, deltas: tuple[Fraction, ...], public: Any
    ) -> None:
        self._write(
            {
                "type": "round_end",
                "step": step,
                "round": round_index,
                "deltas": [score_text(d) for d in deltas],
                "result": self._round_record(public),
            }
        )

    def result(self, result: MatchResult, step: int) -> None:
        self._write(
            {
                "type": "result",
                "step": step,
                "cancelled": result.cancelled,
                "cancel_reason": result.cancel_reason,
                "salt": result.salt,
                "chance_script_sha256": result.script_digest,
                "seats": [
                    {
                        "seat": r.seat,
                        "bot_name": r.bot_name,
                        "score": score_text(r.score),
                        "place": r.place,
                        "outcome": r.outcome.value,
                        "timeouts": r.timeouts,
                        "rejected": r.rejected,
                        "forfeits": r.forfeits,
                    }
                    for r in result.seats
                ],
                "ended_at": _now(),
            }
        )
        self.close()

    def close(self) -> None:
        """Flush to disk and close (idempotent); :class:`ReplayWriteError` if that fails. A match
        that ended before its header was written (it never started) leaves no empty file."""
        if self._file is not None:
            try:
                self._file.flush()
                os.fsync(self._file.fileno())
                self._file.close()
                self._file = None
                if not self._written:
                    self.path.unlink(missing_ok=True)
            except OSError as exc:
                self._abandon()
                reason = exc.strerror or str(exc)
                raise ReplayWriteError(f"cannot write replay {self.path}: {reason}") from None
