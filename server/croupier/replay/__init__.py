"""Replays, one JSON-lines file per match (docs/replay-format.md): write; read, check and
re-simulate (one validating reader for every command); verify; render; export."""

from croupier.replay._diff import Move, RoundDiff, by_bot, diff, seat_names
from croupier.replay._export import (
    FORMATS,
    SCHEMAS,
    TABLES,
    Tables,
    check_parquet,
    destinations,
    write_table,
)
from croupier.replay._play import Policy, record_match
from croupier.replay._reader import (
    Record,
    Replay,
    ReplayCheck,
    VerifyReport,
    follow,
    read_replay,
    verify,
)
from croupier.replay._render import (
    OMNISCIENT,
    Line,
    Narration,
    narrate,
    render,
    round_facts,
    round_results,
    select_rounds,
    summarize,
    summary_data,
)
from croupier.replay._step import Decision, Walk
from croupier.replay._writer import (
    FORMAT,
    FORMAT_VERSION,
    READABLE_VERSIONS,
    RecordListener,
    ReplayWriter,
    score_text,
)

__all__ = [
    "FORMAT",
    "FORMATS",
    "FORMAT_VERSION",
    "OMNISCIENT",
    "READABLE_VERSIONS",
    "SCHEMAS",
    "TABLES",
    "Decision",
    "Line",
    "Move",
    "Narration",
    "Policy",
    "Record",
    "RecordListener",
    "Replay",
    "ReplayCheck",
    "ReplayWriter",
    "RoundDiff",
    "Tables",
    "VerifyReport",
    "Walk",
    "by_bot",
    "check_parquet",
    "destinations",
    "diff",
    "follow",
    "narrate",
    "read_replay",
    "record_match",
    "render",
    "round_facts",
    "round_results",
    "score_text",
    "seat_names",
    "select_rounds",
    "summarize",
    "summary_data",
    "verify",
    "write_table",
]
