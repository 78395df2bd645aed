"""Replays, one JSON-lines file per match (docs/replay-format.md): write; read, check and
re-simulate (one validating reader for every command); verify; render; export."""

from typing import TYPE_CHECKING

from croupier._lazy import facade

if TYPE_CHECKING:
    from croupier.replay._check import ReplayCheck
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
    from croupier.replay._reader import VerifyReport, follow, read_replay, verify
    from croupier.replay._records import Record, Replay
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

# Each name is imported from its module when it is first read (croupier._lazy).
__getattr__, __dir__ = facade(
    __name__,
    {
        "Move": "_diff",
        "RoundDiff": "_diff",
        "by_bot": "_diff",
        "diff": "_diff",
        "seat_names": "_diff",
        "FORMATS": "_export",
        "SCHEMAS": "_export",
        "TABLES": "_export",
        "Tables": "_export",
        "check_parquet": "_export",
        "destinations": "_export",
        "write_table": "_export",
        "Policy": "_play",
        "record_match": "_play",
        "Record": "_records",
        "Replay": "_records",
        "ReplayCheck": "_check",
        "VerifyReport": "_reader",
        "follow": "_reader",
        "read_replay": "_reader",
        "verify": "_reader",
        "OMNISCIENT": "_render",
        "Line": "_render",
        "Narration": "_render",
        "narrate": "_render",
        "render": "_render",
        "round_facts": "_render",
        "round_results": "_render",
        "select_rounds": "_render",
        "summarize": "_render",
        "summary_data": "_render",
        "Decision": "_step",
        "Walk": "_step",
        "FORMAT": "_writer",
        "FORMAT_VERSION": "_writer",
        "READABLE_VERSIONS": "_writer",
        "RecordListener": "_writer",
        "ReplayWriter": "_writer",
        "score_text": "_writer",
    },
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
