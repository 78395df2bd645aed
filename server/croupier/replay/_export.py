"""Replays as tables (``croupier replay export``): matches, seats, rounds and decisions, one row
per thing, typed columns (docs/replay-format.md, "Export"), written as Parquet (with pyarrow,
the ``data`` extra) or CSV (the standard library).
"""

from __future__ import annotations

import csv
import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

from croupier.errors import ConfigError
from croupier.replay._records import Replay
from croupier.replay._render import round_results

#: Column types: how each maps to Arrow (Parquet) and how CSV writes it.
INT, STR, BOOL, FLOAT, INTS, STRS = (
    "int64",
    "string",
    "bool",
    "double",
    "list<int64>",
    "list<string>",
)

#: The tables and their columns, in order (documented in docs/replay-format.md).
SCHEMAS: dict[str, tuple[tuple[str, str], ...]] = {
    "matches": (
        ("file", STR), ("match_id", STR), ("game", STR), ("format_version", INT),
        ("rules_version", INT), ("croupier_version", STR), ("seed", STR), ("players", INT),
        ("length", INT), ("params", STR), ("status", STR), ("rounds", INT), ("steps", INT),
        ("decisions", INT), ("move_time_ms", INT), ("time_bank_ms", INT), ("started_at", STR),
        ("ended_at", STR),
    ),
    "seats": (
        ("match_id", STR), ("game", STR), ("seat", INT), ("bot_name", STR), ("display_name", STR),
        ("bot_version", STR),
        ("connected", BOOL), ("score", STR), ("score_value", FLOAT), ("place", INT),
        ("outcome", STR), ("timeouts", INT), ("rejected", INT), ("decisions", INT),
        ("time_us", INT), ("rounds_won", INT),
    ),
    "rounds": (
        ("match_id", STR), ("game", STR), ("round", INT), ("dealer", INT), ("decisions", INT),
        ("showdown", BOOL), ("pot", INT), ("winners", INTS), ("deltas", STRS),
        ("declarer", INT), ("contract", STR), ("trump", STR), ("outcome", STR),
        ("decided_by", STR), ("eliminated", INTS), ("result", STR),
    ),
    "decisions": (
        ("match_id", STR), ("game", STR), ("step", INT), ("round", INT), ("seat", INT),
        ("bot_name", STR), ("display_name", STR), ("phase", STR), ("action", INT),
        ("label", STR), ("kind", STR), ("legal", INT), ("time_us", INT), ("wall_us", INT),
        ("lag_us", INT), ("fault", STR),
    ),
    "seat_rounds": (
        ("match_id", STR), ("game", STR), ("round", INT), ("seat", INT), ("bot_name", STR),
        ("display_name", STR), ("dealer", BOOL), ("delta", STR), ("delta_value", FLOAT),
        ("total_value", FLOAT), ("won", BOOL), ("winner", BOOL), ("decisions", INT),
        ("time_us", INT),
    ),
}  # fmt: skip
TABLES = tuple(SCHEMAS)


@dataclass
class Tables:
    """The rows of every table, column by column (``columns[table][name]`` is a list)."""

    columns: dict[str, dict[str, list[Any]]] = field(
        default_factory=lambda: {t: {c: [] for c, _ in cols} for t, cols in SCHEMAS.items()}
    )

    def add(self, table: str, **row: Any) -> None:
        cols = self.columns[table]
        for name, _ in SCHEMAS[table]:
            cols[name].append(row.get(name))

    def rows(self, table: str) -> int:
        return len(self.columns[table][SCHEMAS[table][0][0]])

    def add_replay(self, replay: Replay) -> None:
        """Add one replay's rows to every table."""
        header, game = replay.header, replay.game
        match_id, name = header["match_id"], header["game"]
        seats = len(header["seats"])
        bots = [s["bot_name"] for s in header["seats"]]
        names = [display_name(s) for s in header["seats"]]
        decisions = [0] * seats
        time_us = [0] * seats
        won = [0] * seats
        per_round = 0
        round_decisions = [0] * seats
        round_time = [0] * seats
        totals = [Fraction(0)] * seats
        results = iter(round_results(replay))
        for i, rec in enumerate(replay.records):
            data = rec.data
            if rec.type == "action":
                before = replay.before(i)
                seat = data["seat"]
                decisions[seat] += 1
                time_us[seat] += data["time_us"]
                round_decisions[seat] += 1
                round_time[seat] += data["time_us"]
                per_round += 1
                self.add(
                    "decisions",
                    match_id=match_id, game=name, step=data["step"],
                    round=game.round_index(before), seat=seat, bot_name=bots[seat],
                    display_name=names[seat],
                    phase=before.phase.name.lower(), action=data["action"], label=data["label"],
                    kind=data["label"].split(":")[0], legal=len(game.legal_runs(before)),
                    time_us=data["time_us"], wall_us=_int(data.get("wall_us")),
                    lag_us=_int(data.get("lag_us")), fault=data["fault"],
                )  # fmt: skip
            elif rec.type == "round_end":
                result = next(results)
                for s, delta in enumerate(data["deltas"]):
                    won[s] += Fraction(delta) > 0
                self.add(
                    "rounds",
                    match_id=match_id, game=name, round=data["round"],
                    dealer=result.get("dealer"), decisions=per_round,
                    showdown=result.get("showdown"),
                    pot=result.get("pot"), winners=_winners(result, data["deltas"]),
                    deltas=list(data["deltas"]), declarer=result.get("declarer"),
                    contract=result.get("contract"), trump=result.get("trump"),
                    outcome=result.get("outcome"), decided_by=result.get("decided_by"),
                    eliminated=result.get("eliminated"), result=_json(result),
                )  # fmt: skip
                winners = _winners(result, data["deltas"])
                for s, delta in enumerate(data["deltas"]):
                    change = Fraction(delta)
                    totals[s] += change
                    self.add(
                        "seat_rounds",
                        match_id=match_id, game=name, round=data["round"], seat=s,
                        bot_name=bots[s], display_name=names[s],
                        dealer=result.get("dealer") == s, delta=delta,
                        delta_value=float(change), total_value=float(totals[s]),
                        won=change > 0, winner=s in winners,
                        decisions=round_decisions[s], time_us=round_time[s],
                    )  # fmt: skip
                per_round = 0
                round_decisions = [0] * seats
                round_time = [0] * seats
        final = replay.result
        rows = final["seats"] if final else [None] * seats
        for s, (entry, row) in enumerate(zip(header["seats"], rows, strict=True)):
            self.add(
                "seats",
                match_id=match_id, game=name, seat=s, bot_name=entry["bot_name"],
                display_name=names[s], bot_version=entry["bot_version"],
                connected=entry["connected"],
                score=row["score"] if row else None,
                score_value=float(Fraction(row["score"])) if row else None,
                place=row["place"] if row else None, outcome=row["outcome"] if row else None,
                timeouts=row["timeouts"] if row else None,
                rejected=row["rejected"] if row else None, decisions=decisions[s],
                time_us=time_us[s], rounds_won=won[s],
            )  # fmt: skip
        clock: dict[str, Any] = header["clock"] if isinstance(header.get("clock"), dict) else {}
        params = game.info.make_params(header["params"])
        self.add(
            "matches",
            file=str(replay.path), match_id=match_id, game=name,
            format_version=header["format_version"], rules_version=header["rules_version"],
            croupier_version=_str(header.get("croupier_version")), seed=str(header["seed"]),
            players=seats, length=params[game.info.length_param], params=_json(params),
            status=replay.status,
            rounds=sum(1 for r in replay.records if r.type == "round_end"),
            steps=replay.records[-1].data["step"] if replay.records else 0,
            decisions=sum(decisions), move_time_ms=_int(clock.get("move_time_ms")),
            time_bank_ms=_int(clock.get("time_bank_ms")),
            started_at=_str(header.get("started_at")),
            ended_at=_str(final.get("ended_at")) if final else None,
        )  # fmt: skip


def display_name(seat: dict[str, Any]) -> str:
    """Who played a seat, as the organiser named it: the header seat's ``display_name`` (a
    tournament sets it, bound by the commitment), else what the bot said in its Hello."""
    name = seat.get("display_name")
    return name if isinstance(name, str) and name else str(seat.get("bot_name", ""))


def _winners(result: dict[str, Any], deltas: list[str]) -> list[int]:
    if isinstance(result.get("winners"), list):
        return list(result["winners"])
    return [s for s, d in enumerate(deltas) if Fraction(d) > 0]  # Fipsen: whoever gained


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _str(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


# -- writing ------------------------------------------------------------------------------------

FORMATS = ("parquet", "csv")


def _pyarrow() -> Any:
    try:
        import pyarrow  # type: ignore[import-untyped]
        import pyarrow.parquet  # type: ignore[import-untyped]
    except ImportError:
        raise ConfigError(
            "writing Parquet needs pyarrow, which is not installed: "
            "pip install 'croupier[data]' (CSV needs nothing: --format csv)"
        ) from None
    return pyarrow


def check_parquet() -> None:
    """:class:`ConfigError` (one line: how to install it) when pyarrow is missing."""
    _pyarrow()


def write_table(tables: Tables, table: str, path: Path, fmt: str) -> None:
    """Write one table to ``path`` as ``fmt`` (``parquet`` or ``csv``)."""
    cols = tables.columns[table]
    try:
        if fmt == "parquet":
            pa = _pyarrow()
            types = {
                INT: pa.int64(), STR: pa.string(), BOOL: pa.bool_(), FLOAT: pa.float64(),
                INTS: pa.list_(pa.int64()), STRS: pa.list_(pa.string()),
            }  # fmt: skip
            schema = pa.schema([(name, types[typ]) for name, typ in SCHEMAS[table]])
            arrow = pa.table({name: cols[name] for name, _ in SCHEMAS[table]}, schema=schema)
            pa.parquet.write_table(arrow, path)
        else:
            with path.open("w", encoding="utf-8", newline="") as f:
                writer = csv.writer(f)
                writer.writerow([name for name, _ in SCHEMAS[table]])
                writer.writerows(
                    zip(*(_csv_column(cols[n], t) for n, t in SCHEMAS[table]), strict=True)
                )
    except OSError as exc:
        raise ConfigError(f"cannot write {path}: {exc.strerror or exc}") from None


def _csv_column(values: list[Any], typ: str) -> Iterable[str]:
    for v in values:
        if v is None:
            yield ""
        elif typ == BOOL:
            yield "true" if v else "false"
        elif typ in (INTS, STRS):
            yield _json(v)
        else:
            yield str(v)


def destinations(to: Path, fmt: str | None, table: str | None) -> list[tuple[str, Path, str]]:
    """Where ``--to`` puts which table: ``(table, path, format)``. A ``.parquet`` or ``.csv``
    file holds one table (``--table``, default ``decisions``); anything else is a directory
    that gets every table as ``<table>.<format>`` (``--format``, default ``parquet``)."""
    suffix = to.suffix.lower().lstrip(".")
    if suffix in FORMATS:
        if fmt is not None and fmt != suffix:
            raise ConfigError(f"--format {fmt} but --to {to} names a .{suffix} file")
        return [(table or "decisions", to, suffix)]
    if table is not None:
        raise ConfigError("--table needs --to FILE.parquet or FILE.csv (a directory gets them all)")
    fmt = fmt or "parquet"
    try:
        to.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ConfigError(f"cannot make the directory {to}: {exc.strerror or exc}") from None
    return [(t, to / f"{t}.{fmt}", fmt) for t in TABLES]
