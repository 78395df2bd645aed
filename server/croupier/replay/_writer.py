"""The replay writer: one JSON-lines file per match, flushed after every record.

A killed arbiter leaves a readable prefix: every complete line is a complete record (see
``docs/replay-format.md``).
"""

from __future__ import annotations

import contextlib
import datetime as dt
import json
import os
import threading
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from croupier import PROTOCOL_VERSION, __version__
from croupier.errors import ConfigError, ReplayWriteError
from croupier.games import get_spec

if TYPE_CHECKING:  # (annotations only: the writer needs no match loop to be imported)
    from croupier.arbiter import DecisionTiming, Fault, Match, MatchResult, Policy, SeatInfo

FORMAT = "croupier-replay"
FORMAT_VERSION = 4
#: The format versions the reader reads (1: no structured round results; 2: no fault policy;
#: 3: the commitment binds the seed and the chance script only). Only format 4 binds the whole
#: match to its commitment (``docs/replay-format.md``, "What binds each field").
READABLE_VERSIONS = (1, 2, 3, 4)


#: A record's line (``json.dumps(record, separators=(",", ":"), ensure_ascii=False)``, with one
#: encoder for every record rather than a new one for each).
_ENCODER = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False)


def score_text(value: Fraction) -> str:
    """An exact score as text: ``"3"``, ``"-7/2"``."""
    return str(value)


def _now() -> str:
    return dt.datetime.now(dt.UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


#: Told every record right after it is written (a live spectator feed): a cheap callback that
#: does no I/O, called in the writer's thread; it must not keep a reference to mutate the record.
#: If it has an ``unannounced()`` method, that is called just before it is handed an action
#: record the table was not told of (``Game.is_public`` false: a Fipsen discard or declined
#: Siebener Fips), so that it can count the public decisions without simulating the match.
RecordListener = Callable[[dict[str, Any]], None]


class ReplayWriter:
    """Writes one match's replay; implements :class:`croupier.arbiter.Recorder`.

    The file is created mode 0600: it holds the seed and every hand while the match runs.
    ``listener`` (optional) is handed each record once its line is written and flushed.

    The result record closes the file (flushed and synced to disk), unless ``close_at_result`` is
    false: then its owner calls :meth:`close`, from a thread of its own if it likes (the runner
    does, so that the ``fsync`` never holds up the event loop's other matches)."""

    def __init__(
        self, path: Path, listener: RecordListener | None = None, *, close_at_result: bool = True
    ) -> None:
        self.path = path
        self._listener = listener
        self._close_at_result = close_at_result
        self._closing = threading.Lock()  # close() may run in a thread
        self._round_record: Any = None  # the game's GameSpec.round_record, known at the header
        self._script: tuple[tuple[int, ...], ...] = ()  # the match's chance script
        self._chances = 0  # chance records written
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
        line = _ENCODER.encode(record) + "\n"
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
        self._round_record = get_spec(match.game.info.name).round_record
        self._script = match.config.chance_script
        terms = match.terms  # the committed fields, exactly as the commitment covers them
        self._write(
            {
                "type": "header",
                "format": FORMAT,
                "format_version": FORMAT_VERSION,
                "match_id": terms["match_id"],
                "game": terms["game"],
                "rules_version": terms["rules_version"],
                "params": terms["params"],
                "seed": str(match.config.seed),  # decimal text: exact in every JSON reader
                "chance_script": terms["chance_script"],
                "chance_script_sha256": terms["chance_script_sha256"],
                "commitment": match.commitment,
                "deal_commitment": match.deal_commitment,
                "protocol_version": PROTOCOL_VERSION,
                "croupier_version": __version__,
                "clock": terms["clock"],
                "fault_policy": terms["fault_policy"],
                "reconnect_grace_ms": terms["reconnect_grace_ms"],
                "event_flush_ms": terms["event_flush_ms"],
                "seats": [
                    {
                        **terms["seats"][s.seat],
                        "bot_name": s.bot_name,
                        "bot_version": s.bot_version,
                        "connected": s.connected,
                        "peer": s.peer,
                    }
                    for s in seats
                ],
                "started_at": _now(),
            }
        )

    def chance(self, step: int, outcome: tuple[int, ...], label: str) -> None:
        self._chances += 1
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
        announced: bool = True,
    ) -> None:
        """The action record. ``announced`` false (the table was not told of the action) is
        not written (the rules say it from the state); a listener with an ``unannounced()``
        method is told of it just before it is handed the record."""
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
        if not announced and self._listener is not None:
            told = getattr(self._listener, "unannounced", None)
            if told is not None:
                told()
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
                # the scripted outcomes the match did not reach: with the played ones they
                # must give the committed digest
                "chance_script_rest": [list(o) for o in self._script[self._chances :]],
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
        if self._close_at_result:
            self.close()

    def close(self) -> None:
        """Flush to disk and close (idempotent); :class:`ReplayWriteError` if that fails. A match
        that ended before its header was written (it never started) leaves no empty file."""
        with self._closing:
            self._close()

    def _close(self) -> None:
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
