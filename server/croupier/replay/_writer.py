"""The replay writer: one JSON-lines file per match, flushed after every record.

A killed arbiter leaves a readable prefix: every complete line is a complete record (see
``docs/replay-format.md``).
"""

from __future__ import annotations

import datetime as dt
import json
import os
from fractions import Fraction
from pathlib import Path
from typing import IO, Any

from croupier import PROTOCOL_VERSION, __version__
from croupier.arbiter import Fault, Match, MatchResult, SeatInfo
from croupier.errors import ConfigError
from croupier.games import get_spec

FORMAT = "croupier-replay"
FORMAT_VERSION = 2
#: The format versions the reader reads (1: no structured round results).
READABLE_VERSIONS = (1, 2)


def score_text(value: Fraction) -> str:
    """An exact score as text: ``"3"``, ``"-7/2"``."""
    return str(value)


def _now() -> str:
    return dt.datetime.now(dt.UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


class ReplayWriter:
    """Writes one match's replay; implements :class:`croupier.arbiter.Recorder`."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._round_record: Any = None  # the game's GameSpec.round_record, known at the header
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            self._file: IO[str] | None = path.open("x", encoding="utf-8")
        except OSError as exc:
            raise ConfigError(f"cannot write replay {path}: {exc.strerror or exc}") from exc
        self._written = False

    def _write(self, record: dict[str, Any]) -> None:
        if self._file is None:
            return
        self._file.write(json.dumps(record, separators=(",", ":"), ensure_ascii=False) + "\n")
        self._file.flush()
        self._written = True

    # -- Recorder -------------------------------------------------------------------------------

    def header(self, match: Match, seats: tuple[SeatInfo, ...]) -> None:
        info = match.game.info
        self._round_record = get_spec(info.name).round_record
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
                "protocol_version": PROTOCOL_VERSION,
                "croupier_version": __version__,
                "clock": {
                    "move_time_ms": match.config.clock.move_time_ms,
                    "time_bank_ms": match.config.clock.time_bank_ms,
                },
                "seats": [
                    {
                        "seat": s.seat,
                        "bot_name": s.bot_name,
                        "bot_version": s.bot_version,
                        "connected": s.connected,
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
        if fault is not None:
            record["detail"] = detail
        self._write(record)

    def fault(self, step: int, seat: int, fault: Fault, detail: str) -> None:
        self._write(
            {"type": "fault", "step": step, "seat": seat, "fault": fault.value, "detail": detail}
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
                "seats": [
                    {
                        "seat": r.seat,
                        "bot_name": r.bot_name,
                        "score": score_text(r.score),
                        "place": r.place,
                        "outcome": r.outcome.value,
                        "timeouts": r.timeouts,
                        "rejected": r.rejected,
                    }
                    for r in result.seats
                ],
                "ended_at": _now(),
            }
        )
        self.close()

    def close(self) -> None:
        """Flush to disk and close (idempotent). A match that ended before its header was
        written (it never started) leaves no empty file behind."""
        if self._file is not None:
            self._file.flush()
            os.fsync(self._file.fileno())
            self._file.close()
            self._file = None
            if not self._written:
                self.path.unlink(missing_ok=True)
