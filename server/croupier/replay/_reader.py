"""Reading replays, and re-simulating them (``verify``)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from croupier.arbiter import Fault
from croupier.errors import (
    ConfigError,
    IllegalActionError,
    ReplayFormatError,
    ReplayMismatchError,
)
from croupier.games import CHANCE, TERMINAL, Game, get_game, places
from croupier.replay._writer import FORMAT, FORMAT_VERSION, score_text

#: Required fields and their JSON types, per record type.
_SCHEMA: dict[str, dict[str, type | tuple[type, ...]]] = {
    "header": {
        "format": str,
        "format_version": int,
        "match_id": str,
        "game": str,
        "rules_version": int,
        "params": dict,
        "seed": int,
        "protocol_version": int,
        "seats": list,
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
    "round_end": {"step": int, "round": int, "deltas": list},
    "result": {"step": int, "cancelled": bool, "seats": list},
}


_FAULTS = frozenset(f.value for f in Fault)


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
    """A parsed replay. ``records`` excludes the header; ``complete`` = it ends with a result."""

    path: Path
    header: dict[str, Any]
    records: tuple[Record, ...]

    @property
    def complete(self) -> bool:
        return bool(self.records) and self.records[-1].type == "result"

    @property
    def game(self) -> Game[Any]:
        return get_game(self.header["game"])


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


def _typed(value: Any, typ: type | tuple[type, ...]) -> bool:
    """``isinstance`` where a JSON ``true`` is not an int (bool subclasses int in Python)."""
    if isinstance(value, bool):
        return typ is bool or (isinstance(typ, tuple) and bool in typ)
    return isinstance(value, typ)


def _check(data: Any, line: int) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise ReplayFormatError("a record must be a JSON object", line)
    kind = data.get("type")
    schema = _SCHEMA.get(kind) if isinstance(kind, str) else None
    if schema is None:
        raise ReplayFormatError(f"unknown record type {kind!r}", line)
    assert isinstance(kind, str)
    for key, typ in schema.items():
        if key not in data or not _typed(data[key], typ):
            raise ReplayFormatError(
                f"{kind} record: field {key!r} missing or of the wrong type", line
            )
        item_schema = _ITEM_SCHEMA.get((kind, key))
        item_type = _ITEM_TYPE.get((kind, key))
        for item in data[key] if isinstance(data[key], list) else ():
            if item_type is not None and not _typed(item, item_type):
                raise ReplayFormatError(f"{kind} record: {key!r} holds {item!r}", line)
            if item_schema is not None and not (
                isinstance(item, dict)
                and all(k in item and _typed(item[k], t) for k, t in item_schema.items())
            ):
                raise ReplayFormatError(f"{kind} record: a malformed entry in {key!r}", line)
    return data


def iter_records(path: Path, *, tolerate_truncated_tail: bool = False) -> Iterator[Record]:
    """Records of a replay file, each checked against the schema, header first.

    A last line without its newline is what a killed writer leaves: an error, or with
    ``tolerate_truncated_tail`` the end of the records.
    """
    try:
        with path.open(encoding="utf-8") as f:
            for number, text in enumerate(f, start=1):
                if not text.strip():
                    continue
                if not text.endswith("\n"):
                    if tolerate_truncated_tail:
                        return
                    raise ReplayFormatError(
                        "truncated last line (the writer was interrupted)", number
                    )
                try:
                    data = json.loads(text)
                except json.JSONDecodeError as exc:
                    raise ReplayFormatError(f"not JSON ({exc.msg})", number) from None
                yield Record(number, _check(data, number))
    except OSError as exc:
        raise ReplayFormatError(f"cannot read {path}: {exc.strerror or exc}") from exc
    except UnicodeDecodeError:
        raise ReplayFormatError(f"{path} is not UTF-8 text") from None


def read_replay(path: Path | str, *, tolerate_truncated_tail: bool = False) -> Replay:
    """Parse a replay file; :class:`ReplayFormatError` names the first bad line.

    ``tolerate_truncated_tail`` reads what a killed writer left (for showing, not verifying).
    """
    path = Path(path)
    records = list(iter_records(path, tolerate_truncated_tail=tolerate_truncated_tail))
    if not records:
        raise ReplayFormatError(f"{path} is empty")
    head = records[0]
    if head.type != "header":
        raise ReplayFormatError("the first record must be the header", head.line)
    if head.data["format"] != FORMAT or head.data["format_version"] != FORMAT_VERSION:
        raise ReplayFormatError(
            f"not a {FORMAT} v{FORMAT_VERSION} file "
            f"({head.data['format']} v{head.data['format_version']})",
            head.line,
        )
    try:
        get_game(head.data["game"])
    except ConfigError as exc:
        raise ReplayFormatError(str(exc), head.line) from None
    for rec in records[1:]:
        if rec.type == "header":
            raise ReplayFormatError("a second header", rec.line)
    return Replay(path, head.data, tuple(records[1:]))


@dataclass(frozen=True, slots=True)
class VerifyReport:
    """What ``verify`` checked."""

    steps: int
    rounds: int
    scores: tuple[Fraction, ...]


def verify(replay: Replay) -> VerifyReport:
    """Re-simulate ``replay`` from its chance outcomes and actions and check every record.

    Raises :class:`ReplayMismatchError` at the first disagreement (its ``line`` names the record).
    """
    game, header = replay.game, replay.header
    if header["rules_version"] != game.info.version:
        raise ReplayMismatchError(
            f"recorded with {game.info.name} rules v{header['rules_version']}, "
            f"this Croupier has v{game.info.version}",
            1,
        )
    try:
        params = game.info.make_params(header["params"])
    except ConfigError as exc:
        raise ReplayMismatchError(str(exc), 1) from None
    state = game.initial_state(params)
    step, rounds = 0, 0
    round_start = game.returns(state)
    seats = game.num_players(state)
    round_due = False  # a deal just ended: the next record must be its round_end
    if len(header["seats"]) != seats:
        raise ReplayMismatchError(f"{len(header['seats'])} seats in the header, not {seats}", 1)

    def fail(message: str, rec: Record) -> ReplayMismatchError:
        return ReplayMismatchError(message, rec.line)

    for rec in replay.records:
        data = rec.data
        if data["step"] != step:
            raise fail(f"step {data['step']} recorded where step {step} was expected", rec)
        player = game.current_player(state)
        if round_due and rec.type in ("chance", "action", "result"):
            raise fail(f"a deal ended at step {step} but its round_end record is missing", rec)
        if rec.type == "chance":
            if player != CHANCE:
                raise fail("a chance outcome where no chance event is due", rec)
            outcome = tuple(data["outcome"])
            try:
                label = game.chance_label(state, outcome)
                state = game.apply_chance(state, outcome)
            except (IllegalActionError, TypeError, ValueError, IndexError) as exc:
                raise fail(f"illegal chance outcome: {exc}", rec) from None
            if data["label"] != label:
                raise fail(f"chance label {data['label']!r} but the outcome gives {label!r}", rec)
            step += 1
        elif rec.type == "action":
            if player != data["seat"]:
                who = "chance" if player == CHANCE else "nobody" if player == TERMINAL else player
                raise fail(f"seat {data['seat']} acts where {who} is due", rec)
            action = data["action"]
            if action not in game.legal_actions(state):
                raise fail(f"action {action} is not legal here", rec)
            label = game.action_label(state, action)
            if data["label"] != label:
                raise fail(f"action label {data['label']!r} but action {action} is {label!r}", rec)
            if data["fault"] is not None and data["fault"] not in _FAULTS:
                raise fail(f"unknown fault {data['fault']!r}", rec)
            if data["fault"] is not None and action != game.default_action(state):
                raise fail(f"after a {data['fault']} the default action is due, not {label}", rec)
            before = game.round_index(state)
            state = game.apply(state, action)
            step += 1
            round_due = game.current_player(state) == TERMINAL or game.round_index(state) != before
        elif rec.type == "fault":
            if data["seat"] not in range(seats) or data["fault"] not in _FAULTS:
                raise fail(f"fault {data['fault']!r} of seat {data['seat']} is not valid", rec)
        elif rec.type == "round_end":
            if not round_due:
                raise fail("a round_end record where no deal ended", rec)
            round_due = False
            totals = game.returns(state)
            deltas = [score_text(t - s) for t, s in zip(totals, round_start, strict=True)]
            round_start = totals
            if data["deltas"] != deltas:
                raise fail(f"round deltas {data['deltas']} but the play gives {deltas}", rec)
            if data["round"] != rounds:
                raise fail(f"round {data['round']} recorded where round {rounds} ended", rec)
            rounds += 1
        elif rec.type == "result":
            if not data["cancelled"] and player != TERMINAL:
                raise fail("result recorded before the match is over", rec)
            scores = game.returns(state)
            recorded = [s.get("score") if isinstance(s, dict) else None for s in data["seats"]]
            if recorded != [score_text(s) for s in scores]:
                raise fail(f"scores {recorded} but the play gives {[str(s) for s in scores]}", rec)
            recorded_places = [s.get("place") for s in data["seats"]]
            if recorded_places != list(places(scores)):
                raise fail(f"places {recorded_places} do not follow from the scores", rec)
            if rec is not replay.records[-1]:
                raise fail("records after the result", rec)
            return VerifyReport(step, rounds, scores)
    last = replay.records[-1].line if replay.records else 1
    raise ReplayMismatchError("the replay has no result record (the match did not finish)", last)
