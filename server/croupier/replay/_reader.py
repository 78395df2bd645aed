"""Reading replays, and re-simulating them (``verify``)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np

from croupier.arbiter import Fault, SeatStats
from croupier.errors import (
    ConfigError,
    IllegalActionError,
    ReplayFormatError,
    ReplayMismatchError,
)
from croupier.games import CHANCE, TERMINAL, Game, get_game
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
        with path.open("rb") as f:
            for number, raw in enumerate(f, start=1):
                if not raw.endswith(b"\n"):  # (it may even end inside a UTF-8 character)
                    if tolerate_truncated_tail or not raw.strip():
                        return
                    raise ReplayFormatError(
                        "truncated last line (the writer was interrupted)", number
                    )
                try:
                    text = raw.decode("utf-8")
                except UnicodeDecodeError:
                    raise ReplayFormatError("not UTF-8 text", number) from None
                if not text.strip():
                    continue
                try:
                    data = json.loads(text)
                except json.JSONDecodeError as exc:
                    raise ReplayFormatError(f"not JSON ({exc.msg})", number) from None
                yield Record(number, _check(data, number))
    except OSError as exc:
        raise ReplayFormatError(f"cannot read {path}: {exc.strerror or exc}") from exc


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
    return _Resimulation(replay).run()


_REJECTED = frozenset({"illegal_action", "stale_request", "unexpected_message"})
_GONE = frozenset({"disconnect", "no_show"})


class _Resimulation:
    """Replays the records one by one against the rules; each ``_<type>`` checks one record."""

    def __init__(self, replay: Replay) -> None:
        self.replay = replay
        self.game = game = replay.game
        header = replay.header
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
        self.state = game.initial_state(params)
        self.seats = game.num_players(self.state)
        if len(header["seats"]) != self.seats:
            raise ReplayMismatchError(
                f"{len(header['seats'])} seats in the header, not {self.seats}", 1
            )
        # Chance outcomes are redrawn from the seed, except the first ``chance_script`` ones,
        # which the match was given (duplicate play).
        self.rng = np.random.default_rng(header["seed"])
        self.scripted = header["chance_script"]
        self.chance_events = 0
        self.step = 0
        self.rounds = 0
        self.round_start = game.returns(self.state)
        self.round_due = False  # a deal just ended: the next record must be its round_end
        #: Each seat's fault counts, kept by the arbiter's own rules (``SeatStats``).
        self.stats = [SeatStats() for _ in range(self.seats)]

    def run(self) -> VerifyReport:
        checks = {
            "chance": self._chance,
            "action": self._action,
            "fault": self._fault,
            "round_end": self._round_end,
            "result": self._result,
        }
        for rec in self.replay.records:
            if rec.data["step"] != self.step:
                raise self._fail(f"step {rec.data['step']} recorded where {self.step} was due", rec)
            if self.round_due and rec.type in ("chance", "action", "result"):
                raise self._fail(
                    f"a deal ended at step {self.step} but its round_end record is missing", rec
                )
            checks[rec.type](rec)
            if rec.type == "result":
                if rec is not self.replay.records[-1]:
                    raise self._fail("records after the result", rec)
                return VerifyReport(self.step, self.rounds, self.game.returns(self.state))
        last = self.replay.records[-1].line if self.replay.records else 1
        raise ReplayMismatchError(
            "the replay has no result record (the match did not finish)", last
        )

    @staticmethod
    def _fail(message: str, rec: Record) -> ReplayMismatchError:
        return ReplayMismatchError(message, rec.line)

    def _chance(self, rec: Record) -> None:
        game, state = self.game, self.state
        if game.current_player(state) != CHANCE:
            raise self._fail("a chance outcome where no chance event is due", rec)
        outcome = tuple(rec.data["outcome"])
        try:
            label = game.chance_label(state, outcome)
            self.state = game.apply_chance(state, outcome)
        except (IllegalActionError, TypeError, ValueError, IndexError) as exc:
            raise self._fail(f"illegal chance outcome: {exc}", rec) from None
        if rec.data["label"] != label:
            raise self._fail(
                f"chance label {rec.data['label']!r} but the outcome gives {label!r}", rec
            )
        if self.chance_events >= self.scripted and outcome != game.sample_chance(state, self.rng):
            raise self._fail("this chance outcome is not the one the match seed draws", rec)
        self.chance_events += 1
        self.step += 1

    def _action(self, rec: Record) -> None:
        game, state, data = self.game, self.state, rec.data
        seat, action, fault = data["seat"], data["action"], data["fault"]
        player = game.current_player(state)
        if player != seat:
            who = "chance" if player == CHANCE else "nobody" if player == TERMINAL else player
            raise self._fail(f"seat {seat} acts where {who} is due", rec)
        if action not in game.legal_actions(state):
            raise self._fail(f"action {action} is not legal here", rec)
        label = game.action_label(state, action)
        if data["label"] != label:
            raise self._fail(
                f"action label {data['label']!r} but action {action} is {label!r}", rec
            )
        if fault is not None and fault not in _FAULTS:
            raise self._fail(f"unknown fault {fault!r}", rec)
        stats = self.stats[seat]
        if (fault is not None or stats.disconnected) and action != game.default_action(state):
            why = f"after a {fault}" if fault else "for a seat whose bot has gone"
            raise self._fail(f"{why} the default action is due, not {label}", rec)
        stats.timeouts += fault == "timeout"
        stats.rejected += fault in _REJECTED
        stats.disconnected |= fault in _GONE
        before = game.round_index(state)
        self.state = game.apply(state, action)
        self.step += 1
        self.round_due = (
            game.current_player(self.state) == TERMINAL or game.round_index(self.state) != before
        )

    def _fault(self, rec: Record) -> None:
        seat, fault = rec.data["seat"], rec.data["fault"]
        if seat not in range(self.seats) or fault not in _FAULTS:
            raise self._fail(f"fault {fault!r} of seat {seat} is not valid", rec)
        self.stats[seat].disconnected |= fault in _GONE

    def _round_end(self, rec: Record) -> None:
        if not self.round_due:
            raise self._fail("a round_end record where no deal ended", rec)
        self.round_due = False
        totals = self.game.returns(self.state)
        deltas = [score_text(t - s) for t, s in zip(totals, self.round_start, strict=True)]
        self.round_start = totals
        if rec.data["deltas"] != deltas:
            raise self._fail(f"round deltas {rec.data['deltas']} but the play gives {deltas}", rec)
        if rec.data["round"] != self.rounds:
            raise self._fail(f"round {rec.data['round']} recorded where {self.rounds} ended", rec)
        self.rounds += 1

    def _result(self, rec: Record) -> None:
        data, game = rec.data, self.game
        if not data["cancelled"] and game.current_player(self.state) != TERMINAL:
            raise self._fail("result recorded before the match is over", rec)
        scores = game.returns(self.state)
        rows = data["seats"]
        if [r["seat"] for r in rows] != list(range(self.seats)):
            raise self._fail("the result must list every seat in order", rec)
        recorded = [r["score"] for r in rows]
        if recorded != [score_text(s) for s in scores]:
            raise self._fail(
                f"scores {recorded} but the play gives {[str(s) for s in scores]}", rec
            )
        if [r["place"] for r in rows] != list(game.ranking(self.state)):
            raise self._fail(
                f"places {[r['place'] for r in rows]} do not follow from the play", rec
            )
        for seat, row in enumerate(rows):
            stats = self.stats[seat]
            expected = (stats.outcome().value, stats.timeouts, stats.rejected)
            if (row["outcome"], row["timeouts"], row["rejected"]) != expected:
                raise self._fail(
                    f"seat {seat}: outcome {row['outcome']}, {row['timeouts']} timeouts, "
                    f"{row['rejected']} rejected, but its faults give {expected}",
                    rec,
                )
