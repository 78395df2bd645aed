"""A replay's records as the format defines them: :class:`Record` and :class:`Replay`, each line
decoded and checked as *format* (a JSON object, its record type's schema and field types,
``docs/replay-format.md``), and which format version added each field. The re-simulation is
:mod:`._check`'s; reading a file, :mod:`._reader`'s."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from croupier.errors import ReplayFormatError
from croupier.games import Game, get_game

#: Required fields and their JSON types, per record type.
_SCHEMA: dict[str, dict[str, type | tuple[type, ...]]] = {
    "header": {
        "format": str,
        "format_version": int,
        "match_id": str,
        "game": str,
        "rules_version": int,
        "params": dict,
        "seed": (int, str),
        "protocol_version": int,
        "seats": list,
        "chance_script": int,
    },
    "chance": {"step": int, "outcome": list, "label": str},
    "action": {
        "step": int,
        "seat": int,
        "action": int,
        "label": str,
        "time_us": int,
        "fault": (str, type(None)),
    },
    "fault": {"step": int, "seat": int, "fault": str, "detail": str},
    "forfeit": {"step": int, "seat": int, "fault": (str, type(None)), "time_us": int},
    "dropped": {"step": int, "seat": int, "reason": str},
    "rejoined": {"step": int, "seat": int, "gap_us": int, "peer": str},
    "round_end": {"step": int, "round": int, "deltas": list},
    "result": {"step": int, "cancelled": bool, "seats": list},
}

#: Required fields of the objects inside list fields: (record type, field) -> schema.
_ITEM_SCHEMA: dict[tuple[str, str], dict[str, type | tuple[type, ...]]] = {
    ("header", "seats"): {"seat": int, "bot_name": str, "bot_version": str, "connected": bool},
    ("result", "seats"): {
        "seat": int, "bot_name": str, "score": str, "place": int, "outcome": str,
        "timeouts": int, "rejected": int,
    },
}  # fmt: skip
#: List fields whose items are plain values.
_ITEM_TYPE: dict[tuple[str, str], type] = {
    ("chance", "outcome"): int,
    ("round_end", "deltas"): str,
}
#: The format version that added each field a lower version cannot hold: (record, field) ->
#: version. A file that holds one under a lower ``format_version`` was relabelled (a mismatch).
_SINCE: dict[tuple[str, str], int] = {
    ("header", "commitment"): 2,
    ("header", "fault_policy"): 3,
    ("header", "reconnect_grace_ms"): 3,
    ("header", "event_flush_ms"): 3,
    ("header", "chance_script_sha256"): 4,
    ("header", "deal_commitment"): 4,
    ("action", "wall_us"): 2,
    ("action", "lag_us"): 2,
    ("action", "cpu_us"): 2,
    ("action", "policy"): 3,
    ("action", "conceded"): 3,
    ("fault", "policy"): 3,
    ("round_end", "result"): 2,
    ("result", "salt"): 2,
    ("result", "chance_script_sha256"): 2,
    ("result", "cancel_reason"): 2,
    ("result", "chance_script_rest"): 4,
    ("header seat", "peer"): 2,
    ("header clock", "kind"): 2,
    ("header clock", "margin_ms"): 2,
    ("header clock", "seat_cap_ms"): 2,
    ("header clock", "match_cap_ms"): 2,
    ("header clock", "cpu_wall_guard_ms"): 2,
    ("result seat", "forfeits"): 3,
    ("record", "forfeit"): 3,
    ("record", "dropped"): 3,
    ("record", "rejoined"): 3,
}
#: The first format whose commitment binds the whole match (scheme v2), and the first that
#: always has a commitment.
_BOUND, _COMMITTED = 4, 3


def _later(kind: str, data: dict[str, Any], version: int) -> tuple[str, int] | None:
    """The first thing in a ``kind`` record that a format after ``version`` added (see
    :data:`_SINCE`), as ``(what, the version that added it)``, or None."""
    if (since := _SINCE.get(("record", kind), 0)) > version:
        return f"a {kind} record", since
    for key in data:
        if (since := _SINCE.get((kind, key), 0)) > version:
            return f"the {kind} field {key!r}", since
    nested = (("seat", data.get("seats")), ("clock", data.get("clock")))
    for name, value in nested if kind in ("header", "result") else ():
        for item in value if isinstance(value, list) else [value]:
            for key in item if isinstance(item, dict) else ():
                if (since := _SINCE.get((f"{kind} {name}", key), 0)) > version:
                    return f"the {kind} {name} field {key!r}", since
    return None


@dataclass(frozen=True, slots=True)
class Record:
    """One line of a replay: its 1-based line number and the decoded object."""

    line: int
    data: dict[str, Any]

    @property
    def type(self) -> str:
        return str(self.data["type"])


@dataclass(frozen=True, slots=True)
class Replay:
    """A replay read and re-simulated. ``records`` excludes the header; ``states[i]`` is the
    game state after ``records[i]`` (``initial`` before the first); ``truncated``: the last
    line was cut (a killed or still running writer); ``complete``: it ends with a result."""

    path: Path
    header: dict[str, Any]
    records: tuple[Record, ...]
    initial: Any
    states: tuple[Any, ...]
    truncated: bool = False
    #: Each finished round's structured result, as re-simulated (also for a format v1 file).
    round_results: tuple[dict[str, Any], ...] = ()
    #: What the commitment was checked to bind (at the result; empty without one).
    bound: tuple[str, ...] = ()

    @property
    def complete(self) -> bool:
        return bool(self.records) and self.records[-1].type == "result"

    @property
    def game(self) -> Game[Any]:
        return get_game(self.header["game"])

    @property
    def result(self) -> dict[str, Any] | None:
        """The ``result`` record's data, if the replay has one."""
        return self.records[-1].data if self.complete else None

    @property
    def status(self) -> str:
        """``finished``, ``cancelled`` or ``unfinished``."""
        result = self.result
        return (
            "unfinished" if result is None else "cancelled" if result["cancelled"] else "finished"
        )

    def before(self, index: int) -> Any:
        """The state before ``records[index]``."""
        return self.states[index - 1] if index else self.initial


_MISSING = object()


def _typed(value: Any, typ: type | tuple[type, ...]) -> bool:
    """``isinstance`` where a JSON ``true`` is not an int (bool subclasses int in Python)."""
    if isinstance(value, bool):
        return typ is bool or (isinstance(typ, tuple) and bool in typ)
    return isinstance(value, typ)


def _check_schema(data: Any, line: int) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise ReplayFormatError("a record must be a JSON object", line)
    kind = data.get("type")
    schema = _SCHEMA.get(kind) if isinstance(kind, str) else None
    if schema is None:
        raise ReplayFormatError(f"unknown record type {_short(kind)}", line)
    assert isinstance(kind, str)
    for key, typ in schema.items():
        value = data.get(key, _MISSING)
        if type(value) is not typ and not _typed(value, typ):  # (the exact type: the fast path)
            raise ReplayFormatError(
                f"{kind} record: field {key!r} missing or of the wrong type", line
            )
        item_schema = _ITEM_SCHEMA.get((kind, key))
        item_type = _ITEM_TYPE.get((kind, key))
        if item_schema is None and (
            item_type is None or all(type(item) is item_type for item in value)
        ):
            continue
        for item in value:
            if item_type is not None and not _typed(item, item_type):
                raise ReplayFormatError(f"{kind} record: {key!r} holds {_short(item)}", line)
            if item_schema is not None and not (
                isinstance(item, dict)
                and all(k in item and _typed(item[k], t) for k, t in item_schema.items())
            ):
                raise ReplayFormatError(f"{kind} record: a malformed entry in {key!r}", line)
    return data


def _short(value: Any) -> str:
    """``repr`` cut to a length that fits an error line."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _decode(raw: bytes, number: int) -> Record:
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ReplayFormatError("not UTF-8 text", number) from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ReplayFormatError(f"not JSON ({exc.msg})", number) from None
    except (ValueError, RecursionError) as exc:  # a 5,000-digit number, deep nesting
        raise ReplayFormatError(
            f"not JSON ({str(exc)[:60] or 'nested too deeply'})", number
        ) from None
    return Record(number, _check_schema(data, number))


def _lines(f: IO[bytes]) -> Iterator[tuple[int, bytes, bool]]:
    """``(number, raw line, complete)`` for each non-blank line; the last may be incomplete."""
    for number, raw in enumerate(f, start=1):
        complete = raw.endswith(b"\n")
        if raw.strip():
            yield number, raw, complete
