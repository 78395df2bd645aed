"""The one validating reader of replays, and ``verify``.

Every command that reads a replay (show, summary, verify, export, step, diff, follow) reads it
here, with the same checks, in one pass over the records (``docs/replay-format.md``, "Reading a
replay"). Each record is first checked as *format* (JSON object, schema, types, ranges that need
no rules: seats, action ids, step and round numbers, score text; the header's format and rules
versions, game, parameters, seed and seats): a failure is a :class:`ReplayFormatError`, the file
is not a readable replay. Then the record is *re-simulated* against the rules (the seat to act,
legality, labels, the chance outcome the seed draws, round ends with their deltas and results,
the final scores, places and fault counts): a failure is a :class:`ReplayMismatchError`, the file
reads but does not verify. Errors name the first bad line.

A file that ends early (a last line cut by a killed writer, or no ``result`` record yet) reads:
``Replay.complete`` is false. :func:`verify` is the reading plus the demand that it be complete.

Binding (``docs/replay-format.md``, "What binds each field"): in format 4 the header's terms
(everything fixed before the first Welcome) are checked against the commitment at the result,
with the seed and the revealed salt; what is known only later is re-derived from the play (a
seat's ``connected``, ``cancelled``). A file of an older format reads as before, but cannot
hold what a later format added (a replay relabelled as older is a mismatch), and
:class:`VerifyReport` says what its commitment, if any, covered.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import IO, Any

from croupier.errors import ReplayFormatError, ReplayMismatchError
from croupier.replay._check import BINDS, ReplayCheck
from croupier.replay._records import _BOUND, Record, Replay, _decode, _lines


@dataclass(frozen=True, slots=True)
class VerifyReport:
    """What ``verify`` checked: the play, and what the commitment binds (``bound``: names from
    :data:`BINDS`; ``unbound``: those an old format's commitment does not)."""

    steps: int
    rounds: int
    scores: tuple[Fraction, ...]
    cancelled: bool = False
    format_version: int = 0
    #: The commitment scheme checked (2, 1), or 0: the file has no commitment.
    scheme: int = 0
    commitment: str = ""
    bound: tuple[str, ...] = ()
    unbound: tuple[str, ...] = BINDS

    @property
    def status(self) -> str:
        return "cancelled" if self.cancelled else "finished"

    def describe(self) -> str:
        """What the commitment bound, as the ``ok`` line says it."""
        if self.format_version >= _BOUND and self.scheme and not self.unbound:
            return f"commitment v{self.scheme} {self.commitment} checked: {', '.join(self.bound)}"
        old = f"format {self.format_version} (old, unbound)"
        if not self.scheme:
            return f"{old}: no commitment, nothing bound"
        return (
            f"{old}: commitment v{self.scheme} {self.commitment} checked: "
            f"{', '.join(self.bound)}; not bound: {', '.join(self.unbound)}"
        )


def _open(path: Path) -> IO[bytes]:
    try:
        return path.open("rb")
    except OSError as exc:
        raise ReplayFormatError(f"cannot read: {exc.strerror or exc}") from None


def read_replay(path: Path | str, *, tolerate_truncated_tail: bool = False) -> Replay:
    """Read, check and re-simulate a replay file (the module docstring); the error names the
    first bad line. A last line without its newline that is not a whole record is what a killed
    writer leaves: an error, or with ``tolerate_truncated_tail`` the end of the records
    (``Replay.truncated``)."""
    path = Path(path)
    check: ReplayCheck | None = None
    records: list[Record] = []
    states: list[Any] = []
    truncated = False
    try:
        with _open(path) as f:
            for number, raw, complete in _lines(f):
                try:
                    rec = _decode(raw, number)
                except ReplayFormatError:
                    if complete:
                        raise
                    # the last line, without its newline: what a killed writer leaves
                    if check is None and _is_text(raw):
                        raise ReplayFormatError(
                            "truncated header (the writer was interrupted, or not a replay)",
                            number,
                        ) from None
                    if check is None:
                        raise
                    if not tolerate_truncated_tail:
                        raise ReplayFormatError(
                            "truncated last line (the writer was interrupted)", number
                        ) from None
                    truncated = True
                    break
                if check is None:
                    check = ReplayCheck(rec)
                    continue
                states.append(check.feed(rec))
                records.append(rec)
    except OSError as exc:
        raise ReplayFormatError(f"cannot read: {exc.strerror or exc}") from None
    if check is None:
        raise ReplayFormatError("the file is empty")
    return Replay(
        path,
        check.header,
        tuple(records),
        check.initial,
        tuple(states),
        truncated,
        tuple(check.results),
        check.bound,
    )


def _is_text(raw: bytes) -> bool:
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def verify(replay: Replay) -> VerifyReport:
    """The replay was checked as it was read (:func:`read_replay`); ``verify`` adds that it is
    complete. :class:`ReplayMismatchError` for an unfinished one (its ``line``: the last)."""
    last = replay.records[-1].line if replay.records else 1
    if replay.truncated:
        raise ReplayMismatchError(
            "unfinished: the last line is truncated (the writer was interrupted)", last + 1
        )
    if not replay.complete:
        raise ReplayMismatchError(
            "unfinished: the replay has no result record (the match did not finish)", last
        )
    game = replay.game
    final = replay.states[-1]
    rounds = sum(1 for r in replay.records if r.type == "round_end")
    steps = int(replay.records[-1].data["step"])
    cancelled = bool(replay.records[-1].data["cancelled"])
    header = replay.header
    version = int(header["format_version"])
    commitment = header.get("commitment")
    scheme = 0 if commitment is None else 2 if version >= _BOUND else 1
    bound = replay.bound
    return VerifyReport(
        steps,
        rounds,
        game.returns(final),
        cancelled,
        version,
        scheme,
        commitment or "",
        bound,
        tuple(b for b in BINDS if b not in bound),
    )


def follow(
    path: Path, *, poll_s: float = 0.1, idle_s: float | None = None
) -> Iterator[tuple[Record, Any, Any] | tuple[Record, None, Any]]:
    """The records of a replay that is still being written, checked as :func:`read_replay`
    checks them, as they appear: ``(header, None, initial state)`` first, then ``(record,
    state before, state after)``. A partial last line waits for its end. Ends at the end of the
    file once the ``result`` record has been read (what follows it is an error, as in a whole
    file), or when the file has not grown for ``idle_s`` seconds: then the file is read to its
    end as :func:`read_replay` reads it (a cut last line tolerated, an empty file an error)."""
    check: ReplayCheck | None = None
    pending = b""
    number = 0
    quiet_since = time.monotonic()
    done = False

    def record(rec: Record) -> tuple[Record, Any, Any] | tuple[Record, None, Any]:
        nonlocal check
        if check is None:
            check = ReplayCheck(rec)
            return Record(rec.line, check.header), None, check.initial
        before = check.state
        return rec, before, check.feed(rec)

    with _open(path) as f:
        while True:
            chunk = f.readline()
            if not chunk:
                if done or (idle_s is not None and time.monotonic() - quiet_since > idle_s):
                    break
                time.sleep(poll_s)
                continue
            quiet_since = time.monotonic()
            pending += chunk
            if not pending.endswith(b"\n"):
                continue
            raw, pending = pending, b""
            number += 1
            if raw.strip():
                rec = _decode(raw, number)
                yield record(rec)
                done = done or rec.type == "result"
    if pending.strip():  # the last line, without its newline
        try:
            tail: Record | None = _decode(pending, number + 1)
        except ReplayFormatError:
            if check is None and _is_text(pending):
                raise ReplayFormatError(
                    "truncated header (the writer was interrupted, or not a replay)", number + 1
                ) from None
            if check is None:
                raise
            tail = None  # what a killed writer leaves
        if tail is not None:
            yield record(tail)
    if check is None:
        raise ReplayFormatError("the file is empty")
